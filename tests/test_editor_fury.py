"""The editor on Space Fury designs: fighters, pilots and forces, driven like a user would.

Space Fury's pages are generated from its declared form (catalogs/space-fury/form.yaml),
one set of pages for each kind of design. Same conventions as test_editor (pytest-qt,
offscreen; real modal dialogs fail the test at once): an action's dialog (a roll's seed
and level, a sample fighter, a crew) is built for real and filled by typing, and the
pages' ``ask_params`` returns its values instead of running it modally.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QComboBox, QGroupBox, QLabel, QPushButton

from shipyard._qt.view.documentview import DocumentView
from shipyard._qt.window.window import MainWindow
from shipyard.core.catalog import load_catalog
from shipyard.core.designfile import load_design
from shipyard.core.evaluate import evaluate
from shipyard.core.report import Report
from shipyard.rulesets import space_fury as sf

from .conftest import FURY_EXAMPLES
from .editor_pages import (
    PAUSE_MS,
    button,
    cell,
    click_box,
    dialog,
    dialog_widget,
    figure_label,
    figure_shown,
    go,
    menu_action,
    offered,
    steps,
    tab,
    table,
    toggle_named,
)
from .test_editor import (  # noqa: F401  (shared fixtures)
    _quiet,
    add_from_browser,
    field,
    no_blocking_dialogs,
    preview_window,
    type_into,
    window,
)


def fury(preset: str = "as-written") -> Any:
    return load_catalog("space-fury", preset=preset, use_user_folder=False)


PUBLISHED = "Compare with the enhancement count the source publishes"
HAS_PILOT = "This fighter has a pilot at its controls"


def new_from_menu(window: MainWindow, what: str) -> DocumentView:
    menu_action(window, "New", f"Space Fury {what}").trigger()
    view = window.current()
    assert view is not None and view.doc.loaded.ruleset == "space-fury" and view.doc.design.kind == what
    return view


COUNTED = ("enhancements", "total-cost")  # the figures Space Fury's rules count up


def counted_shown(view: DocumentView, ids: tuple[str, ...] = COUNTED) -> list[str]:
    """The counted figures as the design's pages show them: "Enhancements: 5"."""
    return [figure_shown(view, i) for i in ids]


def counted_expected(report: Report, ids: tuple[str, ...] = COUNTED) -> list[str]:
    figs = {f.id: f for f in report.derived.figures}
    return [f"{figs[i].label}: {figs[i].value}" + (f" {figs[i].unit}" if figs[i].unit else "") for i in ids]


def counted_tip(view: DocumentView, fig_id: str) -> str:
    """The tooltip of a figure on the pages: a counted figure lists its parts."""
    return figure_label(view, fig_id).toolTip()


def build_interceptor(qtbot: Any, window: MainWindow) -> DocumentView:
    """The Interceptor of the sample fighters, from File > New > Space Fury fighter."""
    view = new_from_menu(window, "fighter")
    # 1 Fighter
    type_into(qtbot, field(view, "name"), "Interceptor")
    click_box(qtbot, toggle_named(view, PUBLISHED))
    type_into(qtbot, field(view, "published.enhancements"), "4")
    type_into(qtbot, field(view, "published.systems"), "Turbo Laser, Speed +1, Maneuver +2, Targeter +1")
    notes = field(view, "notes")
    notes.setFocus()
    qtbot.keyClicks(
        notes,
        "Human design from SAMPLE FIGHTER DESCRIPTIONS. The basic Laser every fighter has is not an enhancement; "
        "a published special gun with no plain Laser listed replaces it.",
    )
    qtbot.wait(PAUSE_MS)  # a person's pause: the notes commit
    # 2 Enhancements
    go(view, 1)
    add_from_browser(qtbot, view, "enhancements", "Turbo Laser")
    click_box(qtbot, cell(view, "enhancements", 0, 3))  # replaces the basic Laser
    add_from_browser(qtbot, view, "enhancements", "Engines")
    add_from_browser(qtbot, view, "enhancements", "Thrusters")
    type_into(qtbot, cell(view, "enhancements", 2, 1), "2")
    add_from_browser(qtbot, view, "enhancements", "Targeter")
    return view


