"""The suite's own scheduling (tests/schedule.py): the units that took longest start first."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from .schedule import DURATIONS, DurationRecorder, longest_first, mark_slow, read_durations, unit_of


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
    longest_first(given, {"tests/b.py": 80.0, "tests/c.py::paced[wing-commander]": 95.0, "tests/a.py::quick": 3.0})
    assert [i.nodeid for i in given] == [
        "tests/c.py::paced[wing-commander]",
        "tests/b.py::one@tests/b.py",
        "tests/b.py::two@tests/b.py",
        "tests/a.py::quick",
        "tests/d.py::new",  # not in the file: counted as quick, after every unit that is
    ]


def test_the_durations_file_is_read_line_by_line_and_a_bad_line_is_skipped(tmp_path: Path) -> None:
    file = tmp_path / "durations.txt"
    file.write_text("133.7\ttests/test_packaging.py\nnot a number\ttests/x.py\n\n4.0\ttests/y.py::t\n")
    assert read_durations(file) == {"tests/test_packaging.py": 133.7, "tests/y.py::t": 4.0}
    assert read_durations(tmp_path / "missing.txt") == {}


def test_the_committed_file_names_the_longest_units_of_the_suite() -> None:
    seconds = read_durations(DURATIONS)
    assert len(seconds) > 20
    assert any(unit.startswith("tests/test_fillable.py") for unit in seconds)
    assert all(s >= 3.0 for s in seconds.values())


def _report(nodeid: str, duration: float) -> Any:
    return SimpleNamespace(nodeid=nodeid, duration=duration)


def test_recorded_seconds_add_up_by_unit_longest_first_and_a_failed_run_writes_nothing(tmp_path: Path) -> None:
    file = tmp_path / "durations.txt"
    recorder = DurationRecorder(file)
    for nodeid, seconds in [
        ("tests/b.py::one@tests/b.py", 2.5),
        ("tests/b.py::one@tests/b.py", 1.0),  # its call after its setup
        ("tests/b.py::two@tests/b.py", 4.0),
        ("tests/c.py::paced", 9.0),
        ("tests/a.py::quick", 0.2),
    ]:
        recorder.pytest_runtest_logreport(_report(nodeid, seconds))
    recorder.pytest_sessionfinish(SimpleNamespace(testsfailed=1))  # type: ignore[arg-type]
    assert not file.exists()
    recorder.pytest_sessionfinish(SimpleNamespace(testsfailed=0))  # type: ignore[arg-type]
    assert file.read_text() == "9.0\ttests/c.py::paced\n7.5\ttests/b.py\n"
    assert not (tmp_path / "durations.txt.part").exists()


class Marked(SimpleNamespace):
    """A test item that keeps the marks it is given, as pytest's do."""

    def add_marker(self, mark: Any) -> None:
        self.marks = [*getattr(self, "marks", []), mark.name]


def test_what_took_three_seconds_or_more_is_marked_slow_and_a_group_with_it() -> None:
    given = [
        Marked(nodeid=n)
        for n in ("tests/a.py::quick", "tests/b.py::one@tests/b.py", "tests/c.py::paced", "tests/d.py::new")
    ]
    mark_slow(given, {"tests/b.py": 80.0, "tests/c.py::paced": 3.0, "tests/a.py::quick": 2.9})  # type: ignore[arg-type]
    assert [getattr(i, "marks", []) for i in given] == [[], ["slow"], ["slow"], []]


def test_the_quick_loop_leaves_out_what_measured_slow() -> None:
    """``pytest -m "not slow"`` collects none of the slowest unit's tests, and does collect a quick one."""
    import subprocess
    import sys

    from .conftest import ROOT

    slowest = max(read_durations().items(), key=lambda kv: kv[1])[0]
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
