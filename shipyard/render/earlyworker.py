"""Start a render worker before anything else is imported (the editor's start).

Only ``os``, ``socket``, ``select``, the worker's command line
(:mod:`shipyard.render.workercommand`) and how busy the cores are (:mod:`shipyard.core.cores`)
are needed here: the editor starts its worker first
thing (:mod:`shipyard._qt.preview.sharedworker`), and whatever this module imported would be
imported on the editor's own start, before its window. The worker is a new interpreter,
``python -m shipyard.render.earlyworker FD --patient``, started with ``posix_spawn``: a
fork would share the editor's memory with it, and every page the editor then wrote while
building its window would be copied first, at the editor's cost while it starts. The editor takes the worker over with
:meth:`shipyard.render.worker.RenderWorker.adopt` when it first renders.

Such a worker is *patient* (:func:`wait_for_a_free_core`): it imports WeasyPrint on the
core the window does not use, and on a busy machine there is no such core: the import
would take its share of the window's, and the window would come up later.
So before it imports anything more than this module, it waits while every core is taken,
until one is free or its first job comes (sent once the window has painted); and where
no core is free even for it to wait on, the editor does not start it early at all
(:func:`shipyard._qt.preview.sharedworker.start_early`: it starts once the window has painted).
"""

from __future__ import annotations

import os
import select
import socket
import sys

from shipyard.core.cores import running_elsewhere
from shipyard.render.workercommand import PARENT_ENV, PATIENT, PICTURE_ENV, worker_command

IDLE_POLL_SECONDS = 0.02


def spawn_worker() -> tuple[int, socket.socket]:
    """Start a patient worker: its process id and the socket's editor end."""
    ours, theirs = socket.socketpair()
    try:
        theirs.set_inheritable(True)
        cmd = worker_command(theirs.fileno(), patient=True)
        env = {**os.environ, PARENT_ENV: str(os.getpid())}
        quiet = [(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0)]  # no terminal input, as other workers
        pid = os.posix_spawn(cmd[0], cmd, env, file_actions=quiet)
    except BaseException:
        ours.close()
        raise
    finally:
        theirs.close()
    return pid, ours


def wait_for_a_free_core(fd: int) -> None:
    """Return once a core is free for this process or something is waiting on ``fd`` (a job)."""
    while (running_elsewhere() or 0) > 0 and not select.select([fd], [], [], IDLE_POLL_SECONDS)[0]:
        pass


def serve(argv: list[str]) -> None:
    """A worker's entry point: ``FD [--patient]``."""
    fd = int(argv[0])
    if os.environ.get(PICTURE_ENV) == "1":  # a frozen app's picture worker (shipyard.render.pictureworker)
        from multiprocessing.connection import Connection

        from shipyard.render.pictureworker import serve as serve_pictures

        parent = os.environ.get(PARENT_ENV, "")
        serve_pictures(Connection(fd), int(parent) if parent.isdigit() else None)
        return
    if PATIENT in argv[1:]:
        wait_for_a_free_core(fd)
    from shipyard.render.worker import serve_fd

    serve_fd(fd)


if __name__ == "__main__":
    serve(sys.argv[1:])
