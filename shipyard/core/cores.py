"""How busy the machine's cores are, and which a starting program and its helper run on.

Whether starting another process would find a core free is read from ``/proc/loadavg``
(the tasks running or ready to run now), against the cores this process may use; where
that cannot be read (not Linux), None. :func:`keep_apart` and :func:`rejoin` split the
cores between a program that is starting and a helper process it started (the editor and
its early render worker) and join them again. Standard library only: the render worker's
early start reads it before it imports anything else.
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


def _this_core() -> int | None:
    """The core this thread ran on last (``/proc/thread-self/stat``'s 39th field), None if unknown."""
    try:
        with open("/proc/thread-self/stat", encoding="ascii") as f:  # noqa: PTH123 - no pathlib before the spawn
            return int(f.read().rsplit(")", 1)[1].split()[36])
    except (OSError, ValueError, IndexError):
        return None


def keep_apart(pid: int) -> frozenset[int] | None:
    """While a program starts beside a helper process ``pid`` it started (the editor and its
    render worker importing WeasyPrint), give this thread one of the cores it may use and
    ``pid`` all the others: left to the scheduler, the two sometimes share a core or swap
    cores, and the program's start pays for the helper's. Returns the cores both may use
    again (for :func:`rejoin`), or None where they were not split (fewer than two cores,
    no affinity calls, a helper already gone). Threads this thread starts while apart start
    on its core, and :func:`rejoin` lets them out too."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    cores = frozenset(os.sched_getaffinity(0))
    if len(cores) < 2:
        return None
    mine = _this_core()
    if mine not in cores:
        mine = min(cores)
    try:
        os.sched_setaffinity(pid, cores - {mine})
        os.sched_setaffinity(0, {mine})
    except OSError:
        rejoin(cores, pid)
        return None
    return cores


def rejoin(cores: frozenset[int], *pids: int) -> None:
    """Every thread of this process and of ``pids`` may run on ``cores`` again (undoes
    :func:`keep_apart`); a process or thread that has ended is passed over."""
    for pid in (os.getpid(), *pids):
        try:
            tasks = os.listdir(f"/proc/{pid}/task")  # noqa: PTH208 - standard library only, before the spawn
        except OSError:
            continue
        for task in tasks:
            try:
                os.sched_setaffinity(int(task), cores)
            except (OSError, ValueError):
                continue
