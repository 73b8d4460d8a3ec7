"""Rendering for the editor: one render worker process, used from background threads.

The live preview and File > Print both render through :func:`render_in_background`: the
job runs in a helper thread that talks to the editor's single render worker *process*
(WeasyPrint is never imported into the editor), and the result comes back to the GUI
thread through a :class:`RenderBridge` signal. The worker renders one job at a time, so
a print started during a preview waits its turn instead of mixing up their answers; it is
held by :mod:`shipyard._qt.preview.sharedworker` (Qt-free, so the editor starts it first thing).

A render may outlive whoever asked for it (the tab closed, the editor quit mid-render):
the helper thread then answers through the bridge's gate, which is shut before Qt deletes
the bridge, so it never emits on a deleted object (PySide's "Signal source has been
deleted" from the render thread).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from shipyard._qt.preview.sharedworker import close_shared_worker, shared_worker, supersede

if TYPE_CHECKING:
    from shipyard.core.designfile import LoadedDesign
    from shipyard.core.report import Report
    from shipyard.render.tokens import TokenSpec

__all__ = ["RenderBridge", "close_shared_worker", "render_in_background", "shared_worker", "supersede"]


class _Gate:
    """Whether a bridge may still be emitted on; the lock makes "still open, emit" one step
    against "shut" (the GUI thread shuts it before the bridge's C++ object goes)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.open = True

    def shut(self) -> None:
        with self.lock:
            self.open = False


class RenderBridge(QObject):
    """Carries a background render's result to the GUI thread: (PDF path, error or ""); both
    empty when the render was superseded (dropped for a newer one: nothing to show or say).

    Give it a parent (the panel that shows the result) so it goes with it; its gate shuts
    when it is destroyed, however that happens (a closed tab, the window deleted, PySide
    deleting what is left as Python exits), and on :meth:`close`.
    """

    done = Signal(str, str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        gate = self._gate = _Gate()
        self.destroyed.connect(lambda *_: gate.shut())  # runs before the C++ object is gone

    def close(self) -> None:
        """Deliver nothing more: a render still running finishes unheard."""
        self._gate.shut()
        with contextlib.suppress(RuntimeError, TypeError):  # deleted, or nothing connected
            self.done.disconnect()

    @property
    def closed(self) -> bool:
        return not self._gate.open

    def send(self, path: str, error: str) -> bool:
        """Emit ``done`` from any thread unless the bridge is closed or deleted; whether it was."""
        return self.deliver(lambda: self.done.emit(path, error))

    def deliver(self, emit: Callable[[], None]) -> bool:
        """Run ``emit`` (a signal of this bridge emitted, from any thread) unless the bridge is
        closed or deleted; whether it ran."""
        gate = self._gate
        with gate.lock:
            if not gate.open:
                return False
            try:
                emit()
            except RuntimeError:  # deleted without its destroyed signal reaching the gate
                gate.open = False
                return False
            return True


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
    owner: str = "",
    token: TokenSpec | None = None,
    draft: bool = False,
) -> threading.Thread:
    """Print ``loaded`` to ``out`` on the shared worker from a helper thread; report on ``bridge``
    (``token``: the tokens sheet's TokenSpec).

    ``reports`` are the documents' own reports: the preview and printing show the
    evaluation the editor already made, they do not evaluate again. ``owner``: who may
    :func:`supersede` the render; ``draft``: a sheet to look at, not to keep (the preview's)."""
    designs = list(loaded)
    held = list(reports) if reports is not None else None

    def run() -> None:
        from shipyard.render.printing import print_loaded
        from shipyard.render.worker import RenderSuperseded

        path, error = str(out), ""
        try:
            print_loaded(
                designs,
                out,
                sheet=sheet,
                paper=paper,
                workers=[shared_worker()],
                reports=held,
                fillable=fillable,
                owner=owner,
                token=token,
                draft=draft,
            )
        except RenderSuperseded:
            path = ""
        except Exception as exc:
            error = str(exc)
        bridge.send(path, error)

    thread = threading.Thread(target=run, daemon=True, name=name)
    thread.start()
    return thread
