"""The engine's fix proposals for an open design, found between the user's edits.

:func:`shipyard.core.fixes.search` costs up to ~160 ms for the worst sample: too much for
an edit (the panels must follow a keystroke within a frame), but a "Fix..." button beside
a finding must know beforehand whether some proposal cures that finding. So the search
runs when the design has been left alone for a moment (``IDLE_MS`` after the last edit),
in slices of at most ``SLICE_MS`` between events, and starts again on the next edit; a
click before it is done finishes it at once. Nothing is computed here: it only schedules
the engine's search and keeps what it returned for the design it was run on.
"""

from __future__ import annotations

import time
from collections.abc import Generator
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from shipyard._qt.document.document import Document
from shipyard._qt.widgets import clock
from shipyard.core.errors import InputError
from shipyard.core.findings import Finding
from shipyard.core.fixes import Proposal, search

IDLE_MS = 250
SLICE_MS = 6
LIMIT = 5


class FixSearch(QObject):
    """Proposals for ``doc``'s current design; ``ready`` when they are known."""

    ready = Signal()

    def __init__(self, doc: Document, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.proposals: list[Proposal] | None = None  # None: not known yet for this design
        self._state: Any = None  # the document's state (design, preset) the proposals are for
        self._steps: Generator[None, None, list[Proposal]] | None = None
        self._idle = clock.timer(self, IDLE_MS)
        self._idle.timeout.connect(self._begin)
        self._slices = QTimer(self, interval=0)
        self._slices.timeout.connect(self._step)
        doc.changed.connect(self.restart)
        self.restart()

    def restart(self) -> None:
        """The design changed: what was found no longer holds; search again once it rests."""
        state = self.doc.state
        if state is self._state:
            return
        self._slices.stop()
        self._steps, self._state, self.proposals = None, state, None
        if not any(f.severity.value == "error" for f in self.doc.report.findings):
            self._idle.stop()
            self.proposals = []  # nothing to cure: no search
            self.ready.emit()
            return
        self._idle.start()

    @property
    def busy(self) -> bool:
        return self.proposals is None

    def _begin(self) -> None:
        if self.proposals is None and self._steps is None:
            self._steps = search(self.doc.design, self.doc.catalog, limit=LIMIT)
            self._slices.start()

    def _step(self) -> None:
        until = time.perf_counter() + SLICE_MS / 1000
        while self._steps is not None and time.perf_counter() < until:
            self._advance()

    def _advance(self) -> None:
        assert self._steps is not None
        try:
            next(self._steps)
        except StopIteration as done:
            self._slices.stop()
            self._steps = None
            self.proposals = list(done.value)
            self.ready.emit()
        except InputError:  # the ruleset's plug-in failed on a design tried (core.plugincode): no proposals
            self._slices.stop()
            self._steps = None
            self.proposals = []
            self.ready.emit()

    def now(self) -> list[Proposal]:
        """The proposals for the design as it is, finishing the search first (a click)."""
        self.restart()
        if self.proposals is None:
            self._idle.stop()
            self._begin()
            while self._steps is not None:
                self._advance()
        assert self.proposals is not None
        return self.proposals

    def curing(self, finding: Finding) -> list[Proposal]:
        """The proposals found so far that cure ``finding`` (none while the search runs)."""
        return [p for p in self.proposals or [] if p.cures_finding(finding)]
