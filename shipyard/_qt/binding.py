"""Bind widgets to paths in a design: user edits become undoable commands, and every
change of the document (edit, undo, redo, load) flows back into the widgets.

A path is the same string findings carry, so clicking a finding can focus the field
that fixes it (``focus(path)`` picks the longest bound prefix).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QAbstractSpinBox, QCheckBox, QComboBox, QLineEdit, QPlainTextEdit, QSpinBox, QWidget

from shipyard._qt.document import Document
from shipyard.core.edits import get_at
from shipyard.core.formview import value_at


class Binding:
    def __init__(self, path: str, widget: QWidget, read: Callable[[], Any], write: Callable[[Any], None]) -> None:
        self.path, self.widget, self.read, self.write = path, widget, read, write


class Binder(QObject):
    """Keeps a set of widgets and one document in step."""

    def __init__(self, doc: Document, report_error: Callable[[str], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.report_error = report_error
        self.bindings: dict[str, Binding] = {}
        self.focusers: dict[str, Callable[[str], bool]] = {}
        self._updating = False

    # --- registering ------------------------------------------------------------------

    def bind(self, path: str, widget: QWidget, read: Callable[[], Any], write: Callable[[Any], None]) -> QWidget:
        """Any widget: ``read`` gives its value, ``write`` shows one (signals are blocked then);
        the widget's own signal calls :meth:`commit`."""
        self.bindings[path] = Binding(path, widget, read, write)
        return widget

    def unbind(self, prefix: str) -> None:
        """Forget the widgets and list editors at ``prefix`` and below (a rebuilt detail area)."""
        for p in [p for p in self.bindings if _covers(prefix, p)]:
            del self.bindings[p]
        for p in [p for p in self.focusers if _covers(prefix, p)]:
            del self.focusers[p]

    def commit(self, path: str, value: Any, merge: bool = True) -> None:
        """The user set ``value`` at ``path``: one undo step (typing in one field merges)."""
        self._commit(path, value, merge)

    def _commit(self, path: str, value: Any, merge: bool = True) -> None:
        if self._updating:
            return
        error = self.doc.edit(path, value, merge=merge)
        if error:
            self.report_error(error)
            self.refresh_one(path)

    def spin(self, path: str, widget: QSpinBox, *, none_value: int | None = None) -> QSpinBox:
        """A spin box; with ``none_value`` that value (shown as special text) means "not set"."""

        def read() -> Any:
            v = widget.value()
            return None if none_value is not None and v == none_value else v

        def write(v: Any) -> None:
            widget.setValue(none_value if v is None and none_value is not None else int(v or 0))

        widget.setKeyboardTracking(True)
        widget.setCorrectionMode(QAbstractSpinBox.CorrectionMode.CorrectToNearestValue)
        widget.valueChanged.connect(lambda _v: self._commit(path, read()))
        self.bindings[path] = Binding(path, widget, read, write)
        return widget

    def line(self, path: str, widget: QLineEdit) -> QLineEdit:
        widget.textEdited.connect(lambda text: self._commit(path, text))
        self.bindings[path] = Binding(path, widget, widget.text, lambda v: widget.setText("" if v is None else str(v)))
        return widget

    def text(self, path: str, widget: QPlainTextEdit) -> QPlainTextEdit:
        def write(v: Any) -> None:
            if widget.toPlainText() != (v or ""):
                cursor = widget.textCursor().position()
                widget.setPlainText(v or "")
                c = widget.textCursor()
                c.setPosition(min(cursor, len(v or "")))
                widget.setTextCursor(c)

        widget.textChanged.connect(lambda: self._commit(path, widget.toPlainText()))
        self.bindings[path] = Binding(path, widget, widget.toPlainText, write)
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
        self.bindings[path] = Binding(path, widget, lambda: widget.currentData(), write)
        return widget

    def focuser(self, prefix: str, focus: Callable[[str], bool]) -> None:
        """A list editor that can focus a path under ``prefix`` (e.g. ``weapons[2].count``)."""
        self.focusers[prefix] = focus

    # --- syncing ----------------------------------------------------------------------

    def refresh_one(self, path: str, data: Any = None) -> None:
        """Show the document's value at ``path``; ``data`` is the design as JSON when the
        caller has it (one dump for a whole refresh instead of one a widget)."""
        b = self.bindings.get(path)
        if b is None:
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
                _reveal(w)
                w.setFocus()
                return True
        return False


def _covers(prefix: str, path: str) -> bool:
    return path == prefix or path.startswith(prefix + ".") or path.startswith(prefix + "[")


def _reveal(widget: QWidget) -> None:
    """Make every tab that holds ``widget`` current, so it can take the focus."""
    from PySide6.QtWidgets import QStackedWidget, QTabWidget

    child: QWidget | None = widget
    while child is not None:
        parent = child.parentWidget()
        tabs = parent.parentWidget() if parent is not None else None
        if isinstance(parent, QStackedWidget) and isinstance(tabs, QTabWidget):
            tabs.setCurrentWidget(child)
        child = parent
