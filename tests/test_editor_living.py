"""The editor as people live in it (issue 19): the keyboard, the cause of an overspend and
the way out, findings in words, one undo history, the status bar.

Driven like a user drives it: keys pressed into the widget that has the focus, clicks on
rows; the numbers are the engine's for the sample ships.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QTabBar,
    QWidget,
)

from shipyard._qt.document.keys import takes_tab
from shipyard._qt.view.documentview import DocumentView
from shipyard._qt.window.window import MainWindow
from shipyard.core.evaluate import evaluate

from .conftest import EXAMPLES
from .editor_pages import PAUSE_MS
from .test_editor import field, no_blocking_dialogs, type_into, user_copy, window  # noqa: F401 (fixtures)

INTERACTIVE = (QAbstractButton, QAbstractSpinBox, QComboBox, QLineEdit, QPlainTextEdit, QAbstractItemView, QTabBar)


def focused() -> QWidget | None:
    return QApplication.focusWidget()


def press(qtbot: Any, key: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    target = focused()
    assert target is not None, "nothing has the keyboard focus"
    qtbot.keyClick(target, key, modifier)


def open_sample(qtbot: Any, window: MainWindow, name: str) -> DocumentView:
    view = window.open_file(EXAMPLES / f"{name}.ship")
    assert view is not None
    view.finish_building()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    return view


def controls(view: DocumentView) -> list[QWidget]:
    """Every control a user could operate in the view now (shown, enabled, one Tab may stop at)."""
    found = [
        w
        for w in view.findChildren(QWidget)
        if isinstance(w, INTERACTIVE) and w.isVisible() and w.isEnabled() and takes_tab(w) and w.focusProxy() is None
    ]
    inner = {w.lineEdit() for w in found if isinstance(w, QComboBox | QAbstractSpinBox) and w.lineEdit() is not None}
    return [w for w in found if w not in inner]


def walk(qtbot: Any, start: QWidget, key_modifier: Qt.KeyboardModifier) -> list[QWidget]:
    """Tab (or Shift+Tab) from ``start`` until the focus comes back to it."""
    start.setFocus(Qt.FocusReason.TabFocusReason)
    assert focused() is start
    seen: list[QWidget] = []
    for _ in range(600):
        press(qtbot, Qt.Key.Key_Backtab if key_modifier else Qt.Key.Key_Tab, key_modifier)
        now = focused()
        assert now is not None
        if now is start:
            return seen
        owner = now.parentWidget() if isinstance(now.parentWidget(), QComboBox | QAbstractSpinBox) else now
        seen.append(owner)  # type: ignore[arg-type]
    raise AssertionError(f"Tab never came back to {start.accessibleName()!r}; it went round {seen[-5:]}")


def test_tab_walks_every_control_of_every_step_and_comes_back(qtbot: Any, window: MainWindow) -> None:
    view = open_sample(qtbot, window, "rebel-frigate")
    bar = view.tabs.tabBar()
    for step in range(view.tabs.count()):
        if not view.tabs.isTabVisible(step):
            continue
        view.tabs.setCurrentIndex(step)
        QApplication.processEvents()
        forward = walk(qtbot, bar, Qt.KeyboardModifier.NoModifier)
        wanted = [w for w in controls(view) if w is not bar]
        missed = [f"{type(w).__name__} {w.accessibleName()!r}" for w in wanted if w not in forward]
        assert not missed, f"step {view.tabs.tabText(step)!r}: Tab never reaches {missed}"
        # in reading order: the step's form first, then budgets, summary and findings
        order = [w for w in forward if w in (view.budget, view.findings)]
        assert order == [view.budget, view.findings]
        page = view.tabs.widget(step)
        on_page = [forward.index(w) for w in wanted if page.isAncestorOf(w)]
        assert on_page and max(on_page) < forward.index(view.budget)
        backward = walk(qtbot, bar, Qt.KeyboardModifier.ShiftModifier)
        assert [w for w in reversed(backward) if w in forward] == [w for w in forward if w in backward]


def test_tab_leaves_a_text_box_and_ctrl_tab_types_no_tab(qtbot: Any, window: MainWindow) -> None:
    """Ctrl+Tab is the window's everywhere, a text box too: the next open design
    (tests/test_editor_switching.py); with one design open it says so and types nothing."""
    view = open_sample(qtbot, window, "rebel-fighter")
    concept = field(view, "concept")
    before = view.doc.design
    concept.setFocus()
    press(qtbot, Qt.Key.Key_Tab)
    assert focused() is not concept and view.doc.design == before and not view.doc.modified
    concept.setFocus()
    concept.moveCursor(concept.textCursor().MoveOperation.End)
    press(qtbot, Qt.Key.Key_Tab, Qt.KeyboardModifier.ControlModifier)
    qtbot.wait(PAUSE_MS)  # longer than the commit delay: anything typed would be committed
    assert focused() is concept and view.doc.design == before and "\t" not in concept.toPlainText()
    assert window.statusBar().currentMessage() == "Only one design is open"


def test_search_box_down_goes_into_the_list_and_enter_adds_the_match(qtbot: Any, window: MainWindow) -> None:
    view = open_sample(qtbot, window, "rebel-fighter")
    browser = next(b for b in view.steps.browsers if b.kind == "weapons")
    view.tabs.setCurrentIndex(2)
    browser.search.setFocus()
    qtbot.keyClicks(browser.search, "heavy")
    assert browser.list.currentItem().text().split("   ")[0] == "Heavy Laser"
    assert "Heavy Laser" in browser.detail.toPlainText()  # the detail box follows the filtered list
    press(qtbot, Qt.Key.Key_Return)
    assert [w.weapon for w in view.doc.design.weapons][-1] == "heavy-laser"
    browser.search.setFocus()
    browser.search.selectAll()
    qtbot.keyClicks(browser.search, "rail")  # the selection follows what the search leaves
    assert browser.list.currentItem().text().split("   ")[0] == "Railgun" and "Railgun" in browser.detail.toPlainText()
    press(qtbot, Qt.Key.Key_Down)
    assert focused() is browser.list and browser.list.currentItem().text().split("   ")[0] == "Railgun"


@pytest.mark.parametrize("redo", ["Ctrl+Shift+Z", "Ctrl+Y"])
def test_redo_answers_ctrl_shift_z_and_ctrl_y_in_the_window_and_in_a_text_box(
    qtbot: Any, window: MainWindow, redo: str
) -> None:
    view = open_sample(qtbot, window, "rebel-fighter")
    name = field(view, "name")
    type_into(qtbot, name, "Red Five")
    assert view.doc.design.name == "Red Five"
    modifiers = Qt.KeyboardModifier.ControlModifier | (
        Qt.KeyboardModifier.ShiftModifier if "Shift" in redo else Qt.KeyboardModifier.NoModifier
    )
    key = Qt.Key.Key_Z if redo.endswith("Z") else Qt.Key.Key_Y
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # in the text box: the document's undo
    assert view.doc.design.name == "Rebel Fighter" and not view.doc.modified
    assert window.windowTitle() == "Rebel Fighter[*] — Shipyard" and not window.isWindowModified()  # an untitled copy
    press(qtbot, key, modifiers)
    assert view.doc.design.name == "Red Five" and name.text() == "Red Five"
    view.findings.setFocus()  # not a text box: the Edit menu's shortcuts
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert view.doc.design.name == "Rebel Fighter"
    press(qtbot, key, modifiers)
    assert view.doc.design.name == "Red Five"


def test_undoing_a_change_on_another_step_shows_that_step_and_field(qtbot: Any, window: MainWindow) -> None:
    view = open_sample(qtbot, window, "rebel-fighter")
    view.tabs.setCurrentIndex(4)
    type_into(qtbot, field(view, "structure"), "12")
    view.tabs.setCurrentIndex(0)
    view.findings.setFocus()
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert view.doc.design.structure == 15
    assert view.tabs.currentIndex() == 4 and focused() is field(view, "structure")
    assert view.doc.undo_stack.redoText() == "Change Structure"  # the step named as the user sees it


def rebel_fighter_with_a_heavy_laser(qtbot: Any, window: MainWindow) -> DocumentView:
    view = open_sample(qtbot, window, "rebel-fighter")
    assert view.doc.insert("weapons", {"weapon": "heavy-laser"}) is None
    return view


def test_a_pool_row_opens_to_its_line_items_with_natural_signs(qtbot: Any, window: MainWindow) -> None:
    view = rebel_fighter_with_a_heavy_laser(qtbot, window)
    report = evaluate(view.doc.design, view.doc.catalog)
    freebies = report.pool("freebies")
    assert freebies is not None and freebies.remaining == -12
    assert view.budget.cell_text(2, 3) == "OVER by 12"
    assert view.budget.lines("freebies") == [
        "Handling -1: 1 below its 0 free dots x 5: gains 5",
        "Structure 15: 5 above 10 x 2: spends 10",
        "11 extra Weapon Points x 2: spends 22",
    ]
    assert view.budget.lines("weapon-points")[2:] == [
        "1 x Heavy Laser: spends 6",
        "11 over budget, bought with Freebie Points: gains 11",
    ]
    # a line is clickable to its field; an exchange's line to the other pool
    pool_row = view.budget.topLevelItem(2)
    view.budget.expandItem(pool_row)
    qtbot.mouseClick(
        view.budget.viewport(), Qt.MouseButton.LeftButton, pos=view.budget.visualItemRect(pool_row.child(1)).center()
    )
    assert view.tabs.currentIndex() == 4 and focused() is field(view, "structure")
    view.budget.itemClicked.emit(pool_row.child(2), 0)
    weapons_row = view.budget.topLevelItem(0)
    assert weapons_row.isExpanded() and view.budget.currentItem() is weapons_row


def test_the_overspend_names_its_cause_and_clicking_it_goes_there(qtbot: Any, window: MainWindow) -> None:
    view = rebel_fighter_with_a_heavy_laser(qtbot, window)
    texts = view.findings.texts()
    assert texts[0] == (
        "ERROR: Freebie Points over budget by 12: spent 32 of 15 + 5 gained — the most spent on: "
        "1 x Heavy Laser (6 Weapon Points), 2 x Light Laser (2 + 1 fire-linked each) (6 Weapon Points), "
        "1 x Missile/Torpedo (4 Weapon Points)"
    )
    view.tabs.setCurrentIndex(0)
    item = view.findings.item(0)
    qtbot.mouseClick(
        view.findings.viewport(), Qt.MouseButton.LeftButton, pos=view.findings.visualItemRect(item).center()
    )
    now = focused()
    assert view.tabs.currentIndex() == 2 and now is not None and now.accessibleName().endswith("of Heavy Laser")
    spin = view.binder.bindings["budgets.freebies"].widget
    assert not spin.isVisible()  # the Storyteller's budget stays folded away: not the way out
    assert view.budget.currentItem().text(0) == "1 x Heavy Laser: spends 6"  # its line, open in the Budgets
    assert sorted(i.text(0) for i in view.budget.selectedItems()) == [
        "1 x Heavy Laser: spends 6",
        "1 x Missile/Torpedo: spends 4",
        "2 x Light Laser (2 + 1 fire-linked each): spends 6",
    ]


def test_findings_name_places_in_words_and_a_greyed_field_opens(qtbot: Any, window: MainWindow) -> None:
    view = open_sample(qtbot, window, "alien-disk-fighter")
    texts = view.findings.texts()
    assert "WARNING: Soak 1 is not yet divided into Armor and Energy Shields — at Armor" in texts
    assert "ADVICE: Life Support is highly recommended for Starfighter-scale designs — at Accessories" in texts
    assert not any("[" in t or "_" in t for t in texts)  # no internal paths
    armor = field(view, "armor")
    view.tabs.setCurrentIndex(0)
    row = texts.index("WARNING: Soak 1 is not yet divided into Armor and Energy Shields — at Armor")
    view.findings.itemClicked.emit(view.findings.item(row))
    assert focused() is armor and armor.isEnabled()
    assert view.steps.labels["armor"].mark is not None  # marked in the form while the finding stands
    assert view.steps.labels["armor"].mark[0] == "warning"


def test_the_status_bar_says_the_verdict_pools_and_preset(qtbot: Any, window: MainWindow) -> None:
    view = open_sample(qtbot, window, "alien-disk-fighter")
    assert window.verdict.toolTip().splitlines() == [
        "1 error: does not pass",
        "Weapon Points 0 left",
        "Power Points 0 left",
        "Freebie Points OVER by 4",
        "Accessory points 0 left",
        f"Preset: {view.doc.catalog.presets[view.doc.preset].name}",
    ]
    other = open_sample(qtbot, window, "rebel-frigate")
    assert window.verdict.toolTip().startswith("Passes") and other.doc.report.valid


def test_the_tab_keeps_the_designs_name_and_the_file_in_its_tooltip(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    view = open_sample(qtbot, window, "rebel-fighter")
    i = window.tabs.indexOf(view)
    assert window.tabs.tabText(i) == "Rebel Fighter"
    assert window.tabs.tabToolTip(i) == "Not saved yet"  # a sample is an untitled copy
    mine = window.open_file(user_copy(tmp_path, "rebel-fighter"))
    assert mine is not None
    assert window.tabs.tabToolTip(window.tabs.indexOf(mine)) == str(tmp_path / "rebel-fighter.ship")


def test_the_chosen_list_shows_what_each_entry_costs(qtbot: Any, window: MainWindow) -> None:
    view = open_sample(qtbot, window, "rebel-fighter")
    editor = next(e for e in view.steps.lists if e.list_path == "weapons")
    design = view.doc.design
    report = evaluate(design, view.doc.catalog)
    assert [editor.costs(r) for r in range(len(design.weapons))] == [
        f"{i.amount} Weapon Points" for i in report.pool("weapon-points").items if i.path.startswith("weapons[")
    ]


# --- window conventions: dialogs start in the design's folder; a PDF with no viewer ------------


def _dialogs(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Every file dialog opened: (its title, where it starts); each is cancelled."""
    from PySide6.QtWidgets import QDialog, QFileDialog

    from shipyard._qt.window import window as window_module

    asked: list[tuple[str, str]] = []

    def ask(_parent: Any, title: str, start: str, _filter: str = "", **_options: Any) -> tuple[Any, str]:
        asked.append((title, start))
        return ([] if title == "Open designs" else ""), ""

    for name in ("getOpenFileNames", "getSaveFileName", "getOpenFileName"):
        monkeypatch.setattr(QFileDialog, name, ask)
    monkeypatch.setattr(window_module.PrintDialog, "exec", lambda _self: QDialog.DialogCode.Accepted)
    return asked


