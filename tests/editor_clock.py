"""The clock editor tests run the editor's delays on: a person's pause is the clock moved on.

An editor test types as a person does, then pauses longer than every delay of the editor
(the commit of typed text, the preview's render, the fix search) before it checks the
result. On the real clock each pause is half a second of a worker doing nothing, hundreds
of them in the suite. :class:`AdvancingClock` makes the editor's timers
(:mod:`shipyard._qt.widgets.clock`) as real Qt timers that also fire when the test moves the clock
on: ``qtbot.wait(ms)`` in an editor test moves it on by ``ms`` (``tests/conftest.py``),
firing every timer that falls due in that time, in the order and at the moment each falls
due, with the events they cause delivered between them. Nothing else about the wait
changes: a timer started during the pause fires in it if it falls due before its end, and a
timer that falls due later does not fire. Real time still runs too (a timer fires when its
time has really passed, as before), so a test that waits for something outside the editor
(a render worker, a thread) with ``qtbot.waitUntil`` works unchanged.

The tests of :mod:`tests.test_editor_by_hand` and those marked ``real_clock`` keep the
real clock: they check the real timers a person meets.
"""

from __future__ import annotations

import time
import weakref

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer

from shipyard._qt.widgets import clock


class MovedTimer(QTimer):
    """A Qt timer of the editor that :class:`AdvancingClock` can fire ahead of real time."""

    def __init__(self, owner: AdvancingClock, parent: QObject) -> None:
        super().__init__(parent)
        self._owner = owner
        self.due_at = 0.0  # when it fires, on the owner's clock
        self.timeout.connect(self._fired)  # first: a repeating timer Qt fired itself starts again

    def start(self, *args: int) -> None:
        super().start(*args)
        self.due_at = self._owner.now() + self.interval()

    def _fired(self) -> None:
        if not self.isSingleShot():
            self.due_at = self._owner.now() + self.interval()

    def fire(self) -> None:
        """Fire now, as Qt fires it: a single-shot timer stops, a repeating one starts again."""
        if self.isSingleShot():
            self.stop()
        else:
            self.start()
        self.timeout.emit()


class AdvancingClock(clock.Clock):
    """Real time that a test can move on (see the module docstring)."""

    def __init__(self) -> None:
        self.moved = 0.0  # milliseconds the clock has been moved on, in all
        self._started = time.monotonic()
        self._pinned: float | None = None  # the clock's time while it moves on
        self._timers: weakref.WeakSet[MovedTimer] = weakref.WeakSet()

    def timer(self, parent: QObject, interval_ms: int, *, single_shot: bool = True) -> QTimer:
        made = MovedTimer(self, parent)
        made.setSingleShot(single_shot)
        made.setInterval(interval_ms)
        self._timers.add(made)
        return made

    def now(self) -> float:
        """Milliseconds on this clock since it was made: real time and how far it was moved on;
        while it moves on, the time of the timer firing (real time stands still in a pause)."""
        if self._pinned is not None:
            return self._pinned
        return self._real() + self.moved

    def _real(self) -> float:
        return (time.monotonic() - self._started) * 1000

    def _next_due(self, by: float) -> MovedTimer | None:
        """The running timer that falls due first, if it falls due by ``by`` on this clock."""
        running = []
        for t in list(self._timers):
            try:
                if t.isActive():
                    running.append(t)
            except RuntimeError:  # its Qt object was deleted with its parent
                continue
        first = min(running, key=lambda t: t.due_at, default=None)
        return first if first is not None and first.due_at <= by else None

    def advance(self, ms: float) -> None:
        """Move the clock on by ``ms``: every timer that falls due in that time fires, in turn,
        at its time, with the events it causes delivered before the next one is looked at."""
        self._pinned = start = self.now()
        until = start + ms
        try:
            for _ in range(100_000):  # a repeating timer of no interval would otherwise loop for ever
                _deliver_events()
                first = self._next_due(until)
                if first is None:
                    break
                self._pinned = max(self._pinned, first.due_at)
                first.fire()
        finally:
            self._pinned = None
            self.moved = until - self._real()
        _deliver_events()


def _deliver_events() -> None:
    """What Qt's own waits do while they wait: deliver the posted events, deletions among them."""
    QCoreApplication.processEvents()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    QCoreApplication.processEvents()
