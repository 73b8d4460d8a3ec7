"""The Space Fury editor: a fighter, a pilot or a force, each kind with its own pages.

Pages only bind widgets to design paths; every count, cost, level and Cool shown comes
from the Report. Random builds call the engine's seeded rolls, and what a roll gives
replaces the design's entries as one undoable step.
"""

from __future__ import annotations

import html
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QRegularExpression, Qt
from PySide6.QtGui import QRegularExpressionValidator
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from shipyard._qt.binding import Binder, _reveal
from shipyard._qt.document import Document
from shipyard._qt.forms import StepPages, form, page, quiet, row
from shipyard._qt.items import CatalogBrowser, Column, ListEditor, browser_with_list
from shipyard._qt.panels import line_text
from shipyard.core.designfile import EXTENSION, load_design
from shipyard.core.edits import get_at
from shipyard.core.errors import InputError
from shipyard.core.model import Catalog
from shipyard.core.report import Report, Table
from shipyard.rulesets import space_fury as sf

RULESET = "space-fury"
MAX_SEED = 2**63 - 1


def _body(design: Any) -> dict[str, Any]:
    """A fighter or pilot design as an entry of another design (without its kind)."""
    data: dict[str, Any] = design.root.model_dump(mode="json")
    data.pop("kind", None)
    return data


def _figures(report: Report) -> dict[str, Any]:
    return {f.id: f for f in report.derived.figures}


def _table_name(table: sf.EnhancementTable) -> str:
    """ "Primary", "Special Weapon": a table's short name (its first alias)."""
    return table.aliases[0] if table.aliases else table.name


def _places(catalog: Catalog) -> dict[str, list[tuple[sf.EnhancementTable, int]]]:
    """Where each enhancement is on the d10 tables: (table, roll)."""
    out: dict[str, list[tuple[sf.EnhancementTable, int]]] = {}
    for table in catalog.kind("enhancement_tables").values():
        if isinstance(table, sf.EnhancementTable):
            for r in table.rows:
                if isinstance(r, sf.ItemRow):
                    out.setdefault(r.item, []).append((table, r.roll))
    return out


def _opened_by(catalog: Catalog) -> dict[str, tuple[sf.EnhancementTable, int]]:
    """Which table row opens each sub-table (the Primary's 6 opens the Special Weapon Table)."""
    out: dict[str, tuple[sf.EnhancementTable, int]] = {}
    for table in catalog.kind("enhancement_tables").values():
        if isinstance(table, sf.EnhancementTable):
            for r in table.rows:
                if isinstance(r, sf.SubtableRow):
                    out.setdefault(r.table, (table, r.roll))
    return out


def _short_cost(item: sf.Enhancement) -> str:
    """The cost as the catalog list shows it: "2", "1 per 2 missiles"."""
    if item.unit and item.units != 1:
        return f"{item.cost} per {item.units} {item.unit}s"
    return f"{item.cost}" + (f" per {item.unit}" if item.unit else "")


def _cost_text(item: sf.Enhancement) -> str:
    """What one purchase costs: "2 enhancements", "1 enhancement per 2 missiles"."""
    cost = f"{item.cost} enhancement{'s' if item.cost != 1 else ''}"
    if item.unit:
        per = f"{item.units} {item.unit}s" if item.units != 1 else f"{item.unit}"
        return f"{cost} per {per}"
    return cost


def _exists(design: Any, path: str) -> bool:
    try:
        get_at(design, path)
    except InputError:
        return False
    return True


# --- widgets ------------------------------------------------------------------------------


def _fill(combo: QComboBox, choices: list[tuple[str, Any]]) -> None:
    """Replace a combo box's choices, keeping the chosen value where it is still there."""
    current = combo.currentData()
    with quiet(combo):
        if [(combo.itemText(i), combo.itemData(i)) for i in range(combo.count())] != choices:
            combo.clear()
            for text, value in choices:
                combo.addItem(text, value)
        combo.setCurrentIndex(max(0, combo.findData(current)))


class ReportTable(QTableWidget):
    """One of the report's tables (weapons, roll log, roster), read-only, as tall as its rows."""

    def __init__(self, table_id: str, name: str, max_rows: int = 12, empty: str = "None.") -> None:
        super().__init__(0, 0)
        self.table_id, self.max_rows = table_id, max_rows
        self.placeholder = QLabel(empty)
        self.placeholder.setAccessibleName(f"{name}: {empty}")
        self.setAccessibleName(name)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 10)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.verticalHeader().setVisible(False)
        self.setWordWrap(False)
        self._shown: tuple[Any, ...] | None = None

    def show_report(self, report: Report) -> None:
        table: Table | None = report.derived.table(self.table_id)
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
        height += used or self.verticalHeader().defaultSectionSize()
        self.setFixedHeight(height)

    def rows(self) -> list[list[str]]:
        return [
            [item.text() if (item := self.item(r, c)) else "" for c in range(self.columnCount())]
            for r in range(self.rowCount())
        ]


class FiguresBox(QGroupBox):
    """Figures of the report, one a row: value, unit, and how it comes about."""

    def __init__(self, title: str, ids: list[str], prefixes: tuple[str, ...] = ()) -> None:
        super().__init__(title)
        self.ids, self.prefixes = ids, prefixes
        self.layout_ = QFormLayout(self)
        self.layout_.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.rows_: dict[str, tuple[QLabel, QLabel]] = {}
        self.setAccessibleName(title)

    def _row(self, fig_id: str) -> tuple[QLabel, QLabel]:
        if fig_id not in self.rows_:
            name, value = QLabel(), QLabel(wordWrap=True)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            name.setBuddy(value)
            self.layout_.addRow(name, value)
            self.rows_[fig_id] = (name, value)
        return self.rows_[fig_id]

    def show_report(self, report: Report) -> None:
        figs = _figures(report)
        wanted = list(self.ids) + [f for f in figs if f.startswith(self.prefixes) and self.prefixes]
        for fig_id in wanted:
            fig = figs.get(fig_id)
            name, value = self._row(fig_id)
            if fig is not None:
                name.setText(f"{fig.label}:")
                unit = f" {fig.unit}" if fig.unit else ""
                detail = f" <span style='color: gray'>— {html.escape(fig.detail)}</span>" if fig.detail else ""
                value.setText(f"<b>{html.escape(str(fig.value))}</b>{html.escape(unit)}{detail}")
                value.setAccessibleName(f"{fig.label}: {fig.value}{unit}")
                parts = line_text(fig.parts, cost="+", gain="-")  # what a counted figure counted
                value.setToolTip(f"{parts}\n{fig.source}" if parts else fig.source)
        for fig_id, (_name, value) in self.rows_.items():
            visible = fig_id in figs and fig_id in wanted
            self.layout_.setRowVisible(value, visible)

    def text(self, fig_id: str) -> str:
        pair = self.rows_.get(fig_id)
        return pair[1].accessibleName() if pair else ""


