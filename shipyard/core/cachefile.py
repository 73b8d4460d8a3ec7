"""The one way Shipyard reads and writes its cache folder (validated manifests and
catalogs, font subsets, token images, compiled sheet templates).

A cache file is only a shortcut: whatever is wrong with it means the slow, normal read,
never an error and never a wrong answer. Three things make it so.

**Whose folder it is.** The folder (``$XDG_CACHE_HOME/shipyard``) is used only when it
belongs to the user running Shipyard and nobody else may write in it, and a file in it
only when it is the user's and nobody else may write it: a file planted in a shared or
world-writable cache folder ran its code on ``shipyard --help`` when the caches were
pickles. A folder that fails is left alone and said so once, on stderr (``shipyard:
note: ...``, once for the process and the processes it starts); Shipyard then works
without its cache. The folder is made 0700 and every file 0600. The folder is opened
once and every file opened relative to it, without following a link, so the folder
cannot be swapped between the check and the read; only a regular file is read (a named
pipe in place of a cache file hung every command).

**Data, not code.** A cache holds JSON (:mod:`shipyard.core.plaindata`): reading it
builds objects of Shipyard's own classes (and the caller's trusted packages'), never
runs code the file names.

**What it is for.** The envelope holds the whole key the entry was made for (for a
catalog: the ruleset id, its folders, the digest of every file it was made from,
Shipyard's, Python's and pydantic's versions, see :mod:`shipyard.core.catalog_cache`)
and :func:`read` returns the value only when the stored key equals the key asked for,
not merely when the file name matches: a catalog cached for another ruleset, copied
under a second ruleset's cache name, was used as is.

**Whose Shipyard wrote it.** Every cache file is :func:`sealed <write_sealed>`: an HMAC
with a secret of the user's own (32 random bytes in the private folder, 0600) must match
before the bytes are given back. A catalog kept under its right key but with a number
changed (a cost of 9, or "two") was trusted: the verdict flipped, or every check was an
internal error until the file was deleted. Now a file this user's Shipyard did not write
as it is, whether damaged on disk or edited, is not read; compiled templates, which are
code, are run only when this user's Shipyard compiled them.

Set SHIPYARD_NO_CACHE=1 to bypass every cache. Standard library only.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
import shutil
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from shipyard.core import plaindata

# The envelope's own layout; a file written by another layout is simply not used.
FORMAT = "shipyard-cache-3"
SUFFIX = ".json"
# A cache file bigger than this is not ours to read (a catalog's is well under a megabyte).
MAX_CACHE_BYTES = 64 * 1024 * 1024
SECRET_FILE = "seal.key"
SEAL_HEADER = b"shipyard-sealed-1\n"
NOTED_VARIABLE = "SHIPYARD_CACHE_NOTED"  # the folder already noted, for the processes this one starts

_OPEN_DIR = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_OPEN_FILE = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | _NOFOLLOW | getattr(os, "O_NOCTTY", 0)
_OPEN_FILE |= getattr(os, "O_CLOEXEC", 0)
_noted = False
_tidied = False
LEGACY_FILES = ("manifests.pickle", "field-fonts.pickle", "token-images.pickle", "preview-font-subsets.pickle")
LEGACY_FOLDER = "compiled-templates"  # jinja2's own bytecode files, unsealed
# path -> (its status when hashed, its digest): a file is hashed again only when it changes
_digests: dict[Path, tuple[tuple[int, ...], str]] = {}


def root() -> Path:
    from shipyard.core.resources import user_cache_folder

    return user_cache_folder()


def _enabled() -> bool:
    return not os.environ.get("SHIPYARD_NO_CACHE")


def _uid() -> int | None:
    geteuid = getattr(os, "geteuid", None)
    return geteuid() if geteuid is not None else None


def _why_not_private(st: os.stat_result, what: str) -> str | None:
    """Why a folder or file with this status is not the user's own to trust; None if it is."""
    uid = _uid()
    if uid is not None and st.st_uid != uid:
        return f"is owned by another user (uid {st.st_uid}, not {uid})"
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"can be written by other users (mode {stat.S_IMODE(st.st_mode):04o}); {what}"
    return None


def _note(path: Path, why: str) -> None:
    """Say once (for this process and the ones it starts) that the cache is not used, and why."""
    global _noted
    if _noted or os.environ.get(NOTED_VARIABLE) == str(root()):
        return
    _noted = True
    os.environ[NOTED_VARIABLE] = str(root())
    print(
        f"shipyard: note: the cache folder {path} {why}; Shipyard works without its cache "
        f"(to use it again, make it yours and private: chmod 700 {path}, or remove it)",
        file=sys.stderr,
    )


