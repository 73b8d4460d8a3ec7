"""The suite's own scheduling (tests/schedule.py): the units that took longest start first."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from .schedule import (
    CPU_PROPERTY,
    DURATIONS,
    LANE_MARKS,
    QUICK_CPU_S,
    CpuMeter,
    DurationRecorder,
    LaneCheck,
    Took,
    longest_first,
    mark_slow,
    marked_out_of_sight,
    read_durations,
    unit_of,
)


def items(*nodeids: str) -> list[Any]:
    return [SimpleNamespace(nodeid=n) for n in nodeids]


def test_a_test_in_a_group_belongs_to_its_group_and_one_without_is_its_own_unit() -> None:
    assert unit_of("tests/test_fillable.py::test_x[a4]@tests/test_fillable.py:rid=space-fury") == (
        "tests/test_fillable.py:rid=space-fury"
    )
    assert unit_of("tests/test_editor_by_hand.py::test_y[future-perfect]") == (
        "tests/test_editor_by_hand.py::test_y[future-perfect]"
    )


def test_the_longest_units_start_first_and_a_group_stays_together_in_its_order() -> None:
    given = items(
        "tests/a.py::quick",
        "tests/b.py::one@tests/b.py",
        "tests/c.py::paced[wing-commander]",
        "tests/b.py::two@tests/b.py",
        "tests/d.py::new",
    )
    longest_first(
        given,
        {
            "tests/b.py": Took(80.0, 70.0),
            "tests/c.py::paced[wing-commander]": Took(95.0, 2.0),  # paced like a person: long, though little CPU
            "tests/a.py::quick": Took(3.0, 0.5),
        },
    )
    assert [i.nodeid for i in given] == [
        "tests/c.py::paced[wing-commander]",
        "tests/b.py::one@tests/b.py",
        "tests/b.py::two@tests/b.py",
        "tests/a.py::quick",
        "tests/d.py::new",  # not in the file: counted as quick, after every unit that is
    ]


def test_the_durations_file_is_read_line_by_line_and_a_bad_line_is_skipped(tmp_path: Path) -> None:
    file = tmp_path / "durations.txt"
    file.write_text(
        "133.7\t120.5\ttests/test_packaging.py\nnot a number\t1\ttests/x.py\n\n"
        "4.0\t0.3\ttests/y.py::t\n2.0\ttests/old-format.py::t\n"
    )
    assert read_durations(file) == {"tests/test_packaging.py": Took(133.7, 120.5), "tests/y.py::t": Took(4.0, 0.3)}
    assert read_durations(tmp_path / "missing.txt") == {}


def test_the_committed_file_names_the_longest_units_of_the_suite_and_only_slow_ones() -> None:
    took = read_durations(DURATIONS)
    assert len(took) > 20
    assert any(unit.startswith("tests/test_fillable.py") for unit in took)
    assert all(t.slow for t in took.values())
    assert max(took.values(), key=lambda t: t.wall).wall >= 30  # the editor paced like a person is in it


def _report(nodeid: str, duration: float, cpu: float | None = None) -> Any:
    return SimpleNamespace(
        nodeid=nodeid, duration=duration, user_properties=[] if cpu is None else [(CPU_PROPERTY, cpu)]
    )


def test_recorded_seconds_add_up_by_unit_longest_first_and_a_failed_run_writes_nothing(tmp_path: Path) -> None:
    file = tmp_path / "durations.txt"
    recorder = DurationRecorder(file)
    for nodeid, seconds, cpu in [
        ("tests/b.py::one@tests/b.py", 2.5, None),  # its setup
        ("tests/b.py::one@tests/b.py", 1.0, 3.25),  # its call after its setup; its CPU on its last report
        ("tests/b.py::two@tests/b.py", 4.0, 3.5),
        ("tests/c.py::paced", 9.0, 0.5),
        ("tests/a.py::quick", 0.2, 0.1),
        ("tests/d.py::cpu-bound", 0.4, 0.3),  # quick on the clock, yet a third of a second of a core
    ]:
        recorder.pytest_runtest_logreport(_report(nodeid, seconds, cpu))
    recorder.pytest_sessionfinish(SimpleNamespace(testsfailed=1))  # type: ignore[arg-type]
    assert not file.exists()
    recorder.pytest_sessionfinish(SimpleNamespace(testsfailed=0))  # type: ignore[arg-type]
    assert (
        file.read_text() == "9.00\t0.50\ttests/c.py::paced\n7.50\t6.75\ttests/b.py\n0.40\t0.30\ttests/d.py::cpu-bound\n"
    )
    assert not (tmp_path / "durations.txt.part").exists()


SPIN = "import time\nend = time.process_time() + 0.4\nwhile time.process_time() < end: pass\n"  # 0.4 s of a core


def _metered(work: Callable[[], object]) -> float:
    """The CPU seconds :class:`CpuMeter` adds to the last report of a test that does ``work``,
    its hooks called as pytest calls them around a test."""
    meter, item = CpuMeter(), SimpleNamespace(nodeid="tests/x.py::t")
    report = SimpleNamespace(user_properties=[])
    protocol = meter.pytest_runtest_protocol(item)  # type: ignore[arg-type]
    next(protocol)
    work()
    makereport = meter.pytest_runtest_makereport(item, SimpleNamespace(when="teardown"))  # type: ignore[arg-type]
    next(makereport)
    with contextlib.suppress(StopIteration):
        makereport.send(SimpleNamespace(get_result=lambda: report))
    with contextlib.suppress(StopIteration):
        next(protocol)
    return float(dict(report.user_properties)[CPU_PROPERTY])


def test_a_tests_cpu_counts_its_own_process_and_the_processes_it_keeps_busy() -> None:
    """The meter adds to a test's last report the CPU of its process and of the processes
    under it, those that ended and those it leaves running (a kept render worker)."""
    assert _metered(lambda: exec(SPIN)) >= 0.35
    assert _metered(lambda: subprocess.run([sys.executable, "-c", SPIN], check=True)) >= 0.35
    # It spins once the test has begun (told on its input): started and spinning before the
    # meter's first reading, what it spun by then was no part of the test's.
    waits_then_spins = "import sys\nsys.stdin.readline()\n" + SPIN + "print('spun', flush=True)\ntime.sleep(60)"
    kept = subprocess.Popen(
        [sys.executable, "-c", waits_then_spins],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )

    def let_it_spin() -> bytes:
        assert kept.stdin is not None and kept.stdout is not None
        kept.stdin.write(b"go\n")
        kept.stdin.flush()
        return kept.stdout.readline()

    try:
        assert _metered(let_it_spin) >= 0.35  # it spun while the test waited, and still runs
        assert kept.poll() is None
    finally:
        kept.kill()
        kept.wait()
    assert _metered(lambda: time.sleep(0.05)) < QUICK_CPU_S


class Marked(SimpleNamespace):
    """A test item that keeps the marks it is given, as pytest's do."""

    def add_marker(self, mark: Any) -> None:
        self.marks = [*getattr(self, "marks", []), mark.name]


