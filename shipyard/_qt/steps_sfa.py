"""The Space Fighter Alpha editor: the rules' five construction steps, plus forms.

Pages only bind widgets to design paths; what anything costs comes from the Report.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from shipyard._qt.binding import Binder
from shipyard._qt.document import Document
from shipyard._qt.forms import StepPages
from shipyard._qt.forms import form as _form
from shipyard._qt.forms import page as _page
from shipyard._qt.forms import quiet as _quiet
from shipyard._qt.forms import row as _row
from shipyard._qt.items import CatalogBrowser, Column, ListEditor, browser_with_list
from shipyard.rulesets.space_fighter_alpha.items import VirtualPilotEffect

PRIORITY_ORDERS = [
    ("handling", "soak", "move"), ("handling", "move", "soak"), ("soak", "handling", "move"),
    ("soak", "move", "handling"), ("move", "handling", "soak"), ("move", "soak", "handling"),
]  # fmt: skip


def _spin(doc: Document, stat: str, fallback: tuple[int, int]) -> QSpinBox:
    s = QSpinBox()
    low, high = fallback
    for st in doc.catalog.meta.stats:
        if st.id == stat:
            low = st.min if st.min is not None else low
            high = st.max if st.max is not None else high
    s.setRange(low, high)
    return s


class SfaSteps(StepPages):
    """Builds the pages and keeps them in step with the document."""

    def __init__(self, doc: Document, binder: Binder, report_error: Callable[[str], None]) -> None:
        super().__init__(doc, binder, report_error)
        self.lists: list[ListEditor] = []
        self.browsers: list[CatalogBrowser] = []
        # Pages are built on demand (the view builds the first at once, the rest right
        # after the window shows), so opening a design does not wait for every step.
        self.pages: list[tuple[str, Callable[[], QWidget]]] = [
            ("&1 Concept and scale", self._built("concept", self._concept)),
            ("&2 Attributes", self._built("attributes", self._attributes)),
            ("&3 Weapons", self._built("weapons", self._weapons)),
            ("&4 Advanced technology", self._built("technology", self._technology)),
            ("&5 Finishing touches", self._built("finishing", self._finishing)),
            ("&6 Forms", self._built("forms", self._forms)),
        ]

    # --- step 1 ---------------------------------------------------------------------------

    def _concept(self) -> QWidget:
        box, form = _form("Step One: Concept")
        b = self.binder
        _row(form, "&Name", b.line("name", QLineEdit()))
        concept = b.text("concept", QPlainTextEdit())
        concept.setMaximumHeight(70)
        _row(form, "C&oncept", concept, "Is it a fast but light interceptor? A slow but powerful fighter?")
        scale = QComboBox()
        for sid in self.doc.catalog.ladder.designable_ids():
            s = self.doc.catalog.ladder.parse(sid)
            scale.addItem(s.name if s else sid, sid)
        ext = self.doc.catalog.ladder.section.extension
        if ext is not None:
            for n in range(1, min(ext.max_steps, 6) + 1):
                s = self.doc.catalog.ladder.parse(f"{ext.base}+{n}")
                if s is not None:
                    scale.addItem(s.name, s.id)
        _row(form, "&Scale", b.combo("scale", scale), "Higher scales multiply capacities and crew by 5 a step")
        self.preset_row(form, "House rules: which costs and budgets apply")
        return _page(box)

    # --- step 2 ---------------------------------------------------------------------------

    def _attributes(self) -> QWidget:
        box, form = _form("Step Two: Attributes")
        b = self.binder
        _row(
            form,
            "&Handling",
            b.spin("handling", _spin(self.doc, "handling", (-5, 5))),
            "Modifies the pilot's Dexterity and Piloting",
        )
        _row(form, "S&oak", b.spin("soak", _spin(self.doc, "soak", (0, 5))), "Armor plus Energy Shields")
        self.divide = QCheckBox("Soak is divided into Armor and Energy Shields")
        self.divide.setAccessibleName("Divide Soak into Armor and Energy Shields")
        self.divide.toggled.connect(self._divide)
        form.addRow("", self.divide)
        self.armor = _row(form, "&Armor", b.spin("armor", _spin(self.doc, "armor", (0, 5))))
        self.shields = _row(form, "Energy &Shields", b.spin("shields", _spin(self.doc, "shields", (0, 5))))
        _row(form, "&Move", b.spin("move", _spin(self.doc, "move", (0, 5))), "Hexes per turn; 0 for stations")
        pbox, pform = _form("Priority (2, 1, 0 free dots)")
        self.priority_label = QLabel(wordWrap=True)
        self.priority_label.setAccessibleName("Attribute priority")
        pform.addRow(self.priority_label)
        self.pin = QCheckBox("&Pin the priority")
        self.pin.setToolTip("Keep this order instead of the one that wastes least")
        self.pin.toggled.connect(self._pin)
        pform.addRow(self.pin)
        self.order = QComboBox()
        for order in PRIORITY_ORDERS:
            self.order.addItem(" > ".join(o.capitalize() for o in order), ",".join(order))
        self.order.activated.connect(
            lambda i: self._error(self.doc.edit("priority", self.order.itemData(i).split(","), merge=False))
        )
        _row(pform, "&Order", self.order, "Highest priority first")
        return _page(box, pbox)

    def _divide(self, on: bool) -> None:
        d = self.doc.design
        if on and d.armor is None and d.shields is None:
            self._error(self.doc.edit_many({"armor": d.soak, "shields": 0}, "Divide Soak"))
        elif not on and (d.armor is not None or d.shields is not None):
            self._error(self.doc.edit_many({"armor": None, "shields": None}, "Undivide Soak"))

    def _pin(self, on: bool) -> None:
        if on and self.doc.design.priority is None and self.doc.report.priorities:
            order = sorted(self.doc.report.priorities[0].order.items(), key=lambda kv: -kv[1])
            self._error(self.doc.edit("priority", [k for k, _ in order], merge=False))
        elif not on and self.doc.design.priority is not None:
            self._error(self.doc.edit("priority", None, merge=False))

    # --- step 3 ---------------------------------------------------------------------------

    def _scale_choices(self) -> list[tuple[str, Any]]:
        out: list[tuple[str, Any]] = [("design's scale", None)]
        for e in self.doc.catalog.ladder.section.ladder:
            out.append((e.name, e.id))
        return out

    def _list(
        self,
        browser_kind: str,
        noun: str,
        path: str,
        columns: list[Column],
        name_key: str,
        new_item: Callable[[str], dict[str, Any]],
        one: str = "",
    ) -> QWidget:
        browser = CatalogBrowser(self.doc, browser_kind, noun, one)

        def add(item_id: str) -> None:
            item = self.doc.catalog.item(browser_kind, item_id)
            self._error(self.doc.insert(path, new_item(item_id), text=f"Add {item.name if item else item_id}"))

        def name_of(entry: dict[str, Any]) -> str:
            item = self.doc.catalog.item(browser_kind, entry.get(name_key, ""))
            return item.name if item else str(entry.get(name_key, ""))

        editor = ListEditor(self.doc, path, columns, name_of, self.report_error, add)
        browser.add_requested.connect(add)
        self.binder.focuser(path, editor.focus_path)
        self.lists.append(editor)
        self.browsers.append(browser)
        return browser_with_list(browser, editor)

    def _weapons(self) -> QWidget:
        columns = [
            Column("Weapon", "weapon", "name"),
            Column("Count", "count", "spin", 1, 99),
            Column("Turret", "turret", "check"),
            Column("Fire-link group", "fire_link", "line"),
            Column("Scale", "scale", "combo", choices=self._scale_choices),
        ]
        help_ = QLabel(
            "Step Three: Weapons. Turret +1 and Fire-Linked +1 per weapon; a linked group needs two or more. "
            "A smaller-scale weapon costs 1/5 per scale step down.",
            wordWrap=True,
        )
        return _page(
            help_, self._list("weapons", "weapons", "weapons", columns, "weapon", lambda i: {"weapon": i}, "weapon")
        )

    # --- step 4 ---------------------------------------------------------------------------

    def _per_level(self, kind: str) -> Callable[[dict[str, Any]], bool]:
        return lambda e: bool(getattr(self.doc.catalog.item(kind, e.get("id", "")), "per_level", False))

    def _is_virtual_pilot(self, kind: str) -> Callable[[dict[str, Any]], bool]:
        """Whether an entry is an AI: its catalog item has a virtual-pilot effect to spread points over."""

        def check(entry: dict[str, Any]) -> bool:
            item = self.doc.catalog.item(kind, entry.get("id", ""))
            return any(isinstance(e, VirtualPilotEffect) for e in getattr(item, "effects", []))

        return check

    def _technology(self) -> QWidget:
        ai = self._is_virtual_pilot("technology")
        columns = [
            Column("Technology", "id", "name"),
            Column("Level", "level", "spin", 1, 20, enabled=self._per_level("technology")),
            Column("AI Dex", "options.dexterity", "spin", 0, 40, enabled=ai),
            Column("AI Piloting", "options.piloting", "spin", 0, 40, enabled=ai),
            Column("AI Gunnery", "options.gunnery", "spin", 0, 40, enabled=ai),
        ]
        help_ = QLabel(
            "Step Four: Advanced Technology, paid in Power Points (the Storyteller assigns the budget).", wordWrap=True
        )
        chosen = self._list("technology", "technology", "technology", columns, "id", lambda i: {"id": i})
        custom_box = QGroupBox("Custom technology (larger-scale components such as Super-Lasers)")
        lay = QVBoxLayout(custom_box)
        custom = ListEditor(
            self.doc,
            "custom_technology",
            [
                Column("Name", "name", "line"),
                Column("Power Points", "cost", "spin", 0, 99),
                Column("Scale", "scale", "combo", choices=self._scale_choices),
            ],
            lambda e: str(e.get("name", "")),
            self.report_error,
        )
        self.binder.focuser("custom_technology", custom.focus_path)
        self.lists.append(custom)
        add = QPushButton("Add &custom technology")
        add.clicked.connect(
            lambda: self._error(self.doc.insert("custom_technology", {"name": "Custom component", "cost": 1}))
        )
        lay.addWidget(custom)
        lay.addWidget(add)
        return _page(help_, chosen, custom_box)

    # --- step 5 ---------------------------------------------------------------------------

    def _finishing(self) -> QWidget:
        b = self.binder
        box, form = _form("Step Five: Finishing touches")
        _row(form, "S&tructure", b.spin("structure", _spin(self.doc, "structure", (1, 20))), "10 is standard")
        _row(form, "Po&wer", b.spin("power", _spin(self.doc, "power", (0, 10))), "The pool for special maneuvers")
        crew = QSpinBox()
        crew.setRange(0, 10_000_000)
        crew.setGroupSeparatorShown(True)
        _row(form, "&Crew", b.spin("crew", crew), "Starships: at least Structure, at most 10 x Structure")
        acc = self._list(
            "accessories",
            "accessories",
            "accessories",
            [
                Column("Accessory", "id", "name"),
                Column("Level", "level", "spin", 1, 99, enabled=self._per_level("accessories")),
            ],
            "id",
            lambda i: {"id": i},
            "accessory",
        )
        pilot_box, pform = _form("Pilot")
        self.has_pilot = QCheckBox("This craft has a named &pilot")
        self.has_pilot.toggled.connect(self._toggle_pilot)
        pform.addRow(self.has_pilot)
        self.pilot_fields = [_row(pform, "Pilot na&me", b.line("pilot.name", QLineEdit()))]
        for label, key in (
            ("De&xterity", "dexterity"),
            ("Pi&loting", "piloting"),
            ("&Gunnery", "gunnery"),
            ("W&illpower", "willpower"),
        ):
            s = QSpinBox()
            s.setRange(0, 20)
            self.pilot_fields.append(_row(pform, label, b.spin(f"pilot.{key}", s)))
        budget_box, bform = _form("Storyteller budgets (leave at 'as the rules' for the scale's budget)")
        for pool in self.doc.catalog.pools:
            s = QSpinBox()
            s.setRange(-1, 10_000)
            s.setSpecialValueText("as the rules")
            _row(bform, pool.name, b.spin(f"budgets.{pool.id}", s, none_value=-1))
        notes = b.text("notes", QPlainTextEdit())
        notes.setMaximumHeight(90)
        nbox, nform = _form("Notes")
        _row(nform, "N&otes", notes)
        return _page(box, acc, pilot_box, budget_box, nbox)

    def _toggle_pilot(self, on: bool) -> None:
        if on and self.doc.design.pilot is None:
            self._error(
                self.doc.edit(
                    "pilot", {"name": "", "dexterity": 3, "piloting": 3, "gunnery": 0, "willpower": 0}, merge=False
                )
            )
        elif not on and self.doc.design.pilot is not None:
            self._error(self.doc.edit("pilot", None, merge=False))

    # --- forms ------------------------------------------------------------------------------

    def _forms(self) -> QWidget:
        help_ = QLabel(
            "Transformation: each extra form costs 2 Power Points and must spend what the primary form spends "
            "in every pool. A form changes the stats below; 'same' keeps the primary's value. Forms keep the "
            "primary's weapons, technology and accessories.",
            wordWrap=True,
        )
        columns = [Column("Name", "name", "line")]
        for stat, label in (
            ("handling", "Handling"),
            ("soak", "Soak"),
            ("move", "Move"),
            ("power", "Power"),
            ("structure", "Structure"),
        ):
            columns.append(Column(label, stat, "optspin", -99, 99))
        forms = ListEditor(self.doc, "forms", columns, lambda e: str(e.get("name", "")), self.report_error)
        self.binder.focuser("forms", forms.focus_path)
        self.lists.append(forms)
        add = QPushButton("Add &form")
        add.clicked.connect(
            lambda: self._error(self.doc.insert("forms", {"name": f"Form {len(self.doc.design.forms) + 1}"}))
        )
        row = QWidget()
        QHBoxLayout(row).addWidget(add)
        return _page(help_, forms, row)

    # --- syncing ----------------------------------------------------------------------------

    def _error(self, message: str | None) -> None:
        if message:
            self.report_error(message)

    def refresh(self) -> None:
        """Bring the widgets of the built pages in step with the document."""
        d, report = self.doc.design, self.doc.report
        self.refresh_presets()
        if "attributes" in self.built:
            divided = d.armor is not None or d.shields is not None
            with _quiet(self.divide, self.pin, self.order):
                self.divide.setChecked(divided)
                self.pin.setChecked(d.priority is not None)
                if d.priority is not None:
                    self.order.setCurrentIndex(max(0, self.order.findData(",".join(d.priority))))
            self.armor.setEnabled(divided)
            self.shields.setEnabled(divided)
            self.order.setEnabled(d.priority is not None)
            if report.priorities:
                pr = report.priorities[0]
                order = ", ".join(f"{k.capitalize()} {v}" for k, v in sorted(pr.order.items(), key=lambda kv: -kv[1]))
                how = "pinned" if pr.pinned else "chosen automatically: wastes least"
                self.priority_label.setText(
                    f"Free dots: {order} ({how}). Net cost {pr.cost} freebies"
                    + (f", {pr.wasted} dot(s) wasted." if pr.wasted else ".")
                )
        if "finishing" in self.built:
            with _quiet(self.has_pilot):
                self.has_pilot.setChecked(d.pilot is not None)
            for field_widget in self.pilot_fields:
                field_widget.setEnabled(d.pilot is not None)
        for editor in self.lists:
            editor.refresh()
        for browser in self.browsers:
            browser.populate()
