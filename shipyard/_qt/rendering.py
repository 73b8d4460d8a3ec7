"""Rendering for the editor: one render worker process, used from background threads.

The live preview and File > Print both render through :func:`render_in_background`: the
job runs in a helper thread that talks to the editor's single render worker *process*
(WeasyPrint is never imported into the editor), and the result comes back to the GUI
thread through a :class:`RenderBridge` signal. The worker renders one job at a time, so
a print started during a preview waits its turn instead of mixing up their answers.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

if TYPE_CHECKING:  # the worker module (multiprocessing) loads with the first render, not at start-up
    from shipyard.core.designfile import LoadedDesign
    from shipyard.core.report import Report
    from shipyard.render.worker import RenderWorker

_worker_lock = threading.Lock()
_worker: RenderWorker | None = None


def shared_worker() -> RenderWorker:
    """One render worker process for the whole editor, started on first use."""
    global _worker

    from shipyard.render.worker import RenderWorker

    with _worker_lock:
        if _worker is None or not _worker._proc.is_alive():
            _worker = RenderWorker()
        return _worker


def close_shared_worker() -> None:
    """Stop the worker at once (the editor is closing: a render in progress is not wanted)."""
    global _worker
    with _worker_lock:
        if _worker is not None:
            _worker.close(wait=False)
            _worker = None


class RenderBridge(QObject):
    """Carries a background render's result to the GUI thread: (PDF path, error or "")."""

    done = Signal(str, str)


def render_in_background(
    bridge: RenderBridge,
    loaded: Sequence[LoadedDesign],
    out: Path,
    *,
    sheet: str = "record",
    paper: str = "a4",
    name: str = "shipyard-render",
    reports: Sequence[Report] | None = None,
    fillable: bool = False,
) -> threading.Thread:
    """Print ``loaded`` to ``out`` on the shared worker from a helper thread; report on ``bridge``.

    ``reports`` are the documents' own reports: the preview and printing show the
    evaluation the editor already made, they do not evaluate again."""
    designs = list(loaded)
    held = list(reports) if reports is not None else None

    def run() -> None:
        from shipyard.render.printing import print_loaded

        try:
            print_loaded(
                designs, out, sheet=sheet, paper=paper, workers=[shared_worker()], reports=held, fillable=fillable
            )
            bridge.done.emit(str(out), "")
        except Exception as exc:
            bridge.done.emit(str(out), str(exc))

    thread = threading.Thread(target=run, daemon=True, name=name)
    thread.start()
    return thread
