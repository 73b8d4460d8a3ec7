"""The Roster page, driven as a person does: a ``.roster`` file opened in a tab, counts
typed into the members table, the limit changed in its spin box, designs added from View >
Hangar by keyboard and by drag, undo and redo, Save and open again; real key and mouse
events to the focused widget, checks after the change shows."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget

from shipyard._qt.dialogs.hangarwindow import FILTER_DELAY_MS, NAME
from shipyard._qt.view.rosterpage import COUNT, BrokenRoster, RosterPage
from shipyard._qt.window.window import MainWindow
from shipyard.hangar.roster import Roster, load_roster, member_for, save_roster

from .conftest import design_with_house_weapon
from .test_editor import shown_window
from .test_hangar import samples

WAIT_MS = FILTER_DELAY_MS * 3
SETTLE_MS = 1000  # a pause longer than the roster page waits for a save of several files to settle


def one_ruleset_designs(n: int) -> list[Path]:
    """``n`` samples of one ruleset that has costs and passes, the most samples first."""
    from shipyard.core.designfile import load_design
    from shipyard.core.evaluate import evaluate

    by: dict[str, list[Path]] = {}
    for f in samples():
        by.setdefault(json.loads(f.read_text())["ruleset"], []).append(f)
    for files in sorted(by.values(), key=len, reverse=True):
        good = [f for f in files if evaluate(*(lambda d: (d.design, d.catalog))(load_design(f))).valid]
        if len(good) >= n:
            return good[:n]
    raise AssertionError("no ruleset has enough passing samples")


@pytest.fixture
def campaign(tmp_path: Path) -> dict[str, Any]:
    """A folder with four designs of one ruleset, a roster of two of them (the first twice)."""
    folder = tmp_path / "campaign"
    folder.mkdir()
    designs = []
    for f in one_ruleset_designs(4):
        shutil.copyfile(f, folder / f.name)
        designs.append(folder / f.name)
    roster_file = folder / "strike.roster"
    first = member_for(roster_file, designs[0], count=2, callsign="Red")[0]
    second = member_for(roster_file, designs[1])[0]
    save_roster(Roster(name="Strike Group", members=[first, second]), roster_file)
    return {"folder": folder, "designs": designs, "roster": roster_file}


@pytest.fixture
def editor(qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, campaign: dict[str, Any]) -> MainWindow:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    from shipyard.hangar import library

    library.add(campaign["folder"])
    return shown_window(qtbot, tmp_path)


def open_page(qtbot: Any, window: MainWindow, path: Path) -> RosterPage:
    window.open_file(path)
    page = window.tabs.currentWidget()
    assert isinstance(page, RosterPage), window.tabs.tabText(window.tabs.currentIndex())
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    page.table.setFocus()
    qtbot.waitUntil(page.table.hasFocus, timeout=2000)
    return page


def focused() -> QWidget:
    w = QApplication.focusWidget()
    assert w is not None
    return w


def cell_center(page: RosterPage, row: int, column: int) -> QPoint:
    return page.table.visualRect(page.table.model().index(row, column)).center()


def type_in_cell(qtbot: Any, page: RosterPage, row: int, column: int, text: str) -> None:
    """Click the cell, type (each key to the widget focused then: the first opens the cell's
    editor), press Enter: as a person edits it."""
    QTest.mouseClick(page.table.viewport(), Qt.MouseButton.LeftButton, pos=cell_center(page, row, column))
    for key in text:
        QTest.keyClicks(focused(), key)
    qtbot.wait(50)
    QTest.keyClick(focused(), Qt.Key.Key_Return)
    qtbot.wait(50)


def type_count(qtbot: Any, page: RosterPage, row: int, count: str) -> None:
    type_in_cell(qtbot, page, row, COUNT, count)


def shown_total(page: RosterPage) -> str:
    return page.total.text()


def findings(page: RosterPage) -> list[str]:
    return [page.findings.item(i).text() for i in range(page.findings.count())]


def test_a_count_typed_and_the_limit_changed_are_checked_at_once_and_undone(
    qtbot: Any, editor: MainWindow, campaign: dict[str, Any]
) -> None:
    page = open_page(qtbot, editor, campaign["roster"])
    check = page.doc.check
    assert page.table.rowCount() == 2 and page.name.text() == "Strike Group"
    assert page.table.item(0, 4).text() == "Red" and page.table.item(0, COUNT).text() == "2"
    costs = [s.facts.cost for s in check.members]  # type: ignore[union-attr]
    assert all(c for c in costs)
    assert shown_total(page).startswith(f"Total: {2 * costs[0] + costs[1]:g}")
    # a count typed in its cell: the totals follow at once
    type_count(qtbot, page, 1, "3")
    assert page.doc.roster.members[1].count == 3 and page.table.item(1, COUNT).text() == "3"
    total = 2 * costs[0] + 3 * costs[1]
    assert shown_total(page).startswith(f"Total: {total:g}")
    assert page.table.item(1, 8).text() == f"{3 * costs[1]:g}"  # its subtotal
    # the limit typed below the total: the over-limit finding at once, the verdict with it
    page.limit.setFocus()
    qtbot.waitUntil(page.limit.hasFocus)
    QTest.keyClick(focused(), Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(focused(), str(int(total) - 1))
    assert any("over the limit" in f for f in findings(page)), findings(page)
    assert page.verdict.text() == "The roster does not pass"
    # raised above it: the finding is gone at once, no other edit needed
    QTest.keyClick(focused(), Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(focused(), str(int(total) + 10))
    assert not any("over the limit" in f for f in findings(page)) and page.verdict.text() == "The roster passes"
    assert editor.verdict.text() == "The roster passes"  # the status bar's verdict is the roster's
    assert editor.windowTitle().startswith("strike.roster") and editor.tabs.tabText(
        editor.tabs.currentIndex()
    ).endswith("*")
    # undo by keyboard: the limit (typed in one run: one step), then the count
    page.table.setFocus()
    QTest.keyClick(focused(), Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert page.doc.roster.limit is None and page.limit.text() == "No limit"
    QTest.keyClick(focused(), Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert page.doc.roster.members[1].count == 1 and page.table.item(1, COUNT).text() == "1"
    assert shown_total(page).startswith(f"Total: {2 * costs[0] + costs[1]:g}")
    assert not page.doc.modified
    QTest.keyClick(focused(), Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert page.doc.roster.members[1].count == 3 and page.table.item(1, COUNT).text() == "3"
    # a callsign typed
    type_in_cell(qtbot, page, 1, 4, "Blue")
    assert page.doc.roster.members[1].callsign == "Blue"
    # Delete removes the selected member; undo brings it back
    QTest.mouseClick(page.table.viewport(), Qt.MouseButton.LeftButton, pos=cell_center(page, 0, 1))
    QTest.keyClick(focused(), Qt.Key.Key_Delete)
    assert [m.callsign for m in page.doc.roster.members] == ["Blue"] and page.table.rowCount() == 1
    QTest.keyClick(focused(), Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert [m.callsign for m in page.doc.roster.members] == ["Red", "Blue"]


def test_save_writes_the_roster_and_it_opens_again_as_saved(
    qtbot: Any, editor: MainWindow, campaign: dict[str, Any]
) -> None:
    page = open_page(qtbot, editor, campaign["roster"])
    type_count(qtbot, page, 0, "5")
    QTest.keyClick(focused(), Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not page.doc.modified, timeout=2000)
    assert load_roster(campaign["roster"]).members[0].count == 5
    assert not editor.tabs.tabText(editor.tabs.currentIndex()).endswith("*")
    # another program writes the file: Save asks, Cancel keeps theirs
    type_count(qtbot, page, 0, "6")
    theirs = campaign["roster"].read_text().replace("Strike Group", "Their Group")
    campaign["roster"].write_text(theirs)
    asked: list[Path] = []
    editor.ask_replace_changed = lambda path: asked.append(path) or False  # type: ignore[method-assign]
    QTest.keyClick(focused(), Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert asked == [campaign["roster"]] and campaign["roster"].read_text() == theirs and page.doc.modified
    editor.ask_replace_changed = lambda path: True  # type: ignore[method-assign]
    QTest.keyClick(focused(), Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert load_roster(campaign["roster"]).members[0].count == 6 and not page.doc.modified
    # closed and opened again: as saved
    editor.close_tab(editor.tabs.currentIndex())
    again = open_page(qtbot, editor, campaign["roster"])
    assert again is not page and again.table.item(0, COUNT).text() == "6"
    assert str(campaign["roster"]) in editor.recent_files.recent()


def test_unsaved_changes_are_asked_about_on_close(qtbot: Any, editor: MainWindow, campaign: dict[str, Any]) -> None:
    page = open_page(qtbot, editor, campaign["roster"])
    type_count(qtbot, page, 0, "4")
    asked: list[str] = []
    editor.ask_unsaved = lambda doc: asked.append(doc.title) or "cancel"  # type: ignore[method-assign]
    assert editor.close_tab(editor.tabs.currentIndex()) is False and asked == ["strike.roster"]
    assert editor.tabs.currentWidget() is page
    editor.ask_unsaved = lambda doc: "save"  # type: ignore[method-assign]
    assert editor.close_tab(editor.tabs.currentIndex()) is True
    assert load_roster(campaign["roster"]).members[0].count == 4


def show_hangar(qtbot: Any, editor: MainWindow) -> Any:
    QTest.keyClick(editor, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    hangar = editor.menus.hangar_window
    qtbot.waitExposed(hangar)
    qtbot.waitUntil(lambda: hangar.table.rowCount() == 4, timeout=60_000)  # scanned in the background
    return hangar


def test_designs_added_from_the_hangar_by_keyboard(qtbot: Any, editor: MainWindow, campaign: dict[str, Any]) -> None:
    page = open_page(qtbot, editor, campaign["roster"])
    hangar = show_hangar(qtbot, editor)
    name = campaign["designs"][3]
    facts = member_for(campaign["roster"], name)[1]
    hangar.activateWindow()
    qtbot.waitUntil(hangar.isActiveWindow, timeout=3000)
    QTest.keyClicks(focused(), facts.name)
    QTest.keyClick(focused(), Qt.Key.Key_Return)  # to the list
    qtbot.wait(WAIT_MS)
    assert hangar.table.hasFocus()
    rows = hangar.table.rowCount()
    assert rows >= 1 and hangar.table.item(0, NAME).text() == facts.name
    QTest.keyClick(focused(), Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)  # Add to roster
    qtbot.waitUntil(lambda: len(page.doc.roster.members) == 3, timeout=3000)
    assert page.doc.roster.members[2].file == name.name
    assert page.table.item(2, 1).text() == facts.name and editor.tabs.currentWidget() is page
    # two selected at once: Ctrl+A in the list (every design), one step
    hangar.filter.clear()
    qtbot.wait(WAIT_MS)
    hangar.table.setFocus()
    QTest.keyClick(focused(), Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClick(focused(), Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: len(page.doc.roster.members) == 7, timeout=3000)
    editor.activateWindow()
    qtbot.waitUntil(editor.isActiveWindow, timeout=3000)
    page.table.setFocus()
    QTest.keyClick(focused(), Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert len(page.doc.roster.members) == 3  # the four added at once: one undo step


def drop_on(page: RosterPage, data: QMimeData) -> bool:
    """What the window system delivers when a drag is let go over the members: enter, move,
    drop, at the middle of the table; whether the table took the drag."""
    from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent

    target = page.table.viewport()
    at = target.rect().center()
    action, button, mods = Qt.DropAction.CopyAction, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    enter = QDragEnterEvent(at, action, data, button, mods)
    QApplication.sendEvent(target, enter)
    move = QDragMoveEvent(at, action, data, button, mods)
    QApplication.sendEvent(target, move)
    if not (enter.isAccepted() and move.isAccepted()):
        return False
    QApplication.sendEvent(target, QDropEvent(QPointF(at), action, data, button, mods))
    return True


def test_add_to_roster_with_no_roster_open_says_how_to_make_one(
    qtbot: Any, editor: MainWindow, campaign: dict[str, Any]
) -> None:
    hangar = show_hangar(qtbot, editor)
    hangar.activateWindow()
    qtbot.waitUntil(hangar.isActiveWindow, timeout=3000)
    hangar.table.setFocus()
    QTest.keyClick(focused(), Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert "No roster is open" in editor.statusBar().currentMessage()
    assert "File > New roster" in editor.statusBar().currentMessage()
    assert load_roster(campaign["roster"]).members[0].count == 2 and editor.tabs.count() == 0


def test_designs_dragged_from_the_hangar_onto_the_members(
    qtbot: Any, editor: MainWindow, campaign: dict[str, Any]
) -> None:
    page = open_page(qtbot, editor, campaign["roster"])
    hangar = show_hangar(qtbot, editor)
    hangar.table.selectRow(0)
    items = [hangar.table.item(0, c) for c in range(hangar.table.columnCount())]
    data = hangar.table.mimeData(items)  # what the Hangar's drag carries
    assert [u.toLocalFile() for u in data.urls()] == [hangar.table.item(0, NAME).data(Qt.ItemDataRole.UserRole)]
    dragged = Path(data.urls()[0].toLocalFile())
    assert drop_on(page, data)
    qtbot.waitUntil(lambda: len(page.doc.roster.members) == 3, timeout=3000)
    assert page.doc.roster.members[2].file == dragged.name
    # a file from outside the roster's folder is refused, said, nothing added
    outside = QMimeData()
    outside.setUrls([QUrl.fromLocalFile(str(samples()[0]))])
    drop_on(page, outside)
    qtbot.wait(50)
    assert len(page.doc.roster.members) == 3
    assert "outside the roster's folder" in editor.statusBar().currentMessage()


def test_a_missing_member_is_named_and_a_changed_one_shows_what_changed(
    qtbot: Any, editor: MainWindow, campaign: dict[str, Any]
) -> None:
    designs = campaign["designs"]
    doc = json.loads(designs[1].read_text())
    doc["design"]["name"] = "Renamed Ship"
    designs[1].write_text(json.dumps(doc, indent=2))
    moved = campaign["folder"] / "moved"
    moved.mkdir()
    designs[0].rename(moved / designs[0].name)
    before = campaign["roster"].read_bytes()
    page = open_page(qtbot, editor, campaign["roster"])
    said = findings(page)
    assert any(f"the design file {designs[0].name} is missing" in f for f in said), said
    assert any("Renamed Ship" in f and "changed since the roster last saw it" in f for f in said), said
    assert page.table.item(0, 9).text() == "missing" and page.table.item(1, 9).text() == "changed"
    assert campaign["roster"].read_bytes() == before  # nothing rewritten by opening it
    # the moved one found again by its content: Relink, by its Alt+letter
    assert page.relink_button.isEnabled()
    QTest.mouseClick(page.relink_button, Qt.MouseButton.LeftButton)
    assert page.doc.roster.members[0].file == f"moved/{designs[0].name}"
    assert page.table.item(0, 9).text() != "missing" and page.doc.modified
    QTest.keyClick(focused(), Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert page.doc.roster.members[0].file == designs[0].name


def test_a_key_figure_change_is_shown_before_and_after(
    qtbot: Any, editor: MainWindow, campaign: dict[str, Any]
) -> None:
    """A member whose key figures differ from what the roster saw: "Cost 40 -> 44"."""
    roster = load_roster(campaign["roster"])
    seen = dict(roster.members[1].seen)
    label = next(iter(seen))
    seen[label] = seen[label] - 1
    changed = roster.members[1].model_copy(update={"seen": seen, "hash": "0" * 64})
    save_roster(roster.model_copy(update={"members": [roster.members[0], changed]}), campaign["roster"])
    page = open_page(qtbot, editor, campaign["roster"])
    from shipyard.hangar.facts import shown_number

    now = page.doc.check.members[1].facts.key[label]  # type: ignore[union-attr]
    want = f"{label} {shown_number(now - 1)} -> {shown_number(now)}"
    assert any(want in f for f in findings(page)), (want, findings(page))
    assert page.accept_button.isEnabled()
    QTest.mouseClick(page.accept_button, Qt.MouseButton.LeftButton)
    assert not any(want in f for f in findings(page)) and page.doc.modified


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("name: [unclosed\n", "roster"),
        ("format_version: 2\nname: From the future\nmembers: []\n", "written by a newer Shipyard (roster format 2)"),
        ("name: Bad\nmembers:\n  - file: a.ship\n    count: many\n", "count"),
    ],
    ids=["broken-yaml", "newer-schema", "count-many"],
)
def test_a_roster_that_cannot_be_read_opens_as_its_error(
    qtbot: Any, editor: MainWindow, tmp_path: Path, text: str, said: str
) -> None:
    bad = tmp_path / "bad.roster"
    bad.write_text(text)
    editor.open_file(bad)
    tab = editor.tabs.currentWidget()
    assert isinstance(tab, BrokenRoster)
    assert said in tab.message and "Traceback" not in tab.message and str(bad) in tab.message
    assert "cannot be opened" in editor.tabs.tabText(editor.tabs.currentIndex())
    QTest.keyClick(editor, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert bad.read_text() == text  # nothing rewritten
    assert editor.close_tab(editor.tabs.currentIndex())
    assert bad.read_text() == text


def test_new_roster_asks_name_rulesets_and_limit(
    qtbot: Any, editor: MainWindow, campaign: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    from shipyard._qt.window.rosters import NewRosterDialog

    target = campaign["folder"] / "new-force.roster"
    editor.rosters.ask_roster_path = lambda _name: target  # type: ignore[method-assign]

    def fill(dlg: NewRosterDialog) -> int:
        dlg.show()
        dlg.name.setFocus()
        QTest.keyClick(dlg.name, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        QTest.keyClicks(dlg.name, "Blue Wing")
        dlg.limit.setFocus()
        QTest.keyClick(dlg.limit.lineEdit(), Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        QTest.keyClicks(dlg.limit.lineEdit(), "300")
        item = dlg.rulesets.item(0)
        rect = dlg.rulesets.visualItemRect(item)
        QTest.mouseClick(
            dlg.rulesets.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(rect.left() + 8, rect.center().y())
        )
        if item.checkState() != Qt.CheckState.Checked:
            dlg.rulesets.setCurrentItem(item)
            QTest.keyClick(dlg.rulesets, Qt.Key.Key_Space)
        assert item.checkState() == Qt.CheckState.Checked
        dlg.accept()
        return int(dlg.result())

    monkeypatch.setattr(NewRosterDialog, "exec", fill)
    page = editor.rosters.new_roster_dialog()
    assert isinstance(page, RosterPage) and editor.tabs.currentWidget() is page
    written = load_roster(target)
    assert written.name == "Blue Wing" and written.limit == 300 and len(written.rulesets) == 1
    assert page.table.rowCount() == 0 and page.hint.isVisible()
    assert "Add design" in page.hint.text() and "Hangar" in page.hint.text()
    assert page.limit.value() == 300


def test_the_editor_opens_a_roster_named_on_its_command_line(campaign: dict[str, Any], tmp_path: Path) -> None:
    """``shipyard-gui x.roster``: the roster in its tab (the window's title); a roster that
    cannot be read is said on stderr in its words and the run ends with exit status 2."""
    from .conftest import run_editor_smoke

    env = {"XDG_DATA_HOME": str(tmp_path / "xdg"), "XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    proc = run_editor_smoke(campaign["roster"], env=env)
    assert proc.returncode == 0, proc.stderr
    assert "title: 'strike.roster[*] — Shipyard'" in proc.stdout and "Traceback" not in proc.stderr
    bad = tmp_path / "bad.roster"
    bad.write_text("format_version: 7\nname: Later\n", encoding="utf-8")
    proc = run_editor_smoke(bad, env=env)
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert f"shipyard-gui: error: Cannot open roster: {bad}" in proc.stderr and "format_version" in proc.stderr
    assert "Traceback" not in proc.stderr and bad.read_text(encoding="utf-8") == "format_version: 7\nname: Later\n"


@pytest.mark.slow
def test_print_and_export_from_the_roster_page(
    qtbot: Any, editor: MainWindow, campaign: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Print… and Export to Foundry… on the page run `shipyard roster print|export`'s code:
    the PDF is the summary page then the fleet book (rendered by the editor's worker), the
    actors one a ship named by callsign; files there already are asked about first."""
    from PySide6.QtWidgets import QDialog, QFileDialog

    from shipyard._qt.window.rosters import RosterPrintDialog

    page = open_page(qtbot, editor, campaign["roster"])
    out = tmp_path / "out" / "strike.pdf"
    out.parent.mkdir()
    monkeypatch.setattr(RosterPrintDialog, "exec", lambda _self: QDialog.DialogCode.Accepted)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_a, **_k: (str(out), ""))
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *_a, **_k: str(tmp_path / "actors"))
    opened: list[Any] = []
    monkeypatch.setattr(editor.printing, "open_url", lambda url: opened.append(url) or True)
    QTest.mouseClick(page.print_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: editor.statusBar().currentMessage().startswith(("Printed", "Not printed")), timeout=180_000)
    assert editor.statusBar().currentMessage() == f"Printed {out}"
    assert out.read_bytes().startswith(b"%PDF")
    import subprocess

    text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True, check=True).stdout
    assert "Strike Group" in text and "Red" in text
    QTest.mouseClick(page.export_button, Qt.MouseButton.LeftButton)
    names = sorted(p.name for p in (tmp_path / "actors").iterdir())
    assert "01-red-1.json" in names and "01-red-2.json" in names and any(n.endswith("-token.png") for n in names)
    actor = json.loads((tmp_path / "actors" / "01-red-2.json").read_text())
    assert actor["name"] == "Red 2" and actor["flags"]["shipyard"]["roster"] == "Strike Group"
    # again: the files there are asked about; Cancel keeps them
    asked: list[list[Path]] = []
    monkeypatch.setattr(
        "shipyard._qt.dialogs.replacing.ask_replace", lambda _p, files, *_a: asked.append(files) or False
    )
    before = (tmp_path / "actors" / "01-red-2.json").read_bytes()
    QTest.mouseClick(page.export_button, Qt.MouseButton.LeftButton)
    assert asked and (tmp_path / "actors" / "01-red-2.json").read_bytes() == before
    assert editor.statusBar().currentMessage().startswith("Not exported")


