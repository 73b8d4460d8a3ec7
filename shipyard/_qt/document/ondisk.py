"""What a document's file held when the editor read it or last saved it.

A design and a roster keep it alike, to tell when another program (``shipyard set``, a
text editor, ``git checkout``, a second editor) wrote the file since: saving over it would
lose that change unasked, so the window asks first.
"""

from __future__ import annotations

from pathlib import Path


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

    def changed_on_disk(self) -> bool:
        """Whether another program wrote the file since the editor read or saved it. A file
        since removed is no change to lose."""
        now = file_content(self.path)
        return now is not None and self._on_disk is not None and now != self._on_disk


__all__ = ["FileOnDisk", "file_content"]