# --- building a fighter ---------------------------------------------------------------------


def test_build_the_interceptor_from_new_space_fury_fighter(qtbot: Any, window: MainWindow) -> None:
    view = build_interceptor(qtbot, window)
    sample = load_design(FURY_EXAMPLES / "interceptor.ship", use_user_folder=False)
    assert view.doc.design == sample.design and view.doc.preset == sample.preset
    expected = evaluate(sample.design, sample.catalog)
    # nothing to spend, so no budgets: the counted figures, each listing what it counted
    assert view.doc.report.pools == [] and view.budget.rowCount() == 0
    assert counted_shown(view) == counted_expected(expected) == ["Enhancements: 5", "Total cost: 35 points"]
    tip = counted_tip(view, "enhancements")
    assert "+2  2 x Thrusters" in tip and "+1  Turbo Laser" in tip
    # the enhancements page shows each entry's count and the cost, from the report
    assert [cell(view, "enhancements", r, 2).text() for r in range(4)] == ["1", "1", "2", "1"]
    page = view.tabs.widget(tab(view, 1))
    shown = {lab.accessibleName(): lab.text() for lab in page.findChildren(QLabel) if lab.objectName()[:7] == "figure:"}
    assert shown == {"Enhancements": "5", "Cost": "35 points", "Total cost": "35 points"}
    findings = [view.findings.item(i).text() for i in range(view.findings.count())]
    assert [f.message for f in expected.findings] == [t.split(": ", 1)[1].split(" — at")[0] for t in findings]
    assert window.windowTitle() == "Interceptor[*] — Shipyard" and window.isWindowModified()


def test_undo_to_the_new_fighter_and_redo_to_the_interceptor(qtbot: Any, window: MainWindow) -> None:
    view = build_interceptor(qtbot, window)
    built = view.doc.design
    stack = view.doc.undo_stack
    assert stack.count() == 11  # one step a field typed, a box ticked, an enhancement added
    while stack.canUndo():
        window.undo_action.trigger()
    fresh = view.doc.design.root
    assert fresh.name == "New fighter" and fresh.enhancements == [] and fresh.published is None and fresh.notes == ""
    assert field(view, "name").text() == "New fighter" and not window.isWindowModified()
    assert counted_shown(view) == counted_expected(evaluate(view.doc.design, view.doc.catalog))
    assert counted_shown(view) == ["Enhancements: 0", "Total cost: 20 points"]  # the Fighter Cost table's first row
    assert not toggle_named(view, PUBLISHED).isChecked()
    assert not field(view, "published.enhancements").isEnabled()
    assert field(view, "published.enhancements").text() == ""  # no published figure: no number (it showed 0)
    while stack.canRedo():
        window.redo_action.trigger()
    assert view.doc.design == built and cell(view, "enhancements", 2, 1).value() == 2
    assert field(view, "published.enhancements").text() == str(built.root.published.enhancements)


def test_adding_an_enhancement_it_has_counts_one_more_and_a_rack_is_bought_full(qtbot: Any, window: MainWindow) -> None:
    view = new_from_menu(window, "fighter")
    go(view, 1)
    add_from_browser(qtbot, view, "enhancements", "Armor")
    add_from_browser(qtbot, view, "enhancements", "Armor")
    add_from_browser(qtbot, view, "enhancements", "Missile Rack")
    root = view.doc.design.root
    assert [(c.id, c.count) for c in root.enhancements] == [("armor", 2), ("missile-rack", 2)]
    assert "rack-not-full" not in view.doc.report.codes()


