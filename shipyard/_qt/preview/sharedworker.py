"""The editor's one render worker process: started as the editor starts, used from background threads.

This module imports no Qt, so ``shipyard-gui`` can start the worker first thing
(:func:`start_early`), before the engine and PySide6 are imported: a fresh worker spends
most of a second importing WeasyPrint, and begun first it does so on the other core
while the window is built, so the first sheet follows the window sooner
(:mod:`shipyard.render.earlyworker`: a new interpreter, started without importing
anything more here). On a machine whose cores are all busy it waits for the first job
before importing (the window would otherwise share its core with the import). The
preview and printing reach it through :mod:`shipyard._qt.preview.rendering`.
"""

from __future__ import annotations

import atexit
import os
import socket
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from shipyard.render.worker import RenderWorker

_worker_lock = threading.Lock()
_worker: RenderWorker | None = None
_early: tuple[int, socket.socket] | None = None  # started with the editor, not taken over yet
_ends_with_editor = False  # close_shared_worker runs as the editor's process ends


def _end_with_editor() -> None:
    """The editor ends: the worker with it at once, not when its watchdog next looks (a
    worker still importing WeasyPrint would take a core from whatever starts next)."""
    global _ends_with_editor
    if not _ends_with_editor:
        atexit.register(close_shared_worker)
        _ends_with_editor = True


def shared_worker() -> RenderWorker:
    """One render worker process for the whole editor: the one started with it, else
    one started on first use (again if it died)."""
    global _worker, _early

    from shipyard.render.worker import RenderWorker

    with _worker_lock:
        if _worker is None and _early is not None:
            _worker, _early = RenderWorker.adopt(*_early), None
        if _worker is None or not _worker.is_alive():
            _end_with_editor()
            _worker = RenderWorker()
        return _worker


def start_early() -> None:
    """Start the worker now, as the editor starts (see the module docstring), if a core is
    free for it: it imports WeasyPrint at once while one is, else once the first sheet is
    asked for. With every core taken it is started only then (:func:`shared_worker`), as
    its interpreter's own start would take a share of the window's core."""
    global _early
    from shipyard.core.cores import running_elsewhere
    from shipyard.render.earlyworker import spawn_worker

    if not hasattr(os, "posix_spawn") or (running_elsewhere(starting=1) or 0) > 0:
        return  # no posix_spawn (Windows) or no core free: the worker starts on first use
    with _worker_lock:
        if _worker is None and _early is None:
            _end_with_editor()
            _early = spawn_worker()


def supersede(owner: str) -> bool:
    """Drop the job of ``owner`` the shared worker is rendering, if it is one (a preview of a
    design edited since); whether one was dropped. Never starts a worker."""
    with _worker_lock:
        worker = _worker
    return worker is not None and worker.supersede(owner)


def close_shared_worker() -> None:
    """Stop the worker at once (the editor is closing: a render in progress is not wanted)."""
    global _worker, _early
    with _worker_lock:
        if _worker is not None:
            _worker.close(wait=False)
            _worker = None
        if _early is not None:  # never taken over: stopped as a worker, its scratch folder removed
            from shipyard.render.worker import RenderWorker

            early, _early = RenderWorker.adopt(*_early), None
            early.close(wait=False)