class EnhancementBrowser(CatalogBrowser):
    """The enhancements, each with its place on the d10 tables; a filter by table."""

    def __init__(self, doc: Document) -> None:
        super().__init__(doc, "enhancements", "enhancements", "enhancement")
        self.table = QComboBox()
        self.table.setAccessibleName("Enhancement table")
        self.table.setToolTip("Show the entries of one table")
        self.table.addItem("All tables", "")
        for t in doc.catalog.kind("enhancement_tables").values():
            self.table.addItem(t.name, t.id)
        self.table.currentIndexChanged.connect(lambda _i: self._filter(self.search.text()))
        lay = self.layout()
        if isinstance(lay, QVBoxLayout):
            lay.insertWidget(1, self.table)
        self.populate()

    def populate(self) -> None:
        super().populate()
        places = _places(self.doc.catalog)
        for i in range(self.list.count()):
            entry = self.list.item(i)
            item = self.doc.catalog.item("enhancements", entry.data(Qt.ItemDataRole.UserRole))
            if not isinstance(item, sf.Enhancement):
                continue
            where = ", ".join(f"{_table_name(t)} {roll}" for t, roll in places.get(item.id, []))
            text = f"{item.name}   {_short_cost(item)}" + (f"   · {where}" if where else "")
            if entry.text() != text:
                entry.setText(text)
            entry.setToolTip(item.notes)

    def _filter(self, text: str) -> None:
        super()._filter(text)
        combo = getattr(self, "table", None)
        table_id = combo.currentData() if combo is not None else ""
        if not table_id:
            return
        on = {t.id for t in [self.doc.catalog.item("enhancement_tables", table_id)] if t is not None}
        places = _places(self.doc.catalog)
        for i in range(self.list.count()):
            entry = self.list.item(i)
            tables = {t.id for t, _ in places.get(entry.data(Qt.ItemDataRole.UserRole), [])}
            if not tables & on:
                entry.setHidden(True)

    def _show(self, entry: QListWidgetItem | None) -> None:
        if entry is None:
            self.detail.clear()
            return
        item = self.doc.catalog.item("enhancements", entry.data(Qt.ItemDataRole.UserRole))
        if not isinstance(item, sf.Enhancement):
            return
        opened = _opened_by(self.doc.catalog)
        parts = [f"<b>{html.escape(item.name)}</b>", f"Costs {_cost_text(item)}."]
        for table, roll in _places(self.doc.catalog).get(item.id, []):
            how = f"{html.escape(table.name)}: roll {roll}"
            if table.id in opened:
                parent, parent_roll = opened[table.id]
                how += f" (reached by a {parent_roll} on the {html.escape(parent.name)})"
            parts.append(how)
        if item.notes:
            parts.append(f"<i>Notes:</i> {html.escape(item.notes)}")
        parts.append(f"<span style='color: gray'>Source: {html.escape(self.doc.catalog.cite(item.source))}</span>")
        self.detail.setHtml("<br>".join(parts))


class TableBrowser(CatalogBrowser):
    """A catalog browser whose entries say where they are on their table ("d10: 3", "D100: 11-15")."""

    def __init__(self, doc: Document, kind: str, noun: str, one: str, where: Callable[[Any], str]) -> None:
        self.where = where
        super().__init__(doc, kind, noun, one)

    def populate(self) -> None:
        super().populate()
        for i in range(self.list.count()):
            entry = self.list.item(i)
            item = self.doc.catalog.item(self.kind, entry.data(Qt.ItemDataRole.UserRole))
            where = self.where(item) if item is not None else ""
            text = f"{item.name}   {where}" if item is not None and where else entry.text()
            if entry.text() != text:
                entry.setText(text)


def _skill_place(item: Any) -> str:
    if isinstance(item, sf.PilotSkill):
        return f"d10: {item.roll}" if item.roll is not None else "every pilot's first"
    return ""


def _quirk_place(item: Any) -> str:
    if isinstance(item, sf.Quirk):
        need = f", {item.requires_reputation} only" if item.requires_reputation else ""
        return f"D100: {item.low}-{item.high}{need}"
    return ""


class LabelledList(ListEditor):
    """A list editor with read-only columns (kind "label") whose text the caller gives.

    Focusing a row whose cell cannot take the focus (a name) focuses the table on that row.
    """

    def __init__(
        self, *args: Any, label_text: Callable[[str, int, Any], tuple[str, str]] | None = None, **kwargs: Any
    ) -> None:
        self.label_text = label_text or (lambda _field, _row, _entry: ("", ""))
        super().__init__(*args, **kwargs)

    def focus_path(self, path: str) -> bool:
        if not super().focus_path(path):
            return False
        w = self.cellWidget(self.currentRow(), self.currentColumn())
        if w is None or w.focusPolicy() == Qt.FocusPolicy.NoFocus:
            self.setFocus()
        return True

    def _make(self, row: int, col: Column, entry: dict[str, Any]) -> QWidget:
        if col.kind != "label":
            return super()._make(row, col, entry)
        label = QLabel()
        label.setAccessibleName(f"{col.header} of {self.name_of(entry)}")
        label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        label.setContentsMargins(4, 0, 4, 0)
        return label

    def refresh(self) -> None:
        super().refresh()
        for r, entry in enumerate(self.entries()):
            for c, col in enumerate(self.columns):
                w = self.cellWidget(r, c)
                if col.kind == "label" and isinstance(w, QLabel):
                    text, tip = self.label_text(col.field, r, entry)
                    if w.text() != text:
                        w.setText(text)
                    w.setToolTip(tip)
        self.resizeColumnsToContents()
        self.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)


