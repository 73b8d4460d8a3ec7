"""A render worker started ahead of its first job (the editor's start, shipyard.render.earlyworker)
imports WeasyPrint at once only while a core is free for it: while every core it may use is
taken, it waits for its first job instead, then renders it as any worker does. Here the
worker may use one core and the starting process keeps that core busy for three seconds.
What the worker has imported is read from the libraries mapped into it (Pango comes with
WeasyPrint). (Its start with the editor and the sheet it draws: test_editor_first_sheet.)"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .conftest import EXAMPLES

BUSY = """
import os, sys, time
from pathlib import Path
os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core, for this process and the worker
from shipyard.render.earlyworker import spawn_worker
pid, sock = spawn_worker()
def imported():
    return "libpango" in Path(f"/proc/{pid}/maps").read_text()
busy_until = time.monotonic() + 3
while time.monotonic() < busy_until and not imported():
    pass  # the one core stays taken
print("while its core is taken:", "imported" if imported() else "waiting", flush=True)
from shipyard.core.designfile import load_design
from shipyard.render.printing import print_loaded
from shipyard.render.worker import RenderWorker
w = RenderWorker.adopt(pid, sock)
out = Path(sys.argv[2])
print_loaded([load_design(Path(sys.argv[1]))], out, workers=[w], draft=True)
print("its job:", out.read_bytes()[:5], "imported" if imported() else "waiting", flush=True)
w.close()
print("ended:", not w._proc.is_alive(), flush=True)
"""


def test_a_worker_started_early_waits_for_its_job_while_its_core_is_taken(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-c", BUSY, str(EXAMPLES / "rebel-fighter.ship"), str(tmp_path / "sheet.pdf")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["while its core is taken: waiting", "its job: b'%PDF-' imported", "ended: True"]
