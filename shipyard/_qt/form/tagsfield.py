"""The design file's tags on the first page of every generated form: a neutral part, the
same for every ruleset (tags are the person's own labels, kept in the design file beside
the design: ``tags:`` in :mod:`shipyard.core.designfile`).

One line of words separated by commas. What is typed commits as a text field's does (on
a pause, Enter, or leaving the line: :mod:`shipyard._qt.document.pending`), through the engine's
reading of tags (:func:`shipyard.core.edits.tags_from_text`) as one undo step of the
document; tags the engine refuses (too many, too long) are said, and the design keeps the
tags it had. The hangar shows them once the design is saved.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QWidget

from shipyard._qt.document.keys import share_undo
from shipyard._qt.document.pending import commit_on_pause
from shipyard.core.edits import tags_text


class TagsField(QWidget):
    """``Tags: [pirates, raiders]``, bound to the document's tags."""

    def __init__(self, doc: Any, report_error: Any) -> None:
        super().__init__()
        self.doc, self.report_error = doc, report_error
        self.line = QLineEdit()
        self.line.setPlaceholderText("Your own labels, separated by commas (found in the Hangar: tag:pirates)")
        self.line.setAccessibleName("Tags")
        self.line.setToolTip(
            "Words or short phrases of your own, separated by commas: the Hangar and `shipyard find tag:...` find them"
        )
        label = QLabel("Ta&gs")
        label.setBuddy(self.line)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(label)
        row.addWidget(self.line, 1)
        commit_on_pause(doc.pending, self.line, self._commit)
        share_undo(self.line, doc.undo_stack)  # Ctrl+Z in the line undoes the document's last step
        self.update_from_design()

    def _commit(self, text: str) -> None:
        error = self.doc.set_tags(text)
        if error:
            self.report_error(error)
            self.update_from_design()

    def update_from_design(self, _ctx: object = None) -> None:
        """Show the document's tags (after an undo, a redo, a commit), unless they are being typed."""
        if self.doc.pending.holds(self.line):
            return
        shown = tags_text(self.doc.tags)
        if self.line.text() != shown and not (self.line.hasFocus() and _same(self.line.text(), shown)):
            self.line.setText(shown)


def _same(typed: str, shown: str) -> bool:
    """Whether the typed text says the tags shown (spaces and a trailing comma aside): the
    line being typed in is not rewritten under the cursor for those."""
    return [t.strip() for t in typed.split(",") if t.strip()] == [t.strip() for t in shown.split(",") if t.strip()]
