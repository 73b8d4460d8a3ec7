"""Render workers lent to the code under test and kept warm between tests of one process.

A print (``shipyard print`` run in the test process by :func:`tests.conftest.call_shipyard`,
an export, :func:`shipyard.render.printing.print_designs` with no workers given) and each
editor window start render workers of their own, and close them when done, as they must
in a program. In the suite, that was a worker's start (a new interpreter importing
WeasyPrint, then its first, cold page) for each such test, most of them rendering one
sheet: more than the sheet itself cost.

While a test runs, the name ``RenderWorker`` in :mod:`shipyard.render.worker` and
:mod:`shipyard.render.printing` stands for :data:`LENDER`: "starting" a worker lends one
this process kept, started by an earlier test under the same environment and working
folder (what a worker takes from its parent when it starts) and asked for the same way (a
start method named, or none); closing it gives it back warm, and a job asked of it after
that fails as on a closed pipe. A worker closed with a preview under way (an editor test
that ends as its window closes mid-preview: every test of test_editor_names) has that
preview dropped, as the editor drops one superseded, and is given back once its job has
ended (stopped if the preview outlasts :data:`DROPPED_WITHIN`, or if the worker had not
yet said it handles the signal). A worker closed while it renders a job nobody may drop
(a print), or killed (a time limit, a failed print), is gone as in a program and is never
lent again. A worker forked from the test process (the default where no Qt application
runs) also took that process's state as it was then, whatever a test had patched in it.

Tests of a worker's own life (that it stops, that its scratch folder goes, how it starts)
use the class itself, imported at their module's import, or carry the ``fresh_workers``
mark, under which nothing is lent; a test that patches code a worker runs carries it too.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

from shipyard.render.worker import RenderError, RenderJob, RenderResult, RenderWorker

KEPT_PER_ENVIRONMENT = 2  # idle workers kept for one environment (a print takes up to two)
KEPT_IN_ALL = 4  # idle workers kept in the process, the longest idle closed first
DROPPED_WITHIN = 30.0  # seconds a dropped preview may take to end before its worker is stopped


# Variables that change in the test process as tests run and that change nothing a worker
# renders: the running test's name, the terminal's size (argparse's help), and pydantic's
# plugin search, which the first command run in the process turns off (shipyard.cli).
UNREAD_BY_WORKERS = frozenset({"PYTEST_CURRENT_TEST", "COLUMNS", "LINES", "PYDANTIC_DISABLE_PLUGINS"})


def _environment(method: str | None) -> tuple[Any, ...]:
    """What a worker started now would take from this process (its environment, but for
    :data:`UNREAD_BY_WORKERS`, and working folder) and the start method asked for (None: the
    default). Of the data folder a worker reads only the fonts (fontconfig's
    ``$XDG_DATA_HOME/fonts``; its jobs name their template folders): tests giving each
    command a data folder of its own with no fonts in it share workers."""
    environ = {k: v for k, v in os.environ.items() if k not in UNREAD_BY_WORKERS}
    data = environ.get("XDG_DATA_HOME")
    if data and not (Path(data) / "fonts").exists():
        environ["XDG_DATA_HOME"] = "(a folder without fonts)"
    return (method, str(Path.cwd()), tuple(sorted(environ.items())))


class KeptWorker(RenderWorker):
    """A real render worker whose :meth:`close` gives it back to :data:`LENDER` while it lives."""

    def __init__(self, environment: tuple[Any, ...], method: str | None = None) -> None:
        super().__init__(method)
        self.environment = environment
        self.closed = False  # closed by its borrower and not lent since

    def _render(self, job: RenderJob, timeout: float) -> RenderResult:
        """A job asked of it once closed (one that waited behind the job under way as a
        window closed) fails, as on a program's closed pipe, rather than run on a worker
        that may by then be another test's."""
        if self.closed:
            raise RenderError(f"rendering {job.template} was asked of a render worker already closed")
        return super()._render(job, timeout)

    def close(self, wait: bool = True) -> None:
        if self.closed:
            return  # closed twice: given back, or stopped, the first time
        self.closed = True
        if not LENDER.give_back(self):
            super().close(wait)

    def stop(self) -> None:
        """Stop it for good (the end of the session, or one kept too many)."""
        super().close(wait=False)


