"""View > Hangar: every design of the hangar's library folders, filtered as ``shipyard find`` does.

A filter box takes the same words and filters as ``shipyard find`` (``ruleset:ID``,
``kind:X``, ``tag:X``, ``FIGURE>=N``, ``fails``, ``passes``, ``changed:7d``); a query that
cannot be read is said under the box, and the list keeps what it showed. The columns sort
(cost and key figure as numbers); Enter or a double click opens the design in the editor.
The index is brought up to date when the window opens and by its Rescan button.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from shipyard.core.errors import InputError

COLUMNS = ("Name", "Rule system", "Kind", "Key figure", "Cost", "Verdict", "Tags", "Modified", "File")
FILTER_DELAY_MS = 150  # typing pauses this long before the list follows the box


class NumberItem(QTableWidgetItem):
    """A cell that sorts by its number, not its text (10 after 9)."""

    def __init__(self, text: str, number: float | None) -> None:
        super().__init__(text)
        self.number = number

    def __lt__(self, other: QTableWidgetItem) -> bool:
        if isinstance(other, NumberItem):
            return (self.number if self.number is not None else float("-inf")) < (
                other.number if other.number is not None else float("-inf")
            )
        return super().__lt__(other)


class DesignTable(QTableWidget):
    """The designs found; Enter opens the current row's design."""

    def __init__(self, opened: Callable[[], None], parent: QWidget | None = None) -> None:
        super().__init__(0, len(COLUMNS), parent)
        self.opened = opened

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.currentRow() >= 0:
            self.opened()
            return
        super().keyPressEvent(event)


class HangarWindow(QWidget):
    def __init__(self, open_file: Callable[[Path], Any], parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle("Hangar")
        self.resize(980, 560)
        self.open_file = open_file
        self.filter = QLineEdit(self)
        self.filter.setPlaceholderText("Find: words, ruleset:ID, kind:X, tag:X, structure>=10, fails, changed:7d")
        self.filter.setClearButtonEnabled(True)
        self.problem = QLabel(self)
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #a4161a")
        self.count = QLabel(self)
        rescan = QPushButton("&Rescan", self)
        rescan.clicked.connect(self.refresh)
        self.table = DesignTable(self.open_current, self)
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setSortingEnabled(True)
        self.table.verticalHeader().hide()
        self.table.setWordWrap(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.doubleClicked.connect(lambda _index: self.open_current())
        top = QHBoxLayout()
        top.addWidget(self.filter, 1)
        top.addWidget(rescan)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.problem)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.count)
        self.problem.hide()
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(FILTER_DELAY_MS)
        self.timer.timeout.connect(self.apply)
        self.filter.textChanged.connect(lambda _text: self.timer.start())
        self.filter.returnPressed.connect(self._to_list)
        self.notes: list[str] = []

    def refresh(self) -> None:
        """Rescan the library folders, then show what the filter finds."""
        from shipyard.hangar import library
        from shipyard.hangar.index import Index

        try:
            with Index() as index:
                self.notes = list(index.notes)
                index.scan(library.folders())
        except InputError as exc:
            self._say(str(exc))
            return
        self.apply()

    def apply(self) -> None:
        from shipyard.hangar.index import Index
        from shipyard.hangar.query import search

        try:
            tokens = shlex.split(self.filter.text())
        except ValueError as exc:
            self._say(f"the filter cannot be read: {exc}")
            return
        try:
            with Index() as index:
                rows = search(index, tokens)
        except InputError as exc:
            self._say(str(exc))
            return
        self.problem.hide()
        self.show_rows(rows)

    def _say(self, text: str) -> None:
        self.problem.setText(text)
        self.problem.show()

    def show_rows(self, rows: list[dict[str, Any]]) -> None:
        from shipyard.hangar.facts import shown_number

        table = self.table
        sort_column = table.horizontalHeader().sortIndicatorSection()
        order = table.horizontalHeader().sortIndicatorOrder()
        table.setSortingEnabled(False)
        table.setRowCount(len(rows))
        for r, row in enumerate(rows):
            key = next(iter(row["key_figures"].items()), None)
            cost = row["cost"]
            verdict = "passes" if row["valid"] else f"fails ({row['errors']})"
            cells = [
                QTableWidgetItem(row["name"]),
                QTableWidgetItem(row["ruleset_name"] or ""),
                QTableWidgetItem(row["kind"] or ""),
                NumberItem(f"{key[0]} {shown_number(key[1])}" if key else "", key[1] if key else None),
                NumberItem(shown_number(cost) if cost is not None else "", cost),
                QTableWidgetItem(verdict),
                QTableWidgetItem(", ".join(row["tags"])),
                QTableWidgetItem(row["modified"].replace("T", " ")),
                QTableWidgetItem(row["file"]),
            ]
            for c, item in enumerate(cells):
                item.setData(Qt.ItemDataRole.UserRole, row["file"])
                table.setItem(r, c, item)
        table.setSortingEnabled(True)
        table.sortItems(sort_column, order)
        table.resizeColumnsToContents()
        self.count.setText(f"{len(rows)} design{'s' * (len(rows) != 1)}" + "".join(f" · {n}" for n in self.notes))
        if rows and table.currentRow() < 0:
            table.setCurrentCell(0, 0)

    def _to_list(self) -> None:
        """Enter in the filter box: the list follows at once and takes the focus."""
        self.timer.stop()
        self.apply()
        self.table.setFocus()

    def current_file(self) -> Path | None:
        item = self.table.item(self.table.currentRow(), 0)
        return Path(item.data(Qt.ItemDataRole.UserRole)) if item is not None else None

    def open_current(self) -> None:
        file = self.current_file()
        if file is not None:
            self.open_file(file)
