"""One open design: the steps on the left; budgets, findings and preview on the right."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QLabel, QSplitter, QTabWidget, QVBoxLayout, QWidget

from shipyard._qt.binding import Binder
from shipyard._qt.document import Document
from shipyard._qt.panels import BudgetPanel, FindingsPanel

if TYPE_CHECKING:
    from shipyard._qt.preview import PreviewPanel


# The step pages of each ruleset: module and class, imported when a design of it opens.
STEP_PAGES: dict[str, tuple[str, str]] = {
    "space-fighter-alpha": ("shipyard._qt.steps_sfa", "SfaSteps"),
    "space-fury": ("shipyard._qt.steps_fury", "FurySteps"),
}


def step_builder(ruleset: str) -> Callable[..., object]:
    if ruleset not in STEP_PAGES:
        raise LookupError(f"the editor has no pages for ruleset {ruleset!r} yet")
    module, name = STEP_PAGES[ruleset]
    builder: Callable[..., object] = getattr(importlib.import_module(module), name)
    return builder


class DocumentView(QWidget):
    def __init__(
        self, doc: Document, report_error: Callable[[str], None], paper: str = "a4", preview: bool = True
    ) -> None:
        super().__init__()
        self.doc = doc
        self.binder = Binder(doc, report_error, self)
        self.steps = step_builder(doc.loaded.ruleset)(doc, self.binder, report_error)
        self.tabs = QTabWidget()
        self.tabs.setAccessibleName("Construction steps")
        self._factories = []
        for title, factory in self.steps.pages:  # type: ignore[attr-defined]
            holder = QWidget()
            QVBoxLayout(holder).setContentsMargins(0, 0, 0, 0)
            self.tabs.addTab(holder, title)
            self._factories.append(factory)
        self.tabs.currentChanged.connect(self.ensure_page)
        self.ensure_page(0)
        self.budget = BudgetPanel()
        self.findings = FindingsPanel()
        self.findings.focus_requested.connect(self.focus_path)
        right = QSplitter(Qt.Orientation.Vertical)
        self.titles: list[QLabel] = []
        for title, widget in (("Budgets", self.budget), ("Findings", self.findings)):
            box = QWidget()
            lay = QVBoxLayout(box)
            lay.setContentsMargins(4, 4, 4, 4)
            label = QLabel(f"<b>{title}</b>")
            label.setBuddy(widget)
            lay.addWidget(label)
            lay.addWidget(widget)
            right.addWidget(box)
            self.titles.append(label)
        self.preview: PreviewPanel | None = None
        self._paper, self._want_preview, self._right = paper, preview, right
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.tabs)
        split.addWidget(right)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(split)
        doc.changed.connect(self.refresh)
        self.refresh()
        QTimer.singleShot(30, self.finish_building)  # after the first paint; long before a first click

    def ensure_page(self, index: int) -> None:
        """Build the step page at ``index`` the first time it is needed."""
        if not 0 <= index < len(self._factories) or self._factories[index] is None:
            return
        factory, self._factories[index] = self._factories[index], None
        holder = self.tabs.widget(index)
        layout = holder.layout() if holder is not None else None
        if layout is not None:
            layout.addWidget(factory())
        self.binder.refresh()
        self.steps.refresh()  # type: ignore[attr-defined]

    def finish_building(self) -> None:
        """The rest of the view, once the window is up: other steps, then the preview."""
        for i in range(len(self._factories)):
            self.ensure_page(i)
        if self._want_preview and self.preview is None:
            from shipyard._qt.preview import PreviewPanel  # QtPdf loads here, after the window shows

            self.preview = PreviewPanel(self.doc, self._paper)
            self._right.addWidget(self.preview)
            self._right.setStretchFactor(2, 3)
            self.preview.schedule()

    def refresh(self) -> None:
        report = self.doc.report
        self.binder.refresh()
        self.steps.refresh()  # type: ignore[attr-defined]
        self.budget.show_report(report)
        self.titles[0].setText(f"<b>{self.budget.title()}</b>")  # a ruleset of tallies has no budgets
        self.findings.show_report(report)

    def focus_path(self, path: str) -> bool:
        self.finish_building()
        return self.binder.focus(path)
