"""Writing files so that nothing is ever half written, overwritten behind a writer's back,
or replaced against the user's wish.

Every file Shipyard writes from the command line or the editor goes through
:func:`atomic_write_many` (or its one-file forms): a temporary file in the same folder,
fsync, rename, so a crash or a full disk never leaves half a file. Around that:

- a write lock (:func:`locked`): an advisory ``flock`` on each file about to be replaced,
  held while it is replaced. A command that reads a design, changes it and writes it back
  (``set``, ``fix --in-place``) holds the lock from before its read until after its write,
  so two such commands on one file take turns and neither's change is lost (without it,
  each read the file before the others wrote and wrote its own copy over theirs, and
  each said "wrote");
- a file the user write-protected (no write permission bit) is never replaced, not even
  by root, for whom the permission bits do not stop a write (:func:`refuse_read_only`);
- a link, pipe, device or folder is never replaced by a plain file (:func:`refuse_non_regular`);
- what a killed writer left (its temporary file, its backup link) is removed by the next
  write into that folder, once it is old and its writer has ended (:func:`remove_stale`).

Standard library only: the command line imports this on every write.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from shipyard.core.errors import InputError
from shipyard.core.safepaths import kind_of
from shipyard.core.termtext import quote


def atomic_write_text(target: Path, text: str) -> None:
    """Write ``text`` to ``target`` so that readers see the old file or the new one, never half."""
    atomic_write_bytes(target, text.encode("utf-8"))


def make_folder(folder: Path) -> None:
    """Create ``folder`` (and its parents); a failure is the user's input error, with the reason."""
    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError.single(f"cannot create the folder: {exc.strerror or exc}", file=folder) from None


def write_into_folder(folder: Path, files: list[tuple[Path, bytes]]) -> None:
    """Write ``files`` (paths inside ``folder``) all or none, making ``folder`` when it is missing;
    a write that fails removes the folder again if it was made for it, so nothing is left."""
    made = not Path(folder).exists()
    make_folder(folder)
    try:
        atomic_write_many(files)
    except BaseException:
        if made:
            with contextlib.suppress(OSError):
                Path(folder).rmdir()
        raise


def folder_missing(target: Path) -> str | None:
    """Why ``target`` cannot be written for want of its folder, in words (None: its folder is
    there): the folder is not there, or a part of its path is a file."""
    folder = _folder(Path(target))
    if folder.is_dir():
        return None
    up = next((f for f in (folder, *folder.parents) if f.exists() and not f.is_dir()), None)
    if up is not None:
        return f"{quote(str(up))} is a file, not a folder"
    return f"the folder {quote(str(folder))} does not exist: make it first, or write into a folder that does"


def cannot_write(exc: OSError, target: Path) -> InputError:
    """Why ``target`` could not be written, in the person's words as well as the system's: its
    "No such file or directory" read as if the file were missing, where the folder to write
    into was."""
    folder = _folder(Path(target))
    why = None
    if exc.errno in (errno.ENOENT, errno.ENOTDIR):
        why = folder_missing(target)
    elif exc.errno in (errno.EACCES, errno.EPERM):
        why = f"no permission to write in the folder {quote(str(folder))}"
    said = exc.strerror or str(exc)
    return InputError.single(
        f"cannot write the file: {said} ({why})" if why else f"cannot write the file: {said}", file=target
    )


def refuse_non_regular(target: Path) -> None:
    """An existing ``target`` that is not a regular file (a link, pipe, device, folder) is never replaced.

    Replacing it would turn ``/dev/full``'s copy or a FIFO into a plain file, or write a
    new file where a link stood; the user meant something else.
    """
    try:
        mode = Path(target).lstat().st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise cannot_write(exc, target) from None
    if not stat.S_ISREG(mode):
        raise InputError.single(
            f"is {kind_of(mode)}; Shipyard writes only new files or over regular files, so nothing was written",
            file=target,
        )


