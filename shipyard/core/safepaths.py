"""Is this path inside these folders? Asked of the resolved path, links followed.

A folder of templates or catalog files may come from a stranger, and a symbolic link in
it can point anywhere (``/proc/self/environ``, a key file). Whatever reads such a folder
asks :func:`inside` (or :func:`check_inside`) of every file before opening it: the path
with every link resolved must lie under one of the folders, themselves resolved. The
sheet templates' loader, the renderer's URL fetcher and the catalog loader share this
one test, so they cannot disagree about what a link may reach.

Standard library only.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path


def resolved(path: str | os.PathLike[str]) -> Path:
    """``path`` with every symbolic link and ``..`` resolved (it need not exist)."""
    return Path(path).resolve()


def inside(path: str | os.PathLike[str], folders: Iterable[str | os.PathLike[str]]) -> bool:
    """True when ``path``, resolved, is one of ``folders`` (resolved) or lies under one."""
    real = resolved(path)
    return any(real.is_relative_to(resolved(f)) for f in folders)


def is_regular_file(path: str | os.PathLike[str]) -> bool:
    """True for a regular file (after links); False for folders, pipes, devices, sockets, nothing."""
    try:
        return stat.S_ISREG(Path(path).stat().st_mode)
    except (OSError, ValueError):
        return False


_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISLNK, "a symbolic link"),
)


def kind_of(mode: int) -> str:
    """What a file of this ``st_mode`` is, in words for a message ("a named pipe (FIFO)")."""
    return next((words for test, words in _KINDS if test(mode)), "not a regular file")
