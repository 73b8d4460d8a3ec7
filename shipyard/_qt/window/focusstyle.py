"""A focus frame every focusable control shows (issue 24).

Fusion draws the keyboard focus on text fields, spin boxes and buttons, but not on a
table, a list, a description box, the preview, a check box without a label (a list row's
cell) or a figure's value (read-only text Tab still stops at, for a screen reader): a
person pressing Tab could not see where they were.

:class:`FocusFrameStyle` draws it: the application's own style, but for a frame in the
palette's highlight colour while those controls have the focus. A view's frame is two
pixels wide, focused or not (a line of the palette's mid colour, then its base colour;
the focus fills both with the highlight); a check box's and a value's frame is drawn on
their edge (a check box no larger than its indicator: on the indicator's outline, which
turns the highlight colour). Showing the focus moves nothing.

Why a style and not a style sheet (as before): a style sheet set on the window, however
few its rules, makes Qt draw and measure every widget in it through its style-sheet
engine, which made opening a design and building its pages cost more CPU
(``bench/bench_focus_style.py`` measures how much).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QPainter, QPalette, QPen
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QFrame,
    QLabel,
    QProxyStyle,
    QStyle,
    QStyleOption,
    QTextBrowser,
    QWidget,
)

FRAMED_VIEWS = (QAbstractItemView, QTextBrowser)  # and the preview's QPdfView, known by its class name
VIEW_FRAME = 2  # pixels of a view's frame, focused or not; a check box's and a value's focus frame is one
_OWN_FRAME = "shipyard_own_frame"  # a view's property: its frame (shape, line width) before this style's


def framed_view(widget: QWidget | None) -> bool:
    """A list, a table, a description box or the preview: its frame shows the focus."""
    return widget is not None and (isinstance(widget, FRAMED_VIEWS) or widget.inherits("QPdfView"))


class FocusFrameStyle(QProxyStyle):
    """The style the application had, drawing a focus frame on views, check boxes and
    focusable labels (see the module docstring)."""

    def polish(self, target: Any) -> Any:
        """A view, each time it is polished with this style, gets a frame :data:`VIEW_FRAME`
        wide (drawn in :meth:`drawControl`): the same room for the focus frame whether it
        shows or not; :meth:`unpolish` gives it back its own. The width is the view's own
        line width, not a metric of the style's: Qt asks the style for metrics at every
        measure of every widget, and each answer would be Python's."""
        polished = super().polish(target)
        if isinstance(target, QFrame) and framed_view(target):
            if target.property(_OWN_FRAME) is None:
                target.setProperty(_OWN_FRAME, [target.frameStyle(), target.lineWidth()])
            target.setFrameShape(QFrame.Shape.Panel)  # a panel's frame is as wide as its line
            target.setLineWidth(VIEW_FRAME)
        return polished

    def unpolish(self, target: Any) -> Any:
        """The view's own frame back, as another style will draw it."""
        if isinstance(target, QFrame):
            own = target.property(_OWN_FRAME)
            if own is not None:
                target.setProperty(_OWN_FRAME, None)
                target.setFrameStyle(int(own[0]))
                target.setLineWidth(int(own[1]))
        return super().unpolish(target)

    def drawControl(
        self, element: QStyle.ControlElement, option: QStyleOption, painter: QPainter, widget: QWidget | None = None
    ) -> None:
        # every control the application draws comes here: the element is looked at first
        if element == QStyle.ControlElement.CE_ShapedFrame:
            if widget is not None and widget.property(_OWN_FRAME) is not None:
                _view_frame(painter, option)  # the style's own panel is a bevel: a flat frame instead
                return
            super().drawControl(element, option, painter, widget)
            # a figure's value Tab stops at, or a label selectable by mouse, once clicked
            if isinstance(widget, QLabel) and option.state & QStyle.StateFlag.State_HasFocus:
                _frame(painter, option, option.rect, 1, 2)
        elif element == QStyle.ControlElement.CE_CheckBox:
            super().drawControl(element, option, painter, widget)
            if option.state & QStyle.StateFlag.State_HasFocus:  # on its edge (see the module docstring)
                _frame(painter, option, option.rect, 1, 2)
        else:
            super().drawControl(element, option, painter, widget)


def _view_frame(painter: QPainter, option: QStyleOption) -> None:
    """A view's frame: focused, :data:`VIEW_FRAME` pixels of the highlight colour; else a
    line of the palette's mid colour, then the view's base colour up to its rows."""
    if option.state & QStyle.StateFlag.State_HasFocus:
        _frame(painter, option, option.rect, VIEW_FRAME, 0)
        return
    _frame(painter, option, option.rect.adjusted(1, 1, -1, -1), VIEW_FRAME - 1, 0, QPalette.ColorRole.Base)
    _frame(painter, option, option.rect, 1, 0, QPalette.ColorRole.Mid)


def _frame(
    painter: QPainter,
    option: QStyleOption,
    rect: QRect,
    width: int,
    radius: int,
    role: QPalette.ColorRole = QPalette.ColorRole.Highlight,
) -> None:
    """A frame ``width`` pixels wide just inside ``rect``, in the palette's ``role`` colour."""
    painter.save()
    pen = QPen(option.palette.color(role))
    pen.setWidth(width)
    pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
    painter.setPen(pen)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    inset = width / 2  # the pen is centred on the line: the frame's outer edge on the rect's
    edge = rect.toRectF().adjusted(inset, inset, -inset, -inset)
    if radius:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.drawRoundedRect(edge, radius, radius)
    else:
        painter.drawRect(edge)
    painter.restore()


def install_focus_frames(app: QApplication) -> None:
    """Make the application's style draw the focus frames, once: a :class:`FocusFrameStyle`
    over a new style of the kind the application has (Fusion, or the desktop's; by its
    name, the desktop's default for a style without one). A palette the application was
    given (``--dark``'s) stays: Qt keeps it through a change of style."""
    if not isinstance(app.style(), FocusFrameStyle):
        app.setStyle(FocusFrameStyle(app.style().name()))
