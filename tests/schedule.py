"""The order the suite's work units start in, longest first, from the seconds they last took.

Why: pytest-xdist hands a free worker the next unit (a test, or a module's group of tests
that share costly fixtures) in the order it is given. In collection order a 95-second editor
test paced like a person, or a group rendering a ruleset's fillable sheets for 80 seconds,
could start in the last minute and hold the run open while every other worker sat idle;
longest-first is the classic answer to that tail (pytest-split and Knapsack keep such a file
for the same reason).

``tests/durations.txt`` holds one line per unit that took a while: its seconds on a worker,
a tab, its name (a node id, or the ``@group`` pytest-xdist reads). ``scripts/run-tests
--record-durations`` writes it again from the run it makes. A unit not in the file (a new
test) counts as quick, so a stale file only costs a slower run, never a failed one.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import pytest

DURATIONS = Path(__file__).with_name("durations.txt")
KEPT_FROM_SECONDS = 3.0  # quicker units are left out of the file: their order hardly matters


def unit_of(nodeid: str) -> str:
    """The work unit a test belongs to, as pytest-xdist's loadgroup scheduling splits it:
    the group after the last "@" if it has one, else the test itself."""
    return nodeid.rsplit("@", 1)[1] if "@" in nodeid else nodeid


def read_durations(path: Path = DURATIONS) -> dict[str, float]:
    """Seconds by unit; a missing file or a line that is not "seconds<TAB>unit" is skipped."""
    seconds: dict[str, float] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return seconds
    for line in lines:
        took, _, unit = line.partition("\t")
        try:
            seconds[unit] = float(took)
        except ValueError:
            continue
    return seconds


def mark_slow(
    items: list[pytest.Item], seconds: dict[str, float], unit: Callable[[pytest.Item], str] | None = None
) -> None:
    """Mark ``slow`` every test whose unit took :data:`KEPT_FROM_SECONDS` or more in the last
    recorded run, beside those marked by hand (wheels built, interpreters spawned): the quick
    loop, ``pytest -m "not slow"``, leaves out what measured slow, not what someone guessed.
    ``unit``: a test's unit (its group, with or without pytest-xdist); by default read from its node id."""
    for item in items:
        if seconds.get(unit(item) if unit else unit_of(item.nodeid), 0.0) >= KEPT_FROM_SECONDS:
            item.add_marker(pytest.mark.slow)


def longest_first(items: list[pytest.Item], seconds: dict[str, float]) -> None:
    """Sort ``items`` so the units that took longest come first; otherwise keep their order
    (a group's tests stay together, in the order they were collected)."""
    position = {id(item): i for i, item in enumerate(items)}
    items.sort(key=lambda item: (-seconds.get(unit_of(item.nodeid), 0.0), position[id(item)]))


class DurationRecorder:
    """Sums each unit's setup, call and teardown seconds from the reports the workers send
    and writes them to :data:`DURATIONS` when the session ends (``--record-durations``)."""

    def __init__(self, path: Path = DURATIONS) -> None:
        self.path = path
        self.seconds: dict[str, float] = defaultdict(float)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.seconds[unit_of(report.nodeid)] += report.duration

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        kept = sorted(((s, u) for u, s in self.seconds.items() if s >= KEPT_FROM_SECONDS), reverse=True)
        if session.testsfailed or not kept:
            return  # a failed run's times (a test stopped early) would mislead the next one
        text = "".join(f"{s:.1f}\t{u}\n" for s, u in kept)
        partial = self.path.with_name(self.path.name + ".part")
        partial.write_text(text, encoding="utf-8")
        partial.replace(self.path)
