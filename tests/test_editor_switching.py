"""Moving between open designs and between a design's step pages by keyboard (issue 46).

The desktops' keys for documents move between the open designs wherever the focus is, a
text box, a spin box, the step tabs themselves: Ctrl+Tab and Ctrl+PgDown on, Ctrl+Shift+Tab
and Ctrl+PgUp back, round from the last to the first. The step pages have their own keys,
Alt+PgDown and Alt+PgUp. Every key is a real key event to the widget that has the focus.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QWidget

from shipyard._qt.document.keys import TextBox
from shipyard._qt.view.documentview import DocumentView
from shipyard._qt.window.helpmenu import shortcuts, show_shortcuts
from shipyard._qt.window.window import MainWindow

from .conftest import EXAMPLES, ROOT
from .editor_pages import PAUSE_MS
from .test_editor import no_blocking_dialogs, window

__all__ = ["no_blocking_dialogs", "window"]  # fixtures used here

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
ALT = Qt.KeyboardModifier.AltModifier
DESIGNS = [  # three rulesets' samples, each its own kind of pages
    EXAMPLES / "rebel-fighter.ship",
    ROOT / "catalogs" / "cluster-falk" / "examples" / "kestrel-fighter.ship",
    ROOT / "catalogs" / "future-perfect" / "examples" / "scout.ship",
]


def focused() -> QWidget:
    widget = QApplication.focusWidget()
    assert widget is not None, "nothing has the focus"
    return widget


def press(qtbot: Any, key: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    """One key to whatever has the focus now, then a person's pause."""
    QTest.keyClick(focused(), key, modifier)
    qtbot.wait(PAUSE_MS)


def inside(view: DocumentView) -> bool:
    widget = QApplication.focusWidget()
    return widget is not None and view.isAncestorOf(widget)


@pytest.fixture
def designs(qtbot: Any, window: MainWindow) -> list[DocumentView]:
    views = []
    for f in DESIGNS:
        view = window.open_file(f)
        assert view is not None
        views.append(view)
    window.tabs.setCurrentIndex(0)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    return views


def test_ctrl_tab_and_ctrl_page_keys_move_between_open_designs_wherever_the_focus_is(
    qtbot: Any, window: MainWindow, designs: list[DocumentView]
) -> None:
    first, second, third = designs
    name = first.binder.bindings["name"].widget
    name.setFocus()
    qtbot.waitUntil(name.hasFocus)
    press(qtbot, Qt.Key.Key_Tab, CTRL)
    assert window.current() is second and inside(second)  # the keys go on to the design shown
    press(qtbot, Qt.Key.Key_PageDown, CTRL)
    assert window.current() is third and inside(third)
    press(qtbot, Qt.Key.Key_Tab, CTRL)  # round from the last to the first ...
    assert window.current() is first and focused() is name  # ... where its focus was left
    press(qtbot, Qt.Key.Key_Backtab, CTRL | SHIFT)  # Ctrl+Shift+Tab, as the X server sends it
    assert window.current() is third
    press(qtbot, Qt.Key.Key_Tab, CTRL | SHIFT)  # and as some keyboards' layouts send it
    assert window.current() is second
    press(qtbot, Qt.Key.Key_PageUp, CTRL)
    assert window.current() is first and focused() is name
    # typing now goes into the first design, and into no other
    QTest.keyClick(name, Qt.Key.Key_A, CTRL)
    QTest.keyClicks(name, "Heron", delay=40)
    qtbot.wait(PAUSE_MS)
    assert first.doc.design.name == "Heron"
    assert second.doc.design.name != "Heron" and third.doc.design.name != "Heron"


