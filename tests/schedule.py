"""The order the suite's work units start in, longest first, and which of them the quick
loop leaves out, from what they took in the last recorded run.

Why: pytest-xdist hands a free worker the next unit (a test, or a module's group of tests
that share costly fixtures) in the order it is given. In collection order a 95-second editor
test paced like a person, or a group rendering a ruleset's fillable sheets for 80 seconds,
could start in the last minute and hold the run open while every other worker sat idle;
longest-first is the classic answer to that tail (pytest-split and Knapsack keep such a file
for the same reason).

The quick loop, ``pytest -m "not slow"``, leaves out every unit that measured slow: that
used a quarter of a second of a core or more (the test's own process, the processes it
started, and the render workers it kept busy), or that waited a second or more for
something (a time limit, a process, a person's pace). CPU seconds, not wall seconds, decide:
the recording run shares two cores among six workers, and what a test waited there for a
core is not what it costs a person's loop.

``tests/durations.txt`` holds one line per unit that measured slow: its wall seconds on a
worker, a tab, its CPU seconds, a tab, its name (a node id, or the ``@group`` pytest-xdist
reads). ``scripts/run-tests --record-durations`` writes it again from the run it makes. A
unit not in the file (a new test) counts as quick, so a stale file only costs a slower run,
never a failed one.
"""

from __future__ import annotations

import functools
import os
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

DURATIONS = Path(__file__).with_name("durations.txt")
QUICK_CPU_S = 0.25  # a unit that used this much of a core or more is left out of the quick loop
QUICK_WAIT_S = 1.0  # ... or that waited this long beyond its CPU (a time limit, a process, a pace)
CPU_PROPERTY = "cpu_seconds"  # what a worker adds to a test's last report (:class:`CpuMeter`)


class Took(NamedTuple):
    """What a unit took in the recorded run: seconds on the clock, and of a core."""

    wall: float
    cpu: float

    @property
    def slow(self) -> bool:
        """Left out of the quick loop: it used a quarter of a second of a core, or waited."""
        return self.cpu >= QUICK_CPU_S or self.wall - self.cpu >= QUICK_WAIT_S


def unit_of(nodeid: str) -> str:
    """The work unit a test belongs to, as pytest-xdist's loadgroup scheduling splits it:
    the group after the last "@" if it has one, else the test itself."""
    return nodeid.rsplit("@", 1)[1] if "@" in nodeid else nodeid


def read_durations(path: Path = DURATIONS) -> dict[str, Took]:
    """What each unit took; a missing file or a line that is not "wall<TAB>cpu<TAB>unit" is skipped."""
    took: dict[str, Took] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return took
    for line in lines:
        parts = line.split("\t", 2)
        if len(parts) != 3:
            continue
        try:
            took[parts[2]] = Took(float(parts[0]), float(parts[1]))
        except ValueError:
            continue
    return took


def mark_slow(
    items: list[pytest.Item], took: dict[str, Took], unit: Callable[[pytest.Item], str] | None = None
) -> None:
    """Mark ``slow`` every test whose unit measured slow in the last recorded run (:attr:`Took.slow`),
    beside those marked by hand (wheels built, interpreters spawned): the quick loop,
    ``pytest -m "not slow"``, leaves out what measured slow, not what someone guessed.
    ``unit``: a test's unit (its group, with or without pytest-xdist); by default read from its node id."""
    for item in items:
        recorded = took.get(unit(item) if unit else unit_of(item.nodeid))
        if recorded is not None and recorded.slow:
            item.add_marker(pytest.mark.slow)


def longest_first(items: list[pytest.Item], took: dict[str, Took]) -> None:
    """Sort ``items`` so the units that took longest on the clock come first; otherwise keep
    their order (a group's tests stay together, in the order they were collected)."""
    position = {id(item): i for i, item in enumerate(items)}
    quick = Took(0.0, 0.0)
    items.sort(key=lambda item: (-took.get(unit_of(item.nodeid), quick).wall, position[id(item)]))


# Marks whose tests scripts/run-tests runs in runs of their own (the editor tests paced in real
# time, in lanes beside the rest; the tests of the speed-ups, again with them off), collecting
# only the files that name the mark as written here ("mark.real_clock"), found with grep: a
# collection of the whole suite for a few tests costs every process of that run seconds.
LANE_MARKS = ("real_clock", "speedups")


def marked_out_of_sight(items: list[pytest.Item], marks: tuple[str, ...] = LANE_MARKS) -> list[tuple[pytest.Item, str]]:
    """The tests carrying one of ``marks`` in a file where ``mark.<name>`` is not written (a
    mark given through a name imported from elsewhere, or added by a hook), each with the
    mark: the run of their mark would not collect them, and the run of the rest leaves them
    out, so they would run in neither."""
    texts: dict[Path, str] = {}
    missed = []
    for item in items:
        for name in marks:
            if item.get_closest_marker(name) is None:
                continue
            path = Path(item.path)
            if path not in texts:
                texts[path] = path.read_text(encoding="utf-8")
            if f"mark.{name}" not in texts[path]:
                missed.append((item, name))
    return missed


