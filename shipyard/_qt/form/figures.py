"""The declared form's read-only parts of the report: figures and tables (see
:mod:`shipyard._qt.form.pages`).

A figure is a row of a section's form: the figure's label (or the form's), its value and
unit, and how it came about as its tooltip (its detail, the parts a counted figure is
made of, its source). A figure id ending in ``*`` is a group of rows, one for each
figure of the report whose id starts with the rest. A table is one of the report's
tables, read-only, as tall as its rows (up to the form's ``rows``), or a line saying it
is empty.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFormLayout,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from shipyard._qt.form.base import Pages, Scope, plain
from shipyard._qt.panels.reportpanels import line_text
from shipyard.core.form import FigureRef, TableRef
from shipyard.core.formview import FormContext, figures_for
from shipyard.core.report import Figure


def figure_text(fig: Figure) -> str:
    """A figure's value as the pages show it: "35 points", "Great (+4)", "75%"."""
    return fig.with_unit()


def figure_tip(fig: Figure) -> str:
    """How a figure came about: its detail, what a counted figure counted, its source."""
    parts = line_text(list(fig.parts), cost="+", gain="-")
    return "\n".join(x for x in (fig.detail, parts, fig.source) if x)


class FigureValue(QLabel):
    """A figure's value: one line as wide as its text, wrapped beyond ``WIDEST`` and as tall
    as its lines. A plain word-wrapped QLabel asks a form row for a narrow width and gets
    one line's height, so a long value ("Captain Rafe Okonkwo", a link group) was cut off."""

    WIDEST = 640

    def sizeHint(self) -> QSize:
        metrics = self.fontMetrics()
        margins = self.contentsMargins()
        width = min(metrics.horizontalAdvance(self.text()) + margins.left() + margins.right() + 4, self.WIDEST)
        return QSize(width, max(self.heightForWidth(width), metrics.height()))

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()


def _value_label(fig_id: str) -> QLabel:
    value = FigureValue(wordWrap=True)
    value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    value.setFocusPolicy(Qt.FocusPolicy.TabFocus)
    value.setObjectName(f"figure:{fig_id}")  # tests and screen-reader scripts find a figure by its id
    return value


def _show(value: QLabel, name: QLabel, fig: Figure, label: str | None) -> None:
    text = figure_text(fig)
    if value.text() != text:
        value.setText(text)
    name.setText(label or fig.label)
    value.setAccessibleName(plain(label) if label else fig.label)
    value.setToolTip(figure_tip(fig))


def figure_rows(pages: Pages, form: QFormLayout, decl: FigureRef, scope: Scope) -> QLabel:
    """A figure's row in ``form`` (for an id ending in ``*``, a row for each figure it
    matches, made as the report gains them); returns the row's (or the group's anchor) label."""
    if decl.figure.endswith("*"):
        return _figure_group(form, decl, scope, pages.context())
    value = _value_label(decl.figure)
    name = QLabel()
    name.setBuddy(value)
    form.addRow(name, value)

    def update(ctx: FormContext) -> None:
        found = figures_for(decl.figure, ctx.report)
        if found:
            _show(value, name, found[0], decl.label)
        else:
            value.setText("")
            name.setText(decl.label or "")
        form.setRowVisible(value, bool(found) or decl.label is not None)

    update(pages.context())
    scope.updates.append(update)
    return value


def _figure_group(form: QFormLayout, decl: FigureRef, scope: Scope, ctx: FormContext) -> QLabel:
    """Rows for every figure of an id prefix, inserted above an anchor row as they appear."""
    anchor = QLabel()
    anchor.setObjectName(f"figures:{decl.figure}")
    form.addRow(anchor)
    form.setRowVisible(anchor, False)
    rows: dict[str, tuple[QLabel, QLabel]] = {}

    def update(ctx: FormContext) -> None:
        found = {f.id: f for f in figures_for(decl.figure, ctx.report)}
        for fig_id, fig in found.items():
            if fig_id not in rows:
                value, name = _value_label(fig_id), QLabel()
                name.setBuddy(value)
                position: Any = form.getWidgetPosition(anchor)  # (row, role)
                form.insertRow(int(position[0]), name, value)
                rows[fig_id] = (value, name)
            value, name = rows[fig_id]
            _show(value, name, fig, None)
        for fig_id, (value, _name) in rows.items():
            form.setRowVisible(value, fig_id in found)

    update(ctx)
    scope.updates.append(update)
    return anchor


class ReportTable(QTableWidget):
    """One table of the report, read-only, as tall as its rows (up to ``max_rows``)."""

    def __init__(self, table_id: str, name: str, max_rows: int, empty: str) -> None:
        super().__init__(0, 0)
        self.table_id, self.max_rows = table_id, max_rows
        self.setObjectName(f"table:{table_id}")
        self.placeholder = QLabel(empty)
        self.placeholder.setAccessibleName(f"{name}: {empty}")
        self.setAccessibleName(name)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 10)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.verticalHeader().setVisible(False)
        self.setWordWrap(False)
        self.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self._shown: tuple[Any, ...] | None = None

    def show_table(self, ctx: FormContext) -> None:
        table = ctx.report.derived.table(self.table_id) if ctx.report is not None else None
        columns = list(table.columns) if table else []
        rows = [[str(c) for c in r] for r in table.rows] if table else []
        shown = (tuple(columns), tuple(tuple(r) for r in rows))
        if shown == self._shown:
            return
        self._shown = shown
        self.setVisible(bool(rows))
        self.placeholder.setVisible(not rows)
        self.setColumnCount(len(columns))
        self.setHorizontalHeaderLabels(columns)
        self.setRowCount(len(rows))
        for r, cells in enumerate(rows):
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                self.setItem(r, c, item)
        self.resizeColumnsToContents()
        if columns:
            self.horizontalHeader().setSectionResizeMode(len(columns) - 1, QHeaderView.ResizeMode.Stretch)
        visible = max(1, min(len(rows), self.max_rows))
        height = self.horizontalHeader().height() + 2 * self.frameWidth() + 4
        used = sum(self.rowHeight(i) for i in range(min(len(rows), visible)))
        self.setFixedHeight(height + (used or self.verticalHeader().defaultSectionSize()))

    def rows(self) -> list[list[str]]:
        """What the table shows, row by row, as a user reads it."""
        return [
            [item.text() if (item := self.item(r, c)) else "" for c in range(self.columnCount())]
            for r in range(self.rowCount())
        ]


def table_area(pages: Pages, decl: TableRef, scope: Scope) -> QWidget:
    """A report table with its name above it, and the line shown while it is empty."""
    ctx = pages.context()
    found = ctx.report.derived.table(decl.table) if ctx.report is not None else None
    name = decl.label or (found.title if found is not None else decl.table)
    table = ReportTable(decl.table, plain(name), decl.rows, decl.empty)
    box = QWidget()
    lay = QVBoxLayout(box)
    lay.setContentsMargins(0, 0, 0, 0)
    caption = QLabel()
    pages.show_text(scope, name, caption.setText)
    caption.setBuddy(table)
    lay.addWidget(caption)
    lay.addWidget(table)
    lay.addWidget(table.placeholder)
    pages.tables.append(table)
    table.show_table(ctx)
    scope.updates.append(table.show_table)
    return box
