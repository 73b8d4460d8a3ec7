"""The library folders the person chose for the hangar, kept in their settings.

A small JSON file in the XDG config folder (``$XDG_CONFIG_HOME/shipyard/hangar.json``),
apart from the index: the index is a cache that may be deleted; the folders are the
person's choice and are not. An add or remove holds the file's write lock from before it
reads the list until its change is written (:func:`shipyard.core.atomicwrite.locked`), so
several at once (a script adding folders in the background) each land.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path

from shipyard.core.atomicwrite import atomic_write_text, locked, make_folder, write_if_absent
from shipyard.core.errors import InputError
from shipyard.core.safepaths import is_folder

MAX_SETTINGS_BYTES = 256 * 1024


def settings_file() -> Path:
    home = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(home) / "shipyard" / "hangar.json"


def folders() -> list[Path]:
    """The library folders, in the order they were added (an unreadable settings file: none, and said)."""
    file = settings_file()
    try:
        text = file.read_text(encoding="utf-8") if file.is_file() else ""
        data = json.loads(text) if text.strip() else {}  # empty: being made by another Shipyard
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise InputError.single(
            f"the hangar's settings cannot be read ({exc}); remove the file to start again with no folders",
            file=file,
        ) from None
    listed = data.get("folders", []) if isinstance(data, dict) else []
    return [Path(f) for f in listed if isinstance(f, str)]


def _text(listed: list[Path]) -> str:
    return json.dumps({"folders": [str(f) for f in listed]}, indent=2) + "\n"


@contextlib.contextmanager
def _changing() -> Iterator[list[Path]]:
    """The folders, read under the settings file's write lock, held until the block ends
    (and its :func:`_save`): two adds at once each read the list before the other wrote
    it, and each wrote its own over the other's, both saying "added". The file is made
    first when there is none (with no folders), since only a file that is there can be
    locked."""
    file = settings_file()
    make_folder(file.parent)
    write_if_absent(file, _text([]).encode("utf-8"))
    with locked([file]):
        yield folders()


def _save(listed: list[Path]) -> None:
    atomic_write_text(settings_file(), _text(listed))


def add(folder: str | Path) -> tuple[Path, bool]:
    """Add a folder (made absolute, links resolved); returns it and whether it was new."""
    if not is_folder(folder):
        what = "does not exist" if not os.path.lexists(folder) else "is not a folder"
        raise InputError.single(f"{folder} {what}", path="FOLDER", allowed="a folder that holds design files")
    real = Path(folder).resolve()
    with _changing() as listed:
        if real in listed:
            return real, False
        for f in listed:
            if real.is_relative_to(f):
                raise InputError.single(
                    f"{real} is inside the library folder {f}, which is indexed with everything in it", path="FOLDER"
                )
            if f.is_relative_to(real):
                raise InputError.single(
                    f"{real} holds the library folder {f}: take that one out first (`shipyard hangar remove {f}`)",
                    path="FOLDER",
                )
        _save([*listed, real])
    return real, True


def remove(folder: str | Path) -> Path:
    """Remove a folder from the library (its files are left alone); returns the folder removed."""
    with _changing() as listed:
        for candidate in (Path(folder), Path(folder).expanduser().absolute(), Path(folder).resolve()):
            if candidate in listed:
                _save([f for f in listed if f != candidate])
                return candidate
    raise InputError.single(
        f"{folder} is not a library folder",
        path="FOLDER",
        allowed=", ".join(str(f) for f in listed) or "none yet: add one with `shipyard hangar add FOLDER`",
    )
