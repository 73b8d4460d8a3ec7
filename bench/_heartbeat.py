"""How long the editor's event loop stalls, as the editor benches measure it.

A user feels a stall as typing that does not echo: the goal is none over 50 ms. A Qt
timer set to beat every 5 ms can only beat when the event loop is free, so the longest
gap between two beats is the longest stall. bench_gui.py (the preview re-rendering while
typing) and bench_fix_gui.py (the fix search between keystrokes) measure it the same way,
from here. Import it as ``from _heartbeat import ...``: a bench runs as
``.venv/bin/python bench/bench_x.py``, which puts ``bench/`` first on ``sys.path``.
"""

from __future__ import annotations

import time
from typing import Any


class Heartbeat:
    """A 5 ms timer on the running event loop, remembering the gaps between its beats."""

    def __init__(self, interval_ms: int = 5) -> None:
        from PySide6.QtCore import QTimer

        self.gaps: list[float] = []
        self._last = time.perf_counter()
        self._timer = QTimer(interval=interval_ms)
        self._timer.timeout.connect(self._beat)

    def _beat(self) -> None:
        now = time.perf_counter()
        self.gaps.append((now - self._last) * 1000)
        self._last = now

    def start(self) -> None:
        self._last = time.perf_counter()
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def longest_stall(self) -> float:
        """The longest gap in ms, the first left out (it runs from the start, not from a beat)."""
        return max(self.gaps[1:]) if len(self.gaps) > 1 else 0.0


def pump(app: Any, seconds: float) -> None:
    """Run the event loop for ``seconds``, as an idle editor between keystrokes does."""
    until = time.perf_counter() + seconds
    while time.perf_counter() < until:
        app.processEvents()
        time.sleep(0.001)