def test_what_used_a_quarter_second_of_a_core_or_waited_a_second_is_marked_slow_and_a_group_with_it() -> None:
    given = [
        Marked(nodeid=n)
        for n in (
            "tests/a.py::quick",
            "tests/b.py::one@tests/b.py",
            "tests/c.py::paced",
            "tests/d.py::new",
            "tests/e.py::cpu",
            "tests/f.py::waited-for-a-core",
        )
    ]
    took = {
        "tests/b.py": Took(80.0, 60.0),
        "tests/c.py::paced": Took(3.0, 0.1),  # waited for a person's pace
        "tests/a.py::quick": Took(0.3, 0.2),
        "tests/e.py::cpu": Took(0.3, 0.25),
        "tests/f.py::waited-for-a-core": Took(0.9, 0.2),  # six workers on two cores: under a second's wait
    }
    mark_slow(given, took)  # type: ignore[arg-type]
    assert [getattr(i, "marks", []) for i in given] == [[], ["slow"], ["slow"], [], ["slow"], []]


def test_the_quick_loop_leaves_out_what_measured_slow() -> None:
    """``pytest -m "not slow"`` collects none of the slowest unit's tests, and does collect a quick one."""
    from .conftest import ROOT

    slowest = max(read_durations().items(), key=lambda kv: kv[1].wall)[0]
    module = slowest.split("::", 1)[0].split(":", 1)[0]
    quick = "tests/test_schedule.py"
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "-m", "not slow",
         module, quick],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    collected = [line for line in proc.stdout.splitlines() if "::" in line]
    assert any(line.startswith(quick) for line in collected), proc.stdout[-2000:]
    assert not any(unit_of(line) == slowest or line.startswith(slowest) for line in collected), proc.stdout[-2000:]


