"""Editor pages built from a declared form, driven like a user would (pytest-qt, offscreen).

Space Fighter Alpha's pages are its catalog's form.yaml; the Dock Test ruleset
(tests/data/rulesets/dock_test) has what that form does not: a list entry's detail with a
list of its own, a map of percentages, a ladder, an optional object, summary figures and
actions.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QGroupBox,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
)

from shipyard._qt.view.documentview import DocumentView
from shipyard._qt.view.steppages import HandWritten
from shipyard._qt.window.window import MainWindow

from .conftest import EXAMPLES, RULESETS, house_preset, install_ruleset
from .test_editor import add_from_browser, field, no_blocking_dialogs, table_widget, toggle, type_into, window

__all__ = ["no_blocking_dialogs", "window"]  # fixtures used here


def page_texts(view: DocumentView, index: int) -> list[str]:
    """The notes a page shows (its help), as a user reads them (not what an empty list or a
    greyed field says to do next: shipyard._qt.widgets.whatnext)."""
    view.tabs.setCurrentIndex(index)
    page = view.tabs.widget(index)
    guidance = ("empty-hint", "greyed-why")
    return [
        lab.text()
        for lab in page.findChildren(QLabel)
        if lab.wordWrap() and lab.text() and lab.objectName() not in guidance
    ]


def click(qtbot: Any, box: QCheckBox) -> None:
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))


def choose(combo: QComboBox, text: str) -> None:
    """Pick an entry as a user does (activated, not only current)."""
    index = combo.findText(text)
    assert index >= 0, f"{text!r} is not offered: {[combo.itemText(i) for i in range(combo.count())]}"
    combo.setCurrentIndex(index)
    combo.activated.emit(index)


# --- Space Fighter Alpha -----------------------------------------------------------------------


def test_help_quotes_the_catalog_so_a_house_rule_preset_changes_it(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    house = house_preset(tmp_path / "house", "dear-turrets", "Dear turrets", "    mounts:\n      turret: {cost: 2}\n")
    window.settings.setValue("catalog/folder", str(house))
    view = window.new("starfighter")
    assert view is not None, window.errors  # type: ignore[attr-defined]
    [note] = page_texts(view, 2)
    assert note.startswith("Step Three: Weapons. Turret +1 and Fire-Linked +1 per weapon")
    add_from_browser(qtbot, view, "weapons", "Light Laser")
    assert table_widget(view, "weapons", 0, 2).toolTip() == "Turret of Light Laser: A turret costs 1 more per weapon"
    view.tabs.setCurrentIndex(0)
    choose(_preset_combo(view), "Dear turrets")
    assert view.doc.preset == "dear-turrets"
    [note] = page_texts(view, 2)
    assert note.startswith("Step Three: Weapons. Turret +2 and Fire-Linked +1 per weapon")
    assert table_widget(view, "weapons", 0, 2).toolTip() == "Turret of Light Laser: A turret costs 2 more per weapon"
    table_widget(view, "weapons", 0, 2).click()  # the Turret box
    lines = [i.label for i in view.doc.report.pool("weapon-points").items]  # type: ignore[union-attr]
    assert "1 x Light Laser (2 + 2 turret each)" in lines  # the engine agrees with the help
    window.undo_action.trigger()
    window.undo_action.trigger()  # the preset change
    assert view.doc.preset == "as-written"
    assert page_texts(view, 2)[0].startswith("Step Three: Weapons. Turret +1 ")


def _preset_combo(view: DocumentView) -> QComboBox:
    combo, _note = view.steps.presets[0]
    return combo


def test_levels_only_for_per_level_items_and_the_ai_spread_only_for_a_virtual_pilot(
    qtbot: Any, window: MainWindow
) -> None:
    view = window.new("starfighter")
    view.tabs.setCurrentIndex(3)
    add_from_browser(qtbot, view, "technology", "Enhanced Lasers")
    add_from_browser(qtbot, view, "technology", "Artificial Intelligence")
    lasers = [table_widget(view, "technology", 0, c).isEnabled() for c in range(1, 5)]
    ai = [table_widget(view, "technology", 1, c).isEnabled() for c in range(1, 5)]
    assert lasers == [False, False, False, False]  # one level, no pilot to spread points over
    assert ai == [True, True, True, True]
    dex: QSpinBox = table_widget(view, "technology", 1, 2)
    assert dex.accessibleName() == "AI Dex of Artificial Intelligence"
    type_into(qtbot, dex, "2")
    assert view.doc.design.technology[1].options == {"dexterity": 2}


def test_a_named_pilot_is_one_click_and_one_undo_step(qtbot: Any, window: MainWindow) -> None:
    view = window.new("starfighter")
    view.tabs.setCurrentIndex(4)
    name = field(view, "pilot.name")
    assert not name.isEnabled()
    steps = view.doc.undo_stack.count()
    click(qtbot, toggle(view, "This craft has a named pilot"))
    assert view.doc.design.pilot is not None and view.doc.design.pilot.dexterity == 3
    assert name.isEnabled() and field(view, "pilot.dexterity").value() == 3
    assert view.doc.undo_stack.count() == steps + 1
    type_into(qtbot, name, "Wedge")
    assert view.doc.design.pilot.name == "Wedge"
    window.undo_action.trigger()
    window.undo_action.trigger()
    assert view.doc.design.pilot is None and not name.isEnabled()
    assert not toggle(view, "This craft has a named pilot").isChecked()


def test_the_priority_explains_itself_in_the_catalogs_words_and_a_pinned_order_can_be_chosen(
    qtbot: Any, window: MainWindow
) -> None:
    view = window.open_file(EXAMPLES / "rebel-frigate.ship")
    assert view is not None
    view.tabs.setCurrentIndex(1)
    page = view.tabs.widget(1)
    [explained] = [lab for lab in page.findChildren(QLabel) if lab.accessibleName() == "Attribute priority"]
    assert explained.text() == (
        "Free dots: Soak 2, Move 1, Handling 0 (chosen automatically: wastes least). Net cost 10 Freebie Points."
    )
    order: QComboBox = field(view, "priority")
    assert not order.isEnabled()
    assert "Priority (2, 1, 0 free dots)" in [box.title() for box in page.findChildren(QGroupBox)]
    click(qtbot, toggle(view, "Pin the priority"))
    assert order.isEnabled() and order.currentText() == "Soak > Move > Handling"
    assert explained.text().startswith("Free dots: Soak 2, Move 1, Handling 0 (pinned)")
    choose(order, "Move > Soak > Handling")
    assert view.doc.design.priority == ["move", "soak", "handling"]
    assert explained.text().startswith("Free dots: Move 2, Soak 1, Handling 0 (pinned)")


# --- a ruleset with more: Dock Test -------------------------------------------------------------


@pytest.fixture
def dock(qtbot: Any, window: MainWindow, dock_test: str) -> DocumentView:
    view = window.new("dock", dock_test)
    assert view is not None
    return view


def test_a_detail_area_edits_the_selected_entrys_own_list(qtbot: Any, window: MainWindow, dock: DocumentView) -> None:
    view = dock
    view.tabs.setCurrentIndex(1)
    page = view.tabs.widget(1)
    add_bay = next(b for b in page.findChildren(QPushButton) if b.text() == "Add &bay")
    qtbot.mouseClick(add_bay, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(add_bay, Qt.MouseButton.LeftButton)
    assert [b.name for b in view.doc.design.bays] == ["Bay 1", "Bay 2"]
    bays = next(e for e in view.steps.lists if e.list_path == "bays")
    assert bays.currentRow() == 1  # the bay just added, its detail ready to fill in
    # the detail area is the second bay's: its notes and its parts
    notes = field(view, "bays[1].notes")
    assert isinstance(notes, QPlainTextEdit) and notes.accessibleName() == "Notes"
    add_from_browser(qtbot, view, "parts", "Crane")
    add_from_browser(qtbot, view, "parts", "Welder")
    assert [p.id for p in view.doc.design.bays[1].parts] == ["crane", "welder"]
    assert view.doc.design.bays[0].parts == []
    level_crane = table_widget(view, "bays[1].parts", 0, 1)
    level_welder = table_widget(view, "bays[1].parts", 1, 1)
    assert not level_crane.isEnabled() and level_welder.isEnabled()  # only the welder comes in levels
    type_into(qtbot, level_welder, "3")
    assert view.doc.design.bays[1].parts[1].count == 3
    # the summary counts what the parts cost, line by line
    assert ["Parts cost", "6 credits"] in view.summary.values()
    cost = next(view.summary.topLevelItem(i) for i in range(view.summary.topLevelItemCount()))
    assert [cost.child(i).text(0) for i in range(cost.childCount())] == ["1 x Crane in Bay 2", "3 x Welder in Bay 2"]
    assert view.boxes["Budgets"].isHidden()  # no pools: no budget table
    # the report's track, slot and action, read-only
    record = view.record
    rows = {
        record.topLevelItem(g).child(r).text(0): record.topLevelItem(g).child(r).text(1)
        for g in range(record.topLevelItemCount())
        for r in range(record.topLevelItem(g).childCount())
    }
    assert rows == {"Wear": "☒1 ☒2 ☐3", "Spare berth": "—", "Launch": "allowed"}
    # a finding's path (or any path) inside an entry focuses that entry's field
    bays.setCurrentCell(0, 0)
    window.activateWindow()
    assert view.focus_path("bays[1].parts[1].count")
    assert bays.currentRow() == 1 and QApplication.focusWidget() is table_widget(view, "bays[1].parts", 1, 1)
    assert view.focus_path("bays[0].notes")
    assert QApplication.focusWidget() is field(view, "bays[0].notes")
    # undo takes the parts out again, one step each, and the detail follows
    for _ in range(3):
        window.undo_action.trigger()
    assert view.doc.design.bays[1].parts == []


def test_help_follows_the_preset_in_any_ruleset(qtbot: Any, dock: DocumentView) -> None:
    assert page_texts(dock, 1) == ["A crane costs 3 credits."]
    actions = dock.record.topLevelItem(2)
    assert actions is not None and (actions.child(0).text(0), actions.child(0).text(1)) == (
        "Launch",
        "not allowed: no bay",
    )
    dock.tabs.setCurrentIndex(0)
    choose(_preset_combo(dock), "Dear cranes")
    assert page_texts(dock, 1) == ["A crane costs 7 credits."]


def test_a_map_of_percentages_and_a_ladder_with_words(qtbot: Any, dock: DocumentView) -> None:
    rigging: QSpinBox = field(dock, "skills.rigging")
    assert rigging.text() == "untrained" and rigging.suffix() == "%"
    assert rigging.accessibleName() == "Rigging"
    type_into(qtbot, rigging, "40")
    assert dock.doc.design.skills == {"rigging": 40}
    rigging.setValue(rigging.minimum())
    assert dock.doc.design.skills == {}  # back to untrained: the key is left out
    grade: QSpinBox = field(dock, "grade")
    assert grade.text() == "Fair (+0)"
    grade.stepBy(1)
    assert dock.doc.design.grade == 1 and grade.text() == "Good (+1)"
    grade.setValue(4)
    assert grade.text() == "Great (+4)" and grade.toolTip() == "how well the dock is kept"


def test_an_optional_chief_and_every_field_labelled(qtbot: Any, dock: DocumentView) -> None:
    click(qtbot, toggle(dock, "The dock has a chief"))
    assert dock.doc.design.chief is not None and field(dock, "chief.years").isEnabled()
    dock.finish_building()
    buddies = {lab.buddy() for lab in dock.findChildren(QLabel) if lab.buddy() is not None}
    assert [
        p for p, b in dock.binder.bindings.items() if b.widget not in buddies or not b.widget.accessibleName()
    ] == []


def test_actions_make_a_new_design_or_replace_this_one_in_one_undo_step(
    qtbot: Any, window: MainWindow, dock: DocumentView
) -> None:
    asked: list[str] = []
    dock.steps.ask_params = lambda action: asked.append(action.id) or {"bays": 3, "name": "Yard"}  # type: ignore[method-assign]
    fresh = dock.steps.action_buttons["fresh"]
    strip = dock.steps.action_buttons["strip"]
    assert fresh.text() == "&New dock of bays…" and not strip.isEnabled()  # nothing to strip yet
    qtbot.mouseClick(fresh, Qt.MouseButton.LeftButton)
    assert asked == ["fresh"] and window.tabs.count() == 2
    yard = window.current()
    assert yard is not None and yard is not dock
    assert yard.doc.design.name == "Yard" and [b.name for b in yard.doc.design.bays] == ["Bay 1", "Bay 2", "Bay 3"]
    yard.doc.edit("bays[0]", {"name": "Bay 1", "parts": [{"id": "crane"}]})
    strip = yard.steps.action_buttons["strip"]
    assert strip.isEnabled()
    steps = yard.doc.undo_stack.count()
    qtbot.mouseClick(strip, Qt.MouseButton.LeftButton)
    assert yard.doc.design.bays[0].parts == [] and yard.doc.undo_stack.count() == steps + 1
    assert yard.doc.undo_stack.undoText() == "Strip the bays"
    window.undo_action.trigger()
    assert [p.id for p in yard.doc.design.bays[0].parts] == ["crane"]
    # a refusal of the ruleset is reported and opens nothing
    yard.steps.ask_params = lambda action: {"bays": 0, "name": ""}  # type: ignore[method-assign]
    qtbot.mouseClick(yard.steps.action_buttons["fresh"], Qt.MouseButton.LeftButton)
    assert window.tabs.count() == 2 and "a dock has at least one bay" in window.statusBar().currentMessage()


def test_a_ruleset_may_bring_hand_written_pages_instead_of_the_generated_ones(
    qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The escape hatch: a manifest's ``editor_pages`` names a page class of the ruleset's own."""
    import shutil

    package = tmp_path / "pkgs" / "dock_by_hand"
    shutil.copytree(RULESETS / "dock_test", package)
    manifest = package / "manifest.yaml"
    manifest.write_text(
        manifest.read_text().replace("id: dock-test", "id: dock-by-hand")
        + "editor_pages: dock_by_hand.pages:DockPages\n"
    )
    install_ruleset(monkeypatch, tmp_path / "site", package, "dock-by-hand")
    view = window.new("dock", "dock-by-hand")
    assert view is not None, window.errors  # type: ignore[attr-defined]
    assert isinstance(view.steps, HandWritten) and type(view.steps.hand_written).__name__ == "DockPages"
    assert [view.tabs.tabText(i) for i in range(view.tabs.count())] == ["&Dock by hand"]
    name = field(view, "name")
    type_into(qtbot, name, "Hand dock")
    assert view.doc.design.name == "Hand dock" and view.doc.undo_stack.count() == 1
    view.doc.insert("bays", {"name": "Bay 1"})
    bays = next(lab for lab in view.findChildren(QLabel) if lab.accessibleName() == "Bays")
    assert bays.text() == "1"  # the page's refresh follows the document
    window.undo_action.trigger()
    window.undo_action.trigger()
    assert view.doc.design.name == "New dock" and name.text() == "New dock" and bays.text() == "0"
    window.activateWindow()
    assert view.focus_path("name") and QApplication.focusWidget() is name


def test_hand_written_pages_without_refresh_are_refused_naming_the_class(
    qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A page class the manifest names must have what the page contract requires: one without
    ``refresh()`` opens nothing and the error names the class and what it lacks."""
    import shutil

    package = tmp_path / "pkgs" / "dock_half_done"
    shutil.copytree(RULESETS / "dock_test", package)
    pages = package / "pages.py"
    pages.write_text(pages.read_text().replace("    def refresh(self) -> None:", "    def later(self) -> None:"))
    manifest = package / "manifest.yaml"
    manifest.write_text(
        manifest.read_text().replace("id: dock-test", "id: dock-half-done")
        + "editor_pages: dock_half_done.pages:DockPages\n"
    )
    install_ruleset(monkeypatch, tmp_path / "site", package, "dock-half-done")
    assert window.new("dock", "dock-half-done") is None
    assert window.tabs.count() == 0
    [(title, text)] = window.errors  # type: ignore[attr-defined]
    assert title == "Cannot start a new design"
    assert "'dock_half_done.pages:DockPages'" in text and "'refresh()'" in text
