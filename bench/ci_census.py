"""Where the test suite's CPU goes: a census of every process a pytest run starts.

Run from the repository root::

    .venv/bin/python bench/ci_census.py [--workers N] [--every 0.2] [PYTEST ARGS...]

It runs ``pytest -n N -q -p no:cacheprovider PYTEST ARGS`` (``-n auto`` unless told, as
``scripts/run-tests`` does; ``--workers 0`` runs in one process) and meanwhile reads
``/proc`` every ``--every`` seconds. Each process the run starts, and each one those start,
is noted with its command line (read again at the next look: a process seen between its fork
and the program it then runs is named by that program), the test that was running when it
started (the ``PYTEST_CURRENT_TEST`` its environment began with) and the CPU time it had used
when last seen. A process that lives shorter than one look is missed; its CPU is then counted only in
the run's total (``os.times`` of the children, once pytest has ended). A plug-in in the
pytest processes notes each test's own CPU time.

It prints:

* the CPU (user + system) of each kind of process: pytest and its workers, render workers
  started as a new interpreter, ``shipyard`` commands, other Python processes, other
  programs, and the processes each of those forked (a pytest worker's and a command's forks
  are its render workers; a shell's, the programs it runs, seen before they began);
* the run's CPU against the four minutes of two cores issue 47 allows the whole of
  ``.ci/run`` (480 CPU-s): no test may go, so this is what the suite must come down to;
* the test modules whose tests used the most CPU in the pytest processes, and those whose
  tests started the processes that used the most. A forked process begins with its
  parent's environment as the parent was started, so it is given the test its parent was
  running when the fork was first seen (from the times the plug-in notes).

Not a benchmark of one thing against a baseline: a map, to decide what to make cheaper.
It exits with pytest's status; when a test failed, pytest's account of the failures comes
first.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CI_BUDGET_CPU_S = 2 * 240  # issue 47: the whole of .ci/run in four minutes on two cores
TICKS = os.sysconf("SC_CLK_TCK")

# The plug-in each pytest process loads (-p census_tests): one JSON line per test.
PLUGIN = """
import json, os, time
import pytest

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    before, start = os.times(), time.time()
    yield
    after, end = os.times(), time.time()
    own = (after.user - before.user) + (after.system - before.system)
    said = {"test": item.nodeid, "cpu": own, "pid": os.getpid(), "start": start, "end": end}
    with open(os.environ["SHIPYARD_CENSUS_TESTS"], "a", encoding="utf-8") as out:
        out.write(json.dumps(said) + "\\n")
"""


@dataclass
class Seen:
    """A process of the run, as last seen in /proc."""

    pid: int
    ppid: int
    command: str
    test: str  # the test running in the process that started it, when it began
    cpu: float = 0.0
    looks: int = 0  # how many looks have seen it
    first_seen: float = 0.0  # time.time() of the first look that saw it


def _stat(pid: str) -> tuple[int, float, int] | None:
    """(parent, CPU seconds, start time in ticks) of a process; None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_bytes().decode(errors="replace")
    except OSError:
        return None
    fields = text[text.rfind(")") + 2 :].split()
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / TICKS, int(fields[19])


def _command(pid: str) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


def _test_of(pid: str) -> str:
    try:
        for pair in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0"):
            if pair.startswith(b"PYTEST_CURRENT_TEST="):
                return pair.split(b"=", 1)[1].decode(errors="replace")
    except OSError:
        pass
    return ""


