"""View > Compare with...: the current design beside its saved version, another open
design or a file (:class:`shipyard._qt.dialogs.compareview.CompareView`, in a window of its own)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QDialog, QFormLayout, QStatusBar, QWidget

from shipyard._qt.document.document import FILTER, Document
from shipyard._qt.widgets.placement import clamp
from shipyard.core.designfile import LoadedDesign
from shipyard.core.errors import InputError

if TYPE_CHECKING:
    from shipyard._qt.view.documentview import DocumentView


class CompareHost(Protocol):
    """What comparing asks of the window: the design shown, the others open, reading a file."""

    def window(self) -> QWidget: ...
    def statusBar(self) -> QStatusBar: ...
    def current(self) -> DocumentView | None: ...
    def documents(self) -> list[Document]: ...
    def flush(self) -> None: ...
    def load(self, path: Path) -> LoadedDesign: ...
    def show_error(self, title: str, message: str) -> None: ...


class Comparing:
    """What a design can be compared with, and the comparison's window."""

    def __init__(self, host: CompareHost) -> None:
        self.host = host

    def compare_sources(self, doc: Document) -> list[object]:
        """What ``doc`` can be compared with, as the Compare with... dialog offers it."""
        dlg = CompareSource(self.host.window(), doc, self.host.documents())
        return [dlg.choice.itemData(i) for i in range(dlg.choice.count())]

    def ask_compare_source(self, doc: Document) -> object | None:
        dlg = CompareSource(self.host.window(), doc, self.host.documents())
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return None
        chosen: object = dlg.choice.currentData()
        return chosen

    def compare_dialog(self) -> None:
        from PySide6.QtWidgets import QFileDialog  # made on first use, off the start-up path

        self.host.flush()
        view = self.host.current()
        if view is None:
            self.host.statusBar().showMessage("Open a design to compare it", 5000)
            return
        choice = self.ask_compare_source(view.doc)
        if choice == "file":
            folder = str(view.doc.path.parent) if view.doc.path else ""
            name, _ = QFileDialog.getOpenFileName(self.host.window(), "Compare with", folder, FILTER)
            choice = Path(name) if name else None
        if choice is not None:
            self.compare_with(view.doc, choice)

    def compare_with(self, doc: Document, other: object) -> QWidget | None:
        """Show ``doc`` beside ``other``: "saved" (its saved file), an open Document, or a file's Path."""
        from shipyard._qt.dialogs.compareview import CompareView

        self.host.flush()
        try:
            if other == "saved":
                if doc.path is None:
                    return None
                target: Document | LoadedDesign = self.host.load(doc.path)
                name = f"{doc.path.name} as saved"
            elif isinstance(other, Document):
                target, name = other, other.name
            elif isinstance(other, Path):
                target, name = self.host.load(other), other.name
            else:
                return None
        except InputError as exc:
            self.host.show_error("Cannot compare", str(exc))
            return None
        view = CompareView(doc, target, name, other_first=other == "saved")
        view.setParent(self.host.window(), Qt.WindowType.Window)
        view.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        clamp(view)
        view.show()
        return view


class CompareSource(QDialog):
    """What to compare the current design with: its saved version, another open design, a file."""

    def __init__(self, parent: QWidget, doc: Document, open_documents: list[Document]) -> None:
        from PySide6.QtWidgets import QDialogButtonBox  # made on first use, off the start-up path

        super().__init__(parent)
        self.setWindowTitle(f"Compare {doc.name} with")
        self.choice = QComboBox()
        self.choice.setAccessibleName("Compare with")
        if doc.path is not None:
            self.choice.addItem(f"The saved version of {doc.path.name}", "saved")
        for other in open_documents:
            if other is not doc:
                self.choice.addItem(f"{other.name} (open)", other)
        self.choice.addItem("A design file…", "file")
        form = QFormLayout(self)
        form.addRow("Compare &with", self.choice)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
