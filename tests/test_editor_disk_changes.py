"""Open tabs follow their files as another program writes them, driven as a person does.

A design or roster open in the editor, changed by the command line (``shipyard set
--in-place``, ``shipyard roster limit|add``) or removed: after a pause longer than the
watch waits for a change to settle, a tab with no unsaved edits shows the file as it is now
(its fields, its members, on the same step page), with no undo step that brings back what
the other program changed; a tab with edits keeps them and shows a bar with Reload (lose my
edits) and Keep mine, each doing what it says; a removed file stays in its tab until Save
writes it again. Before, the tab went on showing the file as it was, File > Open only
showed that stale tab, and Print printed it.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QPushButton, QWidget

from shipyard._qt.view.documentview import DocumentView
from shipyard._qt.view.rosterpage import COUNT, RosterPage
from shipyard._qt.window.window import MainWindow
from shipyard.hangar.roster import load_roster

from .conftest import EXAMPLES, call_shipyard
from .editor_pages import PAUSE_MS
from .test_editor import field, type_into, window  # noqa: F401 (the fixture)
from .test_editor_export_replace import person  # noqa: F401 (the fixture)
from .test_editor_roster import campaign, editor, open_page, type_count  # noqa: F401 (the fixtures)

WAIT_MS = 1000  # a person's pause: longer than the watch waits for a change to settle (filewatch.SETTLE_MS)


def focused() -> QWidget:
    return QApplication.focusWidget() or QApplication.activeWindow()


def press(widget: QWidget, key: Qt.Key, mods: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    QTest.keyClick(widget, key, mods)


def undo(window: MainWindow) -> None:
    press(focused() or window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)


def bar_text(tab: DocumentView | RosterPage) -> str:
    """What the tab's changed-on-disk bar says, as a person reads it ("" when none is shown)."""
    notice = getattr(tab, "notice", None)
    return notice.said if notice is not None and notice.isVisible() else ""


def click_bar(tab: DocumentView | RosterPage, text: str) -> None:
    """Click the bar's button that reads ``text`` (its Alt+letter aside)."""
    notice = getattr(tab, "notice", None)
    assert notice is not None, "the tab shows no bar"
    (button,) = [b for b in notice.findChildren(QPushButton) if b.isVisible() and b.text().replace("&", "") == text]
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)


def open_ship(qtbot: Any, window: MainWindow, ship: Path, page: int = 0) -> DocumentView:
    view = window.open_file(ship)
    assert isinstance(view, DocumentView)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    bar = view.tabs.tabBar()
    QTest.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(page).center())  # the step page, clicked
    assert view.tabs.currentIndex() == page
    return view


def set_on_disk(ship: Path, *settings: str) -> None:
    done = call_shipyard("set", ship, *settings, "--in-place")
    assert done.returncode == 0 and "wrote" in done.stdout, done.stderr


def on_disk(ship: Path) -> dict[str, Any]:
    return json.loads(ship.read_text(encoding="utf-8"))["design"]  # type: ignore[no-any-return]


@pytest.fixture
def ship(tmp_path: Path) -> Path:
    folder = tmp_path / "ships"
    folder.mkdir()
    return Path(shutil.copy(EXAMPLES / "rebel-fighter.ship", folder / "rebel-fighter.ship"))


def test_a_design_set_on_disk_is_reloaded_in_its_tab_on_the_same_page(
    qtbot: Any,
    window: MainWindow,
    ship: Path,
) -> None:
    view = open_ship(qtbot, window, ship, page=4)  # Step Five
    assert field(view, "structure").value() == 15
    set_on_disk(ship, "name=ExternalName", "structure=14")
    qtbot.wait(WAIT_MS)
    qtbot.waitUntil(lambda: field(view, "structure").value() == 14, timeout=5000)
    assert view.doc.design.name == "ExternalName" and view.doc.loaded.design.structure == 14  # what Print prints
    assert window.tabs.tabText(window.tabs.currentIndex()) == "ExternalName" and not window.isWindowModified()
    assert view.tabs.currentIndex() == 4 and bar_text(view) == ""
    assert window.statusBar().currentMessage() == "rebel-fighter.ship changed on disk; reloaded"
    # no undo step brings back what the other program wrote
    field(view, "structure").setFocus()
    undo(window)
    assert view.doc.design.name == "ExternalName" and field(view, "structure").value() == 14
    assert view.doc.undo_stack.count() == 0
    # File > Open of the file shows this tab, up to date; no second tab
    assert window.open_file(ship) is view and window.tabs.count() == 1
    # the editor's own Save is no other program's change: its edit stays an undo step, not reloaded away
    type_into(qtbot, field(view, "structure"), "16")
    press(field(view, "structure"), Qt.Key.Key_Tab)
    qtbot.wait(PAUSE_MS)
    press(focused(), Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not window.isWindowModified(), timeout=5000)
    qtbot.wait(WAIT_MS)
    assert on_disk(ship)["structure"] == 16 and view.doc.undo_stack.count() == 1
    assert window.statusBar().currentMessage() == f"Saved {ship}" and bar_text(view) == ""


