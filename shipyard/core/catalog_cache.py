"""A cache of validated catalogs, so a command does not re-parse and re-validate YAML.

Parsing a ruleset's YAML with positions and validating every entry costs ~0.2 s, more
than the rest of ``shipyard check``. The cache key covers everything the result depends
on: the ruleset id, its folders, each catalog file's path, size and modification time
(and the ruleset's manifest and code), Shipyard's version and its own core source files
(a bundle has no sources: its version counts), and the Python and pydantic versions.

The key is stored with the catalog in one envelope (:mod:`shipyard.core.cachefile`) and
compared whole when read, so a file under the right name holding another catalog (another
ruleset's, copied over) is refused, not used; and only a regular file is read. Writing a
new entry removes the older ones for the same ruleset and folders, so the cache does not
grow with every edit of a catalog. Any problem with the cache (unreadable, stale,
corrupt, unwritable folder) means a normal load, never an error.
Set SHIPYARD_NO_CACHE=1 to bypass it.
"""

from __future__ import annotations

import contextlib
import hashlib
import sys
from pathlib import Path
from typing import Any, NamedTuple

from shipyard.core import cachefile

_CODE_ROOT = Path(__file__).resolve().parents[1]


class CacheKey(NamedTuple):
    """What a cached catalog was made from; stored with it and compared whole when read."""

    ruleset: str
    folders: tuple[str, ...]
    depends: tuple[str, ...]  # versions, then every file's path, size and modification time


def folder() -> Path:
    from shipyard.core.resources import user_cache_folder

    return user_cache_folder()


def _stamp(path: Path) -> str:
    try:
        st = path.stat()
    except OSError:
        return f"{path}:missing"
    return f"{path}:{st.st_size}:{st.st_mtime_ns}"


def key(ruleset: str, folders: tuple[Path, ...], files: list[Path]) -> CacheKey:
    """Everything a catalog depends on: its ruleset, its folders, files and versions."""
    import pydantic

    import shipyard

    depends = [shipyard.__version__, sys.version, pydantic.VERSION, *map(_stamp, files)]
    depends += [_stamp(p) for p in sorted((_CODE_ROOT / "core").glob("*.py"))]  # the ruleset's own code is in files
    return CacheKey(ruleset, tuple(map(str, folders)), tuple(depends))


def _file(cache_key: CacheKey) -> Path:
    """``catalog-RULESET-FOLDERS-CONTENT.pickle``: which catalog it is, then a digest of the key."""
    which = hashlib.sha256("\n".join(cache_key.folders).encode()).hexdigest()[:8]
    content = hashlib.sha256("\n".join([cache_key.ruleset, *cache_key.folders, *cache_key.depends]).encode())
    return folder() / f"catalog-{cache_key.ruleset}-{which}-{content.hexdigest()[:32]}.pickle"


def read(cache_key: CacheKey) -> Any:
    """The catalog cached for exactly ``cache_key``, or None."""
    return cachefile.read(_file(cache_key), cache_key)


def write(cache_key: CacheKey, value: Any) -> None:
    target = _file(cache_key)
    if not cachefile.write(target, cache_key, value):
        return
    same_catalog = target.name.rsplit("-", 1)[0]
    with contextlib.suppress(OSError):
        for old in target.parent.glob(f"{same_catalog}-*.pickle"):
            if old.name != target.name:
                old.unlink(missing_ok=True)