def test_file_dialogs_start_in_the_designs_folder(
    qtbot: Any, window: MainWindow, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    folder = tmp_path / "my ships"
    folder.mkdir()
    ship = folder / "rebel-fighter.ship"
    shutil.copy(EXAMPLES / "rebel-fighter.ship", ship)
    asked = _dialogs(monkeypatch)
    view = window.open_file(ship)
    assert view is not None
    window.open_dialog()
    window.printing.print_dialog()
    window.ask_save_path(view.doc)
    assert asked == [
        ("Open designs", str(folder)),
        ("Print to PDF", str(folder / "Rebel Fighter.pdf")),  # the design's name, not the file's
        ("Save design", str(ship)),
    ]
    # a new design, not saved yet: where the last design came from, under its own name
    new = window.new()
    assert new is not None and new.doc.path is None
    asked.clear()
    window.ask_save_path(new.doc)
    window.open_dialog()
    assert asked == [("Save design", str(folder / f"{new.doc.name}.ship")), ("Open designs", str(folder))]


def test_a_printed_pdf_with_no_viewer_says_where_it_is(window: MainWindow, tmp_path: Any) -> None:
    out = tmp_path / "Rebel Fighter.pdf"
    out.write_bytes(b"%PDF-1.7\n")
    window.printing.open_url = lambda _url: False  # type: ignore[method-assign]  # no viewer on this desktop
    window.printing._printed(str(out), "")
    message = window.statusBar().currentMessage()
    assert message == f"Printed {out} — no PDF viewer could be started; open the file from there"


def test_splitter_sizes_are_remembered_for_the_next_design(qtbot: Any, window: MainWindow) -> None:
    from PySide6.QtCore import QPoint

    view = open_sample(qtbot, window, "rebel-fighter")
    view.finish_building()
    handle = view.split.handle(1)
    before = view.split.sizes()
    centre = handle.rect().center()
    qtbot.mousePress(handle, Qt.MouseButton.LeftButton, pos=centre)
    qtbot.mouseMove(handle, centre + QPoint(-120, 0))
    qtbot.mouseRelease(handle, Qt.MouseButton.LeftButton, pos=centre + QPoint(-120, 0))
    moved = view.split.sizes()
    assert moved[0] < before[0] - 60  # the user dragged the steps narrower
    again = open_sample(qtbot, window, "rebel-frigate")  # the next design of the ruleset
    again.finish_building()
    assert again.split.sizes() == moved
    kept = window.settings.value("layout/space-fighter-alpha/sides")
    assert [int(n) for n in kept] == moved  # in the window's own (the test's isolated) settings


def test_tab_reaches_the_preview_after_the_findings_and_comes_back(qtbot: Any, tmp_path: Any) -> None:
    from PySide6.QtCore import QSettings

    from .test_editor import _quiet

    w = _quiet(MainWindow(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat), use_user_folder=False))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    view = open_sample(qtbot, w, "rebel-frigate")
    view.finish_building()
    assert view.preview is not None
    pdf = view.preview.view
    bar = view.tabs.tabBar()
    forward = walk(qtbot, bar, Qt.KeyboardModifier.NoModifier)
    assert pdf in forward  # the record sheet can be reached, and scrolled from the keyboard
    order = [x for x in forward if x in (view.budget, view.findings, pdf)]
    assert order == [view.budget, view.findings, pdf]  # reading order: the preview last
    backward = walk(qtbot, bar, Qt.KeyboardModifier.ShiftModifier)
    assert [x for x in backward if x in order] == [pdf, view.findings, view.budget]  # and back again
    qtbot.waitUntil(lambda: view.preview is not None and view.preview.renders >= 1, timeout=120000)
    assert view.preview.status.text() == "Preview: as it will print"


