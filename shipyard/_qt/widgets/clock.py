"""The editor's delays, made in one place: every timer that waits for a person.

The editor waits before it acts on what a person does: typed text commits after a pause
(:mod:`shipyard._qt.document.pending`), the preview renders a moment after an edit, the fix search
starts once the design rests, the hangar's list follows its filter box after a pause, and
open work is autosaved every minute. Each of those timers is made by :func:`timer`, from
the one :class:`Clock` the editor runs on.

The editor's clock is real time: Qt's own timers. A test that drives the editor as a
person does installs a clock it can advance (:func:`use`): a person's pause is then the
clock moved past every delay, not seconds of a core spent sleeping, and the timers still
fire in the order and at the times they would (``tests/editor_clock.py``).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer


class Clock:
    """Makes the editor's timers: real Qt timers, running in real time."""

    def timer(self, parent: QObject, interval_ms: int, *, single_shot: bool = True) -> QTimer:
        """A stopped timer owned by ``parent`` that fires ``interval_ms`` after it is started
        (once, or every ``interval_ms`` unless ``single_shot``)."""
        made = QTimer(parent)
        made.setSingleShot(single_shot)
        made.setInterval(interval_ms)
        return made


_clock = Clock()


def use(clock: Clock) -> Clock:
    """Make the editor's timers from ``clock`` from now on; returns the clock used until now."""
    global _clock
    before, _clock = _clock, clock
    return before


def timer(parent: QObject, interval_ms: int, *, single_shot: bool = True) -> QTimer:
    """One of the editor's delays (see the module docstring), from the clock in use."""
    return _clock.timer(parent, interval_ms, single_shot=single_shot)