class Carrying(SimpleNamespace):
    """A test item in ``path`` carrying the marks named in ``marks``."""

    def get_closest_marker(self, name: str) -> Any:
        return SimpleNamespace(name=name) if name in self.marks else None


def test_a_test_of_a_lane_mark_is_found_only_where_its_file_writes_the_mark(tmp_path: Path) -> None:
    """scripts/run-tests collects a lane's tests from the files that write "mark.<name>": a
    test marked through a name from elsewhere would run in neither run, and is named."""
    written = tmp_path / "test_written.py"
    written.write_text("pytestmark = pytest.mark.real_clock\n", encoding="utf-8")
    imported = tmp_path / "test_imported.py"
    imported.write_text("from .helpers import PACED\npytestmark = PACED\n", encoding="utf-8")
    given = [
        Carrying(nodeid="test_written.py::a", path=written, marks={"real_clock"}),
        Carrying(nodeid="test_imported.py::b", path=imported, marks={"real_clock", "speedups"}),
        Carrying(nodeid="test_imported.py::c", path=imported, marks=set()),
    ]
    missed = marked_out_of_sight(given)  # type: ignore[arg-type]
    assert [(item.nodeid, mark) for item, mark in missed] == [
        ("test_imported.py::b", "real_clock"),
        ("test_imported.py::b", "speedups"),
    ]


def test_a_test_marked_out_of_sight_fails_saying_why_even_where_its_mark_deselected_it(tmp_path: Path) -> None:
    """Under pytest-xdist an error raised in a worker's collection shows only as its crash:
    such a test is kept in the run of the rest (its mark deselected it there) and fails there,
    with the reason; a test marked in sight is left alone."""
    written = tmp_path / "test_written.py"
    written.write_text("pytestmark = pytest.mark.real_clock\n", encoding="utf-8")
    imported = tmp_path / "test_imported.py"
    imported.write_text("from .helpers import PACED\n", encoding="utf-8")
    fine = Carrying(nodeid="test_written.py::a", path=written, marks={"real_clock"}, runtest=lambda: None)
    hidden = Carrying(nodeid="test_imported.py::b", path=imported, marks={"real_clock"}, runtest=lambda: None)
    given: list[Any] = [fine, hidden]
    wrapper = LaneCheck().pytest_collection_modifyitems(given)
    next(wrapper)
    given[:] = []  # -m "not real_clock" deselects both
    with contextlib.suppress(StopIteration):
        wrapper.send(None)
    assert given == [hidden]
    fine.runtest()
    with pytest.raises(pytest.fail.Exception, match=r"test_imported.py::b \(real_clock\).*pytest.mark.<name>"):
        hidden.runtest()


def test_scripts_run_tests_runs_each_lane_mark_on_the_files_found_for_it() -> None:
    """The lanes in scripts/run-tests are the marks checked here, each run with its own mark on
    the files found for it, and pytest looks for test files where the script's grep does."""
    import re

    from .conftest import ROOT

    script = (ROOT / "scripts" / "run-tests").read_text(encoding="utf-8")
    assert "marked_files() { grep -rl --include='test_*.py' \"mark\\.$1\" tests; }" in script
    lanes = dict(re.findall(r"mapfile -t (\w+) < <\(marked_files (\w+)\)", script))
    assert set(lanes.values()) == set(LANE_MARKS)
    for files, mark in lanes.items():
        assert re.search(rf"-m {mark} \"\$\{{{files}\[@\]\}}\"", script), (files, mark)
    assert 'python_files = ["test_*.py"]' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
