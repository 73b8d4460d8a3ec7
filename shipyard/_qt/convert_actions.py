"""Import and conversion in the editor: stat blocks through the clipboard, Trinity vessels.

Edit > Paste as design reads the clipboard's stat blocks into new open documents, Edit >
Copy as stat block / Copy as Markdown puts the current design on the clipboard, and File >
Import > Trinity vessel… (a form) / Trinity vessel file… (YAML or JSON) convert a vessel
per Appendix 2. The reading, writing and converting are the pure functions of
``shipyard.convert`` (the same ones the command line uses); this module only asks, shows
and opens. Every question and every report is a method of :class:`ConvertActions`, so tests
can answer them without a modal dialog.

Nothing is dropped silently: the import report (or the conversion report) is shown; a stat
block with parts that were not understood opens only if the user says so, and then those
parts are kept in the design's notes (as ``shipyard import statblock --partial`` does). Bad
input is an error dialog with the engine's message, and open documents stay as they were.

The dialogs themselves are in :mod:`shipyard._qt.convert_dialogs`, imported when one is
first shown, so that building the menus at start-up stays cheap.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QMimeData, QObject, Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence, QTextDocumentFragment
from PySide6.QtWidgets import QDialog, QFileDialog, QMenu

from shipyard._qt.document import Document
from shipyard._qt.host import EditorWindow as MainWindow
from shipyard.core.designfile import LoadedDesign
from shipyard.core.errors import InputError
from shipyard.core.model import Catalog

if TYPE_CHECKING:
    from shipyard._qt.convert_dialogs import TrinityInput
    from shipyard._qt.view import DocumentView
    from shipyard.convert.statblock import ImportReport
    from shipyard.rulesets.space_fighter_alpha.trinity import ConversionTable

CLIPBOARD = "clipboard"
TRINITY_FILTER = "Trinity vessels (*.yaml *.yml *.json);;All files (*)"
MARKDOWN_MIME = "text/markdown"


def install(window: MainWindow) -> None:
    """Add the import and conversion actions to the window's Edit and File menus."""
    ConvertActions(window)


def actions_of(window: MainWindow) -> ConvertActions:
    """The window's import and conversion actions (installed by :func:`install`)."""
    found = window.findChild(ConvertActions)
    if found is None:
        raise LookupError("the window has no import and conversion actions")
    return found


def _menu(window: MainWindow, title: str) -> QMenu:
    for action in window.menuBar().actions():
        menu = action.menu()
        if isinstance(menu, QMenu) and menu.title().replace("&", "") == title:
            return menu
    return window.menuBar().addMenu(f"&{title}")