def refuse_read_only(target: Path) -> None:
    """An existing ``target`` the user write-protected (``chmod a-w``, 0444) is never replaced.

    Renaming a new file over it needs only the folder's permission, so without this check
    a protected design was replaced and the command said it wrote it. The permission bits
    are read as they stand (not :func:`os.access`, which is always true for root): a file
    no one may write is refused for root too, and one this user may not write (another
    user's) is refused as well.
    """
    try:
        mode = Path(target).stat().st_mode
    except OSError:  # absent (a new file), or a problem the write itself reports
        return
    if not stat.S_ISREG(mode):
        return
    if mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) and os.access(target, os.W_OK):
        return
    raise InputError.single(
        "is read-only (write-protected), so Shipyard does not replace it; nothing was written",
        file=target,
        allowed=f"make it writable first (chmod u+w {quote(str(target))}), or write to another file",
    )


def refuse_to_replace(target: Path) -> None:
    """Every rule an existing file is checked by before Shipyard writes over it: not a link,
    pipe, device or folder (:func:`refuse_non_regular`), not write-protected
    (:func:`refuse_read_only`). A target that does not exist passes."""
    refuse_non_regular(target)
    refuse_read_only(target)


LOCK_WAIT = 30.0
"""Seconds a write waits for another Shipyard's lock on the same file before giving up."""

# the files this process holds the write lock of, each with its descriptor: a write inside a
# read-modify-write that holds the lock already does not wait for itself. A file is known by
# its (device, inode), not by a name: two names of one file (a hard link, a symlink, a path
# through a linked folder) are one lock, which this process must not wait for either.
_HELD: dict[object, int] = {}


def _identity(name: str) -> object:
    """What a file is, whatever it is called: its (device, inode), or its name if it is not there."""
    try:
        st = os.stat(name)  # noqa: PTH116
    except OSError:
        return name
    return (st.st_dev, st.st_ino)


@contextlib.contextmanager
def locked(targets: Iterable[Path], wait: float | None = None) -> Iterator[None]:
    """Hold the write lock of each of ``targets`` that exists, until the block ends.

    A read-modify-write (``set --in-place``) takes the lock before it reads and keeps it
    until its write is in place; every write takes it too (:func:`atomic_write_many`), so
    the editor's save and a command's write take turns with it. The lock is an advisory
    ``flock`` on the file itself, no lock file beside it: the write replaces the file by a
    rename, so a waiter that then gets the lock of the old file sees that the name now
    holds another and locks that one instead. Locks are taken in the order of the names,
    so two commands locking the same files never wait for each other. If another program
    holds a lock for ``wait`` seconds (:data:`LOCK_WAIT`), the result is an
    :class:`InputError` saying so and nothing is written. A file system that has no locks
    (some network shares) is written without one.
    """
    files: dict[object, str] = {}
    for name in sorted({os.path.abspath(t) for t in targets}):  # noqa: PTH100
        files.setdefault(_identity(name), name)
    # in the order of the files themselves, not of the names given: two commands naming one
    # file by two names (a hard link) still lock in the same order, and never wait for each other
    order = sorted(files, key=str)
    taken: list[object] = []
    try:
        for key, name in ((k, files[k]) for k in order):
            if key in _HELD:
                continue
            fd = _lock(name, LOCK_WAIT if wait is None else wait)
            if fd is not None:
                st = os.fstat(fd)  # the file locked: the name may hold another by now (written meanwhile)
                _HELD[(st.st_dev, st.st_ino)] = fd
                taken.append((st.st_dev, st.st_ino))
        yield
    finally:
        for key in reversed(taken):
            os.close(_HELD.pop(key))  # closing the last descriptor releases the lock


