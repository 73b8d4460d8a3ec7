"""A cache of validated catalogs, so a command does not re-parse and re-validate YAML.

Parsing a ruleset's YAML with positions and validating every entry costs ~0.2 s, more
than the rest of ``shipyard check``. The cache key covers everything the result depends
on: each catalog file's path, size and modification time (and the ruleset's manifest and
code), Shipyard's version and its own
source files (a bundle has no sources: its version counts), and the Python and pydantic
versions. Writing a new entry removes the older ones for the same ruleset and folders,
so the cache does not grow with every edit of a catalog. Any problem with the cache (unreadable, stale,
corrupt, unwritable folder) means a normal load, never an error.
Set SHIPYARD_NO_CACHE=1 to bypass it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import sys
import tempfile
from pathlib import Path
from typing import Any

_CODE_ROOT = Path(__file__).resolve().parents[1]


def folder() -> Path:
    from shipyard.core.resources import user_cache_folder

    return user_cache_folder()


def _stamp(path: Path) -> str:
    try:
        st = path.stat()
    except OSError:
        return f"{path}:missing"
    return f"{path}:{st.st_size}:{st.st_mtime_ns}"


def key(ruleset: str, folders: tuple[Path, ...], files: list[Path]) -> str:
    """``RULESET-FOLDERS-CONTENT``: which catalog it is, then a digest of everything it depends on."""
    import pydantic

    import shipyard

    parts = [ruleset, shipyard.__version__, sys.version, pydantic.VERSION, *map(str, folders), *map(_stamp, files)]
    parts += [_stamp(p) for p in sorted((_CODE_ROOT / "core").glob("*.py"))]  # the ruleset's own code is in files
    which = hashlib.sha256("\n".join(map(str, folders)).encode()).hexdigest()[:8]
    content = hashlib.sha256("\n".join(parts).encode()).hexdigest()[:32]
    return f"{ruleset}-{which}-{content}"


def read(cache_key: str) -> Any:
    if os.environ.get("SHIPYARD_NO_CACHE"):
        return None
    try:
        with (folder() / f"catalog-{cache_key}.pickle").open("rb") as fh:
            return pickle.load(fh)
    except Exception:
        return None


def write(cache_key: str, value: Any) -> None:
    if os.environ.get("SHIPYARD_NO_CACHE"):
        return
    try:
        target = folder()
        target.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target, suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            pickle.dump(value, fh, protocol=pickle.HIGHEST_PROTOCOL)
        Path(tmp).replace(target / f"catalog-{cache_key}.pickle")
        same_catalog = cache_key.rsplit("-", 1)[0]
        for old in target.glob(f"catalog-{same_catalog}-*.pickle"):
            if old.name != f"catalog-{cache_key}.pickle":
                old.unlink(missing_ok=True)
    except Exception:
        with contextlib.suppress(Exception):
            Path(tmp).unlink(missing_ok=True)
