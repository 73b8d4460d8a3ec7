"""Ctrl+N asks which ruleset and kind a new design is: a short list, the kind made last chosen.

Ctrl+N made the first kind of the first ruleset installed without a word, a design of a
game the person might not play. The list names every ruleset's kinds as File > New does;
Up and Down move, Enter makes the chosen one, Escape makes nothing. The kind made last
(from the list, File > New or the start page) is the one chosen when it opens, so Ctrl+N,
Enter makes another of the same.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from shipyard.core.placewords import plain
from shipyard.core.registry import rulesets


class NewChooser(QDialog):
    """The ruleset and kind of a new design, one row each; :meth:`chosen` after it is accepted."""

    def __init__(self, parent: QWidget | None = None, last: str = "") -> None:
        """``last``: "<ruleset id> <kind id>" of the design made last, the row chosen first."""
        super().__init__(parent)
        self.setWindowTitle("New design")
        lay = QVBoxLayout(self)
        label = QLabel("Which game and kind of design? (Up and Down choose, Enter makes it, Escape cancels)")
        label.setWordWrap(True)
        lay.addWidget(label)
        self.list = QListWidget()
        self.list.setAccessibleName("Ruleset and kind of the new design")
        label.setBuddy(self.list)
        for info in rulesets():
            for kind in info.kinds:
                shown = plain(kind.menu or kind.name)
                text = shown if info.name.lower() in shown.lower() else f"{info.name}: {shown}"
                row = QListWidgetItem(text)
                row.setData(Qt.ItemDataRole.UserRole, f"{info.id} {kind.id}")
                row.setToolTip(f"A new {info.name} {kind.name.lower()}: {kind.description}".rstrip(": "))
                self.list.addItem(row)
        rows = [self.list.item(i) for i in range(self.list.count())]
        current = next((r for r in rows if r.data(Qt.ItemDataRole.UserRole) == last), rows[0] if rows else None)
        if current is not None:
            self.list.setCurrentItem(current)
        self.list.itemActivated.connect(lambda _row: self.accept())
        lay.addWidget(self.list)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText("Make it")
        ok.setDefault(True)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.list.setFocus()
        width = self.list.sizeHintForColumn(0) + 4 * self.list.frameWidth() + 40
        self.list.setMinimumWidth(min(max(width, 320), 700))
        self.list.setMinimumHeight(min(self.list.count(), 12) * max(self.list.sizeHintForRow(0), 18) + 8)

    def chosen(self) -> tuple[str, str] | None:
        """(ruleset id, kind id) of the row chosen."""
        row = self.list.currentItem()
        if row is None:
            return None
        ruleset, _, kind = str(row.data(Qt.ItemDataRole.UserRole)).partition(" ")
        return ruleset, kind


__all__ = ["NewChooser"]
