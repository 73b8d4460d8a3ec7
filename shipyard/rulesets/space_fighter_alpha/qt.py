"""Space Fighter Alpha's hand-written editor part: the Trinity vessel form (Appendix 2).

The one dialog of this ruleset a declared form cannot be: a vessel of another game typed
field by field, with the scale marks of Trinity's damage and a table of weapons, converted
when OK is pressed (and kept open with the engine's message when the vessel is refused).
The ruleset's manifest names it as its Trinity conversion's ``form``; the editor imports
this module only when the user opens the form. It uses PySide6 directly and never the
editor's own modules (the import contracts in pyproject.toml).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QIntValidator
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QTableWidget,
    QVBoxLayout,
    QWidget,
)

from shipyard.core.errors import InputError
from shipyard.core.model import Catalog
from shipyard.pointbuy.scales import ladder
from shipyard.rulesets.space_fighter_alpha.trinity import (
    ConversionResult,
    ConversionTable,
    TrinityVessel,
    convert_vessel,
    load_table,
    parse_vessel,
)

VESSEL_FIELDS = ("name", "vt", "tech", "cs", "ts", "vs", "handling", "mass", "tolerance", "cost", "soak", "notes")
MARK_TIP = "Scale mark of the damage: [5] Starfighter scale, [10] or more Starship scale; none: the vessel's scale"


@dataclass(frozen=True)
class TrinityInput:
    """What the Trinity form gives: the vessel, and what Trinity has no statistic for."""

    vessel: TrinityVessel
    structure: int | None = None
    power: int | None = None
    crew: int | None = None


class _MarkSpin(QSpinBox):
    """A scale mark: [5], [10] ... or none."""

    def __init__(self) -> None:
        super().__init__()
        self.setRange(0, 1000)
        self.setSingleStep(5)
        self.setPrefix("[")
        self.setSuffix("]")
        self.setSpecialValueText("none")

    def mark(self) -> int | None:
        return self.value() or None


def _spin(low: int, high: int, value: int = 0, width: int = 6) -> QSpinBox:
    s = QSpinBox()
    s.setRange(low, high)
    s.setValue(value)
    s.setMinimumWidth(s.fontMetrics().horizontalAdvance("0" * width) + 40)
    s.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
    return s


def _line(chars: int, placeholder: str = "") -> QLineEdit:
    e = QLineEdit()
    e.setPlaceholderText(placeholder)
    e.setMinimumWidth(e.fontMetrics().horizontalAdvance("m" * chars))
    return e


def _row(form: QFormLayout, text: str, widget: QWidget, name: str, tip: str = "", field: QWidget | None = None) -> None:
    """A form row whose label is the widget's buddy, with an accessible name and a tooltip."""
    label = QLabel(text)
    label.setBuddy(widget)
    widget.setAccessibleName(name)
    if tip:
        widget.setToolTip(tip)
        widget.setAccessibleDescription(tip)
        label.setToolTip(tip)
    form.addRow(label, field or widget)


def _loose(text: str) -> str | int | float:
    """A free field as a vessel file would hold it: a number when it is one, else the text."""
    text = text.strip()
    if re.fullmatch(r"[+-]?\d{1,15}", text):
        return int(text)
    if re.fullmatch(r"[+-]?\d{1,15}\.\d{1,15}", text):
        return float(text)
    return text


