"""The editor on a Cluster Falk ship record, driven like a user would, through the pages
generated from catalogs/cluster-falk/form.yaml (pytest-qt, offscreen; dialogs patched).

The Kestrel Fighter sample is built from File > New > Cluster Falk ship, field by field,
and must equal its file; undo takes it back to the new record and redo forward again; a
finding focuses the field that fixes it; the summary follows what the rules derive.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from shipyard._qt.view.documentview import DocumentView
from shipyard._qt.window.window import MainWindow
from shipyard.core.designfile import load_design
from shipyard.core.evaluate import evaluate

from .editor_pages import (
    PAUSE_MS,
    button,
    cell,
    choose,
    click_box,
    focused_after,
    go,
    list_editor,
    new_from_menu,
    open_sample,
    remove_button,
    saved_data,
    summary,
    tab_titles,
    the_finding,
    toggle_named,
    type_text,
)
from .test_editor import add_from_browser, field, no_blocking_dialogs, type_into, window

__all__ = ["no_blocking_dialogs", "window"]  # fixtures used here

SAMPLES = Path(__file__).resolve().parent.parent / "catalogs" / "cluster-falk" / "examples"
KESTREL = SAMPLES / "kestrel-fighter.ship"


def new_ship(window: MainWindow) -> DocumentView:
    return new_from_menu(window, "Cluster Falk ship", "cluster-falk")


def build_kestrel(qtbot: Any, window: MainWindow) -> DocumentView:
    """The Kestrel Fighter sample, typed and clicked into a new record."""
    sample = load_design(KESTREL, use_user_folder=False).design
    view = new_ship(window)
    # 1 Ship: the record, its aspects (a list of text), Size and Scale
    type_into(qtbot, field(view, "name"), sample.name)
    type_text(qtbot, field(view, "concept"), sample.concept)
    for i, aspect in enumerate(sample.aspects):
        qtbot.mouseClick(button(view, 0, "Add &aspect"), Qt.MouseButton.LeftButton)
        type_into(qtbot, cell(view, "aspects", i, 0), aspect)
    type_into(qtbot, field(view, "speed"), "4")  # the ladder takes a number ...
    type_into(qtbot, field(view, "tech_level"), "12")
    choose(field(view, "sensors"), "Military")
    # 2 Ratings and skills
    go(view, 1)
    type_into(qtbot, field(view, "ratings.drives"), "great")  # ... or the ladder's word
    type_into(qtbot, field(view, "ratings.guns"), "3")
    type_into(qtbot, field(view, "ratings.shields"), "2")
    click_box(qtbot, field(view, "hyperdrive"))
    type_into(qtbot, field(view, "skills.navigate"), "60")
    # 3 Crew and stations: a crew member at the cockpit, with skills in the row's detail
    go(view, 2)
    qtbot.mouseClick(button(view, 2, "Add &crew member"), Qt.MouseButton.LeftButton)
    type_into(qtbot, cell(view, "crew", 0, 0), "Lt. Mara Venn")
    choose(cell(view, "crew", 0, 1), "Cockpit")
    for skill, percent in sample.crew[0].skills.items():
        type_into(qtbot, field(view, f"crew[0].skills.{skill}"), str(percent))
    # 4 Stunts and equipment
    go(view, 3)
    add_from_browser(qtbot, view, "stunts", "Maneuverability")
    add_from_browser(qtbot, view, "torpedoes", "Standard torpedo")
    type_into(qtbot, cell(view, "torpedoes", 0, 1), "2")
    # 5 Damage: the stress tracks
    go(view, 4)
    type_into(qtbot, field(view, "stress.hull"), "2")
    type_into(qtbot, field(view, "stress.systems"), "2")
    # 6 Notes
    go(view, 5)
    type_text(qtbot, field(view, "notes"), sample.notes)
    return view


def test_build_the_kestrel_fighter_from_a_new_record_and_save_it_as_its_file(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    view = build_kestrel(qtbot, window)
    sample = load_design(KESTREL, use_user_folder=False)
    assert view.doc.design == sample.design and view.doc.preset == sample.preset
    assert tab_titles(view) == [
        "&1 Ship",
        "&2 Ratings and skills",
        "&3 Crew and stations",
        "&4 Stunts and equipment",
        "&5 Damage",
        "&6 Notes",
    ]
    assert [cell(view, "aspects", i, 0).text() for i in range(2)] == sample.design.aspects
    assert cell(view, "stations", 0, 0).currentText() == "Cockpit"  # a list of station ids, by name
    expected = evaluate(sample.design, sample.catalog)
    assert view.doc.report.findings == expected.findings == []
    shown = summary(view)
    assert shown["Consequences"] == "Mild 2, Moderate 4, Serious 6"  # no Extreme below Scale 6
    assert (shown["Jump range"], shown["Jumps a full tank"], shown["Pilot"]) == ("4 parsecs", "2", "65%")
    target = tmp_path / "kestrel.ship"
    window.ask_save_path = lambda _doc: target  # type: ignore[method-assign]
    assert window.save()
    assert json.loads(target.read_text(encoding="utf-8")) == json.loads(KESTREL.read_text(encoding="utf-8"))


def test_undo_to_the_new_record_and_redo_to_the_kestrel(qtbot: Any, window: MainWindow) -> None:
    fresh = window.new("ship", "cluster-falk")
    assert fresh is not None
    new_record = fresh.doc.design
    view = build_kestrel(qtbot, window)
    built = view.doc.design
    stack = view.doc.undo_stack
    # one step a field typed (typing merges), a box ticked, a choice made, an entry added
    assert stack.count() == 26
    while stack.canUndo():
        window.undo_action.trigger()
    assert view.doc.design == new_record and not window.isWindowModified()
    assert field(view, "name").text() == "New ship" and list_editor(view, "crew").rowCount() == 0
    assert field(view, "ratings.drives").text() == "Average (+1)"
    while stack.canRedo():
        window.redo_action.trigger()
    assert view.doc.design == built and field(view, "ratings.drives").text() == "Great (+4)"
    assert cell(view, "crew", 0, 0).text() == "Lt. Mara Venn" and cell(view, "crew", 0, 1).currentText() == "Cockpit"


def test_a_finding_focuses_the_field_that_fixes_it(qtbot: Any, window: MainWindow) -> None:
    view = window.open_sample(KESTREL)
    assert view is not None
    window.activateWindow()
    doc = view.doc
    # a rating above the ladder: the Guns ladder
    doc.edit("ratings.guns", 9)
    [found] = [f for f in doc.report.findings if f.path == "ratings.guns"]
    assert focused_after(view, found.path) is field(view, "ratings.guns")
    window.undo_action.trigger()
    # a crew member's skill above 100%: that skill's row in the crew member's detail
    doc.edit("crew[0].skills.pilot", 120)
    [found] = [f for f in doc.report.findings if f.path == "crew[0].skills.pilot"]
    go(view, 0)
    assert focused_after(view, found.path) is field(view, "crew[0].skills.pilot")
    assert list_editor(view, "crew").currentRow() == 0
    window.undo_action.trigger()
    # a Special weapons console without a special weapon: its row of the stations
    doc.insert("stations", "special-weapons")
    [found] = [f for f in doc.report.findings if f.code == "special-weapon-without-equipment"]
    assert found.path == "stations[1]"
    assert focused_after(view, found.path) is cell(view, "stations", 1, 0)
    assert cell(view, "stations", 1, 0).currentText() == "Special weapons console"
    window.undo_action.trigger()
    # an Extreme consequence at Scale 5: the check box of the optional Extreme
    doc.edit("scale", 5)
    doc.edit("consequences.extreme", {"aspect": "Hull breached", "track": "hull"})
    [found] = [f for f in doc.report.findings if f.code == "consequence-not-available"]
    extreme = toggle_named(view, "Extreme consequence taken")
    assert focused_after(view, found.path) is extreme and extreme.isChecked()
    assert not field(view, "consequences.extreme.aspect").isEnabled()  # no Extreme slot at Scale 5
    click_box(qtbot, extreme)  # taken off again: one step, the finding goes
    assert doc.design.consequences.extreme is None and "consequence-not-available" not in doc.report.codes()


def test_a_custom_stunt_has_a_name_and_text_of_its_own(qtbot: Any, window: MainWindow) -> None:
    view = new_ship(window)
    go(view, 3)
    qtbot.mouseClick(button(view, 3, "Add c&ustom stunt"), Qt.MouseButton.LeftButton)
    assert [s.model_dump(exclude_defaults=True) for s in view.doc.design.stunts] == [{"name": "New stunt"}]
    stunt, name, text = (cell(view, "stunts", 0, c) for c in range(3))
    assert not stunt.isEnabled() and name.isEnabled() and text.isEnabled()
    assert stunt.currentText() == "its own"  # not the first stunt of the catalog
    assert name.text() == "New stunt"
    type_into(qtbot, text, "Once a scene, jump without a Navigate roll")
    assert view.doc.design.stunts[0].text == "Once a scene, jump without a Navigate roll"
    add_from_browser(qtbot, view, "stunts", "Fast Ship")
    assert cell(view, "stunts", 1, 0).isEnabled() and not cell(view, "stunts", 1, 1).isEnabled()
    assert cell(view, "stunts", 1, 0).currentText() == "Fast Ship"


def test_the_summary_follows_scale_size_and_the_hyperdrive(qtbot: Any, window: MainWindow) -> None:
    view = new_ship(window)
    type_into(qtbot, field(view, "scale"), "5")
    assert summary(view)["Consequences"] == "Mild 2, Moderate 4, Serious 6"
    type_into(qtbot, field(view, "scale"), "6")
    assert summary(view)["Consequences"] == "Mild 2, Moderate 4, Serious 6, Extreme 8"
    type_into(qtbot, field(view, "size"), "9")
    assert summary(view)["Handling on engagement"] == "0"
    type_into(qtbot, field(view, "size"), "10")
    assert summary(view)["Handling on engagement"] == "-2"
    go(view, 1)
    assert "Jumps a full tank" not in summary(view)
    click_box(qtbot, field(view, "hyperdrive"))
    shown = summary(view)
    assert (shown["Jump range"], shown["Jumps a full tank"]) == ("1 parsec", "2")  # Drives +1, half a tank a jump


def test_a_turret_is_a_station_a_crew_member_may_take(qtbot: Any, window: MainWindow) -> None:
    view = new_ship(window)
    go(view, 2)
    qtbot.mouseClick(button(view, 2, "Add &crew member"), Qt.MouseButton.LeftButton)
    station = cell(view, "crew", 0, 1)
    offered = [station.itemText(i) for i in range(station.count())]
    assert offered == ["aboard, at no station", "Cockpit"]
    assert station.currentText() == "aboard, at no station" and view.doc.design.crew[0].station is None
    qtbot.mouseClick(button(view, 2, "Add &turret"), Qt.MouseButton.LeftButton)
    type_into(qtbot, cell(view, "turrets", 0, 0), "Dorsal turret")
    station = cell(view, "crew", 0, 1)
    offered = [station.itemText(i) for i in range(station.count())]
    assert offered == ["aboard, at no station", "Cockpit", "Dorsal turret"]
    choose(station, "Dorsal turret")
    assert view.doc.design.crew[0].station == "Dorsal turret"
    choose(cell(view, "crew", 0, 1), "aboard, at no station")
    assert view.doc.design.crew[0].station is None


def test_help_quotes_the_catalog(qtbot: Any, window: MainWindow) -> None:
    view = new_ship(window)
    assert field(view, "scale").toolTip().endswith("the Extreme consequence from Scale 6.")
    go(view, 1)
    assert field(view, "hyperdrive").toolTip() == "Jump range is 1 parsec a Drives point; a jump uses 50% of the fuel."


def test_its_own_is_offered_only_on_a_custom_stunts_row(qtbot: Any, window: MainWindow) -> None:
    """The form says a row without a catalog stunt shows "its own" (a stunt the record
    writes in); on a catalog stunt's row the choice is among the catalog's stunts only, so
    a user cannot pick "its own" there and be refused (a custom stunt needs a name)."""
    view = new_ship(window)
    go(view, 3)
    add_from_browser(qtbot, view, "stunts", "Fast Ship")
    qtbot.mouseClick(button(view, 3, "Add c&ustom stunt"), Qt.MouseButton.LeftButton)
    catalog_row, custom_row = cell(view, "stunts", 0, 0), cell(view, "stunts", 1, 0)
    offered = [catalog_row.itemText(i) for i in range(catalog_row.count())]
    stunts = [s.name for s in view.doc.loaded.catalog.kind("stunts").values()]
    assert offered == stunts and "its own" not in offered
    assert catalog_row.isEnabled() and catalog_row.currentText() == "Fast Ship"
    assert not custom_row.isEnabled() and custom_row.currentText() == "its own"
    # another catalog stunt chosen on the catalog row: still no "its own" there
    other = next(s for s in view.doc.loaded.catalog.kind("stunts").values() if s.name != "Fast Ship")
    choose(catalog_row, other.name)
    assert view.doc.design.stunts[0].id == other.id
    assert [catalog_row.itemText(i) for i in range(catalog_row.count())] == stunts
    assert cell(view, "stunts", 1, 0).currentText() == "its own"
    # undone, then the custom stunt undone too: the catalog row is as it was
    window.undo_action.trigger()
    window.undo_action.trigger()
    assert [s.model_dump(exclude_defaults=True) for s in view.doc.design.stunts] == [{"id": "fast-ship"}]
    row = cell(view, "stunts", 0, 0)
    assert [row.itemText(i) for i in range(row.count())] == stunts and row.currentText() == "Fast Ship"


def ticked(view: DocumentView, track: str) -> list[bool]:
    """The report's boxes of a stress track, ticked or not (what every output prints)."""
    found = view.doc.report.derived.track(f"stress.{track}")
    assert found is not None
    return [b.marked for b in found.boxes]


