"""Fix...: the engine's proposals for a design that breaks the rules, one applied as one undo step.

The proposals are :func:`shipyard.core.fixes.propose`'s (concrete edits of
:mod:`shipyard.core.edits`, the fewest first, never a new error, never the Storyteller's
budgets); the dialog shows each with its effect on every pool and applies the chosen
one through the document's undo stack.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from shipyard._qt.document.document import Document
from shipyard.core.findings import Finding
from shipyard.core.fixes import Edit, Proposal, propose


def proposal_text(p: Proposal, doc: Document) -> str:
    """A proposal as the dialog lists it: the changes, then what they do."""
    changes = "; ".join(_edit_text(e, doc) for e in p.edits)
    verdict = "the design passes" if p.passes else "fewer errors"
    return f"{changes}\n    {', '.join(p.effects)} — {verdict}"


def cured_text(p: Proposal, doc: Document) -> str:
    """What a proposal cures, in the findings' own words (its tooltip)."""
    cured = [f.message for f in doc.report.findings if p.cures_finding(f)]
    return "Cures: " + "; ".join(cured) if cured else ""


def _edit_text(e: Edit, doc: Document) -> str:
    """An edit in words, without the internal path the engine's text ends with."""
    return e.text.removesuffix(f" ({e.path})") if e.text else f"{e.op} {doc.place(e.path)}"


class FixDialog(QDialog):
    """The proposals for ``doc`` (``proposals``, else the engine's search now); with
    ``finding``, those that cure that finding, the finding named at the top."""

    def __init__(
        self,
        doc: Document,
        parent: QWidget | None = None,
        *,
        proposals: list[Proposal] | None = None,
        finding: Finding | None = None,
    ) -> None:
        super().__init__(parent)
        self.doc = doc
        self.setWindowTitle(f"Fix {doc.name}")
        self.proposals = propose(doc.design, doc.catalog) if proposals is None else proposals
        self.list = QListWidget()
        self.list.setAccessibleName("Proposed fixes")
        self.list.setWordWrap(True)
        for p in self.proposals:
            item = QListWidgetItem(proposal_text(p, doc))
            item.setToolTip(cured_text(p, doc))
            self.list.addItem(item)
        if self.proposals:
            self.list.setCurrentRow(0)
        what = f"“{finding.message}”" if finding is not None else "an error"
        self.note = note = QLabel(
            (f"Changes that cure {what}. " if finding is not None else "")
            + "Each proposal changes the design, not the budgets, and adds no error. Applying one is one step of Undo."
            if self.proposals
            else f"The engine finds no change of one to three values or entries that cures {what}."
        )
        note.setAccessibleName("About these fixes")
        note.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.apply_button = buttons.addButton("&Apply", QDialogButtonBox.ButtonRole.AcceptRole)
        self.apply_button.setEnabled(bool(self.proposals))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.list.itemActivated.connect(lambda _i: self.accept())
        lay = QVBoxLayout(self)
        lay.addWidget(note)
        lay.addWidget(self.list, 1)
        lay.addWidget(buttons)
        self.resize(640, 360)

    def texts(self) -> list[str]:
        return [self.list.item(i).text() for i in range(self.list.count())]

    def apply(self, index: int | None = None) -> bool:
        """Apply the proposal at ``index`` (default: the selected one) as one undo step."""
        i = self.list.currentRow() if index is None else index
        if not 0 <= i < len(self.proposals):
            return False
        p = self.proposals[i]
        self.doc.apply_design(p.design, f"Fix: {p.text}", where=p.edits[0].path if p.edits else "")
        return True

    def accept(self) -> None:
        self.apply()
        super().accept()
