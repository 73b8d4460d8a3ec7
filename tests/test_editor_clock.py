"""The clock the editor tests move on (tests/editor_clock.py) fires the editor's timers as
real time would: each when it falls due, in order, never early; and the editor makes its
delays from the clock in use (shipyard/_qt/widgets/clock.py), so a test's pause reaches them."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QLineEdit

from shipyard._qt.document.pending import COMMIT_DELAY_MS, PendingText, commit_on_pause, pending_of
from shipyard._qt.widgets import clock
from shipyard._qt.window.window import MainWindow

from .editor_clock import AdvancingClock, MovedTimer
from .test_editor import field, no_blocking_dialogs, type_into, window

__all__ = ["no_blocking_dialogs", "window"]  # fixtures used here


# The timers below are tens of seconds long: they are real Qt timers too (real time still
# runs), and a test whose worker waited 50 ms for a core between starting a 50 ms timer and
# moving the clock saw it fire by real time, before the clock reached it.
S = 1000  # a second, in the clock's milliseconds


@pytest.fixture
def real_time_still(monkeypatch: pytest.MonkeyPatch) -> None:
    """Real time stands still on the moved clock, for the tests of the clock itself: they
    check a timer does not fire a millisecond before it falls due, and a worker that waited
    a millisecond for a core between starting a timer and moving the clock on would see the
    clock a millisecond further on than the test moved it. (Qt's own timers still run on
    real time: the timers here are tens of seconds long, and the commit's a pause of a
    third of a second in the middle of a test's two lines.)"""
    monkeypatch.setattr(AdvancingClock, "_real", lambda self: 0.0)


def test_timers_fire_when_they_fall_due_in_order_and_never_early(qapp: Any, real_time_still: None) -> None:
    moved = AdvancingClock()
    owner = QObject()
    fired: list[str] = []
    late, soon, again = (moved.timer(owner, ms, single_shot=ms != 10 * S) for ms in (30 * S, 5 * S, 10 * S))
    late.timeout.connect(lambda: fired.append("late"))
    soon.timeout.connect(lambda: fired.append("soon"))
    again.timeout.connect(lambda: fired.append("again"))
    for t in (late, soon, again):
        t.start()
    moved.advance(5 * S - 1)
    assert fired == []
    moved.advance(1)
    assert fired == ["soon"]
    moved.advance(25 * S)  # to 30 s: the repeating timer at 10, 20 and 30 s, the late one at 30 s
    assert fired[:3] == ["soon", "again", "again"] and sorted(fired[3:]) == ["again", "late"]
    assert not late.isActive() and again.isActive()
    again.stop()
    moved.advance(100 * S)
    assert len(fired) == 5


def test_a_timer_started_while_the_clock_moves_fires_within_the_same_pause(qapp: Any, real_time_still: None) -> None:
    moved = AdvancingClock()
    owner = QObject()
    second = moved.timer(owner, 20 * S)
    first = moved.timer(owner, 10 * S)
    fired: list[str] = []
    first.timeout.connect(lambda: (fired.append("first"), second.start()))
    second.timeout.connect(lambda: fired.append("second"))
    first.start()
    moved.advance(30 * S - 1)  # the second falls due at 30 s
    assert fired == ["first"]
    moved.advance(1)
    assert fired == ["first", "second"]


def test_typed_text_commits_once_the_clock_passes_the_commit_delay(qapp: Any, real_time_still: None) -> None:
    moved = AdvancingClock()
    before = clock.use(moved)
    try:
        stack = QUndoStack()
        pending = PendingText(stack)
        assert pending_of(stack) is pending
        committed: list[str] = []
        box = commit_on_pause(pending, QLineEdit(), committed.append)
        box.textEdited.emit("Heron")
        moved.advance(COMMIT_DELAY_MS - 1)
        assert committed == [] and pending.waiting
        moved.advance(1)
        assert committed == ["Heron"] and not pending.waiting
    finally:
        clock.use(before)


def test_an_editor_test_pauses_on_the_moved_clock(qtbot: Any, window: MainWindow) -> None:
    """The editor's commit timer comes from the test's clock, and a person's pause
    (``qtbot.wait``) moves that clock on past the delay: the name commits."""
    view = window.new("starfighter")
    stack_pending = pending_of(view.doc.undo_stack)
    assert stack_pending is not None
    assert isinstance(stack_pending._timer, MovedTimer)
    type_into(qtbot, field(view, "name"), "Heron")
    assert view.doc.design.name == "Heron"


@pytest.mark.real_clock
def test_the_editor_s_own_clock_makes_real_qt_timers(qtbot: Any, window: MainWindow) -> None:
    view = window.new("starfighter")
    stack_pending = pending_of(view.doc.undo_stack)
    assert stack_pending is not None and type(stack_pending._timer) is QTimer
    type_into(qtbot, field(view, "name"), "Heron")  # a real pause, longer than the commit delay
    assert view.doc.design.name == "Heron"
