"""The list editor: the chosen entries of one list in the design, a table row each.

Every cell of a row is a control editing a field of the entry (see
:mod:`shipyard._qt.form.listcells`), a Remove button ends the row, and two things are shown
beside the controls: what the entry costs (:mod:`shipyard._qt.form.listcosts`) and a mark in
the row's header while a finding is about the entry. The table keeps its controls
through edits, making them again only when entries come or go, so that a person typing
in a cell keeps the focus and a keystroke rewrites only the rows that changed. A catalog
item dropped on it is added (:mod:`shipyard._qt.widgets.itemdrag`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFontMetrics
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QStyle,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from shipyard._qt.document import refused
from shipyard._qt.document.document import Document
from shipyard._qt.form.listcells import (
    Column,
    cell_tip,
    cell_tip_now,
    field_value,
    label_cell,
    make_cell,
    name_cell,
    refill,
    takes_focus,
    whole_width,
    write_cell,
)
from shipyard._qt.form.listcosts import row_costs
from shipyard._qt.widgets.itemdrag import carries_item, dragged_item
from shipyard._qt.widgets.marks import MARK_GLYPH, SEVERITY_ORDER, mark_colour
from shipyard._qt.widgets.whatnext import greyed_reason
from shipyard.core.edits import parse_path
from shipyard.core.paths import value_at

NAME_CHARACTERS = 40  # a name column is as wide as a name of this many characters, at most


class ListEditor(QTableWidget):
    """The chosen entries of one list in the design, one row each, every cell editable."""

    rebuilt = Signal()  # rows came or went: the Tab order has new controls

    def __init__(
        self,
        doc: Document,
        list_path: str,
        columns: list[Column],
        name_of: Callable[[dict[str, Any]], str],
        report_error: Callable[[str], None],
        add: Callable[[str], None] | None = None,
        parent: QWidget | None = None,
        data: Callable[[], Any] | None = None,
        noun: str = "entry",
        name_fields: tuple[str, ...] = (),
    ) -> None:
        """``data`` gives the design's JSON data, made once a document change for every
        widget of the form (the form's context); without it the list dumps the design itself.
        ``noun`` names a row whose entry has no name ("Stunt 3"); ``name_fields`` are the
        entry's fields that name it (a catalog item's id, a name of its own), whose columns
        show names whole (:meth:`name_columns`)."""
        super().__init__(0, len(columns) + 2, parent)
        self.doc, self.list_path, self.columns, self.name_of = doc, list_path, columns, name_of
        self.noun, self.name_fields = noun, name_fields
        self.report_error, self._add = report_error, add
        self.setHorizontalHeaderLabels([c.header for c in columns] + ["Cost", ""])
        self.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.verticalHeader().setVisible(False)
        self.setTabKeyNavigation(False)  # Tab walks the cells' controls and leaves the table
        self.setColumnHidden(self.cost_column, True)
        self.caption: Any = None  # the list's label (a MarkedLabel), marked for a finding about the whole list
        self._marks: dict[int, tuple[str, str]] = {}
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setAccessibleName(f"Chosen {list_path}")
        self.setAcceptDrops(add is not None)
        self.viewport().setAcceptDrops(add is not None)
        self._signature: tuple[Any, ...] | None = None
        self._shown: list[Any] = []  # what each row's controls show now (see _row_view)
        self._updating = False
        self._data: Callable[[], Any] = data or (lambda: doc.design.model_dump(mode="json"))
        self._least = 0  # the width the columns need with every name whole (minimumSizeHint)
        self._stretched: int | None = None  # the column that takes the width the others leave
        self.horizontalHeader().sectionResized.connect(lambda *_a: self._ask_room())

    def row_name(self, row: int, entry: Any) -> str:
        """What row ``row`` is called (its cells' accessible names, its Remove button): its
        entry's name, or for an entry without one its noun and number ("Stunt 3"), never
        "None" or an empty name a screen reader would read as nothing."""
        name = self.name_of(entry).strip()
        return name or f"{self.noun[:1].upper()}{self.noun[1:]} {row + 1}"

    def entries(self) -> list[dict[str, Any]]:
        """The list's entries; none while the place is absent (a list in an optional section
        that is switched off, such as a round plan not written yet)."""
        value = value_at(self._data(), self.list_path)
        return list(value) if isinstance(value, list) else []

    @property
    def cost_column(self) -> int:
        return len(self.columns)

    @property
    def remove_column(self) -> int:
        return len(self.columns) + 1

    def refresh(self) -> None:
        """Show the entries. The rows' controls are made again only when the number of
        entries changes (an entry added or removed): an edit of an entry, its name typed a
        key at a time, keeps every control, so the one a person is typing in keeps the
        focus. A row whose entry, name, options, read-only texts and enabled cells are what
        it shows already is not touched at all: an edit of one row (or of anything else in
        the design) writes into that row's controls only, so the panels follow a keystroke
        within a frame on a design with many rows."""
        entries = self.entries()
        signature = (len(entries),)
        rebuilt = signature != self._signature
        if rebuilt:
            self._rebuild(entries)
            self._signature = signature
            self._shown = [None] * len(entries)
            self.rebuilt.emit()
        self._show_costs(len(entries))
        # a choice's options may follow the design (a crew member's stations: its turrets too)
        options = {c: col.choices() for c, col in enumerate(self.columns) if col.kind == "combo" and col.choices}
        self._updating = True
        relabelled: set[int] = set()
        written = False
        try:
            for r, entry in enumerate(entries):
                view = self._row_view(r, entry, options)
                if view != self._shown[r]:
                    relabelled |= self._show_row(r, entry, view, self._shown[r])
                    self._shown[r] = view
                    written = True
        finally:
            self._updating = False
        if rebuilt:
            self._fit_texts()  # the new controls show their entries' values now
        elif written:
            self._widen_to_texts()
        if rebuilt or written:
            self._ask_room()
        for c in relabelled - {self.stretched_column()}:
            self.resizeColumnToContents(c)  # a read-only cell's new text ("2 AP") shown whole

    def _row_view(self, row: int, entry: Any, options: dict[int, list[tuple[str, Any]]]) -> tuple[Any, ...]:
        """What row ``row`` is to show for ``entry``: its name, the entry, and each cell's
        options, read-only text or whether it is enabled (these may follow the rest of the
        design, such as a crew member's stations or an action's AP, so they are asked anew)."""
        cells: list[Any] = []
        for c, col in enumerate(self.columns):
            if col.kind == "label":
                cells.append(col.text(row, entry) if col.text is not None else None)
            elif c in options:
                cells.append((col.offered(options[c], field_value(entry, col.field)), col.enabled_for(row, entry)))
            else:
                cells.append(col.enabled_for(row, entry))
        return (self.row_name(row, entry), entry, tuple(cells))

    def _show_row(self, row: int, entry: Any, view: tuple[Any, ...], was: tuple[Any, ...] | None) -> set[int]:
        """Write ``view`` (see :meth:`_row_view`) into the row's controls; the columns whose
        read-only text changed (they may need to widen)."""
        name, _entry, cells = view
        if was is None or was[0] != name:
            self._rename(row, name)
        relabelled: set[int] = set()
        for c, (col, cell) in enumerate(zip(self.columns, cells, strict=True)):
            w = self.cellWidget(row, c)
            if col.kind == "label":
                if label_cell(w, cell):
                    relabelled.add(c)
                continue
            enabled = cell
            if isinstance(cell, tuple):
                offered, enabled = cell
                refill(w, offered)
            if not self.doc.pending.holds(w) and not refused.holds(w):  # typed there, not the design's (yet)
                write_cell(w, col, field_value(entry, col.field))
            if w is not None:
                w.setEnabled(enabled)
                if col.why:  # greyed, the cell says why (its form's words) before its help
                    greyed_reason(w, bool(enabled), col.why, cell_tip_now(w) or cell_tip(col, w.accessibleName()))
        return relabelled

    def _rename(self, row: int, name: str) -> None:
        """The row's name (a name cell, the controls' accessible names and tooltips) as its
        entry is named now, without making any control again."""
        for c, col in enumerate(self.columns):
            w = self.cellWidget(row, c)
            if w is None:
                continue
            if col.kind == "name" and isinstance(w, QLabel) and w.text() != name:
                w.setText(name)
            name_cell(w, col, name)
        remove = self.cellWidget(row, self.remove_column)
        if remove is not None and remove.accessibleName() != f"Remove {name}":
            remove.setAccessibleName(f"Remove {name}")

    def _focused_cell(self) -> tuple[int, int] | None:
        """The (row, column) of the cell control that has the focus, if one has."""
        from PySide6.QtWidgets import QApplication

        focus = QApplication.focusWidget()
        if focus is None:
            return None
        for r in range(self.rowCount()):
            for c in range(self.columnCount()):
                w = self.cellWidget(r, c)
                if w is not None and (w is focus or w.isAncestorOf(focus)):
                    return r, c
        return None

    def _rebuild(self, entries: list[dict[str, Any]]) -> None:
        """Make the rows' controls again for ``entries``; the focus, when it was in a cell,
        stays in that cell (or the last row's, when rows went): a Remove pressed from the
        keyboard leaves the focus on the next row's Remove, not nowhere."""
        focused = self._focused_cell()
        self.setRowCount(len(entries))
        for r, entry in enumerate(entries):
            for c, col in enumerate(self.columns):
                self.setCellWidget(r, c, self._make(r, col, entry))
            remove = QPushButton("Remove")
            remove.setAutoDefault(True)  # Enter removes, as Space does
            remove.setAccessibleName(f"Remove {self.row_name(r, entry)}")
            remove.clicked.connect(lambda _=False, row=r: self._remove(row))
            self.setCellWidget(r, self.remove_column, remove)
            cost = QTableWidgetItem()
            cost.setFlags(Qt.ItemFlag.ItemIsEnabled)
            cost.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.setItem(r, self.cost_column, cost)
        self._fold_headers()
        self.resizeColumnsToContents()
        header = self.horizontalHeader()
        for c in range(self.columnCount()):
            header.setSectionResizeMode(c, QHeaderView.ResizeMode.Interactive)
        self._stretched = None
        self._stretched = self.stretched_column()  # kept: the widths change, the column that stretches does not
        header.setSectionResizeMode(self._stretched, QHeaderView.ResizeMode.Stretch)
        self._show_marks()
        if focused is not None and entries:
            at_row, at_col = min(focused[0], len(entries) - 1), focused[1]
            w = self.cellWidget(at_row, at_col)
            (w if takes_focus(w) else self).setFocus(Qt.FocusReason.OtherFocusReason)
        elif focused is not None:
            self.setFocus(Qt.FocusReason.OtherFocusReason)

    def _fold_headers(self) -> None:
        """A header of two words or more over a column of small controls (a count's spin
        box, a check box) is written on two lines: the column is as wide as its controls,
        not its header ("Ephemeral damage" over a two-digit number), leaving the room to the
        names. Screen readers read the header on one line."""
        fm = self.horizontalHeader().fontMetrics()
        stretched = self.stretched_column()
        for c, col in enumerate(self.columns):
            item = self.horizontalHeaderItem(c)
            if item is None:
                continue
            text = col.header
            if c != stretched and col.kind not in ("name", "line", "label") and " " in text and self.rowCount():
                controls = max(self.sizeHintForColumn(c), 0)
                if fm.horizontalAdvance(text) + 12 > controls:
                    text = _two_lines(text, fm)
            if item.text() != text:
                item.setText(text)
                item.setData(Qt.ItemDataRole.AccessibleTextRole, col.header)

    def _fit_texts(self) -> None:
        """A text or choice column (not the one that stretches) as wide as its header and
        the texts it shows, not a text field's dozen characters nor a choice's longest
        option (its list, opened, shows them whole): a fire-link group "A" leaves the room
        to the names; a longer text typed or chosen widens it (:meth:`_widen_to_texts`)."""
        header = self.horizontalHeader()
        for c, need in self._text_widths().items():
            fields = [w for r in range(self.rowCount()) if isinstance(w := self.cellWidget(r, c), QLineEdit)]
            least = fields[0].fontMetrics().horizontalAdvance("x" * 8) if fields else 0
            self.setColumnWidth(c, max(header.sectionSizeFromContents(c).width(), least, need))

    def _widen_to_texts(self) -> None:
        """A text or choice column as wide as its longest text (never narrower than it is,
        so a column does not jump while a person types): a missile's damage
        "d6+1w/d6+3w/d4+2m" was cut to a text field's dozen characters."""
        for c, need in self._text_widths().items():
            if self.columnWidth(c) < need:
                self.setColumnWidth(c, need)

    def _text_widths(self) -> dict[int, int]:
        """The width each text or choice column (not the one that stretches) needs to show
        its texts whole; a text longer than :meth:`_longest_text` is cut, whole in its tooltip."""
        stretched = self.stretched_column()
        out = {}
        for c, col in enumerate(self.columns):
            if col.kind not in ("line", "combo") or c == stretched or not self.rowCount():
                continue
            need = max(whole_width(self.cellWidget(r, c)) for r in range(self.rowCount()))
            out[c] = min(need, self._longest_text()) if col.kind == "line" else need
        return out

    def name_columns(self) -> list[int]:
        """The columns that name a row's entry (its catalog item's name, a name of its own):
        their names are shown whole, the table asking its page for the room."""
        return [c for c, col in enumerate(self.columns) if col.kind == "name" or col.field in self.name_fields]

    def minimumSizeHint(self) -> QSize:
        """As narrow as the table can be with every name whole beside the other columns at
        their widths: a page lays it out no narrower, taking the room from a catalog beside
        it, and a window from its panels (a weapon's name was cut to "Light" at 1280x720)."""
        least = super().minimumSizeHint()
        return QSize(max(least.width(), self._least), least.height())

    def _room_needed(self) -> int:
        header = self.horizontalHeader()
        stretched, names = self.stretched_column(), set(self.name_columns())
        fm = self.fontMetrics()
        cap = fm.averageCharWidth() * NAME_CHARACTERS  # a longer name is cut, whole in its tooltip
        width = 2 * self.frameWidth() + self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, self)
        if self.verticalHeader().isVisible():
            width += self.verticalHeader().sizeHint().width()
        for c in range(self.columnCount()):
            if self.isColumnHidden(c):
                continue
            need = header.sectionSizeFromContents(c).width() if c == stretched else self.columnWidth(c)
            if c in names or (c == stretched and self.columns[c].kind == "combo"):  # a choice is shown whole
                shown = max((whole_width(self.cellWidget(r, c)) for r in range(self.rowCount())), default=0)
                need = max(need, min(shown, cap) if c in names else shown)
            width += need
        return width

    def _ask_room(self) -> None:
        """The width the columns need now, asked of the page when it changed."""
        least = self._room_needed()
        if least != self._least:
            self._least = least
            self.updateGeometry()

    def _longest_text(self) -> int:
        """The widest a text column grows: a longer text is cut, whole in its tooltip."""
        return max(160, self.viewport().width() // 4)

    def stretched_column(self) -> int:
        """The column that takes the width the others leave: the entry's name or text where
        it has one, else the one whose content is widest (a round plan's action, not its
        role): every column is as wide as its content."""
        if self._stretched is not None:
            return self._stretched
        named = next((c for c, col in enumerate(self.columns) if col.kind in ("name", "line")), None)
        if named is not None:
            return named
        return max(range(len(self.columns)), key=self.columnWidth, default=0)

    def _make(self, row: int, col: Column, entry: dict[str, Any]) -> QWidget:
        path = f"{self.list_path}[{row}]" + ("" if col.field == "." else f".{col.field}")
        return make_cell(self.doc, col, path, entry, self.row_name(row, entry), self._commit)

    def costs(self, row: int) -> str:
        """What the entry of ``row`` costs in each pool, from the report's line items
        ("6 Weapon Points"; "gains 2 Freebie Points"; "" when it costs nothing)."""
        return self._costs().get(row, "")

    def _costs(self) -> dict[int, str]:
        return row_costs(self.doc.report.pools, self.list_path)

    def _show_costs(self, rows: int) -> None:
        """The Cost column, shown while any entry costs something."""
        if not self.doc.catalog.pools:
            return
        costs = self._costs()
        changed = False
        for r in range(rows):
            text = costs.get(r, "")
            item = self.item(r, self.cost_column)
            if item is not None and item.text() != text:
                item.setText(text)
                item.setToolTip(text)
                changed = True
        hide = not any(costs.values())
        if self.isColumnHidden(self.cost_column) != hide:
            self.setColumnHidden(self.cost_column, hide)
            changed = True
        if changed and not hide:
            self.resizeColumnToContents(self.cost_column)
        if changed:
            self.updateGeometries()  # the cells' controls move with a column shown or hidden

    def mark(self, worst: dict[str, tuple[str, str]]) -> None:
        """Mark each row a finding is about (a sign in the row's header, the finding as its tooltip),
        and the list's caption for a finding about the whole list."""
        base = parse_path(self.list_path)
        marks: dict[int, tuple[str, str]] = {}
        whole: tuple[str, str] | None = None
        for path, mark in worst.items():
            try:
                parts = parse_path(path)
            except ValueError:
                continue
            if parts[: len(base)] != base:
                continue
            rest = parts[len(base) :]
            if not rest:
                whole = mark
            elif isinstance(rest[0], int):
                known = marks.get(rest[0])
                if known is None or SEVERITY_ORDER[mark[0]] < SEVERITY_ORDER[known[0]]:
                    marks[rest[0]] = mark
        if self.caption is not None and hasattr(self.caption, "set_mark"):
            self.caption.set_mark(whole)
        if marks != self._marks:
            self._marks = marks
            self._show_marks()

    def _show_marks(self) -> None:
        for r in range(self.rowCount()):
            mark = self._marks.get(r)
            item = QTableWidgetItem(MARK_GLYPH.get(mark[0], "") if mark else "")
            if mark:
                item.setForeground(QBrush(QColor(mark_colour(mark[0], self))))
                item.setToolTip(mark[1])
            self.setVerticalHeaderItem(r, item)
        self.verticalHeader().setVisible(bool(self._marks))
        self._ask_room()  # the marks' column takes its width from the names'

    def marked_rows(self) -> dict[int, str]:
        """The rows marked now, with their finding's severity (what a user sees in the row headers)."""
        return {r: m[0] for r, m in self._marks.items()}

    def _commit(self, path: str, value: Any, merge: bool) -> None:
        if self._updating:
            return
        error = self.doc.edit(path, value, merge=merge)
        if error:
            self.report_error(error)
            field = self._cell_at(path)
            row = self._row_of(path)

            def restore() -> None:
                if row is not None and row < len(self._shown):
                    self._shown[row] = None
                self.refresh()

            if field is not None:
                refused.refuse(field, error, restore)
            self._shown = [None] * len(self._shown)  # the other controls show the stored values again
            self.refresh()

    def _row_of(self, path: str) -> int | None:
        rest = parse_path(path)[len(parse_path(self.list_path)) :]
        return rest[0] if rest and isinstance(rest[0], int) else None

    def _cell_at(self, path: str) -> QWidget | None:
        """The control of the row and column ``path`` edits."""
        row = self._row_of(path)
        fieldname = path.partition(f"{self.list_path}[{row}]")[2].removeprefix(".") or "."
        col = next((i for i, c in enumerate(self.columns) if c.field == fieldname), None)
        return None if row is None or col is None else self.cellWidget(row, col)

    def _remove(self, row: int) -> None:
        entry = self.entries()[row]
        error = self.doc.remove(self.list_path, row, text=f"Remove {self.row_name(row, entry)}")
        if error:
            self.report_error(error)

    def focus_path(self, path: str) -> bool:
        parts = parse_path(path)
        base = parse_path(self.list_path)
        if parts[: len(base)] != base:
            return False
        rest = parts[len(base) :]
        from shipyard._qt.document.binding import _reveal

        _reveal(self)
        if not rest or not isinstance(rest[0], int) or self.rowCount() == 0:
            self.setFocus()  # the list as a whole (an item it should have, a list that is empty)
            return True
        row = min(rest[0], self.rowCount() - 1)  # an entry an undo took away: the nearest one
        fieldname = ".".join(str(p) for p in rest[1:]) if len(rest) > 1 else None
        col = next((i for i, c in enumerate(self.columns) if c.field == fieldname), None)
        if col is None:  # the entry itself: its first control
            col = next((i for i in range(len(self.columns)) if takes_focus(self.cellWidget(row, i))), 0)
        self.setCurrentCell(row, col)
        w = self.cellWidget(row, col)
        (w if takes_focus(w) else self).setFocus()  # a name, read-only or greyed cell: the table, on that row
        return True

    # drag and drop from a catalog browser
    def dragEnterEvent(self, event: Any) -> None:
        if carries_item(event.mimeData()):
            event.acceptProposedAction()

    def dragMoveEvent(self, event: Any) -> None:
        if carries_item(event.mimeData()):
            event.acceptProposedAction()

    def dropEvent(self, event: Any) -> None:
        if self._add is not None and carries_item(event.mimeData()):
            self._add(dragged_item(event.mimeData()))
            event.acceptProposedAction()


def _two_lines(text: str, fm: QFontMetrics) -> str:
    """``text`` broken at the space that leaves its longer line the shortest."""
    spaces = [i for i, ch in enumerate(text) if ch == " "]
    best = min(spaces, key=lambda i: max(fm.horizontalAdvance(text[:i]), fm.horizontalAdvance(text[i + 1 :])))
    return f"{text[:best]}\n{text[best + 1 :]}"