def test_the_table_filter_shows_one_tables_entries_with_their_rolls(qtbot: Any, window: MainWindow) -> None:
    view = new_from_menu(window, "fighter")
    go(view, 1)
    browser = next(b for b in steps(view).browsers if b.kind == "enhancements")
    table: QComboBox = browser.group  # type: ignore[attr-defined]
    assert table.itemText(0) == "All tables" and table.accessibleName() == "Show the enhancements of"
    table.setCurrentIndex(table.findData("special-weapon"))
    shown = [browser.list.item(i).text() for i in range(browser.list.count()) if not browser.list.item(i).isHidden()]
    assert len(shown) == 9 and shown[0] == "Turbo Laser   1   · Special Weapon 1"
    assert "Rail Gun   2   · Special Weapon 3" in shown
    table.setCurrentIndex(0)
    missiles = next(
        browser.list.item(i) for i in range(browser.list.count()) if "Missile Rack" in browser.list.item(i).text()
    )
    assert missiles.text() == "Missile Rack   1 per 2 missiles   · Primary 4" and not missiles.isHidden()
    browser.list.setCurrentItem(
        next(browser.list.item(i) for i in range(browser.list.count()) if "Rail" in browser.list.item(i).text())
    )
    detail = browser.detail.toPlainText()
    assert "Costs 2 enhancements." in detail
    assert "Special Weapon Table: roll 3 (reached by a 6 on the Primary Enhancements Table)" in detail


def test_a_turret_carries_the_weapon_chosen_for_it(qtbot: Any, window: MainWindow) -> None:
    view = new_from_menu(window, "fighter")
    go(view, 1)
    add_from_browser(qtbot, view, "enhancements", "Armor")
    add_from_browser(qtbot, view, "enhancements", "Turret")
    assert "turret-empty" in view.doc.report.codes()
    enhancements = next(e for e in steps(view).lists if e.list_path == "enhancements")
    enhancements.setCurrentCell(0, 0)  # Armor carries nothing: no detail to show
    detail = next(
        b for b in view.tabs.widget(tab(view, 1)).findChildren(QGroupBox) if b.title() == "Enhancements: Armor"
    )
    assert detail.isHidden()
    enhancements.setCurrentCell(1, 0)  # the Turret: the weapons it carries
    assert not detail.isHidden() and detail.title() == "Enhancements: Turret"
    qtbot.mouseClick(button(view, 1, "Add a &weapon to it"), Qt.MouseButton.LeftButton)
    assert view.doc.design.root.enhancements[1].weapons == ["laser"]  # the basic Laser, which no mount carries
    combo = cell(view, "enhancements[1].weapons", 0, 0)
    assert combo.accessibleName() == "Weapon of laser" and combo.currentText() == "Laser (the fighter has 1)"
    assert "turret-empty" not in view.doc.report.codes() and view.doc.report.valid
    weapons = table(view, "weapons")
    assert weapons.rows()[0][:3] == ["Laser", "1", "Turret"]


# --- rolling --------------------------------------------------------------------------------


def test_a_seeded_roll_is_the_engines_roll_and_one_undo_step(qtbot: Any, window: MainWindow) -> None:
    view = new_from_menu(window, "fighter")
    go(view, 1)
    s = steps(view)
    asked: list[int] = []

    def ask(act: Any) -> Any:
        dlg = dialog(view, act.id)
        count = dialog_widget(dlg, "Enhancements")
        asked.append(count.value())  # what the dialog offers for a fighter of no enhancements
        type_into(qtbot, count, "5")
        type_into(qtbot, dialog_widget(dlg, "Seed"), "42")
        return dlg.values()

    s.ask_params = ask  # type: ignore[method-assign]
    before, steps_before = view.doc.design, view.doc.undo_stack.count()
    qtbot.mouseClick(button(view, 1, "&Roll at random…"), Qt.MouseButton.LeftButton)
    assert asked == [5]
    engine = sf.roll_fighter(fury(), 5, 42).root
    root = view.doc.design.root
    assert (root.enhancements, root.seed, root.rolls) == (engine.enhancements, 42, engine.rolls)
    assert root.name == "New fighter" and view.doc.undo_stack.count() == steps_before + 1
    figures = {f.id: f.value for f in view.doc.report.derived.figures}
    assert figures["enhancements"] == 5 and figures["cost"] == 35
    go(view, 3)
    assert figure_shown(view, "rolled") == "Rolled: seed 42"
    log = table(view, "rolls")
    assert [r[1:4] for r in log.rows()] == [
        [r[1], str(r[2]), str(r[3])]
        for r in view.doc.report.derived.table("rolls").rows  # type: ignore[union-attr]
    ]
    assert log.rows()[0][1:4] == ["Primary Enhancements Table", "2", "Engines"]
    clear = button(view, 3, "&Clear the roll log")
    assert clear.isEnabled()
    qtbot.mouseClick(clear, Qt.MouseButton.LeftButton)
    assert view.doc.design.root.rolls == [] and view.doc.design.root.enhancements == engine.enhancements
    assert not clear.isEnabled() and log.isHidden() and not log.placeholder.isHidden()
    window.undo_action.trigger()
    window.undo_action.trigger()
    assert view.doc.design == before


