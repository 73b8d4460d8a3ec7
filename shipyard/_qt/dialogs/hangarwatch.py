"""The editor keeps the hangar's index current: it watches the library folders, scans in the
background, and draws the art thumbnails in the picture worker.

- Every library folder, each folder under it and each design file in them is watched
  (``QFileSystemWatcher``): a design file added, changed, removed or renamed (a rename
  changes its folder) brings a scan a moment later (:data:`SETTLE_MS`: a save that writes
  several files, or a folder copied in, is one scan). A scan reads only what changed
  (:meth:`shipyard.hangar.index.Index.scan`). A folder that holds no design yet is watched
  too (New Folder, then a design saved into it), and a folder made since is watched from
  the scan its making brings; that scan is followed by one more, for what landed in the
  folder before its watch began. Folders holding no design are watched up to
  :data:`EMPTY_FOLDERS`, the shallowest first: a library folder high in a big tree would
  otherwise take the watches the system lends to every program.
- A library folder that is not there (an unplugged USB stick) keeps its designs in the
  index, and the window says so in the words ``shipyard hangar scan`` uses. The system
  stops watching a folder that goes, so the watch looks for it every :data:`MISSING_MS`
  (on a helper thread: a network drive that went away can keep a look waiting) and, once
  it is back, scans it and watches it again.
- The system watches only so many paths (inotify's ``max_user_watches`` on Linux):
  ``addPaths`` answers with the paths it could not watch. Those, and any beyond the
  setting :data:`WATCH_LIMIT_ENV` (a number of paths; unset: as many as the system
  allows), and the folders past :data:`EMPTY_FOLDERS`, are not watched; the index is then
  scanned every :data:`RESCAN_MS` instead,
  and :attr:`HangarWatch.unwatched` says how many are left to those scans.
- Scans run on a helper thread, never the editor's: a first scan of thousands of designs
  takes a while. The result comes back through a bridge's gate (as a render's does), and
  :attr:`HangarWatch.changed` tells the Hangar window to show the index again
  (:attr:`HangarWatch.drawn`: only the new thumbnails).
- After a scan, the thumbnails the index lacks are drawn one by one in the picture worker
  (:func:`shipyard.render.art.thumbnail`, a process of its own: a picture that crashes a
  decoder costs that thumbnail, kept as its reason) and kept in the index
  (:mod:`shipyard.hangar.thumbs`).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal

from shipyard._qt.preview.rendering import RenderBridge
from shipyard._qt.widgets import clock

WATCH_LIMIT_ENV = "SHIPYARD_HANGAR_WATCH_LIMIT"
SETTLE_MS = 300  # a change waits this long for the ones that come with it, then one scan
RESCAN_MS = 60_000  # with paths left unwatched, the index is scanned this often instead
THUMBS_EVERY = 24  # the window is told after this many thumbnails are drawn
MISSING_MS = 2_000  # a library folder that is not there is looked for at this interval
EMPTY_FOLDERS = 2_000  # at most this many folders holding no design are watched, the shallowest first


class ScanBridge(RenderBridge):
    """``scanned`` (the watched paths, the scan's result or why it failed) from the scan
    thread; ``back`` from the look for a library folder that was not there, once it is."""

    scanned = Signal(object)
    drawn = Signal()
    back = Signal()

    def close(self) -> None:
        """Deliver nothing more (its own signals: ``done`` is not used here)."""
        self._gate.shut()


def watch_limit() -> int | None:
    """The most paths to watch (:data:`WATCH_LIMIT_ENV`), None: as many as the system allows."""
    said = os.environ.get(WATCH_LIMIT_ENV, "").strip()
    return int(said) if said.isdigit() else None


def paths_to_watch(folders: list[Path]) -> tuple[list[str], int]:
    """What to watch of the library folders, as the scan reads them, and how many folders are
    left to the periodic scans.

    Each library folder and every folder under it, holding a design or not: a design saved
    or copied into a folder made a moment before shows only if that folder is watched. The
    folders come first, as a folder's watch sees every file added, removed or renamed in
    it, and a file's only that file written over in place; then the design files. Folders
    holding no design anywhere under them are watched up to :data:`EMPTY_FOLDERS`, the
    shallowest first (a person's New Folder is near the top); the rest are counted."""
    from shipyard.hangar.index import library_tree

    kept: dict[str, None] = {}
    files: list[str] = []
    empty: list[tuple[int, int, str]] = []  # (depth, order walked, folder): those holding no design yet
    bare: set[str] = set()  # the folders in it (a library folder inside another is walked twice)
    for folder in folders:
        if not folder.is_dir():
            continue
        kept[str(folder)] = None
        under: list[tuple[int, str]] = []  # the folders under this library folder, with their depth
        holding: set[str] = set()
        for path, is_folder in library_tree(folder):
            if is_folder:
                if path != folder:
                    under.append((len(path.relative_to(folder).parts), str(path)))
                continue
            files.append(str(path))
            holding.update(str(p) for p in path.parents if p.is_relative_to(folder) and p != folder)
        for depth, name in under:
            if name in holding:
                kept.setdefault(name, None)
            elif name not in kept and name not in bare:
                bare.add(name)
                empty.append((depth, len(empty), name))
    empty.sort()
    for _, _, name in empty[:EMPTY_FOLDERS]:
        kept.setdefault(name, None)
    for file in files:
        kept.setdefault(file, None)
    return list(kept), max(0, len(empty) - EMPTY_FOLDERS)


class HangarWatch(QObject):
    """The watch on the library folders; :attr:`changed` after each scan, :attr:`drawn` after
    each batch of thumbnails."""

    changed = Signal()
    drawn = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.watcher = QFileSystemWatcher(self)
        self.watcher.directoryChanged.connect(self.poke)
        self.watcher.fileChanged.connect(self.poke)
        self.settle = QTimer(self)
        self.settle.setSingleShot(True)
        self.settle.setInterval(SETTLE_MS)
        self.settle.timeout.connect(self.rescan)
        self.poll = QTimer(self)
        self.poll.setInterval(RESCAN_MS)
        self.poll.timeout.connect(self.rescan)
        self.look = clock.timer(self, MISSING_MS, single_shot=False)  # for the library folders not there
        self.look.timeout.connect(self._look_for_missing)
        self.bridge = ScanBridge(self)
        self.bridge.scanned.connect(self._scanned)
        self.bridge.drawn.connect(self.drawn.emit)
        self.bridge.back.connect(self.rescan)
        self.unwatched = 0  # paths left to the periodic scans
        self.problem = ""  # why the last scan failed, or its notes ("" when there are none)
        self.notes: list[str] = []  # the same, one sentence each, as the window shows them
        self.missing: list[str] = []  # the library folders that were not there at the last scan
        self.last: Any = None  # the last scan's ScanResult
        self._thread: threading.Thread | None = None
        self._looking: threading.Thread | None = None
        self._watched = False  # whether a scan's paths were watched yet
        self._again = False
        self._stopping = False  # read by the scan thread; the bridge's gate shuts as the watch goes too

    @property
    def scanning(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def poke(self, _path: str = "") -> None:
        """Something changed in a watched folder or file: a scan once it settles."""
        self.settle.start()

    def rescan(self) -> None:
        """Scan now in the background (after the one running, if one is)."""
        if self.scanning:
            self._again = True
            return
        bridge = self.bridge
        stopping = lambda: self._stopping  # noqa: E731 - read by the thread: the watch is going

        def run() -> None:
            from shipyard.core.errors import InputError
            from shipyard.hangar import library
            from shipyard.hangar.index import Index

            try:
                settings = library.read_settings()
                folders = settings.folders
                with Index() as index:
                    result = index.scan(folders)
                    notes = [*settings.notes, *index.notes, *result.notes()]
                watched, skipped = paths_to_watch(folders)
            except (InputError, OSError) as exc:
                said = ("failed", str(exc))
                bridge.deliver(lambda: bridge.scanned.emit(said))
                return
            except Exception as exc:  # sqlite3's, a worker's: said in the window, never a traceback
                said = ("failed", f"the hangar could not be scanned: {exc}")
                bridge.deliver(lambda: bridge.scanned.emit(said))
                return
            bridge.deliver(lambda: bridge.scanned.emit(("scanned", result, notes, watched, skipped)))
            _draw_thumbnails(bridge, stopping)

        self._thread = threading.Thread(target=run, daemon=True, name="shipyard-hangar-scan")
        self._thread.start()

    def _scanned(self, message: tuple[Any, ...]) -> None:
        if message[0] == "failed":
            self.problem = message[1]
            self.notes = [message[1]]
        else:
            _, self.last, notes, watched, skipped = message
            self.problem = "; ".join(notes)
            self.notes = list(notes)
            self.missing = list(self.last.folders_missing)
            if not self.missing:
                self.look.stop()
            elif not self.look.isActive():
                self.look.start()
            self._watch(watched, skipped)
        self.changed.emit()
        if self._again:
            self._again = False
            QTimer.singleShot(0, self.rescan)

    def _look_for_missing(self) -> None:
        """Whether a library folder that was not there at the last scan is back; if it is, a
        scan, which shows its changes and watches it again (the system gave up its watch as
        it went). Looked at on a helper thread, one look at a time: a network drive that
        went away can keep a look waiting, and the editor must not wait with it."""
        if self.scanning or (self._looking is not None and self._looking.is_alive()):
            return  # a scan looks at every library folder itself
        missing = [Path(f) for f in self.missing]
        bridge = self.bridge

        def look() -> None:
            if any(_there(f) for f in missing):
                bridge.deliver(bridge.back.emit)

        self._looking = threading.Thread(target=look, daemon=True, name="shipyard-hangar-look")
        self._looking.start()

    def _watch(self, wanted: list[str], skipped: int = 0) -> None:
        """Watch ``wanted`` (and nothing else); what cannot be watched, and the ``skipped``
        folders past :data:`EMPTY_FOLDERS`, are left to the periodic scans.

        A folder watched from now on (made, copied in or back since the last scan) brings one
        more scan: a file that landed in it between this scan's walk and its watch told no
        watch. Not at the first scan, which found every folder there."""
        first, self._watched = not self._watched, True
        keep = set(wanted)
        now = set(self.watcher.files()) | set(self.watcher.directories())
        gone = [p for p in now if p not in keep]
        if gone:
            self.watcher.removePaths(gone)
        new = [p for p in wanted if p not in now]
        limit = watch_limit()
        if limit is not None:
            new = new[: max(0, limit - (len(now) - len(gone)))]
        before = set(self.watcher.directories())
        failed = set(self.watcher.addPaths(new)) if new else set()  # those the system would not watch
        watched = (set(self.watcher.files()) | set(self.watcher.directories())) - failed
        self.unwatched = sum(1 for p in wanted if p not in watched) + skipped
        if self.unwatched:
            self.poll.start()
        else:
            self.poll.stop()
        if not first and set(self.watcher.directories()) - before:
            self.poke()

    def stop(self) -> None:
        """No more scans or thumbnails (the editor is closing)."""
        self._stopping = True
        self.bridge.close()
        self.settle.stop()
        self.poll.stop()
        self.look.stop()


def _there(folder: Path) -> bool:
    """Whether ``folder`` is a folder now (one that cannot be looked at is not)."""
    try:
        return folder.is_dir()
    except OSError:
        return False


def _draw_thumbnails(bridge: ScanBridge, stopping: Any) -> None:
    """On the scan thread: every thumbnail the index lacks, drawn in the picture worker and kept."""
    from shipyard.hangar import thumbs
    from shipyard.hangar.index import Index
    from shipyard.render.art import thumbnail

    try:
        with Index() as index:
            todo = thumbs.missing(index)
            for n, (key, entry) in enumerate(todo, 1):
                if stopping() or bridge.closed:
                    return
                png, problem = thumbs.draw_one(entry, thumbnail)
                thumbs.store(index, key, str(entry["hash"]), png, problem)
                if n % THUMBS_EVERY == 0 or n == len(todo):
                    bridge.deliver(bridge.drawn.emit)
    except Exception:  # thumbnails are a cache: the next scan draws what this one could not
        return
