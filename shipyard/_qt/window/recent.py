"""Recent files: File > Open recent, the start page's recent designs, and where a file
dialog starts (the design's folder, else the folder last used; an export's, the folder
that kind of export went to last)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QSettings
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QWidget

if TYPE_CHECKING:
    from shipyard._qt.document.document import Document
    from shipyard._qt.view.documentview import DocumentView

MAX_RECENT = 10


class RecentHost(Protocol):
    """What recent files ask of the window: its settings, the design shown, opening a file."""

    settings: QSettings

    def window(self) -> QWidget: ...
    def current(self) -> DocumentView | None: ...
    def open_file(self, path: Path, remember: bool = True) -> DocumentView | None: ...


class RecentFiles:
    """The designs opened or saved last (the settings' "files/recent") and the folder of the last;
    File > Open recent once :meth:`add_menu` has put it in the File menu."""

    def __init__(self, host: RecentHost) -> None:
        self.host = host
        self.settings = host.settings
        self.menu: QMenu | None = None

    def recent(self) -> list[str]:
        value = self.settings.value("files/recent") or []
        return [v for v in ([value] if isinstance(value, str) else list(value)) if v]

    def remember(self, path: Path) -> None:
        items = [str(path)] + [p for p in self.recent() if p != str(path)]
        self.settings.setValue("files/recent", items[:MAX_RECENT])
        self.settings.setValue("files/folder", str(path.parent))  # where the next dialog starts
        self.fill()

    def fill(self) -> None:
        """File > Open recent, the files opened or saved last first."""
        if self.menu is None:
            return
        self.menu.clear()
        for p in self.recent():
            action = QAction(p, self.host.window())
            action.triggered.connect(lambda _=False, path=p: self.host.open_file(Path(path)))
            self.menu.addAction(action)
        self.menu.setEnabled(bool(self.recent()))

    def add_menu(self, file_menu: QMenu) -> QMenu:
        """File > Open recent, kept up to date from now on."""
        self.menu = file_menu.addMenu("Open &recent")
        self.fill()
        return self.menu

    def start_folder(self, doc: Document | None = None) -> Path | None:
        """Where a file dialog starts: the design's folder; for a design not saved yet (or
        none), the folder a design was last opened from or saved to; else Qt's default."""
        if doc is None:
            view = self.host.current()
            doc = view.doc if view is not None else None
        if doc is not None and doc.path is not None:
            return doc.path.parent
        last = self.settings.value("files/folder")
        if isinstance(last, str) and last and Path(last).is_dir():
            return Path(last)
        recent = [Path(p).parent for p in self.recent() if Path(p).parent.is_dir()]
        return recent[0] if recent else None

    def start_path(self, doc: Document | None, name: str = "") -> str:
        folder = self.start_folder(doc)
        return str(folder / name) if folder is not None else name

    def export_folder(self, kind: str, doc: Document | None = None) -> Path | None:
        """Where an export or print of ``kind`` ("pdf", "card-png", "foundry", ...) starts: the
        folder that kind went to last, else the folder any export went to last (settings
        "export/folder/KIND" and "export/folder"), else where file dialogs start."""
        for key in (f"export/folder/{kind}", "export/folder"):
            last = self.settings.value(key)
            if isinstance(last, str) and last and Path(last).is_dir():
                return Path(last)
        return self.start_folder(doc)

    def remember_export_folder(self, kind: str, folder: Path) -> None:
        """An export or print of ``kind`` went into ``folder``: the next starts there."""
        self.settings.setValue(f"export/folder/{kind}", str(folder))
        self.settings.setValue("export/folder", str(folder))
