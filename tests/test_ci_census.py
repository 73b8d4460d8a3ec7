"""``bench/ci_census.py``: every process a pytest run starts, sorted by kind, with its CPU,
and the test modules that cost the most."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest

from .conftest import ROOT

CENSUS = ROOT / "bench" / "ci_census.py"


def census() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ci_census", CENSUS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["ci_census"] = module  # its dataclass looks its module up
    spec.loader.exec_module(module)
    return module


def test_each_process_is_named_by_what_it_was() -> None:
    c = census()
    xdist = "/venv/bin/python -u -c import sys;exec(eval(sys.stdin.readline()))"
    seen = [
        c.Seen(10, 1, "/venv/bin/python -m pytest -n auto", ""),
        c.Seen(11, 10, xdist, ""),
        c.Seen(12, 11, xdist, ""),  # forked by the worker: a render worker
        c.Seen(13, 11, "/venv/bin/python -m shipyard.render.worker 15", "tests/test_a.py::t"),
        c.Seen(14, 11, "/venv/bin/python -m shipyard print a.ship -o a.pdf", "tests/test_b.py::t"),
        c.Seen(15, 14, "/venv/bin/python -m shipyard print a.ship -o a.pdf", ""),  # its worker, forked
        c.Seen(16, 11, "/venv/bin/python -m shipyard._qt.app a.ship --smoke", ""),
        c.Seen(17, 11, "/venv/bin/python -c print(1)", ""),
        c.Seen(18, 11, "/usr/bin/pdftotext a.pdf -", ""),
        c.Seen(19, 11, "/venv/bin/shipyard check a.ship", ""),
        c.Seen(20, 12, xdist, ""),  # forked by a fork: named by the pytest worker all the same
    ]
    by_pid = {p.pid: p for p in seen}
    assert [c.kind(p, by_pid, 10) for p in seen] == [
        "pytest",
        "pytest worker",
        "forked by a pytest worker",
        "render worker, a new interpreter",
        "shipyard print",
        "forked by a shipyard print",
        "editor, a process of its own",
        "python, other",
        "pdftotext",
        "shipyard check",
        "forked by a pytest worker",
    ]


def test_a_fork_is_given_the_test_its_parent_was_running_when_it_began() -> None:
    c = census()
    xdist = "/venv/bin/python -u -c import sys;exec(eval(sys.stdin.readline()))"
    command = "/venv/bin/python -m shipyard print a.ship -o a.pdf"
    worker = c.Seen(11, 10, xdist, "")
    forked = c.Seen(12, 11, xdist, "", first_seen=100.05)  # forked by the worker during test b
    old_fork = c.Seen(13, 11, xdist, "", first_seen=50.0)  # before any test the worker ran
    printing = c.Seen(14, 11, command, "tests/test_c.py::t (call)")  # its environment names its test
    its_worker = c.Seen(15, 14, command, "", first_seen=120.0)  # the command's own fork: the command's test
    by_pid = {p.pid: p for p in (worker, forked, old_fork, printing, its_worker)}
    timelines = {
        11: [
            {"test": "tests/test_a.py::t", "start": 99.0, "end": 100.0},
            {"test": "tests/test_b.py::t", "start": 100.01, "end": 101.0},
        ]
    }
    assert c.started_in(forked, by_pid, timelines, 0.2) == "tests/test_b.py::t"
    assert c.started_in(old_fork, by_pid, timelines, 0.2) == ""
    assert c.started_in(printing, by_pid, timelines, 0.2) == "tests/test_c.py::t (call)"
    assert c.started_in(its_worker, by_pid, timelines, 0.2) == "tests/test_c.py::t (call)"


@pytest.mark.slow  # waits for a program to start
def test_a_process_seen_before_its_program_began_is_named_by_that_program() -> None:
    """A fork looked at before it runs its program (exec) has its parent's command line; at
    the next look the census reads it again, as the program it became."""
    c = census()
    script = "import time; time.sleep(30)"
    # the shell runs its program once told to (a line on its input: ``read`` is its own, no child)
    child = subprocess.Popen(
        ["sh", "-c", f'read go; exec "{sys.executable}" -c "{script}"'], stdin=subprocess.PIPE, text=True
    )
    try:
        sampler = c.Sampler(child.pid, 0.2)
        ours = {child.pid}
        sampler.look(ours)
        first = next(p for p in sampler.seen.values() if p.pid == child.pid)
        assert first.command.startswith("sh -c"), first.command
        assert child.stdin is not None
        child.stdin.write("go\n")
        child.stdin.flush()
        became = f"{sys.executable} -c {script}"
        deadline = time.monotonic() + 60
        while c._command(str(child.pid)) != became and time.monotonic() < deadline:
            time.sleep(0.05)
        sampler.look(ours)
        assert first.command == became
    finally:
        child.kill()
        child.wait()


@pytest.mark.slow  # a pytest run of its own
def test_a_census_of_a_small_run_counts_its_tests_and_its_processes() -> None:
    proc = subprocess.run(
        [sys.executable, str(CENSUS), "--workers", "0", "--every", "0.05", "tests/test_numberwords.py"],
        cwd="/",  # a bench works from any folder
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr
    passed = re.search(r"^pytest: (\d+) passed", out, re.M)
    assert passed, out
    row = re.search(r"^\s+pytest\s+1\s+([\d.]+)\s+[\d.]+%$", out, re.M)
    assert row and float(row.group(1)) > 0, out  # the one pytest process, and the CPU it used
    module = re.search(r"^\s+([\d.]+) CPU-s\s+(\d+) tests\s+tests/test_numberwords\.py$", out, re.M)
    assert module and int(module.group(2)) == int(passed.group(1)), out  # every test the run passed
    run = re.search(r"^the run: ([\d.]+) CPU-s in ([\d.]+) s of wall time$", out, re.M)
    assert run and float(run.group(1)) >= float(row.group(1)) - 0.5, out  # the sampled CPU is within the run's
    budget = re.search(r"\(480 CPU-s\): ([\d.]+)x$", out, re.M)
    assert budget and abs(float(budget.group(1)) - float(run.group(1)) / 480) < 0.01, out
    assert re.search(r"^SUMMARY ci_census: ", out, re.M), out


@pytest.mark.slow  # a pytest run of its own
def test_a_census_of_a_failing_run_says_what_failed_first(tmp_path: Path) -> None:
    tests = tmp_path / "test_planted.py"
    tests.write_text("def test_fails():\n    assert 1 == 2, 'planted failure'\n\ndef test_passes():\n    pass\n")
    proc = subprocess.run(
        [sys.executable, str(CENSUS), "--workers", "0", str(tests)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    out = proc.stdout
    assert proc.returncode == 1, out + proc.stderr  # pytest's status
    assert "planted failure" in out and "FAILED" in out and "test_fails" in out, out
    assert out.index("planted failure") < out.index("CPU by kind of process"), out  # the failure comes first
    assert re.search(r"^pytest: 1 failed, 1 passed", out, re.M), out
