"""Live preview of the record sheet, rendered in the background.

An edit starts a short timer (:attr:`PreviewPanel.DELAY_MS`: typed text already commits
on a pause, :mod:`shipyard._qt.document.pending`, so this only gathers a burst of edits such as a
spin box's arrow held down); then the design is rendered in the background
(:mod:`shipyard._qt.preview.rendering`) and the finished PDF is shown. Typing never waits for it:
at most one render runs. Every edit makes a new *generation*; a render is of the
generation it started with. An edit made while one runs supersedes it (the worker drops
the render no longer wanted and stays warm for the next, which starts as soon as the
dropped one is answered), and a render that finished anyway for an older generation is
never shown: the sheet shown is always the newest edit's, or the one before it stays.
The first render starts as the panel is made, without the timer. The render prints the
report the Document already holds: nothing here evaluates. It is a draft (the same look,
made with less work: :mod:`shipyard.render.pdf`), and the new sheet replaces the old one
without a blank page in between (:meth:`SheetView.swap`).

The sheet (status line, zoom strip, PDF view: :mod:`shipyard._qt.preview.sheetview`) sits in the
pane, or in a window of its own (:mod:`shipyard._qt.preview.detached`) while detached; it is
the same widget either way, so one render serves both. The zoom the user picks is kept
across renders and in the settings (``preview/zoom``), as the splitters' sizes are.

A render may still run when the panel goes (its tab closed, the editor quit): the bridge
is the panel's child, and its gate shuts when it is deleted, so the render thread never
signals a deleted object; :meth:`PreviewPanel.shut` also closes a detached window.
"""

from __future__ import annotations

import os
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QSettings, QSize, Qt, Signal
from PySide6.QtPdf import QPdfDocument
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from shipyard._qt.document.document import Document
from shipyard._qt.document.keys import chain, preview_key_text, reading_order
from shipyard._qt.preview.rendering import RenderBridge, render_in_background, supersede
from shipyard._qt.preview.sheetview import SheetBar, SheetView
from shipyard._qt.preview.viewmenu import actions_near
from shipyard._qt.widgets import clock
from shipyard._qt.widgets.placement import beside, clamp
from shipyard.render.scratch import PREVIEW_PREFIX

if TYPE_CHECKING:
    from shipyard._qt.preview.detached import PreviewWindow

ZOOM_KEY, WINDOW_KEY = "preview/zoom", "preview/window"