def test_stress_ticked_in_play_is_recorded_on_the_damage_page(qtbot: Any, window: MainWindow, tmp_path: Path) -> None:
    """The guide says stress is ticked on the Damage page during play, but the page only set
    how many boxes a track has: nothing recorded a tick. A Hull box is ticked from the
    keyboard (the new row's box chosen with the arrow keys, as a 3-shift hit ticks box 3),
    the report marks that box and no other, each tick is one undo step, and the file saves
    the boxes ticked; a track made shorter than a tick is a finding that focuses the tick."""
    view = open_sample(window, SAMPLES / "sentinel-corvette.ship")
    go(view, 4)
    assert ticked(view, "hull") == [False] * 4
    stack = view.doc.undo_stack
    before = stack.count()
    qtbot.mouseClick(button(view, 4, "&Tick a Hull box"), Qt.MouseButton.LeftButton)
    assert view.doc.design.stress.hull_ticked == [1]  # the smallest clear box first
    combo = QApplication.focusWidget()
    assert combo is cell(view, "stress.hull_ticked", 0, 0) and combo.currentText() == "Box 1: absorbs 1 shift"
    for _ in range(2):
        qtbot.keyClick(combo, Qt.Key.Key_Down)
    qtbot.wait(PAUSE_MS)
    assert view.doc.design.stress.hull_ticked == [3]
    assert combo.currentText() == "Box 3: absorbs 3 shifts"
    assert ticked(view, "hull") == [False, False, True, False]
    qtbot.mouseClick(button(view, 4, "Tic&k a Systems box"), Qt.MouseButton.LeftButton)
    qtbot.mouseClick(button(view, 4, "Tic&k a Systems box"), Qt.MouseButton.LeftButton)
    assert view.doc.design.stress.systems_ticked == [1, 2]
    assert ticked(view, "systems") == [True, True, False, False]
    assert view.doc.report.findings == []
    assert stack.count() == before + 5  # a tick added, its box moved on twice, two more ticks
    window.undo_action.trigger()
    window.undo_action.trigger()
    assert view.doc.design.stress.systems_ticked == [] and ticked(view, "systems") == [False] * 4
    window.undo_action.trigger()
    assert view.doc.design.stress.hull_ticked == [2] and ticked(view, "hull") == [False, True, False, False]
    window.redo_action.trigger()
    assert view.doc.design.stress.hull_ticked == [3] and cell(view, "stress.hull_ticked", 0, 0).currentText() == (
        "Box 3: absorbs 3 shifts"
    )
    # the Hull track cut to 2 boxes: its tick on box 3 is on no box, a finding at the tick
    type_into(qtbot, field(view, "stress.hull"), "2")
    found = the_finding(view, "stress-box-not-on-track")
    assert (found.path, found.actual, found.limit) == ("stress.hull_ticked[0]", 3, 2)
    assert focused_after(view, found.path) is cell(view, "stress.hull_ticked", 0, 0)
    assert QApplication.focusWidget().currentText() == "Box 3: not on the track"
    qtbot.mouseClick(remove_button(view, "stress.hull_ticked", 0), Qt.MouseButton.LeftButton)
    assert view.doc.design.stress.hull_ticked == [] and view.doc.report.findings == []
    # every box ticked: nothing more to tick, and the status bar says why
    qtbot.mouseClick(button(view, 4, "&Tick a Hull box"), Qt.MouseButton.LeftButton)
    qtbot.mouseClick(button(view, 4, "&Tick a Hull box"), Qt.MouseButton.LeftButton)
    qtbot.mouseClick(button(view, 4, "&Tick a Hull box"), Qt.MouseButton.LeftButton)
    assert view.doc.design.stress.hull_ticked == [1, 2]
    assert "every box of the Hull stress track is ticked" in window.statusBar().currentMessage()
    saved = saved_data(window, tmp_path / "corvette.ship")["design"]["stress"]
    assert saved == {"hull": 2, "systems": 4, "hull_ticked": [1, 2]}
