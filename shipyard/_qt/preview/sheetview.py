"""The record sheet on screen: a PDF view that zooms, and the strip of zoom controls above it.

Why a subclass of QPdfView: in its fit modes QPdfView sizes the page itself and its
``zoomFactor`` keeps whatever it was last set to, so the zoom a user reads ("100%"),
Ctrl+wheel and the + and - buttons need the factor the page is really shown at
(:meth:`SheetView.shown_zoom`). Zooming starts from that, so it never jumps.

A render replaces the document under the view (:meth:`SheetView.swap`): the zoom mode is
the view's and stays; :meth:`SheetView.keep_place` keeps the scroll position too, so the
part of the sheet the user is reading stays in view while they edit. QPdfView draws a
page in a thread of its own and shows a blank page until it has, so a swap covers the
view with a picture of the old sheet until the new page is drawn (no white flash at
every keystroke).

Imports QtPdf: loaded with the preview, after the window shows, never at start-up.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QMargins, QPoint, QPointF, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication, QResizeEvent, QWheelEvent
from PySide6.QtPdf import QPdfDocument, QPdfPageRenderer
from PySide6.QtPdfWidgets import QPdfView
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QWidget

from shipyard._qt.document.keys import preview_key_text
from shipyard._qt.widgets import clock

MIN_ZOOM, MAX_ZOOM = 0.25, 4.0
STEP = 1.25  # one wheel notch or one press of + or -
FIT_WIDTH, FIT_PAGE = "fit-width", "fit-page"  # how a zoom is kept in the settings; else the factor


def clamp(factor: float) -> float:
    return max(MIN_ZOOM, min(MAX_ZOOM, factor))


class SheetView(QPdfView):
    """The PDF of the sheet: Ctrl+wheel zooms about the pointer (25% to 400%), fit width, fit page."""

    zoomed = Signal()  # the zoom it is shown at may have changed (mode, factor, size, document)

    def __init__(self, document: QPdfDocument, parent: QWidget) -> None:
        super().__init__(parent)
        self.setDocument(document)
        self.setPageMode(QPdfView.PageMode.SinglePage)
        self._margins = self.documentMargins()  # around the page; none above and below at fit page
        self.zoomModeChanged.connect(self._mode_changed)
        # the sheet opens as wide as the pane: its text readable, not the whole page at 21%
        self.setZoomMode(QPdfView.ZoomMode.FitToWidth)
        self.zoomFactorChanged.connect(lambda _f: self.zoomed.emit())
        document.statusChanged.connect(lambda _s: self.zoomed.emit())
        self.cover = QLabel(self.viewport())  # the old sheet, over the view while the new one is drawn
        self.cover.hide()
        self._uncover = clock.timer(self, self.COVER_MS)
        self._uncover.timeout.connect(self.cover.hide)
        renderer = self.findChild(QPdfPageRenderer)  # QPdfView's own, drawing pages in a thread
        if renderer is not None:
            renderer.pageRendered.connect(self._page_drawn)

    COVER_MS = 1000  # the longest the old sheet stays over the view (a page never drawn)

    def swap(self, path: str) -> None:
        """Show the PDF at ``path`` in place of the one shown, without a blank page between:
        a picture of the view as it is covers it until QPdfView has drawn the new page."""
        doc = self.document()
        if doc is not None and doc.pageCount() > 0 and self.isVisible():
            self.cover.setPixmap(self.viewport().grab())
            self.cover.setGeometry(self.viewport().rect())
            self.cover.show()
            self.cover.raise_()
            self._uncover.start()
        if doc is not None:
            doc.load(path)

    def _page_drawn(self, *_args: object) -> None:
        if self.cover.isVisible():
            QTimer.singleShot(0, self.cover.hide)  # after the view has painted the page it now holds

    def _mode_changed(self, mode: QPdfView.ZoomMode) -> None:
        """Fit width keeps its scroll bar: were it shown only when needed, a page about as
        tall as the view would make it come and go for ever (the page narrower with it, so
        it fits; wider without, so it does not). Fit page has no margin above and below the
        page: QPdfView fits a page to a view wider than the page is tall without them, and
        then offered a scroll bar to scroll them into sight."""
        self.setVerticalScrollBarPolicy(
            Qt.ScrollBarPolicy.ScrollBarAlwaysOn
            if mode == QPdfView.ZoomMode.FitToWidth
            else Qt.ScrollBarPolicy.ScrollBarAsNeeded
        )
        m = self._margins
        fitted = QMargins(m.left(), 0, m.right(), 0) if mode == QPdfView.ZoomMode.FitInView else m
        if self.documentMargins() != fitted:
            self.setDocumentMargins(fitted)
        self.zoomed.emit()

    # --- the zoom -------------------------------------------------------------------------

    def _page_pixels(self) -> tuple[float, float]:
        """The first page's size in pixels at 100% (QPdfView's own reckoning: the primary
        screen's logical dots per inch), (0, 0) without a page."""
        doc = self.document()
        if doc is None or doc.pageCount() == 0:
            return 0.0, 0.0
        points = doc.pagePointSize(0)
        screen = QGuiApplication.primaryScreen()
        per_point = (screen.logicalDotsPerInch() if screen is not None else 96.0) / 72.0
        return points.width() * per_point, points.height() * per_point

    def shown_zoom(self) -> float:
        """The factor the page is shown at now, in every zoom mode (1.0 is 100%)."""
        mode = self.zoomMode()
        width, height = self._page_pixels()
        if mode == QPdfView.ZoomMode.Custom or width <= 0 or height <= 0:
            return float(self.zoomFactor())
        m = self.documentMargins()
        across = (self.viewport().width() - m.left() - m.right()) / width
        if mode == QPdfView.ZoomMode.FitToWidth:
            return across
        return min(across, (self.viewport().height() - m.top() - m.bottom()) / height)

    def page_origin(self, factor: float | None = None) -> QPointF:
        """Where the page's top-left corner is in the view's scrolled content at ``factor``
        (default the zoom shown): past the document margins, and centred across when the
        page is narrower than the view, as QPdfView lays it out."""
        zoom = self.shown_zoom() if factor is None else factor
        width, _height = self._page_pixels()
        m = self.documentMargins()
        room = self.viewport().width() - m.left() - m.right()
        return QPointF(m.left() + max(0.0, (room - width * zoom) / 2), m.top())

    def sheet_point(self, at: QPoint) -> QPointF:
        """The point of the page (in pixels at 100%) under ``at`` (viewport coordinates)."""
        zoom = self.shown_zoom()
        origin = self.page_origin(zoom)
        x = self.horizontalScrollBar().value() + at.x() - origin.x()
        y = self.verticalScrollBar().value() + at.y() - origin.y()
        return QPointF(x / zoom, y / zoom) if zoom > 0 else QPointF()

    def set_zoom(self, factor: float, anchor: QPoint | None = None) -> None:
        """Show the page at ``factor`` (bounded to 25%..400%), keeping the point of the
        sheet under ``anchor`` (viewport coordinates; the wheel's pointer; default the
        view's centre, for the keys) where it is."""
        factor = clamp(factor)
        at = anchor if anchor is not None else self.viewport().rect().center()
        point = self.sheet_point(at)
        self.setZoomMode(QPdfView.ZoomMode.Custom)
        self.setZoomFactor(factor)
        origin = self.page_origin(factor)
        h, v = self.horizontalScrollBar(), self.verticalScrollBar()
        h.setValue(round(origin.x() + point.x() * factor - at.x()))
        v.setValue(round(origin.y() + point.y() * factor - at.y()))

    def zoom_by(self, steps: float, anchor: QPoint | None = None) -> None:
        self.set_zoom(self.shown_zoom() * STEP**steps, anchor)

    def fit_width(self) -> None:
        self.setZoomMode(QPdfView.ZoomMode.FitToWidth)
        self.zoomed.emit()  # asked again while already so: its button stays checked

    def fit_page(self) -> None:
        self.setZoomMode(QPdfView.ZoomMode.FitInView)
        self.zoomed.emit()

    def setting(self) -> str:
        """The zoom as the settings keep it: "fit-width", "fit-page" or the factor ("1.5")."""
        mode = self.zoomMode()
        if mode == QPdfView.ZoomMode.FitToWidth:
            return FIT_WIDTH
        if mode == QPdfView.ZoomMode.FitInView:
            return FIT_PAGE
        return f"{self.zoomFactor():.4g}"

    def apply_setting(self, value: object) -> None:
        """Show the zoom a :meth:`setting` names; anything else (a damaged setting) is ignored."""
        if value == FIT_WIDTH:
            self.fit_width()
        elif value == FIT_PAGE:
            self.fit_page()
        else:
            try:
                factor = float(str(value))
            except ValueError:
                return
            if factor == factor:  # not NaN
                self.setZoomMode(QPdfView.ZoomMode.Custom)
                self.setZoomFactor(clamp(factor))

    @contextmanager
    def keep_place(self) -> Iterator[None]:
        """Around a reload: the scroll position afterwards is the one before (zoom modes are the view's)."""
        h, v = self.horizontalScrollBar().value(), self.verticalScrollBar().value()
        yield
        self.horizontalScrollBar().setValue(h)
        self.verticalScrollBar().setValue(v)

    # --- events ---------------------------------------------------------------------------

    def wheelEvent(self, event: QWheelEvent) -> None:
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            notches = event.angleDelta().y() / 120
            if notches:
                self.zoom_by(notches, event.position().toPoint())
            event.accept()
            return
        super().wheelEvent(event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.zoomed.emit()  # a fit mode's factor follows the size


def _button(text: str, tip: str, name: str) -> QToolButton:
    b = QToolButton()
    b.setText(text)
    b.setToolTip(tip)
    b.setAccessibleName(name)
    b.setFocusPolicy(Qt.FocusPolicy.TabFocus)  # the keyboard reaches them; a click leaves the focus where it was
    b.setAutoRaise(True)
    return b


class SheetBar(QWidget):
    """Above the sheet: zoom out, the zoom shown ("100%"), zoom in, fit width, fit page, and
    the button that puts the preview in a window of its own (or back)."""

    def __init__(self, view: SheetView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = view
        self.zoom_out = _button("−", f"Zoom out ({preview_key_text('zoom_out')})", "Zoom out of the preview")
        self.level = QLabel()
        self.level.setAccessibleName("Preview zoom")
        self.level.setToolTip("The zoom the sheet is shown at; Ctrl+mouse wheel zooms")
        self.level.setMinimumWidth(self.level.fontMetrics().horizontalAdvance("400%") + 8)
        self.level.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.zoom_in = _button("+", f"Zoom in ({preview_key_text('zoom_in')})", "Zoom in on the preview")
        wide = f"The sheet as wide as the pane ({preview_key_text('fit_width')})"
        self.fit_width = _button("Fit width", wide, "Fit width")
        self.fit_page = _button("Fit page", f"The whole sheet in view ({preview_key_text('fit_page')})", "Fit page")
        self.detach = _button("Detach", "", "")
        for b in (self.fit_width, self.fit_page):
            b.setCheckable(True)
        self.zoom_out.clicked.connect(lambda: view.zoom_by(-1))
        self.zoom_in.clicked.connect(lambda: view.zoom_by(1))
        self.fit_width.clicked.connect(lambda: view.fit_width())
        self.fit_page.clicked.connect(lambda: view.fit_page())
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        for w in (self.zoom_out, self.level, self.zoom_in, self.fit_width, self.fit_page):
            lay.addWidget(w)
        lay.addStretch(1)
        lay.addWidget(self.detach)
        view.zoomed.connect(self.show_zoom)
        self.show_detached(False)
        self.show_zoom()

    def show_zoom(self) -> None:
        factor = self.view.shown_zoom()
        self.level.setText(f"{round(factor * 100)}%")
        self.zoom_out.setEnabled(factor > MIN_ZOOM + 1e-6)
        self.zoom_in.setEnabled(factor < MAX_ZOOM - 1e-6)
        mode = self.view.zoomMode()
        self.fit_width.setChecked(mode == QPdfView.ZoomMode.FitToWidth)
        self.fit_page.setChecked(mode == QPdfView.ZoomMode.FitInView)

    def show_detached(self, detached: bool) -> None:
        """The last button says what it will do: detach the preview, or attach it again."""
        self.detach.setText("Attach" if detached else "Detach")
        self.detach.setAccessibleName("Attach the preview to the pane" if detached else "Detach the preview")
        self.detach.setToolTip(
            f"Back into the design's pane ({preview_key_text('detach')})"
            if detached
            else f"The preview in a window of its own ({preview_key_text('detach')})"
        )