def _lock(name: str, wait: float) -> int | None:
    """The descriptor holding the lock of the file now at ``name``; None if there is none to
    lock (no such file, not a regular file, or a file system without locks)."""
    try:
        import fcntl
    except ImportError:  # Windows: no flock; writes are still atomic
        return None
    deadline = time.monotonic() + wait
    pause = 0.002
    while True:
        try:
            fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        except OSError:  # absent (a new file), or unreadable: the write itself says what is wrong
            return None
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                os.close(fd)
                return None
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise InputError.single(
                            f"another program (another Shipyard?) has been writing this file for {wait:g} s "
                            "and still holds its lock; nothing was written",
                            file=name,
                            allowed="try again when the other program is done",
                        ) from None
                    time.sleep(pause)
                    pause = min(pause * 2, 0.05)
                except OSError as exc:
                    if exc.errno in (errno.ENOLCK, errno.EOPNOTSUPP, errno.EINVAL, errno.EBADF):
                        os.close(fd)
                        return None  # a file system without locks
                    raise
            try:
                now = os.stat(name)  # noqa: PTH116  # a plain name, no Path for every retry
            except FileNotFoundError:
                now = None
            if now is not None and (now.st_dev, now.st_ino) == (st.st_dev, st.st_ino):
                return fd
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)  # the name was replaced (or removed) while this waited: lock what is there now


def atomic_write_bytes(target: Path, data: bytes) -> None:
    """Write ``data`` to ``target`` via a temporary file in the same folder, fsync and rename.

    A folder that does not exist, a full disk or a missing permission is an
    :class:`InputError` naming the file and the reason; the old file is left as it was.
    """
    atomic_write_many([(Path(target), data)])


# Outputs the command line found absent and may not replace (no --force): each is created
# exclusively, so one that appeared meanwhile (another `fix -o NEW` at the same moment) is
# an error, not replaced. Filled by :func:`expect_new`, emptied as each is written.
_MUST_BE_NEW: set[str] = set()


def expect_new(targets: list[Path], new: bool) -> None:
    """Mark ``targets`` as files the next write must create, not replace (``new``), or not."""
    for t in targets:
        key = os.path.abspath(t)  # noqa: PTH100  # not resolve(): the name the user gave
        if new:
            _MUST_BE_NEW.add(key)
        else:
            _MUST_BE_NEW.discard(key)


def _place(tmp: Path, target: Path) -> None:
    """Move the written ``tmp`` to ``target``: a rename over it, or, for a target that must be
    new, a hard link that fails if a file appeared there meanwhile (then the name is freed)."""
    key = os.path.abspath(target)  # noqa: PTH100
    if key not in _MUST_BE_NEW:
        os.replace(tmp, target)
        return
    if not _place_new(tmp, target):
        raise InputError.single(
            "appeared while Shipyard was writing it (another program made it); nothing was replaced, "
            "use --force to replace it",
            file=target,
        )
    _MUST_BE_NEW.discard(key)


def _place_new(tmp: Path, target: Path) -> bool:
    """Move the written ``tmp`` to ``target`` only if no file has that name: False (and
    ``tmp`` left) when one has. A hard link is atomic and never replaces a name; on a file
    system without hard links, the name is claimed (created exclusively, empty for a moment)
    and ``tmp`` renamed over the claim."""
    try:
        os.link(tmp, target)
    except FileExistsError:
        return False
    except OSError:
        try:
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            return False
        os.close(fd)
        os.replace(tmp, target)
    else:
        tmp.unlink()
    return True


def write_if_absent(target: Path, data: bytes) -> bool:
    """Create ``target`` holding ``data`` (synced, whole) unless a file of that name is there
    already, which is left as it is; whether it was created.

    For a file that must exist before it can be locked (:func:`locked` locks only a file
    that is there): a read-modify-write of a settings file that may not exist yet creates
    it first, so the first two writers at once lock the same file instead of each writing
    its own over the other's.
    """
    tmp = _write_temp(Path(target), data)
    try:
        made = _place_new(tmp, Path(target))
    except OSError as exc:
        raise cannot_write(exc, target) from None
    finally:
        tmp.unlink(missing_ok=True)
    if made:
        _sync_folder(_folder(Path(target)))
    return made


