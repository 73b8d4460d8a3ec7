"""Printing from the editor: File > Print to PDF's dialog (sheet, tokens, paper, which
designs) and the rendering in the background, the PDF opened in the desktop's viewer."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from PySide6.QtWidgets import QCheckBox, QComboBox, QDialog, QFormLayout, QLabel, QStatusBar, QTabWidget, QWidget

from shipyard._qt.document.document import Document
from shipyard._qt.preview.rendering import RenderBridge, render_in_background
from shipyard.core.errors import InputError
from shipyard.render.paper import PAPER_NAMES, PAPERS
from shipyard.render.tokens import SHAPES, SIZE_HELP, TokenSpec, token_spec

if TYPE_CHECKING:
    from PySide6.QtCore import QUrl

    from shipyard._qt.view.documentview import DocumentView
    from shipyard.core.designfile import LoadedDesign
    from shipyard.core.report import Report


class PrintDialog(QDialog):
    def __init__(self, parent: QWidget, paper: str, several: bool) -> None:
        from PySide6.QtWidgets import QDialogButtonBox  # made on first use, off the start-up path

        super().__init__(parent)
        self.setWindowTitle("Print to PDF")
        form = QFormLayout(self)
        self.sheet = QComboBox()
        for label, value in (
            ("Record sheet", "record"),
            ("Stat cards (nine a page)", "cards"),
            ("Fleet book", "fleet"),
            ("Cut-out tokens", "tokens"),
        ):
            self.sheet.addItem(label, value)
        # the tokens' size, shape and back, as shipyard print's --token-size/--token-shape/--token-back
        self.token_size = QComboBox()
        self.token_size.setEditable(True)  # any length the command line takes: "30mm", "1.25in"
        self.token_size.addItems(["1in", "0.75in", "25mm", "1.5in", "2in"])
        self.token_size.setToolTip(f"The token's width: {SIZE_HELP}")
        self.token_shape = QComboBox()
        for shape in SHAPES:
            self.token_shape.addItem(shape.capitalize(), shape)
        self.token_back = QCheckBox("Damaged &back to fold over")
        self.token_back.setToolTip("Each token printed beside its damaged face: cut round the pair, fold, glue")
        self.paper = QComboBox()
        for value in PAPERS:
            self.paper.addItem(PAPER_NAMES[value], value)
        self.paper.setCurrentIndex(max(0, self.paper.findData(paper)))
        self.scope = QComboBox()
        self.scope.addItem("This design", "one")
        self.scope.addItem("All open designs", "all")
        self.scope.setEnabled(several)
        for label, w in (
            ("&Sheet", self.sheet),
            ("Token si&ze", self.token_size),
            ("Token s&hape", self.token_shape),
            ("&Paper", self.paper),
            ("&Designs", self.scope),
        ):
            lab = QLabel(label)
            lab.setBuddy(w)
            w.setAccessibleName(label.replace("&", ""))
            form.addRow(lab, w)
        form.addRow(self.token_back)
        self.fillable = QCheckBox("&Fillable form")
        self.fillable.setToolTip("Every tick box and write-in becomes a form field to fill in a PDF viewer")
        form.addRow(self.fillable)
        self.sheet.currentIndexChanged.connect(self._sheet_changed)
        self._sheet_changed()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _sheet_changed(self) -> None:
        tokens = self.sheet.currentData() == "tokens"
        for w in (self.token_size, self.token_shape, self.token_back):
            w.setEnabled(tokens)
        self.fillable.setEnabled(not tokens)

    def token(self) -> TokenSpec:
        """The tokens asked for; a size the command line would refuse raises its InputError."""
        return token_spec(self.token_size.currentText(), self.token_shape.currentData(), self.token_back.isChecked())

    def accept(self) -> None:
        from PySide6.QtWidgets import QMessageBox  # made on first use, off the start-up path

        if self.sheet.currentData() == "tokens":
            try:
                self.token()
            except InputError as exc:  # said at once, the dialog stays open with what was typed
                QMessageBox.warning(self, "Token size", str(exc.problems[0]))
                self.token_size.setFocus()
                return
        super().accept()


class PrintHost(Protocol):
    """What printing asks of the window: the designs, the paper chosen, where to say things."""

    tabs: QTabWidget

    @property
    def paper(self) -> str: ...
    def window(self) -> QWidget: ...
    def statusBar(self) -> QStatusBar: ...
    def current(self) -> DocumentView | None: ...
    def documents(self) -> list[Document]: ...
    def flush(self) -> None: ...
    def show_error(self, title: str, message: str) -> None: ...


class ExportFolders(Protocol):
    """Where an export or print of a kind starts, and remembering where it went
    (the window's recent files, :class:`shipyard._qt.window.recent.RecentFiles`)."""

    def export_folder(self, kind: str, doc: Document | None = None) -> Path | None: ...
    def remember_export_folder(self, kind: str, folder: Path) -> None: ...


class Printing:
    """File > Print to PDF: the dialog, the rendering in the background (answering through a
    bridge that goes with the window: a print still running then answers no one), the PDF
    opened; the folder it starts in is the one the last PDF went to (``folders``)."""

    def __init__(self, host: PrintHost, folders: ExportFolders) -> None:
        self.host = host
        self.folders = folders
        self.bridge = RenderBridge(host.window())
        self.bridge.done.connect(self._printed)

    def print_dialog(self) -> None:
        self.host.flush()
        view = self.host.current()
        if view is None:
            return
        dlg = PrintDialog(self.host.window(), self.host.paper, self.host.tabs.count() > 1)
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return
        docs = self.host.documents() if dlg.scope.currentData() == "all" else [view.doc]
        pdf = f"{view.doc.name if len(docs) == 1 else 'Fleet'}.pdf"  # the design's name
        out = self.ask_pdf_path(pdf, view.doc)
        if out is None:
            return
        tokens = dlg.sheet.currentData() == "tokens"
        fillable = dlg.fillable.isChecked() and not tokens
        token = dlg.token() if tokens else None
        self.print_to(out, docs, dlg.sheet.currentData(), dlg.paper.currentData(), fillable, token)

    def ask_pdf_path(self, pdf: str, doc: Document | None = None) -> Path | None:
        """Where to print: the save dialog, starting in the folder the last PDF went to (else
        ``doc``'s), and Replace or Cancel over a file that is there; None when not printed (said)."""
        from PySide6.QtWidgets import QFileDialog  # made on first use, off the start-up path

        from shipyard._qt.dialogs.replacing import ask_replace, existing

        start = self.folders.export_folder("pdf", doc)
        name, _ = QFileDialog.getSaveFileName(
            self.host.window(),
            "Print to PDF",
            str(start / pdf) if start is not None else pdf,
            "PDF (*.pdf)",
            options=QFileDialog.Option.DontConfirmOverwrite,  # asked below, in the editor's words
        )
        if not name:
            return None
        out = Path(name)
        self.folders.remember_export_folder("pdf", out.parent)
        if not ask_replace(self.host.window(), existing([out])):
            self.host.statusBar().showMessage(f"Not printed: {out} is as it was", 8000)
            return None
        return out

    def print_to(
        self,
        out: Path,
        docs: list[Document],
        sheet: str,
        paper: str,
        fillable: bool = False,
        token: TokenSpec | None = None,
    ) -> threading.Thread:
        self.host.flush()
        return self.print_loaded(out, [d.loaded for d in docs], sheet, paper, [d.report for d in docs], fillable, token)

    def print_loaded(
        self,
        out: Path,
        loaded: list[LoadedDesign],
        sheet: str,
        paper: str,
        reports: list[Report] | None = None,
        fillable: bool = False,
        token: TokenSpec | None = None,
    ) -> threading.Thread:
        """Print ``loaded`` (open documents, or design files the Hangar chose) to ``out`` on the
        render worker; the PDF opens in the desktop's viewer when it is done."""
        self.host.statusBar().showMessage(f"Printing {out}…")
        return render_in_background(
            self.bridge,
            loaded,
            out,
            sheet=sheet,
            paper=paper,
            name="shipyard-print",
            reports=reports,
            fillable=fillable,
            token=token,
        )

    def open_url(self, url: QUrl) -> bool:
        """Open ``url`` with the desktop's viewer; False when none could be started."""
        from PySide6.QtGui import QDesktopServices  # made on first use, off the start-up path

        return bool(QDesktopServices.openUrl(url))

    def _printed(self, path: str, error: str) -> None:
        from PySide6.QtCore import QUrl  # made on first use, off the start-up path

        if error:
            self.host.show_error("Printing failed", error)
            return
        self.host.statusBar().showMessage(f"Printed {path}", 8000)
        if self.open_url(QUrl.fromLocalFile(path)) is False:  # say where it is, never fail silently
            self.host.statusBar().showMessage(
                f"Printed {path} — no PDF viewer could be started; open the file from there"
            )
