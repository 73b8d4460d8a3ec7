"""Drag and drop: design files dropped on the main window open, each in its tab."""

from __future__ import annotations

from pathlib import Path

from shipyard._qt.window.host import EditorWindow


class Dropping(EditorWindow):
    """Takes drops of local files (the window accepts drops: :meth:`accept_files`)."""

    def accept_files(self) -> None:
        self.setAcceptDrops(True)

    def dragEnterEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        if event.mimeData().hasUrls() and any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        for url in event.mimeData().urls():
            if url.isLocalFile():
                self.open_file(Path(url.toLocalFile()))
        event.acceptProposedAction()