def atomic_write_many(files: list[tuple[Path, bytes]]) -> None:
    """Write several files all or nothing: every one is written, or none is changed.

    Each goes to a temporary file beside its target first (a short name, so a target name
    of any length the file system allows works) and is synced; only when all are written
    are they renamed over their targets. If a rename fails, the ones already done are
    undone (old files come back from a hard-linked copy where the file system allows).
    Several files are written and synced side by side (:func:`_write_temps`).
    """
    for target, _ in files:
        refuse_to_replace(target)
    with locked(t for t, _ in files):
        _write_many(files)


def _write_many(files: list[tuple[Path, bytes]]) -> None:
    temps = _write_temps(files)
    done: list[tuple[Path, Path | None]] = []
    try:
        for target, tmp in temps:
            backup = _backup(target)
            try:
                _place(tmp, target)
            except BaseException:
                if backup is not None:
                    backup.unlink(missing_ok=True)
                raise
            done.append((target, backup))
    except BaseException as exc:
        for _, tmp in temps:
            tmp.unlink(missing_ok=True)
        for target, backup in reversed(done):
            with contextlib.suppress(OSError):
                if backup is not None:
                    os.replace(backup, target)
                else:
                    target.unlink()
        if isinstance(exc, OSError):
            raise cannot_write(exc, target) from None
        raise
    for _, backup in done:
        if backup is not None:
            backup.unlink(missing_ok=True)
    for folder in {_folder(t) for t, _ in files}:
        _sync_folder(folder)
        remove_stale(folder)


SYNC_THREADS = 8
"""Temporary files written and synced at once by :func:`_write_temps`."""


def _write_temps(files: list[tuple[Path, bytes]]) -> list[tuple[Path, Path]]:
    """Each file's synced temporary copy beside its target, in the order given; all or none.

    Why side by side: an fsync waits for the file system's journal to commit, so files
    synced one after the other (a Foundry export writes an actor and a token for each
    design) wait for one commit each. Syncs that wait at the same time are committed
    together (ext4's journal, like most, batches them), so a few threads wait for a few
    commits in all. The guarantee is unchanged: every file is synced before any is renamed into place, so a
    crash leaves each target whole (old or new), never half written. Not one sync of the
    whole file system instead (``syncfs``): that is Linux only and waits for every other
    program's unwritten data too.
    """
    if len(files) < 2:
        return [(target, _write_temp(target, data)) for target, data in files]
    from concurrent.futures import ThreadPoolExecutor, wait

    with ThreadPoolExecutor(min(SYNC_THREADS, len(files)), thread_name_prefix="shipyard-sync") as pool:
        futures = [pool.submit(_write_temp, target, data) for target, data in files]
        try:
            wait(futures)
        except BaseException:  # an interrupt while waiting: let the started ones end, then remove them all
            for f in futures:
                f.cancel()
            wait(futures)
            _remove_temps(futures)
            raise
    failed = next((f.exception() for f in futures if f.exception() is not None), None)
    if failed is not None:  # the first failure in the files' order is the one reported
        _remove_temps(futures)
        raise failed
    return [(target, f.result()) for (target, _), f in zip(files, futures, strict=True)]


def _remove_temps(futures: list[Any]) -> None:
    for f in futures:
        if not f.cancelled() and f.exception() is None:
            f.result().unlink(missing_ok=True)


def _folder(target: Path) -> Path:
    return target.parent if str(target.parent) else Path()


