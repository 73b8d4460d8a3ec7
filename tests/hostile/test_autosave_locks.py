"""Two editors share one autosave folder: the second neither offers nor deletes the first's
live autosave, and once the first is killed its unsaved edit is offered to the next editor.

The editors here are real processes running the editor (``shipyard._qt.app.start``), each
typing a name into a new design with real key events and autosaving it with its own
autosave timer (its interval shortened, so the test need not wait a minute); one of them is
killed with SIGKILL, as a crash or the out-of-memory killer ends it, so nothing of its own
runs after. The editor that recovers is the test's own, its question answered by a mouse
click on the real message box.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from shipyard._qt.window import autosave
from shipyard._qt.window.window import MainWindow
from tests.conftest import ROOT, call_shipyard

# An editor that types NAME into a new design's name field, lets its autosave timer save it,
# prints the autosave's path, and runs on until it is killed.
TYPIST = """
import sys
from PySide6.QtCore import QTimer
from PySide6.QtTest import QTest
from shipyard._qt.window import autosave
from shipyard._qt.app import start
from shipyard._qt.document.pending import COMMIT_DELAY_MS

app, window = start(["--no-preview"])
view = window.new("starfighter")
name = view.binder.bindings["name"].widget
name.setFocus()
name.selectAll()
QTest.keyClicks(name, sys.argv[1], delay=30)
QTest.qWait(COMMIT_DELAY_MS + 150)
window.recovery.timer.setInterval(100)

def report():
    files = sorted(autosave.folder().glob("*.ship")) if autosave.folder().is_dir() else []
    mine = [f for f in files if sys.argv[1] in f.with_suffix(".json").read_text()]
    if mine:
        print(mine[0], flush=True)
        poll.stop()

poll = QTimer(interval=50)
poll.timeout.connect(report)
poll.start()
app.exec()
"""

# An editor that starts as the editor does (offering what is left to restore), answers Discard
# to any question by clicking it, prints what it was asked and how many it restored, and quits.
STARTER = """
import json
from PySide6.QtTest import QTest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox
from shipyard._qt.app import start

app, window = start(["--no-preview"])
asked = []

def answer():
    box = QApplication.activeModalWidget()
    if isinstance(box, QMessageBox):
        asked.append(box.text())
        QTest.mouseClick(box.button(QMessageBox.StandardButton.Discard), Qt.MouseButton.LeftButton)

timer = QTimer(interval=50)
timer.timeout.connect(answer)
timer.start()
restored = window.recovery.offer_restore()
print(json.dumps({"asked": asked, "restored": restored}), flush=True)
"""


def _env(data: Path) -> dict[str, str]:
    return {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_DATA_HOME": str(data)}


@pytest.fixture
def editors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Start typist editors in their own processes; every one still running is killed at the end."""
    data = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(data))  # the test's own editor shares their folder
    started: list[subprocess.Popen[str]] = []

    def typist(name: str) -> tuple[subprocess.Popen[str], Path]:
        proc = subprocess.Popen([sys.executable, "-c", TYPIST, name], env=_env(data), stdout=subprocess.PIPE, text=True)
        started.append(proc)
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], 120)  # a hung editor fails the test, not the run
        line = proc.stdout.readline().strip() if ready else ""  # the editor prints it once autosaved
        assert line, f"the editor typing {name!r} ended without an autosave (exit {proc.poll()})"
        return proc, Path(line)

    yield typist
    for proc in started:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=30)
        if proc.stdout:
            proc.stdout.close()


def _start_another(data: Path) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-c", STARTER], env=_env(data), capture_output=True, text=True, timeout=120, check=False
    )
    assert out.returncode == 0, out.stderr
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def _kill(proc: subprocess.Popen[str]) -> None:
    os.kill(proc.pid, signal.SIGKILL)  # no handler, no autosave, no clean-up runs
    proc.wait(timeout=30)


def _recover(
    qtbot: Any,
    tmp_path: Path,
    button: QMessageBox.StandardButton | Qt.Key,
    before: Callable[[MainWindow], object] = lambda _w: None,
) -> tuple[MainWindow, list[str], int]:
    """A new editor in this process (``before``: what it does first, such as open a file)
    offers what is left, its question answered by clicking ``button``, or by pressing a key."""
    window = MainWindow(
        QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat), use_user_folder=False, preview=False
    )
    window.ask_unsaved = lambda _doc: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    before(window)
    asked: list[str] = []

    def answer() -> None:
        box = QApplication.activeModalWidget()
        if isinstance(box, QMessageBox):
            asked.append(box.text() + "\n" + box.informativeText())
            if isinstance(button, Qt.Key):
                qtbot.keyClick(box, button)
            else:
                qtbot.mouseClick(box.button(button), Qt.MouseButton.LeftButton)

    timer = QTimer(interval=50)
    timer.timeout.connect(answer)
    timer.start()
    try:
        restored = window.recovery.offer_restore()
    finally:
        timer.stop()
    return window, asked, restored


def _files(folder: Path) -> list[str]:
    return sorted(f.name for f in folder.glob("*.ship")) if folder.is_dir() else []


