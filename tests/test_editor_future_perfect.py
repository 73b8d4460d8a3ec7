"""The editor on a Future Perfect ship record, driven like a user would, through the pages
generated from catalogs/future-perfect/form.yaml (pytest-qt, offscreen; dialogs patched).

The damaged frigate sample (Far Horizon, with its round plan) is built from File > New >
Future Perfect ship, field by field, and must equal its file; the plan is priced live from
the AP cost tables (defense TN 5 - 1 per Evasive maneuvers, minimum 2; at most 1 point of
power on one action; repair TN 3 + 2 x level); undo takes it back to the new record and
redo forward again; a finding focuses the field that fixes it.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QSpinBox

from shipyard._qt.view.documentview import DocumentView
from shipyard._qt.window.window import MainWindow
from shipyard.core.designfile import dumps, load_design
from shipyard.core.evaluate import evaluate

from .editor_pages import (
    add_row,
    cell,
    choose,
    click,
    click_box,
    figure_label,
    figure_shown,
    focused_after,
    go,
    list_editor,
    new_from_menu,
    open_sample,
    redo_all,
    remove_button,
    saved_data,
    summary,
    tab_titles,
    the_finding,
    toggle_named,
    type_text,
    undo_all,
)
from .test_editor import field, no_blocking_dialogs, type_into, window

__all__ = ["no_blocking_dialogs", "window"]  # fixtures used here

SAMPLES = Path(__file__).resolve().parent.parent / "catalogs" / "future-perfect" / "examples"
FRIGATE = SAMPLES / "damaged-frigate.ship"
PLAN = "Write a round plan"

# the systems page's columns, as form.yaml declares them
NAME, KIND, SHIELD, CORE_LEVELS, CORE_DAMAGE, EPHEMERAL_LEVELS, EPHEMERAL_DAMAGE = range(7)
# the plan's actions
ROLE, ACTION, TARGET, POWER = range(4)


def new_ship(window: MainWindow) -> DocumentView:
    return new_from_menu(window, "Future Perfect ship", "future-perfect")


def to_default(qtbot: Any, spin: QSpinBox) -> None:
    """Page a spin box down to its lowest value, the one that reads "default" or "none"."""
    spin.setFocus()
    qtbot.keyClick(spin, Qt.Key.Key_PageDown)
    assert spin.value() == spin.minimum(), spin.text()


def add_system(qtbot: Any, view: DocumentView, name: str, kind: str, **numbers: int) -> None:
    row = add_row(qtbot, view, 1, "&Add system", "systems")
    type_into(qtbot, cell(view, "systems", row, NAME), name)
    choose(cell(view, "systems", row, KIND), kind)
    for column, value in numbers.items():
        type_into(qtbot, cell(view, "systems", row, globals()[column.upper()]), str(value))


def choose_action(combo: Any, name: str) -> None:
    """Pick an action by its name; the list offers it with its table and AP cost
    ("Move 1 range band (Helm, 2 AP)")."""
    offered = [combo.itemText(i) for i in range(combo.count())]
    choose(combo, next(t for t in offered if t.startswith(f"{name} (")))


def add_action(
    qtbot: Any, view: DocumentView, role: str, action: str, target: str | None = None, power: int = 0
) -> None:
    row = add_row(qtbot, view, 3, "Add a&ction", "plan.actions")
    choose(cell(view, "plan.actions", row, ROLE), role)
    choose_action(cell(view, "plan.actions", row, ACTION), action)
    if target is not None:
        choose(cell(view, "plan.actions", row, TARGET), target)
    if power:
        type_into(qtbot, cell(view, "plan.actions", row, POWER), str(power))


def build_far_horizon(qtbot: Any, window: MainWindow) -> DocumentView:
    """The damaged frigate sample, typed and clicked into a new record."""
    sample = load_design(FRIGATE, use_user_folder=False).design
    view = new_ship(window)
    # 1 Record
    type_into(qtbot, field(view, "name"), "Far Horizon")
    type_into(qtbot, field(view, "class"), "Vigil-class frigate")
    type_into(qtbot, field(view, "ap"), "12")
    type_into(qtbot, field(view, "speed"), "3")
    type_into(qtbot, field(view, "power_rating"), "3")
    type_into(qtbot, field(view, "power_bank"), "1")
    type_text(qtbot, field(view, "notes"), sample.notes)
    # 2 Systems: the new record's six, at the default track length, damaged; then the rest
    go(view, 1)
    for row in range(3):
        to_default(qtbot, cell(view, "systems", row, CORE_LEVELS))
        to_default(qtbot, cell(view, "systems", row, EPHEMERAL_LEVELS))
    type_into(qtbot, cell(view, "systems", 1, CORE_DAMAGE), "1")
    type_into(qtbot, cell(view, "systems", 1, EPHEMERAL_DAMAGE), "1")
    type_into(qtbot, cell(view, "systems", 2, NAME), "Forward battery")
    type_into(qtbot, cell(view, "systems", 2, EPHEMERAL_DAMAGE), "2")
    for row in (5, 4, 3):  # Sensors, Engineering, Shields: made again below, in the sample's order
        qtbot.mouseClick(remove_button(view, "systems", row), Qt.MouseButton.LeftButton)
    add_system(qtbot, view, "Torpedo bay", "Weapon", core_damage=3, ephemeral_damage=3)
    add_system(qtbot, view, "Deflectors", "Shield", shield=4, ephemeral_damage=1)
    add_system(qtbot, view, "Engineering", "Engineering")
    add_system(qtbot, view, "Sensors", "Sensors", core_damage=1)
    for name, system, grade in (
        ("Twin lasers", "Forward battery", "primary"),
        ("Torpedo launcher", "Torpedo bay", "secondary"),
    ):
        row = add_row(qtbot, view, 1, "Add &weapon", "weapons")
        type_into(qtbot, cell(view, "weapons", row, 0), name)
        choose(cell(view, "weapons", row, 1), system)
        choose(cell(view, "weapons", row, 2), grade.capitalize())
    # 3 Crew: the four roles
    go(view, 2)
    for name, role, skill, rating in (
        ("Captain Rafe Okonkwo", "Command", "Tactics", 3),
        ("Yul Brenner", "Helm", "Piloting", 3),
        ("Kit Amari", "Tactical", "Weapons", 3),
        ("Jonah Vell", "Engineering", "Engineering", 4),
    ):
        row = add_row(qtbot, view, 2, "Add &character", "crew")
        type_into(qtbot, cell(view, "crew", row, 0), name)
        choose(cell(view, "crew", row, 1), role)
        type_into(qtbot, cell(view, "crew", row, 2), skill)
        type_into(qtbot, cell(view, "crew", row, 3), str(rating))
        if role == "Helm":
            type_into(qtbot, cell(view, "crew", row, 4), "2")
    # 4 Round plan: the bid, the allocations, last round's augmented AP, the actions
    go(view, 3)
    click_box(qtbot, toggle_named(view, PLAN))
    type_into(qtbot, field(view, "plan.initiative"), "2")
    type_into(qtbot, field(view, "plan.helm"), "3")
    type_into(qtbot, field(view, "plan.tactical"), "3")
    type_into(qtbot, field(view, "plan.engineering"), "4")
    type_into(qtbot, field(view, "plan.augmented.Engineering"), "1")
    add_action(qtbot, view, "Helm", "Evasive maneuvers")
    add_action(qtbot, view, "Helm", "Evasive maneuvers")
    add_action(qtbot, view, "Helm", "Move 1 range band", power=1)
    add_action(qtbot, view, "Tactical", "Fire primary weapon system", "Twin lasers (primary weapon)")
    add_action(qtbot, view, "Tactical", "Careful shot", "Twin lasers (primary weapon)", power=1)
    add_action(qtbot, view, "Tactical", "Modulate shield", "Deflectors (shield system)")
    add_action(qtbot, view, "Engineering", "Repair system", "Forward battery (weapon system)", power=1)
    add_action(qtbot, view, "Engineering", "Restore power")
    return view


def test_build_the_damaged_frigate_and_its_round_plan_from_a_new_record(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    view = build_far_horizon(qtbot, window)
    sample = load_design(FRIGATE, use_user_folder=False)
    assert view.doc.design == sample.design and view.doc.preset == sample.preset
    assert tab_titles(view) == ["&1 Record", "&2 Systems", "&3 Crew", "&4 Round plan"]
    assert view.doc.report.findings == evaluate(sample.design, sample.catalog).findings == []
    # the plan as the rules price it: 12 AP - 2 bid = 10 allocated 3/3/4; two Evasive maneuvers
    # take the defense TN from 5 to 3; 3 power paid, one point on each of three actions, from
    # the 4 this round has (bank 1 + Power rating 3)
    shown = summary(view)
    assert [shown[f"{role} AP left"] for role in ("Helm", "Tactical", "Engineering")] == ["0 AP"] * 3
    assert (shown["Starship defense TN"], shown["Power used"], shown["Power left"]) == ("3", "3 power", "1 power")
    # AP 12 - 2 bid + the 1 AP last round's Augment gave the Engineering system
    assert figure_shown(view, "ap_available") == "AP to allocate: 11 AP"
    assert figure_shown(view, "defense_tn") == "Starship defense TN: 3"
    assert field(view, "plan.augmented.Engineering").value() == 1
    assert field(view, "plan.augmented.Bridge").text() == "none"
    # what Shipyard writes for the sample (defaults such as a primary grade left out)
    assert saved_data(window, tmp_path / "far-horizon.ship") == json.loads(
        dumps(replace(sample, written=None))
    )  # as a new file is written


def test_undo_to_the_new_record_and_redo_to_the_far_horizon(qtbot: Any, window: MainWindow) -> None:
    fresh = window.new("ship", "future-perfect")
    assert fresh is not None
    new_record = fresh.doc.design
    view = build_far_horizon(qtbot, window)
    built = view.doc.design
    stack = view.doc.undo_stack
    # one step a field typed (typing merges), a row removed or added, a choice made; the Helm's
    # skill typed over the new character's own "Piloting" changes nothing and is no step (when
    # every key was an edit, "P", "Pi"... made one that changed nothing in the end)
    assert stack.count() == 95
    assert [stack.text(i) for i in range(3)] == ["Change Name", "Change Class", "Change AP"]  # as the form names them
    undo_all(window, view)
    assert view.doc.design == new_record and not window.isWindowModified()
    assert field(view, "name").text() == "New ship" and field(view, "ap").value() == 10
    assert [cell(view, "systems", r, NAME).text() for r in range(list_editor(view, "systems").rowCount())] == [
        "Bridge",
        "Engines",
        "Weapons",
        "Shields",
        "Engineering",
        "Sensors",
    ]
    assert not toggle_named(view, PLAN).isChecked() and not field(view, "plan.helm").isEnabled()
    assert summary(view) == {"Starship defense TN": "5"}  # no plan: nothing priced, the base TN
    redo_all(window, view)
    assert view.doc.design == built
    assert cell(view, "plan.actions", 6, TARGET).currentText() == "Forward battery (weapon system)"
    assert cell(view, "plan.actions", 6, POWER).value() == 1
    assert summary(view)["Starship defense TN"] == "3"


def plan_ship(qtbot: Any, window: MainWindow) -> DocumentView:
    """A new record with a round plan: 10 AP, nothing bid, the helm given 5."""
    view = new_ship(window)
    go(view, 3)
    click_box(qtbot, toggle_named(view, PLAN))
    type_into(qtbot, field(view, "plan.helm"), "5")
    return view


def test_evasive_maneuvers_take_the_defense_tn_from_5_to_its_minimum_2(qtbot: Any, window: MainWindow) -> None:
    view = plan_ship(qtbot, window)
    assert summary(view)["Starship defense TN"] == "5"
    shown = []
    for _ in range(4):
        add_action(qtbot, view, "Helm", "Evasive maneuvers")
        shown.append((summary(view)["Starship defense TN"], summary(view)["Helm AP left"]))
    assert shown == [("4", "4 AP"), ("3", "3 AP"), ("2", "2 AP"), ("2", "1 AP")]  # 1 AP each
    wasted = the_finding(view, "evasive-wasted")
    assert wasted.severity == "warning" and wasted.path == "plan.actions[3]"
    assert focused_after(view, wasted.path) is cell(view, "plan.actions", 3, ROLE)


def test_up_to_one_point_of_power_on_an_action(qtbot: Any, window: MainWindow) -> None:
    view = plan_ship(qtbot, window)
    add_action(qtbot, view, "Helm", "Move 2 range bands")  # 3 AP
    power = cell(view, "plan.actions", 0, POWER)
    seen = []
    for points in (0, 1, 2):
        type_into(qtbot, power, str(points))
        shown = summary(view)
        seen.append(
            (shown["Helm AP left"], shown["Power used"], "power-over-one-per-action" in view.doc.report.codes())
        )
    # 5 allocated: 3 AP from it, then 2 and 1 from power; 2 points are refused by the rule
    assert seen == [("2 AP", "0 power", False), ("3 AP", "1 power", False), ("4 AP", "2 power", True)]
    found = the_finding(view, "power-over-one-per-action")
    assert found.severity == "error" and found.path == "plan.actions[0].power"
    go(view, 0)
    assert focused_after(view, found.path) is power


def test_findings_focus_the_field_that_fixes_them(qtbot: Any, window: MainWindow) -> None:
    view = open_sample(window, FRIGATE)
    # two commanders: the second one's role
    go(view, 2)
    choose(cell(view, "crew", 1, 1), "Command")
    found = the_finding(view, "role-over-limit")
    go(view, 0)
    assert focused_after(view, found.path) is cell(view, "crew", 1, 1)
    window.undo_action.trigger()
    # the same weapon fired twice: the second shot's row
    go(view, 3)
    choose_action(cell(view, "plan.actions", 4, ACTION), "Fire primary weapon system")
    found = the_finding(view, "weapon-fired-twice")
    go(view, 0)
    assert focused_after(view, found.path) is cell(view, "plan.actions", 4, ROLE)
    window.undo_action.trigger()
    # a new weapon belongs to no weapon system yet, and its row says so
    go(view, 1)
    click(qtbot, view, 1, "Add &weapon")
    assert cell(view, "weapons", 2, 1).currentText() == "—"
    found = the_finding(view, "weapon-system-unknown")
    go(view, 0)
    assert focused_after(view, found.path) is cell(view, "weapons", 2, 1)
    choose(cell(view, "weapons", 2, 1), "Forward battery")
    assert "weapon-system-unknown" not in view.doc.report.codes()


def test_the_augmented_ap_follow_the_ships_systems(qtbot: Any, window: MainWindow) -> None:
    view = open_sample(window, FRIGATE)
    go(view, 3)
    names = ["Bridge", "Engines", "Forward battery", "Torpedo bay", "Deflectors", "Engineering", "Sensors"]
    assert all(f"plan.augmented.{n}" in view.binder.bindings for n in names)
    # a system added on the systems page has a row here at once
    go(view, 1)
    add_system(qtbot, view, "Tractor beam", "Other")
    assert field(view, "plan.augmented.Tractor beam").text() == "none"
    # renamed: the AP given to the system follow it to its new name (issue 46: a rename
    # carries what holds the name), in the same undo step, and nothing is left behind
    before = view.doc.design.plan.augmented  # type: ignore[union-attr]
    type_into(qtbot, cell(view, "systems", 5, NAME), "Main engineering")
    assert view.doc.design.plan is not None
    assert view.doc.design.plan.augmented == {"Main engineering": before["Engineering"]}
    assert "plan.augmented.Engineering" not in view.binder.bindings
    assert field(view, "plan.augmented.Main engineering").value() == before["Engineering"]
    assert field(view, "plan.augmented.Main engineering").accessibleName() == "Main engineering"
    assert view.doc.report.findings == []
    view.doc.undo_stack.undo()
    assert view.doc.design.plan.augmented == before  # type: ignore[union-attr]


def test_help_quotes_the_catalog(qtbot: Any, window: MainWindow) -> None:
    view = new_ship(window)
    assert field(view, "power_rating").toolTip().startswith("The ship generates 1 x its Power rating")
    go(view, 1)
    assert cell(view, "systems", 0, EPHEMERAL_DAMAGE).accessibleDescription() == "Repair TN 3 + 2 x damage level."


def test_the_crew_page_shows_the_commander_and_the_tie_break_order_whole(qtbot: Any, window: MainWindow) -> None:
    view = window.open_sample(FRIGATE)
    assert view is not None
    go(view, 2)
    shown = {f: figure_label(view, f) for f in ("commander", "initiative_ties")}
    assert figure_shown(view, "commander") == "Commander: Captain Rafe Okonkwo"
    assert (
        shown["initiative_ties"].text()
        == "APs bid 2, then Speed 3, then Acuity 2, then an opposed draw (impulse value)"
    )
    QApplication.processEvents()
    for label in shown.values():  # one line, not cut after its first words
        assert label.width() >= label.fontMetrics().horizontalAdvance(label.text())
        assert label.height() >= label.fontMetrics().height()