def test_a_rolled_pilot_for_a_fighter_is_the_engines_pilot(qtbot: Any, window: MainWindow) -> None:
    view = new_from_menu(window, "fighter")
    go(view, 2)
    s = steps(view)
    page = view.tabs.widget(tab(view, 2))
    QApplication.processEvents()  # the page built a moment ago is shown
    assert not field(view, "pilot.name").isVisibleTo(page)  # no pilot: nothing of one to fill in
    click_box(qtbot, toggle_named(view, HAS_PILOT))
    assert view.doc.design.root.pilot is not None and field(view, "pilot.name").isVisibleTo(page)
    type_into(qtbot, field(view, "pilot.name"), "Kim")

    def ask(act: Any) -> Any:
        dlg = dialog(view, act.id)
        assert dialog_widget(dlg, "Level").value() == 1 and dialog_widget(dlg, "or XP").text() == "the level's"
        type_into(qtbot, dialog_widget(dlg, "or XP"), "20")
        type_into(qtbot, dialog_widget(dlg, "Seed"), "7")
        return dlg.values()

    s.ask_params = ask  # type: ignore[method-assign]
    count = view.doc.undo_stack.count()
    qtbot.mouseClick(button(view, 2, "R&oll a pilot…"), Qt.MouseButton.LeftButton)
    engine = sf.crew(sf.new_design("fighter", "New fighter", fury()), sf.roll_pilot(fury(), 7, xp=20, name="Kim"))
    assert view.doc.design == sf.resolve(engine, fury()) and view.doc.undo_stack.count() == count + 1
    figures = {f.id: f.value for f in view.doc.report.derived.figures}
    assert figures["total-cost"] == 20 + 20 and figures["level"] == 5  # a fighter of no enhancements + the XP
    assert counted_shown(view) == counted_expected(evaluate(view.doc.design, view.doc.catalog))
    assert "+20  Pilot Kim: 20 XP" in counted_tip(view, "total-cost")


# --- a pilot and a force ----------------------------------------------------------------------


def test_a_pilot_from_new_space_fury_pilot(qtbot: Any, window: MainWindow) -> None:
    view = new_from_menu(window, "pilot")
    assert [view.tabs.tabText(i) for i in range(view.tabs.count()) if view.tabs.isTabVisible(i)] == [
        "&1 Pilot",
        "&2 Skills and quirks",
        "&3 Roll log",
    ]
    assert view.doc.report.findings == []  # a level 1 pilot with Basic Combat Pilot
    type_into(qtbot, field(view, "name"), "Hayes")
    type_into(qtbot, field(view, "xp"), "10")
    assert "skills-unassigned" in view.doc.report.codes()
    go(view, 1)
    for name in ("Accuracy", "Evasion", "Accuracy"):
        add_from_browser(qtbot, view, "pilot_skills", name)
    add_from_browser(qtbot, view, "quirks", "Focused")
    expected = sf.resolve(
        sf.SpaceFuryDesign.model_validate(
            {
                "kind": "pilot",
                "name": "Hayes",
                "xp": 10,
                "skills": ["Basic Combat Pilot", "Accuracy", "Evasion", "Accuracy"],
                "quirks": ["Focused"],
            }
        ),
        fury(),
    )
    assert view.doc.design == expected
    report = evaluate(expected, fury())
    assert view.doc.report.findings == report.findings == []
    assert [figure_shown(view, f) for f in ("level", "cool", "reputation")] == [
        "Level: 4",
        "Cool: 6",
        "Reputation: Regular",
    ]
    cost = ("total-cost",)  # a pilot counts no enhancements
    assert counted_shown(view, cost) == counted_expected(report, cost) == ["Total cost: 10 points"]
    modifiers = table(view, "modifiers")
    assert next(r[:2] for r in modifiers.rows() if r[0] == "Accuracy") == ["Accuracy", "+2"]
    # rolling replaces XP, skills and quirks in one step, keeping the name
    assert dialog_widget(dialog(view, "roll-pilot"), "Level").value() == 4  # the pilot's level now
    steps(view).ask_params = lambda act: {"seed": "11", "level": 6, "xp": None}  # type: ignore[method-assign]
    count = view.doc.undo_stack.count()
    qtbot.mouseClick(button(view, 0, "R&oll a pilot…"), Qt.MouseButton.LeftButton)
    assert view.doc.design == sf.roll_pilot(fury(), 11, level=6, name="Hayes")
    assert view.doc.undo_stack.count() == count + 1
    window.undo_action.trigger()
    assert view.doc.design == expected