class ConvertActions(QObject):
    """The menu actions, and the questions and reports they need (patchable in tests)."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.setObjectName("convert_actions")
        self.window = window
        edit = _menu(window, "Edit")
        edit.addSeparator()
        self.paste_action = self._action(
            edit, "&Paste as design", self.paste_as_design, "Ctrl+Shift+V", "Open the stat blocks on the clipboard"
        )
        self.copy_action = self._action(
            edit,
            "&Copy as stat block",
            lambda: self.copy_as_statblock(),
            "Ctrl+Shift+C",
            "Copy the design as stat-block text",
        )
        self.copy_markdown_action = self._action(
            edit,
            "Copy as &Markdown",
            lambda: self.copy_as_statblock(markdown=True),
            None,
            "Copy the design as a Markdown stat block for forums",
        )
        file = _menu(window, "File")
        self.import_menu = QMenu("&Import", file)
        self.trinity_action = self._action(
            self.import_menu,
            "&Trinity vessel…",
            self.import_trinity_form,
            None,
            "Convert a Trinity vessel (Appendix 2) typed into a form",
        )
        self.trinity_file_action = self._action(
            self.import_menu,
            "Trinity vessel &file…",
            lambda: self.import_trinity_file(),
            None,
            "Convert a Trinity vessel from a YAML or JSON file (Appendix 2)",
        )
        before = self._after_open(file)
        if before is None:
            file.addMenu(self.import_menu)
        else:
            file.insertMenu(before, self.import_menu)
        window.tabs.currentChanged.connect(self._update_enabled)
        edit.aboutToShow.connect(self._update_formats)
        self._update_enabled()

    def _action(self, menu: QMenu, text: str, slot: Any, shortcut: str | None, tip: str) -> QAction:
        a = QAction(text, self.window)
        if shortcut:
            a.setShortcut(QKeySequence(shortcut))
        a.setStatusTip(tip)
        a.setToolTip(tip)
        a.triggered.connect(lambda _checked=False: slot())
        menu.addAction(a)
        return a

    def _after_open(self, file: QMenu) -> QAction | None:
        """The File menu's entry after Open recent (the Import submenu goes before it)."""
        actions = file.actions()
        recent = getattr(self.window, "recent_menu", None)
        anchor = recent.menuAction() if isinstance(recent, QMenu) else None
        if anchor in actions:
            i = actions.index(anchor)
            return actions[i + 1] if i + 1 < len(actions) else None
        return None

    def _update_enabled(self, _index: int = 0) -> None:
        has = self.window.current() is not None
        self.copy_action.setEnabled(has)
        self.copy_markdown_action.setEnabled(has)

    def _update_formats(self) -> None:
        """Grey out Copy as stat block for a ruleset that has no stat-block format.

        Checked when the Edit menu opens rather than on every tab change, so that
        opening a design at start-up does not load the stat-block reader.
        """
        view = self.window.current()
        if view is None:
            return
        from shipyard.convert.statblock import FORMAT_KIND

        has_format = bool(view.doc.catalog.kind(FORMAT_KIND))
        for action, tip in (
            (self.copy_action, "Copy the design as stat-block text"),
            (self.copy_markdown_action, "Copy the design as a Markdown stat block for forums"),
        ):
            action.setEnabled(has_format)
            action.setStatusTip(tip if has_format else f"{view.doc.catalog.meta.name} has no stat-block format")

    # --- shared ------------------------------------------------------------------------------

    def catalog(self, ruleset: str) -> Catalog:
        """The catalog new designs are read against: the user's folders and default preset."""
        return self.window.catalog_for_new(ruleset)

    def _open(self, loaded: LoadedDesign) -> DocumentView:
        doc = Document(loaded, None)
        doc.undo_stack.resetClean()  # imported work is unsaved until the user saves it
        return self.window.add_document(doc)

    def _status(self, message: str) -> None:
        self.window.statusBar().showMessage(message, 10000)

    # --- questions and reports (tests patch these) ----------------------------------------------

    def show_report(self, title: str, text: str) -> None:
        """Show a report beside the designs (not modal: the user may read it while editing)."""
        from shipyard._qt.convert_dialogs import ReportDialog

        dlg = ReportDialog(self.window, title, text)
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dlg.show()

    def ask_open_partial(self, reports: list[ImportReport]) -> bool:
        """Parts were not understood: open the designs anyway (parts kept in the notes)?"""
        from shipyard._qt.convert_dialogs import ReportDialog, partial_question, partial_text

        dlg = ReportDialog(self.window, "Parts not understood", partial_text(reports), ask=partial_question(reports))
        return dlg.exec() == QDialog.DialogCode.Accepted

    def ask_trinity_form(self) -> TrinityInput | None:
        """The Trinity vessel form; None when cancelled."""
        from shipyard._qt.convert_dialogs import TrinityDialog

        dlg = TrinityDialog(self.window, self.catalog(_trinity_table().target_ruleset))
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return None
        return dlg.value()

    def ask_trinity_file(self) -> Path | None:
        folder = self.window.settings.value("files/trinity-folder")
        name, _ = QFileDialog.getOpenFileName(
            self.window, "Import Trinity vessel", folder if isinstance(folder, str) else "", TRINITY_FILTER
        )
        if not name:
            return None
        self.window.settings.setValue("files/trinity-folder", str(Path(name).parent))
        return Path(name)

    # --- Edit > Paste as design -------------------------------------------------------------

    def clipboard_text(self) -> str:
        mime = QGuiApplication.clipboard().mimeData()
        if mime is None:
            return ""
        if mime.hasText():
            return mime.text()
        if mime.hasHtml():  # copied from a web page that gave no plain text
            return QTextDocumentFragment.fromHtml(mime.html()).toPlainText()
        return ""

    def paste_as_design(self) -> list[DocumentView]:
        """Every stat block on the clipboard, each opened as a new design."""
        from shipyard.convert.statblock import import_statblocks
        from shipyard.core.commandline import ruleset_offering

        title = "Cannot paste as design"
        text = self.clipboard_text()
        if not text.strip():
            self.window.show_error(
                title, "The clipboard holds no text. Copy a stat block ('Name: … Scale: … Weapons: …') first."
            )
            return []
        try:
            ruleset = ruleset_offering("formats", "statblock", "the text format")
            results = import_statblocks(text, self.catalog(ruleset), source=CLIPBOARD)
        except InputError as exc:
            self.window.show_error(title, str(exc))
            return []
        refused = [r for r in results if not r.ok]
        if refused and not self.ask_open_partial([r.report for r in results]):
            self._status("Nothing opened: parts of the pasted text were not understood")
            return []
        views = []
        for r in results:
            loaded = r.loaded(None)
            loaded.design = r.design_with_report_notes()  # the design itself when all was understood
            views.append(self._open(loaded))
        names = ", ".join(r.design.name for r in results)
        if refused:
            self._status(f"Opened {names}; the parts not understood are in the notes")
        else:
            self._status(f"Opened {names} from the clipboard")
            self.show_report("Import report", "\n\n".join("\n".join(r.report.lines()) for r in results))
        return views

    # --- Edit > Copy as stat block / Markdown -------------------------------------------------

    def copy_as_statblock(self, markdown: bool = False) -> str | None:
        """Put the current design on the clipboard as stat-block text (or Markdown)."""
        from shipyard.convert.statblock import export_statblock, lost_in_text

        view = self.window.current()
        if view is None:
            self._status("Open a design to copy it")
            return None
        doc = view.doc
        try:
            text = export_statblock(doc.design, doc.catalog, markdown=markdown)
            lost = lost_in_text(doc.design, doc.catalog)
        except InputError as exc:
            self.window.show_error("Cannot copy as stat block", str(exc))
            return None
        mime = QMimeData()
        mime.setText(text)
        if markdown:
            mime.setData(MARKDOWN_MIME, text.encode("utf-8"))
        QGuiApplication.clipboard().setMimeData(mime)
        what = "Markdown" if markdown else "a stat block"
        message = f"Copied {doc.design.name} as {what}"
        if lost:
            message += f"; a stat block cannot hold {', '.join(lost)}"
        self._status(message)
        return text

    # --- File > Import > Trinity vessel -------------------------------------------------------

    def import_trinity_form(self) -> DocumentView | None:
        title = "Cannot convert Trinity vessel"
        try:
            answer = self.ask_trinity_form()
        except InputError as exc:  # the conversion table or the catalog cannot be read
            self.window.show_error(title, str(exc))
            return None
        if answer is None:
            return None
        from shipyard.rulesets.space_fighter_alpha.trinity import convert_vessel

        try:
            result = convert_vessel(
                answer.vessel,
                self.catalog(_trinity_table().target_ruleset),
                structure=answer.structure,
                power=answer.power,
                crew=answer.crew,
            )
        except InputError as exc:
            self.window.show_error(title, str(exc))
            return None
        return self._open_converted(result)

    def import_trinity_file(self, path: Path | None = None) -> DocumentView | None:
        """Convert a vessel file, with Structure and Power assumed as the command line does."""
        from shipyard.rulesets.space_fighter_alpha.trinity import convert_vessel, load_vessel, locate

        if path is None:
            path = self.ask_trinity_file()
            if path is None:
                return None
        doc = None
        try:
            vessel, doc = load_vessel(path)
            result = convert_vessel(vessel, self.catalog(_trinity_table().target_ruleset))
        except InputError as exc:
            self.window.show_error("Cannot import Trinity vessel", str(locate(exc, path, doc)))
            return None
        return self._open_converted(result)

    def _open_converted(self, result: Any) -> DocumentView:
        view = self._open(result.loaded(None))
        self._status(f"Converted {result.vessel.name} from Trinity; the report is in its notes")
        lines = result.report_lines()
        lines += [
            "",
            "The report is kept in the design's notes. The design is marked as converted:",
            "its budgets are shown for information, and going over them is advice, not an error.",
        ]
        self.show_report("Conversion report", "\n".join(lines))
        return view


def _trinity_table() -> ConversionTable:
    from shipyard.rulesets.space_fighter_alpha.trinity import load_table

    return load_table()
