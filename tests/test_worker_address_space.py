"""Every kind of worker caps its address space with one function
(:func:`shipyard.render.workercommand.limit_address_space`): a runaway job fails with
MemoryError instead of exhausting the machine, and a limit already set lower stays."""

from __future__ import annotations

import subprocess
import sys

import pytest

resource = pytest.importorskip("resource")

CHILD = """
import resource, sys
from shipyard.render.workercommand import limit_address_space
soft, hard = (int(v) for v in sys.argv[1:3])
resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
limit_address_space(int(sys.argv[3]))
print(*resource.getrlimit(resource.RLIMIT_AS))
"""
GIB = 2**30
NONE = resource.RLIM_INFINITY


@pytest.mark.parametrize(
    ("soft", "hard", "limit", "after"),
    [
        (NONE, NONE, 3 * GIB, (3 * GIB, NONE)),  # no limit yet: the worker's
        (8 * GIB, NONE, 3 * GIB, (3 * GIB, NONE)),  # a higher one: lowered to the worker's
        (2 * GIB, NONE, 3 * GIB, (2 * GIB, NONE)),  # a lower one: kept
        (8 * GIB, 8 * GIB, 3 * GIB, (3 * GIB, 8 * GIB)),  # the hard limit above stays as it was
        (2 * GIB, 2 * GIB, 3 * GIB, (2 * GIB, 2 * GIB)),  # a hard limit below the worker's: kept
    ],
)
def test_a_worker_caps_its_address_space_and_keeps_a_lower_cap(
    soft: int, hard: int, limit: int, after: tuple[int, int]
) -> None:
    # A process of its own: a limit cannot be raised again once lowered.
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, str(soft), str(hard), str(limit)], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert tuple(int(v) for v in proc.stdout.split()) == after
