"""A focus frame every focusable control shows (issue 24).

Fusion draws the keyboard focus on text fields, spin boxes and buttons, but not on a
table, a list, a description box, the preview, a check box without a label (a list row's
cell) or a figure's value (read-only text Tab still stops at, for a screen reader): a
person pressing Tab could not see where they were.

:class:`FocusFrameStyle` draws it: the application's own style, but for a frame in the
palette's highlight colour while those controls have the focus. A view's frame is two
pixels wide, focused or not (a line of the palette's mid colour, then its base colour;
the focus fills both with the highlight), a check box's and a value's frame is drawn on
their edge: showing the focus moves nothing.

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
    QCheckBox,
    QFrame,
    QLabel,
    QProxyStyle,
    QStyle,
    QStyleOption,
    QTextBrowser,
    QWidget,
)

FRAMED_VIEWS = (QAbstractItemView, QTextBrowser)  # and the preview's QPdfView, known by its class name
VIEW_FRAME = 2  # pixels of a focused view's frame; a check box's and a value's are one


def framed_view(widget: QWidget | None) -> bool:
    """A list, a table, a description box or the preview: its frame shows the focus."""
    return widget is not None and (isinstance(widget, FRAMED_VIEWS) or widget.inherits("QPdfView"))


class FocusFrameStyle(QProxyStyle):
    """The style the application had, drawing a focus frame on views, check boxes and
    focusable labels (see the module docstring)."""

    def polish(self, target: Any) -> Any:
        """Each view, as it is first shown, gets a frame :data:`VIEW_FRAME` wide (drawn in
        :meth:`drawControl`): the same room for the focus frame whether it shows or not. A
        frame's width set on the view itself: the style is asked for no metric of its own,
        which Qt asks for at every measure of every widget."""
        polished = super().polish(target)
        if isinstance(target, QFrame) and framed_view(target):
            target.setFrameShape(QFrame.Shape.Panel)  # a panel's frame is as wide as its line
            target.setLineWidth(VIEW_FRAME)
        return polished

    def drawControl(
        self, element: QStyle.ControlElement, option: QStyleOption, painter: QPainter, widget: QWidget | None = None
    ) -> None:
        if element == QStyle.ControlElement.CE_ShapedFrame and framed_view(widget):
            _view_frame(painter, option)  # the style's own panel is a bevel: a flat frame instead
            return
        super().drawControl(element, option, painter, widget)
        if not option.state & QStyle.StateFlag.State_HasFocus:
            return
        if element == QStyle.ControlElement.CE_ShapedFrame:
            if isinstance(widget, QLabel):  # a figure's value Tab stops at (only such a label has the focus)
                _frame(painter, option, option.rect, 1, 2)
        elif element == QStyle.ControlElement.CE_CheckBox and isinstance(widget, QCheckBox):
            _frame(painter, option, option.rect, 1, 2)


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
    """Make the application's style draw the focus frames, once: the style it has (Fusion,
    or the desktop's) wrapped in :class:`FocusFrameStyle`, its palette kept (a dark one)."""
    if isinstance(app.style(), FocusFrameStyle):
        return
    palette = app.palette()
    app.setStyle(FocusFrameStyle(app.style().name()))
    if app.palette() != palette:  # set back only if the new style changed it: else it follows the desktop's
        app.setPalette(palette)
