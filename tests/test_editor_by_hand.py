"""The editor by hand (issue 24): every kind of generated field on every page of a sample
of each ruleset, driven as a person drives it.

Real key and mouse events go to the widget that has the focus *now*
(:func:`QApplication.focusWidget`), never to a widget the test holds on to, and a person's
pace is kept: every key waits :data:`PAUSE`, so each key's commit (a text field commits
every key, merged into one undo step), report and refresh, and the deletion of whatever a
refresh replaced, are done before the next key arrives. A test that typed faster, or into a
widget it kept, would pass while a person's second key went nowhere (before issue 24 the
editor rebuilt a list's row on every key of its name).

Per sample: a twenty-character name typed into every list row's text field and every text
field of the pages, each check box ticked and unticked, each drop-down stepped to its next
choice and back, each spin box stepped up and down, a row added and removed by keyboard;
the focus stays where the person put it, each field's typing is one undo step, and the
saved file holds what was typed.
"""

from __future__ import annotations

import itertools
import json
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QCheckBox,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QWidget,
)

from shipyard._qt.document.pending import COMMIT_DELAY_MS
from shipyard._qt.form.listeditor import ListEditor
from shipyard._qt.view.documentview import DocumentView
from shipyard._qt.window.window import MainWindow
from shipyard.core.edits import get_at

from .editor_pages import PAUSE_MS, saved_data, steps
from .test_editor import no_blocking_dialogs, window
from .test_editor_layout import CATALOGS, settle, shown_pages

__all__ = ["no_blocking_dialogs", "window"]  # fixtures used here
pytestmark = pytest.mark.real_clock  # a person's keys and pauses against the editor's real timers

PAUSE = 150  # ms between two keys, as a person types: shorter than the commit delay
SAMPLES = {  # a sample of each ruleset whose lists have rows
    "space-fighter-alpha": "rebel-frigate",
    "space-fury": "interceptor",
    "cluster-falk": "kestrel-fighter",
    "future-perfect": "scout",
    "wing-commander": "piranha",
}
NAME = "Grey Heron Mark Nine"  # twenty characters, as a person names a thing
assert len(NAME) == 20


def names() -> Any:
    """Twenty-character names, each its own (a list's entries named alike would be one)."""
    n = 0
    while True:
        n += 1
        yield f"Grey Heron Mark {n:04d}"


NAMES = names()


def focused() -> QWidget:
    widget = QApplication.focusWidget()
    assert widget is not None, "nothing has the focus"
    return widget