class PreviewPanel(QWidget):
    DELAY_MS = 40  # edits this close together make one render (a newer edit drops it anyway)
    detached_changed = Signal(bool)

    def __init__(self, doc: Document, paper: str = "a4") -> None:
        super().__init__()
        self.doc, self.paper = doc, paper
        self.pdf = QPdfDocument(self)
        self.sheet = QWidget(self)  # what moves to a window of its own and back
        self.view = SheetView(self.pdf, self.sheet)
        self.view.setAccessibleName("Record sheet preview")
        self.view.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # Tab reaches it; arrows and Page Up/Down scroll
        self.status = QLabel("Preview: waiting…")
        self.status.setAccessibleName("Preview status")
        self.bar = SheetBar(self.view)
        self.bar.detach.clicked.connect(self.toggle_detached)
        sheet_lay = QVBoxLayout(self.sheet)
        sheet_lay.setContentsMargins(0, 0, 0, 0)
        sheet_lay.addWidget(self.status)
        sheet_lay.addWidget(self.bar)
        sheet_lay.addWidget(self.view, 1)
        self.placeholder = self._placeholder()
        self._lay = QVBoxLayout(self)
        self._lay.setContentsMargins(0, 0, 0, 0)
        self._lay.addWidget(self.sheet, 1)
        self._lay.addWidget(self.placeholder)
        self._lay.addStretch(0)
        self.window_: PreviewWindow | None = None
        self._settings: QSettings | None = None
        self.timer = clock.timer(self, self.DELAY_MS)
        self.timer.timeout.connect(self._start)
        self.bridge = RenderBridge(self)  # goes with the panel; see the module docstring
        self.bridge.done.connect(self._finished)
        self.render_thread: threading.Thread | None = None  # the render running, or the last one
        self._busy = False
        self._again = False
        self.generation = 0  # edits so far: the sheet wanted is of this one
        self._rendering = 0  # the generation of the render running (or last run)
        self.owner = f"preview-{id(self)}"  # whose renders an edit may supersede
        self.superseded = 0  # renders dropped for a newer edit, in the worker or once done
        self._dir = tempfile.TemporaryDirectory(prefix=f"{PREVIEW_PREFIX}{os.getpid()}-")  # named for this process
        self._n = 0
        self._shown: Path | None = None  # the PDF on screen; older ones are deleted
        self.renders = 0
        doc.changed.connect(self.schedule)
        doc.file_changed.connect(self._name_window)

    def sizeHint(self) -> QSize:
        """Room for a good part of the sheet: the pane is where it is read (the splitter
        starts from the hints; the user's own sizes are kept once they drag it)."""
        return QSize(320, 480)

    def _placeholder(self) -> QWidget:
        """What the pane shows while the sheet is in its own window: one line, and the way back."""
        box = QWidget(self)
        lay = QHBoxLayout(box)
        lay.setContentsMargins(4, 4, 4, 4)
        note = QLabel("Preview: in its own window")
        self.attach_button = QPushButton("Attach")
        self.attach_button.setAccessibleName("Attach the preview to the pane")
        self.attach_button.setToolTip(f"Back into this pane ({preview_key_text('detach')})")
        self.attach_button.clicked.connect(self.attach)
        lay.addWidget(note)
        lay.addStretch(1)
        lay.addWidget(self.attach_button)
        box.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        box.hide()
        return box

    # --- rendering ------------------------------------------------------------------------

    def schedule(self) -> None:
        """The design changed: render it in a moment; a render running now is of the design
        as it was, so it is dropped."""
        if self.bridge.closed:
            return
        self.generation += 1
        self.timer.start()
        if self._busy:
            supersede(self.owner)

    def start_now(self) -> None:
        """Render at once (the first sheet, as the window shows: there is no typing to wait for)."""
        self.timer.stop()
        self._start()

    def _start(self) -> None:
        if self._busy:
            self._again = True
            return
        if self.bridge.closed:
            return
        self._busy = True
        self._rendering = self.generation
        self.status.setText("Preview: rendering…")
        self._n += 1
        out = Path(self._dir.name) / f"preview-{self._n}.pdf"
        self.render_thread = render_in_background(
            self.bridge,
            [self.doc.loaded],
            out,
            paper=self.paper,
            name="shipyard-preview",
            reports=[self.doc.report],
            owner=self.owner,
            draft=True,
        )

    def _finished(self, path: str, error: str) -> None:
        self._busy = False
        stale = self._rendering != self.generation
        if stale or not (path or error):  # an edit came since it started (dropped, or done anyway): not shown
            self.superseded += 1
            if path:
                Path(path).unlink(missing_ok=True)
            if stale and not self.timer.isActive():  # the newer edit's timer ran out while this one rendered
                self._again = True
        elif error:
            self.status.setText(f"Preview failed: {error}")
        else:
            with self.view.keep_place():  # the zoom and the place read stay as the new sheet comes in
                self.view.swap(path)
            if self._shown is not None:
                self._shown.unlink(missing_ok=True)
            self._shown = Path(path)
            self.renders += 1
            self.status.setText("Preview: as it will print")
        if self._again:
            self._again = False
            self._start()

    def shut(self) -> None:
        """The design is closing: no more renders or answers, and a detached window closes."""
        self.timer.stop()
        self.bridge.close()
        if self.window_ is not None:
            self.window_.closing.disconnect()
            self.window_.close()

    # --- the zoom, remembered ---------------------------------------------------------------

    def remember(self, settings: QSettings) -> None:
        """Show the zoom kept in ``settings`` and keep the user's next choices there."""
        if self._settings is None:
            self.view.zoomed.connect(self._keep_zoom)
        self._settings = settings
        kept = settings.value(ZOOM_KEY)
        if kept is not None:
            self.view.apply_setting(kept)

    def _keep_zoom(self) -> None:
        if self._settings is not None and self._settings.value(ZOOM_KEY) != (now := self.view.setting()):
            self._settings.setValue(ZOOM_KEY, now)

    # --- detached ---------------------------------------------------------------------------

    @property
    def detached(self) -> bool:
        return self.window_ is not None

    def toggle_detached(self) -> None:
        if self.detached:
            self.attach()
        else:
            self.detach()

    def detach(self) -> PreviewWindow:
        """Move the sheet into a window of its own (the pane keeps a button to bring it back)."""
        if self.window_ is not None:
            self.window_.raise_()
            self.window_.activateWindow()
            return self.window_
        from shipyard._qt.preview.detached import PreviewWindow

        win = PreviewWindow(self, self, actions_near(self))
        self.window_ = win
        self._name_window()
        win.closing.connect(self.attach)
        geometry = self._settings.value(WINDOW_KEY) if self._settings is not None else None
        if isinstance(geometry, QByteArray) and win.restoreGeometry(geometry):
            clamp(win)
        else:
            beside(win, self.window(), self._first_size())
        self._lay.removeWidget(self.sheet)
        win.hold(self.sheet)
        self.placeholder.show()
        self.bar.show_detached(True)
        chain(reading_order(self.sheet))  # Tab in the window: the zoom strip, then the sheet
        win.show()
        clamp(win)  # with its frame, now that it has one
        win.raise_()
        win.activateWindow()
        self.view.setFocus(Qt.FocusReason.OtherFocusReason)
        self.detached_changed.emit(True)
        return win

    def _first_size(self) -> QSize:
        """A window as tall as most of the screen, a sheet's width for it."""
        screen = self.screen().availableGeometry()
        height = int(screen.height() * 0.85)
        return QSize(min(screen.width() - 40, int(height * 0.78)), height)

    def attach(self) -> None:
        """Put the sheet back in the pane and close its window."""
        win = self.window_
        if win is None:
            return
        self.window_ = None
        if self._settings is not None:
            self._settings.setValue(WINDOW_KEY, win.saveGeometry())
        self.sheet.setParent(self)
        self._lay.insertWidget(0, self.sheet, 1)
        self.sheet.show()
        self.placeholder.hide()
        self.bar.show_detached(False)
        win.closing.disconnect()
        win.hide()
        win.deleteLater()
        self._rechain()
        if self.isVisible():  # the keyboard comes back with the sheet
            self.window().activateWindow()
            self.view.setFocus(Qt.FocusReason.OtherFocusReason)
        self.detached_changed.emit(False)

    def _rechain(self) -> None:
        """Back in the pane, the sheet's controls take their place in the design's Tab order again."""
        holder = self.parentWidget()
        while holder is not None and not hasattr(holder, "make_tab_order"):
            holder = holder.parentWidget()
        if holder is not None:
            holder.make_tab_order()

    def _name_window(self) -> None:
        if self.window_ is not None:
            self.window_.name_for(self.doc.title)
