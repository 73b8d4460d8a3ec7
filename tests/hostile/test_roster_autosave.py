"""A roster with unsaved changes is autosaved and recovered as a design is: an editor
typing a roster's notes (real key events, its autosave timer shortened so the test need
not wait a minute) holds its autosave while it runs, so another editor starting then
neither offers nor deletes it; once that editor is killed (SIGKILL, nothing of its own
runs after) the next editor offers the roster, and Yes (a mouse click on the real message
box) opens it with the notes typed, unsaved, at its own file, which is left as it was."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

from shipyard._qt.view.rosterpage import RosterPage
from shipyard._qt.window import autosave
from shipyard.hangar.roster import Roster, load_roster, member_for, save_roster

from ..test_editor_roster import one_ruleset_designs
from .test_autosave_locks import _env, _kill, _recover, _start_another

# An editor opening the roster named on its command line, typing NAME into the roster's
# notes, letting its autosave timer save it; it prints the autosave's path and runs on.
ROSTER_TYPIST = """
import sys
from PySide6.QtCore import QTimer
from PySide6.QtTest import QTest
from shipyard._qt.window import autosave
from shipyard._qt.app import start
from shipyard._qt.document.pending import COMMIT_DELAY_MS

app, window = start(["--no-preview", sys.argv[2]])
page = window.rosters.current_roster()
page.notes.setFocus()
QTest.keyClicks(page.notes, sys.argv[1], delay=30)
QTest.qWait(COMMIT_DELAY_MS + 150)
window.recovery.timer.setInterval(100)

def report():
    files = sorted(autosave.folder().glob("*.roster")) if autosave.folder().is_dir() else []
    if files:
        print(files[0], flush=True)
        poll.stop()

poll = QTimer(interval=50)
poll.timeout.connect(report)
poll.start()
app.exec()
"""


def _patrol(tmp_path: Path) -> Path:
    """A saved roster "Patrol" of one sample design, both in a campaign folder of ``tmp_path``."""
    folder = tmp_path / "campaign"
    folder.mkdir()
    design = one_ruleset_designs(1)[0]
    shutil.copyfile(design, folder / design.name)
    roster_file = folder / "patrol.roster"
    save_roster(Roster(name="Patrol", members=[member_for(roster_file, folder / design.name)[0]]), roster_file)
    return roster_file


def test_a_rosters_unsaved_notes_are_recovered_after_a_crash_and_never_taken_from_a_running_editor(
    qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import select

    data = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    roster_file = _patrol(tmp_path)
    on_disk = roster_file.read_bytes()
    notes = "Hold the jump point until relieved"
    proc = subprocess.Popen(
        [sys.executable, "-c", ROSTER_TYPIST, notes, str(roster_file)],
        env=_env(data),
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], 120)
        line = proc.stdout.readline().strip() if ready else ""
        assert line, f"the editor typing the roster's notes ended without an autosave (exit {proc.poll()})"
        saved = Path(line)
        assert load_roster(saved).notes == notes and roster_file.read_bytes() == on_disk
        assert json.loads(saved.with_suffix(".json").read_text())["original"] == str(roster_file)
        # a second editor while the first runs: nothing offered, nothing deleted
        assert _start_another(data) == {"asked": [], "restored": 0}
        assert saved.is_file()
        # the first is killed: the roster is offered to the next editor and restored
        _kill(proc)
        window, asked, restored = _recover(qtbot, tmp_path, QMessageBox.StandardButton.Yes)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=30)
        if proc.stdout:
            proc.stdout.close()
    assert restored == 1 and len(asked) == 1 and "patrol.roster" in asked[0]
    page = window.rosters.current_roster()
    assert isinstance(page, RosterPage)
    assert page.doc.path == roster_file and page.doc.modified and page.notes.toPlainText() == notes
    assert roster_file.read_bytes() == on_disk  # restored, not written behind the person's back
    assert not saved.exists()  # the dead editor's autosave gone; this editor's own made at once
    assert sorted(f.name for f in autosave.folder().glob("*.roster")) == [f"{page.doc.uid}.roster"]
    assert autosave.pending() == []
    # saved by keyboard: the file has the notes, and the autosave is removed
    window.activateWindow()
    page.table.setFocus()
    qtbot.waitUntil(page.table.hasFocus, timeout=3000)
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not page.doc.modified, timeout=3000)
    assert load_roster(roster_file).notes == notes
    assert list(autosave.folder().glob("*.roster")) == []


def test_a_roster_edited_in_this_editor_is_autosaved_by_its_timer_and_its_autosave_removed_on_close(
    qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A count typed into the members table: the autosave timer copies the roster aside;
    closing it (Discard) removes the autosave and its lock."""
    from PySide6.QtCore import QSettings

    from shipyard._qt.window.window import MainWindow

    from ..test_editor_roster import COUNT, type_count

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    roster_file = _patrol(tmp_path)
    window = MainWindow(
        QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat), use_user_folder=False, preview=False
    )
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    window.open_file(roster_file)
    page = window.rosters.current_roster()
    assert page is not None
    window.activateWindow()
    page.table.setFocus()
    qtbot.waitUntil(page.table.hasFocus, timeout=3000)
    window.recovery.timer.setInterval(100)
    assert not list(autosave.folder().glob("*.roster"))
    type_count(qtbot, page, 0, "7")
    assert page.table.item(0, COUNT).text() == "7"
    mine = autosave.folder() / f"{page.doc.uid}.roster"
    qtbot.waitUntil(mine.is_file, timeout=5000)
    assert load_roster(mine).members[0].count == 7 and load_roster(roster_file).members[0].count == 1
    window.ask_unsaved = lambda _doc: "discard"  # type: ignore[method-assign]
    assert window.close_tab(window.tabs.indexOf(page))
    assert not mine.exists() and not mine.with_suffix(".json").exists() and not mine.with_suffix(".lock").exists()
    assert load_roster(roster_file).members[0].count == 1
