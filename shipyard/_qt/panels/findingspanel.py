"""The findings panel: the engine's findings about the design, each focusing the place it
is about when chosen, with a Fix... beside those a proposal of the engine cures."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QRect, QSize, Qt, Signal
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import (
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from shipyard._qt.panels.reportpanels import causes, over_brush, pool_of
from shipyard._qt.widgets.columns import Index
from shipyard.core.findings import Finding
from shipyard.core.numberwords import quantity
from shipyard.core.places import SEVERITY_WORD
from shipyard.core.report import Report

FIX_ROLE = Qt.ItemDataRole.UserRole + 1  # a finding row with a Fix... button: how many proposals cure it


class _FixRoom(QStyledItemDelegate):
    """A finding row with a Fix... button leaves the button room at its right: the text
    wraps before it, never under it."""

    def __init__(self, panel: FindingsPanel) -> None:
        super().__init__(panel)
        self.panel = panel

    def _width(self, index: Index) -> int:
        """The width a row's text wraps in: the list's, less a Fix... button's room."""
        return self.panel.viewport().width() - (self.panel.fix_room() if index.data(FIX_ROLE) else 0)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        opt = QStyleOptionViewItem(option)
        opt.rect = QRect(opt.rect.x(), opt.rect.y(), self._width(index), opt.rect.height())
        super().paint(painter, opt, index)

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        """Measured at the row's width (the view passes whatever rect it had), as if the
        scroll bar were shown: the rows that make it appear must not come out a line short."""
        opt = QStyleOptionViewItem(option)
        width = self._width(index)
        if not self.panel.verticalScrollBar().isVisible():
            width -= self.panel.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, self.panel)
        opt.rect = QRect(0, 0, max(width, 40), max(opt.rect.height(), 1))
        return super().sizeHint(opt, index)


class _FixCell(QWidget):
    """The Fix... button at the right of a finding's row; a click elsewhere in the row
    goes on to the list (it selects the finding and focuses its field)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.button = QPushButton("Fix…")
        self.button.setAccessibleName(f"Fix: {text}")
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 2, 4, 2)
        lay.addStretch(1)
        lay.addWidget(self.button, 0, Qt.AlignmentFlag.AlignTop)


class FindingsPanel(QListWidget):
    """Every finding, severity in words first, the place named as the user sees it
    ("Weapons, Light Laser: fire-link group"), a pool's finding with what spent its points;
    activating one asks to focus its field (``focus_requested``). A finding some proposal
    of the engine cures has a Fix... button at its right (:meth:`show_fixes`); pressing it
    asks for those proposals (``fix_requested`` with the finding)."""

    focus_requested = Signal(str)
    fix_requested = Signal(object)  # the Finding

    def __init__(self) -> None:
        super().__init__()
        self.setAccessibleName("Findings")
        self.setWordWrap(True)
        self.setItemDelegate(_FixRoom(self))
        self.itemActivated.connect(self._activate)
        self.itemClicked.connect(self._activate)
        self._shown: list[tuple[str, str, str, str]] | None = None  # nothing shown yet, not even "no findings"
        self.findings: list[Finding] = []  # the findings shown, row by row
        self._fix_room: int | None = None

    def show_report(self, report: Report, place: Callable[[str], str] = str) -> None:
        texts = [self.text(f, report, place) for f in report.findings]
        shown = [(f.severity.value, f.code, f.path, t) for f, t in zip(report.findings, texts, strict=True)]
        if shown == self._shown:
            return
        self._shown = shown
        self.clear()
        self.findings = list(report.findings)
        if not report.findings:
            item = QListWidgetItem("No findings: the design follows every rule.")
            item.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.addItem(item)
            return
        for f, text in zip(report.findings, texts, strict=True):
            item = QListWidgetItem(text)
            item.setData(Qt.ItemDataRole.UserRole, f.path)
            item.setToolTip(f"{f.code}\n{f.source}")
            if f.severity.value == "error":
                item.setForeground(over_brush(self.palette()))
            self.addItem(item)

    @staticmethod
    def text(f: Finding, report: Report, place: Callable[[str], str] = str) -> str:
        """A finding as the panel shows it."""
        head = f"{SEVERITY_WORD[f.severity.value]}: {f.message}"
        pool = pool_of(f.path, report) if f.path else None
        if pool is not None:
            spent = causes(pool, report)[:3] if pool.remaining < 0 else []
            if not spent:
                return head
            named = ", ".join(f"{i.label} ({quantity(i.exact or i.amount, where.name)})" for i, where in spent)
            return f"{head} — the most spent on: {named}"
        where = place(f.path) if f.path else ""
        return f"{head} — at {where}" if where else head

    def texts(self) -> list[str]:
        return [self.item(i).text() for i in range(self.count())]

    def fix_room(self) -> int:
        """The width a row's Fix... button takes, with its margins (measured once)."""
        if self._fix_room is None:
            self._fix_room = QPushButton("Fix…").sizeHint().width() + 8
        return self._fix_room

    def show_fixes(self, cures: Callable[[Finding], int]) -> None:
        """A Fix... button beside each finding ``cures`` says some proposals cure (how
        many), none beside the others."""
        for row, finding in enumerate(self.findings):
            item = self.item(row)
            if item is None:
                continue
            n = cures(finding)
            cell = self.itemWidget(item)
            if n and cell is None:
                cell = _FixCell(item.text())
                cell.button.clicked.connect(lambda _c=False, f=finding: self.fix_requested.emit(f))
                self.setItemWidget(item, cell)
            elif not n and cell is not None:
                self.removeItemWidget(item)
            if item.data(FIX_ROLE) != (n or None):
                item.setData(FIX_ROLE, n or None)
            if n and isinstance(cell, _FixCell):
                cell.button.setToolTip(f"{n} change{'s' * (n != 1)} the engine proposes that cure this finding")
        previous: QWidget = self  # Tab: the list, then its rows' buttons, then what followed the list
        for button in self.fix_buttons().values():
            QWidget.setTabOrder(previous, button)
            previous = button

    def fix_buttons(self) -> dict[int, QPushButton]:
        """The Fix... buttons shown, by row."""
        out = {}
        for row in range(self.count()):
            cell = self.itemWidget(self.item(row))
            if isinstance(cell, _FixCell):
                out[row] = cell.button
        return out

    def _activate(self, item: QListWidgetItem) -> None:
        path = item.data(Qt.ItemDataRole.UserRole)
        if path:
            self.focus_requested.emit(path)
