"""A value the design refused, kept where the person put it.

When the engine refuses what was typed or chosen (a name erased, a station another entry
has, a number the rules do not allow beside another value), the value is not taken back
behind the person's back: it stays in its control (a text field, a spin box, a drop-down,
a check box), the control is marked, and the reason is written beside it in the player's
words. It stays so until the person changes the value (which commits again) or presses
Escape, which puts the stored value back. While a control holds a refused value,
refreshing the pages does not write over it (:func:`holds`).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, SignalInstance
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QCheckBox, QComboBox, QDoubleSpinBox, QLabel, QLineEdit, QSpinBox, QWidget

from shipyard._qt.widgets.marks import mark_colour

_PROPERTY = "refused"


def _changed(field: QWidget) -> SignalInstance | None:
    """The signal a person's next change of ``field`` sends (not a refresh's)."""
    if isinstance(field, QLineEdit):
        return field.textEdited
    if isinstance(field, QSpinBox | QDoubleSpinBox):
        return field.valueChanged
    if isinstance(field, QComboBox):
        return field.activated
    if isinstance(field, QCheckBox):
        return field.toggled
    return None


class _Refusal(QObject):
    """The mark of one control: its frame, the reason beside it, Escape to restore."""

    def __init__(self, field: QWidget, reason: str, restore: Callable[[], None]) -> None:
        super().__init__(field)
        self.field, self.restore = field, restore
        self.changed = _changed(field)
        self.sheet = field.styleSheet()
        colour = mark_colour("error", field)
        field.setStyleSheet(f"{type(field).__name__} {{ border: 2px solid {colour}; }}")
        self.tip = field.toolTip()
        field.setToolTip(f"Not changed: {reason}\nEscape puts back the value kept.")
        field.setProperty(_PROPERTY, reason)
        holder = field.parentWidget() or field
        self.note = QLabel(reason, holder)
        self.note.setObjectName("refusal")
        self.note.setWordWrap(True)
        self.note.setAccessibleName("Not changed")
        self.note.setStyleSheet(
            f"QLabel#refusal {{ color: {colour}; background: palette(base); border: 1px solid {colour};"
            " padding: 2px 4px; }"
        )
        self._place()
        self.note.show()
        self.note.raise_()
        self.link = self.changed.connect(self.clear) if self.changed is not None else None
        # Escape, wherever the control takes its keys (a spin box's or drop-down's own text field)
        self.keys = [field, *field.findChildren(QLineEdit)]
        for w in self.keys:
            w.installEventFilter(self)

    def _place(self) -> None:
        """Under the field (above it when the field is at the bottom of what holds it),
        as wide as the reason needs, within what holds the field."""
        holder = self.note.parentWidget() or self.field
        top_left = self.field.mapTo(holder, QPoint(0, 0)) if holder is not self.field else QPoint(0, 0)
        width = max(self.field.width(), min(420, holder.width() - top_left.x()))
        self.note.setFixedWidth(max(width, 80))
        self.note.adjustSize()
        below = top_left.y() + self.field.height()
        y = below if below + self.note.height() <= holder.height() else max(0, top_left.y() - self.note.height())
        x = max(0, min(top_left.x(), holder.width() - self.note.width()))
        self.note.move(x, y)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            if event.key() == Qt.Key.Key_Escape:
                self.clear()
                self.restore()
                return True
        elif watched is self.field and event.type() in (QEvent.Type.Move, QEvent.Type.Resize):
            self._place()
        return False

    def clear(self, *_value: object) -> None:
        field = self.field
        for w in self.keys:
            w.removeEventFilter(self)
        if self.link is not None:
            QObject.disconnect(self.link)
            self.link = None
        field.setStyleSheet(self.sheet)
        field.setToolTip(self.tip)
        field.setProperty(_PROPERTY, None)
        self.note.hide()
        self.note.deleteLater()
        self.deleteLater()


def refuse(field: QWidget, reason: str, restore: Callable[[], None]) -> bool:
    """Keep the refused value in ``field`` (a text field, spin box, drop-down or check box),
    marked, with ``reason`` beside it; ``restore`` (on Escape) shows the stored value again.
    Whether the field keeps it (one not shown shows the stored value again at once)."""
    if _changed(field) is None or not field.isVisible():
        return False
    old = field.findChild(_Refusal, options=Qt.FindChildOption.FindDirectChildrenOnly)
    if isinstance(old, _Refusal):
        old.clear()
    _Refusal(field, reason, restore)
    return True


def holds(field: QWidget | None) -> bool:
    """Whether ``field`` shows a refused text a refresh must leave alone."""
    return field is not None and bool(field.property(_PROPERTY))


def reason(field: QWidget) -> str:
    """The reason written beside a refused field ("" when it is not marked)."""
    value = field.property(_PROPERTY)
    return value if isinstance(value, str) else ""
