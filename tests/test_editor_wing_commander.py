"""The editor on a Wing Commander fighter record, driven like a user would, through the pages
generated from catalogs/wing-commander/form.yaml (pytest-qt, offscreen; dialogs patched).

The Piranha sample (the house rules' own example: DRV -3, a DEX 11 pilot, 3 free missile
decoys) is built from File > New > Wing Commander fighter, field by field, and must equal
its file; the decoys follow DRV and DEX as the rule says (1 + half the DRV bonus rounded
down + the DEX resistance modifier, never below 1); a link group takes its guns' worst
accuracy and shortest ranges; components are numbered as the engine numbers them; undo
takes it back to the new record and redo forward again; a finding focuses its field.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt

from shipyard._qt.view.documentview import DocumentView
from shipyard._qt.window.window import MainWindow
from shipyard.core.designfile import dumps, load_design
from shipyard.core.evaluate import evaluate

from .editor_pages import (
    PAUSE_MS,
    add_row,
    cell,
    click,
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
    type_text,
    undo_all,
)
from .test_editor import field, no_blocking_dialogs, type_into, window

__all__ = ["no_blocking_dialogs", "window"]  # fixtures used here

SAMPLES = Path(__file__).resolve().parent.parent / "catalogs" / "wing-commander" / "examples"
PIRANHA = SAMPLES / "piranha.ship"

# the guns' columns, as form.yaml declares them
GUN, COUNT, ACCURACY, SHORT, MEDIUM, LONG, DAMAGE, LINK_GROUP = range(8)
# a compartment's components: name, space, then the engine's number and what it counts as
COMPONENT, SPACE, NUMBER, COUNTS_AS = range(4)


def new_fighter(window: MainWindow) -> DocumentView:
    return new_from_menu(window, "Wing Commander fighter", "wing-commander")


def add_gun(qtbot: Any, view: DocumentView, name: str, *values: str) -> None:
    """A gun: count, accuracy, short, medium, long, damage, link group (as typed)."""
    row = add_row(qtbot, view, 1, "&Add gun", "guns")
    type_into(qtbot, cell(view, "guns", row, GUN), name)
    for column, value in enumerate(values, start=COUNT):
        type_into(qtbot, cell(view, "guns", row, column), value)


def add_compartment(qtbot: Any, view: DocumentView, name: str, durability: int, components: list[Any]) -> None:
    row = add_row(qtbot, view, 3, "Add &compartment", "compartments")
    type_into(qtbot, cell(view, "compartments", row, 0), name)
    type_into(qtbot, cell(view, "compartments", row, 1), str(durability))
    path = f"compartments[{row}].components"
    for i, component in enumerate(components):
        click(qtbot, view, 3, "Add com&ponent")
        type_into(qtbot, cell(view, path, i, COMPONENT), component.name)
        type_into(qtbot, cell(view, path, i, SPACE), str(component.space))


def build_piranha(qtbot: Any, window: MainWindow) -> DocumentView:
    """The Piranha sample, typed into a new fighter record."""
    sample = load_design(PIRANHA, use_user_folder=False).design
    view = new_fighter(window)
    # 1 Fighter
    type_into(qtbot, field(view, "name"), "Piranha")
    type_into(qtbot, field(view, "class"), "Light fighter (Confederation)")
    type_into(qtbot, field(view, "drv"), "-3")
    type_into(qtbot, field(view, "acceleration"), "6")
    type_into(qtbot, field(view, "afterburner"), "14")
    type_text(qtbot, field(view, "notes"), sample.notes)
    # 2 Guns: two lasers linked as group A
    go(view, 1)
    add_gun(qtbot, view, "Laser", "2", "0", "4", "8", "12", "d4+1w/d4+3w/d4m", "A")
    # 3 Missiles, in loadout order
    go(view, 2)
    for missile in sample.missiles:
        row = add_row(qtbot, view, 2, "Add &load", "missiles")
        values = (missile.name, missile.count, missile.drv, missile.score, missile.lock_time, missile.damage)
        for column, value in enumerate(values):
            type_into(qtbot, cell(view, "missiles", row, column), str(value))
    # 4 Compartments and their components
    go(view, 3)
    for compartment in sample.compartments:
        add_compartment(qtbot, view, compartment.name, compartment.durability, compartment.components)
    # 5 Pilot
    go(view, 4)
    type_into(qtbot, field(view, "pilot.name"), "Lt. Jade Okafor")
    type_into(qtbot, field(view, "pilot.dex"), "11")
    type_into(qtbot, field(view, "pilot.action_check"), "12")
    type_into(qtbot, field(view, "pilot.skills.piloting"), "14")
    type_into(qtbot, field(view, "pilot.skills.gunnery"), "12")
    return view


def test_build_the_piranha_from_a_new_fighter_and_save_it_as_its_file(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    view = build_piranha(qtbot, window)
    sample = load_design(PIRANHA, use_user_folder=False)
    assert view.doc.design == sample.design and view.doc.preset == sample.preset
    assert tab_titles(view) == ["&1 Fighter", "&2 Guns", "&3 Missiles", "&4 Compartments", "&5 Pilot"]
    assert view.doc.report.findings == evaluate(sample.design, sample.catalog).findings == []
    # the text's example: 1 + 3/2 rounded down + DEX 11's resistance modifier +1 = 3
    shown = summary(view)
    assert shown["Free missile decoys"] == "3 per round"
    assert shown["Extra decoys per action"] == "1 this round"
    assert shown["Link groups"] == "A: accuracy 0, range 4/8/12, attack step -3"  # the DRV on gun attacks
    assert figure_shown(view, "resistance_modifier") == "DEX resistance modifier: 1"
    assert figure_shown(view, "missiles_carried") == "Missiles carried: 4"
    assert (
        figure_shown(view, "compartment.3")
        == "Weapons bay: durability 3; 4 components, space 3 (counts as 4 for lost systems)"
    )
    assert saved_data(window, tmp_path / "piranha.ship") == json.loads(
        dumps(replace(sample, written=None))
    )  # as a new file is written


def test_undo_to_the_new_fighter_and_redo_to_the_piranha(qtbot: Any, window: MainWindow) -> None:
    fresh = window.new("fighter", "wing-commander")
    assert fresh is not None
    new_record = fresh.doc.design
    view = build_piranha(qtbot, window)
    built = view.doc.design
    stack = view.doc.undo_stack
    # one step a field typed (typing merges) or an entry added; a value typed as it was is no
    # step: fighter 6, gun 8, missiles 7 + 5, compartments 14 + 9 + 12, pilot 5
    assert stack.count() == 66
    undo_all(window, view)
    assert view.doc.design == new_record and not window.isWindowModified()
    assert field(view, "drv").value() == 0 and field(view, "pilot.dex").value() == 10
    assert list_editor(view, "compartments").rowCount() == 0
    assert summary(view)["Free missile decoys"] == "1 per round"  # every ship's one
    redo_all(window, view)
    assert view.doc.design == built and summary(view)["Free missile decoys"] == "3 per round"
    assert [cell(view, "missiles", r, 0).text() for r in range(2)] == ["Heat seeker", "Friend-or-foe"]


@pytest.mark.parametrize(
    ("drv", "dex", "free", "per_action"),
    [
        ("-3", "11", "3", "1"),  # the Piranha: 1 + 1 + 1
        ("-5", "11", "4", "1"),  # 5/2 rounded down is 2
        ("-4", "16", "6", "3"),  # 1 + 2 + 3
        ("-5", "20", "8", "5"),  # 1 + 2 + 5
        ("3", "11", "2", "1"),  # a DRV penalty gives no bonus decoys
        ("0", "4", "1", "1"),  # 1 + 0 - 2 is -1: never below 1; per action at least 1
        ("-2", "5", "1", "1"),  # 1 + 1 - 1
        ("-1", "13", "3", "2"),  # -1 is no whole bonus step: 1 + 0 + 2
    ],
)
def test_free_decoys_follow_the_drv_and_the_pilots_dex(
    qtbot: Any, window: MainWindow, drv: str, dex: str, free: str, per_action: str
) -> None:
    view = new_fighter(window)
    type_into(qtbot, field(view, "drv"), drv)
    go(view, 4)
    type_into(qtbot, field(view, "pilot.dex"), dex)
    shown = summary(view)
    assert (shown["Free missile decoys"], shown["Extra decoys per action"]) == (
        f"{free} per round",
        f"{per_action} this round",
    )
    assert figure_shown(view, "free_decoys") == f"Free missile decoys: {free} per round"


def test_the_resistance_modifier_at_each_boundary_of_the_table(qtbot: Any, window: MainWindow) -> None:
    view = new_fighter(window)
    go(view, 4)
    seen = {}
    for dex in (4, 5, 6, 7, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20):
        type_into(qtbot, field(view, "pilot.dex"), str(dex))
        seen[dex] = figure_shown(view, "resistance_modifier").split(": ")[1]
    assert seen == {
        4: "-2", 5: "-1", 6: "-1", 7: "0", 10: "0", 11: "1", 12: "1", 13: "2",
        14: "2", 15: "3", 16: "3", 17: "4", 18: "4", 19: "5", 20: "5",
    }  # fmt: skip


def test_a_link_group_fires_at_its_worst_accuracy_and_shortest_ranges(qtbot: Any, window: MainWindow) -> None:
    view = new_fighter(window)
    go(view, 1)
    add_gun(qtbot, view, "Laser", "2", "0", "4", "8", "12", "d4+1w/d4+3w/d4m", "A")
    assert summary(view)["Link groups"] == "A: accuracy 0, range 4/8/12, attack step 0"
    add_gun(qtbot, view, "Mass driver", "1", "1", "3", "9", "10", "d6w/d6+2w/d4m", "A")
    assert summary(view)["Link groups"] == "A: accuracy +1, range 3/8/10, attack step +1"
    go(view, 0)
    type_into(qtbot, field(view, "drv"), "-2")  # the ship's DRV applies to gun attacks
    assert summary(view)["Link groups"] == "A: accuracy +1, range 3/8/10, attack step -1"


def test_a_link_group_of_one_gun_focuses_its_link_group(qtbot: Any, window: MainWindow) -> None:
    view = open_sample(window, PIRANHA)
    go(view, 1)
    add_gun(qtbot, view, "Tachyon gun", "1", "0", "3", "6", "9", "d6+1w/d6+3w/d4+1m", "B")
    found = the_finding(view, path="guns[1].link_group")
    assert found.severity == "error"
    go(view, 4)
    assert focused_after(view, found.path) is cell(view, "guns", 1, LINK_GROUP)
    # not linked: the link group emptied, the finding goes
    link = cell(view, "guns", 1, LINK_GROUP)
    link.setFocus()
    link.selectAll()
    qtbot.keyClick(link, Qt.Key.Key_Delete)
    qtbot.wait(PAUSE_MS)  # the person stops: what the field holds now commits
    assert view.doc.design.guns[1].link_group is None
    assert view.doc.report.findings == []


def test_components_are_numbered_and_space_0_counts_as_1(qtbot: Any, window: MainWindow) -> None:
    view = new_fighter(window)
    go(view, 3)
    click(qtbot, view, 3, "Add &compartment")
    type_into(qtbot, cell(view, "compartments", 0, 0), "Engines")
    path = "compartments[0].components"
    for i, (name, space) in enumerate((("Main drive", "2"), ("Flight computer", "0"), ("Afterburner", "1"))):
        click(qtbot, view, 3, "Add com&ponent")
        type_into(qtbot, cell(view, path, i, COMPONENT), name)
        type_into(qtbot, cell(view, path, i, SPACE), space)
    rows = [[cell(view, path, r, c).text() for c in (NUMBER, COUNTS_AS)] for r in range(3)]
    assert rows == [["1", "2"], ["2", "1"], ["3", "1"]]
    assert cell(view, path, 1, COUNTS_AS).toolTip() == "Space 0 counts as 1 when lost systems are tallied"
    assert (
        figure_shown(view, "compartment.1")
        == "Engines: durability 4; 3 components, space 3 (counts as 4 for lost systems)"
    )
    # removed from the middle: numbered again
    qtbot.mouseClick(remove_button(view, path, 0), Qt.MouseButton.LeftButton)
    assert [cell(view, path, r, NUMBER).text() for r in range(2)] == ["1", "2"]
    assert [cell(view, path, r, COMPONENT).text() for r in range(2)] == ["Flight computer", "Afterburner"]


def test_a_dex_out_of_range_focuses_the_pilots_dex(qtbot: Any, window: MainWindow) -> None:
    view = open_sample(window, PIRANHA)
    view.doc.edit("pilot.dex", 25)
    found = the_finding(view, path="pilot.dex")
    assert found.severity == "error"
    assert focused_after(view, found.path) is field(view, "pilot.dex")
    window.undo_action.trigger()
    assert view.doc.report.findings == [] and field(view, "pilot.dex").value() == 11


def test_help_quotes_the_catalog(qtbot: Any, window: MainWindow) -> None:
    view = new_fighter(window)
    assert "divided by 2" in field(view, "drv").toolTip()
    go(view, 4)
    assert "(at least 1)" in field(view, "pilot.dex").toolTip()