def test_a_force_of_sample_fighters_and_a_crewed_reserve_pilot(qtbot: Any, window: MainWindow) -> None:
    view = new_from_menu(window, "force")
    s = steps(view)
    go(view, 1)
    assert {"Interceptor", "Gunship"} <= set(offered(view, "add-sample", "Sample fighter"))
    for stem in ("interceptor", "gunship"):
        s.ask_params = lambda act, stem=stem: {"sample": stem}  # type: ignore[method-assign]
        qtbot.mouseClick(button(view, 1, "Add a &sample fighter…"), Qt.MouseButton.LeftButton)
    go(view, 2)
    s.ask_params = lambda act: {"seed": "3", "level": 4, "xp": None}  # type: ignore[method-assign]
    qtbot.mouseClick(button(view, 2, "R&oll a pilot…"), Qt.MouseButton.LeftButton)
    qtbot.mouseClick(button(view, 2, "&Add a level 1 pilot"), Qt.MouseButton.LeftButton)
    force = view.doc.design.root
    assert [f.name for f in force.fighters] == ["Interceptor", "Gunship"] and len(force.pilots) == 2
    samples = sf.sample_fighters(fury())
    engine = sf.force(
        "New force",
        [
            sf.as_fighter(samples["interceptor"]),
            sf.as_fighter(samples["gunship"]),
            sf.roll_pilot(fury(), 3, level=4),
            sf.as_pilot(sf.PilotData(name="Pilot 2", xp=1, skills=["basic-combat-pilot"]), "Pilot 2"),
        ],
    )
    assert view.doc.design == engine
    assert counted_shown(view, ("total-cost",)) == counted_expected(evaluate(engine, fury()), ("total-cost",))
    # the reserve pilots' levels and skills, from the report
    assert [cell(view, "pilots", r, 2).text() for r in range(2)] == ["4", "1"]
    assert [cell(view, "pilots", r, 3).text() for r in range(2)] == ["4", "1"]
    assert cell(view, "pilots", 1, 3).toolTip() == "Basic Combat Pilot"
    # crew the Gunship with the rolled pilot: one step, the pilot leaves the reserves
    go(view, 1)
    assert offered(view, "crew", "Reserve pilot") == ["Rolled pilot 3", "Pilot 2"]
    assert not button(view, 1, "&Move a fighter's pilot to the reserves…").isEnabled()  # nobody flies yet
    s.ask_params = lambda act: {"fighter": 1, "pilot": 0}  # type: ignore[method-assign]
    count = view.doc.undo_stack.count()
    qtbot.mouseClick(button(view, 1, "C&rew a fighter with a reserve pilot…"), Qt.MouseButton.LeftButton)
    force = view.doc.design.root
    assert force.fighters[1].pilot is not None and force.fighters[1].pilot.name == "Rolled pilot 3"
    assert [p.name for p in force.pilots] == ["Pilot 2"] and view.doc.undo_stack.count() == count + 1
    assert offered(view, "crew", "Fighter")[1] == "Gunship: flown by Rolled pilot 3"
    assert button(view, 1, "&Move a fighter's pilot to the reserves…").isEnabled()
    assert cell(view, "fighters", 1, 1).text() == "Rolled pilot 3" and cell(view, "fighters", 1, 1).isEnabled()
    assert not cell(view, "fighters", 0, 1).isEnabled()  # the Interceptor has no pilot to name
    total = {f.id: f.value for f in view.doc.report.derived.figures}["total-cost"]
    assert total == 35 + 75 + 10 + 1 and counted_shown(view, ("total-cost",)) == [f"Total cost: {total} points"]
    roster = table(view, "roster")
    assert roster.rows()[1][7:9] == ["Rolled pilot 3", "4"]
    window.undo_action.trigger()
    assert view.doc.design == engine


