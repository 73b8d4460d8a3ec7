"""Catalog browser and list editor: pick catalog items, edit the chosen ones in a table.

The browser shows what a user needs to choose an item — its own fields (a weapon's
Speed, Damage, Range, cost and notes), in the detail box and the tooltip — and works from
the keyboard: Down from the search box into the list, Enter adds the selected (or the
only) match. The list editor's rows show what each entry costs, from the report's pool
line items, and a mark while a finding is about the entry.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from dataclasses import field as dc_field
from fractions import Fraction
from typing import Any

from PySide6.QtCore import QEvent, QMimeData, QObject, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QDrag, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from shipyard._qt.document import Document
from shipyard._qt.formbase import MARK_GLYPH, SEVERITY_ORDER, mark_colour
from shipyard._qt.keys import share_undo
from shipyard._qt.pending import commit_on_pause
from shipyard.core.edits import parse_path
from shipyard.core.items import CatalogItem, facts
from shipyard.core.paths import value_at
from shipyard.pointbuy.scalelimits import scale_restriction

MIME = "application/x-shipyard-item"


class _DragList(QListWidget):
    def startDrag(self, actions: Qt.DropAction) -> None:
        item = self.currentItem()
        if item is None or not item.flags() & Qt.ItemFlag.ItemIsEnabled:
            return
        mime = QMimeData()
        mime.setData(MIME, str(item.data(Qt.ItemDataRole.UserRole)).encode())
        drag = QDrag(self)
        drag.setMimeData(mime)
        drag.exec(Qt.DropAction.CopyAction)


class CatalogBrowser(QWidget):
    """Search a catalog kind; see cost, description and system text; add with a click or drag."""

    add_requested = Signal(str)

    def __init__(
        self, doc: Document, kind: str, noun: str, one: str = "", parent: QWidget | None = None, add_text: str = ""
    ) -> None:
        super().__init__(parent)
        self.doc, self.kind, self.noun = doc, kind, noun
        self.search = QLineEdit(placeholderText=f"Search {noun}…")
        self.search.setAccessibleName(f"Search {noun}")
        self.search.setClearButtonEnabled(True)
        self.list = _DragList()
        self.list.setAccessibleName(f"{noun.capitalize()} catalog")
        self.list.setDragEnabled(True)
        self.detail = QTextBrowser()
        self.detail.setAccessibleName(f"{noun.capitalize()} description")
        self.detail.setFocusPolicy(Qt.FocusPolicy.ClickFocus)  # a description to read, not a control
        self.detail.setPlaceholderText("Select a row to see its facts.")  # one line: a placeholder does not wrap
        self.detail.setMinimumHeight(72)
        self.detail.setMaximumHeight(180)
        self.add_button = QPushButton(add_text or f"&Add {one or noun}")
        self.add_button.setAccessibleName(f"Add the selected {noun}")
        self.add_button.setAutoDefault(True)  # Enter adds, as Space does
        label = QLabel(f"{noun.capitalize()} catalog")
        label.setBuddy(self.search)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        for w in (label, self.search, self.list, self.detail, self.add_button):  # the list has most of the height
            lay.addWidget(w, 3 if w is self.list else 1 if w is self.detail else 0)
        self.list.setMinimumHeight(96)
        self.search.installEventFilter(self)
        self.search.textChanged.connect(self._filter)
        self.list.currentItemChanged.connect(self._show)
        self.list.itemActivated.connect(lambda _i: self._add())
        self.add_button.clicked.connect(self._add)
        self._scale: tuple[Any, str] | None = None
        self.scale_refused: set[str] = set()  # ids of the rows shown disabled: not for this design's scale
        self.populate()

    def populate(self) -> None:
        ladder = self.doc.catalog.scales
        scale = (
            ladder.parse(getattr(self.doc.design, "scale", ""))
            if ladder and hasattr(self.doc.design, "scale")
            else None
        )
        key = (scale, self.doc.preset)
        if key == self._scale and self.list.count():
            return
        self._scale = key
        current = self.list.currentItem().data(Qt.ItemDataRole.UserRole) if self.list.currentItem() else None
        self.list.clear()
        self.scale_refused = set()
        for item in self.doc.catalog.kind(self.kind).values():
            cost = getattr(item, "cost", None)
            text = item.name
            if cost is not None:
                text += f"   {cost}{' each' if getattr(item, 'per_level', False) else ''}"
            row = QListWidgetItem(text)
            row.setData(Qt.ItemDataRole.UserRole, item.id)
            reason = scale_restriction(self.doc.catalog, item, scale) if scale is not None else None
            tip = facts_text(item)
            if reason:
                row.setText(f"{text}   (for {reason} scale only)")
                row.setFlags(row.flags() & ~Qt.ItemFlag.ItemIsEnabled)
                self.scale_refused.add(item.id)
                tip = f"Not for {scale.name if scale else ''}-scale designs: {reason} scale only. {tip}"
            row.setToolTip(tip)
            self.list.addItem(row)
            if item.id == current:
                self.list.setCurrentItem(row)
        self._filter(self.search.text())

    def _filter(self, text: str) -> None:
        needle = text.strip().lower()
        for i in range(self.list.count()):
            row = self.list.item(i)
            item = self.doc.catalog.item(self.kind, row.data(Qt.ItemDataRole.UserRole))
            hay = (
                " ".join(
                    [item.name, *item.aliases, getattr(item, "description", ""), getattr(item, "system", "")]
                ).lower()
                if item
                else ""
            )
            row.setHidden(bool(needle) and needle not in hay)
        current = self.list.currentItem()
        if needle and (current is None or current.isHidden()):  # the detail follows what the search leaves
            shown = self.matches()
            if shown:
                self.list.setCurrentItem(shown[0])
            else:
                self.list.setCurrentRow(-1)

    def matches(self, enabled_only: bool = False) -> list[QListWidgetItem]:
        """The rows the search shows (only those that may be added, with ``enabled_only``)."""
        rows = [self.list.item(i) for i in range(self.list.count())]
        return [
            r for r in rows if not r.isHidden() and (not enabled_only or bool(r.flags() & Qt.ItemFlag.ItemIsEnabled))
        ]

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """In the search box, Down goes into the list, Enter adds the selected or the only match."""
        if watched is self.search and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            if event.key() in (Qt.Key.Key_Down, Qt.Key.Key_PageDown):
                current = self.list.currentItem()
                if current is None or current.isHidden():
                    shown = self.matches()
                    if shown:
                        self.list.setCurrentItem(shown[0])
                self.list.setFocus(Qt.FocusReason.TabFocusReason)
                return True
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self.add_match()
                return True
        return False

    def add_match(self) -> bool:
        """Add the selected match, or the only one; False (and nothing added) when neither is clear."""
        current = self.list.currentItem()
        if current is not None and not current.isHidden() and current.flags() & Qt.ItemFlag.ItemIsEnabled:
            self.add_requested.emit(current.data(Qt.ItemDataRole.UserRole))
            return True
        shown = self.matches(enabled_only=True)
        if len(shown) == 1:
            self.list.setCurrentItem(shown[0])
            self.add_requested.emit(shown[0].data(Qt.ItemDataRole.UserRole))
            return True
        return False

    def select_named(self, text: str) -> bool:
        """Select the catalog item whose name ``text`` mentions (the longest such name), e.g. the
        item an advice recommends; False when it names none."""
        rows = [self.list.item(i) for i in range(self.list.count())]
        named = [r for r in rows if (item := self._item(r)) is not None and item.name in text]
        if not named:
            return False
        row = max(named, key=lambda r: len(self._item(r).name))  # type: ignore[union-attr]
        self.search.clear()
        self.list.setCurrentItem(row)
        self.list.scrollToItem(row)
        return True

    def _item(self, row: QListWidgetItem) -> CatalogItem | None:
        return self.doc.catalog.item(self.kind, row.data(Qt.ItemDataRole.UserRole))

    def _show(self, row: QListWidgetItem | None) -> None:
        if row is None:
            self.detail.clear()
            return
        item = self.doc.catalog.item(self.kind, row.data(Qt.ItemDataRole.UserRole))
        if item is None:
            return
        parts = [f"<b>{html.escape(item.name)}</b>", *facts_html(item)]
        if not row.flags() & Qt.ItemFlag.ItemIsEnabled:
            parts.append(f"<b>{html.escape(row.toolTip().split('.')[0])}.</b>")
        parts.append(f"<span style='color: gray'>Source: {html.escape(self.doc.catalog.cite(item.source))}</span>")
        self.detail.setHtml("<br>".join(parts))

    def _add(self) -> None:
        row = self.list.currentItem()
        if row is not None and row.flags() & Qt.ItemFlag.ItemIsEnabled:
            self.add_requested.emit(row.data(Qt.ItemDataRole.UserRole))


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
    text: Callable[[int, Any], tuple[str, str]] | None = None
    unset: str | None = None

    def offered(self, options: list[tuple[str, Any]], value: Any) -> list[tuple[str, Any]]:
        """A choice cell's options on a row holding ``value``."""
        return [(self.unset, None), *options] if self.unset is not None and value is None else options

    def enabled_for(self, row: int, entry: dict[str, Any]) -> bool:
        return self.enabled_at(row, entry) if self.enabled_at is not None else self.enabled(entry)


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
    ) -> None:
        """``data`` gives the design's JSON data, made once a document change for every
        widget of the form (the form's context); without it the list dumps the design itself."""
        super().__init__(0, len(columns) + 2, parent)
        self.doc, self.list_path, self.columns, self.name_of = doc, list_path, columns, name_of
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
        if signature != self._signature:
            self._rebuild(entries)
            self._signature = signature
            self._shown = [None] * len(entries)
            self.rebuilt.emit()
        self._show_costs(len(entries))
        # a choice's options may follow the design (a crew member's stations: its turrets too)
        options = {c: col.choices() for c, col in enumerate(self.columns) if col.kind == "combo" and col.choices}
        self._updating = True
        relabelled: set[int] = set()
        try:
            for r, entry in enumerate(entries):
                view = self._row_view(r, entry, options)
                if view != self._shown[r]:
                    relabelled |= self._show_row(r, entry, view, self._shown[r])
                    self._shown[r] = view
        finally:
            self._updating = False
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
                cells.append((col.offered(options[c], _get(entry, col.field)), col.enabled_for(row, entry)))
            else:
                cells.append(col.enabled_for(row, entry))
        return (self.name_of(entry), entry, tuple(cells))

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
                if self._label(w, col, cell):
                    relabelled.add(c)
                continue
            enabled = cell
            if isinstance(cell, tuple):
                offered, enabled = cell
                _refill(w, offered)
            self._write(w, col, _get(entry, col.field))
            if w is not None:
                w.setEnabled(enabled)
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
            self._name_cell(w, col, name)
        remove = self.cellWidget(row, self.remove_column)
        if remove is not None and remove.accessibleName() != f"Remove {name}":
            remove.setAccessibleName(f"Remove {name}")

    @staticmethod
    def _name_cell(w: QWidget, col: Column, entry_name: str) -> None:
        name = f"{col.header} of {entry_name}"
        if w.accessibleName() == name:
            return
        w.setAccessibleName(name)
        if col.kind != "label":  # a read-only cell's tooltip is its text's (see _label)
            w.setToolTip(f"{name}: {col.help}" if col.help else name)

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
            remove.setAccessibleName(f"Remove {self.name_of(entry)}")
            remove.clicked.connect(lambda _=False, row=r: self._remove(row))
            self.setCellWidget(r, self.remove_column, remove)
            cost = QTableWidgetItem()
            cost.setFlags(Qt.ItemFlag.ItemIsEnabled)
            cost.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.setItem(r, self.cost_column, cost)
        self.resizeColumnsToContents()
        header = self.horizontalHeader()
        for c in range(self.columnCount()):
            header.setSectionResizeMode(c, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(self.stretched_column(), QHeaderView.ResizeMode.Stretch)
        self._show_marks()
        if focused is not None and entries:
            at_row, at_col = min(focused[0], len(entries) - 1), focused[1]
            w = self.cellWidget(at_row, at_col)
            (w if _takes_focus(w) else self).setFocus(Qt.FocusReason.OtherFocusReason)
        elif focused is not None:
            self.setFocus(Qt.FocusReason.OtherFocusReason)

    def stretched_column(self) -> int:
        """The column that takes the width the others leave: the entry's name or text where
        it has one, else the one whose content is widest (a round plan's action, not its
        role): every column is as wide as its content."""
        named = next((c for c, col in enumerate(self.columns) if col.kind in ("name", "line")), None)
        if named is not None:
            return named
        return max(range(len(self.columns)), key=self.columnWidth, default=0)

    def _label(self, w: QWidget | None, col: Column, shown: tuple[str, str] | None) -> bool:
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

    def _make(self, row: int, col: Column, entry: dict[str, Any]) -> QWidget:
        path = f"{self.list_path}[{row}]" + ("" if col.field == "." else f".{col.field}")
        w: QWidget
        if col.kind == "name":
            w = QLabel(self.name_of(entry))
        elif col.kind == "label":
            w = QLabel()
            w.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            w.setContentsMargins(4, 0, 4, 0)
        elif col.kind in ("spin", "optspin"):
            s = QSpinBox()
            s.setRange(col.minimum - (1 if col.kind == "optspin" else 0), col.maximum)
            if col.kind == "optspin":
                s.setSpecialValueText(col.none)
                s.valueChanged.connect(lambda v, p=path, lo=col.minimum: self._commit(p, None if v < lo else v, True))
            else:
                s.valueChanged.connect(lambda v, p=path: self._commit(p, v, True))
            w = s
        elif col.kind == "check":
            b = QCheckBox()
            b.toggled.connect(lambda on, p=path: self._commit(p, on, False))
            w = b
        elif col.kind == "line":

            def typed(text: str, p: str = path) -> None:
                self._commit(p, text or None, True)

            w = commit_on_pause(self.doc.pending, QLineEdit(), typed)
        else:
            cb = QComboBox()
            for label, value in col.offered(col.choices(), _get(entry, col.field)) if col.choices else []:
                cb.addItem(label, value)
            cb.activated.connect(lambda i, p=path, box=cb: self._commit(p, box.itemData(i), False))
            w = cb
        self._name_cell(w, col, self.name_of(entry))
        if col.help:
            w.setAccessibleDescription(col.help)
        if isinstance(w, QSpinBox | QLineEdit):
            share_undo(w, self.doc.undo_stack)
        return w

    def costs(self, row: int) -> str:
        """What the entry of ``row`` costs in each pool, from the report's line items
        ("6 Weapon Points"; "gains 2 Freebie Points"; "" when it costs nothing)."""
        return self._costs().get(row, "")

    def _costs(self) -> dict[int, str]:
        head = self.list_path + "["
        nets: dict[int, dict[str, Fraction]] = {}
        names: dict[str, str] = {}
        for pool in self.doc.report.pools:
            names[pool.id] = pool.name
            for i in pool.items:
                if not i.path.startswith(head):
                    continue
                index = i.path[len(head) : i.path.find("]", len(head))]
                if not index.isdigit():
                    continue
                per = nets.setdefault(int(index), {})
                per[pool.id] = per.get(pool.id, Fraction(0)) + _exact(i) * (1 if i.kind == "cost" else -1)
        return {
            row: ", ".join(
                f"{'gains ' if net < 0 else ''}{_shown(abs(net))} {names[pid]}" for pid, net in per.items() if net
            )
            for row, per in nets.items()
        }

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

    def marked_rows(self) -> dict[int, str]:
        """The rows marked now, with their finding's severity (what a user sees in the row headers)."""
        return {r: m[0] for r, m in self._marks.items()}

    def _write(self, w: QWidget | None, col: Column, value: Any) -> None:
        if w is None or self.doc.pending.holds(w):  # what is being typed there is not the design's yet
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
            elif isinstance(w, QComboBox):
                w.setCurrentIndex(max(0, w.findData(value)))
        finally:
            w.blockSignals(False)

    def _commit(self, path: str, value: Any, merge: bool) -> None:
        if self._updating:
            return
        error = self.doc.edit(path, value, merge=merge)
        if error:
            self.report_error(error)
            self._shown = [None] * len(self._shown)  # the controls show the refused value: write them all again
            self.refresh()

    def _remove(self, row: int) -> None:
        entry = self.entries()[row]
        error = self.doc.remove(self.list_path, row, text=f"Remove {self.name_of(entry)}")
        if error:
            self.report_error(error)

    def focus_path(self, path: str) -> bool:
        parts = parse_path(path)
        base = parse_path(self.list_path)
        if parts[: len(base)] != base:
            return False
        rest = parts[len(base) :]
        from shipyard._qt.binding import _reveal

        _reveal(self)
        if not rest or not isinstance(rest[0], int) or self.rowCount() == 0:
            self.setFocus()  # the list as a whole (an item it should have, a list that is empty)
            return True
        row = min(rest[0], self.rowCount() - 1)  # an entry an undo took away: the nearest one
        fieldname = ".".join(str(p) for p in rest[1:]) if len(rest) > 1 else None
        col = next((i for i, c in enumerate(self.columns) if c.field == fieldname), None)
        if col is None:  # the entry itself: its first control
            col = next((i for i in range(len(self.columns)) if _takes_focus(self.cellWidget(row, i))), 0)
        self.setCurrentCell(row, col)
        w = self.cellWidget(row, col)
        (w if _takes_focus(w) else self).setFocus()  # a name, read-only or greyed cell: the table, on that row
        return True

    # drag and drop from a catalog browser
    def dragEnterEvent(self, event: Any) -> None:
        if event.mimeData().hasFormat(MIME):
            event.acceptProposedAction()

    def dragMoveEvent(self, event: Any) -> None:
        if event.mimeData().hasFormat(MIME):
            event.acceptProposedAction()

    def dropEvent(self, event: Any) -> None:
        if self._add is not None and event.mimeData().hasFormat(MIME):
            self._add(bytes(event.mimeData().data(MIME).data()).decode())
            event.acceptProposedAction()


def _takes_focus(w: QWidget | None) -> bool:
    return w is not None and w.isEnabled() and bool(w.focusPolicy() & Qt.FocusPolicy.TabFocus)


def _exact(item: Any) -> Fraction:
    return Fraction(item.exact) if item.exact else Fraction(item.amount)


def _shown(amount: Fraction) -> str:
    return str(amount.numerator) if amount.denominator == 1 else f"{float(amount):.2f}".rstrip("0").rstrip(".")


def _unsaid(item: CatalogItem, said: Sequence[str]) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The item's facts (:func:`shipyard.core.items.facts`), less those ``said`` already
    has word for word ("Notes: Speed +1" in a ruleset's listing of the item)."""
    text = "\n".join(said).lower()
    short, long = facts(item)
    return [(k, v) for k, v in short if f"{k}: {v}".lower() not in text], [
        (k, v) for k, v in long if f"{k}: {v}".lower() not in text
    ]


def facts_text(item: CatalogItem, said: Sequence[str] = ()) -> str:
    """An item's facts as a tooltip, one a line, after what ``said`` says of it (a ruleset's listing)."""
    short, long = _unsaid(item, said)
    return "\n".join([item.name, *said, *(f"{k}: {v}" for k, v in short), *(f"{k}: {v}" for k, v in long)])


def facts_html(item: CatalogItem, said: Sequence[str] = ()) -> list[str]:
    """An item's facts as the lines of a detail box, after ``said``: the short ones on one
    line ("Speed **1** · Damage **5**"), each longer text on its own."""
    short, long = _unsaid(item, said)
    parts = [html.escape(line) for line in said]
    if short:
        parts.append(" · ".join(f"{html.escape(k)} <b>{html.escape(v)}</b>" for k, v in short))
    parts += [f"<i>{html.escape(k)}:</i> {html.escape(v)}" for k, v in long]
    return parts


def _refill(combo: QWidget | None, options: list[tuple[str, Any]]) -> None:
    """Give a choice cell the options it has now (its value is written after)."""
    if not isinstance(combo, QComboBox):
        return
    if [(combo.itemText(i), combo.itemData(i)) for i in range(combo.count())] == options:
        return
    combo.blockSignals(True)
    try:
        combo.clear()
        for label, value in options:
            combo.addItem(label, value)
    finally:
        combo.blockSignals(False)


def _get(entry: Any, dotted: str) -> Any:
    if dotted == ".":
        return entry
    node: Any = entry
    for part in dotted.split("."):
        node = node.get(part) if isinstance(node, dict) else None
    return node


def browser_with_list(browser: CatalogBrowser, editor: QWidget) -> QWidget:
    box = QWidget()
    lay = QHBoxLayout(box)
    lay.setContentsMargins(0, 0, 0, 0)
    # room to browse even on a page with other sections; more when there is more. A strut,
    # not the box's own minimum height: that would win over what the catalog's column needs
    # (its Add buttons), and the next section's text ran under them
    lay.addStrut(200)
    lay.addWidget(browser, 2)
    lay.addWidget(editor, 5)  # the chosen entries have columns; the catalog is a list of names
    return box
