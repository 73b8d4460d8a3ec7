"""The editor's Fix... beside each finding: does finding the fixes between edits slow an edit?

The engine's fix search (up to ~160 ms for the worst sample) runs in the editor when the
design has rested for a moment, in slices between events (shipyard/_qt/dialogs/fixsearch.py).
This times, on the Alien Disk-Fighter (4 freebies over: a design the search runs for):

1. edit -> panels updated (budgets and findings; the same measure as bench_gui.py's):
   p95 over 200 edits made the way typing makes them, the event loop running between
   them (a 0.3 s pause every 20, so the search starts), with the search on, against the
   same edits with the search off (the baseline, in the same run). Goal: p95 <= 16 ms.
2. typing with pauses (the search starts and is interrupted by the next keystroke, or
   finishes in a pause): the longest event-loop stall, from a 5 ms heartbeat timer, against
   the same typing with the search off. Goal: no stall over 50 ms.
3. from the last edit to the Fix... buttons shown (the idle wait plus the search in slices).

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_fix_gui.py
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from _editor import editor_window  # bench/ is first on sys.path when a bench runs
from _heartbeat import Heartbeat, pump

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "catalogs" / "space-fighter-alpha" / "examples" / "alien-disk-fighter.ship"


def _open(search: bool) -> tuple[Any, Any, Any]:
    app, w = editor_window(preview=False)
    view = w.open_file(SAMPLE)
    assert view is not None
    if not search:  # the baseline: the same editor without the search between edits
        view.fixes.ready.disconnect()
        view.doc.changed.disconnect(view.fixes.restart)
        view.fixes._idle.stop()
    return app, w, view


def edits(search: bool, n: int = 200) -> list[float]:
    app, w, view = _open(search)
    pump(app, 1.0)
    times = []
    for i in range(n):
        t = time.perf_counter()
        view.doc.edit("structure", 6 + (i % 10))
        text = view.budget.cell_text(2, 3) + view.findings.texts()[0]
        times.append((time.perf_counter() - t) * 1000)
        assert text, text
        # between keystrokes the event loop runs; now and then a pause long enough for the
        # search to start, so that later edits come while it is under way or done
        pump(app, 0.3 if i % 20 == 19 else 0.005)
    w.close()
    return times


def typing(search: bool, seconds: float = 8.0) -> tuple[float, int, list[float]]:
    app, w, view = _open(search)
    pump(app, 1.0)
    heart = Heartbeat()
    heart.start()
    start, n, shown = time.perf_counter(), 0, []
    while time.perf_counter() - start < seconds:
        n += 1
        t = time.perf_counter()
        view.doc.edit("structure", 6 + (n % 10))
        pause = 0.9 if n % 6 == 0 else 0.12  # a keystroke every 120 ms, a pause now and then
        until = t + pause
        while time.perf_counter() < until:
            app.processEvents()
            if search and not view.fixes.busy and len(shown) < n and pause > 0.5:
                shown.append((time.perf_counter() - t) * 1000)
                break
            time.sleep(0.001)
        pump(app, max(0.0, until - time.perf_counter()))
    heart.stop()
    w.close()
    return heart.longest_stall(), n, shown


def main() -> int:
    load = os.getloadavg()[0]
    rounds = 3  # with the search and without, alternating: the machine's noise falls on both
    p95s: dict[bool, list[float]] = {True: [], False: []}
    medians: dict[bool, list[float]] = {True: [], False: []}
    stalls: dict[bool, list[float]] = {True: [], False: []}
    shown: list[float] = []
    for _ in range(rounds):
        for search in (False, True):
            times = edits(search)
            p95s[search].append(statistics.quantiles(times, n=20)[18])
            medians[search].append(statistics.median(times))
            stall, _keys, known = typing(search)
            stalls[search].append(stall)
            shown += known
    p95, p95_base = statistics.median(p95s[True]), statistics.median(p95s[False])
    stall, stall_base = statistics.median(stalls[True]), statistics.median(stalls[False])
    print(
        f"edit -> panels updated (Alien Disk-Fighter, over budget): p95 {p95:.2f} ms with the fix search, "
        f"{p95_base:.2f} ms without ({p95 / p95_base:.2f}x); medians {statistics.median(medians[True]):.2f} / "
        f"{statistics.median(medians[False]):.2f} ms (medians of {rounds} rounds of 200 edits; goal p95 <= 16 ms)"
    )
    print(
        f"typing with pauses: longest event-loop stall {stall:.1f} ms with the search, "
        f"{stall_base:.1f} ms without (medians of {rounds} rounds; goal: none over 50 ms)"
    )
    if shown:
        print(f"last edit -> Fix... buttons known: median {statistics.median(shown):.0f} ms over {len(shown)} pauses")
    end = os.getloadavg()[0]
    print(f"load average (1 min) at the start: {load:.2f}, at the end: {end:.2f}, on {os.cpu_count()} CPUs")
    print(
        "SUMMARY bench_fix_gui: "
        f"edit p95 {p95:.2f} ms ({p95 / p95_base:.2f}x without the search) {'PASS' if p95 <= 16 else 'MISS'}; "
        f"longest stall {stall:.1f} ms ({stall / stall_base:.2f}x without) {'PASS' if stall <= 50 else 'MISS'}; "
        f"load {load:.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
