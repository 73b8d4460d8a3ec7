"""Bind widgets to paths in a design: user edits become undoable commands, and every
change of the document (edit, undo, redo, load) flows back into the widgets.

A path is the same string findings carry, so clicking a finding can focus the field
that fixes it (``focus(path)`` picks the longest bound prefix), enabling a greyed field
for the user to fill in or focusing the check box that makes it editable. Every text
field's undo and redo are the document's (:func:`shipyard._qt.document.keys.share_undo`), and its
text commits on a pause, on Enter or on leaving it (:mod:`shipyard._qt.document.pending`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, QObject, Signal
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QCheckBox,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QSpinBox,
    QToolButton,
    QWidget,
)

from shipyard._qt.document import refused
from shipyard._qt.document.document import Document
from shipyard._qt.document.keys import share_undo
from shipyard._qt.document.pending import commit_on_pause, settle_spin
from shipyard.core.edits import get_at
from shipyard.core.paths import value_at


class Binding:
    def __init__(self, path: str, widget: QWidget, read: Callable[[], Any], write: Callable[[Any], None]) -> None:
        self.path, self.widget, self.read, self.write = path, widget, read, write


class Binder(QObject):
    """Keeps a set of widgets and one document in step."""

    closed = Signal()  # a field a finding opened was left: its condition applies again

    def __init__(self, doc: Document, report_error: Callable[[str], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.report_error = report_error
        self.bindings: dict[str, Binding] = {}
        self.focusers: dict[str, Callable[[str], bool]] = {}
        self.gates: dict[str, QWidget] = {}  # paths editable only once a check box is ticked (a named pilot)
        self.opened: set[QWidget] = set()  # greyed fields a finding opened for the user to fill in
        self._updating = False

    # --- registering ------------------------------------------------------------------

    def bind(self, path: str, widget: QWidget, read: Callable[[], Any], write: Callable[[Any], None]) -> QWidget:
        """Any widget: ``read`` gives its value, ``write`` shows one (signals are blocked then);
        the widget's own signal calls :meth:`commit`."""
        self.bindings[path] = Binding(path, widget, read, write)
        if isinstance(widget, QAbstractSpinBox | QLineEdit | QPlainTextEdit) or (
            isinstance(widget, QComboBox) and widget.isEditable()
        ):
            share_undo(widget, self.doc.undo_stack)
        return widget

    def unbind(self, prefix: str) -> None:
        """Forget the widgets and list editors at ``prefix`` and below (a rebuilt detail area)."""
        for p in [p for p in self.bindings if _covers(prefix, p)]:
            del self.bindings[p]
        for p in [p for p in self.focusers if _covers(prefix, p)]:
            del self.focusers[p]
        for p in [p for p in self.gates if _covers(prefix, p)]:
            del self.gates[p]

    def commit(self, path: str, value: Any, merge: bool = True) -> None:
        """The user set ``value`` at ``path``: one undo step (typing in one field merges)."""
        self._commit(path, value, merge)

    def _commit(self, path: str, value: Any, merge: bool = True) -> None:
        if self._updating:
            return
        error = self.doc.edit(path, value, merge=merge)
        if error:
            self.report_error(error)
            b = self.bindings.get(path)
            if b is None or not refused.refuse(b.widget, error, lambda: self.refresh_one(path)):
                self.refresh_one(path)

    def spin(self, path: str, widget: QSpinBox, *, none_value: int | None = None) -> QSpinBox:
        """A spin box; with ``none_value`` that value (shown as special text) means "not set"."""

        def read() -> Any:
            v = widget.value()
            return None if none_value is not None and v == none_value else v

        def write(v: Any) -> None:
            widget.setValue(none_value if v is None and none_value is not None else int(v or 0))
            if v is None and none_value is None:  # a field whose object is absent (greyed): no number, not a 0
                widget.lineEdit().setText("")

        widget.setKeyboardTracking(True)
        settle_spin(widget, self.doc.end_run, none_value)
        widget.valueChanged.connect(lambda _v: self._commit(path, read()))
        self.bind(path, widget, read, write)
        return widget

    def line(self, path: str, widget: QLineEdit) -> QLineEdit:
        commit_on_pause(self.doc.pending, widget, lambda text: self._commit(path, text))
        self.bind(path, widget, widget.text, lambda v: widget.setText("" if v is None else str(v)))
        return widget

    def text(self, path: str, widget: QPlainTextEdit) -> QPlainTextEdit:
        def write(v: Any) -> None:
            if widget.toPlainText() != (v or ""):
                cursor = widget.textCursor().position()
                widget.setPlainText(v or "")
                c = widget.textCursor()
                c.setPosition(min(cursor, len(v or "")))
                widget.setTextCursor(c)

        def typed() -> None:
            if not self._updating:
                text = widget.toPlainText()
                self.doc.pending.hold(widget, lambda: self._commit(path, text))

        widget.textChanged.connect(typed)
        self.bind(path, widget, widget.toPlainText, write)
        return widget

    def check(self, path: str, widget: QCheckBox) -> QCheckBox:
        widget.toggled.connect(lambda on: self._commit(path, on, merge=False))
        self.bindings[path] = Binding(path, widget, widget.isChecked, lambda v: widget.setChecked(bool(v)))
        return widget

    def combo(self, path: str, widget: QComboBox) -> QComboBox:
        """A combo box whose items carry their value as item data."""

        def write(v: Any) -> None:
            i = widget.findData(v)
            if i < 0 and widget.isEditable():
                widget.setEditText(str(v))
            else:
                widget.setCurrentIndex(max(i, 0))

        widget.activated.connect(lambda i: self._commit(path, widget.itemData(i), merge=False))
        editor = widget.lineEdit() if widget.isEditable() else None
        if editor is not None:
            editor.editingFinished.connect(lambda: self._commit(path, widget.currentText(), merge=False))
        self.bind(path, widget, lambda: widget.currentData(), write)
        return widget

    def focuser(self, prefix: str, focus: Callable[[str], bool]) -> None:
        """A list editor that can focus a path under ``prefix`` (e.g. ``weapons[2].count``)."""
        self.focusers[prefix] = focus

    def gate(self, prefix: str, check: QWidget) -> None:
        """The paths under ``prefix`` are editable once ``check`` is ticked (an optional object)."""
        self.gates[prefix] = check

    # --- syncing ----------------------------------------------------------------------

    def refresh_one(self, path: str, data: Any = None) -> None:
        """Show the document's value at ``path``; ``data`` is the design as JSON when the
        caller has it (one dump for a whole refresh instead of one a widget)."""
        b = self.bindings.get(path)
        if b is None or self.doc.pending.holds(b.widget) or refused.holds(b.widget):
            return
        try:
            value = value_at(data, path) if data is not None else get_at(self.doc.design, path)
        except Exception:
            value = None
        self._updating = True
        try:
            if b.read() != value:
                b.widget.blockSignals(True)
                try:
                    b.write(value)
                finally:
                    b.widget.blockSignals(False)
        finally:
            self._updating = False

    def refresh(self, data: Any = None) -> None:
        if data is None and self.bindings:
            data = self.doc.design.model_dump(mode="json")
        for path in list(self.bindings):
            self.refresh_one(path, data)

    def focus(self, path: str) -> bool:
        """Focus the widget for ``path``, or for the nearest bound place above it."""
        candidates = sorted((p for p in (*self.bindings, *self.focusers) if _covers(p, path)), key=len, reverse=True)
        for p in candidates:
            if p in self.focusers and self.focusers[p](path):
                return True
            if p in self.bindings:
                w = self.bindings[p].widget
                if not w.isEnabled() or w.isHidden():
                    w = self._open(p, w)
                _reveal(w)
                w.setFocus()
                return True
        return False

    def _open(self, path: str, widget: QWidget) -> QWidget:
        """A greyed or folded-away field a finding names: unfolded (the budget settings), or
        the check box that makes it editable (a named pilot), or the field itself enabled
        until the user leaves it (what they type there then holds the field's condition:
        an Armor value divides Soak)."""
        gate = next((g for p, g in self.gates.items() if _covers(p, path)), None)
        if isinstance(gate, QToolButton) and gate.isCheckable():
            gate.setChecked(True)  # showing more of the page, not a change of the design
        elif gate is not None and gate.isEnabled() and not (isinstance(gate, QCheckBox) and gate.isChecked()):
            return gate
        if widget.isEnabled():
            return widget
        self.opened.add(widget)
        widget.setEnabled(True)
        widget.installEventFilter(self)
        return widget

    def is_open(self, widget: QWidget) -> bool:
        """Whether a finding opened this greyed field (its condition does not grey it again yet)."""
        return widget in self.opened

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.FocusOut and watched in self.opened:
            self.opened.discard(watched)
            watched.removeEventFilter(self)
            self.closed.emit()
        return False


def _covers(prefix: str, path: str) -> bool:
    return path == prefix or path.startswith(prefix + ".") or path.startswith(prefix + "[")


def _reveal(widget: QWidget) -> None:
    """Make every tab that holds ``widget`` current, so it can take the focus."""
    from PySide6.QtWidgets import QScrollArea, QStackedWidget, QTabWidget

    child: QWidget | None = widget
    while child is not None:
        parent = child.parentWidget()
        tabs = parent.parentWidget() if parent is not None else None
        if isinstance(parent, QStackedWidget) and isinstance(tabs, QTabWidget):
            tabs.setCurrentWidget(child)
        child = parent
    child = widget.parentWidget()
    while child is not None:  # scrolled into sight, on a page taller than the window
        area = child.parentWidget()
        if isinstance(area, QScrollArea) and area.viewport() is child:
            area.ensureWidgetVisible(widget)
        child = area