# --- the welcome page lists recent designs; the Help menu --------------------------------------


def test_the_welcome_page_lists_recent_designs(qtbot: Any, window: MainWindow, tmp_path: Any) -> None:
    import shutil

    ship = tmp_path / "my-fighter.ship"
    shutil.copy(EXAMPLES / "rebel-fighter.ship", ship)
    gone = tmp_path / "gone.ship"
    shutil.copy(EXAMPLES / "rebel-frigate.ship", gone)
    assert window.open_file(gone) is not None and window.open_file(ship) is not None
    gone.unlink()  # moved away since: not offered
    while window.tabs.count():
        window.close_tab(0)
    welcome = window.stack.currentWidget()
    assert welcome is window.welcome
    buttons = [b for b in welcome.recent_box.findChildren(QAbstractButton) if b.isVisible()]
    assert [b.text() for b in buttons] == ["my-fighter.ship"]
    assert buttons[0].toolTip() == str(ship)
    qtbot.mouseClick(buttons[0], Qt.MouseButton.LeftButton)
    view = window.current()
    assert view is not None and view.doc.path == ship and view.doc.name == "Rebel Fighter"


def test_help_menu_shortcuts_rules_reading_and_about(qtbot: Any, window: MainWindow) -> None:
    from PySide6.QtWidgets import QTextBrowser

    from shipyard import __version__
    from shipyard._qt.window import helpmenu

    titles = [a.text() for a in window.menuBar().actions()]
    assert titles[-1] == "&Help"
    keys = dict(helpmenu.shortcuts(window))
    assert "File > Open" in keys.values() and "Edit > Redo" in keys.values()
    redo = next(k for k, what in keys.items() if what == "Edit > Redo")
    assert "Ctrl+Shift+Z" in redo and "Ctrl+Y" in redo  # what the action really binds
    assert " or Redo" not in redo and redo.count(" or ") == 1  # a keyboard's Redo key is named as a key
    assert all(k for k in re.split(r", | or ", redo))
    shown = helpmenu.show_shortcuts(window)
    assert isinstance(shown, QTextBrowser) and "Ctrl+Tab" in shown.toPlainText()
    assert helpmenu.show_reading(window) is None  # no design open: nothing to read
    view = open_sample(qtbot, window, "rebel-fighter")
    reading = helpmenu.show_reading(window)
    assert reading is not None and reading.windowTitle() == "Rules reading: Space Fighter Alpha — Shipyard"
    source = helpmenu.ruleset_info(view.doc.loaded.ruleset).reading
    assert source is not None
    first = source.read_text(encoding="utf-8")
    heading = next(line for line in first.splitlines() if line.startswith("# ")).lstrip("# ").strip()
    assert reading.toPlainText().startswith(heading)  # the Markdown rendered, not shown as source
    about = helpmenu.show_about(window).toPlainText()
    assert f"Shipyard\t{__version__}" in about or f"Shipyard {__version__}" in about.replace("\n", " ")
    assert "PySide6" in about and "ruleset: Space Fighter Alpha" in about