def press(qtbot: Any, key: Qt.Key | str, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    """One key to whatever has the focus, then a person's pause."""
    target = focused()
    QTest.keyClick(target, key, modifier)
    qtbot.wait(PAUSE)


def person_types(qtbot: Any, text: str) -> bool:
    """Type ``text`` a key at a time, a person's pause after each; whether the keys were typing:
    none came later than the commit delay after the one before, nor the look after the last.
    A worker that waited that long for a core (the suite shares two cores among six) typed
    with a pause in the middle, and a pause commits, as it should."""
    keyed = [time.monotonic()]  # when each key went in, and when the typing was looked at
    for ch in text:
        press(qtbot, ch)
        keyed.append(time.monotonic())
    return max((b - a for a, b in itertools.pairwise(keyed)), default=0.0) * 1000 < COMMIT_DELAY_MS


def click(qtbot: Any, widget: QWidget) -> None:
    """A click where a person clicks a control: a check box on its box, others in the middle."""
    at = QPoint(8, widget.height() // 2) if isinstance(widget, QCheckBox) else widget.rect().center()
    QTest.mouseClick(widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at)
    qtbot.wait(PAUSE)


def open_by_hand(qtbot: Any, window: MainWindow, ruleset: str) -> DocumentView:
    view = window.open_sample(CATALOGS / ruleset / "examples" / f"{SAMPLES[ruleset]}.ship")  # an untitled copy
    assert view is not None and view.doc.path is None
    return ready_to_type(qtbot, window, view)


def ready_to_type(qtbot: Any, window: MainWindow, view: DocumentView) -> DocumentView:
    """Every page built, the window active (keys go to its focused widget), laid out."""
    view.finish_building()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    settle(qtbot)
    return view


def reachable(w: QWidget) -> bool:
    return w.isVisible() and w.isEnabled() and bool(w.focusPolicy() & Qt.FocusPolicy.ClickFocus)


def page_lists(view: DocumentView, index: int) -> list[ListEditor]:
    page = view.tabs.widget(index)
    return [e for e in steps(view).lists if e.isVisible() and page.isAncestorOf(e)]


def cells(editor: ListEditor, kind: type) -> list[tuple[int, int]]:
    return [
        (r, c)
        for r in range(editor.rowCount())
        for c in range(len(editor.columns))
        if isinstance(editor.cellWidget(r, c), kind) and reachable(editor.cellWidget(r, c))
    ]


def path_of(editor: ListEditor, row: int, col: int) -> str:
    field = editor.columns[col].field
    return f"{editor.list_path}[{row}]" + ("" if field == "." else f".{field}")


def value(view: DocumentView, path: str) -> Any:
    return get_at(view.doc.design, path)


def type_name(qtbot: Any, view: DocumentView, widget: QWidget, where: str, name: str) -> None:
    """Click into a text field, select what it holds and type ``name`` a key at a time:
    the field keeps the focus to the last key and the typing is one undo step."""
    click(qtbot, widget)
    assert focused() is widget, f"{where}: a click did not put the focus in the field"
    press(qtbot, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    steps_before, design_before = view.doc.undo_stack.index(), view.doc.design
    paced = True
    for i, ch in enumerate(name):
        assert focused() is widget, f"{where}: the focus left the field after {name[:i]!r}"
        paced = person_types(qtbot, ch) and paced  # each key's gap is looked at as it is typed
    shown = widget.text() if isinstance(widget, QLineEdit) else widget.toPlainText()  # type: ignore[attr-defined]
    assert shown == name, f"{where}: the field shows {shown!r}"
    if paced:  # a person's typing (person_types): no key came a commit delay after the last
        assert view.doc.design is design_before, f"{where}: keys {PAUSE} ms apart committed before a pause"
    qtbot.wait(PAUSE_MS)  # the person stops typing: the name commits
    assert focused() is widget, f"{where}: the commit took the focus from the field"
    if paced:
        assert view.doc.undo_stack.index() == steps_before + 1, f"{where}: typing a name is one undo step"


def walk_lists(qtbot: Any, view: DocumentView, index: int, typed: dict[str, str], picked: list[str]) -> None:
    title = view.tabs.tabText(index).replace("&", "")
    for list_path in [e.list_path for e in page_lists(view, index)]:
        # looked up again: a click in an outer list's row shows that row's detail, a new
        # list editor for an inner list (a turret's weapons)
        editor = next((e for e in page_lists(view, index) if e.list_path == list_path), None)
        if editor is None:
            continue
        for r, c in cells(editor, QLineEdit):
            path, name = path_of(editor, r, c), next(NAMES)
            type_name(qtbot, view, editor.cellWidget(r, c), f"{title}, {path}", name)
            assert editor.cellWidget(r, c).text() == name
            assert value(view, path) == name, f"{title}: {path} holds {value(view, path)!r}"
            typed[path] = name
        for r, c in cells(editor, QCheckBox):
            path, box = path_of(editor, r, c), editor.cellWidget(r, c)
            was = bool(value(view, path))
            for want in (not was, was):
                click(qtbot, box)
                assert focused() is box, f"{title}: ticking {path} lost the focus"
                assert bool(value(view, path)) is want, f"{title}: {path} after a click"
        for r, c in cells(editor, QComboBox):
            path, combo = path_of(editor, r, c), editor.cellWidget(r, c)
            step_choice(qtbot, view, combo, path, title, picked)
        for r, c in cells(editor, QAbstractSpinBox):
            path, spin = path_of(editor, r, c), editor.cellWidget(r, c)
            step_spin(qtbot, view, spin, path, title)


def step_choice(qtbot: Any, view: DocumentView, combo: QComboBox, path: str, title: str, picked: list[str]) -> None:
    """Down to the next choice and Up back, from the keyboard, on the focused drop-down."""
    click(qtbot, combo)  # opens its list, as a click does
    press(qtbot, Qt.Key.Key_Escape)  # and closes it: the focus is on the drop-down
    assert focused() is combo, f"{title}: {path} does not keep the focus"
    start, held = combo.currentIndex(), value(view, path)
    if start + 1 >= combo.count():
        return
    for key, want in ((Qt.Key.Key_Down, start + 1), (Qt.Key.Key_Up, start)):
        before = combo.itemData(want)
        press(qtbot, key)
        live = QApplication.focusWidget()
        assert live is combo, f"{title}: choosing at {path} moved the focus to {live!r}"
        if want != start and value(view, path) != before:  # the rules refuse it: kept, marked, said
            from shipyard._qt.document import refused

            assert combo.currentIndex() == want, f"{title}: {path} took back the person's choice"
            assert refused.holds(combo) and window_errors(combo), f"{title}: {path} refused without a word"
            press(qtbot, Qt.Key.Key_Escape)  # the person takes it back
            assert combo.currentIndex() == start and not refused.holds(combo), f"{title}: Escape at {path}"
            return
        assert combo.currentIndex() == want, f"{title}: {path} at {combo.currentText()!r}"
        now = value(view, path)
        back = want == start and (now or None) in (held or None, before)  # "not set" is saved as nothing
        assert now == before or back, f"{title}: {path} holds {now!r}, not {before!r}"
    picked.append(path)


def window_errors(w: QWidget) -> str:
    win = w.window()
    return win.statusBar().currentMessage() if hasattr(win, "statusBar") else ""


def step_spin(qtbot: Any, view: DocumentView, spin: QAbstractSpinBox, path: str, title: str) -> None:
    spin.setFocus(Qt.FocusReason.TabFocusReason)  # reached with Tab: what a keyboard user does
    qtbot.wait(PAUSE)
    start = value(view, path)
    for key in (Qt.Key.Key_Up, Qt.Key.Key_Down):
        press(qtbot, key)
        assert focused() is spin, f"{title}: stepping {path} lost the focus"
    assert value(view, path) == start, f"{title}: {path} is not back at {start!r}"


def walk_fields(qtbot: Any, view: DocumentView, index: int, typed: dict[str, str]) -> None:
    """The pages' own text fields (not a list's): a name typed into each."""
    page = view.tabs.widget(index)
    for path, binding in list(view.binder.bindings.items()):
        w = binding.widget
        if not isinstance(w, QLineEdit | QPlainTextEdit) or not reachable(w) or not page.isAncestorOf(w):
            continue
        if isinstance(w, QPlainTextEdit):
            click(qtbot, w)
            press(qtbot, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
            before = w.toPlainText()
            person_types(qtbot, " " + NAME)
            qtbot.wait(PAUSE_MS)  # the person stops typing: the text commits
            assert focused() is w, f"{path}: the focus left the notes box"
            assert value(view, path) == before + " " + NAME
            typed[path] = before + " " + NAME
            continue
        name = next(NAMES)
        type_name(qtbot, view, w, path, name)
        assert value(view, path) == name
        typed[path] = name


@pytest.mark.parametrize("ruleset", list(SAMPLES))
def test_a_person_types_ticks_and_picks_on_every_page(
    qtbot: Any, window: MainWindow, ruleset: str, tmp_path: Path
) -> None:
    window.resize(1280, 720)
    view = open_by_hand(qtbot, window, ruleset)
    typed: dict[str, str] = {}
    picked: list[str] = []  # the drop-downs a choice was picked from (and back)
    for index in shown_pages(view):
        view.tabs.setCurrentIndex(index)
        settle(qtbot)
        walk_fields(qtbot, view, index, typed)
        walk_lists(qtbot, view, index, typed, picked)
    assert typed, "a sample with nothing to type into"
    saved = saved_data(window, tmp_path / "typed.ship")
    design = saved.get("design", saved)
    for path, text in typed.items():
        node: Any = design
        for part in path.replace("]", "").replace("[", ".").split("."):
            node = node[int(part)] if part.isdigit() else node[part]
        assert node == text, f"the saved file holds {node!r} at {path}"


def add_buttons(view: DocumentView, index: int) -> list[tuple[QPushButton, ListEditor]]:
    """The Add buttons of the page's lists, each with the list it adds to."""
    page = view.tabs.widget(index)
    out = []
    for editor in page_lists(view, index):
        label = editor.accessibleName()
        for b in page.findChildren(QPushButton):
            if b.isVisible() and b.isEnabled() and b.accessibleName().endswith(f" to {label}"):
                out.append((b, editor))
    return out


@pytest.mark.parametrize("key", [Qt.Key.Key_Space, Qt.Key.Key_Return])
@pytest.mark.parametrize("ruleset", list(SAMPLES))
def test_add_by_keyboard_then_type_the_name_then_remove(
    qtbot: Any, window: MainWindow, ruleset: str, key: Qt.Key
) -> None:
    """Enter or Space on an Add button adds one row and puts the focus in its first field,
    its text selected: typing names the new entry; its Remove, pressed with Space, takes the
    row away and leaves the focus in the list."""
    view = open_by_hand(qtbot, window, ruleset)
    tried = 0
    for index in shown_pages(view):
        view.tabs.setCurrentIndex(index)
        settle(qtbot)
        for list_path in [e.list_path for _b, e in add_buttons(view, index)]:
            found = [(b, e) for b, e in add_buttons(view, index) if e.list_path == list_path]
            if not found:  # an inner list of an outer row no longer selected
                continue
            button, editor = found[0]
            rows = editor.rowCount()
            button.setFocus(Qt.FocusReason.TabFocusReason)
            qtbot.wait(PAUSE)
            press(qtbot, key)
            assert editor.rowCount() == rows + 1, f"{button.text()}: {key.name} added {editor.rowCount() - rows}"
            first = focused()
            assert editor.isAncestorOf(first), f"{button.text()}: the focus is on {first!r}, not the new row"
            at = editor._focused_cell()
            assert at is not None and at[0] == rows, f"{button.text()}: the focus is in row {at}, not the new one"
            if isinstance(first, QLineEdit):
                assert first.selectedText() == first.text(), "the new row's text is not selected to type over"
                person_types(qtbot, NAME)
                qtbot.wait(PAUSE_MS)  # the person stops typing: the name commits
                assert focused() is first and first.text() == NAME
                assert editor.rowCount() == rows + 1, "typing added rows"
                assert NAME in json.dumps(view.doc.design.model_dump(mode="json"))
            remove = editor.cellWidget(rows, editor.remove_column)
            remove.setFocus(Qt.FocusReason.TabFocusReason)
            qtbot.wait(PAUSE)
            press(qtbot, Qt.Key.Key_Space)
            assert editor.rowCount() == rows, f"{button.text()}: Remove by keyboard"
            assert editor.isAncestorOf(focused()) or focused() is editor, "the focus left the list"
            tried += 1
    if ruleset in ("cluster-falk", "future-perfect", "wing-commander"):
        assert tried, "no Add button tried"


def tab_stop(w: QWidget) -> bool:
    return w.isVisible() and bool(w.focusPolicy() & Qt.FocusPolicy.TabFocus)


def looks(w: QWidget) -> Any:
    QApplication.processEvents()
    return w.grab().toImage()


@pytest.mark.parametrize("ruleset", ["cluster-falk", "future-perfect"])
def test_the_focus_shows_on_tables_check_boxes_and_read_only_values(
    qtbot: Any, window: MainWindow, ruleset: str
) -> None:
    """Tab onto a list, a check box or a figure's value (read-only text a screen reader
    reads) and it looks different: a person sees where the keyboard is."""
    from PySide6.QtWidgets import QLabel

    view = open_by_hand(qtbot, window, ruleset)
    seen: dict[str, int] = {}
    for index in shown_pages(view):
        view.tabs.setCurrentIndex(index)
        settle(qtbot)
        page = view.tabs.widget(index)
        kinds: list[tuple[str, list[QWidget]]] = [
            ("list", list(page_lists(view, index))),
            ("check box", [b for b in page.findChildren(QCheckBox) if reachable(b)]),
            ("value", [v for v in page.findChildren(QLabel) if tab_stop(v) and v.objectName().startswith("figure:")]),
        ]
        for kind, widgets in kinds:
            for w in widgets[:3]:
                view.tabs.setFocus(Qt.FocusReason.TabFocusReason)
                plain_look = looks(w)
                w.setFocus(Qt.FocusReason.TabFocusReason)
                assert focused() is w or w.isAncestorOf(focused())
                assert looks(w) != plain_look, f"{kind} {w.accessibleName()!r}: the focus does not show"
                seen[kind] = seen.get(kind, 0) + 1
    assert seen.get("list") and seen.get("check box") and seen.get("value"), seen
