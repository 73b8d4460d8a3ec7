"""Autosave: unsaved work is copied to the user's data folder every minute and on a crash.

Each open document with unsaved changes has one autosave file (the design file format,
or a roster's ``.roster`` format for a roster, plus where it came from) and, beside it,
the file as the work started from it (``.base``): restored, the work is saved over its
file only after asking if another program wrote that file since. Saving or closing the
document removes them; whatever is left at the next start is offered for restoring.

Several editors can run at once and share the folder, so each holds a lock
(:class:`QLockFile`, ``<uid>.lock`` beside the file) on every autosave it writes, from
before the file is first written until it is removed. A lock records its editor's
process, host and boot; it is stale only when that editor is gone (its process has
died, or the machine was restarted since), never by age: an editor open for a week
still holds its autosaves. :func:`pending` offers only the files whose lock it can take,
that is the ones of editors that crashed or were killed, and keeps those locks until
the files are restored or removed, so two editors starting at once never both offer
(or delete) the same file.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QLockFile

from shipyard._qt.document.document import Document
from shipyard.core.atomicwrite import atomic_write_bytes
from shipyard.core.designfile import atomic_write_text, dumps, load_design, make_folder
from shipyard.core.errors import InputError
from shipyard.core.resources import user_data_folder

if TYPE_CHECKING:  # a roster's module loads with the first roster, not at the editor's start
    from shipyard._qt.document.rosterdoc import RosterDocument

# The locks this editor holds on its own documents' autosaves, by the document's uid.
_held: dict[str, QLockFile] = {}


def folder() -> Path:
    return user_data_folder() / "autosave"


def _lock(ship: Path) -> QLockFile:
    """The lock of the autosave ``ship`` (not taken yet)."""
    lock = QLockFile(str(ship.with_suffix(".lock")))
    lock.setStaleLockTime(0)  # stale only when its editor is gone (QLockFile checks the process), not by age
    return lock


ROSTER_SUFFIX = ".roster"
SUFFIXES = (".ship", ROSTER_SUFFIX)  # a design's autosave, a roster's
BASE_SUFFIX = ".base"  # the document's file as the autosaved work started from it


def needed(doc: Document | RosterDocument) -> bool:
    """Unsaved changes that its autosave file (if any) does not hold yet."""
    return doc.modified and doc.autosaved is not doc.state


def save(doc: Document | RosterDocument) -> Path:
    """Copy ``doc`` to its autosave file, locked as this editor's; an :class:`InputError` says
    why when that cannot be written."""
    target = folder()
    make_folder(target)
    roster = not isinstance(doc, Document)  # a RosterDocument
    path = target / f"{doc.uid}{ROSTER_SUFFIX if roster else '.ship'}"
    if doc.uid not in _held:
        lock = _lock(path)
        if not lock.tryLock(0):
            reason = (
                "another editor holds it" if lock.error() == QLockFile.LockError.LockFailedError else "no permission"
            )
            raise InputError.single(f"cannot lock the autosave ({reason})", file=path.with_suffix(".lock"))
        _held[doc.uid] = lock
    if not isinstance(doc, Document):
        from shipyard.hangar.roster import dumps as roster_text

        atomic_write_text(path, roster_text(doc.roster))
    else:
        atomic_write_text(path, dumps(doc.loaded))
    base = path.with_suffix(BASE_SUFFIX)
    if doc.on_disk is None:
        base.unlink(missing_ok=True)
    else:
        atomic_write_bytes(base, doc.on_disk)
    atomic_write_text(
        path.with_suffix(".json"), json.dumps({"original": str(doc.path) if doc.path else None, "title": doc.title})
    )
    doc.autosaved = doc.state
    return path


def discard(doc: Document | RosterDocument) -> None:
    """Remove ``doc``'s autosave (saved or closed), then its lock; an autosave folder that
    cannot be reached has none."""
    doc.autosaved = None
    for suffix in (*SUFFIXES, BASE_SUFFIX, ".json"):
        with contextlib.suppress(OSError):
            (folder() / f"{doc.uid}{suffix}").unlink(missing_ok=True)
    lock = _held.pop(doc.uid, None)
    if lock is not None:
        lock.unlock()


@dataclass
class Recovered:
    """An autosave left by an editor that is gone; this editor holds its ``lock`` until
    :func:`remove` or :func:`release`."""

    autosave: Path
    original: Path | None
    title: str
    lock: QLockFile
    base: bytes | None = None  # the original file as the work started from it (None: not known)

    @property
    def file_changed(self) -> bool:
        """Another program wrote the original file after the work was autosaved from it."""
        if self.original is None or self.base is None:
            return False
        try:
            return self.original.read_bytes() != self.base
        except OSError:  # gone or unreadable: nothing there a save would replace unasked
            return False


def pending() -> list[Recovered]:
    """The autosaves no running editor holds (theirs who crashed or were killed), each
    locked by this editor now; another editor's live autosaves are left alone."""
    out = []
    found = [f for suffix in SUFFIXES for f in folder().glob(f"*{suffix}")] if folder().is_dir() else []
    for f in sorted(found):
        lock = _lock(f)
        if not lock.tryLock(0):
            continue  # a running editor's (or one this editor cannot lock): not ours to offer
        if not f.exists():  # restored and removed by another editor just before the lock was taken
            lock.unlock()
            continue
        try:
            meta = json.loads(f.with_suffix(".json").read_text())
        except (OSError, ValueError):
            meta = {}
        original = meta.get("original")
        try:
            base: bytes | None = f.with_suffix(BASE_SUFFIX).read_bytes()
        except OSError:  # written by an older Shipyard, or the work had no file yet
            base = None
        out.append(Recovered(f, Path(original) if original else None, meta.get("title") or f.stem, lock, base))
    return out


