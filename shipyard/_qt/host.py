"""What the editor's parts ask of the main window, so that they need not import it.

The import and conversion actions (and other parts that add menus) work with any
:class:`EditorWindow`; :class:`shipyard._qt.window.MainWindow` is the one the editor
uses. Keeping this small base apart is what keeps the window and its parts from
importing each other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMainWindow, QTabWidget

if TYPE_CHECKING:
    from shipyard._qt.document import Document
    from shipyard._qt.view import DocumentView
    from shipyard.core.model import Catalog


class EditorWindow(QMainWindow):
    settings: QSettings
    tabs: QTabWidget

    def current(self) -> DocumentView | None:
        raise NotImplementedError

    def show_error(self, title: str, message: str) -> None:
        raise NotImplementedError

    def add_document(self, doc: Document) -> DocumentView:
        raise NotImplementedError

    def catalog_for_new(self, ruleset: str) -> Catalog:
        raise NotImplementedError