class LaneCheck:
    """Fails every test :func:`marked_out_of_sight` finds, in every run that collects it, the
    run of the rest among them (it is kept there, though its mark deselected it): a failed
    test says why in any run, where an error raised in a pytest-xdist worker's collection
    shows only as the worker's crash. Wraps every other hook, so marks added by hooks count."""

    @pytest.hookimpl(hookwrapper=True)
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> Iterator[None]:
        collected = list(items)
        yield
        missed: dict[int, tuple[pytest.Item, list[str]]] = {}  # by the item's id: it and its marks
        for item, name in marked_out_of_sight(collected):
            missed.setdefault(id(item), (item, []))[1].append(name)
        kept = {id(item) for item in items}
        for item, names in missed.values():
            message = (
                f"{item.nodeid} ({', '.join(names)}): scripts/run-tests runs the tests of this mark apart, "
                "collecting only the test files that write 'mark.<name>' (tests/schedule.py, LANE_MARKS), "
                "so this test would run in no run of CI: mark it in its own file, as pytest.mark.<name>"
            )
            item.runtest = functools.partial(pytest.fail, message, pytrace=False)  # type: ignore[method-assign]
            if id(item) not in kept:
                items.append(item)


def _descendants_cpu(root: int) -> float:
    """CPU seconds of the processes still running under ``root`` (render workers kept from
    test to test, a command's interpreter), from /proc; 0 where there is no /proc."""
    parent: dict[int, int] = {}
    used: dict[int, float] = {}
    hz = os.sysconf("SC_CLK_TCK")
    proc = Path("/proc")
    try:
        entries = [p for p in proc.iterdir() if p.name.isdigit()]
    except OSError:
        return 0.0
    for entry in entries:
        try:
            stat = (entry / "stat").read_text(encoding="ascii", errors="replace")
        except OSError:
            continue  # it ended meanwhile
        fields = stat[stat.rfind(")") + 2 :].split()  # after the command's name, which may hold spaces
        parent[int(entry.name)] = int(fields[1])
        used[int(entry.name)] = (int(fields[11]) + int(fields[12])) / hz
    total = 0.0
    for pid, seconds in used.items():
        up, steps = parent.get(pid, 0), 0
        while up > 1 and up != root and steps < 64:
            up, steps = parent.get(up, 0), steps + 1
        if up == root and pid != root:
            total += seconds
    return total


def _cpu_now() -> float:
    """CPU seconds of this process, of its children that ended, and of those still running."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system + _descendants_cpu(os.getpid())


class CpuMeter:
    """Measures each test's CPU seconds where it runs (a pytest-xdist worker) and adds them to
    its teardown report, which the workers send to the process that writes the file. Only
    with ``--record-durations``: reading /proc twice a test costs a few milliseconds each."""

    def __init__(self) -> None:
        self._started: dict[str, float] = {}

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Iterator[None]:
        self._started[item.nodeid] = _cpu_now()
        yield
        self._started.pop(item.nodeid, None)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
        outcome = yield
        if call.when == "teardown" and item.nodeid in self._started:
            report = outcome.get_result()
            report.user_properties.append((CPU_PROPERTY, _cpu_now() - self._started[item.nodeid]))


class DurationRecorder:
    """Sums each unit's setup, call and teardown seconds and its CPU seconds from the reports
    the workers send, and writes the slow units to :data:`DURATIONS` when the session ends
    (``--record-durations``)."""

    def __init__(self, path: Path = DURATIONS) -> None:
        self.path = path
        self.wall: dict[str, float] = defaultdict(float)
        self.cpu: dict[str, float] = defaultdict(float)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        unit = unit_of(report.nodeid)
        self.wall[unit] += report.duration
        self.cpu[unit] += sum(v for k, v in report.user_properties if k == CPU_PROPERTY)

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        took = {unit: Took(round(wall, 2), round(self.cpu[unit], 2)) for unit, wall in self.wall.items()}
        kept = sorted(((t, u) for u, t in took.items() if t.slow), reverse=True)
        if session.testsfailed or not kept:
            return  # a failed run's times (a test stopped early) would mislead the next one
        text = "".join(f"{t.wall:.2f}\t{t.cpu:.2f}\t{u}\n" for t, u in kept)
        partial = self.path.with_name(self.path.name + ".part")
        partial.write_text(text, encoding="utf-8")
        partial.replace(self.path)
