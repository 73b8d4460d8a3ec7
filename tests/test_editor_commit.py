"""One commit model for text, as a person meets it: keys typed 150 ms apart are not yet an
edit (nothing is evaluated, no panel refreshed); the text commits on a pause, on Enter or
on leaving the field, as one undo step, and the field keeps the focus. Save, undo and
closing right after the last key get what was typed. Real key events to the focused
widget throughout."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLineEdit

from shipyard._qt.view.documentview import DocumentView
from shipyard._qt.window.window import MainWindow
from shipyard.core.designfile import load_design
from shipyard.core.edits import get_at

from .editor_pages import PAUSE_MS
from .test_editor import field, no_blocking_dialogs, window
from .test_editor_by_hand import click, focused, page_lists, person_types, press, ready_to_type
from .test_editor_layout import CATALOGS, shown_pages

__all__ = ["no_blocking_dialogs", "window"]  # fixtures used here

NAME = "Grey Heron Mark Nine"
ASPECT = "aspects[0]"


def open_copy(qtbot: Any, window: MainWindow, tmp_path: Path, name: str = "kestrel-fighter") -> DocumentView:
    target = tmp_path / f"{name}.ship"
    target.write_bytes((CATALOGS / "cluster-falk" / "examples" / f"{name}.ship").read_bytes())
    view = window.open_file(target)
    assert view is not None and view.doc.path == target
    return ready_to_type(qtbot, window, view)


def aspect_field(view: DocumentView) -> QLineEdit:
    """The first aspect row, a text field in a list row, on whichever page shows it."""
    for index in shown_pages(view):
        view.tabs.setCurrentIndex(index)
        for editor in page_lists(view, index):
            if editor.list_path == "aspects":
                col = next(c for c, column in enumerate(editor.columns) if column.field == ".")
                widget = editor.cellWidget(0, col)
                assert isinstance(widget, QLineEdit)
                return widget
    raise AssertionError("no page shows the aspects list")


def at_once(key: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    """A key to the focused widget straight after the last one typed: no pause to commit."""
    QTest.keyClick(focused(), key, modifier)


def type_over(qtbot: Any, widget: QLineEdit, text: str) -> bool:
    """Select what ``widget`` holds and type ``text`` over it; whether the keys came as typing
    (:func:`person_types`: none a commit delay after the one before)."""
    click(qtbot, widget)
    press(qtbot, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    return person_types(qtbot, text)


@pytest.mark.real_clock  # the editor's real commit timer, as a person meets it
def test_keys_150_ms_apart_commit_once_on_a_pause_as_one_undo_step(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    view = open_copy(qtbot, window, tmp_path)
    widget = aspect_field(view)
    before, steps = view.doc.design, view.doc.undo_stack.index()
    commits: list[object] = []
    view.doc.changed.connect(lambda: commits.append(view.doc.state))
    paced = type_over(qtbot, widget, NAME)
    assert focused() is widget and widget.text() == NAME
    if paced:  # on the real clock a worker kept from its core typed with a pause, which commits
        assert view.doc.design is before and commits == [], "every key was an edit: keys 150 ms apart are typing"
    qtbot.wait(PAUSE_MS)
    assert get_at(view.doc.design, ASPECT) == NAME
    if paced:
        assert len(commits) == 1, f"a pause commits once, not {len(commits)} times"
    assert view.doc.undo_stack.index() == steps + 1
    assert focused() is widget and widget.text() == NAME, "the commit rebuilt the field being typed in"
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert get_at(view.doc.design, ASPECT) == get_at(before, ASPECT) and widget.text() == get_at(before, ASPECT)


def test_a_pause_in_the_middle_of_a_name_is_still_one_undo_step(qtbot: Any, window: MainWindow, tmp_path: Path) -> None:
    view = open_copy(qtbot, window, tmp_path)
    widget = aspect_field(view)
    old, steps = get_at(view.doc.design, ASPECT), view.doc.undo_stack.index()
    type_over(qtbot, widget, "Grey Heron")
    qtbot.wait(PAUSE_MS)  # the person stops to think
    assert get_at(view.doc.design, ASPECT) == "Grey Heron"
    person_types(qtbot, " Mark Nine")
    qtbot.wait(PAUSE_MS)
    assert get_at(view.doc.design, ASPECT) == NAME and view.doc.undo_stack.index() == steps + 1
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert get_at(view.doc.design, ASPECT) == old


@pytest.mark.parametrize("key", [Qt.Key.Key_Return, Qt.Key.Key_Tab])
def test_enter_or_leaving_the_field_commits_at_once(
    qtbot: Any, window: MainWindow, tmp_path: Path, key: Qt.Key
) -> None:
    view = open_copy(qtbot, window, tmp_path)
    widget = aspect_field(view)
    steps = view.doc.undo_stack.index()
    type_over(qtbot, widget, NAME)
    at_once(key)
    assert get_at(view.doc.design, ASPECT) == NAME, f"{key.name} did not commit what was typed"
    assert view.doc.undo_stack.index() == steps + 1
    if key == Qt.Key.Key_Tab:
        assert focused() is not widget
        # back in the field and typing again: a new field edit, a new undo step
        click(qtbot, widget)
        press(qtbot, Qt.Key.Key_End)
        person_types(qtbot, "X")
        at_once(Qt.Key.Key_Tab)
        assert get_at(view.doc.design, ASPECT) == NAME + "X"
        assert view.doc.undo_stack.index() == steps + 2, "editing the field again merged with the last edit"
    else:
        assert focused() is widget


def test_ctrl_s_straight_after_the_last_key_saves_what_was_typed(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    view = open_copy(qtbot, window, tmp_path)
    widget = aspect_field(view)
    type_over(qtbot, widget, NAME)
    assert view.doc.design.aspects[0] != NAME  # still typing: no pause yet
    at_once(Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)  # File > Save, no pause
    assert load_design(tmp_path / "kestrel-fighter.ship").design.aspects[0] == NAME, (
        "Ctrl+S saved the design without what was typed"
    )
    assert not view.doc.modified and focused() is widget


def test_ctrl_z_straight_after_the_last_key_undoes_the_typing(qtbot: Any, window: MainWindow, tmp_path: Path) -> None:
    view = open_copy(qtbot, window, tmp_path)
    widget = aspect_field(view)
    old = get_at(view.doc.design, ASPECT)
    type_over(qtbot, widget, NAME)
    at_once(Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.wait(PAUSE_MS)  # nothing still waiting commits the typing again
    assert get_at(view.doc.design, ASPECT) == old and widget.text() == old
    assert not view.doc.modified


def test_closing_straight_after_the_last_key_asks_to_save_the_typing(
    qtbot: Any, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = open_copy(qtbot, window, tmp_path)
    type_over(qtbot, field(view, "name"), NAME)
    asked: list[str] = []
    monkeypatch.setattr(window, "ask_unsaved", lambda doc: asked.append(doc.design.name) or "save")
    at_once(Qt.Key.Key_F4, Qt.KeyboardModifier.ControlModifier)  # File > Close
    assert asked == [NAME], "closing did not see what was typed as an unsaved change"
    assert load_design(tmp_path / "kestrel-fighter.ship").design.name == NAME


def _page_of(view: DocumentView, widget: Any) -> None:
    """Show the page that holds ``widget`` (a person turns to it before clicking)."""
    for index in shown_pages(view):
        view.tabs.setCurrentIndex(index)
        if widget.isVisible():
            return
    raise AssertionError("no page shows the field")


def test_a_spin_box_left_and_changed_again_is_a_second_undo_step(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    """A number typed and left, then stepped up on a second visit: Ctrl+Z went back to the
    value before both (Handling 2, then 3, undone to -1), the two changes merged into one
    step. Leaving a spin box ends its run."""
    view = open_copy(qtbot, window, tmp_path)
    size = field(view, "size")
    _page_of(view, size)
    before = view.doc.design.size
    click(qtbot, size)
    press(qtbot, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    press(qtbot, str(before + 2))
    press(qtbot, Qt.Key.Key_Tab)
    assert view.doc.design.size == before + 2
    click(qtbot, size)
    press(qtbot, Qt.Key.Key_Up)
    assert view.doc.design.size == before + 3
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert view.doc.design.size == before + 2  # one step back, not both
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert view.doc.design.size == before


def test_typing_after_undo_and_redo_is_a_step_of_its_own(qtbot: Any, window: MainWindow, tmp_path: Path) -> None:
    """Typed, undone, redone, typed again: Ctrl+Z took both typings back, the second merged
    into the step redone. An undo or a redo ends the run of typing."""
    view = open_copy(qtbot, window, tmp_path)
    name = field(view, "name")
    _page_of(view, name)
    start = view.doc.design.name
    click(qtbot, name)
    press(qtbot, Qt.Key.Key_End)
    person_types(qtbot, " Two")
    qtbot.wait(PAUSE_MS)  # a pause longer than the commit delay
    assert view.doc.design.name == f"{start} Two"
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert view.doc.design.name == f"{start} Two"
    press(qtbot, Qt.Key.Key_End)
    person_types(qtbot, " Three")
    qtbot.wait(PAUSE_MS)
    assert view.doc.design.name == f"{start} Two Three"
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert view.doc.design.name == f"{start} Two"


def test_an_emptied_number_goes_back_to_not_set_or_to_what_it_was_never_to_0(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    """Emptied and left, a spin box committed 0: a Handling of -1 became 0, and an optional
    number shown as "not set" became 0, a value nobody typed. Now a field that may be unset
    goes back to unset, any other to the value it had, and no undo step is made for either."""
    view = open_copy(qtbot, window, tmp_path)
    size = field(view, "size")
    _page_of(view, size)
    before, steps = view.doc.design.size, view.doc.undo_stack.count()
    click(qtbot, size)
    press(qtbot, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    press(qtbot, Qt.Key.Key_Backspace)
    press(qtbot, Qt.Key.Key_Tab)
    assert (view.doc.design.size, view.doc.undo_stack.count()) == (before, steps)
    assert size.value() == before
    # an optional number: set it, then empty it: it is "not set" again
    optional = next(
        p for p, b in view.binder.bindings.items() if p.startswith("skills.") and b.widget.specialValueText()
    )
    widget = field(view, optional)
    _page_of(view, widget)
    click(qtbot, widget)
    press(qtbot, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    person_types(qtbot, "40")
    qtbot.wait(PAUSE_MS)
    press(qtbot, Qt.Key.Key_Tab)
    assert get_at(view.doc.design, optional) == 40
    click(qtbot, widget)
    press(qtbot, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    press(qtbot, Qt.Key.Key_Backspace)
    press(qtbot, Qt.Key.Key_Tab)
    assert view.doc.design.skills.get(optional.removeprefix("skills.")) is None  # unset: not in the file
    assert widget.text() == widget.specialValueText()
    steps = view.doc.undo_stack.count()  # emptied again while unset: nothing changes, no step
    click(qtbot, widget)
    press(qtbot, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    press(qtbot, Qt.Key.Key_Backspace)
    press(qtbot, Qt.Key.Key_Tab)
    assert view.doc.undo_stack.count() == steps
    assert view.doc.design.skills.get(optional.removeprefix("skills.")) is None
