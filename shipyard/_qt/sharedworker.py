"""The editor's one render worker process: started as the editor starts, used from background threads.

This module imports no Qt, so ``shipyard-gui`` can start the worker first thing
(:func:`start_early`), before the engine and PySide6 are imported: a fresh worker spends
most of a second importing WeasyPrint, and begun first it does so on the other core
while the window is built, so the first sheet follows the window sooner. Started that
early it is forked (no thread runs yet, and the fork carries this interpreter: no second
interpreter start); later starts, in a running Qt application, never fork
(:func:`shipyard.render.worker.default_start_method`). The preview and printing reach it
through :mod:`shipyard._qt.rendering`.
"""

from __future__ import annotations

import atexit
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from shipyard.render.worker import RenderWorker

_worker_lock = threading.Lock()
_worker: RenderWorker | None = None
_ends_with_editor = False  # close_shared_worker runs as the editor's process ends


def shared_worker() -> RenderWorker:
    """One render worker process for the whole editor, started on first use (or early)."""
    global _worker, _ends_with_editor

    from shipyard.render.worker import RenderWorker

    with _worker_lock:
        if _worker is None or not _worker._proc.is_alive():
            if not _ends_with_editor:
                # the editor ends: the worker with it at once, not when its watchdog next
                # looks (a worker still importing WeasyPrint would take a core from whatever
                # starts next for up to half a second)
                atexit.register(close_shared_worker)
                _ends_with_editor = True
            _worker = RenderWorker()
        return _worker


def start_early() -> None:
    """Start the worker now, as the editor starts (see the module docstring)."""
    shared_worker()


def supersede(owner: str) -> bool:
    """Drop the job of ``owner`` the shared worker is rendering, if it is one (a preview of a
    design edited since); whether one was dropped. Never starts a worker."""
    with _worker_lock:
        worker = _worker
    return worker is not None and worker.supersede(owner)


def close_shared_worker() -> None:
    """Stop the worker at once (the editor is closing: a render in progress is not wanted)."""
    global _worker
    with _worker_lock:
        if _worker is not None:
            _worker.close(wait=False)
            _worker = None
