"""Recent files: File > Open recent, the start page's recent designs, and where a file
dialog starts (the design's folder, else the folder last used; an export's, the folder
that kind of export went to last)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QMenu

from shipyard._qt.document.document import Document
from shipyard._qt.window.host import EditorWindow
from shipyard._qt.window.menus import add_action
from shipyard.core.designfile import EXTENSION

FILTER = f"Shipyard designs (*{EXTENSION});;All files (*)"  # what the file dialogs show
MAX_RECENT = 10


class RecentFiles(EditorWindow):
    """The designs opened or saved last (the settings' "files/recent") and the folder of the last."""

    def recent(self) -> list[str]:
        value = self.settings.value("files/recent") or []
        return [v for v in ([value] if isinstance(value, str) else list(value)) if v]

    def remember(self, path: Path) -> None:
        items = [str(path)] + [p for p in self.recent() if p != str(path)]
        self.settings.setValue("files/recent", items[:MAX_RECENT])
        self.settings.setValue("files/folder", str(path.parent))  # where the next dialog starts
        self.fill_recent()

    def fill_recent(self) -> None:
        self.recent_menu.clear()
        for p in self.recent():
            add_action(self, self.recent_menu, p, lambda _=False, path=p: self.open_file(Path(path)))
        self.recent_menu.setEnabled(bool(self.recent()))

    def add_recent_menu(self, file_menu: QMenu) -> None:
        self.recent_menu = file_menu.addMenu("Open &recent")
        self.fill_recent()

    def start_folder(self, doc: Document | None = None) -> Path | None:
        """Where a file dialog starts: the design's folder; for a design not saved yet (or
        none), the folder a design was last opened from or saved to; else Qt's default."""
        if doc is None:
            view = self.current()
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
