"""The cores a starting program and its helper process keep to (shipyard.core.cores): while
the editor builds its window, its thread keeps one core and the early render worker the
others; then every thread of both may run on every core again. Each case runs in a process
of its own, so no test here changes the cores this test process may use."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(
    not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2, reason="needs two cores to split"
)

# A helper that sleeps; cores split with it; a thread started while apart; then joined again.
# Prints each thread's cores, in sorted lists, and what keep_apart returned.
SPLIT = """
import os, subprocess, sys, threading
from shipyard.core.cores import keep_apart, rejoin
every = sorted(os.sched_getaffinity(0))
helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
def cores(pid):
    return sorted(sorted(os.sched_getaffinity(int(t))) for t in os.listdir(f"/proc/{pid}/task"))
held = keep_apart(helper.pid)
print("returned every core:", sorted(held) == every)
mine, its = sorted(os.sched_getaffinity(0)), sorted(os.sched_getaffinity(helper.pid))
print("apart:", len(mine) == 1, not set(mine) & set(its), sorted(mine + its) == every)
started = threading.Event(); done = threading.Event()
worker = threading.Thread(target=lambda: (started.set(), done.wait()))
worker.start(); started.wait()
print("a thread started while apart keeps to the same core:", cores(os.getpid()) == [mine, mine])
rejoin(held, helper.pid)
print("joined:", cores(os.getpid()) == [every, every], cores(helper.pid) == [every])
done.set(); worker.join()
helper.kill(); helper.wait()
rejoin(held, helper.pid)  # a helper that has ended is passed over
print("after the helper ended:", cores(os.getpid()) == [every])
print("an ended helper is not split with:", keep_apart(helper.pid))
"""


def test_a_program_and_its_helper_keep_apart_while_it_starts_then_join_again() -> None:
    proc = subprocess.run([sys.executable, "-c", SPLIT], capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "returned every core: True",
        "apart: True True True",
        "a thread started while apart keeps to the same core: True",
        "joined: True True",
        "after the helper ended: True",
        "an ended helper is not split with: None",
    ]


def test_one_core_is_not_split() -> None:
    script = (
        "import os, sys\nos.sched_setaffinity(0, {min(os.sched_getaffinity(0))})\n"
        "from shipyard.core.cores import keep_apart\nprint(keep_apart(os.getppid()), len(os.sched_getaffinity(0)))"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["None", "1"]
