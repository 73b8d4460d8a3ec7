"""A detached preview: the record sheet in a top-level window of its own.

Why a window that only holds the panel's sheet (status, zoom strip, PDF view) instead of
a second preview: the sheet is the same widget moved across, with the same document, so
it follows every edit from the one render the panel makes of the Document's report; it
never renders or evaluates on its own. Closing the window puts the sheet back in the pane
(the panel listens to :attr:`PreviewWindow.closing`); the window is the panel's child, so
it goes when the design's tab closes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent
from PySide6.QtWidgets import QVBoxLayout, QWidget

from shipyard._qt.widgets.closing import closable

if TYPE_CHECKING:
    from shipyard._qt.preview.sheetview import SheetView


class HeldPreview(Protocol):
    """What the window and the View menu's actions ask of the preview panel
    (shipyard._qt.preview.panel.PreviewPanel), so that neither imports it (it loads QtPdf)."""

    @property
    def view(self) -> SheetView: ...

    @property
    def detached(self) -> bool: ...

    def toggle_detached(self) -> None: ...


class PreviewWindow(QWidget):
    closing = Signal()  # the user closed it (the window manager's close, or the Attach button)

    def __init__(self, panel: QWidget, held: HeldPreview, actions: list[QAction]) -> None:
        super().__init__(panel, Qt.WindowType.Window)
        self.panel = held  # the preview actions find the panel of the active window here
        self.setAccessibleName("Record sheet preview window")
        self.addActions(actions)  # the View menu's keys work in this window too
        self._lay = QVBoxLayout(self)
        self._lay.setContentsMargins(4, 4, 4, 4)
        self.close_button = closable(self, self._lay)  # closing puts the sheet back in the editor

    def hold(self, sheet: QWidget) -> None:
        self._lay.insertWidget(0, sheet, 1)
        sheet.show()

    def name_for(self, title: str) -> None:
        self.setWindowTitle(f"Record sheet: {title} — Shipyard")

    def closeEvent(self, event: QCloseEvent) -> None:
        self.closing.emit()
        event.accept()
