"""Import and conversion in the editor, for whatever text formats and conversions the rulesets offer.

Edit > Paste as design reads the clipboard's text (a ruleset's text format, such as stat
blocks) into new open documents; Edit > Copy as text / Copy as Markdown puts the current
design on the clipboard in its ruleset's format; File > Import lists each ruleset's
conversions (a record of another game from a file, and by a form where the ruleset has
one). What they are comes from the manifests (docs/rulesets.md); the reading, writing and
converting are the rulesets' own modules, the same ones the command line uses. This
module only asks, shows and opens. Every question and every report is a method of
:class:`ConvertActions`, so tests can answer them without a modal dialog.

Nothing is dropped silently: the import report (or the conversion report) is shown; a text
with parts that were not understood opens only if the user says so, and then those parts
are kept in the design's notes (as ``shipyard import --partial`` does). Bad input is an
error dialog with the engine's message, and open documents stay as they were.

The dialogs themselves are in :mod:`shipyard._qt.dialogs.convertdialogs` (and a conversion's form
in its ruleset), imported when one is first shown, so that building the menus stays cheap.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QMimeData, QObject, QSettings, Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence, QTextDocumentFragment
from PySide6.QtWidgets import QDialog, QMenu, QMenuBar, QStatusBar, QTabWidget, QWidget

from shipyard._qt.document.document import Document
from shipyard.core.designfile import LoadedDesign
from shipyard.core.errors import InputError
from shipyard.core.model import Catalog
from shipyard.core.registry import RulesetInfo, rulesets

if TYPE_CHECKING:
    from shipyard._qt.view.documentview import DocumentView
    from shipyard.core.textformats import ConversionModule, ConversionResult, ImportReport, TextFormatModule

CLIPBOARD = "clipboard"
MARKDOWN_MIME = "text/markdown"


class _RecentMenu(Protocol):
    @property
    def menu(self) -> QMenu | None: ...  # File > Open recent, once it is in the File menu


class ConvertHost(Protocol):
    """What import and conversion ask of the window: its menus, its settings, the design shown,
    the catalog a new design is read against, a tab for what was read."""

    settings: QSettings
    tabs: QTabWidget

    @property
    def recent_files(self) -> _RecentMenu: ...
    def window(self) -> QWidget: ...
    def menuBar(self) -> QMenuBar: ...
    def statusBar(self) -> QStatusBar: ...
    def current(self) -> DocumentView | None: ...
    def catalog_for_new(self, ruleset: str) -> Catalog: ...
    def add_document(self, doc: Document) -> DocumentView | None: ...
    def show_error(self, title: str, message: str) -> None: ...


def install(window: ConvertHost) -> None:
    """Add the import and conversion actions to the window's Edit and File menus."""
    ConvertActions(window)


def actions_of(window: ConvertHost) -> ConvertActions:
    """The window's import and conversion actions (installed by :func:`install`)."""
    found = window.window().findChild(ConvertActions)
    if found is None:
        raise LookupError("the window has no import and conversion actions")
    return found


def _menu(window: ConvertHost, title: str) -> QMenu:
    for action in window.menuBar().actions():
        menu = action.menu()
        if isinstance(menu, QMenu) and menu.title().replace("&", "") == title:
            return menu
    return window.menuBar().addMenu(f"&{title}")


@dataclass(frozen=True)
class Offer:
    """A text format or a conversion of one ruleset, as its manifest declares it."""

    info: RulesetInfo
    entry: Any

    @property
    def key(self) -> str:
        return f"{self.info.id}:{self.entry.id}"

    def text_format(self) -> TextFormatModule:
        """The format's module, imported now (and checked to have what the entry declares)."""
        from shipyard.core.textformats import text_format

        return text_format(self.info, self.entry)

    def conversion(self) -> ConversionModule:
        """The conversion's module, imported now (and checked to have ``convert_file``)."""
        from shipyard.core.textformats import conversion

        return conversion(self.info, self.entry)


