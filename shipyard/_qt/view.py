"""One open design: the steps on the left; budgets, findings and preview on the right."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSplitter, QTabWidget, QVBoxLayout, QWidget

from shipyard._qt.binding import Binder
from shipyard._qt.document import Document
from shipyard._qt.panels import BudgetPanel, FindingsPanel
from shipyard._qt.preview import PreviewPanel


def step_builder(ruleset: str) -> Callable[..., object]:
    if ruleset == "space-fighter-alpha":
        from shipyard._qt.steps_sfa import SfaSteps

        return SfaSteps
    raise LookupError(f"the editor has no pages for ruleset {ruleset!r} yet")


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
        for title, page in self.steps.pages:  # type: ignore[attr-defined]
            self.tabs.addTab(page, title)
        self.budget = BudgetPanel()
        self.findings = FindingsPanel()
        self.findings.focus_requested.connect(self.focus_path)
        right = QSplitter(Qt.Orientation.Vertical)
        for title, widget in (("Budgets", self.budget), ("Findings", self.findings)):
            box = QWidget()
            lay = QVBoxLayout(box)
            lay.setContentsMargins(4, 4, 4, 4)
            label = QLabel(f"<b>{title}</b>")
            label.setBuddy(widget)
            lay.addWidget(label)
            lay.addWidget(widget)
            right.addWidget(box)
        self.preview = PreviewPanel(doc, paper) if preview else None
        if self.preview is not None:
            right.addWidget(self.preview)
            right.setStretchFactor(2, 3)
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
        if self.preview is not None:
            self.preview.schedule()

    def refresh(self) -> None:
        report = self.doc.report
        self.binder.refresh()
        self.steps.refresh()  # type: ignore[attr-defined]
        self.budget.show_report(report)
        self.findings.show_report(report)

    def focus_path(self, path: str) -> bool:
        return self.binder.focus(path)
