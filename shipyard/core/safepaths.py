"""The safe folder walk: what lies below a folder of templates or catalog files, links refused.

A folder of templates or catalog files may come from a stranger, and a symbolic link in
it can point anywhere (``/etc``, ``/proc/self/environ``, a key file). Checking where a
*file* leads is not enough: a linked *folder* (``S/some-ruleset -> /etc``) made every
file under it look inside "its" folder. So nothing below a folder Shipyard was told to
read is followed: :func:`walk` looks at every step from that folder down with ``lstat``
(never following a link) and refuses a step that is a symbolic link, a folder where a
file must be, or a pipe, device or socket where a regular file must be. The folder the
user named (``--template S``, ``--catalog D``, the user catalog folder) may itself be a
link: they chose it.

The sheet templates' loader, the template and catalog folders of a ruleset, the
renderer's URL fetcher and the catalog loader all walk this way, so they cannot disagree
about what may be read. :func:`inside` is still the test of a file already named by a
resolved path (a YAML file a command was handed).

Standard library only.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Sequence
from pathlib import Path


class UnsafePath(ValueError):
    """A step below a folder that is a link, or not the folder or regular file it must be."""

    def __init__(self, path: Path, what: str, root: Path) -> None:
        self.path = path
        self.what = what
        self.root = root
        super().__init__(f"{path} is {what}; only real folders and regular files inside {root} are read, never links")


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


def exists(path: str | os.PathLike[str]) -> bool:
    """True when something is at ``path``; False for a name no file can have (too long, a NUL
    byte), which :meth:`Path.exists` raises for: an argument a person typed is only a name."""
    try:
        os.stat(path)  # noqa: PTH116
    except (OSError, ValueError):
        return False
    return True


def is_folder(path: str | os.PathLike[str]) -> bool:
    """True for a folder (after links); False for anything else, and for a name no file can have."""
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)  # noqa: PTH116
    except (OSError, ValueError):
        return False


_KINDS = (
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISREG, "a regular file"),
)


def kind_of(mode: int) -> str:
    """What a file of this ``st_mode`` is, in words for a message ("a named pipe (FIFO)")."""
    return next((words for test, words in _KINDS if test(mode)), "not a regular file")


def walk(root: Path, parts: Sequence[str], *, leaf: str = "file") -> Path:
    """``root / parts...``, every step below ``root`` checked without following links.

    Every step but the last must be a real folder; the last a regular file
    (``leaf="file"``) or a real folder (``leaf="folder"``). Raises :class:`UnsafePath`
    for a link or a wrong kind of file, :class:`FileNotFoundError` when a step is missing.
    """
    if any(p in ("", ".", "..") or os.sep in p for p in parts):
        raise UnsafePath(root.joinpath(*parts), "a path leaving its folder", root)
    path = root
    for i, part in enumerate(parts):
        path = path / part
        mode = os.lstat(path).st_mode  # FileNotFoundError when missing
        last = i == len(parts) - 1
        if stat.S_ISLNK(mode):
            raise UnsafePath(path, "a symbolic link", root)
        wanted = stat.S_ISREG if last and leaf == "file" else stat.S_ISDIR
        if not wanted(mode):
            raise UnsafePath(path, kind_of(mode), root)
    return path


def subfolder(root: Path, name: str) -> Path | None:
    """``root / name`` when it is a real folder; None when nothing is there; UnsafePath otherwise."""
    try:
        return walk(root, [name], leaf="folder")
    except (FileNotFoundError, NotADirectoryError):
        return None


def regular_files(folder: Path, suffixes: tuple[str, ...]) -> list[Path]:
    """The files of ``folder`` whose names end in ``suffixes``, sorted; any such name that is a
    link or not a regular file raises :class:`UnsafePath` (it is never skipped silently)."""
    try:
        names = sorted(p.name for p in folder.iterdir() if p.name.endswith(suffixes))
    except (FileNotFoundError, NotADirectoryError):
        return []
    return [walk(folder, [n]) for n in names]


def walk_below(path: Path, roots: Iterable[Path]) -> Path:
    """``path`` (absolute, not resolved) walked from the root it lies under, as :func:`walk` does.

    For a file named by a full path (a sheet's ``url()``): it must lie, as written, under
    one of ``roots``, and be a regular file reached without a link. Raises
    :class:`UnsafePath` (or FileNotFoundError) otherwise.
    """
    plain = Path(os.path.normpath(path))
    for root in roots:
        if plain.is_relative_to(root) and plain != root:
            return walk(root, plain.relative_to(root).parts)
    raise UnsafePath(plain, "outside the folders sheets may read", Path(os.pathsep.join(map(str, roots))))