def is_roster(rec: Recovered) -> bool:
    return rec.autosave.suffix == ROSTER_SUFFIX


def load(rec: Recovered, use_user_folder: bool = True, catalog_folders: tuple[Path, ...] = ()) -> Document:
    """A design's autosave, read against the catalogs its file is opened with (the editor's
    catalog folder too: work built with its house rules was refused at every start, and lost
    if the person then chose Discard). It is read as a design file is, its text kept: the
    autosave holds the file's own words with the work's changes, so a Save of the restored
    work changes only what the work changed (read as bare data, its first Save rewrote the
    whole file in catalog ids)."""
    loaded = load_design(rec.autosave, catalog_folders=catalog_folders, use_user_folder=use_user_folder)
    doc = Document(loaded, rec.original)
    if rec.base is not None:
        doc.on_disk = rec.base
    return doc


def load_roster(rec: Recovered, catalog_folders: tuple[Path, ...] = ()) -> RosterDocument:
    """A roster's autosave, as the roster it was at its own file (its members are named beside
    that file); an InputError when it cannot be read, or when it never had a file."""
    from shipyard._qt.document.rosterdoc import RosterDocument
    from shipyard.hangar.roster import load_roster as read

    if rec.original is None:
        raise InputError.single("the roster's own file is not known", file=rec.autosave)
    doc = RosterDocument(read(rec.autosave), rec.original, folders=catalog_folders)
    if rec.base is not None:
        doc.on_disk = rec.base
    return doc


def remove(rec: Recovered) -> None:
    """Delete a recovered autosave (restored, or declined), then its lock."""
    rec.autosave.unlink(missing_ok=True)
    rec.autosave.with_suffix(BASE_SUFFIX).unlink(missing_ok=True)
    rec.autosave.with_suffix(".json").unlink(missing_ok=True)
    release(rec)


def release(rec: Recovered) -> None:
    """Let go of a recovered autosave kept as it is (it could not be restored): offered again next time."""
    rec.lock.unlock()


__all__ = [
    "Recovered",
    "discard",
    "folder",
    "is_roster",
    "load",
    "load_roster",
    "needed",
    "pending",
    "release",
    "remove",
    "save",
]
