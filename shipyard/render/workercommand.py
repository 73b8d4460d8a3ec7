"""How a render worker process is started: its command line and what it inherits.

A leaf every kind of worker reads: :mod:`shipyard.render.worker` (the worker itself and the
editor's and printing's end of it), :mod:`shipyard.render.earlyworker` (the worker the
editor starts first thing, which waits before it imports the worker) and
:mod:`shipyard.render.pictureworker`. Imports only ``sys``, so the editor's start pays
nothing for it.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing itself is not imported on the editor's start
if TYPE_CHECKING:
    from collections.abc import Callable

PARENT_ENV = "SHIPYARD_RENDER_PARENT"  # the editor's process id, for the worker's watchdog
PICTURE_ENV = "SHIPYARD_PICTURE_WORKER"  # set for a --render-worker FD (a frozen app) that serves pictures
PATIENT = "--patient"  # wait for a free core or the first job before importing (shipyard.render.earlyworker)


WATCHDOG_SECONDS = 0.5


def watch_parent(parent: int, before_ending: Callable[[], None] | None = None) -> None:
    """End this process (a worker) as soon as ``parent`` is no longer its parent (it died),
    after ``before_ending`` (the worker's own clean-up: no one else is left to do it)."""
    import os
    import threading
    import time

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCHDOG_SECONDS)
        if before_ending is not None:
            before_ending()
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="shipyard-worker-watchdog").start()


def worker_command(fd: int, patient: bool = False) -> list[str]:
    """How a worker serving on ``fd`` is started: ``-m shipyard.render.earlyworker`` (patient)
    or ``shipyard.render.worker``, or the bundle itself in worker mode (a frozen bundle has no ``-m``)."""
    if getattr(sys, "frozen", False):
        cmd = [sys.executable, "--render-worker", str(fd)]
    else:
        cmd = [sys.executable, "-m", "shipyard.render.earlyworker" if patient else "shipyard.render.worker", str(fd)]
    return [*cmd, PATIENT] if patient else cmd


def limit_address_space(limit: int) -> None:
    """Let this process (a worker) use at most ``limit`` bytes of address space: a runaway job
    then fails with MemoryError instead of exhausting the machine. A limit already lower (the
    hard one is never below the soft one) is kept; where the platform has none, nothing changes."""
    import contextlib

    with contextlib.suppress(ImportError, ValueError, OSError):
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if soft == resource.RLIM_INFINITY or soft > limit:
            resource.setrlimit(resource.RLIMIT_AS, (limit, hard))  # soft <= hard: hard is above too
