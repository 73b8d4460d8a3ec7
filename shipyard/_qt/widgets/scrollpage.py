"""A step page that scrolls as a whole or lets its lists scroll, never both at once.

A list with a scroll bar of its own inside a page that scrolls too is a trap: the wheel
scrolls whichever is under the pointer, a list shows three of its rows while the page
hides the rest of the form, and the Add button of the next section is two scrolls away.
So a page follows one rule (tests/test_editor_layout.py checks it on every page):

* while the page fits the window, its lists, tables and description boxes share the
  height there is (their stretch) and scroll their own rows: the page does not scroll;
* when it does not fit, each of them shows all its rows (its height is its content's) and
  only the page scrolls.

The page is laid out at its *minimum* height for its width. Qt's own resizable scroll area
uses the preferred heights as soon as a help text wraps (height for width), which made
pages scroll that fit: at 1280x720 a step with a catalog and a second list below it hid
that list's Add button below a scroll bar.

Text editors (a design's notes) are not counted: what a user types may scroll in its box,
as in any text field.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractScrollArea,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QFrame,
    QHeaderView,
    QLabel,
    QLineEdit,
    QScrollArea,
    QStyle,
    QTableView,
    QTextBrowser,
    QWidget,
)

QWIDGETSIZE_MAX = (1 << 24) - 1


def page_views(inner: QWidget) -> list[QAbstractScrollArea]:
    """The lists, tables and read-only text boxes shown on a page (not their headers, not a
    choice's pop-up list, not the text editors)."""
    window = inner.window()
    found: list[QAbstractScrollArea] = []
    for view in inner.findChildren(QAbstractScrollArea):
        if isinstance(view, QHeaderView) or not isinstance(view, QAbstractItemView | QTextBrowser):
            continue
        if view.window() is not window or view.isHidden() or not inner.isAncestorOf(view):
            continue
        found.append(view)
    return found


def squeezed(inner: QWidget) -> list[QWidget]:
    """The controls shown on a page lower than their minimum size hint (a spin box 9 pixels
    tall shows no digits): buttons, labels, fields, spin boxes, drop-downs."""
    return [
        w
        for w in inner.findChildren(QWidget)
        if isinstance(w, QAbstractButton | QLabel | QLineEdit | QComboBox | QAbstractSpinBox)
        and not w.isHidden()
        and w.isVisibleTo(inner)
        and not (isinstance(w, QLabel) and w.wordWrap())
        and w.height() < w.minimumSizeHint().height() - 1
    ]


def content_height(view: QAbstractScrollArea) -> int:
    """The height ``view`` needs to show everything it holds without a vertical scroll bar."""
    frame = 2 * view.frameWidth()
    bar = view.horizontalScrollBar()
    below = bar.sizeHint().height() if bar is not None and bar.maximum() > 0 else 0
    if isinstance(view, QTextBrowser):
        doc = view.document()
        doc.setTextWidth(view.viewport().width())
        return int(doc.size().height()) + frame + below + 2
    rows = view.viewportSizeHint().height()
    if isinstance(view, QTableView) and not view.horizontalHeader().isHidden():
        rows = sum(view.rowHeight(r) for r in range(view.model().rowCount()) if not view.isRowHidden(r))
        rows += view.horizontalHeader().sizeHint().height()
    return rows + frame + below + 2


class ScrollPage(QScrollArea):
    """One step page: ``inner`` at its minimum height, scrolling only when the window is
    smaller than that, with its views showing all their rows while it does (see above)."""

    wider = Signal()  # the page needs more width than it has (it scrolls sideways): see shortfall()

    def __init__(self, inner: QWidget) -> None:
        super().__init__()
        self.setWidgetResizable(False)  # laid out here, at the minimum height (see the module)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the page scrolls; Tab stops at its controls
        self.setWidget(inner)
        self.whole = False  # the views show all their rows and the page scrolls
        self._own: dict[int, tuple[QAbstractScrollArea, int, int]] = {}  # each view's own (min, max) height
        self._applied: dict[int, tuple[int, int]] = {}  # the (min, max) height given here to each view
        self._fitting = False
        self._fitted: tuple[object, ...] | None = None  # what the last fit was made for (:meth:`_state`)
        self._later = QTimer(self)
        self._later.setSingleShot(True)
        self._later.setInterval(0)
        self._later.timeout.connect(self.fit)
        inner.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Something on the page changed its size (a section shown, a detail built): fit again."""
        if event.type() == QEvent.Type.LayoutRequest:
            self._soon()
        return False

    def _soon(self) -> None:
        if not self._fitting:
            self._later.start()

    def resizeEvent(self, event: object) -> None:
        super().resizeEvent(event)  # type: ignore[arg-type]
        self.fit()

    def showEvent(self, event: object) -> None:
        super().showEvent(event)  # type: ignore[arg-type]
        self.fit()

    def _views(self) -> list[QAbstractScrollArea]:
        inner = self.widget()
        views = page_views(inner) if inner is not None else []
        live = {id(v) for v in views}
        self._own = {k: v for k, v in self._own.items() if k in live}
        self._applied = {k: v for k, v in self._applied.items() if k in live}
        for v in views:
            now = (v.minimumHeight(), v.maximumHeight())
            if id(v) in self._own and self._applied.get(id(v), now) != now:
                # its builder sized it again since (a report table as tall as its rows): its own now
                self._own[id(v)] = (v, *now)
            if id(v) not in self._own:
                self._own[id(v)] = (v, *now)
                model = v.model() if isinstance(v, QAbstractItemView) else None
                if model is not None:  # rows came or went: while the views show all, they grow with them
                    for signal in (model.rowsInserted, model.rowsRemoved, model.modelReset, model.layoutChanged):
                        signal.connect(self._soon)
                if isinstance(v, QTextBrowser):
                    v.document().contentsChanged.connect(self._soon)
        return views

    def _set_whole(self, whole: bool, views: list[QAbstractScrollArea]) -> None:
        inner = self.widget()
        for v in views:
            _view, low, high = self._own[id(v)]
            if whole:
                need = content_height(v)
                low, high = max(low, need), (max(high, need) if high < QWIDGETSIZE_MAX else high)
            self._applied[id(v)] = (low, high)
            if (v.minimumHeight(), v.maximumHeight()) == (low, high):
                continue
            v.setMinimumHeight(low)
            v.setMaximumHeight(high)
            w: QWidget | None = v
            while w is not None and w is not inner:  # the minimum sizes up to the page, measured again
                w.updateGeometry()
                if w.layout() is not None:
                    w.layout().invalidate()  # type: ignore[union-attr]
                w = w.parentWidget()
        if inner is not None and inner.layout() is not None:
            inner.layout().invalidate()  # type: ignore[union-attr]

    def _needed(self, width: int) -> int:
        inner = self.widget()
        lay = inner.layout() if inner is not None else None
        if lay is None:
            return inner.minimumSizeHint().height() if inner is not None else 0
        if lay.hasHeightForWidth():
            return max(lay.minimumHeightForWidth(width), lay.totalMinimumSize().height())
        return lay.totalMinimumSize().height()

    def _state(self, inner: QWidget) -> tuple[object, ...]:
        """What a fit depends on: the room, the page's width and height as now laid out, and
        each view's own heights, the heights it has now (a view built since, or sized by its
        builder, has not those the last fit gave it) and its rows. A fit of a page that
        scrolls sets its views back to their own heights to measure them and then to all
        their rows, which asks for a layout once the fit is done; without this the page
        fitted itself again at once, for ever (88 to 230 fits a second, about half a core,
        on a page left alone)."""
        views = self._views()
        room = self.maximumViewportSize()
        return (
            room.width(),
            room.height(),
            inner.minimumSizeHint().width(),
            self._needed(inner.width()),
            tuple(
                (id(v), *self._own[id(v)][1:], v.minimumHeight(), v.maximumHeight(), content_height(v)) for v in views
            ),
        )

    def fit(self) -> None:
        """Lay the page out for the room there is: fitting, its views stretch; too tall,
        they show all their rows and the page scrolls. Nothing is done when nothing it
        depends on changed since the last fit (:meth:`_state`)."""
        inner = self.widget()
        if inner is None or self._fitting:
            return
        self._fitting = True
        try:
            if self._fitted is not None and self._state(inner) == self._fitted:
                return
            for _ in range(3):  # again while laying it out changed what it needs (a text wrapped anew)
                width = self._fit_once(inner)
                for w in (self, self.viewport(), inner, *inner.findChildren(QWidget)):  # laid out now
                    QApplication.sendPostedEvents(w, QEvent.Type.LayoutRequest.value)
                if self._needed(width) <= inner.height():
                    break
            self._fitted = self._state(inner)
        finally:
            self._fitting = False
        if self.shortfall() > 0:
            self.wider.emit()

    def shortfall(self) -> int:
        """How many pixels wider the page must be to show its controls without scrolling
        sideways (a list with its names whole); 0 when it has the room."""
        inner = self.widget()
        if inner is None:
            return 0
        need = inner.minimumSizeHint().width() + (self._bar() if self.whole else 0)
        return max(0, need - self.maximumViewportSize().width())

    def _fit_once(self, inner: QWidget) -> int:
        """Size ``inner`` for the room there is; returns the width it was laid out at."""
        room = self.maximumViewportSize()
        bar = self._bar()
        views = self._views()
        width = max(room.width(), inner.minimumSizeHint().width())
        self._set_whole(False, views)
        need = self._needed(width)
        self.whole = need > room.height()
        if not self.whole:
            inner.resize(width, max(need, room.height()))
            self._activate(inner)
            self.whole = bool(squeezed(inner))  # fits on paper, yet a control is squeezed: it scrolls
        if self.whole:
            width = max(room.width() - bar, inner.minimumSizeHint().width())
            inner.resize(width, need)  # the views' widths, so their rows are measured as shown
            self._set_whole(True, views)
            # a page that scrolls anyway has the room for every control's size hint: a layout
            # squeezed to its minimum height gave a section less than its own minimum (a
            # round plan's spin boxes 9 pixels tall)
            need = max(self._needed(width), self._preferred(width))
        inner.resize(width, max(need, room.height()) if not self.whole else need)
        return width

    def _bar(self) -> int:
        return self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, self)

    def _preferred(self, width: int) -> int:
        inner = self.widget()
        lay = inner.layout() if inner is not None else None
        if lay is None:
            return inner.sizeHint().height() if inner is not None else 0
        return lay.heightForWidth(width) if lay.hasHeightForWidth() else lay.totalSizeHint().height()

    @staticmethod
    def _activate(inner: QWidget) -> None:
        for w in (inner, *inner.findChildren(QWidget)):
            if w.layout() is not None:
                w.layout().activate()  # type: ignore[union-attr]
