"""One cache envelope for every pickled cache (validated manifests, validated catalogs).

A cache file is only a shortcut: whatever is wrong with it means the slow, normal read,
never an error and never a wrong answer. So a cache entry proves what it belongs to:
the envelope holds the whole key the entry was made for (for a catalog: the ruleset id,
its folders, every file's path, size and modification time, Shipyard's, Python's and
pydantic's versions) and :func:`read` returns the value only when the stored key equals
the key asked for, not merely when the file name matches (a catalog pickled for another
ruleset, copied under a second ruleset's cache name, was used as is). And it reads only a
regular file, opened without blocking and without following a link: a named pipe in
place of a cache file hung every command.

Standard library only.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import stat
import tempfile
from pathlib import Path
from typing import Any

# The envelope's own layout; a file written by another layout is simply not used.
FORMAT = "shipyard-cache-1"
# A cache file bigger than this is not ours to read (the biggest catalog pickles to ~1 MB).
MAX_CACHE_BYTES = 64 * 1024 * 1024


def read(path: Path, key: object) -> Any:
    """The value stored in ``path`` for exactly ``key``; None for anything else (missing,
    not a regular file, a link, too big, corrupt, another key, another layout)."""
    if os.environ.get("SHIPYARD_NO_CACHE"):
        return None
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as fh:
            st = os.fstat(fh.fileno())
            if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_CACHE_BYTES:
                return None
            stored = pickle.load(fh)
    except Exception:  # corrupt, truncated, written by another version: read the files
        return None
    if not isinstance(stored, dict) or stored.get("format") != FORMAT or stored.get("key") != key:
        return None
    return stored.get("value")


def write(path: Path, key: object, value: Any) -> bool:
    """Store ``value`` for ``key`` in ``path``: written whole to a temporary file, then
    renamed, so a reader never sees half a cache. False (and nothing left) when it fails."""
    if os.environ.get("SHIPYARD_NO_CACHE"):
        return False
    tmp: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            pickle.dump({"format": FORMAT, "key": key, "value": value}, fh, protocol=pickle.HIGHEST_PROTOCOL)
        Path(tmp).replace(path)
        return True
    except Exception:  # an unwritable folder, a full disk, an unpicklable value: no cache
        if tmp is not None:
            with contextlib.suppress(OSError):
                Path(tmp).unlink()
        return False