def quiet() -> None:
    """Never say the note in this process: a render worker's, whose parent reads the same
    cache folder (its catalogs) and says it, perhaps only after the worker started."""
    global _noted
    _noted = True


def _make(folder: Path) -> None:
    """Make ``folder`` 0700, and any missing folder above it 0700 too (as the XDG spec asks)."""
    missing = []
    for above in (folder, *folder.parents):
        if above.exists() or above.is_symlink():
            break
        missing.append(above)
    for each in reversed(missing):
        with contextlib.suppress(FileExistsError):
            each.mkdir(0o700)


@contextlib.contextmanager
def _folder(parts: tuple[str, ...], create: bool) -> Iterator[int | None]:
    """A descriptor of the trusted cache folder (or of ``parts`` below it), None if there is
    none to trust; made (0700) when ``create``."""
    fds: list[int] = []
    try:
        found = _open(parts, create, fds) if _enabled() else None
    except OSError:
        found = None
    try:
        yield found
    finally:
        for fd in fds:
            os.close(fd)


def _open(parts: tuple[str, ...], create: bool, fds: list[int]) -> int | None:
    """Open the cache folder and ``parts`` below it one by one (into ``fds``), each checked."""
    top = root()
    if create:
        _make(top)
    fds.append(os.open(top, _OPEN_DIR))
    for depth in range(len(parts) + 1):
        if depth:
            if create:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(parts[depth - 1], 0o700, dir_fd=fds[-1])
            fds.append(os.open(parts[depth - 1], _OPEN_DIR | _NOFOLLOW, dir_fd=fds[-1]))
        why = _why_not_private(os.fstat(fds[-1]), "a file in it could be anyone's")
        if why is not None:
            _note(top.joinpath(*parts[:depth]), why)
            return None
        if create and not depth:
            _tidy(fds[-1])
    return fds[-1]


def _tidy(dir_fd: int) -> None:
    """Remove, once a process, what older versions kept and nothing reads now: the pickles
    and the unsealed compiled templates."""
    global _tidied
    if _tidied:
        return
    _tidied = True
    with contextlib.suppress(OSError):
        for name in os.listdir(dir_fd):
            if name.endswith(".pickle") and (name.startswith("catalog-") or name in LEGACY_FILES):
                with contextlib.suppress(OSError):
                    os.unlink(name, dir_fd=dir_fd)
            elif name == LEGACY_FOLDER:
                shutil.rmtree(name, ignore_errors=True, dir_fd=dir_fd)


def _split(name: str) -> tuple[tuple[str, ...], str]:
    *parts, leaf = name.split("/")
    if not leaf or any(p in ("", ".", "..") for p in (*parts, leaf)):
        raise ValueError(f"not a cache file name: {name!r}")
    return tuple(parts), leaf


def _read_in(dir_fd: int, leaf: str, *, secret: bool = False) -> bytes | None:
    """The bytes of regular file ``leaf`` of the folder, if the user's own and private."""
    try:
        fd = os.open(leaf, _OPEN_FILE, dir_fd=dir_fd)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
    except OSError:
        os.close(fd)
        return None
    if not stat.S_ISREG(st.st_mode):  # a folder of that name opens too, but is no file to read
        os.close(fd)
        return None
    with os.fdopen(fd, "rb") as fh:
        if st.st_size > MAX_CACHE_BYTES:
            return None
        if _why_not_private(st, "") is not None or (secret and st.st_mode & 0o077):
            return None
        try:
            return fh.read(MAX_CACHE_BYTES + 1)
        except OSError:
            return None


def _write_in(dir_fd: int, leaf: str, data: bytes) -> bool:
    """Write ``leaf`` whole (0600) beside it, then rename it in: a reader never sees half a file."""
    tmp = f".{leaf}.{secrets.token_hex(6)}.tmp"
    try:
        fd = os.open(
            tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | getattr(os, "O_CLOEXEC", 0), 0o600, dir_fd=dir_fd
        )
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, leaf, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        return True
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp, dir_fd=dir_fd)
        return False


def read_bytes(name: str) -> bytes | None:
    """The bytes of cache file ``name`` (``sub/folder/file`` below the cache folder), or None."""
    parts, leaf = _split(name)
    with _folder(parts, create=False) as dir_fd:
        return None if dir_fd is None else _read_in(dir_fd, leaf)


def write_bytes(name: str, data: bytes) -> bool:
    parts, leaf = _split(name)
    with _folder(parts, create=True) as dir_fd:
        return dir_fd is not None and _write_in(dir_fd, leaf, data)


