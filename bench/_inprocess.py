"""Render jobs done in the bench's own process, as a render worker does them, each timed as
the mode it is made in: the way bench_style_sheets.py and bench_dotted_rules.py compare a
speed-up with the plain way on the same jobs, in turns, with no process start between them.

Import as ``from _inprocess import JobsHere, swapping`` (a bench runs with ``bench/`` first on the path).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any


def swapping(owner: Any, attribute: str, by_mode: dict[str, Any]) -> Callable[[str], AbstractContextManager[None]]:
    """A ``switch`` for :class:`JobsHere`: inside ``switch(mode)``, ``owner.attribute`` is
    ``by_mode[mode]``; after it, what it was before."""

    @contextlib.contextmanager
    def switch(mode: str) -> Iterator[None]:
        before = getattr(owner, attribute)
        setattr(owner, attribute, by_mode[mode])
        try:
            yield
        finally:
            setattr(owner, attribute, before)

    return switch


class JobsHere:
    """Stands in for a render worker: ``worker(mode, name)`` gives an object that
    :func:`shipyard.render.printing.print_designs` can use as its one worker, whose jobs run
    here with ``switch(mode)`` entered around each. The CPU seconds of each mode are summed
    in :attr:`spent`; ``seen(mode, name, pdf)`` is told each PDF made."""

    def __init__(
        self,
        modes: tuple[str, str],
        switch: Callable[[str], AbstractContextManager[None]],
        seen: Callable[[str, str, bytes], None] = lambda mode, name, pdf: None,
    ) -> None:
        self.modes, self.switch, self.seen = modes, switch, seen
        self.spent = dict.fromkeys(modes, 0.0)

    def turns(self, round_: int) -> Iterator[str]:
        """The modes in this round's order: in turns, so the machine's drift reaches both alike."""
        yield from self.modes if round_ % 2 == 0 else reversed(self.modes)

    def worker(self, mode: str, name: str) -> Any:
        from shipyard.render import worker
        from shipyard.render.pdf import html_to_pdf
        from shipyard.render.templates import render_html

        jobs = self

        class InThisProcess:
            def render(self, job: Any, timeout: float = 60) -> Any:
                with jobs.switch(mode):
                    started = time.process_time()
                    answer = worker._run(job, render_html, html_to_pdf)
                    jobs.spent[mode] += time.process_time() - started
                if answer[0] != "ok":
                    raise SystemExit(f"{name}: {answer}")
                jobs.seen(mode, name, answer[1])
                return worker.RenderResult(answer[1], [tuple(s) for s in answer[2]], answer[3], answer[4])

            def kill(self) -> None:
                pass

        return InThisProcess()