def _write_temp(target: Path, data: bytes) -> Path:
    import tempfile  # here: reading a design (every start) needs no temporary file

    folder = _folder(target)
    try:
        fd, name = tempfile.mkstemp(prefix=f".shipyard-{os.getpid()}-", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise cannot_write(exc, target) from None
    tmp = Path(name)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if target.exists():
            os.chmod(tmp, target.stat().st_mode & 0o777)
        else:
            os.chmod(tmp, 0o644)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise cannot_write(exc, target) from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return tmp


def _backup(target: Path) -> Path | None:
    """A hard link to the file about to be replaced, to put it back if a later rename fails."""
    if not target.exists():
        return None
    # os.urandom is what secrets.token_hex reads (secrets would load hmac on every start)
    backup = _folder(target) / f".shipyard-{os.getpid()}-{os.urandom(6).hex()}.old"
    try:
        os.link(target, backup)
    except OSError:
        return None
    return backup


def _sync_folder(folder: Path) -> None:
    try:
        dir_fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


# --- what killed writers left ------------------------------------------------------------

# The names :func:`_write_temp` and :func:`_backup` give, and nothing else: the writer's
# process id, then tempfile's 8 random characters (a temporary file) or 12 hex digits (a
# backup link). Without the id: the names of Shipyard versions before it carried one.
_LEFT_NAME = re.compile(r"\.shipyard-(?:([1-9][0-9]{0,9})-)?(?:[a-z0-9_]{8}\.tmp|[0-9a-f]{12}\.old)")
STALE_AFTER = 15 * 60
"""Seconds since a leftover last changed before it may be removed: a write takes far less."""
STALE_UNKNOWN_AFTER = 24 * 3600
"""The same for a leftover whose name carries no writer's id, which cannot be asked after."""
_SWEPT: dict[str, float] = {}  # each folder looked through, and when (time.monotonic)


def remove_stale(folder: Path, now: float | None = None) -> list[Path]:
    """Remove what writers killed mid-write (``kill -9``, a crash, a power cut) left in
    ``folder``: the hidden temporary files and backup links of :func:`atomic_write_many`,
    which nothing else ever removes. Only a regular file of exactly those names is taken, and
    only when it is stale: unchanged for :data:`STALE_AFTER` seconds (its status change time,
    which a backup link's inode gets when it is made, unlike its modification time, and which
    no one can set back) and made by a process that is no longer running (the id in its name;
    a name without one, from an older Shipyard, after :data:`STALE_UNKNOWN_AFTER`). A file a
    live writer is using is never removed. A folder is looked through at most once in
    :data:`STALE_AFTER` seconds by one process; what cannot be looked at or removed is left
    (this never makes a write fail). The files removed."""
    key = os.path.abspath(folder)  # noqa: PTH100
    if now is None:
        last = _SWEPT.get(key)
        if last is not None and time.monotonic() - last < STALE_AFTER:
            return []
        _SWEPT[key] = time.monotonic()
    now = time.time() if now is None else now
    removed = []
    try:
        with os.scandir(folder) as entries:
            left = [e for e in entries if e.name.startswith(".shipyard-")]
    except OSError:
        return []
    for entry in left:
        name = _LEFT_NAME.fullmatch(entry.name)
        if name is None:
            continue
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISREG(st.st_mode):
            continue
        age = now - max(st.st_ctime, st.st_mtime)
        pid = int(name.group(1)) if name.group(1) else None
        if age < (STALE_AFTER if pid is not None else STALE_UNKNOWN_AFTER):
            continue
        if pid is not None and process_running(pid):
            continue
        try:
            os.unlink(entry.path)  # noqa: PTH108
        except OSError:
            continue
        removed.append(Path(entry.path))
    return removed


def process_running(pid: int) -> bool:
    """Whether a process of that id runs on this machine (true when it cannot be told, as for
    another user's process): what leftovers named by their process id are judged by, here and
    in the render workers' scratch folders."""
    if pid == os.getpid():
        return True
    if os.name != "posix":  # os.kill(pid, 0) would end the process on Windows
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):  # another user's process; an id no process can have
        return True
    return True
