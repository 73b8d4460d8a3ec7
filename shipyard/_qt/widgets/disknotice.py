"""The bar across the top of a tab whose file changed on disk while it holds unsaved edits.

Another program wrote the file (or removed it) while the person has edits of their own in
the tab: the editor reads nothing over their work, and asks nothing in a dialog that stops
them either. The bar says what happened and offers what they may do, when they choose to:
**Reload (lose my edits)** shows the file as it is now; **Keep mine** keeps their edits
(Save then asks before it replaces the other program's change). A file that went keeps the
tab's content, and the bar says Save writes it again. The window decides when it shows
(:mod:`shipyard._qt.window.diskchanges`); the bar only shows it and says which was chosen.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QSizePolicy, QWidget

RELOAD_TEXT = "Reload (lose my edits)"
KEEP_TEXT = "Keep mine"
HIDE_TEXT = "Hide"


class DiskNotice(QFrame):
    """A tab's notice that its file changed on disk; :attr:`reload` or :attr:`keep` when the
    person picks one. Hidden until :meth:`show_changed`, :meth:`show_gone` or :meth:`show_unreadable`."""

    reload = Signal()
    keep = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("diskNotice")
        self.setAccessibleName("File changed on disk")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.setStyleSheet("#diskNotice { background: #fff4ce; border: 1px solid #c19c00; } QLabel { color: #3b2f00; }")
        # as tall as its words at its width, never more: in a tall window the tab's layout gave
        # the bar a share of the height, a quarter of the window of empty yellow above the design
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.text.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.reload_button = QPushButton(RELOAD_TEXT)
        self.reload_button.setToolTip("Show the file as it is on disk now; your unsaved edits here are lost")
        self.reload_button.clicked.connect(self.reload.emit)
        self.keep_button = QPushButton(KEEP_TEXT)
        self.keep_button.setToolTip("Keep your edits; Save asks before it replaces the file's new content")
        self.keep_button.clicked.connect(self.keep.emit)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(8, 4, 8, 4)
        lay.addWidget(self.text, 1)
        lay.addWidget(self.reload_button)
        lay.addWidget(self.keep_button)
        self.hide()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        """No taller than its words need at its width (its size hint guesses a narrower one)."""
        needed = self.heightForWidth(self.width())
        if needed > 0 and needed != self.maximumHeight():
            self.setMaximumHeight(needed)

    def show_changed(self, name: str) -> None:
        """``name`` was written by another program; the tab holds unsaved edits."""
        self._show(
            f"“{name}” was changed on disk by another program. This tab has unsaved edits, so it was "
            "not reloaded. Reload it and lose them, or keep them: Save then asks before it replaces "
            "the other program's change.",
            KEEP_TEXT,
            reload=True,
        )

    def show_gone(self, name: str) -> None:
        """``name`` is no longer there (removed, renamed, unreadable); the tab keeps what it shows."""
        self._show(
            f"“{name}” is no longer on disk: another program removed or renamed it. "
            "This tab keeps what it shows; Save (Ctrl+S) writes the file again.",
            HIDE_TEXT,
            reload=False,
        )

    def show_unreadable(self, name: str, why: str) -> None:
        """``name`` changed on disk but cannot be read now (``why``); the tab keeps what it shows."""
        self._show(
            f"“{name}” was changed on disk, but cannot be read now, so this tab keeps what it shows: {why}",
            KEEP_TEXT,
            reload=False,
        )

    def _show(self, text: str, keep: str, *, reload: bool) -> None:
        self.text.setText(text)
        self.text.setToolTip(text)
        self.keep_button.setText(keep)
        self.reload_button.setVisible(reload)
        self.setMaximumHeight(16777215)  # the new words' height, found again at the next resize
        self.show()
        self._fit()

    @property
    def said(self) -> str:
        """What the bar says now ("" when it is hidden)."""
        return self.text.text() if not self.isHidden() else ""


__all__ = ["DiskNotice"]