class WeaponTable(QTableWidget):
    """The vessel's weapons, one row each; every cell an editor with an accessible name."""

    COLUMNS = ("Name", "Count", "Accuracy", "Damage", "Mark", "Range", "Notes")
    WHAT = ("name", "count", "accuracy", "damage", "scale mark", "range", "notes")
    TIPS = (
        "The weapon's name; Smart Missiles and Fusion Warheads are recognised by name",
        "How many the vessel carries",
        "Trinity Accuracy (added to Damage)",
        "Trinity Damage (added to Accuracy)",
        MARK_TIP,
        "No conversion: kept in the weapon's notes",
        "Kept in the weapon's notes",
    )

    def __init__(self) -> None:
        super().__init__(0, len(self.COLUMNS))
        self.setHorizontalHeaderLabels(list(self.COLUMNS))
        for column, tip in enumerate(self.TIPS):
            head = self.horizontalHeaderItem(column)
            if head is not None:
                head.setToolTip(tip)
        self.verticalHeader().setVisible(False)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(6, QHeaderView.ResizeMode.Stretch)
        self._size_columns()
        self.setMinimumHeight(150)

    def _editors(self) -> list[QWidget]:
        return [
            _line(12, "e.g. Pulse Laser"),
            _spin(1, 100, 1, 3),
            _spin(-50, 50, 0, 3),
            _spin(-1000, 1000, 0, 4),
            _MarkSpin(),
            _line(6, "optional"),
            _line(10, "optional"),
        ]

    def _size_columns(self) -> None:
        """Columns as wide as their editors (cell widgets do not size a column by themselves)."""
        header = self.horizontalHeader()
        for column, widget in enumerate(self._editors()):
            if header.sectionResizeMode(column) != QHeaderView.ResizeMode.Stretch:
                header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
                wide = max(widget.sizeHint().width(), widget.minimumWidth())
                self.setColumnWidth(column, max(wide, header.sectionSizeHint(column)) + 4)
            widget.deleteLater()

    def add_weapon(self) -> int:
        row = self.rowCount()
        self.insertRow(row)
        for column, widget in enumerate(self._editors()):
            widget.setAccessibleName(f"Weapon {row + 1} {self.WHAT[column]}")
            widget.setToolTip(self.TIPS[column])
            self.setCellWidget(row, column, widget)
        self.resizeRowToContents(row)
        self.setCurrentCell(row, 0)
        return row

    def remove_weapon(self, row: int | None = None) -> None:
        row = self.currentRow() if row is None else row
        if 0 <= row < self.rowCount():
            self.removeRow(row)
            for r in range(self.rowCount()):  # keep the accessible names in step with the rows
                for c, what in enumerate(self.WHAT):
                    self.cellWidget(r, c).setAccessibleName(f"Weapon {r + 1} {what}")

    def cell(self, row: int, column: str) -> Any:
        return self.cellWidget(row, self.COLUMNS.index(column.capitalize()))

    def rows(self) -> list[dict[str, Any]]:
        out = []
        for r in range(self.rowCount()):
            w: dict[str, Any] = {
                "name": self.cell(r, "name").text().strip(),
                "accuracy": self.cell(r, "accuracy").value(),
                "damage": {"value": self.cell(r, "damage").value(), "mark": self.cell(r, "mark").mark()},
                "count": self.cell(r, "count").value(),
            }
            range_text = self.cell(r, "range").text().strip()
            if range_text:
                w["range"] = _loose(range_text)
            notes = self.cell(r, "notes").text().strip()
            if notes:
                w["notes"] = notes
            out.append(w)
        return out