class Sampler(threading.Thread):
    """Looks through /proc every ``every`` seconds for the processes under ``root``."""

    def __init__(self, root: int, every: float) -> None:
        super().__init__(daemon=True)
        self.root, self.every = root, every
        self.seen: dict[tuple[int, int], Seen] = {}  # by (pid, start time): a pid may be used again
        self.stop = threading.Event()

    def run(self) -> None:
        ours: set[int] = {self.root}
        while not self.stop.is_set():
            self.look(ours)
            self.stop.wait(self.every)
        self.look(ours)

    def look(self, ours: set[int]) -> None:
        found: dict[int, tuple[int, float, int]] = {}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                stat = _stat(entry.name)
                if stat is not None:
                    found[int(entry.name)] = stat
        for pid in sorted(found, key=lambda p: found[p][2]):  # parents started before their children
            ppid, cpu, started = found[pid]
            if pid != self.root and ppid not in ours:
                continue
            ours.add(pid)
            key = (pid, started)
            seen = self.seen.get(key)
            if seen is None:
                self.seen[key] = seen = Seen(pid, ppid, _command(str(pid)), _test_of(str(pid)), first_seen=time.time())
            elif seen.looks < 2:  # a fork seen before it ran its program (exec): what it runs now
                seen.command = _command(str(pid)) or seen.command
                seen.test = _test_of(str(pid)) or seen.test
            seen.looks += 1
            seen.cpu = cpu


def kind(p: Seen, by_pid: dict[int, Seen], root: int, depth: int = 0) -> str:
    """What the process was, from its command line (and its parent's, for a fork)."""
    c = p.command
    parent = by_pid.get(p.ppid)
    if p.pid == root:
        return "pytest"
    if parent is not None and parent.command == c and c and depth < 8:  # a fork, named by what forked it
        return "forked by a " + kind(parent, by_pid, root, depth + 1).removeprefix("forked by a ")
    if "exec(eval(" in c:  # pytest-xdist's workers start with this line
        return "pytest worker"
    if re.search(r"shipyard\.render\.(worker|earlyworker)\b|--render-worker", c):
        return "render worker, a new interpreter"
    if "shipyard.render.pictureworker" in c:
        return "picture worker"
    if re.search(r"-m shipyard\._qt\.app|shipyard-gui|-m shipyard gui", c):
        return "editor, a process of its own"
    if m := re.search(r"(?:-m shipyard|/shipyard)\s+(--?[\w-]+|[a-z][\w-]*)", c):
        return f"shipyard {m.group(1)}"
    name = Path(c.split(" ", 1)[0]).name if c else "?"
    if name.startswith("python"):
        return "python, other"
    return name


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workers", default="auto", help="pytest-xdist workers (-n); 0: one process")
    ap.add_argument("--every", type=float, default=0.2, help="seconds between looks through /proc")
    ap.add_argument("--top", type=int, default=15, help="test modules listed in each table")
    args, pytest_args = ap.parse_known_args()
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "census_tests.py").write_text(PLUGIN, encoding="utf-8")
        tests_file = Path(tmp) / "tests.jsonl"
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [tmp, env.get("PYTHONPATH", "")]))
        env["SHIPYARD_CENSUS_TESTS"] = str(tests_file)
        cmd = [sys.executable, "-m", "pytest", "-n", args.workers, "-q", "-p", "no:cacheprovider"]
        cmd += ["-p", "census_tests", *pytest_args]
        before = os.times()
        start = time.monotonic()
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
        sampler = Sampler(proc.pid, args.every)
        sampler.start()
        assert proc.stdout is not None
        said = [line.rstrip() for line in proc.stdout if line.strip()]
        status = proc.wait()
        wall = time.monotonic() - start
        sampler.stop.set()
        sampler.join()
        after = os.times()
        tests = [json.loads(line) for line in tests_file.read_text().splitlines()] if tests_file.exists() else []
    total = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    if status != 0:  # what failed, as pytest said it: from its first section of failures or errors
        first = next((i for i, line in enumerate(said) if re.fullmatch(r"=+ (FAILURES|ERRORS) =+", line)), 0)
        print("\n".join(said[first:-1]), end="\n\n")
    report(sampler, total, wall, said[-1] if said else "(nothing)", tests, args.top)
    return status


