"""Live preview of the record sheet, rendered in the background.

Edits restart a short timer; when typing pauses, the design is rendered in the
background (:mod:`shipyard._qt.rendering`) and the finished PDF is shown. Typing never
waits for it: at most one render runs, and edits made meanwhile are rendered next.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtPdf import QPdfDocument
from PySide6.QtPdfWidgets import QPdfView
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from shipyard._qt.document import Document
from shipyard._qt.rendering import RenderBridge, render_in_background


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
        self.view.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # Tab reaches it; arrows and Page Up/Down scroll
        self.status = QLabel("Preview: waiting…")
        self.status.setAccessibleName("Preview status")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.status)
        lay.addWidget(self.view, 1)
        self.timer = QTimer(self, singleShot=True, interval=self.DELAY_MS)
        self.timer.timeout.connect(self._start)
        self.bridge = RenderBridge()
        self.bridge.done.connect(self._finished)
        self._busy = False
        self._again = False
        self._dir = tempfile.TemporaryDirectory(prefix="shipyard-preview-")
        self._n = 0
        self._shown: Path | None = None  # the PDF on screen; older ones are deleted
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
        render_in_background(
            self.bridge, [self.doc.loaded], out, paper=self.paper, name="shipyard-preview", reports=[self.doc.report]
        )

    def _finished(self, path: str, error: str) -> None:
        self._busy = False
        if error:
            self.status.setText(f"Preview failed: {error}")
        else:
            self.pdf.load(path)
            if self._shown is not None:
                self._shown.unlink(missing_ok=True)
            self._shown = Path(path)
            self.renders += 1
            self.status.setText("Preview: as it will print")
        if self._again:
            self._again = False
            self._start()