class Lender:
    """Stands for the ``RenderWorker`` class where the code under test starts its workers:
    calling it lends a kept worker (see the module docstring); every other attribute is the
    class's own (``RenderWorker.adopt`` of the editor's early worker makes a real one)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._idle: list[KeptWorker] = []  # the longest idle first
        self.started = 0  # workers started to be lent, for the suite's own test of this
        self._ended = False  # the session is over: nothing more is kept
        self._dropping: set[KeptWorker] = set()  # closed mid-preview, kept once the preview ends

    def __call__(self, method: str | None = None) -> RenderWorker:
        environment = _environment(method)
        with self._lock:
            for worker in reversed(self._idle):  # the last given back first: the warmest
                if worker.environment == environment and worker.is_alive() and not worker._lock.locked():
                    self._idle.remove(worker)
                    worker.closed = False
                    return worker
            self.started += 1
        return KeptWorker(environment, method)

    def __getattr__(self, name: str) -> Any:
        return getattr(RenderWorker, name)

    def give_back(self, worker: KeptWorker) -> bool:
        """Keep ``worker`` for the next test if it still runs; whether it was taken (kept, or
        kept once its dropped preview ends). One closed with a job under way that nobody may
        drop (a print) is stopped, as a program's is: the job's thread then fails as it would
        there, and no later test waits behind it or shares it."""
        if not worker.is_alive():
            return False
        if worker._lock.locked():
            return self._drop_then_keep(worker)
        return self._keep(worker)

    def _drop_then_keep(self, worker: KeptWorker) -> bool:
        """A worker closed mid-job: if the job is a preview (it has an owner, and the worker
        says it handles the signal), it is signalled to drop it, and the worker is kept, from
        a thread of its own, once the job's thread has let go of it (stopped if that takes
        longer than :data:`DROPPED_WITHIN`); whether it was signalled."""
        with worker._owner_lock:
            owner = worker._owner
        if not owner or not worker.supersede(owner):
            return False
        with self._lock:
            if self._ended:
                return False
            self._dropping.add(worker)

        def keep_when_free() -> None:
            free = worker._lock.acquire(timeout=DROPPED_WITHIN)
            if free:
                worker._lock.release()  # a job waiting behind it now fails at once: the worker is closed
            with self._lock:
                self._dropping.discard(worker)
            if not (free and worker.is_alive() and self._keep(worker)):
                worker.stop()

        threading.Thread(target=keep_when_free, name="shipyard-kept-worker", daemon=True).start()
        return True

    def _keep(self, worker: KeptWorker) -> bool:
        """Put an idle, living ``worker`` among the kept ones, stopping any kept too many."""
        with self._lock:
            if self._ended:
                return False
            self._idle.append(worker)  # once: a worker is closed once a lend (KeptWorker.close)
            same = [w for w in self._idle if w.environment == worker.environment]
            extra = same[: max(0, len(same) - KEPT_PER_ENVIRONMENT)]
            rest = [w for w in self._idle if not any(w is e for e in extra)]
            extra += rest[: max(0, len(rest) - KEPT_IN_ALL)]
            self._idle = [w for w in self._idle if not any(w is e for e in extra)]
        for w in extra:
            w.stop()
        return True

    def stop_all(self) -> None:
        """The session's end: stop every kept worker, and those still dropping a preview."""
        with self._lock:
            self._ended = True
            idle, self._idle = self._idle, []
            dropping, self._dropping = list(self._dropping), set()
        for w in idle + dropping:
            w.stop()


LENDER = Lender()