def started_in(p: Seen, by_pid: dict[int, Seen], timelines: dict[int, list[dict[str, Any]]], every: float) -> str:
    """The test that was running when ``p`` began: its environment says so, unless it is a fork,
    whose environment is its parent's as the parent began. A fork began within a look before it
    was first seen: the test its parent was running then (a pytest process's, from the tests'
    times), or the one its parent began in."""
    if p.test:
        return p.test
    parent = by_pid.get(p.ppid)
    if parent is None or parent.command != p.command:
        return ""
    for t in sorted(timelines.get(parent.pid, []), key=lambda t: -t["start"]):
        if t["start"] <= p.first_seen and t["end"] >= p.first_seen - 2 * every:
            return str(t["test"])
    return parent.test


def report(
    sampler: Sampler, total: float, wall: float, pytest_said: str, tests: list[dict[str, Any]], top: int
) -> None:
    by_pid = {p.pid: p for p in sampler.seen.values()}
    kinds: dict[str, list[float]] = collections.defaultdict(lambda: [0, 0.0])
    started_by: dict[str, list[float]] = collections.defaultdict(lambda: [0, 0.0])
    timelines: dict[int, list[dict[str, Any]]] = collections.defaultdict(list)  # each pytest process's tests
    for t in tests:
        if "pid" in t:
            timelines[t["pid"]].append(t)
    for p in sampler.seen.values():
        k = kind(p, by_pid, sampler.root)
        kinds[k][0] += 1
        kinds[k][1] += p.cpu
        if k not in ("pytest", "pytest worker"):
            module = started_in(p, by_pid, timelines, sampler.every).split("::")[0] or "(not known: outside any test)"
            started_by[module][0] += 1
            started_by[module][1] += p.cpu
    sampled = sum(v[1] for v in kinds.values())
    print(f"pytest: {pytest_said}")
    print(f"\nCPU by kind of process (user + system, looked at every {sampler.every:g} s):")
    print(f"  {'kind':48s} {'processes':>9s} {'CPU-s':>8s} {'share':>6s}")
    for k, (n, cpu) in sorted(kinds.items(), key=lambda kv: -kv[1][1]):
        print(f"  {k:48s} {int(n):9d} {cpu:8.1f} {cpu / max(sampled, 1e-9):6.1%}")
    print(f"  {'(processes missed between two looks)':48s} {'':9s} {max(total - sampled, 0.0):8.1f}")
    print(f"\nthe run: {total:.1f} CPU-s in {wall:.1f} s of wall time")
    print(
        f"against issue 47's budget for all of .ci/run, four minutes of two cores ({CI_BUDGET_CPU_S} CPU-s): "
        f"{total / CI_BUDGET_CPU_S:.2f}x"
    )
    modules: dict[str, list[float]] = collections.defaultdict(lambda: [0, 0.0])
    for t in tests:
        m = t["test"].split("::")[0]
        modules[m][0] += 1
        modules[m][1] += t["cpu"]
    print(f"\ntest modules by the CPU their tests used in the pytest processes (top {top} of {len(modules)}):")
    for m, (n, cpu) in sorted(modules.items(), key=lambda kv: -kv[1][1])[:top]:
        print(f"  {cpu:8.1f} CPU-s {int(n):5d} tests  {m}")
    print(f"\ntest modules by the CPU of the processes their tests started (top {top}):")
    for m, (n, cpu) in sorted(started_by.items(), key=lambda kv: -kv[1][1])[:top]:
        print(f"  {cpu:8.1f} CPU-s {int(n):5d} processes  {m}")
    in_tests = sum(t["cpu"] for t in tests)
    others = sampled - kinds["pytest"][1] - kinds["pytest worker"][1]
    print(
        f"\nSUMMARY ci_census: {total:.1f} CPU-s in {wall:.1f} s, {total / CI_BUDGET_CPU_S:.2f}x the 4-minute budget; "
        f"tests in pytest processes {in_tests:.1f}, other processes {others:.1f} CPU-s"
    )


if __name__ == "__main__":
    raise SystemExit(main())
