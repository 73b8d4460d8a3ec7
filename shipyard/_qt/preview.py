"""Live preview of the record sheet, rendered in the background.

Edits restart a short timer; when typing pauses, the design is rendered by a render
worker *process* (WeasyPrint is never imported into the editor) from a helper thread,
and the finished PDF is shown. Typing never waits for it: at most one render runs, and
edits made meanwhile are rendered next.
"""

from __future__ import annotations

import tempfile
import threading
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtPdf import QPdfDocument
from PySide6.QtPdfWidgets import QPdfView
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from shipyard._qt.document import Document
from shipyard.render.worker import RenderWorker  # light: multiprocessing only, no WeasyPrint

_worker_lock = threading.Lock()
_worker: RenderWorker | None = None


def shared_worker() -> RenderWorker:
    """One render worker process for the whole editor, started on first use."""
    global _worker

    with _worker_lock:
        if _worker is None or not _worker._proc.is_alive():
            _worker = RenderWorker()
        return _worker


def close_shared_worker() -> None:
    global _worker
    with _worker_lock:
        if _worker is not None:
            _worker.close()
            _worker = None


class _Bridge(QObject):
    done = Signal(str, str)  # pdf path, error


class PreviewPanel(QWidget):
    DELAY_MS = 600

    def __init__(self, doc: Document, paper: str = "a4") -> None:
        super().__init__()
        self.doc, self.paper = doc, paper
        self.pdf = QPdfDocument(self)
        self.view = QPdfView(self)
        self.view.setDocument(self.pdf)
        self.view.setPageMode(QPdfView.PageMode.SinglePage)
        self.view.setZoomMode(QPdfView.ZoomMode.FitInView)
        self.view.setAccessibleName("Record sheet preview")
        self.status = QLabel("Preview: waiting…")
        self.status.setAccessibleName("Preview status")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.status)
        lay.addWidget(self.view, 1)
        self.timer = QTimer(self, singleShot=True, interval=self.DELAY_MS)
        self.timer.timeout.connect(self._start)
        self.bridge = _Bridge()
        self.bridge.done.connect(self._finished)
        self._busy = False
        self._again = False
        self._dir = tempfile.TemporaryDirectory(prefix="shipyard-preview-")
        self._n = 0
        self.renders = 0
        doc.changed.connect(self.schedule)

    def schedule(self) -> None:
        self.timer.start()

    def _start(self) -> None:
        if self._busy:
            self._again = True
            return
        self._busy = True
        self.status.setText("Preview: rendering…")
        self._n += 1
        out = Path(self._dir.name) / f"preview-{self._n}.pdf"
        loaded = self.doc.loaded
        paper = self.paper

        def run() -> None:
            from shipyard.render.printing import print_loaded

            try:
                print_loaded([loaded], out, paper=paper, workers=[shared_worker()], timeout=60)
                self.bridge.done.emit(str(out), "")
            except Exception as exc:
                self.bridge.done.emit("", str(exc))

        threading.Thread(target=run, daemon=True, name="shipyard-preview").start()

    def _finished(self, path: str, error: str) -> None:
        self._busy = False
        if error:
            self.status.setText(f"Preview failed: {error}")
        else:
            self.pdf.load(path)
            self.renders += 1
            self.status.setText("Preview: as it will print")
        if self._again:
            self._again = False
            self._start()