class SeedField(QWidget):
    """A seed: digits, with a button for a new one."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__()
        self.edit = QLineEdit(str(seed if seed is not None else random.SystemRandom().randrange(2**32)))
        self.edit.setValidator(QRegularExpressionValidator(QRegularExpression(r"^\d{1,18}$"), self.edit))
        self.edit.setAccessibleName("Seed")
        self.edit.setToolTip("The same seed rolls the same result")
        again = QPushButton("&New seed")
        again.clicked.connect(lambda: self.edit.setText(str(random.SystemRandom().randrange(2**32))))
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.edit, 1)
        lay.addWidget(again)

    def seed(self) -> int:
        return min(int(self.edit.text() or 0), MAX_SEED)


class _RollDialog(QDialog):
    def __init__(self, title: str, note: str) -> None:
        super().__init__(QApplication.activeWindow())
        self.setWindowTitle(title)
        self.setMinimumWidth(520)
        self.form = QFormLayout(self)
        lab = QLabel(note, wordWrap=True)
        self.form.addRow(lab)
        self.seed = SeedField()

    def _finish(self) -> None:
        row(self.form, "&Seed", self.seed)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText("&Roll")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.form.addRow(buttons)


class RollFighterDialog(_RollDialog):
    """How many enhancements to roll, the seed, and what to take on a "Pick 1 Result"."""

    def __init__(self, enhancements: int) -> None:
        super().__init__(
            "Roll a fighter at random",
            "Each enhancement is a d10 on the Primary Enhancements Table (and on a sub-table where it says so). "
            "The roll replaces the fighter's enhancements as one step you can undo.",
        )
        self.count = QSpinBox()
        self.count.setRange(0, sf.MAX_ROLLED)
        self.count.setValue(enhancements or 5)
        row(self.form, "&Enhancements", self.count, "How many enhancements to roll: the fighter's cost follows")
        self.picks = QLineEdit(placeholderText="e.g. Rail Gun, Turret")
        row(
            self.form,
            "&Picks",
            self.picks,
            "What to take on a 'Pick 1 Result', in order, separated by commas; with none left a 10 is rolled again",
        )
        self._finish()

    def values(self) -> tuple[int, int, list[str]]:
        picks = [p.strip() for p in self.picks.text().split(",") if p.strip()]
        return self.count.value(), self.seed.seed(), picks


class RollPilotDialog(_RollDialog):
    """The level (or XP) to roll a pilot for, and the seed."""

    def __init__(self, catalog: Catalog, level: int) -> None:
        super().__init__(
            "Roll a pilot",
            "The pilot's skills are rolled on the Pilot Skills table, one a level after Basic Combat Pilot, "
            "with a quirk check at each level. The roll replaces the pilot's XP, skills and quirks as one step.",
        )
        table = sf.levels(catalog)
        self.level = QSpinBox()
        self.level.setRange(table[0].level if table else 1, table[-1].level if table else 1)
        self.level.setValue(max(self.level.minimum(), min(level, self.level.maximum())))
        row(self.form, "&Level", self.level, "The XP is the least the level needs")
        self.xp = QSpinBox()
        self.xp.setRange(0, 100_000)
        self.xp.setSpecialValueText("the level's")
        row(self.form, "or &XP", self.xp, "Give the XP instead of the level: the level follows from it")
        self._finish()

    def values(self) -> tuple[int, int | None, int | None]:
        """(seed, xp, level): the XP when given, else the level."""
        xp = self.xp.value() or None
        return self.seed.seed(), xp, None if xp is not None else self.level.value()


# --- the pages ------------------------------------------------------------------------------


class FurySteps(StepPages):
    """Builds the pages of one Space Fury design (by its kind) and keeps them in step."""

    def __init__(self, doc: Document, binder: Binder, report_error: Callable[[str], None]) -> None:
        super().__init__(doc, binder, report_error)
        self.kind: str = doc.design.kind
        self.lists: list[ListEditor] = []
        self.browsers: list[CatalogBrowser] = []
        self.tables: list[ReportTable] = []
        self.figure_boxes: list[FiguresBox] = []
        self.turrets: TurretSlots | None = None
        self.has_pilot: QCheckBox | None = None
        self.pilot_parts: QWidget | None = None
        self.has_published: QCheckBox | None = None
        self.published_fields: list[QWidget] = []
        self.rolled_labels: list[tuple[str, QLabel]] = []
        self.clear_buttons: list[tuple[str, QPushButton]] = []
        self.pilot_log: QGroupBox | None = None
        pages = {
            "fighter": [
                ("&1 Fighter", "fighter", self._fighter),
                ("&2 Enhancements", "enhancements", self._enhancements),
                ("&3 Pilot", "pilot", self._fighter_pilot),
                ("&4 Roll log", "rolls", self._fighter_rolls),
            ],
            "pilot": [
                ("&1 Pilot", "pilot", self._pilot),
                ("&2 Skills and quirks", "skills", lambda: self._skills_page("")),
                ("&3 Roll log", "rolls", self._pilot_rolls),
            ],
            "force": [
                ("&1 Force", "force", self._force),
                ("&2 Fighters", "fighters", self._force_fighters),
                ("&3 Reserve pilots", "pilots", self._force_pilots),
            ],
        }[self.kind]
        self.pages: list[tuple[str, Callable[[], QWidget]]] = [
            (title, self._built(name, factory)) for title, name, factory in pages
        ]

    # --- shared parts -----------------------------------------------------------------------

    def _preset(self, layout: QFormLayout) -> None:
        self.preset_row(layout, "Which reading of the rules applies (how missiles and special guns count)")

    def _notes(self, path: str = "notes") -> QGroupBox:
        box, layout = form("Notes")
        notes = self.binder.text(path, QPlainTextEdit())
        notes.setMaximumHeight(90)
        row(layout, "N&otes", notes)
        return box

    def _figures(self, title: str, ids: list[str], prefixes: tuple[str, ...] = ()) -> FiguresBox:
        box = FiguresBox(title, ids, prefixes)
        self.figure_boxes.append(box)
        return box

    def _report_table(self, table_id: str, name: str, max_rows: int = 12, empty: str = "None.") -> ReportTable:
        t = ReportTable(table_id, name, max_rows, empty)
        self.tables.append(t)
        return t

    def _titled(self, title: str, *widgets: QWidget) -> QGroupBox:
        """A titled group; a report table brings the line it shows when it is empty."""
        box = QGroupBox(title)
        lay = QVBoxLayout(box)
        for w in widgets:
            lay.addWidget(w)
            if isinstance(w, ReportTable):
                lay.addWidget(w.placeholder)
        return box

    def _buttons(self, *buttons: QPushButton) -> QWidget:
        bar = QWidget()
        lay = QHBoxLayout(bar)
        lay.setContentsMargins(0, 0, 0, 0)
        for b in buttons:
            lay.addWidget(b)
        lay.addStretch(1)
        return bar

    def _chooser(
        self,
        kind: str,
        noun: str,
        one: str,
        path: str,
        columns: list[Column],
        name_of: Callable[[Any], str],
        add: Callable[[str], None],
        browser: CatalogBrowser | None = None,
        label_text: Callable[[str, int, Any], tuple[str, str]] | None = None,
    ) -> tuple[QWidget, ListEditor]:
        """A catalog browser beside the list it adds to."""
        browser = browser or CatalogBrowser(self.doc, kind, noun, one)
        editor = LabelledList(self.doc, path, columns, name_of, self.report_error, add, label_text=label_text)
        browser.add_requested.connect(add)
        self.binder.focuser(path, editor.focus_path)
        self.lists.append(editor)
        self.browsers.append(browser)
        return browser_with_list(browser, editor), editor

    def _name_of(self, kind: str) -> Callable[[Any], str]:
        def name_of(entry: Any) -> str:
            item_id = entry.get("id", "") if isinstance(entry, dict) else str(entry)
            item = self.doc.catalog.item(kind, item_id)
            return item.name if item else item_id

        return name_of

    # --- a fighter ------------------------------------------------------------------------

    def _fighter(self) -> QWidget:
        b = self.binder
        box, layout = form("Space Fury fighter")
        row(layout, "&Name", b.line("name", QLineEdit()))
        self._preset(layout)
        pub, playout = form("Published figures (the sample fighters)")
        self.has_published = QCheckBox("Compare with the enhancement count the source &publishes")
        self.has_published.toggled.connect(self._toggle_published)
        playout.addRow(self.has_published)
        count = QSpinBox()
        count.setRange(0, 1000)
        self.published_fields = [
            row(playout, "Published &enhancements", b.spin("published.enhancements", count)),
            row(playout, "Published &systems", b.line("published.systems", QLineEdit()), "As the source prints them"),
        ]
        figures = self._figures(
            "What it is (from the rules)",
            [
                "enhancements",
                "cost",
                "speed",
                "maneuver",
                "armor",
                "tohit",
                "detection",
                "shields",
                "seats",
                "targets",
                "fuel",
                "oxygen",
                "total-cost",
            ],
            ("boost-",),
        )
        return page(box, figures, pub, self._notes())

    def _toggle_published(self, on: bool) -> None:
        d = self.doc.design.root
        if on and d.published is None:
            count = _figures(self.doc.report).get("enhancements")
            value = {"enhancements": count.value if count else 0, "systems": ""}
            self._error(self.doc.edit("published", value, merge=False, text="Add published figures"))
        elif not on and d.published is not None:
            self._error(self.doc.edit("published", None, merge=False, text="Remove published figures"))

    def _enhancements(self) -> QWidget:
        help_ = QLabel(
            "A fighter's cost follows from its number of enhancements (the Fighter Cost table). Pick them from "
            "the three d10 tables (the Special Weapon and Special Systems tables are reached through the Primary "
            "table), or roll them at random. Adding an enhancement the fighter has counts one more.",
            wordWrap=True,
        )
        self.summary = QLabel()
        self.summary.setAccessibleName("Enhancements and cost")
        roll = QPushButton("&Roll at random…")
        roll.setToolTip("Roll the enhancements on the tables with a seed (replaces them; one undo step)")
        roll.clicked.connect(self.roll_fighter)
        top = QWidget()
        tl = QHBoxLayout(top)
        tl.setContentsMargins(0, 0, 0, 0)
        tl.addWidget(self.summary, 1)
        tl.addWidget(roll)
        columns = [
            Column("Enhancement", "id", "name"),
            Column("Count", "count", "spin", 1, sf.MAX_COUNT),
            Column("Counts", "counts", "label"),
            Column("Replaces the basic Laser", "replaces_basic", "check", enabled=self._may_replace),
        ]
        chooser, self.enhancement_list = self._chooser(
            "enhancements",
            "enhancements",
            "enhancement",
            "enhancements",
            columns,
            self._name_of("enhancements"),
            self._add_enhancement,
            EnhancementBrowser(self.doc),
            self._counts,
        )
        self.enhancement_list.setToolTip(
            "Count: how many (for missiles, how many missiles). Counts: the enhancements the entry counts."
        )
        self.turrets = TurretSlots(self.doc, self.report_error)
        self.binder.focuser("enhancements", self._focus_enhancement)
        weapons = self._report_table("weapons", "Weapons the fighter carries")
        systems = self._report_table("systems", "Systems", 30)
        return page(
            help_,
            top,
            chooser,
            self.turrets,
            self._titled("Weapons (from the rules)", weapons),
            self._titled("Systems", systems),
        )

    def _may_replace(self, entry: dict[str, Any]) -> bool:
        """A special gun may be marked as replacing the basic Laser (the engine says which)."""
        return bool(entry.get("replaces_basic")) or sf.may_replace_basic(str(entry.get("id", "")), self.doc.catalog)

    def _counts(self, _field: str, index: int, _entry: Any) -> tuple[str, str]:
        """What an enhancement entry counts, from the parts of the report's counted Enhancements."""
        counted = self.doc.report.derived.figure("enhancements")
        lines = counted.parts_at(f"enhancements[{index}]") if counted else []
        cost = sum(i.amount for i in lines if i.kind == "cost")
        gain = sum(i.amount for i in lines if i.kind == "gain")
        text = f"{cost:g}" + (f" − {gain:g}" if gain else "")
        return text, line_text(lines, cost="+", gain="-")

    def _add_enhancement(self, item_id: str) -> None:
        item = self.doc.catalog.item("enhancements", item_id)
        if not isinstance(item, sf.Enhancement):
            return
        index, count = sf.one_more(self.doc.design.root, item)
        if index is not None:
            path = f"enhancements[{index}].count"
            self._error(self.doc.edit(path, count, merge=False, text=f"Add another {item.name}"))
        else:
            entry = {"id": item_id, "count": count} if count != 1 else {"id": item_id}
            self._error(self.doc.insert("enhancements", entry, text=f"Add {item.name}"))

    def _focus_enhancement(self, path: str) -> bool:
        if self.turrets is not None and self.turrets.focus_path(path):
            return True
        return self.enhancement_list.focus_path(path)

    def roll_fighter(self) -> None:
        """Roll the enhancements with a seed: they, the seed and the roll log change in one step."""
        count = _figures(self.doc.report).get("enhancements")
        answer = self.ask_fighter_roll(count.value if count and isinstance(count.value, int) else 5)
        if answer is None:
            return
        n, seed, picks = answer
        try:
            rolled = sf.roll_fighter(self.doc.catalog, n, seed, name=self.doc.design.name, picks=picks)
        except InputError as exc:
            self.report_error(str(exc))
            return
        body = _body(rolled)
        changes = {"enhancements": body["enhancements"], "seed": seed, "rolls": body["rolls"]}
        self._error(self.doc.edit_many(changes, f"Roll {n} enhancements (seed {seed})"))

    def ask_fighter_roll(self, enhancements: int) -> tuple[int, int, list[str]] | None:
        """(enhancements, seed, picks), or None when cancelled (tests patch this)."""
        dlg = RollFighterDialog(enhancements)
        return dlg.values() if dlg.exec() == QDialog.DialogCode.Accepted else None

    def _fighter_pilot(self) -> QWidget:
        self.has_pilot = QCheckBox("This fighter has a &pilot at its controls")
        self.has_pilot.setToolTip("A crewed fighter costs the fighter plus the pilot's XP")
        self.has_pilot.toggled.connect(self._toggle_pilot)
        parts = QWidget()
        lay = QVBoxLayout(parts)
        lay.setContentsMargins(0, 0, 0, 0)
        box, layout = form("Pilot")
        self._pilot_fields(layout, "pilot.")
        lay.addWidget(box)
        lay.addWidget(self._pilot_figures())
        lay.addWidget(self._skills_and_quirks("pilot."))
        lay.addWidget(self._notes("pilot.notes"))
        self.pilot_parts = parts
        return page(self.has_pilot, parts)

    def _toggle_pilot(self, on: bool) -> None:
        root = self.doc.design.root
        if on and root.pilot is None:
            pilot = sf.new_pilot(self.doc.catalog).model_dump(mode="json")
            self._error(self.doc.edit("pilot", pilot, merge=False, text="Add a pilot"))
        elif not on and root.pilot is not None:
            self._error(self.doc.edit("pilot", None, merge=False, text="Remove the pilot"))

    def _fighter_rolls(self) -> QWidget:
        help_ = QLabel(
            "A rolled design keeps its seed and every die roll, so the same seed rolls it again. "
            "Changing it by hand afterwards leaves the log as it was rolled.",
            wordWrap=True,
        )
        roll = QPushButton("&Roll at random…")
        roll.clicked.connect(self.roll_fighter)
        fighter = self._log_box("Fighter roll log", "", "rolls", roll)
        roll_pilot = QPushButton("R&oll pilot…")
        roll_pilot.clicked.connect(lambda: self.roll_pilot("pilot."))
        self.pilot_log = self._log_box("Pilot roll log", "pilot.", "pilot-rolls", roll_pilot)
        return page(help_, fighter, self.pilot_log)

    def _log_box(self, title: str, base: str, table_id: str, roll: QPushButton) -> QGroupBox:
        """A roll log: with what seed, every roll, and buttons to roll again or forget it."""
        rolled = QLabel()
        rolled.setAccessibleName(f"{title}: rolled with")
        self.rolled_labels.append((base, rolled))
        clear = QPushButton("&Clear the roll log" if not base else "Clear the pilot's roll &log")
        clear.setToolTip("Forget the seed and the rolls (what they gave stays)")
        clear.clicked.connect(lambda: self._clear_log(base))
        self.clear_buttons.append((base, clear))
        log = self._report_table(table_id, title, 60, "No rolls.")
        return self._titled(title, rolled, self._buttons(roll, clear), log)

    def _clear_log(self, base: str) -> None:
        self._error(self.doc.edit_many({f"{base}seed": None, f"{base}rolls": []}, "Clear the roll log"))

    # --- a pilot (its own design, or a fighter's) ----------------------------------------------

    def _pilot_fields(self, layout: QFormLayout, base: str) -> None:
        b = self.binder
        row(layout, "Pilot &name" if base else "&Name", b.line(f"{base}name", QLineEdit()))
        xp = QSpinBox()
        xp.setRange(0, 100_000)
        row(layout, "&XP", b.spin(f"{base}xp", xp), "Experience points: the level follows, and the pilot costs its XP")
        level = QSpinBox()
        level.setRange(0, 1000)
        level.setSpecialValueText("from the XP")
        row(
            layout,
            "&Level claimed",
            b.spin(f"{base}level", level, none_value=0),
            "Leave at 'from the XP' unless the pilot plays at a level of its own; it needs that level's XP",
        )
        roll = QPushButton("R&oll pilot…")
        roll.setToolTip("Roll the skills and quirks for a level with a seed (replaces them; one undo step)")
        roll.clicked.connect(lambda: self.roll_pilot(base))
        layout.addRow("", roll)

    def _pilot_figures(self) -> FiguresBox:
        return self._figures(
            "Level, reputation and Cool (from the Pilot Level Table)",
            ["level", "xp", "reputation", "cool", "skills-allowed", "pilot-cost", "total-cost"],
        )

    def _skills_and_quirks(self, base: str) -> QWidget:
        skill_columns = [Column("Skill", "id", "name")]
        skills, _ = self._chooser(
            "pilot_skills",
            "pilot skills",
            "skill",
            f"{base}skills",
            skill_columns,
            self._name_of("pilot_skills"),
            lambda i: self._add_to(f"{base}skills", "pilot_skills", i),
            TableBrowser(self.doc, "pilot_skills", "pilot skills", "skill", _skill_place),
        )
        quirks, _ = self._chooser(
            "quirks",
            "quirks",
            "quirk",
            f"{base}quirks",
            [Column("Quirk", "id", "name")],
            self._name_of("quirks"),
            lambda i: self._add_to(f"{base}quirks", "quirks", i),
            TableBrowser(self.doc, "quirks", "quirks", "quirk", _quirk_place),
        )
        help_ = QLabel(
            "Skills: one a level. The first is always Basic Combat Pilot; the rest come from the d10 Pilot Skills "
            "table, and a skill taken twice counts twice. Quirks: a check at each level (D100 Quirk Table).",
            wordWrap=True,
        )
        modifiers = self._report_table("modifiers", "Skill and quirk modifiers")
        box = QWidget()
        lay = QVBoxLayout(box)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(help_)
        lay.addWidget(self._titled("Skills", skills))
        lay.addWidget(self._titled("Quirks", quirks))
        lay.addWidget(self._titled("Skill and quirk modifiers (from the rules)", modifiers))
        return box

    def _add_to(self, path: str, kind: str, item_id: str) -> None:
        self._error(self.doc.insert(path, item_id, text=f"Add {self._item_name(kind, item_id)}"))

    def _item_name(self, kind: str, item_id: str) -> str:
        item = self.doc.catalog.item(kind, item_id)
        return item.name if item else item_id

    def _pilot(self) -> QWidget:
        box, layout = form("Space Fury pilot")
        self._pilot_fields(layout, "")
        self._preset(layout)
        return page(box, self._pilot_figures(), self._notes())

    def _skills_page(self, base: str) -> QWidget:
        return page(self._skills_and_quirks(base))

    def _pilot_rolls(self) -> QWidget:
        roll = QPushButton("R&oll pilot…")
        roll.clicked.connect(lambda: self.roll_pilot(""))
        return page(self._log_box("Pilot roll log", "", "pilot-rolls", roll))

    def roll_pilot(self, base: str) -> None:
        """Roll a pilot's skills and quirks with a seed: one step. ``base``: "" or "pilot."."""
        design = self.doc.design
        level = _figures(self.doc.report).get("level")
        answer = self.ask_pilot_roll(level.value if level and isinstance(level.value, int) else 1)
        if answer is None:
            return
        seed, xp, lv = answer
        name = get_at(design, f"{base}name") if _exists(design, f"{base}name") else ""
        try:
            rolled = sf.roll_pilot(self.doc.catalog, seed, xp=xp, level=lv, name=name or "")
        except InputError as exc:
            self.report_error(str(exc))
            return
        body = _body(rolled)
        fields = {k: body[k] for k in ("xp", "level", "skills", "quirks", "seed", "rolls")}
        text = f"Roll pilot (seed {seed})"
        if base:
            current = get_at(design, base.rstrip(".")) if _exists(design, base.rstrip(".")) else None
            pilot = {**(current or {"name": body["name"]}), **fields}
            self._error(self.doc.edit(base.rstrip("."), pilot, merge=False, text=text))
        else:
            self._error(self.doc.edit_many(fields, text))

    def ask_pilot_roll(self, level: int) -> tuple[int, int | None, int | None] | None:
        """(seed, xp, level), or None when cancelled (tests patch this)."""
        dlg = RollPilotDialog(self.doc.catalog, level)
        return dlg.values() if dlg.exec() == QDialog.DialogCode.Accepted else None

    # --- a force --------------------------------------------------------------------------

    def _force(self) -> QWidget:
        b = self.binder
        box, layout = form("Space Fury force")
        row(layout, "&Name", b.line("name", QLineEdit()))
        levels = QSpinBox()
        levels.setRange(-1, 100_000)
        levels.setSpecialValueText("no limit")
        row(
            layout,
            "Pilot &levels",
            b.spin("pilot_levels", levels, none_value=-1),
            "Levels worth of pilots the side has (a Skirmish gives them); the pilots' levels add up to it",
        )
        self._preset(layout)
        figures = self._figures("The force (from the rules)", ["fighters", "pilots", "pilot-levels", "total-cost"])
        roster = self._report_table("roster", "Roster", 40)
        reserves = self._report_table("reserves", "Reserve pilots", 40)
        return page(
            box, figures, self._titled("Roster", roster), self._titled("Reserve pilots", reserves), self._notes()
        )

    def _force_fighters(self) -> QWidget:
        help_ = QLabel(
            "The force's fighters, each with its pilot. Add a sample fighter, or a fighter design from a file "
            "(a force file adds all of its fighters and pilots). Crew a fighter with one of the reserve pilots.",
            wordWrap=True,
        )
        samples = QListWidget()
        samples.setAccessibleName("Sample fighters")
        try:  # read once: the samples of every catalog folder, house rules' included
            self.samples = sf.sample_fighters(self.doc.catalog)
        except InputError as exc:  # a broken sample in a user's catalog folder
            self.samples = {}
            unreadable = QListWidgetItem(f"Cannot read the sample fighters: {exc}")
            unreadable.setFlags(Qt.ItemFlag.NoItemFlags)
            samples.addItem(unreadable)
        for stem, fighter in sorted(self.samples.items(), key=lambda kv: kv[1].name):
            item = QListWidgetItem(fighter.name)
            item.setData(Qt.ItemDataRole.UserRole, stem)
            samples.addItem(item)
        samples.itemActivated.connect(lambda i: self.add_sample_fighter(i.data(Qt.ItemDataRole.UserRole)))
        self.sample_list = samples
        add_sample = QPushButton("&Add sample fighter")
        add_sample.clicked.connect(self._add_selected_sample)
        add_file = QPushButton("Add from a &file…")
        add_file.clicked.connect(self.add_from_file)
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        label = QLabel("Sample fighters")
        label.setBuddy(samples)
        for w in (label, samples, add_sample, add_file):
            ll.addWidget(w)
        columns = [
            Column("Fighter", "name", "line"),
            Column("Pilot", "pilot.name", "line", enabled=lambda e: e.get("pilot") is not None),
            Column("Pilot XP", "pilot.xp", "spin", 0, 100_000, enabled=lambda e: e.get("pilot") is not None),
        ]
        fighters = ListEditor(self.doc, "fighters", columns, lambda _e: "fighter", self.report_error)
        self.binder.focuser("fighters", fighters.focus_path)
        self.lists.append(fighters)

        crew_box, crew_form = form("Crew")
        self.crew_fighter = QComboBox()
        row(crew_form, "Fi&ghter", self.crew_fighter)
        self.crew_with = QComboBox()
        row(crew_form, "Reserve pi&lot", self.crew_with, "Takes the controls; a pilot already there goes to reserve")
        crew = QPushButton("C&rew the fighter with the pilot")
        crew.clicked.connect(self.crew_selected)
        unseat = QPushButton("&Move the fighter's pilot to the reserves")
        unseat.clicked.connect(self.unseat_selected)
        crew_form.addRow("", self._buttons(crew, unseat))
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(fighters)
        split = QWidget()
        split.setMinimumHeight(340)
        sl = QHBoxLayout(split)
        sl.setContentsMargins(0, 0, 0, 0)
        sl.addWidget(left, 2)
        sl.addWidget(right, 3)
        return page(help_, split, crew_box)

    def _add_selected_sample(self) -> None:
        item = self.sample_list.currentItem()
        if item is None:
            self.report_error("select a sample fighter to add")
            return
        self.add_sample_fighter(item.data(Qt.ItemDataRole.UserRole))

    def add_sample_fighter(self, stem: str) -> None:
        fighter = self.samples.get(stem)
        if fighter is not None:
            data = fighter.model_dump(mode="json")
            self._error(self.doc.insert("fighters", data, text=f"Add {fighter.name}"))

    def ask_design_file(self) -> Path | None:
        """A design file to add (tests patch this)."""
        name, _ = QFileDialog.getOpenFileName(
            QApplication.activeWindow(), "Add a design", "", f"Shipyard designs (*{EXTENSION});;All files (*)"
        )
        return Path(name) if name else None

    def add_from_file(self) -> None:
        path = self.ask_design_file()
        if path is None:
            return
        # read against the force's own catalog layers (its house rules), not whatever is the default now
        layers = tuple(folder.parent for folder in self.doc.catalog.folders[1:])
        try:
            loaded = load_design(path, catalog_folders=layers, use_user_folder=False)
        except InputError as exc:
            self.report_error(str(exc))
            return
        if loaded.ruleset != RULESET:
            self.report_error(f"{path.name} is a {loaded.ruleset} design, not a Space Fury one")
            return
        root = loaded.design.root
        force = self.doc.design.root
        body = _body(loaded.design)
        if isinstance(root, sf.FighterDesign):
            self._error(self.doc.insert("fighters", body, text=f"Add {root.name}"))
        elif isinstance(root, sf.PilotDesign):
            self._error(self.doc.insert("pilots", body, text=f"Add {root.name}"))
        else:
            fighters = [f.model_dump(mode="json") for f in (*force.fighters, *root.fighters)]
            pilots = [p.model_dump(mode="json") for p in (*force.pilots, *root.pilots)]
            self._error(self.doc.edit_many({"fighters": fighters, "pilots": pilots}, f"Add {root.name}"))

    def crew_selected(self) -> None:
        force = self.doc.design.root
        i, j = self.crew_fighter.currentData(), self.crew_with.currentData()
        if not isinstance(i, int) or not 0 <= i < len(force.fighters):
            self.report_error("choose a fighter to crew")
            return
        if not isinstance(j, int) or not 0 <= j < len(force.pilots):
            self.report_error("the force has no reserve pilot to crew it with: add one on the Reserve pilots page")
            return
        fighter = force.fighters[i]
        pilots = [p.model_dump(mode="json") for p in force.pilots]
        pilot = pilots.pop(j)
        if fighter.pilot is not None:
            pilots.append(fighter.pilot.model_dump(mode="json"))
        name = pilot.get("name") or "the pilot"
        self._error(
            self.doc.edit_many({f"fighters[{i}].pilot": pilot, "pilots": pilots}, f"Crew {fighter.name} with {name}")
        )

    def unseat_selected(self) -> None:
        force = self.doc.design.root
        i = self.crew_fighter.currentData()
        if not isinstance(i, int) or not 0 <= i < len(force.fighters) or force.fighters[i].pilot is None:
            self.report_error("choose a fighter with a pilot")
            return
        fighter = force.fighters[i]
        pilots = [p.model_dump(mode="json") for p in force.pilots]
        pilots.append(fighter.pilot.model_dump(mode="json") if fighter.pilot else {})
        self._error(
            self.doc.edit_many({f"fighters[{i}].pilot": None, "pilots": pilots}, f"Move {fighter.name}'s pilot")
        )

    def _force_pilots(self) -> QWidget:
        help_ = QLabel(
            "Pilots the force has beyond those at the controls. Each costs its XP; roll one for a level, or add one "
            "from a pilot design file.",
            wordWrap=True,
        )
        columns = [
            Column("Pilot", "name", "line"),
            Column("XP", "xp", "spin", 0, 100_000),
            Column("Level", "level", "label"),
            Column("Skills", "skills", "label"),
        ]
        pilots = LabelledList(
            self.doc, "pilots", columns, lambda _e: "pilot", self.report_error, label_text=self._reserve_text
        )
        self.binder.focuser("pilots", pilots.focus_path)
        self.lists.append(pilots)
        add = QPushButton("&Add a level 1 pilot")
        add.clicked.connect(self.add_reserve_pilot)
        roll = QPushButton("R&oll a pilot…")
        roll.clicked.connect(self.roll_reserve_pilot)
        add_file = QPushButton("Add from a &file…")
        add_file.clicked.connect(self.add_from_file)
        return page(help_, pilots, self._buttons(add, roll, add_file))

    def _reserve_text(self, field: str, index: int, _entry: Any) -> tuple[str, str]:
        t = self.doc.report.derived.table("reserves")
        if t is None or index >= len(t.rows):
            return "", ""
        if field == "level":
            return str(t.rows[index][1]), f"Cool {t.rows[index][2]}"
        pilot = self.doc.design.root.pilots[index]
        names = ", ".join(self._item_name("pilot_skills", s) for s in pilot.skills)
        return str(len(pilot.skills)), names

    def add_reserve_pilot(self) -> None:
        name = f"Pilot {len(self.doc.design.root.pilots) + 1}"
        pilot = sf.new_pilot(self.doc.catalog, name).model_dump(mode="json")
        self._error(self.doc.insert("pilots", pilot, text="Add a pilot"))

    def roll_reserve_pilot(self) -> None:
        answer = self.ask_pilot_roll(1)
        if answer is None:
            return
        seed, xp, level = answer
        try:
            rolled = sf.roll_pilot(self.doc.catalog, seed, xp=xp, level=level)
        except InputError as exc:
            self.report_error(str(exc))
            return
        self._error(self.doc.insert("pilots", _body(rolled), text=f"Roll a pilot (seed {seed})"))

    # --- syncing ----------------------------------------------------------------------------

    def refresh(self) -> None:
        """Bring the widgets of the built pages in step with the document."""
        design, report = self.doc.design, self.doc.report
        root = design.root
        self.refresh_presets()
        if self.has_published is not None and isinstance(root, sf.FighterDesign):
            with quiet(self.has_published):
                self.has_published.setChecked(root.published is not None)
            for w in self.published_fields:
                w.setEnabled(root.published is not None)
        if self.has_pilot is not None and self.pilot_parts is not None and isinstance(root, sf.FighterDesign):
            with quiet(self.has_pilot):
                self.has_pilot.setChecked(root.pilot is not None)
            self.pilot_parts.setVisible(root.pilot is not None)
        if "enhancements" in self.built:
            figs = _figures(report)
            n, cost, total = figs.get("enhancements"), figs.get("cost"), figs.get("total-cost")
            crewed = ""
            if total and cost and total.value != cost.value:
                crewed = f" · with its pilot <b>{total.value} points</b>"
            self.summary.setText(
                f"<b>{n.value if n else 0} enhancements</b> → cost <b>{cost.value if cost else '—'} points</b>"
                + (f" <span style='color: gray'>({html.escape(cost.detail)})</span>" if cost and cost.detail else "")
                + crewed
            )
        for base, label in self.rolled_labels:
            seed = get_at(design, f"{base}seed") if _exists(design, f"{base}seed") else None
            rolls = get_at(design, f"{base}rolls") if _exists(design, f"{base}rolls") else []
            text = f"Rolled with seed <b>{seed}</b>: {len(rolls)} rolls." if seed is not None else ""
            label.setText(text or ("Not rolled: chosen by hand." if not rolls else f"{len(rolls)} rolls."))
        for base, button in self.clear_buttons:
            button.setEnabled(_exists(design, f"{base}rolls") and bool(get_at(design, f"{base}rolls")))
        if self.pilot_log is not None and isinstance(root, sf.FighterDesign):
            self.pilot_log.setVisible(root.pilot is not None)
        if self.turrets is not None:
            self.turrets.refresh()
        if self.kind == "force" and "fighters" in self.built:
            fighters = [
                (f"{f.name}: " + (f"flown by {f.pilot.name or 'a pilot'}" if f.pilot else "no pilot"), i)
                for i, f in enumerate(root.fighters)
            ]
            pilots = [(p.name or f"Reserve pilot {j + 1}", j) for j, p in enumerate(root.pilots)]
            _fill(self.crew_fighter, fighters)
            _fill(self.crew_with, pilots)
        for editor in self.lists:
            if _exists(design, editor.list_path):
                editor.refresh()
        for browser in self.browsers:
            browser.populate()
        for box in self.figure_boxes:
            box.show_report(report)
        for table in self.tables:
            table.show_report(report)


