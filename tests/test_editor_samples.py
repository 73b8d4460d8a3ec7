"""One rule for samples: however a bundled sample is opened (the start page's picker, File >
Open, the command line), it is an untitled copy, Save asks where, and nothing Shipyard does
writes inside the catalogs it is installed with; the quit prompt's Enter never overwrites a
sample. Driven with real keys and clicks, paced like a person (longer waits than any of the
editor's delays: the fix search's idle 250 ms, the preview's 600 ms)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QComboBox, QFileDialog, QMessageBox

from shipyard._qt.window.window import MainWindow
from shipyard.core.designfile import LoadedDesign, load_design, save_design
from shipyard.core.errors import InputError
from shipyard.core.registry import is_installed

from .conftest import EXAMPLES, run_shipyard
from .test_editor import field, no_blocking_dialogs, user_copy, window  # noqa: F401 (fixtures)

PAUSE_MS = 700  # longer than every delay of the editor
SAMPLE = EXAMPLES / "rebel-fighter.ship"


def type_slowly(qtbot: Any, widget: Any, text: str) -> None:
    """Click into a field, select what is there and type over it, a key every 150 ms."""
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)
    widget.selectAll()
    for ch in text:
        qtbot.keyClick(QApplication.focusWidget(), ch)
        qtbot.wait(150)
    qtbot.wait(PAUSE_MS)


def asked_where(window: MainWindow, target: Path) -> list[str]:
    """Answer Save's file dialog with ``target``; the list of documents it was asked for."""
    asked: list[str] = []

    def ask(doc: Any) -> Path:
        asked.append(doc.name)
        return target

    window.ask_save_path = ask  # type: ignore[method-assign]
    return asked


def test_a_sample_opened_with_file_open_is_an_untitled_copy_and_save_asks_where(
    qtbot: Any, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = SAMPLE.read_bytes()
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *_a, **_k: ([str(SAMPLE)], ""))
    qtbot.keyClick(window, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)  # File > Open
    qtbot.wait(PAUSE_MS)
    view = window.current()
    assert view is not None and view.doc.path is None and view.doc.design.name == "Rebel Fighter"
    assert window.tabs.tabToolTip(window.tabs.indexOf(view)) == "Not saved yet"
    assert str(SAMPLE) not in window.recent_files.recent()  # a sample is not a file of the user's
    type_slowly(qtbot, field(view, "name"), "Red Five")
    assert view.doc.design.name == "Red Five" and view.doc.modified
    target = tmp_path / "red-five.ship"
    asked = asked_where(window, target)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)  # File > Save
    qtbot.wait(PAUSE_MS)
    assert asked == ["Red Five"]  # Save asked where
    assert load_design(target, use_user_folder=False).design.name == "Red Five"
    assert SAMPLE.read_bytes() == before  # the sample is as it came
    assert view.doc.path == target and window.recent_files.recent()[0] == str(target)


def test_a_sample_from_the_start_page_follows_the_same_rule(qtbot: Any, window: MainWindow, tmp_path: Path) -> None:
    welcome = window.show_welcome()
    picker = next(
        c for c in welcome.findChildren(QComboBox) if c.accessibleName() == "Open a Space Fighter Alpha sample"
    )
    picker.setFocus(Qt.FocusReason.TabFocusReason)
    index = picker.findData(str(SAMPLE))
    assert index > 0
    for _ in range(index):  # down the list to the Rebel Fighter, as a person does with the arrows
        qtbot.keyClick(picker, Qt.Key.Key_Down)
        qtbot.wait(150)
    picker.activated.emit(picker.currentIndex())  # the choice made (Qt sends it on a closed list's arrows too)
    qtbot.wait(PAUSE_MS)
    view = window.current()
    assert view is not None and view.doc.path is None and view.doc.design.name == "Rebel Fighter"


def test_the_quit_prompts_enter_never_overwrites_a_sample(qtbot: Any, window: MainWindow, tmp_path: Path) -> None:
    before = SAMPLE.read_bytes()
    view = window.open_file(SAMPLE)
    assert view is not None
    type_slowly(qtbot, field(view, "name"), "Red Six")
    box = window.unsaved_box(view.doc)
    assert box.defaultButton() is box.button(QMessageBox.StandardButton.Save)
    assert "Save asks where" in box.text()
    box.open()  # shown, not run modally: Enter goes to it
    qtbot.waitExposed(box)
    qtbot.keyClick(box, Qt.Key.Key_Return)
    qtbot.wait(PAUSE_MS)
    answer = window.unsaved_answer(box, box.result())
    assert answer == "save"
    target = tmp_path / "red-six.ship"
    asked = asked_where(window, target)
    window.ask_unsaved = lambda _doc: answer  # type: ignore[method-assign]
    assert window.close_tab(window.tabs.indexOf(view))
    assert asked == ["Red Six"] and load_design(target, use_user_folder=False).design.name == "Red Six"
    assert SAMPLE.read_bytes() == before


def test_a_design_whose_file_is_inside_the_catalogs_is_saved_elsewhere(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    """A document that still points into the installed catalogs (a session's autosave of
    an older version, say): Save asks where instead of writing there."""
    before = SAMPLE.read_bytes()
    view = window.open_file(SAMPLE)
    assert view is not None
    view.doc.path = SAMPLE
    type_slowly(qtbot, field(view, "name"), "Red Seven")
    target = tmp_path / "red-seven.ship"
    asked = asked_where(window, target)
    assert window.save(view.doc)
    assert asked == ["Red Seven"] and SAMPLE.read_bytes() == before


def test_no_save_writes_inside_the_installed_catalogs(tmp_path: Path) -> None:
    loaded = load_design(user_copy(tmp_path, "rebel-frigate"), use_user_folder=False)
    before = SAMPLE.read_bytes()
    assert is_installed(SAMPLE) and not is_installed(tmp_path / "rebel-frigate.ship")
    with pytest.raises(InputError, match="inside the catalogs Shipyard is installed with") as refused:
        save_design(LoadedDesign(SAMPLE, loaded.ruleset, loaded.preset, loaded.design, loaded.catalog), SAMPLE)
    assert refused.value.problems[0].file == str(SAMPLE)
    assert SAMPLE.read_bytes() == before  # the Rebel Fighter, not the frigate written over it
    new = EXAMPLES / "my-own.ship"
    proc = run_shipyard("new", "My own", "--kind", "starfighter", "-o", new)
    assert proc.returncode == 2 and "inside the catalogs Shipyard is installed with" in proc.stderr
    assert not new.exists()
