"""Running a plug-in's code: its failures named, its output kept off stdout, its time bounded.

A ruleset or capability installed from another distribution is a stranger's code that
Shipyard runs at three moments: when it is found (its parent packages are imported to
find its folder), when it is imported, and whenever one of its hooks is called (``derive``
on every report). Everything that code does is held here, in one place:

- whatever it raises, ``SystemExit`` and ``KeyboardInterrupt`` included, becomes an
  :class:`~shipyard.core.errors.InputError` naming the plug-in, the hook (or the import)
  and the file and line in the plug-in where it happened: the plug-in's fault is the
  user's input problem (exit status 2), never "this is a bug" blaming Shipyard, never a
  silent end of the process. An ``InputError`` the plug-in raises on purpose (``resolve``
  refusing an unknown name) passes as it is;
- what it prints on the main thread goes to stderr: a command that promises JSON
  (``check --json``, ``schema``, ``rulesets --json``) prints only JSON on stdout;
- it gets :func:`time_limit` seconds (``SHIPYARD_PLUGIN_TIMEOUT``, default
  :data:`DEFAULT_TIMEOUT`): a plug-in that loops is stopped with a message naming it
  instead of hanging the command. The limit is a ``SIGALRM`` timer, so it holds where
  Python can deliver a signal: in the main thread (every command; the editor's own thread)
  and while Python code runs. Code on another thread (the editor's background evaluation)
  and a loop inside one C call are not interrupted; the editor's background evaluation
  is then never answered and the design's tab keeps its last report (docs/rulesets.md).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import traceback
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext, redirect_stdout
from pathlib import Path
from types import FrameType, TracebackType
from typing import Any

from shipyard.core.errors import InputError

DEFAULT_TIMEOUT = 20.0
TIMEOUT_ENV = "SHIPYARD_PLUGIN_TIMEOUT"


_signalled = False  # a signal handler of Shipyard's raised the KeyboardInterrupt now on its way


def stopped_by_signal() -> None:
    """Say, from a signal handler of Shipyard's (Ctrl-C, SIGTERM) just before it raises
    ``KeyboardInterrupt``, that the interrupt is the person's or the system's: it passes
    through every guard and stops the command, never blamed on the plug-in it interrupted.
    A plug-in that raises ``KeyboardInterrupt`` itself is still its own error."""
    global _signalled
    _signalled = True


class PluginTimeout(BaseException):
    """Raised in the main thread when a plug-in's code runs past its time limit.

    A ``BaseException``, like ``KeyboardInterrupt``: the plug-in's own ``except Exception``
    does not swallow it."""


def time_limit() -> float:
    """The seconds a plug-in's import or one call of a hook may take (``SHIPYARD_PLUGIN_TIMEOUT``)."""
    text = os.environ.get(TIMEOUT_ENV, "")
    try:
        seconds = float(text) if text else DEFAULT_TIMEOUT
    except ValueError:
        return DEFAULT_TIMEOUT
    return seconds if 0 < seconds < 1e6 else DEFAULT_TIMEOUT


_timer = threading.local()


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    raise PluginTimeout


@contextmanager
def _bounded(seconds: float) -> Iterator[bool]:
    """A ``SIGALRM`` timer of ``seconds`` around the block, when one can be had: in the main
    thread, on a system with ``setitimer``, no other handler of ours or anyone's already set.
    Yields whether the block is bounded. A block inside a bounded one is bounded by it."""
    if (
        getattr(_timer, "active", False)
        or threading.current_thread() is not threading.main_thread()
        or not hasattr(signal, "setitimer")
        or signal.getsignal(signal.SIGALRM) not in (signal.SIG_DFL, None)
    ):
        yield getattr(_timer, "active", False)
        return
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    _timer.active = True
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield True
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        _timer.active = False
        signal.signal(signal.SIGALRM, previous)


@contextmanager
def _fd_1_to_stderr(main: bool) -> Iterator[None]:
    """What the plug-in writes past ``sys.stdout`` (``os.write(1, ...)``, a C library, a child
    process) goes to stderr as well: the process's file descriptor 1 points at stderr's for
    the while. Main thread only, as the swap of ``sys.stdout``; no stdout at all, no change."""
    saved = None
    if main:
        try:
            saved = os.dup(1)
            os.dup2(2, 1)
        except OSError:  # stdout or stderr closed: nothing to keep clean, or nowhere to send it
            if saved is not None:
                os.close(saved)
            saved = None
    try:
        yield
    finally:
        if saved is not None:
            os.dup2(saved, 1)
            os.close(saved)