def test_file_open_of_a_design_changed_on_disk_shows_it_as_it_is_now(
    qtbot: Any,
    window: MainWindow,
    ship: Path,
) -> None:
    """File > Open at once, before the watch has noticed: the tab it shows is read again."""
    view = open_ship(qtbot, window, ship)
    set_on_disk(ship, "name=ExternalName")
    assert window.open_file(ship) is view
    assert view.doc.design.name == "ExternalName" and field(view, "name").text() == "ExternalName"
    assert window.tabs.count() == 1 and not view.doc.modified


def _edited_then_set(qtbot: Any, window: MainWindow, ship: Path) -> DocumentView:
    view = open_ship(qtbot, window, ship, page=4)
    type_into(qtbot, field(view, "structure"), "16")
    press(field(view, "structure"), Qt.Key.Key_Tab)
    qtbot.wait(PAUSE_MS)
    assert view.doc.design.structure == 16 and window.isWindowModified()
    set_on_disk(ship, "name=ExternalName")
    qtbot.wait(WAIT_MS)
    qtbot.waitUntil(lambda: "changed on disk" in bar_text(view), timeout=5000)
    return view


def test_an_edited_design_is_not_reloaded_and_reload_loses_the_edits_as_it_says(
    qtbot: Any,
    window: MainWindow,
    ship: Path,
) -> None:
    view = _edited_then_set(qtbot, window, ship)
    assert "rebel-fighter.ship" in bar_text(view) and "unsaved edits" in bar_text(view)
    assert view.doc.design.structure == 16 and view.doc.design.name == "Rebel Fighter"  # nothing read over them
    assert field(view, "name").text() == "Rebel Fighter" and window.isWindowModified()
    click_bar(view, "Reload (lose my edits)")
    assert view.doc.design.name == "ExternalName" and field(view, "structure").value() == 15
    assert not window.isWindowModified() and bar_text(view) == "" and view.tabs.currentIndex() == 4
    undo(window)  # the edits chosen away stay away
    assert view.doc.design.structure == 15 and view.doc.design.name == "ExternalName"


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_bar_is_as_tall_as_its_words_in_any_window(
    qtbot: Any, window: MainWindow, ship: Path, size: tuple[int, int]
) -> None:
    """In a 1920x1080 window the bar took a share of the tab's height: a band of empty yellow
    a quarter of the window tall above the design's steps."""
    window.resize(*size)
    view = _edited_then_set(qtbot, window, ship)
    notice = view.disk_notice()
    qtbot.wait(WAIT_MS)
    assert notice.isVisible() and notice.height() <= notice.heightForWidth(notice.width()) + 2
    assert view.tabs.mapTo(view, QPoint(0, 0)).y() >= notice.geometry().bottom()  # the steps start under it
    assert view.tabs.height() > size[1] // 2


def test_keep_mine_keeps_the_edits_and_save_still_asks_before_replacing(
    qtbot: Any,
    window: MainWindow,
    person: Any,
    ship: Path,
) -> None:
    view = _edited_then_set(qtbot, window, ship)
    click_bar(view, "Keep mine")
    assert bar_text(view) == "" and view.doc.design.structure == 16 and window.isWindowModified()
    qtbot.wait(WAIT_MS)
    assert bar_text(view) == ""  # kept: not asked again for the same change
    person.will(person.click("Cancel"))
    press(focused(), Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not person.answers, timeout=10_000)
    assert "changed by another program" in person.seen[0]
    assert on_disk(ship)["name"] == "ExternalName" and window.isWindowModified()
    # File > Open of the file asks again, in the bar
    assert window.open_file(ship) is view
    assert "changed on disk" in bar_text(view) and view.doc.design.structure == 16


