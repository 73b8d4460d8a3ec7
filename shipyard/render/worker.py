"""Render jobs in a separate process with a time limit.

Why a process: a runaway template (nested loops over huge ranges) or a crash inside the
renderer's C libraries must never hang or kill the command line or the editor. The
parent waits with a deadline and kills the worker when it passes, and a worker may not
use more than MEMORY_LIMIT of address space (a template asking for a 10 GB string stops
with an error instead of exhausting the machine before the deadline). A worker imports
WeasyPrint as soon as it starts, so the import overlaps with the parent's own work.
One worker renders one job at a time; several threads may share it (the editor's
previews and its printing), each waiting for its turn.

A worker stays warm: once WeasyPrint is imported it renders a one-line page at once (the
first render in a process pays for fontconfig, Pango's font map and the user-agent
stylesheet), and every job reuses one font configuration. A job that is no longer wanted
(the live preview of a design edited since) is dropped mid-render with
:meth:`RenderWorker.supersede`: a signal tells the worker, which drops the job, answers
"superseded" and takes the next job, still warm; a job of another owner (a print) is never
interrupted. While the HTML is laid out (most of a render) the job stops at once, the
signal's handler raising in the layout's own code (a speed-up, shipyard._speedups; without
it the job stops at its next step): WeasyPrint and the parsers it lays
out with hold no lock a stopped job could leave held, and once a worker has rendered a
page all their lazy imports are done. Anywhere else (the template, where Jinja's caches
take locks; the PDF being written, where caches are written) the signal is only noted
and the job stops at its next step.

A worker dies with its parent, however the parent ends (``kill -9`` included): a forked
worker first closes the pipe ends it inherited (its parent's, and other workers'), so a
parent that is gone means end-of-file or a broken pipe, never a write blocked forever;
and a watchdog thread ends the worker when its parent process is no longer its parent
(a job still rendering). Not PR_SET_PDEATHSIG: it fires when the *thread* that started
the worker ends, and the editor starts its worker from a preview thread.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import signal
import sys
import threading
import time
import weakref
from collections.abc import Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from shipyard._speedups import collection_paused, freeze_survivors, layout_stops_at_once
from shipyard.render.cardfit import CardFit
from shipyard.render.scratch import Scratch, remove_scratch
from shipyard.render.workercommand import PARENT_ENV, limit_address_space, watch_parent, worker_command

DEFAULT_TIMEOUT = 60.0
# The time limit a print may be given, in seconds (the --timeout option's range).
MIN_TIMEOUT, MAX_TIMEOUT = 1.0, 3600.0
# Address space one worker may use: far above what a large fleet book needs in one worker,
# so only a runaway template reaches it.
MEMORY_LIMIT = 3 * 2**30
# A record print of this many designs or more is split over several workers.
PARALLEL_FROM = 8


# Sheets printed as one job whatever the number of designs (shipyard.render.printing): a second
# worker would import WeasyPrint and never get a job.
ONE_JOB_SHEETS = frozenset({"cards", "compare", "tokens"})


def workers_wanted(sheet: str, designs: int, cpus: int | None) -> int:
    """How many workers a print should start: one for a few record sheets or a sheet printed
    as one job (:data:`ONE_JOB_SHEETS`), else up to two."""
    if (sheet == "record" and designs < PARALLEL_FROM) or sheet in ONE_JOB_SHEETS:
        return 1
    return max(1, min(2, cpus or 1, designs))


def check_timeout(seconds: float) -> float:
    """``seconds`` if it is a time limit a print may have; ValueError saying the range if not (NaN too)."""
    if not MIN_TIMEOUT <= seconds <= MAX_TIMEOUT:
        raise ValueError(f"the time limit must be from {MIN_TIMEOUT:g} to {MAX_TIMEOUT:g} seconds, not {seconds:g}")
    return seconds


class RenderError(Exception):
    """Printing failed; the message says why in words a user can act on."""


class RenderSuperseded(RenderError):
    """The job was dropped before it finished: its owner asked for a newer one instead."""


class _Superseded(BaseException):
    """Raised at a step of a worker's job after the supersede signal (a BaseException: no template or
    renderer code catching ``Exception`` swallows it)."""


SUPERSEDE_SIGNAL = signal.SIGUSR1


@dataclass(frozen=True)
class RenderJob:
    template: str
    dirs: list[str]
    context: dict[str, Any]
    roots: list[str] = field(default_factory=list)
    fillable: bool = False  # tick boxes and write-ins as form fields
    owner: str = ""  # who may supersede it (RenderWorker.supersede); "" for none
    draft: bool = False  # a preview, shown and thrown away: made with less work (shipyard.render.pdf)


@dataclass(frozen=True)
class RenderResult:
    pdf: bytes
    sizes: list[tuple[float, float]]
    anchors: dict[str, int] = field(default_factory=dict)
    fields: int = 0  # form fields in the PDF

    @property
    def pages(self) -> int:
        return len(self.sizes)


def _explain(exc: BaseException) -> str:
    from shipyard.render.pdf import RefusedResource
    from shipyard.render.templates import TemplateProblem

    if isinstance(exc, MemoryError):
        return f"the job needed more than the renderer's {MEMORY_LIMIT // 2**30} GiB of memory; nothing was written"
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, RefusedResource | TemplateProblem):
            return str(seen)
        seen = seen.__cause__ or seen.__context__
    return f"the renderer failed: {type(exc).__name__}: {exc}"


# The parent's ends of the pipes to forked workers: a worker forked later inherits them and
# closes them first thing (see the module docstring).
_parent_ends: weakref.WeakSet[Any] = weakref.WeakSet()
_watch_parent = watch_parent  # shared with the picture worker (shipyard.render.workercommand)


def _serve(conn: Connection, parent: int | None = None) -> None:
    """Worker main loop: import the renderer, then render jobs until told to stop.

    If the renderer cannot even be imported (a missing system library), every job is
    answered with that reason instead of the worker dying unexplained. A parent that is
    gone ends the loop (end-of-file, a broken pipe, or the watchdog).
    """
    for inherited in list(_parent_ends):
        inherited.close()
    from shipyard.core import cachefile

    cachefile.quiet()  # the process that started this one uses the same cache folder, and says what is wrong with it
    scratch = Scratch()
    _watch_parent(os.getppid() if parent is None else parent, scratch.remove)
    try:
        _serve_jobs(conn, scratch)
    except (BrokenPipeError, ConnectionError, EOFError):
        return  # the parent went away while we answered
    finally:
        scratch.remove()


_in_job = False  # the worker is inside a job: the supersede signal drops it
_pending = False  # the signal came between jobs: it is for the job waiting in the pipe
_warm = False  # the worker has rendered a page: WeasyPrint's lazy imports are done
_laying_out = False  # a job that may be dropped is being laid out: the signal stops it at once


def _on_supersede(_signum: int, _frame: object) -> None:
    """While a job is laid out, stop it here; else only note it, for the job to check at its
    next step (an exception raised at any bytecode of a template could leave a lock of
    Jinja's caches held, hanging the next job)."""
    global _pending, _laying_out
    if _laying_out:
        _laying_out = False
        raise _Superseded
    _pending = True


@contextlib.contextmanager
def _stoppable() -> Iterator[None]:
    """Around the layout of a job its owner may drop (see the module docstring)."""
    global _laying_out
    _laying_out = _warm and layout_stops_at_once()
    try:
        yield
    finally:
        _laying_out = False


def _check_superseded() -> None:
    global _pending
    if _pending and _in_job:
        _pending = False
        raise _Superseded


WARM_UP_HTML = "<html lang=en><title>warm</title><style>body{font:10pt serif}</style><p>Shipyard <b>1</b></p>"


def _serve_jobs(conn: Connection, scratch: Scratch | None = None) -> None:
    with contextlib.suppress(ValueError, OSError):  # not the main thread: no superseding, jobs still run
        signal.signal(SUPERSEDE_SIGNAL, _on_supersede)
    # the parent may signal from now on (until now the signal would kill), and knows the scratch folder
    conn.send(("ready", None if scratch is None else scratch.name))
    if scratch is not None:
        scratch.make()
    limit_address_space(MEMORY_LIMIT)
    failure = ""
    try:
        from shipyard.render.pdf import html_to_pdf, warm_up
        from shipyard.render.templates import render_html
    except BaseException as exc:
        failure = f"cannot start the PDF renderer: {exc} (see README: system libraries for PDF sheets)"
    else:
        # What the import made (WeasyPrint's modules, fontTools' tables: most of a worker's
        # objects) lives as long as the worker: out of the collector's full passes.
        freeze_survivors()
        if not conn.poll():  # idle: warm up; a job already waiting warms the worker itself
            with contextlib.suppress(Exception):  # a failed warm-up shows again, explained, in the first job
                warm_up(WARM_UP_HTML)
                global _warm
                _warm = True
    global _pending
    while True:
        try:
            message = conn.recv()
        except EOFError:
            return
        if message is None:
            return
        job, stale = message  # stale: a signal meant for the job before may be pending
        if stale:
            _pending = False
        if failure:
            conn.send(("error", failure))
            continue
        if _pending and job.owner:  # superseded before it started (still in the pipe)
            _pending = False
            conn.send(("superseded",))
            continue
        with collection_paused():  # until the answer is sent: the collection waits for that
            try:
                answer = _run(job, render_html, html_to_pdf)
            except _Superseded:  # the signal came as the job's answer was made
                answer = ("superseded",)
            conn.send(answer)


def _run(job: RenderJob, render_html: Any, html_to_pdf: Any) -> tuple[Any, ...]:
    """One job's answer: ("ok", ...), ("error", why, spent) or ("superseded",). ``spent``: the
    job ran out of memory, and the C libraries it was in may be left in any state: its
    parent stops the worker rather than give it another job."""
    global _in_job
    _in_job = True
    try:
        dirs = [Path(d) for d in job.dirs]
        if job.owner:
            _check_superseded()
        html = render_html(dirs, job.template, job.context, job.fillable)
        check = _check_superseded if job.owner else None
        if check is not None:
            check()
        roots = [Path(r) for r in job.roots]
        stoppable = _stoppable if check else None

        def drawn(splits: dict[int, list[int]]) -> str:  # the sheet drawn again, its cards cut as the layout asks
            return str(render_html(dirs, job.template, {**job.context, "card_splits": splits}, job.fillable))

        pdf, sizes, anchors, fields = html_to_pdf(
            html, dirs[0], roots, job.fillable, check, job.draft, stoppable, CardFit(drawn)
        )
        return ("ok", pdf, sizes, anchors, fields)
    except _Superseded:
        return ("superseded",)
    except BaseException as exc:
        return ("error", _explain(exc), isinstance(exc, MemoryError))
    finally:
        _in_job = False
        global _warm
        _warm = True  # whatever the job did, WeasyPrint has been through a layout


def default_start_method() -> str:
    """Fork where it is safe (a plain command line on Linux), else a fresh interpreter.

    A program with a GUI must not fork (Qt's threads), and multiprocessing's "spawn"
    re-imports the caller's main script, which breaks scripts and frozen bundles; so
    such programs get a new ``python -m shipyard.render.worker`` over a socket pair.
    """
    if not sys.platform.startswith("linux"):
        return "subprocess"
    qtcore = sys.modules.get("PySide6.QtCore")
    if qtcore is not None and qtcore.QCoreApplication.instance() is not None:
        return "subprocess"  # a running Qt application has threads: never fork it
    return "fork"


class _Subprocess:
    """A worker process started as ``python -m shipyard.render.worker FD``."""

    def __init__(
        self, env_extra: dict[str, str] | None = None, stderr: Any = None, command: Any = worker_command
    ) -> None:
        import socket
        import subprocess

        parent, child = socket.socketpair()
        cmd = command(child.fileno())
        env = {**os.environ, PARENT_ENV: str(os.getpid()), **(env_extra or {})}  # the parent: for the watchdog
        self.popen = subprocess.Popen(cmd, pass_fds=[child.fileno()], stdin=subprocess.DEVNULL, stderr=stderr, env=env)
        child.close()
        self.sock = parent
        self.conn = Connection(parent.detach())

    def is_alive(self) -> bool:
        return self.popen.poll() is None

    @property
    def pid(self) -> int:
        return self.popen.pid

    def kill(self) -> None:
        self.popen.kill()

    def join(self, timeout: float | None = None) -> None:
        import subprocess

        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout)

    @property
    def exitcode(self) -> int | None:
        return self.popen.poll()


