"""Hand-written editor pages for the Dock Test ruleset: the escape hatch a manifest names
with ``editor_pages`` (docs/rulesets.md, "Hand-written pages"), for a page a declared form
cannot say. Plain PySide6 and the binder the editor passes in; nothing of the editor's own
modules is imported.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import QFormLayout, QLabel, QLineEdit, QWidget


class DockPages:
    """One page: the dock's name, bound through the editor's binder, and how many bays it has."""

    def __init__(self, doc: Any, binder: Any, report_error: Callable[[str], None]) -> None:
        self.doc, self.binder, self.report_error = doc, binder, report_error
        self.bays: QLabel | None = None
        self.pages: list[tuple[str, Callable[[], QWidget]]] = [("&Dock by hand", self._dock)]

    def _dock(self) -> QWidget:
        page = QWidget()
        form = QFormLayout(page)
        name = QLineEdit()
        name.setAccessibleName("Name")
        label = QLabel("&Name")
        label.setBuddy(name)
        form.addRow(label, self.binder.line("name", name))
        self.bays = QLabel()
        self.bays.setAccessibleName("Bays")
        form.addRow("Bays", self.bays)
        return page

    def refresh(self) -> None:
        if self.bays is not None:
            self.bays.setText(str(len(self.doc.design.bays)))
