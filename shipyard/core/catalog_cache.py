"""A cache of validated catalogs, so a command does not re-parse and re-validate YAML.

Parsing a ruleset's YAML with positions and validating every entry costs more than the
rest of ``shipyard check``. The cache key covers everything the result depends on: the
ruleset id, its folders, the SHA-256 of every file it was made from (each catalog file,
the ruleset's manifest and code, Shipyard's own core sources), Shipyard's version and the
cache's layout, and the Python and pydantic versions. The content, not the size and
modification time: a house-rule catalog edited without changing either (a cost changed,
as an editor or ``git checkout`` can leave it) was still served from the cache. The files
are small YAML and Python files, so hashing them is cheap; within one process a file's
digest is made again only when its status changes (size, modification time, inode, or
the change time, which no program can set back).

The key is stored with the catalog in one envelope (:mod:`shipyard.core.cachefile`) and
compared whole when read, so a file under the right name holding another catalog (another
ruleset's, copied over) is refused, not used, and the loader checks that the catalog says
it is the ruleset's. Writing a new entry removes the older ones for the same ruleset and
folders, so the cache does not grow with every edit of a catalog. Any problem with the
cache (unreadable, stale, corrupt, not the user's, unwritable folder) means a normal
load, never an error. Set SHIPYARD_NO_CACHE=1 to bypass it.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from shipyard.core import cachefile

_CODE_ROOT = Path(__file__).resolve().parents[1]
_code: dict[Path, tuple[str, ...]] = {}  # see code_digests


def folder() -> Path:
    """The cache folder the entries are in (see :mod:`shipyard.core.cachefile`)."""
    return cachefile.root()


class CacheKey(NamedTuple):
    """What a cached catalog was made from; stored with it and compared whole when read."""

    ruleset: str
    folders: tuple[str, ...]
    depends: tuple[str, ...]  # versions, then every file's path and content digest


def code_digests(catalog: Path, code_files: Callable[[], list[Path]]) -> tuple[str, ...]:
    """The digests of a ruleset's code (``code_files``) and Shipyard's core sources, made
    once a process for each catalog: the code that builds a catalog is the code imported
    when the process started, whatever the files say later."""
    if catalog not in _code:
        files = [*code_files(), *sorted((_CODE_ROOT / "core").glob("*.py"))]
        _code[catalog] = tuple(f"{p}:{cachefile.digest(p)}" for p in files)
    return _code[catalog]


def key(ruleset: str, folders: tuple[Path, ...], files: list[Path], code: tuple[str, ...]) -> CacheKey:
    """Everything a catalog depends on: its ruleset, its folders, its files' contents, the
    digests of the code that builds it (:func:`code_digests`) and the versions."""
    import pydantic

    import shipyard

    depends = [cachefile.FORMAT, shipyard.__version__, sys.version, pydantic.VERSION]
    depends += [f"{p}:{cachefile.digest(p)}" for p in files]
    return CacheKey(ruleset, tuple(map(str, folders)), (*depends, *code))


def key_digest(cache_key: CacheKey) -> str:
    """The SHA-256 of the whole key: another digest whenever anything the catalog is made from changed."""
    return hashlib.sha256("\n".join([cache_key.ruleset, *cache_key.folders, *cache_key.depends]).encode()).hexdigest()


def _name(cache_key: CacheKey) -> str:
    """``catalog-RULESET-FOLDERS-CONTENT.json``: which catalog it is, then a digest of the key."""
    which = hashlib.sha256("\n".join(cache_key.folders).encode()).hexdigest()[:8]
    return f"catalog-{cache_key.ruleset}-{which}-{key_digest(cache_key)[:32]}{cachefile.SUFFIX}"


def read(cache_key: CacheKey, trusted: tuple[str, ...]) -> Any:
    """The catalog cached for exactly ``cache_key``, or None; its classes from ``trusted`` packages."""
    return cachefile.read(_name(cache_key), cache_key, trusted)


def write(cache_key: CacheKey, value: Any, trusted: tuple[str, ...]) -> None:
    name = _name(cache_key)
    if not cachefile.write(name, cache_key, value, trusted):
        return
    same_catalog = name.rsplit("-", 1)[0] + "-"
    cachefile.remove([old for old in cachefile.names(same_catalog) if old != name])