def test_the_design_keys_are_the_windows_in_a_text_box_a_spin_box_and_on_the_step_tabs(
    qtbot: Any, window: MainWindow, designs: list[DocumentView]
) -> None:
    first, second, _third = designs
    first.finish_building()
    story = next(t for t in first.findChildren(TextBox) if t.isEnabled())
    first.tabs.setCurrentIndex(first.tabs.indexOf(next(p for p in _pages(first) if p.isAncestorOf(story))))
    story.setFocus()
    qtbot.waitUntil(story.hasFocus)
    text = story.toPlainText()
    press(qtbot, Qt.Key.Key_Tab, CTRL)  # no tab character typed: the next design
    assert window.current() is second and story.toPlainText() == text
    press(qtbot, Qt.Key.Key_Tab, CTRL | SHIFT)
    assert window.current() is first and focused() is story
    spin = next(s for s in first.findChildren(QAbstractSpinBox) if s.isVisible() and s.isEnabled())
    spin.setFocus()
    qtbot.waitUntil(spin.hasFocus)
    press(qtbot, Qt.Key.Key_PageDown, CTRL)
    assert window.current() is second
    press(qtbot, Qt.Key.Key_PageUp, CTRL)
    assert window.current() is first
    # on the step tabs Ctrl+Tab was the steps' own; now it is the designs', as everywhere
    bar = first.tabs.tabBar()
    bar.setFocus()
    qtbot.waitUntil(bar.hasFocus)
    step = first.tabs.currentIndex()
    press(qtbot, Qt.Key.Key_Tab, CTRL)
    assert window.current() is second and first.tabs.currentIndex() == step


def _pages(view: DocumentView) -> list[QWidget]:
    return [w for i in range(view.tabs.count()) if (w := view.tabs.widget(i)) is not None]


def test_alt_page_keys_move_between_a_designs_step_pages_and_skip_the_hidden_ones(
    qtbot: Any, window: MainWindow, designs: list[DocumentView]
) -> None:
    first, second, _third = designs
    steps = first.tabs
    shown = [i for i in range(steps.count()) if steps.isTabVisible(i)]
    assert len(shown) >= 3
    name = first.binder.bindings["name"].widget
    name.setFocus()
    qtbot.waitUntil(name.hasFocus)
    assert steps.currentIndex() == shown[0]
    visited = []
    for _ in shown:
        press(qtbot, Qt.Key.Key_PageDown, ALT)
        visited.append(steps.currentIndex())
        assert window.current() is first and inside(first)  # the design stays, the focus in it
    assert visited == [*shown[1:], shown[0]]  # every shown page once, then round to the first
    press(qtbot, Qt.Key.Key_PageUp, ALT)
    assert steps.currentIndex() == shown[-1]
    press(qtbot, Qt.Key.Key_PageUp, ALT)
    assert steps.currentIndex() == shown[-2]
    # the other design's steps are its own: they did not move
    press(qtbot, Qt.Key.Key_Tab, CTRL)
    assert window.current() is second and second.tabs.currentIndex() == 0
    assert focused() is second.tabs.tabBar()  # a design not focused yet: its step tabs have the focus
    press(qtbot, Qt.Key.Key_PageDown, ALT)
    assert second.tabs.currentIndex() == 1 and window.current() is second


def test_the_shortcuts_help_lists_the_keys_between_designs_and_between_steps(
    qtbot: Any, window: MainWindow, designs: list[DocumentView]
) -> None:
    listed = {what: keys for keys, what in shortcuts(window)}
    assert listed["View > Next design"] == "Ctrl+Tab or Ctrl+PgDown"
    assert listed["View > Previous design"] == "Ctrl+Shift+Tab or Ctrl+PgUp"
    assert listed["View > Next step page"] == "Alt+PgDown"
    assert listed["View > Previous step page"] == "Alt+PgUp"
    # no two entries share a key
    every = [k for keys, _ in shortcuts(window) for k in keys.split(" or ") if "+" in k and " " not in k]
    assert len(every) == len(set(every)), sorted(k for k in every if every.count(k) > 1)
    view = show_shortcuts(window)
    qtbot.addWidget(view.window())
    text = view.toPlainText()
    assert "Ctrl+Tab or Ctrl+PgDown" in text and "View > Next design" in text and "Alt+PgUp" in text
    assert "tab character" not in text
