"""What a person is typing, before it becomes an edit of the design.

A text field does not edit the design on every key: that would evaluate the design and
refresh every panel up to ten times a second while nobody reads them. The text commits
when the person pauses (:data:`COMMIT_DELAY_MS` after the last key), presses Enter, or
leaves the field. Everything that reads the design for the person (Save, Print, undo,
closing, another edit) flushes it first, so what was typed is never lost or reordered.
The widget being typed in is never rebuilt by this: the commit only changes the design.

There is one pending text per document (a person types into one field at a time); it
lives as a child of the document's undo stack, so the undo keys can flush it before they
undo (:mod:`shipyard._qt.document.keys`).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Signal
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QAbstractSpinBox, QLineEdit, QSpinBox, QWidget

from shipyard._qt.widgets import clock

COMMIT_DELAY_MS = 350  # a pause in typing this long commits the text (a person types a key every ~150 ms)


class PendingText(QObject):
    """The one text typed into a document's field and not yet committed."""

    left = Signal()  # the person left the field: the next edit of it is a new undo step

    def __init__(self, stack: QUndoStack) -> None:
        super().__init__(stack)
        self._timer = clock.timer(self, COMMIT_DELAY_MS)
        self._timer.timeout.connect(self.flush)
        self._commit: Callable[[], None] | None = None
        self._widget: QWidget | None = None

    def hold(self, widget: QWidget, commit: Callable[[], None]) -> None:
        """``widget`` was typed in; ``commit`` (which carries the text) runs after a pause,
        or at once when the person leaves the field or something flushes."""
        if self._widget is not widget:
            self.flush()  # typing in another field: the first one's text commits first
            widget.installEventFilter(self)
            self._widget = widget
        self._commit = commit
        self._timer.start()

    @property
    def waiting(self) -> bool:
        return self._commit is not None

    def holds(self, widget: QWidget | None) -> bool:
        """Whether ``widget`` shows text not committed yet: a refresh must not write over it
        (the design there is still the one before the typing)."""
        return self._commit is not None and widget is not None and widget is self._widget

    def flush(self) -> None:
        """Commit the typed text now, if any (Save, Print, undo, another edit)."""
        self._timer.stop()
        commit, self._commit = self._commit, None
        if commit is not None:
            commit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._widget and event.type() == QEvent.Type.FocusOut:
            self.flush()
            watched.removeEventFilter(self)
            self._widget = None
            self.left.emit()
        return False


def pending_of(stack: QUndoStack) -> PendingText | None:
    """The pending text of the document whose undo stack is ``stack``."""
    found = stack.findChild(PendingText)
    return found if isinstance(found, PendingText) else None


def commit_on_pause(pending: PendingText, widget: QLineEdit, commit: Callable[[str], None]) -> QLineEdit:
    """``widget``'s typed text goes to ``commit`` on a pause, on Enter or on leaving it."""
    widget.textEdited.connect(lambda text: pending.hold(widget, lambda: commit(text)))
    widget.returnPressed.connect(pending.flush)
    return widget


def settle_spin(widget: QSpinBox, ended: Callable[[], None], none_value: int | None = None) -> QSpinBox:
    """A spin box as a person types in it. Emptied and left, it goes back to "not set" where
    its field has that (``none_value``, shown as its special text), else to the value it had:
    Qt's nearest-value correction made an emptied box 0, a value nobody typed (a Storyteller's
    Weapon Points budget "as the rules" became 0, and the design stopped passing). Leaving it
    (or Enter) calls ``ended``: the run of edits is over, so the next change is a new undo step."""
    emptied = [False]
    widget.setCorrectionMode(QAbstractSpinBox.CorrectionMode.CorrectToPreviousValue)
    widget.lineEdit().textEdited.connect(lambda _text: emptied.__setitem__(0, not widget.cleanText().strip()))

    def finished() -> None:
        if emptied[0] and none_value is not None and widget.value() != none_value:
            widget.setValue(none_value)  # its valueChanged commits "not set"
        emptied[0] = False
        ended()

    widget.editingFinished.connect(finished)
    return widget