class TrinityDialog(QDialog):
    """A Trinity vessel with the fields of the Appendix 2 table, plus Structure and Power.

    OK (Convert) checks the values with the engine and stays open with its message when
    they are refused, so nothing typed is lost.
    """

    def __init__(self, parent: QWidget | None, catalog: Catalog, table: ConversionTable | None = None) -> None:
        super().__init__(parent)
        self.catalog = catalog
        if table is None:
            table = load_table()
        self.table = table
        t = self.table
        self.setWindowTitle(f"Import {t.system} vessel")
        scales = {row.vt: ladder(catalog).parse(row.scale) for row in t.vehicle_types}

        # converted fields
        self.name = _line(24, "e.g. Kestrel-9 Interceptor")
        self.vt = QComboBox()
        for row in t.vehicle_types:
            scale = scales[row.vt]
            self.vt.addItem(f"{row.vt}  →  {scale.name if scale else row.scale} scale", row.vt)
            self.vt.setItemData(self.vt.count() - 1, row.source, Qt.ItemDataRole.ToolTipRole)
        self.vs = _spin(-1000, 1000, 0, 4)
        self.handling = _spin(-1000, 1000, 0, 4)
        self.soak = _spin(-1000, 1000, 0, 4)
        self.soak_mark = _MarkSpin()
        self.soak_mark.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.soak_mark.setMinimumWidth(self.soak_mark.fontMetrics().horizontalAdvance("[0000]") + 40)
        self.cost = _line(8, "not given")
        self.cost.setValidator(QIntValidator(0, 100_000_000, self.cost))
        self.cost.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        soak_box = QWidget()
        soak_lay = QHBoxLayout(soak_box)
        soak_lay.setContentsMargins(0, 0, 0, 0)
        soak_lay.addWidget(self.soak)
        mark_label = QLabel("scale mar&k")
        mark_label.setBuddy(self.soak_mark)
        self.soak_mark.setAccessibleName("Soak scale mark")
        self.soak_mark.setToolTip("[5] Starfighter scale, [10] or more Starship scale; none: the VT decides")
        soak_lay.addWidget(mark_label)
        soak_lay.addWidget(self.soak_mark)
        soak_lay.addStretch(1)
        per = " / ".join(
            f"{points} at {scale.name if (scale := ladder(catalog).parse(sid)) else sid} scale"
            for sid, points in t.cost.points_per_resource.items()
        )
        converted = QGroupBox("Converted")
        cf = QFormLayout(converted)
        _row(cf, "&Name", self.name, "Name")
        _row(cf, "Vehicle t&ype (VT)", self.vt, "Vehicle type (VT)", "The VT decides the scale")
        _row(cf, "&Vacuum speed (VS)", self.vs, "Vacuum speed (VS)", "Becomes Move")
        _row(cf, "&Handling", self.handling, "Handling", "Becomes Handling")
        _row(cf, "S&oak", self.soak, "Soak", "Becomes Soak", field=soak_box)
        _row(
            cf,
            "&Cost (construction points)",
            self.cost,
            "Cost (construction points)",
            f"Becomes Resources: one per {per} construction points, rounded up",
        )

        # kept as notes
        self.tech = QComboBox()
        self.tech.addItem("not given", None)
        for value in t.tech.values:
            self.tech.addItem(value, value)
        self.cs = _line(10, "e.g. 1,800 kph")
        self.ts = _line(10, "e.g. 9,000 kph")
        self.mass = _line(10, "e.g. 14 tons")
        self.tolerance = _line(10, "e.g. 6")
        notes = QGroupBox("Kept as notes (no conversion)")
        nf = QFormLayout(notes)
        for text, widget, name in (
            ("&Tech", self.tech, "Tech"),
            ("Cr&uising speed (CS)", self.cs, "Cruising speed (CS)"),
            ("Top spee&d (TS)", self.ts, "Top speed (TS)"),
            ("&Mass", self.mass, "Mass"),
            ("To&lerance", self.tolerance, "Tolerance"),
        ):
            _row(nf, text, widget, name, "No conversion: kept in the design's notes")

        # weapons
        self.weapons = WeaponTable()
        self.weapons.setAccessibleName("Weapons")
        weapons_label = QLabel(
            "Weapons  <span style='font-weight: normal'>(Accuracy + Damage becomes the attack modifier; "
            "[5] Starfighter scale, [10] or more Starship scale)</span>"
        )
        weapons_label.setBuddy(self.weapons)
        self.add_button = QPushButton("&Add weapon")
        self.add_button.setAccessibleName("Add a weapon")
        self.remove_button = QPushButton("&Remove weapon")
        self.remove_button.setAccessibleName("Remove the selected weapon")
        self.add_button.clicked.connect(self._add_weapon)
        self.remove_button.clicked.connect(self._remove_weapon)
        self.remove_button.setEnabled(False)
        weapon_buttons = QHBoxLayout()
        weapon_buttons.addWidget(self.add_button)
        weapon_buttons.addWidget(self.remove_button)
        weapon_buttons.addStretch(1)

        # what Trinity has no statistic for
        assumed = {row.stat: row for row in t.assumed}
        stats = {s.id: s for s in catalog.meta.stats}

        def stat_spin(stat: str, fallback: int) -> QSpinBox:
            s = stats.get(stat)
            low = s.min if s and s.min is not None else 0
            high = s.max if s and s.max is not None else 100_000
            row = assumed.get(stat)
            return _spin(low, high, row.value if row and row.value is not None else fallback, 4)

        self.structure = stat_spin("structure", 10)
        self.power = stat_spin("power", 5)
        crew_stat = stats.get("crew")
        self.crew = _spin(-1, crew_stat.max if crew_stat and crew_stat.max is not None else 100_000, -1, 10)
        self.crew.setSpecialValueText("guideline")
        sfa = QGroupBox(f"No {t.system} statistic: {catalog.meta.name} values")
        sf = QGridLayout(sfa)
        for r, (text, spin, name, stat) in enumerate(
            (
                ("&Structure", self.structure, "Structure", "structure"),
                ("&Power", self.power, "Power", "power"),
                ("Cre&w", self.crew, "Crew", "crew"),
            )
        ):
            label = QLabel(text)
            label.setBuddy(spin)
            spin.setAccessibleName(name)
            guess = assumed.get(stat)
            why = guess.why if guess else ""
            if stat == "crew" and why:
                why = f"guideline: {why}"
            hint = QLabel(why)
            hint.setWordWrap(True)
            spin.setAccessibleDescription(why)
            sf.addWidget(label, r, 0)
            sf.addWidget(spin, r, 1)
            sf.addWidget(hint, r, 2)
        sf.setColumnStretch(2, 1)

        self.notes = QPlainTextEdit()
        self.notes.setAccessibleName("Notes")
        self.notes.setPlaceholderText("kept in the design's notes")
        self.notes.setFixedHeight(self.notes.fontMetrics().lineSpacing() * 3 + 16)
        notes_label = QLabel("Not&es")
        notes_label.setBuddy(self.notes)

        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setAccessibleName("Problems")
        self.error.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error.setStyleSheet("color: white; background-color: #a40000; padding: 6px;")
        self.error.hide()

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText("Convert")
        ok.setAccessibleName(f"Convert the vessel to {catalog.meta.name}")
        cancel = self.buttons.button(QDialogButtonBox.StandardButton.Cancel)
        cancel.setAccessibleName("Cancel: convert nothing")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        top = QHBoxLayout()
        top.addWidget(converted, 3)
        top.addWidget(notes, 2)
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addWidget(weapons_label)
        lay.addWidget(self.weapons)
        lay.addLayout(weapon_buttons)
        lay.addWidget(sfa)
        lay.addWidget(notes_label)
        lay.addWidget(self.notes)
        lay.addWidget(self.error)
        lay.addWidget(self.buttons)
        self.resize(self.sizeHint().expandedTo(self.minimumSizeHint()).width() + 40, self.sizeHint().height())

    def _add_weapon(self) -> None:
        row = self.weapons.add_weapon()
        self.weapons.cell(row, "name").setFocus()
        self.remove_button.setEnabled(True)

    def _remove_weapon(self) -> None:
        self.weapons.remove_weapon()
        self.remove_button.setEnabled(self.weapons.rowCount() > 0)

    # --- the values --------------------------------------------------------------------------

    def vessel_data(self) -> dict[str, Any]:
        """The form as vessel data (the shape of a vessel file)."""
        data: dict[str, Any] = {
            "name": self.name.text().strip(),
            "vt": self.vt.currentData(),
            "vs": self.vs.value(),
            "handling": self.handling.value(),
            "soak": {"value": self.soak.value(), "mark": self.soak_mark.mark()},
        }
        if self.tech.currentData():
            data["tech"] = self.tech.currentData()
        for key, widget in (("cs", self.cs), ("ts", self.ts), ("mass", self.mass), ("tolerance", self.tolerance)):
            if widget.text().strip():
                data[key] = _loose(widget.text())
        cost = self.cost.text().strip()
        if cost:
            data["cost"] = int(cost) if cost.isdigit() else cost
        data["weapons"] = self.weapons.rows()
        notes = self.notes.toPlainText().strip()
        if notes:
            data["notes"] = notes
        return data

    def vessel(self) -> TrinityVessel:
        """The vessel the form describes; InputError with the engine's message if it is not one."""
        return parse_vessel(self.vessel_data(), file=f"{self.table.system} vessel form")

    def value(self) -> TrinityInput:
        """The vessel and the values Trinity has no statistic for.

        A value left at the table's default is not passed, so the report says it was
        assumed (as the command line does without --structure / --power / --crew).
        """
        defaults = {row.stat: row.value for row in self.table.assumed}
        structure, power, crew = self.structure.value(), self.power.value(), self.crew.value()
        return TrinityInput(
            self.vessel(),
            None if structure == defaults.get("structure") else structure,
            None if power == defaults.get("power") else power,
            None if crew < 0 else crew,
        )

    def check(self) -> InputError | None:
        """The engine's refusal when the form cannot be converted, or None."""
        try:
            v = self.value()
            convert_vessel(v.vessel, self.catalog, structure=v.structure, power=v.power, crew=v.crew, table=self.table)
        except InputError as exc:
            return exc
        return None

    def widget_at(self, path: str | None) -> QWidget | None:
        """The editor of a vessel path such as ``vt``, ``soak.mark`` or ``weapons[2].damage``."""
        m = re.fullmatch(r"weapons\[(\d+)\](?:\.(\w+))?(?:\.(\w+))?", path or "")
        if m:
            row = int(m.group(1))
            column = "mark" if m.group(3) == "mark" else (m.group(2) or "name")
            if row < self.weapons.rowCount() and column.capitalize() in WeaponTable.COLUMNS:
                self.weapons.setCurrentCell(row, WeaponTable.COLUMNS.index(column.capitalize()))
                return self.weapons.cell(row, column)  # type: ignore[no-any-return]
            return self.weapons
        key = (path or "").split(".")
        if key[0] == "soak" and key[-1] == "mark":
            return self.soak_mark
        found = getattr(self, key[0], None) if key[0] in VESSEL_FIELDS else None
        return found if isinstance(found, QWidget) else None

    def accept(self) -> None:
        problem = self.check()
        if problem is not None:
            self.error.setText(str(problem))
            self.error.show()
            target = self.widget_at(problem.problems[0].path if problem.problems else None)
            (target or self.error).setFocus()
            return
        self.error.hide()
        super().accept()

    def converted(self) -> ConversionResult:
        """The converted design (after the dialog was accepted: the values were checked)."""
        v = self.value()
        return convert_vessel(
            v.vessel, self.catalog, structure=v.structure, power=v.power, crew=v.crew, table=self.table
        )
