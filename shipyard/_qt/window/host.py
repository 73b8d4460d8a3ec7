"""What the editor's parts ask of the main window, so that they need not import it.

The window is put together from parts, one concern each: the menus
(:mod:`shipyard._qt.window.menus`), recent files and where file dialogs start
(:mod:`shipyard._qt.window.recent`), autosave and recovery (:mod:`shipyard._qt.window.recovery`),
drag and drop (:mod:`shipyard._qt.window.dropping`), printing (:mod:`shipyard._qt.actions.printtopdf`) and
comparing (:mod:`shipyard._qt.actions.comparing`); the import and conversion actions and other
parts that add menus work with any :class:`EditorWindow` too.
:class:`shipyard._qt.window.window.MainWindow` (the tabs of open designs, saving and closing them)
is the one the editor uses. Each part derives from this base and asks of the others only
what it declares; keeping it apart is what keeps the window and its parts from importing
each other.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings
from PySide6.QtGui import QUndoGroup
from PySide6.QtWidgets import QMainWindow, QMenu, QTabWidget

if TYPE_CHECKING:
    from PySide6.QtWidgets import QDialog

    from shipyard._qt.document.document import Document
    from shipyard._qt.document.view import DocumentView
    from shipyard.core.designfile import LoadedDesign
    from shipyard.core.model import Catalog


class EditorWindow(QMainWindow):
    settings: QSettings
    tabs: QTabWidget
    undo_group: QUndoGroup
    use_user_folder: bool
    recent_menu: QMenu

    @property
    def paper(self) -> str:
        """The paper chosen in Settings > Paper (else the locale's)."""
        raise NotImplementedError

    def current(self) -> DocumentView | None:
        raise NotImplementedError

    def current_ruleset(self) -> str | None:
        """The ruleset of the design shown; None on the start page."""
        raise NotImplementedError

    def documents(self) -> list[Document]:
        raise NotImplementedError

    def flush(self) -> None:
        """Commit the text being typed in any design."""
        raise NotImplementedError

    def show_error(self, title: str, message: str) -> None:
        raise NotImplementedError

    def add_document(self, doc: Document) -> DocumentView | None:
        raise NotImplementedError

    def catalog_for_new(self, ruleset: str) -> Catalog:
        raise NotImplementedError

    def load(self, path: Path) -> LoadedDesign:
        """The design in ``path``, read against the user's catalog folders."""
        raise NotImplementedError

    def new(self, kind: str | None = None, ruleset: str | None = None) -> DocumentView | None:
        raise NotImplementedError

    def ask_new(self) -> QDialog:
        """Ask which ruleset and kind a new design is (Ctrl+N), then make it."""
        raise NotImplementedError

    def open_file(self, path: Path, remember: bool = True) -> DocumentView | None:
        raise NotImplementedError

    def open_sample(self, path: Path) -> DocumentView | None:
        raise NotImplementedError

    def open_dialog(self) -> None:
        raise NotImplementedError

    def save(self, doc: Document | None = None, as_new: bool = False) -> bool:
        raise NotImplementedError

    def close_tab(self, index: int) -> bool:
        raise NotImplementedError

    def choose_catalog_folder(self) -> None:
        raise NotImplementedError

    def start_path(self, doc: Document | None, name: str = "") -> str:
        """Where a file dialog about ``doc`` starts, with ``name`` as the file's name."""
        raise NotImplementedError

    def export_folder(self, kind: str, doc: Document | None = None) -> Path | None:
        """Where an export or print of ``kind`` starts: the folder it went to last."""
        raise NotImplementedError

    def remember_export_folder(self, kind: str, folder: Path) -> None:
        raise NotImplementedError

    def add_recent_menu(self, file_menu: QMenu) -> None:
        """File > Open recent, kept up to date."""
        raise NotImplementedError

    def remember(self, path: Path) -> None:
        """``path`` was opened or saved: first of the recent files."""
        raise NotImplementedError

    def print_dialog(self) -> None:
        raise NotImplementedError

    def compare_dialog(self) -> None:
        raise NotImplementedError