def test_a_member_saved_meanwhile_is_read_again_when_the_roster_is_shown(
    qtbot: Any, editor: MainWindow, campaign: dict[str, Any]
) -> None:
    """A member's design saved in another tab (or by a command) while the roster is open: the
    roster's tab, shown again, shows the change and the totals with it."""
    designs = campaign["designs"]
    page = open_page(qtbot, editor, campaign["roster"])
    assert not any("changed" in f for f in findings(page))
    view = editor.open_file(designs[1])  # the second member, in a tab of its own
    assert view is not None and editor.tabs.currentWidget() is view
    assert view.doc.edit("name", "Renamed Ship") is None
    QTest.keyClick(focused(), Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not view.doc.modified, timeout=3000)
    bar = editor.tabs.tabBar()
    QTest.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(editor.tabs.indexOf(page)).center())
    assert editor.tabs.currentWidget() is page
    assert page.table.item(1, 1).text() == "Renamed Ship" and page.table.item(1, 9).text() == "changed"
    assert any("Renamed Ship" in f and "changed since the roster last saw it" in f for f in findings(page))


def test_roster_notes_typed_are_one_undo_step_each_and_saved(
    qtbot: Any, editor: MainWindow, campaign: dict[str, Any]
) -> None:
    """The roster's own notes: typed in their box, committed on a pause (one undo step per
    committed edit), undone with Ctrl+Z, saved with Ctrl+S and read back from the file."""
    from shipyard._qt.document.pending import COMMIT_DELAY_MS

    page = open_page(qtbot, editor, campaign["roster"])
    page.notes.setFocus()
    qtbot.waitUntil(page.notes.hasFocus, timeout=2000)
    QTest.keyClicks(focused(), "Escort the convoy", delay=20)
    qtbot.wait(COMMIT_DELAY_MS * 3)
    assert page.doc.roster.notes == "Escort the convoy" and page.doc.modified
    QTest.keyClicks(focused(), " at dawn", delay=20)
    qtbot.wait(COMMIT_DELAY_MS * 3)
    assert page.doc.roster.notes == "Escort the convoy at dawn"
    assert page.doc.undo_stack.count() == 2  # one step per committed edit
    QTest.keyClick(focused(), Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert page.doc.roster.notes == "Escort the convoy" and page.notes.toPlainText() == "Escort the convoy"
    QTest.keyClick(focused(), Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert page.notes.toPlainText() == "Escort the convoy at dawn"
    # typed and saved at once (no pause): what was typed is saved
    QTest.keyClick(focused(), Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(focused(), "!")
    QTest.keyClick(focused(), Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not page.doc.modified, timeout=2000)
    assert load_roster(campaign["roster"]).notes == "Escort the convoy at dawn!"
    editor.close_tab(editor.tabs.currentIndex())
    assert open_page(qtbot, editor, campaign["roster"]).notes.toPlainText() == "Escort the convoy at dawn!"


@pytest.fixture
def mixed(campaign: dict[str, Any], tmp_path: Path) -> Path:
    """A roster of two rulesets: a fighter of the ruleset whose composition rules want every
    fighter crewed (one without a pilot), and a design of another ruleset."""
    from .conftest import FURY_EXAMPLES

    folder = campaign["folder"]
    fighter = folder / "interceptor.ship"
    shutil.copyfile(FURY_EXAMPLES / "interceptor.ship", fighter)
    theirs = json.loads(fighter.read_text())["ruleset"]
    found = next(f for f in samples() if json.loads(f.read_text())["ruleset"] != theirs)
    other = folder / found.name
    shutil.copyfile(found, other)
    roster_file = folder / "mixed.roster"
    members = [member_for(roster_file, fighter)[0], member_for(roster_file, other)[0]]
    rulesets = [json.loads(fighter.read_text())["ruleset"], json.loads(other.read_text())["ruleset"]]
    save_roster(Roster(name="Mixed", rulesets=rulesets, members=members), roster_file)
    return roster_file


def test_a_members_row_is_marked_by_the_composition_findings_naming_it(
    qtbot: Any, editor: MainWindow, mixed: Path
) -> None:
    from shipyard._qt.widgets.marks import MARK_GLYPH, mark_colour

    page = open_page(qtbot, editor, mixed)
    named = [f for f in page.doc.check.findings if f.path.startswith("members[0]")]
    assert named and str(named[0].severity) == "warning", page.doc.check.findings
    first, second = page.table.item(0, 0), page.table.item(0, 1)
    assert first.text() == f"{MARK_GLYPH['warning']} 1"
    assert named[0].message in first.toolTip() and named[0].message in second.toolTip()
    assert second.foreground().color().name() == mark_colour("warning", page.table)
    assert page.table.item(1, 0).text() == "2" and "Warning" not in page.table.item(1, 1).toolTip()
    # the marked member removed by keyboard: the row left (the other member) is not marked
    QTest.mouseClick(page.table.viewport(), Qt.MouseButton.LeftButton, pos=cell_center(page, 0, 1))
    QTest.keyClick(focused(), Qt.Key.Key_Delete)
    assert page.table.rowCount() == 1 and page.table.item(0, 0).text() == "1"
    assert "Warning" not in page.table.item(0, 1).toolTip()
    QTest.keyClick(focused(), Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert page.table.item(0, 0).text() == f"{MARK_GLYPH['warning']} 1"


def test_the_pilot_or_crew_column_is_shown_only_where_a_ruleset_has_them(
    qtbot: Any, editor: MainWindow, mixed: Path, tmp_path: Path, dock_test: str
) -> None:
    """The column and its name come from what the rulesets declare (their manifests' ``crew``)."""
    from shipyard._qt.view.rosterpage import CREW
    from shipyard.core.registry import rulesets

    declared = {i.id: i.manifest.crew for i in rulesets()}
    assert declared[dock_test] is None  # the test ruleset declares neither pilots nor crew
    page = open_page(qtbot, editor, mixed)
    words = {declared[r] for r in page.doc.roster.rulesets}
    assert None not in words and len(words) == 2, words
    assert not page.table.isColumnHidden(CREW)
    assert page.table.horizontalHeaderItem(CREW).text() == "Pilot or crew"
    # a pilot typed in the column is kept
    type_in_cell(qtbot, page, 0, CREW, "Ace")
    assert page.doc.roster.members[0].crew == "Ace"
    # a roster of one ruleset: the column named by its word
    folder = mixed.parent
    one_file = folder / "one.roster"
    design = load_roster(mixed).members[1]
    save_roster(Roster(name="One", rulesets=[page.doc.roster.rulesets[1]], members=[design]), one_file)
    one = open_page(qtbot, editor, one_file)
    assert one.table.horizontalHeaderItem(CREW).text() == declared[one.doc.roster.rulesets[0]]
    assert not one.table.isColumnHidden(CREW)
    # a roster whose ruleset has neither: no such column
    none_file = folder / "none.roster"
    save_roster(Roster(name="Dock", rulesets=[dock_test]), none_file)
    bare = open_page(qtbot, editor, none_file)
    assert bare.table.isColumnHidden(CREW)


def _renamed_on_disk(design: Path, name: str) -> None:
    """Another program saves ``design`` under a new name, as most do: a new file put in its place."""
    doc = json.loads(design.read_text(encoding="utf-8"))
    doc["design"]["name"] = name
    fresh = design.with_name(design.name + ".tmp")
    fresh.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    fresh.replace(design)


def test_a_member_changed_by_another_program_shows_on_the_page_shown(
    qtbot: Any, editor: MainWindow, campaign: dict[str, Any]
) -> None:
    """The roster's tab stays the one shown while another program saves a member's design,
    deletes one and puts it back: after a pause the page shows each, with the totals of the
    files as they are (no tab switched, no Check again pressed)."""
    from shipyard.hangar.roster import check_roster

    designs = campaign["designs"]
    page = open_page(qtbot, editor, campaign["roster"])
    assert page.table.item(1, 9).text() == "passes"
    _renamed_on_disk(designs[1], "Renamed Ship")
    qtbot.wait(SETTLE_MS)
    qtbot.waitUntil(lambda: page.table.item(1, 1).text() == "Renamed Ship", timeout=5000)
    assert page.table.item(1, 9).text() == "changed"
    assert any("Renamed Ship" in f and "changed since the roster last saw it" in f for f in findings(page))
    kept = designs[0].read_bytes()
    designs[0].unlink()
    qtbot.wait(SETTLE_MS)
    qtbot.waitUntil(lambda: page.table.item(0, 9).text() == "missing", timeout=5000)
    whole = check_roster(page.doc.roster, campaign["roster"])
    assert shown_total(page).startswith(f"Total: {whole.total:g}")
    designs[0].write_bytes(kept)
    qtbot.wait(SETTLE_MS)
    qtbot.waitUntil(lambda: page.table.item(0, 9).text() == "passes", timeout=5000)
    assert editor.tabs.currentWidget() is page and not page.doc.modified


def test_print_and_export_read_the_members_files_as_they_are_now(
    qtbot: Any, editor: MainWindow, campaign: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A member's design saved by another program just before Print… or Export to Foundry… is
    pressed: the summary printed and the actors exported are of the files as they are then,
    as `shipyard roster print|export` would make them, not of what the page read before."""
    from PySide6.QtWidgets import QDialog, QFileDialog

    from shipyard._qt.window.rosters import RosterPrintDialog
    from shipyard.commands import roster_command

    designs = campaign["designs"]
    page = open_page(qtbot, editor, campaign["roster"])
    out = tmp_path / "strike.pdf"
    monkeypatch.setattr(RosterPrintDialog, "exec", lambda _self: QDialog.DialogCode.Accepted)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_a, **_k: (str(out), ""))
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *_a, **_k: str(tmp_path / "actors"))
    printed: list[Any] = []  # what the print was given: the summary's figures (the book is read from the files)
    monkeypatch.setattr(roster_command, "print_roster", lambda check, *_a: printed.append(check) or 2)

    _renamed_on_disk(designs[1], "Renamed Ship")  # pressed at once: no pause for the page to notice
    QTest.mouseClick(page.print_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: editor.statusBar().currentMessage().startswith(("Printed", "Not printed")), timeout=10_000)
    assert [s.facts.name for s in printed[0].members if s.facts][1] == "Renamed Ship"
    assert printed[0].members[1].state == "changed"

    # a member missing when the page read it, put back just before Export: it is exported too
    kept = designs[0].read_bytes()
    designs[0].unlink()
    page.doc.check_again()
    assert page.table.item(0, 9).text() == "missing"
    designs[0].write_bytes(kept)
    QTest.mouseClick(page.export_button, Qt.MouseButton.LeftButton)
    names = sorted(p.name for p in (tmp_path / "actors").iterdir())
    assert "01-red-1.json" in names and "01-red-2.json" in names, names
    assert page.table.item(0, 9).text() == "passes"


def test_a_member_built_with_the_editor_s_catalog_folder_reads_on_the_roster_page(
    qtbot: Any, editor: MainWindow, tmp_path: Path
) -> None:
    """The Roster page reads its members as the editor opens designs, with the house rules of
    Settings > User catalog folder: a member using a house weapon was "cannot be read"
    (unknown weapon), its cost left out of the total, and so when added or checked again."""
    editor.settings.setValue("catalog/folder", str(tmp_path / "house"))
    ship = tmp_path / "wing" / "plasma.ship"
    design_with_house_weapon(tmp_path / "house", ship)
    roster_file = tmp_path / "wing" / "wing.roster"
    member = member_for(roster_file, ship, (tmp_path / "house",))[0]
    save_roster(Roster(name="Plasma Wing", members=[member]), roster_file)
    page = open_page(qtbot, editor, roster_file)
    [seen] = page.doc.check.members
    assert seen.state != "broken" and seen.facts is not None, seen.says
    assert not [f for f in findings(page) if "cannot be read" in f]
    page.doc.check_again()
    assert page.doc.check.members[0].state != "broken", page.doc.check.members[0].says