# --- findings, files, welcome page, preview and printing ---------------------------------------


def test_clicking_a_finding_focuses_its_field(qtbot: Any, window: MainWindow) -> None:
    view = window.open_sample(FURY_EXAMPLES / "interceptor.ship")
    assert view is not None
    window.activateWindow()
    go(view, 1)
    findings = view.findings
    row = next(
        i
        for i in range(findings.count())
        if findings.item(i).data(Qt.ItemDataRole.UserRole) == "published.enhancements"
    )
    qtbot.mouseClick(
        findings.viewport(), Qt.MouseButton.LeftButton, pos=findings.visualItemRect(findings.item(row)).center()
    )
    assert view.tabs.currentIndex() == 0 and QApplication.focusWidget() is field(view, "published.enhancements")
    # in a list: the advice on the Turbo Laser's replacing the basic Laser focuses its row's box
    assert view.focus_path("enhancements[0].replaces_basic")
    assert view.tabs.currentIndex() == 1 and QApplication.focusWidget() is cell(view, "enhancements", 0, 3)
    # a turret's weapon focuses the turret's row and, in its detail, the weapons it carries
    view.doc.insert("enhancements", {"id": "turret"})
    assert "turret-empty" in view.doc.report.codes()
    go(view, 0)
    assert view.focus_path("enhancements[4].weapons")
    weapons = next(e for e in steps(view).lists if e.list_path == "enhancements[4].weapons")
    assert view.tabs.currentIndex() == 1 and QApplication.focusWidget() is weapons
    assert next(e for e in steps(view).lists if e.list_path == "enhancements").currentRow() == 4


def test_a_pilots_finding_focuses_its_field(qtbot: Any, window: MainWindow) -> None:
    view = new_from_menu(window, "pilot")
    window.activateWindow()
    view.doc.edit("level", 3)
    assert {"xp-below-level", "skills-unassigned"} <= set(view.doc.report.codes())
    go(view, 2)
    assert view.focus_path("xp") and view.tabs.currentIndex() == tab(view, 0)
    assert QApplication.focusWidget() is field(view, "xp")
    assert view.focus_path("skills") and view.tabs.currentIndex() == tab(view, 1)
    skills = next(e for e in steps(view).lists if e.list_path == "skills")
    assert QApplication.focusWidget() is skills and skills.currentRow() == 0


def test_save_and_reopen_a_space_fury_design(qtbot: Any, window: MainWindow, tmp_path: Path) -> None:
    build_interceptor(qtbot, window)
    target = tmp_path / "interceptor.ship"
    window.ask_save_path = lambda _doc: target  # type: ignore[method-assign]
    assert window.save() and not window.isWindowModified()
    assert window.close_tab(window.tabs.currentIndex())
    again = window.open_file(target)
    assert again is not None and again.doc.design == load_design(FURY_EXAMPLES / "interceptor.ship").design


def test_welcome_page_and_menus_offer_space_fury(qtbot: Any, window: MainWindow) -> None:
    welcome = window.stack.widget(0)
    buttons = {b.accessibleName(): b for b in welcome.findChildren(QPushButton) if "Space Fury" in b.accessibleName()}
    assert set(buttons) == {"New Space Fury fighter", "New Space Fury pilot", "New Space Fury force"}
    for kind in ("fighter", "pilot", "force"):
        qtbot.mouseClick(buttons[f"New Space Fury {kind}"], Qt.MouseButton.LeftButton)
        cur = window.current()
        assert cur is not None and cur.doc.design.kind == kind and cur.doc.title == f"New {kind}"
        assert not cur.doc.modified and cur.doc.report.valid
    # New from sample has the Space Fury samples too; a sample opens untitled
    menu_action(window, "New from sample", "Heavy Bomber").trigger()
    cur = window.current()
    assert cur is not None and cur.doc.path is None and cur.doc.design.name == "Heavy Bomber"
    menu_action(window, "New", "Starship").trigger()
    cur = window.current()
    assert cur is not None and cur.doc.loaded.ruleset == "space-fighter-alpha" and cur.doc.design.scale == "starship"