class ConvertActions(QObject):
    """The menu actions, and the questions and reports they need (patchable in tests)."""

    def __init__(self, window: ConvertHost) -> None:
        super().__init__(window.window())
        self.widget = window.window()  # what the actions and dialogs belong to
        self.setObjectName("convert_actions")
        self.window = window
        self.readers = [Offer(i, f) for i in rulesets() for f in i.formats if f.reads]
        self.conversions = {o.key: o for o in (Offer(i, c) for i in rulesets() for c in i.conversions)}
        edit = _menu(window, "Edit")
        edit.addSeparator()
        self.paste_action = self._action(
            edit,
            "&Paste as design",
            self.paste_as_design,
            "Ctrl+Shift+V",
            "Open the designs on the clipboard ("
            + (", ".join(o.entry.name for o in self.readers) or "no format")
            + ")",
        )
        self.paste_action.setEnabled(bool(self.readers))
        self.copy_action = self._action(
            edit, "&Copy as text", lambda: self.copy_as_text(), "Ctrl+Shift+C", "Copy the design as text"
        )
        self.copy_markdown_action = self._action(
            edit, "Copy as &Markdown", lambda: self.copy_as_text(markdown=True), None, "Copy the design as Markdown"
        )
        file = _menu(window, "File")
        self.import_menu = QMenu("&Import", file)
        self.form_actions: dict[str, QAction] = {}
        self.file_actions: dict[str, QAction] = {}
        for key, offer in self.conversions.items():
            c = offer.entry
            if c.form:
                self.form_actions[key] = self._action(
                    self.import_menu,
                    f"{c.name}…",
                    lambda k=key: self.import_form(k),
                    None,
                    f"Convert a {c.name} typed into a form ({offer.info.name})",
                )
            self.file_actions[key] = self._action(
                self.import_menu,
                f"{c.name} file…",
                lambda k=key: self.import_file(k),
                None,
                f"Convert a {c.name} from a file ({offer.info.name}): {c.help}".rstrip(": "),
            )
        self.import_menu.setEnabled(bool(self.conversions))
        before = self._after_open(file)
        if before is None:
            file.addMenu(self.import_menu)
        else:
            file.insertMenu(before, self.import_menu)
        window.tabs.currentChanged.connect(self._update_enabled)
        edit.aboutToShow.connect(self._update_formats)
        self._update_enabled()

    def _action(self, menu: QMenu, text: str, slot: Any, shortcut: str | None, tip: str) -> QAction:
        a = QAction(text, self.widget)
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
        recent = self.window.recent_files.menu
        anchor = recent.menuAction() if recent is not None else None
        if anchor in actions:
            i = actions.index(anchor)
            return actions[i + 1] if i + 1 < len(actions) else None
        return None

    def _update_enabled(self, _index: int = 0) -> None:
        has = self.window.current() is not None
        self.copy_action.setEnabled(has)
        self.copy_markdown_action.setEnabled(has)

    def writer(self, view: DocumentView) -> Offer | None:
        """The text format the current design's ruleset writes, if it has one."""
        from shipyard.core.registry import get

        info = get(view.doc.loaded.ruleset)
        entry = next((f for f in info.formats if f.writes), None)
        return Offer(info, entry) if entry is not None else None

    def _update_formats(self) -> None:
        """Name the current ruleset's format in Copy as ..., or grey it out where it has none.

        Checked when the Edit menu opens rather than on every tab change; the format's module
        is imported only when the user copies.
        """
        view = self.window.current()
        if view is None:
            return
        offer = self.writer(view)
        name = offer.entry.name if offer is not None else ""
        self.copy_action.setText(f"&Copy as {name}" if offer is not None else "&Copy as text")
        for action, tip in (
            (self.copy_action, f"Copy the design as {name}"),
            (self.copy_markdown_action, f"Copy the design as {name} in Markdown, for forums"),
        ):
            action.setEnabled(offer is not None)
            action.setStatusTip(tip if offer is not None else f"{view.doc.catalog.meta.name} has no text format")

    # --- shared ------------------------------------------------------------------------------

    def catalog(self, ruleset: str) -> Catalog:
        """The catalog new designs are read against: the user's folders and default preset."""
        return self.window.catalog_for_new(ruleset)

    def _open(self, loaded: LoadedDesign) -> DocumentView | None:
        doc = Document(loaded, None)
        doc.undo_stack.resetClean()  # imported work is unsaved until the user saves it
        return self.window.add_document(doc)

    def _status(self, message: str) -> None:
        self.window.statusBar().showMessage(message, 10000)

    # --- questions and reports (tests patch these) ----------------------------------------------

    def show_report(self, title: str, text: str) -> None:
        """Show a report beside the designs (not modal: the user may read it while editing)."""
        from shipyard._qt.dialogs.convertdialogs import ReportDialog

        dlg = ReportDialog(self.widget, title, text)
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dlg.show()

    def ask_open_partial(self, reports: list[ImportReport]) -> bool:
        """Parts were not understood: open the designs anyway (parts kept in the notes)?"""
        from shipyard._qt.dialogs.convertdialogs import ReportDialog, partial_question, partial_text

        dlg = ReportDialog(self.widget, "Parts not understood", partial_text(reports), ask=partial_question(reports))
        return dlg.exec() == QDialog.DialogCode.Accepted

    def ask_reader(self) -> Offer | None:
        """Which format the clipboard's text is in, when several rulesets read text."""
        from PySide6.QtWidgets import QInputDialog  # made on first use, off the start-up path

        if len(self.readers) == 1:
            return self.readers[0]
        labels = [f"{o.entry.name} ({o.info.name})" for o in self.readers]
        choice, ok = QInputDialog.getItem(self.widget, "Paste as design", "The text is", labels, 0, False)
        return self.readers[labels.index(choice)] if ok else None

    def ask_form(self, offer: Offer) -> ConversionResult | None:
        """The conversion's form (the ruleset's dialog, whose ``converted()`` gives the result
        once it was accepted); the conversion result, or None when cancelled."""
        from shipyard.core.textformats import conversion_form

        dlg = conversion_form(offer.info, offer.entry)(self.widget, self.catalog(offer.info.id))
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return None
        return dlg.converted()

    def ask_file(self, offer: Offer) -> Path | None:
        from PySide6.QtWidgets import QFileDialog  # made on first use, off the start-up path

        setting = f"files/import-folder/{offer.key}"
        folder = self.window.settings.value(setting)
        patterns = " ".join(f"*{s}" for s in offer.entry.suffixes) or "*"
        name, _ = QFileDialog.getOpenFileName(
            self.widget,
            f"Import {offer.entry.name}",
            folder if isinstance(folder, str) else "",
            f"{offer.entry.name} ({patterns});;All files (*)",
        )
        if not name:
            return None
        self.window.settings.setValue(setting, str(Path(name).parent))
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
        """Every design in the clipboard's text, each opened as a new design."""
        title = "Cannot paste as design"
        text = self.clipboard_text()
        if not text.strip():
            names = " or ".join(o.entry.name for o in self.readers) or "a text a ruleset reads"
            self.window.show_error(title, f"The clipboard holds no text. Copy {names} first.")
            return []
        offer = self.ask_reader()
        if offer is None:
            return []
        try:
            results = offer.text_format().read(text, self.catalog(offer.info.id), source=CLIPBOARD)
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
            view = self._open(loaded)
            if view is not None:  # else its tab says why its ruleset's plug-in cannot show it
                views.append(view)
        names = ", ".join(r.design.name for r in results)
        if refused:
            self._status(f"Opened {names}; the parts not understood are in the notes")
        else:
            self._status(f"Opened {names} from the clipboard")
            self.show_report("Import report", "\n\n".join("\n".join(r.report.lines()) for r in results))
        return views

    # --- Edit > Copy as text / Markdown -------------------------------------------------------

    def copy_as_text(self, markdown: bool = False) -> str | None:
        """Put the current design on the clipboard in its ruleset's text format (or as Markdown)."""
        view = self.window.current()
        if view is None:
            self._status("Open a design to copy it")
            return None
        offer = self.writer(view)
        doc = view.doc
        if offer is None:
            self._status(f"{doc.catalog.meta.name} has no text format to copy the design in")
            return None
        try:
            fmt = offer.text_format()
            text = fmt.write(doc.design, doc.catalog, markdown=markdown)
            from shipyard.core.textformats import left_out_of_text

            lost = left_out_of_text(fmt, doc.design, doc.catalog)
        except InputError as exc:
            self.window.show_error(f"Cannot copy as {offer.entry.name}", str(exc))
            return None
        mime = QMimeData()
        mime.setText(text)
        if markdown:
            mime.setData(MARKDOWN_MIME, text.encode("utf-8"))
        QGuiApplication.clipboard().setMimeData(mime)
        what = f"Markdown {offer.entry.name}" if markdown else offer.entry.name
        message = f"Copied {doc.design.name} as {what}"
        if lost:
            message += f", without {', '.join(lost)}"  # short: the status bar at 1280x720 shows some 75 letters
        self._status(message)
        return str(text)

    # --- File > Import > a conversion ---------------------------------------------------------

    def import_form(self, key: str) -> DocumentView | None:
        offer = self.conversions[key]
        try:
            result = self.ask_form(offer)
        except InputError as exc:  # the conversion table or the catalog cannot be read, or the form refused
            self.window.show_error(f"Cannot convert {offer.entry.name}", str(exc))
            return None
        if result is None:
            return None
        return self._open_converted(offer, result)

    def import_file(self, key: str, path: Path | None = None) -> DocumentView | None:
        """Convert a record file, with what it lacks assumed as the command line does."""
        offer = self.conversions[key]
        if path is None:
            path = self.ask_file(offer)
            if path is None:
                return None
        try:
            result = offer.conversion().convert_file(path, self.catalog(offer.info.id), {})
        except InputError as exc:
            self.window.show_error(f"Cannot import {offer.entry.name}", str(exc))
            return None
        return self._open_converted(offer, result)

    def _open_converted(self, offer: Offer, result: ConversionResult) -> DocumentView | None:
        view = self._open(result.loaded(None))
        if view is None:
            return None
        self._status(f"Converted {view.doc.design.name} from a {offer.entry.name}; the report is in its notes")
        lines = [*result.report_lines(), "", "The report is kept in the design's notes."]
        self.show_report("Conversion report", "\n".join(lines))
        return view
