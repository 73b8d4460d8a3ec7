"""A list editor's columns and the control each of its cells is.

A :class:`Column` says what a column edits (a field of the entry) and with what kind of
control; the functions here make that control for one entry, name it after the entry,
write the entry's value into it and give a choice its options of the moment. They know
nothing of rows, the table or the document's undo steps beyond what they are handed: the
table (:class:`shipyard._qt.form.listeditor.ListEditor`) decides when a row's controls are made
or written, so that an edit rewrites only what changed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QLabel,
    QLineEdit,
    QSpinBox,
    QStyle,
    QStyleOptionComboBox,
    QWidget,
)

from shipyard._qt.document.document import Document
from shipyard._qt.document.keys import share_undo
from shipyard._qt.document.pending import commit_on_pause, settle_spin

Commit = Callable[[str, Any, bool], None]  # (design path, value, merge with the last undo step)


@dataclass
class Column:
    """One column of a list editor: a header, the entry's field, the kind of cell.

    ``optspin`` is a spin box whose lowest step means "not set" (shown as ``none``);
    ``enabled`` decides per entry, ``enabled_at`` per row and entry (a form's conditions
    need the row's path); ``help`` is each cell's tooltip and accessible description.
    A ``label`` cell is read-only: ``text`` gives its text and tooltip for a row and entry.
    The field ``.`` is the entry itself (a list of plain values). A ``combo`` with ``unset``
    shows that text on rows whose value is not set, and only there is it an option.
    """

    header: str
    field: str
    kind: str  # name | label | spin | optspin | check | line | combo
    minimum: int = 0
    maximum: int = 999
    choices: Callable[[], list[tuple[str, Any]]] | None = None
    enabled: Callable[[dict[str, Any]], bool] = dc_field(default=lambda _e: True)
    help: str = ""
    none: str = "same"
    enabled_at: Callable[[int, dict[str, Any]], bool] | None = None
    why: str = ""  # why a cell is greyed on a row (enabled_at does not hold): its tooltip then
    text: Callable[[int, Any], tuple[str, str]] | None = None
    unset: str | None = None

    def offered(self, options: list[tuple[str, Any]], value: Any) -> list[tuple[str, Any]]:
        """A choice cell's options on a row holding ``value``."""
        return [(self.unset, None), *options] if self.unset is not None and value is None else options

    def enabled_for(self, row: int, entry: dict[str, Any]) -> bool:
        return self.enabled_at(row, entry) if self.enabled_at is not None else self.enabled(entry)


def field_value(entry: Any, dotted: str) -> Any:
    """The value of the field ``dotted`` of ``entry`` (``.``: the entry itself); None where absent."""
    if dotted == ".":
        return entry
    node: Any = entry
    for part in dotted.split("."):
        node = node.get(part) if isinstance(node, dict) else None
    return node


def takes_focus(w: QWidget | None) -> bool:
    """Whether the cell control ``w`` is one the Tab key stops at now (not a name, a
    read-only or a greyed cell)."""
    return w is not None and w.isEnabled() and bool(w.focusPolicy() & Qt.FocusPolicy.TabFocus)


def make_cell(doc: Document, col: Column, path: str, entry: Any, entry_name: str, commit: Commit) -> QWidget:
    """The control of ``col`` for ``entry``, editing ``path``: each edit goes to ``commit``."""
    w: QWidget
    if col.kind == "name":
        w = QLabel(entry_name)
    elif col.kind == "label":
        w = QLabel()
        w.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        w.setContentsMargins(4, 0, 4, 0)
    elif col.kind in ("spin", "optspin"):
        s = QSpinBox()
        s.setRange(col.minimum - (1 if col.kind == "optspin" else 0), col.maximum)
        if col.kind == "optspin":
            s.setSpecialValueText(col.none)
            s.valueChanged.connect(lambda v, p=path, lo=col.minimum: commit(p, None if v < lo else v, True))
        else:
            s.valueChanged.connect(lambda v, p=path: commit(p, v, True))
        settle_spin(s, doc.end_run, col.minimum - 1 if col.kind == "optspin" else None)
        w = s
    elif col.kind == "check":
        b = QCheckBox()
        b.toggled.connect(lambda on, p=path: commit(p, on, False))
        w = b
    elif col.kind == "line":

        def typed(text: str, p: str = path) -> None:
            commit(p, text or None, True)

        w = commit_on_pause(doc.pending, QLineEdit(), typed)
        w.textChanged.connect(lambda _t, field=w: _tip_text(field))  # a text cut to its column: whole in its tooltip
    else:
        cb = QComboBox()
        # as narrow as the choice it shows (its column widens to that), not its longest
        # option: the opened list shows every option whole, and the names keep the room
        cb.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        cb.setMinimumContentsLength(1)
        for label, value in col.offered(col.choices(), field_value(entry, col.field)) if col.choices else []:
            cb.addItem(label, value)
        cb.activated.connect(lambda i, p=path, box=cb: commit(p, box.itemData(i), False))
        w = cb
    name_cell(w, col, entry_name)
    if col.help:
        w.setAccessibleDescription(col.help)
    if isinstance(w, QSpinBox | QLineEdit):
        share_undo(w, doc.undo_stack)
    return w


def name_cell(w: QWidget, col: Column, entry_name: str) -> None:
    """The cell's accessible name ("Ammo of Laser") and, but for a read-only cell, its tooltip."""
    name = f"{col.header} of {entry_name}"
    if w.accessibleName() == name:
        return
    w.setAccessibleName(name)
    if col.kind != "label":  # a read-only cell's tooltip is its text's (see label_cell)
        w.setProperty("tip", cell_tip(col, name))
        _tip_text(w)


def cell_tip(col: Column, name: str) -> str:
    """An editable cell's tooltip: its name ("Ammo of Laser") and the column's help."""
    return f"{name}: {col.help}" if col.help else name


def cell_tip_now(w: QWidget) -> str:
    """A cell's tooltip: what it is, and for a text field its text first, whole (a long text
    is cut to its column)."""
    said = str(w.property("tip") or "")
    return f"{w.text()}\n{said}" if isinstance(w, QLineEdit) and w.text() else said


def _tip_text(w: QWidget) -> None:
    w.setToolTip(cell_tip_now(w))


def label_cell(w: QWidget | None, shown: tuple[str, str] | None) -> bool:
    """A read-only cell's text and tooltip, as the column's ``text`` said for the row;
    whether its text changed (its column may need to widen)."""
    if not isinstance(w, QLabel) or shown is None:
        return False
    text, tip = shown
    changed = w.text() != text
    if changed:
        w.setText(text)
    w.setToolTip(tip or w.accessibleName())
    return changed


def write_cell(w: QWidget | None, col: Column, value: Any) -> None:
    """Show ``value`` in the cell control ``w`` without it committing anything back."""
    if w is None:
        return
    w.blockSignals(True)
    try:
        if isinstance(w, QSpinBox):
            target = (col.minimum - 1 if col.kind == "optspin" else col.minimum) if value is None else int(value)
            if w.value() != target:
                w.setValue(target)
        elif isinstance(w, QCheckBox):
            w.setChecked(bool(value))
        elif isinstance(w, QLineEdit):
            if w.text() != (value or ""):
                w.setText(value or "")
                if not w.hasFocus():
                    w.setCursorPosition(0)  # a text longer than its cell shows its start, not its end
                _tip_text(w)
        elif isinstance(w, QComboBox):
            w.setCurrentIndex(max(0, w.findData(value)))
    finally:
        w.blockSignals(False)


def whole_width(w: QWidget | None) -> int:
    """The width the cell control ``w`` needs to show its text whole (0: no text)."""
    if isinstance(w, QLabel):
        return w.sizeHint().width() if w.text() else 0
    if isinstance(w, QLineEdit):
        if not w.text():
            return 0
        fm = w.fontMetrics()
        frame = w.sizeHint().width() - fm.horizontalAdvance("x" * 17)  # its margins and frame
        return fm.horizontalAdvance(w.text()) + max(frame, 12) + 4
    if isinstance(w, QComboBox):
        if not w.currentText():
            return 0
        option = QStyleOptionComboBox()
        w.initStyleOption(option)
        text = QSize(w.fontMetrics().horizontalAdvance(w.currentText()), w.fontMetrics().height())
        shown = w.style().sizeFromContents(QStyle.ContentsType.CT_ComboBox, option, text, w).width()
        return max(shown, w.minimumSizeHint().width())
    return 0


def refill(combo: QWidget | None, options: list[tuple[str, Any]]) -> None:
    """Give a choice cell the options it has now (its value is written after)."""
    if not isinstance(combo, QComboBox):
        return
    if [(combo.itemText(i), combo.itemData(i)) for i in range(combo.count())] == options:
        return
    current = combo.currentData()
    combo.blockSignals(True)
    try:
        combo.clear()
        for label, value in options:
            combo.addItem(label, value)
        combo.setCurrentIndex(max(0, combo.findData(current)))  # a choice kept while refused stays shown
    finally:
        combo.blockSignals(False)
