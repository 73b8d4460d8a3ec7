"""Drag and drop: design files dropped on the main window open, each in its tab.

A part of the window, not a base of it: it watches the window's drag and drop events
(an event filter), so the window need not override its event handlers for it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QWidget

if TYPE_CHECKING:
    from shipyard._qt.view.documentview import DocumentView


class DropHost(Protocol):
    """What dropped files ask of the window: to be the window, and to open a file."""

    def window(self) -> QWidget: ...
    def open_file(self, path: Path, remember: bool = True) -> DocumentView | None: ...


class FileDrops(QObject):
    """Takes drops of local files on the window it is made for."""

    def __init__(self, host: DropHost) -> None:
        window = host.window()
        super().__init__(window)
        self.host = host
        window.setAcceptDrops(True)
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if isinstance(event, QDragEnterEvent):
            mime = event.mimeData()
            if mime.hasUrls() and any(u.isLocalFile() for u in mime.urls()):
                event.acceptProposedAction()
                return True
        elif isinstance(event, QDropEvent) and event.type() == QEvent.Type.Drop:
            for url in event.mimeData().urls():
                if url.isLocalFile():
                    self.host.open_file(Path(url.toLocalFile()))
            event.acceptProposedAction()
            return True
        return super().eventFilter(watched, event)