def test_a_design_removed_on_disk_stays_in_its_tab_and_save_writes_it_again(
    qtbot: Any,
    window: MainWindow,
    ship: Path,
) -> None:
    view = open_ship(qtbot, window, ship)
    ship.rename(ship.with_name("elsewhere.ship"))
    qtbot.wait(WAIT_MS)
    qtbot.waitUntil(lambda: "no longer on disk" in bar_text(view), timeout=5000)
    assert "rebel-fighter.ship" in bar_text(view) and "Save" in bar_text(view)
    assert view.doc.design.name == "Rebel Fighter" and field(view, "name").text() == "Rebel Fighter"
    assert window.tabs.count() == 1
    press(focused(), Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(ship.exists, timeout=5000)
    assert on_disk(ship)["name"] == "Rebel Fighter"
    qtbot.wait(WAIT_MS)
    assert bar_text(view) == ""


# --- rosters -------------------------------------------------------------------------------------


def _roster_on_disk(campaign: dict[str, Any]) -> None:
    """`shipyard roster limit` and `roster add` from the command line, in the roster's folder."""
    folder, roster = campaign["folder"], campaign["roster"]
    for args in (
        ("limit", roster.name, "999"),
        ("add", roster.name, campaign["designs"][2].name, "--callsign", "Gold"),
    ):
        done = call_shipyard("roster", *args, cwd=folder)
        assert done.returncode == 0 and "wrote" in done.stdout, done.stdout + done.stderr


def test_a_roster_changed_by_the_command_line_is_reloaded_in_its_tab(
    qtbot: Any,
    editor: MainWindow,
    campaign: dict[str, Any],
) -> None:
    page = open_page(qtbot, editor, campaign["roster"])
    assert page.limit.value() == 0 and page.table.rowCount() == 2
    _roster_on_disk(campaign)
    qtbot.wait(WAIT_MS)
    qtbot.waitUntil(lambda: page.table.rowCount() == 3, timeout=5000)
    assert page.limit.value() == 999 and page.table.item(2, 4).text() == "Gold"
    assert page.doc.roster.limit == 999 and "of 999" in page.total.text()
    assert editor.statusBar().currentMessage() == "strike.roster changed on disk; reloaded"
    assert not page.doc.modified and bar_text(page) == ""
    undo(editor)
    assert page.doc.roster.limit == 999 and page.table.rowCount() == 3
    # its own Save is no other program's change
    type_count(qtbot, page, 2, "2")
    press(focused(), Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not page.doc.modified, timeout=5000)
    qtbot.wait(WAIT_MS)
    assert load_roster(campaign["roster"]).members[2].count == 2 and page.doc.undo_stack.count() == 1


def test_check_again_reads_the_roster_file_again(
    qtbot: Any,
    editor: MainWindow,
    campaign: dict[str, Any],
) -> None:
    """Check again at once, before the watch has noticed; File > Open of it the same."""
    page = open_page(qtbot, editor, campaign["roster"])
    _roster_on_disk(campaign)
    QTest.mouseClick(page.again_button, Qt.MouseButton.LeftButton)
    assert page.limit.value() == 999 and page.table.rowCount() == 3 and not page.doc.modified
    done = call_shipyard("roster", "limit", campaign["roster"], "1200")
    assert done.returncode == 0, done.stderr
    editor.open_file(campaign["roster"])
    assert editor.tabs.currentWidget() is page and page.limit.value() == 1200 and editor.tabs.count() == 1


@pytest.mark.parametrize("choice", ["Reload (lose my edits)", "Keep mine"])
def test_an_edited_roster_is_not_reloaded_and_the_bar_asks(
    qtbot: Any,
    editor: MainWindow,
    campaign: dict[str, Any],
    choice: str,
) -> None:
    page = open_page(qtbot, editor, campaign["roster"])
    type_count(qtbot, page, 1, "3")
    assert page.doc.modified and page.doc.roster.members[1].count == 3
    _roster_on_disk(campaign)
    qtbot.wait(WAIT_MS)
    qtbot.waitUntil(lambda: "changed on disk" in bar_text(page), timeout=5000)
    assert "strike.roster" in bar_text(page)
    assert page.limit.value() == 0 and page.table.rowCount() == 2 and page.table.item(1, COUNT).text() == "3"
    click_bar(page, choice)
    if choice == "Keep mine":
        assert bar_text(page) == "" and page.doc.modified and page.table.item(1, COUNT).text() == "3"
        assert load_roster(campaign["roster"]).limit == 999  # the file is as the command left it
        QTest.mouseClick(page.again_button, Qt.MouseButton.LeftButton)  # asked again: the bar again
        assert "changed on disk" in bar_text(page) and page.table.rowCount() == 2
    else:
        assert page.limit.value() == 999 and page.table.rowCount() == 3 and page.table.item(1, COUNT).text() == "1"
        assert not page.doc.modified and bar_text(page) == ""
        undo(editor)
        assert page.table.item(1, COUNT).text() == "1" and page.doc.roster.limit == 999