def test_a_second_editor_leaves_a_running_editors_autosave_and_a_third_recovers_it_after_a_crash(
    qtbot: Any, tmp_path: Path, editors: Any
) -> None:
    first, saved = editors("Gunner Ashe's Refit")
    before = saved.read_bytes()
    # a second editor starts while the first runs: nothing to offer, and its Discard deletes nothing
    second = _start_another(tmp_path / "data")
    assert second == {"asked": [], "restored": 0}
    assert saved.read_bytes() == before and saved.with_suffix(".json").is_file()
    # the first crashes: its unsaved edit is offered to the next editor and restored
    _kill(first)
    window, asked, restored = _recover(qtbot, tmp_path, QMessageBox.StandardButton.Yes)
    assert restored == 1 and len(asked) == 1
    assert "Shipyard closed with unsaved changes" in asked[0] and "Gunner Ashe's Refit" in asked[0]
    view = window.current()
    assert view is not None and view.doc.design.name == "Gunner Ashe's Refit" and view.doc.modified
    # the dead editor's file is gone; the restored design is autosaved at once as this editor's own
    assert not saved.exists()
    assert _files(autosave.folder()) == [f"{view.doc.uid}.ship"]
    assert autosave.pending() == []  # held by this editor, running: nobody else is offered it


def test_discarding_recovery_deletes_the_crashed_editors_autosave_and_never_a_running_ones(
    qtbot: Any, tmp_path: Path, editors: Any
) -> None:
    _running, live = editors("Still Being Typed")
    crashed, dead = editors("Lost To A Crash")
    _kill(crashed)
    _window, asked, restored = _recover(qtbot, tmp_path, QMessageBox.StandardButton.Discard)
    assert restored == 0 and len(asked) == 1
    assert "Lost To A Crash" in asked[0] and "Still Being Typed" not in asked[0]
    assert not dead.exists() and not dead.with_suffix(".json").exists()  # discarded: removed
    assert live.is_file() and live.with_suffix(".json").is_file()  # the running editor's: untouched
    assert _files(autosave.folder()) == [live.name]


def _crashed_with_work(qtbot: Any, tmp_path: Path, ship: Path, name: str) -> MainWindow:
    """An editor in this process with ``ship`` open and its name edited, autosaved, whose lock is
    then let go as a crashed editor's is: its autosave is left for the next editor to offer."""
    window = MainWindow(
        QSettings(str(tmp_path / "first.ini"), QSettings.Format.IniFormat), use_user_folder=False, preview=False
    )
    window.ask_unsaved = lambda _doc: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(window)
    view = window.open_file(ship)
    assert view is not None
    view.doc.edit("name", name)
    assert window.recovery.autosave_all() == 1
    autosave._held.pop(view.doc.uid).unlock()  # what a crash does to it
    return window


def test_escape_keeps_the_crashed_editors_work_for_the_next_start(
    qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Esc (or closing the question) was a No, and No deleted every crashed editor's work. Only
    Discard deletes now; Esc keeps the work and the next start offers it again."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    ship = tmp_path / "rapier.ship"
    shutil.copy(ROOT / "catalogs" / "wing-commander" / "examples" / "rapier.ship", ship)
    _crashed_with_work(qtbot, tmp_path, ship, "Kept Through Esc")
    kept = sorted(p.name for p in autosave.folder().iterdir())
    assert [n.split(".")[1] for n in kept] == ["base", "json", "ship"]  # the work, the file it began from
    _window, asked, restored = _recover(qtbot, tmp_path, Qt.Key.Key_Escape)
    assert restored == 0
    assert len(asked) == 1 and "• rapier.ship" in asked[0] and "Not now keeps them for the next start" in asked[0]
    assert sorted(p.name for p in autosave.folder().iterdir()) == kept
    again = autosave.pending()  # the next start offers it again
    assert [r.autosave.name for r in again] == [n for n in kept if n.endswith(".ship")]
    for rec in again:
        autosave.release(rec)


def test_restored_work_asks_before_replacing_a_file_changed_since_it_was_autosaved(
    qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An editor crashed with unsaved work; then ``shipyard set`` changed the file. Restored and
    saved, the work was written over that change without a question: the restored document
    took the file as it is now for the one it was read from. It now starts from the file as
    the work did, so the question says the file changed and Save asks before replacing it."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    ship = tmp_path / "rapier.ship"
    shutil.copy(ROOT / "catalogs" / "wing-commander" / "examples" / "rapier.ship", ship)
    _crashed_with_work(qtbot, tmp_path, ship, "Restored Work")
    changed = call_shipyard("set", ship, "notes=Written on the command line after the crash", "--in-place")
    assert changed.returncode in (0, 1), changed.stderr
    theirs = ship.read_bytes()
    window, asked, restored = _recover(qtbot, tmp_path, QMessageBox.StandardButton.Yes)
    assert restored == 1 and "another program changed rapier.ship since: Save asks before replacing it" in asked[0]
    view = window.current()
    assert view is not None and view.doc.design.name == "Restored Work"
    replace_asked: list[Path] = []
    window.ask_replace_changed = lambda path: replace_asked.append(path) or False  # type: ignore[method-assign]
    assert window.save(view.doc) is False
    assert replace_asked == [ship] and ship.read_bytes() == theirs  # the command line's change kept
    assert view.doc.modified  # and the restored work still unsaved, for Save As


def test_restored_work_takes_the_place_of_its_file_opened_at_the_start(
    qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Started with the file (as a double-click starts it) and told to restore the crashed work
    on that file, the editor showed two tabs of one file, each Save writing over the other.
    The restored work now takes the place of the tab opened unchanged."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    ship = tmp_path / "rapier.ship"
    shutil.copy(ROOT / "catalogs" / "wing-commander" / "examples" / "rapier.ship", ship)
    _crashed_with_work(qtbot, tmp_path, ship, "Restored Work")
    window, _asked, restored = _recover(
        qtbot,
        tmp_path,
        QMessageBox.StandardButton.Yes,
        lambda w: w.open_file(ship),  # as the command line opens it
    )
    assert restored == 1
    on_file = [d for d in window.documents() if d.path == ship]
    assert len(on_file) == 1 and on_file[0].design.name == "Restored Work" and on_file[0].modified
