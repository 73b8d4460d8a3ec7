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
    QTreeWidget,
    QTreeWidgetItem,
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

    Only pools with a budget are rows; a figure that only counts what a design uses is
    shown by :class:`SummaryPanel`. A report without pools leaves the panel empty (the
    view hides it).
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

    def show_report(self, report: Report) -> None:
        pools = report.pools
        if self.rowCount() != len(pools):
            self.setRowCount(len(pools))
        bold = QFont(self.font())
        bold.setBold(True)
        for r, pool in enumerate(pools):
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


class SummaryPanel(QTreeWidget):
    """Live figures the form names (``summary``) and the figures the design counts up,
    each with the line items it is made of as rows to expand and as its tooltip."""

    def __init__(self) -> None:
        super().__init__()
        self.setColumnCount(2)
        self.setHeaderLabels(["Figure", "Value"])
        self.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.header().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.header().setStretchLastSection(False)
        self.setAccessibleName("Summary")
        self.setRootIsDecorated(True)
        self._shown: list[tuple[str, str, str]] | None = None

    @staticmethod
    def rows(report: Report, ids: list[str]) -> list[tuple[str, str, list[LineItem], str]]:
        """(label, value, parts, detail) of each summary figure and each counted figure of the report."""
        out: list[tuple[str, str, list[LineItem], str]] = []
        for fig_id in ids:
            fig = report.derived.figure(fig_id)
            if fig is not None:
                value = fig.shown() + (f" {fig.unit}" if fig.unit and fig.kind != "percent" else "")
                out.append((fig.label, value, list(fig.parts), fig.detail))
        for fig in report.derived.figures:  # what the design counts up, when the form does not name it
            if fig.parts and fig.id not in ids:
                value = fig.shown() + (f" {fig.unit}" if fig.unit else "")
                out.append((fig.label, value, list(fig.parts), fig.detail))
        return out

    def show_report(self, report: Report, ids: list[str]) -> None:
        rows = self.rows(report, ids)
        shown = [(label, value, repr(parts)) for label, value, parts, _d in rows]
        if shown == self._shown:
            return
        self._shown = shown
        expanded = {item.text(0) for item in self._items() if item.isExpanded()}
        self.clear()
        for label, value, parts, detail in rows:
            item = QTreeWidgetItem([label, value])
            item.setTextAlignment(1, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            tip = line_text(parts, cost="+", gain="-")
            item.setToolTip(0, "\n".join(x for x in (f"{label}: {value}", tip, detail) if x))
            item.setToolTip(1, item.toolTip(0))
            for part in parts:
                sign = "+" if part.kind == "cost" else "-"
                child = QTreeWidgetItem([part.label, f"{sign}{part.exact or part.amount}"])
                child.setTextAlignment(1, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                item.addChild(child)
            self.addTopLevelItem(item)
            item.setExpanded(label in expanded)

    def values(self) -> list[list[str]]:
        """What the panel shows, row by row (label, value), for tests and screen readers."""
        return [[item.text(0), item.text(1)] for item in self._items()]

    def _items(self) -> list[QTreeWidgetItem]:
        found = (self.topLevelItem(i) for i in range(self.topLevelItemCount()))
        return [item for item in found if item is not None]


class RecordPanel(QTreeWidget):
    """The report's tracks (rows of boxes), slots and actions, read-only.

    A track shows its boxes as ☐ (clear) and ☒ (marked) with their labels; a slot its
    value and text, or why it is not available; an action whether it is allowed and why not.
    """

    def __init__(self) -> None:
        super().__init__()
        self.setColumnCount(2)
        self.setHeaderHidden(True)
        self.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.setAccessibleName("Tracks, slots and actions")
        self._shown: object = None

    @staticmethod
    def has_parts(report: Report) -> bool:
        d = report.derived
        return bool(d.tracks or d.slots or d.actions)

    def show_report(self, report: Report) -> None:
        d = report.derived
        key = (d.tracks, d.slots, d.actions)
        if key == self._shown:
            return
        self._shown = key
        self.clear()
        if d.tracks:
            group = QTreeWidgetItem(["Tracks", ""])
            for t in d.tracks:
                boxes = " ".join(
                    ("☒" if b.marked else "☐") + (b.label or ("" if b.value is None else str(b.value))) for b in t.boxes
                )
                row = QTreeWidgetItem([t.name, boxes])
                row.setToolTip(1, "\n".join(x for x in (t.notes, t.source) if x))
                group.addChild(row)
            self.addTopLevelItem(group)
        if d.slots:
            group = QTreeWidgetItem(["Slots", ""])
            for s in d.slots:
                value = "" if s.value is None else f" ({s.value})"
                text = s.text or ("—" if s.available else f"not available: {s.reason}")
                row = QTreeWidgetItem([s.name + value, text])
                if not s.available:
                    row.setForeground(1, self.palette().brush(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text))
                group.addChild(row)
            self.addTopLevelItem(group)
        if d.actions:
            group = QTreeWidgetItem(["Actions", ""])
            for a in d.actions:
                text = "allowed" if a.allowed else "not allowed" + (f": {a.reason}" if a.reason else "")
                row = QTreeWidgetItem([a.name, text])
                row.setToolTip(0, ", ".join(f"{k}: {v}" for k, v in a.details.items()))
                group.addChild(row)
            self.addTopLevelItem(group)
        self.expandAll()


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