class _Started:
    """A worker started by :func:`shipyard.render.earlyworker.spawn_worker`: its process, by id."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self._status: int | None = None

    def _reap(self) -> bool:
        """Whether the process has ended (its exit status then kept)."""
        if self._status is None:
            try:
                done, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:
                self._status = -1  # reaped elsewhere: it is gone
                return True
            if done:
                self._status = os.waitstatus_to_exitcode(status)
        return self._status is not None

    def is_alive(self) -> bool:
        return not self._reap()

    def kill(self) -> None:
        if self.is_alive():
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)

    def join(self, timeout: float | None = None) -> None:
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self._reap() and (deadline is None or time.monotonic() < deadline):
            time.sleep(0.01)

    @property
    def exitcode(self) -> int | None:
        self._reap()
        return self._status


class RenderWorker:
    @classmethod
    def adopt(cls, pid: int, sock: Any) -> RenderWorker:
        """The worker :func:`shipyard.render.earlyworker.spawn_worker` started as ``pid``, on ``sock``."""
        worker = cls.__new__(cls)
        worker._setup()
        worker._proc = _Started(pid)
        worker._conn = Connection(sock.detach())
        return worker

    def __init__(self, method: str | None = None) -> None:
        method = method or default_start_method()
        self._setup()
        if method == "subprocess":
            proc = _Subprocess()
            self._conn: Any = proc.conn
            self._proc: Any = proc
            return
        ctx: Any = mp.get_context(method)
        self._conn, child = ctx.Pipe()
        _parent_ends.add(self._conn)
        self._proc = ctx.Process(target=_serve, args=(child, os.getpid()), daemon=True, name="shipyard-render")
        self._proc.start()
        child.close()

    def _setup(self) -> None:
        self._lock = threading.Lock()  # one job at a time on the pipe, whoever sends it
        self._owner_lock = threading.Lock()  # "whose job is in the worker" against superseding it
        self._owner: str | None = None
        self._ready = False  # the worker said it handles the supersede signal
        self._signalled = False  # a supersede signal was sent during the job in the worker
        self._stale = False  # ... and the job finished anyway: the worker may hold it pending
        self._scratch: str | None = None  # the worker's folder for its temporary files (from its greeting)

    def _greeted(self, msg: Any) -> None:
        """The worker's first message: it handles the supersede signal from now on, and
        names its scratch folder."""
        with self._owner_lock:
            self._ready = True
        if len(msg) > 1 and isinstance(msg[1], str):
            self._scratch = msg[1]

    def is_alive(self) -> bool:
        """Whether the worker's process still runs (not killed at a time limit, not crashed)."""
        return bool(self._proc.is_alive())

    def render(self, job: RenderJob, timeout: float = DEFAULT_TIMEOUT) -> RenderResult:
        with self._lock:
            return self._render(job, timeout)

    def _render(self, job: RenderJob, timeout: float) -> RenderResult:
        with self._owner_lock:
            self._owner = job.owner
            stale, self._stale = self._stale, False
        msg: Any = None
        try:
            msg = self._exchange(job, stale, timeout)
        finally:
            with self._owner_lock:  # from here on no supersede signal is sent for this job
                self._owner = None
                self._stale = self._signalled and msg is not None and msg[0] != "superseded"
                self._signalled = False
        if msg[0] == "superseded":
            raise RenderSuperseded(f"rendering {job.template} was dropped for a newer one")
        if msg[0] == "error":
            if len(msg) > 2 and msg[2]:  # out of memory: never given another job
                self.kill()
            raise RenderError(msg[1])
        return RenderResult(msg[1], [tuple(s) for s in msg[2]], msg[3], msg[4])

    def _exchange(self, job: RenderJob, stale: bool, timeout: float) -> Any:
        try:
            self._conn.send((job, stale))
        except (BrokenPipeError, OSError):
            raise RenderError(self._crashed()) from None
        deadline = time.monotonic() + timeout
        while True:
            if not self._conn.poll(max(0.0, deadline - time.monotonic())):
                self.kill()
                raise RenderError(
                    f"rendering {job.template} stopped after the {timeout:g} s time limit: "
                    "the template may loop without end, or the job is too large"
                )
            try:
                msg = self._conn.recv()
            except (EOFError, OSError):
                raise RenderError(self._crashed()) from None
            if msg[0] != "ready":
                return msg
            self._greeted(msg)

    def supersede(self, owner: str) -> bool:
        """Drop the job of ``owner`` the worker is rendering, if it is one (its ``render``
        raises :class:`RenderSuperseded` soon after); whether a job was signalled.

        Safe against the job finishing meanwhile: the owner is read and the signal sent
        under one lock, which the rendering thread takes before it sends another job. A
        signal that reaches the worker between jobs drops the job waiting in the pipe
        (the one it was sent for), unless that job finished first: then the next job is
        sent marked "stale" and the worker forgets the signal (a signal is delivered
        before the worker reads anything more from its pipe).
        """
        if not owner:
            return False
        with self._owner_lock:
            if not self._ready or self._owner != owner or not self._proc.is_alive():
                return False
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(self._proc.pid, SUPERSEDE_SIGNAL)
                self._signalled = True
                return True
        return False

    def _crashed(self) -> str:
        self._proc.join(1)
        self._remove_scratch()
        return f"the PDF renderer crashed (exit code {self._proc.exitcode}); nothing was written"

    def kill(self) -> None:
        if self._proc.is_alive():
            self._proc.kill()
        self._proc.join(2)
        self._remove_scratch()

    def _remove_scratch(self) -> None:
        """Once the worker has ended: remove its scratch folder, which a worker that was
        stopped could not (its greeting read first where no job read it)."""
        if self._proc.is_alive():
            return
        with contextlib.suppress(OSError, EOFError, ValueError):
            while self._scratch is None and self._conn.poll(0):
                msg = self._conn.recv()
                if isinstance(msg, tuple) and msg and msg[0] == "ready":
                    self._greeted(msg)
        remove_scratch(self._scratch)
        self._scratch = None

    def close(self, wait: bool = True) -> None:
        """Stop the worker: after its current job (``wait``), or at once."""
        if wait and self._proc.is_alive():
            with contextlib.suppress(BrokenPipeError, OSError):
                self._conn.send(None)
            self._proc.join(5)
        self.kill()
        self._conn.close()

    def __enter__(self) -> RenderWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def serve_fd(fd: int) -> None:
    """Entry point of a worker started as a subprocess: serve jobs on an inherited socket."""
    parent = os.environ.get(PARENT_ENV, "")
    _serve(Connection(fd), int(parent) if parent.isdigit() else None)


if __name__ == "__main__":
    serve_fd(int(sys.argv[1]))