def read(name: str, key: object, trusted: tuple[str, ...] = ("shipyard",)) -> Any:
    """The value stored in cache file ``name`` for exactly ``key``; None for anything else
    (missing, not a regular file, a link, not the user's, too big, not sealed by this user's
    Shipyard, corrupt, another key, another layout). Its objects may be of classes in the
    ``trusted`` packages only."""
    data = read_sealed(name)
    if data is None:
        return None
    try:
        stored = json.loads(data)
        if not isinstance(stored, dict) or stored.get("format") != FORMAT:
            return None
        if stored.get("key") != plaindata.encode(key):
            return None
        return plaindata.decode(stored.get("value"), trusted)
    except (ValueError, plaindata.Unencodable, RecursionError):  # corrupt, or another version's
        return None


def write(name: str, key: object, value: Any, trusted: tuple[str, ...] = ("shipyard",)) -> bool:
    """Store ``value`` for ``key`` in cache file ``name``; False (and nothing left) when it
    cannot be (a folder not to be trusted or written, a full disk, a value with no plain form)."""
    if not _enabled():
        return False
    try:
        envelope = {"format": FORMAT, "key": plaindata.encode(key), "value": plaindata.encode(value, trusted)}
        data = json.dumps(envelope, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    except (plaindata.Unencodable, ValueError, RecursionError):
        return False
    return write_sealed(name, data)


def remove(names: list[str]) -> None:
    """Remove these cache files (in the cache folder itself), quietly."""
    with _folder((), create=False) as dir_fd:
        if dir_fd is None:
            return
        for leaf in names:
            with contextlib.suppress(OSError, ValueError):
                _split(leaf)
                os.unlink(leaf, dir_fd=dir_fd)


def names(prefix: str) -> list[str]:
    """The names of the cache folder's files that start with ``prefix``."""
    with _folder((), create=False) as dir_fd:
        if dir_fd is None:
            return []
        try:
            return sorted(n for n in os.listdir(dir_fd) if n.startswith(prefix))  # noqa: PTH208 - by descriptor
        except OSError:
            return []


def digest(path: Path) -> str:
    """A cache key's part for a file it depends on: its content's SHA-256 (or ``missing``).

    Not its size and modification time: a file edited without changing either (as an
    editor or ``git checkout`` can leave it) was taken for the same file. Within one
    process a digest is made again only when the file's status changes (size,
    modification time, inode, or the change time, which no program can set back)."""
    try:
        st = path.stat()
    except OSError:
        return "missing"
    status = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    known = _digests.get(path)
    if known is not None and known[0] == status:
        return known[1]
    try:
        made = hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return "unreadable"
    _digests[path] = (status, made)
    return made


# --- sealed: code compiled by this user's Shipyard ------------------------------------------


def _secret(dir_fd: int) -> bytes | None:
    """This user's sealing secret, made on first use; a secret that is not the user's own
    and private (0600) is replaced, which only unseals what was sealed with it."""
    found = _read_in(dir_fd, SECRET_FILE, secret=True)
    if found is not None and len(found) == 32:
        return found
    made = secrets.token_bytes(32)
    return made if _write_in(dir_fd, SECRET_FILE, made) else None


def _seal(secret: bytes, leaf: str, data: bytes) -> bytes:
    return hmac.new(secret, leaf.encode("utf-8") + b"\0" + data, hashlib.sha256).digest()


def read_sealed(name: str) -> bytes | None:
    """The bytes :func:`write_sealed` stored in ``name``, if their seal is this user's; else None."""
    parts, leaf = _split(name)
    with _folder(parts, create=False) as dir_fd:
        if dir_fd is None:
            return None
        data = _read_in(dir_fd, leaf)
    if data is None or not data.startswith(SEAL_HEADER):
        return None
    seal, body = data[len(SEAL_HEADER) : len(SEAL_HEADER) + 32], data[len(SEAL_HEADER) + 32 :]
    with _folder((), create=False) as top_fd:
        secret = _read_in(top_fd, SECRET_FILE, secret=True) if top_fd is not None else None
    if secret is None or len(secret) != 32 or not hmac.compare_digest(seal, _seal(secret, leaf, body)):
        return None
    return body


def write_sealed(name: str, data: bytes) -> bool:
    """Store ``data`` in ``name`` with a seal of this user's secret (see :func:`read_sealed`)."""
    _parts, leaf = _split(name)
    with _folder((), create=True) as top_fd:
        secret = _secret(top_fd) if top_fd is not None else None
    if secret is None:
        return False
    return write_bytes(name, SEAL_HEADER + _seal(secret, leaf, data) + data)
