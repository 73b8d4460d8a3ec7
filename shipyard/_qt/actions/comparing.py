"""View > Compare with...: the current design beside its saved version, another open
design or a file (:class:`shipyard._qt.dialogs.compareview.CompareView`, in a window of its own)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QDialog, QFormLayout, QWidget

from shipyard._qt.document.document import Document
from shipyard._qt.window.host import EditorWindow
from shipyard._qt.window.placement import clamp
from shipyard._qt.window.recent import FILTER
from shipyard.core.designfile import LoadedDesign
from shipyard.core.errors import InputError


class Comparing(EditorWindow):
    """What a design can be compared with, and the comparison's window."""

    def compare_sources(self, doc: Document) -> list[object]:
        """What ``doc`` can be compared with, as the Compare with... dialog offers it."""
        dlg = CompareSource(self, doc)
        return [dlg.choice.itemData(i) for i in range(dlg.choice.count())]

    def ask_compare_source(self, doc: Document) -> object | None:
        dlg = CompareSource(self, doc)
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return None
        chosen: object = dlg.choice.currentData()
        return chosen

    def compare_dialog(self) -> None:
        from PySide6.QtWidgets import QFileDialog  # made on first use, off the start-up path

        self.flush()
        view = self.current()
        if view is None:
            self.statusBar().showMessage("Open a design to compare it", 5000)
            return
        choice = self.ask_compare_source(view.doc)
        if choice == "file":
            folder = str(view.doc.path.parent) if view.doc.path else ""
            name, _ = QFileDialog.getOpenFileName(self, "Compare with", folder, FILTER)
            choice = Path(name) if name else None
        if choice is not None:
            self.compare_with(view.doc, choice)

    def compare_with(self, doc: Document, other: object) -> QWidget | None:
        """Show ``doc`` beside ``other``: "saved" (its saved file), an open Document, or a file's Path."""
        from shipyard._qt.dialogs.compareview import CompareView

        self.flush()
        try:
            if other == "saved":
                if doc.path is None:
                    return None
                target: Document | LoadedDesign = self.load(doc.path)
                name = f"{doc.path.name} as saved"
            elif isinstance(other, Document):
                target, name = other, other.name
            elif isinstance(other, Path):
                target, name = self.load(other), other.name
            else:
                return None
        except InputError as exc:
            self.show_error("Cannot compare", str(exc))
            return None
        view = CompareView(doc, target, name, other_first=other == "saved")
        view.setParent(self, Qt.WindowType.Window)
        view.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        clamp(view)
        view.show()
        return view


class CompareSource(QDialog):
    """What to compare the current design with: its saved version, another open design, a file."""

    def __init__(self, window: EditorWindow, doc: Document) -> None:
        from PySide6.QtWidgets import QDialogButtonBox  # made on first use, off the start-up path

        super().__init__(window)
        self.setWindowTitle(f"Compare {doc.name} with")
        self.choice = QComboBox()
        self.choice.setAccessibleName("Compare with")
        if doc.path is not None:
            self.choice.addItem(f"The saved version of {doc.path.name}", "saved")
        for other in window.documents():
            if other is not doc:
                self.choice.addItem(f"{other.name} (open)", other)
        self.choice.addItem("A design file…", "file")
        form = QFormLayout(self)
        form.addRow("Compare &with", self.choice)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
