"""The budget, summary and record panels: they show the engine's Report and nothing else
(the findings panel is :mod:`shipyard._qt.panels.findingspanel`)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from PySide6.QtCore import QItemSelectionModel, Qt, Signal
from PySide6.QtGui import QBrush, QFont, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QTreeWidget,
    QTreeWidgetItem,
)

from shipyard._qt.widgets.columns import SharedColumns
from shipyard.core.pools import LineItem, PoolReport
from shipyard.core.report import Report

NBSP = "\u00a0"


def over_brush(palette: QPalette) -> QBrush:
    dark = palette.color(QPalette.ColorRole.Window).lightness() < 128
    return QBrush(Qt.GlobalColor.red if dark else Qt.GlobalColor.darkRed)


def line_text(items: list[LineItem], *, cost: str, gain: str) -> str:
    """Line items, one a line, as a tooltip shows them: a budget's costs are taken away
    (cost="-"), a counted figure's parts count up (cost="+")."""
    return "\n".join(f"{cost if i.kind == 'cost' else gain}{i.exact or i.amount}  {i.label}" for i in items)


def pool_of(path: str, report: Report) -> PoolReport | None:
    """The pool a finding is about: the engine puts a pool's findings (over budget,
    unspent) at ``budgets.<pool id>``, the Storyteller's setting for it."""
    head, _, pool_id = path.rpartition(".")
    return report.pool(pool_id) if head == "budgets" and pool_id else None


def causes(pool: PoolReport, report: Report) -> list[tuple[LineItem, PoolReport]]:
    """What spent ``pool``'s points, the most first: its own costs at a place in the design,
    and for an exchange (another pool over budget, bought with these points) that pool's
    costs, each with the pool it was spent in. An exchange weighs what it
    cost here; among equals the later entry comes first (what was added last tipped it)."""
    found: list[tuple[Fraction, Fraction, int, LineItem, PoolReport]] = []
    for item in pool.items:
        if item.kind != "cost":
            continue
        if item.path:
            found.append((_exact(item), _exact(item), len(found), item, pool))
        elif item.pool:
            other = report.pool(item.pool)
            if other is not None:
                for i in other.items:
                    if i.kind == "cost" and i.path:
                        found.append((_exact(item), _exact(i), len(found), i, other))
    found.sort(key=lambda c: (-c[0], -c[1], -c[2]))
    return [(i, where) for *_k, i, where in found]


def _exact(item: LineItem) -> Fraction:
    return Fraction(item.exact) if item.exact else Fraction(item.amount)


def amount_words(item: LineItem) -> str:
    """A line's amount as it reads: "spends 5", "gains 6"."""
    return f"{'spends' if item.kind == 'cost' else 'gains'} {item.exact or item.amount}"


