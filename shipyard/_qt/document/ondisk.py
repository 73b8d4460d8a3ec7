"""What a document's file held when the editor read it or last saved it.

A design and a roster keep it alike, to tell when another program (``shipyard set``, a
text editor, ``git checkout``, a second editor) wrote the file since: saving over it would
lose that change unasked, so the window asks first; and a tab with no unsaved edits is read
again, so it never goes on showing what the file no longer holds
(:mod:`shipyard._qt.window.diskchanges`, which asks :meth:`FileOnDisk.disk_news`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

DiskNews = Literal["same", "changed", "gone", "kept"]

_NOTHING_KEPT = object()  # no "Keep mine" answered since the file was read or saved


def file_content(path: Path | None) -> bytes | None:
    """The file's bytes (None: no file, or not readable), to tell whether someone else wrote it."""
    try:
        return Path(path).read_bytes() if path is not None else None
    except OSError:
        return None


class FileOnDisk:
    """A document with a ``path`` that remembers its file's content in ``_on_disk``."""

    path: Path | None
    _on_disk: bytes | None
    _kept: object = _NOTHING_KEPT  # the file's content the person kept their edits over ("Keep mine")

    @property
    def on_disk(self) -> bytes | None:
        """What the file held when this document read it or last saved it: a save asks before
        replacing a file that holds anything else (another program wrote it meanwhile)."""
        return self._on_disk

    @on_disk.setter
    def on_disk(self, content: bytes | None) -> None:
        """A document restored from an autosave starts from the file as the autosaved work
        did, not as it is now: a change written since is then one :meth:`changed_on_disk` sees."""
        self._on_disk = content
        self._kept = _NOTHING_KEPT

    def changed_on_disk(self) -> bool:
        """Whether another program wrote the file since the editor read or saved it. A file
        since removed is no change to lose."""
        now = file_content(self.path)
        return now is not None and self._on_disk is not None and now != self._on_disk

    def disk_news(self, *, asked: bool = False) -> DiskNews:
        """The file now, against what the editor read or saved: ``same``; ``changed`` (another
        program wrote it); ``gone`` (removed, renamed, or no longer readable); ``kept``: as it
        was when the person chose to keep their edits over it, which is not news again unless
        they ``asked`` (File > Open of the file, Check again). A document whose file was never
        read (a design not saved yet, an autosave whose file's content is not known) has none."""
        if self.path is None or self._on_disk is None:
            return "same"
        now = file_content(self.path)
        if now == self._on_disk:
            return "same"
        if not asked and now == self._kept:
            return "kept"
        return "gone" if now is None else "changed"

    def keep_mine(self) -> None:
        """The person keeps their edits over the file as it is now: no news until it changes
        again. What the editor read stays what a save compares with, so Save still asks
        before it replaces the other program's change."""
        self._kept = file_content(self.path)

    def read_as(self, content: bytes | None) -> None:
        """The document now shows the file as it held ``content`` (read again, or saved)."""
        self._on_disk = content
        self._kept = _NOTHING_KEPT


__all__ = ["DiskNews", "FileOnDisk", "file_content"]
