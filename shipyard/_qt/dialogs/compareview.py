"""Compare a design with another, side by side, following edits live (issue 15).

The comparison is the engine's (:func:`shipyard.core.compare.compare`): every figure, pool,
item, recorded state (ticked boxes, write-ins, a damaged item) and finding of both designs,
each difference signed. This view only shows it: a row
that differs is marked in text (a leading ``*`` and the signed difference, "added",
"removed") *and* in colour. The other design is another open document (both follow
their edits), a design read from a file, or the saved version of this design ("what did
I change since I saved?").
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from shipyard._qt.document.document import Document
from shipyard._qt.widgets.closing import closable
from shipyard.core.compare import SECTION_HEADINGS, Comparison, Row, compare, pair_lines
from shipyard.core.designfile import LoadedDesign
from shipyard.core.designreport import design_report
from shipyard.core.errors import InputError


def _shown(row: Row, i: int) -> str:
    text, delta = row.shown(i), row.deltas[i]
    if not delta:
        return text
    return f"{text} [{delta}]" if delta in ("added", "removed") else f"{text} ({delta})"


class CompareView(QWidget):
    """This design (``doc``) beside another: an open document, or a design read once."""

    def __init__(
        self, doc: Document, other: Document | LoadedDesign, other_name: str, *, other_first: bool = False
    ) -> None:
        """``other_first``: the other design is the reference the differences are signed
        against (the saved version: what changed since)."""
        super().__init__()
        self.doc, self.other, self.other_name, self.other_first = doc, other, other_name, other_first
        self.heading = QLabel(f"Compare {doc.name} with {other_name}")  # whole, where the title may be cut
        self.heading.setWordWrap(True)
        self.heading.setAccessibleName("Compared designs")
        bold = self.heading.font()
        bold.setBold(True)
        self.heading.setFont(bold)
        self.setWindowTitle(f"Compare {doc.name} with {other_name} — Shipyard")
        self.summary = QLabel()
        self.summary.setAccessibleName("Comparison summary")
        self.summary.setWordWrap(True)
        self.only_differences = QCheckBox("&Only the differences")
        self.only_differences.toggled.connect(lambda _on: self.refresh())
        self.table = QTableWidget(0, 4)
        self.table.setAccessibleName("Comparison")
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        self.table.setTabKeyNavigation(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)  # a design's column: the user may widen it
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        header.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # a long design name, whole in its tooltip
        lay = QVBoxLayout(self)
        lay.addWidget(self.heading)
        lay.addWidget(self.summary)
        lay.addWidget(self.only_differences)
        lay.addWidget(self.table, 1)
        # the numbers between the two ships (a ruleset's pair figures): how each comes about, its source
        self.between = QLabel()
        self.between.setWordWrap(True)
        self.between.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.between.setAccessibleName("Between the ships")
        lay.addWidget(self.between)
        self.close_button = closable(self, lay)
        self.comparison: Comparison | None = None
        self._read_report: Any = None
        doc.changed.connect(self.refresh)
        if isinstance(other, Document):
            other.changed.connect(self.refresh)
        self.resize(self._width_for_title(doc.name, other_name), 640)
        self.refresh()

    def _width_for_title(self, mine: str, theirs: str) -> int:
        """Wide enough for the window manager to show the title whole (it cuts a long one,
        with no tooltip), within the screen; where the screen is too narrow, the title names
        the designs shortened in the middle to fit, and the heading above the table names
        them whole."""
        from PySide6.QtGui import QFontMetrics, QGuiApplication

        title_font = QGuiApplication.font()
        title_font.setBold(True)  # title bars mostly draw bold
        metrics = QFontMetrics(title_font)
        chrome = 240  # the title bar's buttons and icon
        need = metrics.horizontalAdvance(self.windowTitle()) + chrome
        screen = self.screen() or QGuiApplication.primaryScreen()
        room = screen.availableGeometry().width() - 40 if screen is not None else need
        width = max(900, min(need, room))
        if need > width:
            frame = metrics.horizontalAdvance("Compare  with  — Shipyard")
            each = max(60, (width - chrome - frame) // 2)
            short = [metrics.elidedText(n, Qt.TextElideMode.ElideMiddle, each) for n in (mine, theirs)]
            self.setWindowTitle(f"Compare {short[0]} with {short[1]} — Shipyard")
        return width

    def _other(self) -> tuple[str, Any, Any, Any]:
        if isinstance(self.other, Document):  # an open design: as it is now, its name too
            return self.other.name, self.other.design, self.other.catalog, self.other.report
        if self._read_report is None:  # a design read once: evaluated once
            self._read_report = design_report(self.other.design, self.other.catalog, self.other.file)
        return self.other_name, self.other.design, self.other.catalog, self._read_report

    def refresh(self) -> None:
        theirs = self._other()
        mine = (self.doc.name, self.doc.design, self.doc.catalog, self.doc.report)
        try:
            cmp = compare([theirs, mine] if self.other_first else [mine, theirs])
        except InputError as exc:
            self.comparison = None
            self.summary.setText(str(exc))
            self.table.setRowCount(0)
            self.between.setVisible(False)
            return
        self.comparison = cmp
        n = len(cmp.differences)
        self.summary.setText(
            f"{cmp.ruleset_name}: no differences" if n == 0 else f"{cmp.ruleset_name}: {n} difference{'s' * (n != 1)}"
        )
        pairs = pair_lines(cmp, "• ")
        self.between.setText("Between the ships:\n" + "\n".join(pairs) if pairs else "")
        self.between.setVisible(bool(pairs))
        shown = cmp.differences if self.only_differences.isChecked() else cmp.rows
        rows: list[Row | str] = []  # each section under its heading ("Budgets"), as the printed sheet has them
        for shown_row in shown:
            if not rows or (isinstance(rows[-1], Row) and rows[-1].section != shown_row.section):
                rows.append(SECTION_HEADINGS.get(shown_row.section, shown_row.section))
            rows.append(shown_row)
        self.table.clearSpans()
        for c, name in enumerate(["", "What", *cmp.names][:4]):
            head = QTableWidgetItem(name)
            head.setToolTip(name)  # a long design name is cut to its column: whole here
            self.table.setHorizontalHeaderItem(c, head)
        self.table.setRowCount(len(rows))
        dark = self.palette().color(QPalette.ColorRole.Window).lightness() < 128
        marked = QBrush(QColor("#5c4a00" if dark else "#fff3c4"))
        for r, row in enumerate(rows):
            if isinstance(row, str):
                self._heading(r, row)
                continue
            cells = [
                "*" if row.differs else "",
                row.label + (f" — {row.source}" if row.source else ""),
                *(_shown(row, i) for i in range(len(row.values))),
            ]
            cells += [""] * (4 - len(cells))
            for c, text in enumerate(cells[:4]):
                item = QTableWidgetItem(text)
                value = row.values[c - 2] if 2 <= c < 2 + len(row.values) else None
                if c == 0 or (c > 1 and not isinstance(value, str)):  # numbers line up at the right; words read left
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if row.differs:
                    item.setBackground(marked)
                note = row.notes[c - 2] if 2 <= c < 2 + len(row.notes) else ""
                item.setToolTip(text + ("\n(differs)" if row.differs and c > 1 else "") + (f"\n{note}" if note else ""))
                self.table.setItem(r, c, item)
        self._fit_values()

    def _heading(self, r: int, text: str) -> None:
        """A section's heading row: its name in bold across the row, not selectable."""
        for c in range(self.table.columnCount()):
            self.table.setItem(r, c, QTableWidgetItem(""))
        item = QTableWidgetItem(text)
        font = item.font()
        font.setBold(True)
        item.setFont(font)
        item.setFlags(Qt.ItemFlag.ItemIsEnabled)
        item.setToolTip(text)
        self.table.setItem(r, 1, item)
        self.table.setSpan(r, 1, 1, self.table.columnCount() - 1)

    def headings(self) -> list[str]:
        """The section headings the table shows, in order."""
        return [
            text
            for r in range(self.table.rowCount())
            if self.table.columnSpan(r, 1) > 1 and (item := self.table.item(r, 1)) is not None and (text := item.text())
        ]

    def _fit_values(self) -> None:
        """Each design's column as wide as its values, but no wider than a third of the
        view: a long text value (an attribute priority) is elided, whole in its tooltip."""
        most = max(160, self.width() // 3)
        for c in range(2, self.table.columnCount()):
            self.table.resizeColumnToContents(c)
            if self.table.columnWidth(c) > most:
                self.table.setColumnWidth(c, most)

    def rows(self) -> list[list[str]]:
        """What the table shows, row by row (for tests and screen readers)."""
        return [
            [(item.text() if (item := self.table.item(r, c)) else "") for c in range(self.table.columnCount())]
            for r in range(self.table.rowCount())
        ]
