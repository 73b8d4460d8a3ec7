"""Where the data folders are: inside the installed wheel, or beside the source tree.

The wheel carries ``catalogs/``, ``templates/`` and the rules readings of ``docs/`` as
``shipyard/_data/...`` and we find them through importlib.resources; a source checkout has
them at the top level.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path


@cache  # where Shipyard is installed does not change while it runs; the editor's start asks ~30 times
def _data_root(name: str) -> Path:
    package = Path(__file__).resolve().parents[1]  # the package's folder, where it is one (nearly always)
    if package.is_dir():
        packaged = package / "_data" / name
    else:  # a package read from an archive: importlib.resources knows where its files are
        from importlib.resources import files

        packaged = Path(str(files("shipyard"))) / "_data" / name
    if packaged.is_dir():
        return packaged
    return package.parent / name


def data_path(relative: str) -> Path:
    """A path inside Shipyard's own data folders: ``catalogs/...``, ``templates/...`` or ``docs/...``."""
    top, _, rest = relative.strip("/").partition("/")
    root = _data_root(top)
    return root / rest if rest else root


def builtin_catalog_root() -> Path:
    return _data_root("catalogs")


def builtin_template_root() -> Path:
    return _data_root("templates")


def user_data_folder() -> Path:
    """Shipyard's folder for the user's own files (house rules, autosaves), per the XDG spec."""
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "shipyard"


def user_cache_folder() -> Path:
    """Shipyard's folder for what can be made again (the validated-catalog cache), per the XDG spec."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "shipyard"