def test_the_preset_changes_the_reading_as_one_undo_step(qtbot: Any, window: MainWindow) -> None:
    view = window.open_sample(FURY_EXAMPLES / "interceptor.ship")
    assert view is not None
    combo, note = steps(view).presets[0]
    combo.setCurrentIndex(combo.findData("sample-fighters"))
    combo.activated.emit(combo.currentIndex())
    sample = load_design(FURY_EXAMPLES / "interceptor.ship", preset="sample-fighters", use_user_folder=False)
    assert view.doc.preset == "sample-fighters" and "replace the basic Laser" in note.text()
    assert (
        counted_shown(view)
        == counted_expected(evaluate(sample.design, sample.catalog))
        == ["Enhancements: 4", "Total cost: 30 points"]
    )
    go(view, 1)
    assert cell(view, "enhancements", 0, 2).text() == "1 − 1"  # the Turbo Laser replaces the basic Laser
    window.undo_action.trigger()
    assert view.doc.preset == "as-written" and combo.currentData() == "as-written"
    assert counted_shown(view)[0] == "Enhancements: 5"


def test_each_ruleset_has_its_own_default_preset(qtbot: Any, window: MainWindow) -> None:
    window.settings.setValue("design/preset/space-fury", "sample-fighters")
    assert window.new("pilot", "space-fury").doc.preset == "sample-fighters"
    assert window.new("starfighter").doc.preset == "as-written"


def test_the_one_default_preset_of_earlier_versions_applies_where_the_ruleset_has_it(
    qtbot: Any, window: MainWindow
) -> None:
    window.settings.setValue("design/preset", "sample-ships")
    assert window.new("fighter", "space-fury").doc.preset == "as-written"
    assert window.new("starfighter").doc.preset == "sample-ships"
    window.settings.setValue("design/preset", "sample-fighters")
    assert window.new("pilot", "space-fury").doc.preset == "sample-fighters"
    assert window.new("starship").doc.preset == "as-written"


def test_every_field_has_an_accessible_name_and_a_label(qtbot: Any, window: MainWindow) -> None:
    from PySide6.QtWidgets import QLabel

    for kind in ("fighter", "pilot", "force"):
        view = window.new(kind, "space-fury")
        view.finish_building()
        unnamed = [path for path, b in view.binder.bindings.items() if not b.widget.accessibleName()]
        assert unnamed == [], kind
        buddies = {lab.buddy() for lab in view.findChildren(QLabel) if lab.buddy() is not None}
        assert [p for p, b in view.binder.bindings.items() if b.widget not in buddies] == [], kind


def test_the_preview_renders_a_space_fury_sheet(qtbot: Any, preview_window: MainWindow) -> None:
    view = preview_window.open_file(FURY_EXAMPLES / "interceptor.ship")
    assert view is not None
    qtbot.waitUntil(lambda: view.preview is not None and view.preview.renders >= 1, timeout=60_000)
    assert view.preview is not None and view.preview.pdf.pageCount() == 1
    text = view.preview.pdf.getAllText(0).text()
    assert "Interceptor" in text and "Cost 35 points" in " ".join(text.split())
    view.doc.edit("name", "Interceptor Two")
    qtbot.waitUntil(lambda: view.preview.renders >= 2, timeout=60_000)
    assert "Interceptor Two" in view.preview.pdf.getAllText(0).text()
    assert view.preview.status.text() == "Preview: as it will print"


def test_print_cards_for_a_fighter_and_a_pilot_from_the_editor(qtbot: Any, window: MainWindow, tmp_path: Path) -> None:
    from .test_printing import pages_text

    fighter = window.open_file(FURY_EXAMPLES / "interceptor.ship")
    pilot = window.new("pilot", "space-fury")
    pilot.doc.edit("name", "Hayes")
    pilot.doc.edit("xp", 3)
    pilot.doc.insert("skills", "accuracy")
    assert fighter is not None
    opened: list[str] = []
    window.printing.open_url = lambda url: opened.append(url.toLocalFile())  # type: ignore[method-assign]
    out = tmp_path / "cards.pdf"
    window.printing.print_to(out, [fighter.doc, pilot.doc], "cards", "a4")
    qtbot.waitUntil(lambda: bool(opened), timeout=60_000)
    assert opened == [str(out)] and window.errors == []  # type: ignore[attr-defined]
    (text,) = pages_text(out)
    assert "Interceptor Fighter · 5 enh. · 35 pts" in text
    assert "Hayes Pilot · 3 XP · 3 pts" in text and "LEVEL REPUTATION COOL XP 2 Green 4 3" in text