class BudgetPanel(QTreeWidget):
    """Each pool's budget, spent and what is left; over budget in red *and* in words.

    A pool's row opens to its line items: what spent or gained how much, by which rule
    (the tooltip), exchanges between pools included. Activating a line asks to focus the
    place in the design it is about (``focus_requested``); an exchange's line shows the
    other pool. Only pools with a budget are rows; a report without pools leaves the
    panel empty (the view hides it).
    """

    HEADERS = ("Pool", "Budget", "Spent", "Left")
    focus_requested = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        self.setColumnCount(len(self.HEADERS))
        self.setHeaderLabels(list(self.HEADERS))
        self.header().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.header().setStretchLastSection(False)
        self.header().setMinimumSectionSize(40)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setAccessibleName("Budgets")
        self.setRootIsDecorated(True)
        self.setUniformRowHeights(True)
        self.itemActivated.connect(self._activate)
        self.itemClicked.connect(self._activate)
        self._shown: object = None
        self._shape: object = None  # the pools and how many line items each: the rows there are
        self._bold = QFont(self.font())
        self._bold.setBold(True)

    def rowCount(self) -> int:
        return self.topLevelItemCount()

    def show_report(self, report: Report) -> None:
        """Show the report's pools. The rows are made again only when pools or line items
        come or go; an edit that changes amounts (most edits) rewrites the texts of the
        rows there are, which keeps the panel within a frame of the keystroke."""
        pools = report.pools
        key = [(p.id, p.budget, p.spent, p.gained, p.remaining, p.budget_note, p.items) for p in pools]
        if key == self._shown:
            return
        self._shown = key
        shape = [(p.id, len(p.items)) for p in pools]
        if shape != self._shape:
            self._shape = shape
            expanded = {self._pool_id(i) for i in self._tops() if i.isExpanded()}
            self.clear()
            right = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
            for pool in pools:
                row = QTreeWidgetItem()
                for c in range(1, len(self.HEADERS)):
                    row.setTextAlignment(c, right)
                row.addChildren([QTreeWidgetItem() for _ in pool.items])
                self.addTopLevelItem(row)
                for line in _children(row):  # a line reads across the whole panel
                    line.setFirstColumnSpanned(True)
                row.setExpanded(pool.id in expanded)
        for row, pool in zip(self._tops(), pools, strict=True):
            self._show_pool(row, pool)

    def _show_pool(self, row: QTreeWidgetItem, pool: PoolReport) -> None:
        """Write ``pool`` into its row and the row's lines (one a line item)."""
        budget = f"{pool.budget}" + (f" + {pool.gained}" if pool.gained else "")
        left = f"{pool.remaining} left" if pool.remaining >= 0 else f"OVER by {-pool.remaining}"
        for c, text in enumerate([pool.name + (" *" if pool.budget_note else ""), budget, str(pool.spent), left]):
            row.setText(c, text)
        _set_data(row, 0, ("pool", pool.id))
        tip = line_text(pool.items, cost="-", gain="+") + (f"\n{pool.budget_note}" if pool.budget_note else "")
        # the first line holds the row whole: a narrow panel cuts a long pool name ("Weapon P…")
        tip = f"{row.text(0)}: budget {budget}, spent {pool.spent}, {left}\n{tip}"
        for c in range(len(self.HEADERS)):
            row.setToolTip(c, tip)
        over = pool.remaining < 0
        if (row.data(3, Qt.ItemDataRole.FontRole) is not None) != over:
            row.setData(3, Qt.ItemDataRole.ForegroundRole, over_brush(self.palette()) if over else None)
            row.setData(3, Qt.ItemDataRole.FontRole, self._bold if over else None)
        for line, item in zip(_children(row), pool.items, strict=True):
            line.setText(0, f"{item.label}: {amount_words(item)}")
            go = ("path", item.path) if item.path else ("pool", item.pool) if item.pool else None
            _set_data(line, 0, go)
            where = "click to go there" if go else ""
            line.setToolTip(0, "\n".join(x for x in (line.text(0), item.source, where) if x))

    def cell_text(self, pool_row: int, column: int) -> str:
        item = self.topLevelItem(pool_row)
        return item.text(column) if item else ""

    def lines(self, pool_id: str) -> list[str]:
        """A pool's line items as shown: "label: spends 5" (for tests and screen readers)."""
        row = self._row(pool_id)
        if row is None:
            return []
        return [c.text(0) for c in _children(row)]

    def show_pool(self, pool_id: str, lines: Sequence[tuple[LineItem, PoolReport]] = ()) -> bool:
        """Open ``pool_id``'s row, and select the lines given (the causes of a finding, in
        this pool or in one whose overspend it paid for), the first one current."""
        row = self._row(pool_id)
        if row is None:
            return False
        row.setExpanded(True)
        self.clearSelection()
        chosen: list[QTreeWidgetItem] = []
        for line, pool in lines:
            home = self._row(pool.id)
            if home is None:
                continue
            home.setExpanded(True)
            shown = f"{line.label}: {amount_words(line)}"
            chosen += [c for c in _children(home) if c.text(0) == shown and _path(c) == line.path][:1]
        for c in chosen:
            c.setSelected(True)
        self.setCurrentItem(chosen[0] if chosen else row, 0, QItemSelectionModel.SelectionFlag.NoUpdate)
        self.scrollToItem(chosen[0] if chosen else row)
        return True

    def _activate(self, item: QTreeWidgetItem) -> None:
        data = item.data(0, Qt.ItemDataRole.UserRole)
        if not data or item.parent() is None:
            return
        what, where = data
        if what == "path":
            self.focus_requested.emit(where)
        else:
            self.show_pool(where)

    def _tops(self) -> list[QTreeWidgetItem]:
        found = (self.topLevelItem(i) for i in range(self.topLevelItemCount()))
        return [item for item in found if item is not None]

    @staticmethod
    def _pool_id(item: QTreeWidgetItem) -> str:
        data = item.data(0, Qt.ItemDataRole.UserRole)
        return str(data[1]) if data else ""

    def _row(self, pool_id: str) -> QTreeWidgetItem | None:
        return next((i for i in self._tops() if self._pool_id(i) == pool_id), None)


def _set_data(item: QTreeWidgetItem, column: int, value: object) -> None:
    """Set an item's own data (a place to go to) only when it changes: a Python value is
    never equal to the one stored before in Qt's eyes, and each change redraws the row."""
    if item.data(column, Qt.ItemDataRole.UserRole) != value:
        item.setData(column, Qt.ItemDataRole.UserRole, value)


def _children(row: QTreeWidgetItem) -> list[QTreeWidgetItem]:
    return [c for i in range(row.childCount()) if (c := row.child(i)) is not None]


def _path(item: QTreeWidgetItem) -> str:
    data = item.data(0, Qt.ItemDataRole.UserRole)
    return str(data[1]) if data and data[0] == "path" else ""


class SummaryPanel(SharedColumns):
    """Live figures the form names (``summary``) and the figures the design counts up,
    each with the line items it is made of as rows to expand and as its tooltip. Names
    and values share the panel's width and wrap (:class:`SharedColumns`): a long value
    does not cut a name short."""

    def __init__(self) -> None:
        super().__init__()
        self.setHeaderLabels(["Figure", "Value"])
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
                value = fig.with_unit()
                out.append((fig.label, value, list(fig.parts), fig.detail))
        for fig in report.derived.figures:  # what the design counts up, when the form does not name it
            if fig.parts and fig.id not in ids:
                value = fig.with_unit()
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
        self.share_width()

    def values(self) -> list[list[str]]:
        """What the panel shows, row by row (label, value), for tests and screen readers."""
        return [[item.text(0), item.text(1)] for item in self._items()]

    def _items(self) -> list[QTreeWidgetItem]:
        found = (self.topLevelItem(i) for i in range(self.topLevelItemCount()))
        return [item for item in found if item is not None]


class RecordPanel(SharedColumns):
    """The report's tracks (rows of boxes), slots and actions, read-only.

    A track shows its boxes as ☐ (clear) and ☒ (marked) with their labels, on as many
    lines as the panel's width needs (:class:`SharedColumns`); a slot its value and text,
    or why it is not available; an action whether it is allowed and why not.
    """

    NAME_SHARE = 0.34  # the boxes are what the panel is for: two thirds of the width

    def __init__(self) -> None:
        super().__init__()
        self.setHeaderHidden(True)
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
                words = [b.label or ("" if b.value is None else str(b.value)) for b in t.boxes]
                boxes = " ".join(  # a box and its label wrap to the next line together
                    ("☒" if b.marked else "☐") + w.replace(" ", NBSP) for b, w in zip(t.boxes, words, strict=True)
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
        self.expand_all()
