"""Files followed while they are open: each file and its folder watched, one call once a change settles.

Another program (``shipyard set``, a text editor, ``git checkout``, a second editor) may
write a file the editor shows; the editor reads it again a moment later instead of going on
showing what the file no longer holds. Most programs save by writing a new file beside the
old one and renaming it over it, and the system's watch on a file ends with the file it
watched: so each file's folder is watched too (a file removed, renamed or put back changes
its folder), and the files are watched again after each change (:meth:`FileWatch.watch`,
called by whoever follows them once it has read them). A save that writes several files
is one call: :attr:`FileWatch.settled` comes :data:`SETTLE_MS` after the last change, from
the editor's clock (:mod:`shipyard._qt.widgets.clock`), with every path that changed.

A path the system will not watch (it lends each program only so many watches) is not
followed here: those who follow files read them again at the moments it matters too (a tab
shown, a print), so a missed change is seen late, never shown as if it were not there.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, Signal

from shipyard._qt.widgets import clock

SETTLE_MS = 300  # a change waits this long for the ones that come with it (a save of several files: one call)


class FileWatch(QObject):
    """Watches some files and their folders; :attr:`settled` (the paths that changed, as
    strings: files and folders) once the changes settle."""

    settled = Signal(object)

    def __init__(self, parent: QObject | None = None, settle_ms: int = SETTLE_MS) -> None:
        super().__init__(parent)
        self.watcher = QFileSystemWatcher(self)
        self.watcher.fileChanged.connect(self._changed)
        self.watcher.directoryChanged.connect(self._changed)
        self._settle = clock.timer(self, settle_ms)
        self._settle.timeout.connect(self._settled)
        self._poked: set[str] = set()

    def watch(self, files: Iterable[Path]) -> None:
        """Watch ``files`` (those that are there) and their folders (those there), and
        nothing else: a file replaced since it was last watched is watched anew."""
        wanted: dict[str, None] = {}
        for f in files:
            path = Path(f)
            if path.is_file():
                wanted[str(path)] = None
            if path.parent.is_dir():
                wanted[str(path.parent)] = None
        now = set(self.watcher.files()) | set(self.watcher.directories())
        gone = [p for p in now if p not in wanted]
        if gone:
            self.watcher.removePaths(gone)
        new = [p for p in wanted if p not in now]
        if new:
            self.watcher.addPaths(new)  # those it cannot watch are read again when it matters (see above)

    def drop_pending(self) -> None:
        """The changes seen so far are being read now: no call for them later."""
        self._settle.stop()
        self._poked.clear()

    def stop(self) -> None:
        """Nothing is followed any more (the tab or window closes)."""
        self.drop_pending()
        self.watcher.blockSignals(True)
        watched = self.watcher.files() + self.watcher.directories()
        if watched:
            self.watcher.removePaths(watched)

    def _changed(self, path: str) -> None:
        self._poked.add(path)
        self._settle.start()

    def _settled(self) -> None:
        poked, self._poked = self._poked, set()
        self.settled.emit(poked)


__all__ = ["SETTLE_MS", "FileWatch"]
