"""The tab of a design its ruleset's plug-in cannot show: the error, in the design's own tab.

Opening a design runs its ruleset's code: ``derive`` for its report, the hand-written
``editor_pages`` for its pages. A plug-in's code that raises is turned into an input error
naming the plug-in, the hook and its file (:mod:`shipyard.core.plugincode`); the window
puts that here, in a tab of the design's name, instead of ending the editor with every
other design in it. The tab holds the design as it was read (nothing was changed), so
closing it loses nothing; the other tabs keep working.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from shipyard._qt.document.document import Document


class BrokenDesign(QWidget):
    """A design's tab that shows why its ruleset's plug-in could not show it."""

    def __init__(self, doc: Document, message: str) -> None:
        super().__init__()
        self.doc = doc
        self.message = message
        layout = QVBoxLayout(self)
        title = QLabel(f"<b>{_escaped(doc.name)}</b> cannot be shown: its ruleset's plug-in failed.")
        title.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(title)
        layout.addWidget(
            QLabel(
                "The design itself is unchanged. Every other design stays open. Tell the plug-in's author "
                "what follows, or update the plug-in, then open the design again."
            )
        )
        text = QPlainTextEdit(message)
        text.setReadOnly(True)
        text.setAccessibleName("Why the design cannot be shown")
        layout.addWidget(text, 1)
        self.setFocusProxy(text)


def _escaped(text: str) -> str:
    from html import escape

    return escape(text)
