"""How busy the machine's cores are: whether starting another process would find a core free.

Read from ``/proc/loadavg`` (the tasks running or ready to run now), against the cores
this process may use; where that cannot be read (not Linux), None. Standard library only:
the render worker's early start reads it before it imports anything else.
"""

from __future__ import annotations

import os


def usable_cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _running() -> int | None:
    """The tasks running or ready to run now, this process among them (None: not known)."""
    try:
        with open("/proc/loadavg", encoding="ascii") as f:  # noqa: PTH123 - no pathlib before the spawn
            return int(f.read().split()[3].split("/")[0])
    except (OSError, ValueError, IndexError):
        return None


def running_elsewhere(starting: int = 0) -> int | None:
    """How many tasks are running or ready to run on this machine now beyond the cores this
    process may use (/proc/loadavg counts this one too), with ``starting`` more about to
    start; None where that cannot be read."""
    running = _running()
    return None if running is None else max(0, running + starting - usable_cores())


def free_cores() -> int:
    """This process's core and the others no task is running on now (at least 1); every
    usable core where the load cannot be read."""
    cores, running = usable_cores(), _running()
    return cores if running is None else max(1, cores - running + 1)
