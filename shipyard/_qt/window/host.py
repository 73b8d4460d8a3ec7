"""The main window as its menus and menu actions see it, so that they need not import it.

The window (:class:`shipyard._qt.window.window.MainWindow`) holds the tabs of open designs,
saves and closes them; each of its other concerns is a part it holds, an object of its own
that asks of the window only what the part's own Protocol says:

- ``window.recent_files``: recent files and where file dialogs start (:mod:`shipyard._qt.window.recent`);
- ``window.recovery``: autosave and the offer to restore (:mod:`shipyard._qt.window.recovery`);
- ``window.drops``: design files dropped on the window (:mod:`shipyard._qt.window.dropping`);
- ``window.printing``: File > Print to PDF (:mod:`shipyard._qt.actions.printtopdf`);
- ``window.comparing``: View > Compare with (:mod:`shipyard._qt.actions.comparing`);
- ``window.rosters``: ``.roster`` files in tabs beside the designs, File > New roster…, the
  Hangar's Add to roster (:mod:`shipyard._qt.window.rosters`);
- ``window.disk``: every tab's file followed as other programs write it: read again, or
  the tab's bar asks (:mod:`shipyard._qt.window.diskchanges`);
- ``window.menus``: the menu bar (:mod:`shipyard._qt.window.menus`), which reaches every other
  part, so it, and the import and conversion actions, see the window as :class:`WindowHost`.

A Protocol is only a description: the window is not derived from it, and nothing here runs.
``window()`` is Qt's own (a top-level widget's window is itself): what a part parents its
dialogs and actions to.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from PySide6.QtCore import QSettings
    from PySide6.QtGui import QUndoGroup
    from PySide6.QtWidgets import QDialog, QMenuBar, QStatusBar, QTabWidget, QWidget

    from shipyard._qt.actions.comparing import Comparing
    from shipyard._qt.actions.printtopdf import Printing
    from shipyard._qt.document.document import Document
    from shipyard._qt.view.documentview import DocumentView
    from shipyard._qt.window.recent import RecentFiles
    from shipyard._qt.window.rosters import Rosters
    from shipyard.core.designfile import LoadedDesign
    from shipyard.core.model import Catalog


class WindowHost(Protocol):
    """The window's designs, settings and parts, as the menus and menu actions use them."""

    settings: QSettings
    tabs: QTabWidget
    undo_group: QUndoGroup
    recent_files: RecentFiles
    printing: Printing
    comparing: Comparing
    rosters: Rosters

    @property
    def paper(self) -> str: ...
    def window(self) -> QWidget: ...
    def menuBar(self) -> QMenuBar: ...
    def statusBar(self) -> QStatusBar: ...
    def close(self) -> bool: ...
    def current(self) -> DocumentView | None: ...
    def current_ruleset(self) -> str | None: ...
    def documents(self) -> list[Document]: ...
    def flush(self) -> None: ...
    def show_error(self, title: str, message: str) -> None: ...
    def add_document(self, doc: Document) -> DocumentView | None: ...
    def catalog_for_new(self, ruleset: str) -> Catalog: ...
    def load(self, path: Path) -> LoadedDesign: ...
    def new(self, kind: str | None = None, ruleset: str | None = None) -> DocumentView | None: ...
    def ask_new(self) -> QDialog: ...
    def open_file(self, path: Path, remember: bool = True) -> DocumentView | None: ...
    def open_sample(self, path: Path) -> DocumentView | None: ...
    def open_dialog(self) -> None: ...
    def save(self, doc: Document | None = None, as_new: bool = False) -> bool: ...
    def close_tab(self, index: int) -> bool: ...
    def choose_catalog_folder(self) -> None: ...