class TurretSlots(QGroupBox):
    """Which weapon each Turret carries: one choice a Turret, of the weapons it can carry."""

    def __init__(self, doc: Document, report_error: Callable[[str], None]) -> None:
        super().__init__("Turrets: the weapon each carries")
        self.doc, self.report_error = doc, report_error
        self.layout_ = QFormLayout(self)
        self.layout_.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.FieldsStayAtSizeHint)
        self.combos: dict[int, list[QComboBox]] = {}
        self._signature: tuple[Any, ...] | None = None
        self.setVisible(False)

    def refresh(self) -> None:
        root = self.doc.design.root
        if not isinstance(root, sf.FighterDesign):
            return
        catalog = self.doc.catalog
        # every figure here is the engine's: which entries mount weapons, how many, which kinds
        entries = sf.mount_entries(root, catalog)
        slots = [max(e.capacity, len(e.carried)) for e in entries]
        signature = tuple((e.purchase.index, e.purchase.choice.id, n) for e, n in zip(entries, slots, strict=True))
        if signature != self._signature:
            self._signature = signature
            while self.layout_.rowCount():
                self.layout_.removeRow(0)
            self.combos = {}
            for entry, n in zip(entries, slots, strict=True):
                name = entry.purchase.item.name if entry.purchase.item else entry.purchase.choice.id
                for k in range(n):
                    combo = QComboBox()
                    combo.addItem("(no weapon)", "")
                    for weapon in sf.mountable(entry.mount, catalog):
                        combo.addItem(weapon.name, weapon.id)
                    label = f"{name} {k + 1}" if n > 1 else name
                    combo.setToolTip(f"It carries a {' or '.join(entry.mount.tags)} the fighter has")
                    combo.activated.connect(lambda _i, e=entry.purchase.index: self._commit(e))
                    row(self.layout_, f"{label} carries", combo)
                    combo.setAccessibleName(f"Weapon of {label}")
                    self.combos.setdefault(entry.purchase.index, []).append(combo)
        owned = sf.weapons_owned(root, catalog)
        for entry in entries:
            carried = entry.carried
            for k, combo in enumerate(self.combos.get(entry.purchase.index, [])):
                with quiet(combo):
                    for c in range(1, combo.count()):
                        wid = combo.itemData(c)
                        item = catalog.item("weapons", wid)
                        combo.setItemText(c, f"{item.name if item else wid} (the fighter has {owned.get(wid, 0)})")
                    combo.setCurrentIndex(max(0, combo.findData(carried[k] if k < len(carried) else "")))
        self.setVisible(bool(entries))

    def _commit(self, index: int) -> None:
        weapons = [c.currentData() for c in self.combos.get(index, []) if c.currentData()]
        error = self.doc.edit(f"enhancements[{index}].weapons", weapons, merge=False, text="Choose a turret's weapon")
        if error:
            self.report_error(error)
            self.refresh()

    def focus_path(self, path: str) -> bool:
        m = re.fullmatch(r"enhancements\[(\d+)\]\.weapons(?:\[(\d+)\])?", path)
        if m is None:
            return False
        combos = self.combos.get(int(m.group(1)), [])
        if not combos:
            return False
        k = min(int(m.group(2) or 0), len(combos) - 1)
        _reveal(combos[k])
        combos[k].setFocus()
        return True