def test_a_force_reads_fighter_files_and_samples_against_its_house_rules(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    house = tmp_path / "house" / "space-fury"
    (house / "examples").mkdir(parents=True)
    (house / "boost-jets.yaml").write_text(
        "enhancements:\n  - id: boost-jets\n    name: Boost Jets\n    source: house rules\n    cost: 1\n"
        "    notes: Speed +2\n    effects:\n      - {type: stat, stat: speed, amount: 2}\n",
        encoding="utf-8",
    )
    (house / "examples" / "broken.ship").write_text('{"format_version": 2, "ruleset": "space-fury",', encoding="utf-8")
    boosted = tmp_path / "boosted.ship"
    boosted.write_text(
        '{"format_version": 2, "ruleset": "space-fury", "design": {"name": "Boosted", "kind": "fighter",'
        ' "enhancements": [{"id": "Boost Jets"}]}}',
        encoding="utf-8",
    )
    window.settings.setValue("catalog/folder", str(tmp_path / "house"))
    view = new_from_menu(window, "force")
    go(view, 1)
    s = steps(view)
    [unreadable] = offered(view, "add-sample", "Sample fighter")
    assert unreadable.startswith("Cannot read the sample fighters: ") and "broken.ship" in unreadable
    s.ask_params = lambda act: {"file": str(boosted)}  # type: ignore[method-assign]
    qtbot.mouseClick(button(view, 1, "Add from a &file…"), Qt.MouseButton.LeftButton)
    assert window.errors == []  # type: ignore[attr-defined]
    [fighter] = view.doc.design.root.fighters
    assert fighter.name == "Boosted" and [e.id for e in fighter.enhancements] == ["boost-jets"]


def test_a_row_the_listing_stops_refusing_can_be_added_again(
    qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ruleset's ``browse`` listing may refuse an item for the design as it stands (shown
    disabled, with the reason); the listing is asked again at every edit, so once the design
    changes and the item is no longer refused, its row can be chosen again. Here a house rule
    allows one kind of Armor: refused while the fighter has Armor, free again after Undo."""
    from dataclasses import replace

    from shipyard.core.formview import Browse, FormContext

    calls = sf.FORM_CALLS
    plain = calls["enhancement_listing"]
    reason = "One Armor enhancement at most (house rule)"

    def one_armor(ctx: FormContext, **kw: Any) -> Browse:
        listing = plain(ctx, **kw)
        if any(e.id == "armor" for e in ctx.design.root.enhancements):  # type: ignore[union-attr]
            listing.items["armor"] = replace(listing.items["armor"], refused=reason)
        return listing

    monkeypatch.setitem(calls, "enhancement_listing", one_armor)
    view = new_from_menu(window, "fighter")
    go(view, 1)
    browser = next(b for b in steps(view).browsers if b.kind == "enhancements")

    def armor_row() -> Any:
        return next(
            browser.list.item(i) for i in range(browser.list.count()) if browser.list.item(i).text().startswith("Armor")
        )

    assert armor_row().flags() & Qt.ItemFlag.ItemIsEnabled
    add_from_browser(qtbot, view, "enhancements", "Armor")
    assert [e.id for e in view.doc.design.root.enhancements] == ["armor"]
    assert not armor_row().flags() & Qt.ItemFlag.ItemIsEnabled
    assert armor_row().toolTip().startswith(reason)
    window.undo_action.trigger()
    assert view.doc.design.root.enhancements == []
    assert armor_row().flags() & Qt.ItemFlag.ItemIsEnabled and reason not in armor_row().toolTip()
    add_from_browser(qtbot, view, "enhancements", "Armor")
    assert [e.id for e in view.doc.design.root.enhancements] == ["armor"]