@contextmanager
def plugin_code(what: str, file: str | Path | None = None, package: str | None = None) -> Iterator[None]:
    """Run a plug-in's code: see the module's docstring. ``what`` names the plug-in and what
    it was doing ("ruleset 'x': hook 'derive'"), ``file`` the file blamed when the failure's
    own place is not in the plug-in, ``package`` the plug-in's package (a failure is placed
    at the deepest line of the traceback inside it)."""
    from shipyard.core.termtext import shorten

    seconds = time_limit()
    # stdout is swapped for the whole process: only the main thread does it (two threads
    # swapping and restoring it at once could leave it pointing at stderr for good)
    main = threading.current_thread() is threading.main_thread()
    try:
        with redirect_stdout(sys.stderr) if main else nullcontext(), _fd_1_to_stderr(main), _bounded(seconds):
            yield
    except InputError:
        raise
    except PluginTimeout as exc:
        where, line = _blame(exc.__traceback__, package)
        raise InputError.single(
            f"{what}: did not finish within {seconds:g} s and was stopped"
            + (f" at {where}:{line}" if where else "")
            + f" (a plug-in's import or hook that loops; {TIMEOUT_ENV} sets the limit)",
            file=None if where else file,
        ) from None
    except BaseException as exc:  # a broken plug-in is the user's input problem, never our end
        if isinstance(exc, KeyboardInterrupt) and _signalled:  # Ctrl-C or SIGTERM: it stops the command
            raise
        detail = shorten(str(exc), 300)
        where, line = _blame(exc.__traceback__, package)
        # The plug-in's place goes in the message: a caller may place the error at the input
        # it was reading (a design file's line), and both are worth knowing.
        raised = f" (raised at {where}:{line})" if where else ""
        raise InputError.single(
            f"{what}: {type(exc).__name__}" + (f": {detail}" if detail else "") + raised,
            file=None if where else file,
        ) from None


def _blame(tb: TracebackType | None, package: str | None) -> tuple[str | None, int | None]:
    """The deepest place of the traceback inside ``package``'s files (its folder), if any."""
    if tb is None or not package:
        return None, None
    module = sys.modules.get(package.split(".")[0])
    roots = [str(Path(p).resolve()) for p in getattr(module, "__path__", [])] if module is not None else []
    top = package.split(".")[0].replace(".", os.sep)
    found: tuple[str | None, int | None] = (None, None)
    for frame, line in traceback.walk_tb(tb):
        name = frame.f_code.co_filename
        resolved = str(Path(name).resolve()) if name and not name.startswith("<") else ""
        if (roots and any(resolved.startswith(r + os.sep) for r in roots)) or (
            not roots and f"{os.sep}{top}{os.sep}" in resolved
        ):
            found = (name, line)
    return found


def guarded(what: str, function: Any, package: str, file: str | Path | None = None) -> Any:
    """``function`` (a plug-in's), called under :func:`plugin_code` each time."""

    def call(*args: Any, **kwargs: Any) -> Any:
        with plugin_code(what, file, package):
            return function(*args, **kwargs)

    call.__wrapped__ = function  # type: ignore[attr-defined]  # inspect.signature sees the plug-in's own
    call.__name__ = getattr(function, "__name__", "hook")
    call.__doc__ = getattr(function, "__doc__", None)
    return call


class GuardedApply:
    """A plug-in's rule type's ``apply``, run under :func:`plugin_code` each time a rule of it runs.

    A class, not a closure: a catalog's bound rules are kept in the catalog cache, and this
    pickles as its three parts (the plug-in's function by its name, as before)."""

    __slots__ = ("apply", "package", "what")

    def __init__(self, what: str, package: str, apply: Any) -> None:
        self.what, self.package, self.apply = what, package, apply

    def __call__(self, ctx: Any, params: Any) -> Any:
        with plugin_code(f"{self.what}, rule {getattr(params, 'id', '?')!r}", package=self.package):
            return self.apply(ctx, params)

    def __reduce__(self) -> tuple[Any, ...]:
        return (GuardedApply, (self.what, self.package, self.apply))
