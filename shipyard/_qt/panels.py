"""Budget and findings panels: they show the engine's Report and nothing else."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QFont, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QListWidget,
    QListWidgetItem,
    QTableWidget,
    QTableWidgetItem,
)

from shipyard.core.pools import LineItem
from shipyard.core.report import Report

SEVERITY_WORD = {"error": "ERROR", "warning": "WARNING", "advice": "ADVICE"}


def _over_brush(palette: QPalette) -> QBrush:
    dark = palette.color(QPalette.ColorRole.Window).lightness() < 128
    return QBrush(Qt.GlobalColor.red if dark else Qt.GlobalColor.darkRed)


def line_text(items: list[LineItem], *, cost: str, gain: str) -> str:
    """Line items, one a line, as a tooltip shows them: a budget's costs are taken away
    (cost="-"), a counted figure's parts count up (cost="+")."""
    return "\n".join(f"{cost if i.kind == 'cost' else gain}{i.exact or i.amount}  {i.label}" for i in items)


class BudgetPanel(QTableWidget):
    """Each pool's budget, spent and what is left; over budget in red *and* in words.

    A report without pools (a ruleset with nothing to spend) shows no rows.
    """

    HEADERS = ("Pool", "Budget", "Spent", "Left")

    def __init__(self) -> None:
        super().__init__(0, len(self.HEADERS))
        self.setHorizontalHeaderLabels(list(self.HEADERS))
        self.verticalHeader().setVisible(False)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.horizontalHeader().setMinimumSectionSize(40)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setAccessibleName("Budgets")
        self.setFocusPolicy(Qt.FocusPolicy.TabFocus)

    def title(self) -> str:
        return "Budgets"

    def show_report(self, report: Report) -> None:
        if self.rowCount() != len(report.pools):
            self.setRowCount(len(report.pools))
        bold = QFont(self.font())
        bold.setBold(True)
        for r, pool in enumerate(report.pools):
            budget = f"{pool.budget}" + (f" + {pool.gained}" if pool.gained else "")
            left = f"{pool.remaining} left" if pool.remaining >= 0 else f"OVER by {-pool.remaining}"
            cells = [pool.name + (" *" if pool.budget_note else ""), budget, str(pool.spent), left]
            tip = line_text(pool.items, cost="-", gain="+")
            for c, text in enumerate(cells):
                item = self.item(r, c)
                if item is None:
                    item = QTableWidgetItem()
                    self.setItem(r, c, item)
                if item.text() != text:
                    item.setText(text)
                item.setToolTip(tip + (f"\n{pool.budget_note}" if pool.budget_note else ""))
                if c:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                over = pool.remaining < 0 and c == 3
                item.setForeground(
                    _over_brush(self.palette()) if over else self.palette().brush(QPalette.ColorRole.Text)
                )
                item.setFont(bold if over else self.font())

    def cell_text(self, pool_row: int, column: int) -> str:
        item = self.item(pool_row, column)
        return item.text() if item else ""


class FindingsPanel(QListWidget):
    """Every finding, severity in words first; activating one asks to focus its field."""

    focus_requested = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        self.setAccessibleName("Findings")
        self.setWordWrap(True)
        self.itemActivated.connect(self._activate)
        self.itemClicked.connect(self._activate)
        self._shown: list[tuple[str, str, str]] | None = None  # nothing shown yet, not even "no findings"

    def show_report(self, report: Report) -> None:
        shown = [(f.severity.value, f.code, f.message + f.path) for f in report.findings]
        if shown == self._shown:
            return
        self._shown = shown
        self.clear()
        if not report.findings:
            item = QListWidgetItem("No findings: the design follows every rule.")
            item.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.addItem(item)
            return
        for f in report.findings:
            where = f" — at {f.path}" if f.path else ""
            item = QListWidgetItem(f"{SEVERITY_WORD[f.severity.value]}: {f.message}{where}")
            item.setData(Qt.ItemDataRole.UserRole, f.path)
            item.setToolTip(f"{f.code}\n{f.source}")
            if f.severity.value == "error":
                item.setForeground(_over_brush(self.palette()))
            self.addItem(item)

    def _activate(self, item: QListWidgetItem) -> None:
        path = item.data(Qt.ItemDataRole.UserRole)
        if path:
            self.focus_requested.emit(path)
