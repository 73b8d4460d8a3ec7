"""The main window: open designs in tabs, new and opened designs, settings, saving and closing.

Menus, recent files, autosave, drag and drop, printing, comparing, rosters and following
the tabs' files on disk are the window's parts: objects it holds (``window.menus``,
``window.recent_files``, ``window.recovery``, ``window.drops``, ``window.printing``,
``window.comparing``, ``window.rosters``, ``window.disk``), a module each, each asking of
the window only what its own Protocol says (:mod:`shipyard._qt.window.host` lists them).
The names tests and the app import from here (:class:`PrintDialog`,
:func:`install_crash_autosave`) are kept."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QSettings, QSize, QTimer
from PySide6.QtGui import QKeySequence, QUndoGroup
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow, QStackedWidget, QTabWidget

from shipyard._qt.actions.comparing import Comparing
from shipyard._qt.actions.printtopdf import PrintDialog, Printing
from shipyard._qt.document.document import FILTER, OPEN_FILTER, Document
from shipyard._qt.document.keys import redo_shortcuts
from shipyard._qt.panels.verdict import show_verdict
from shipyard._qt.preview.rendering import close_shared_worker
from shipyard._qt.view.documentview import DocumentView
from shipyard._qt.widgets.placement import clamp, fill_first
from shipyard._qt.window import autosave
from shipyard._qt.window.diskchanges import DiskChanges, followed
from shipyard._qt.window.dropping import FileDrops
from shipyard._qt.window.focusstyle import install_focus_frames
from shipyard._qt.window.menus import Menus
from shipyard._qt.window.recent import RecentFiles
from shipyard._qt.window.recovery import Recovery, install_crash_autosave
from shipyard._qt.window.rosters import Rosters, is_roster_file
from shipyard._qt.window.statusline import ElidingStatusBar
from shipyard._qt.window.welcome import Welcome
from shipyard.core.catalog import load_catalog, with_preset
from shipyard.core.designfile import EXTENSION, LoadedDesign, load_design
from shipyard.core.errors import InputError
from shipyard.core.model import Catalog
from shipyard.core.registry import get as ruleset_info
from shipyard.core.registry import is_installed, rulesets
from shipyard.core.termtext import escape
from shipyard.render.paper import PAPERS, default_paper

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMessageBox

    from shipyard._qt.document.rosterdoc import RosterDocument
    from shipyard._qt.window.newchooser import NewChooser

LAST_KEY = "design/last-new"  # the ruleset and kind made last: Ctrl+N's first choice (newchooser.py)

__all__ = ["MainWindow", "PrintDialog", "install_crash_autosave"]


class MainWindow(QMainWindow):
    """The editor's window: a tab for each open design (a start page while there is none),
    the settings new designs are made with, saving and closing; its other concerns are the
    parts it holds (:mod:`shipyard._qt.window.host` names them)."""

    def __init__(self, settings: QSettings, *, use_user_folder: bool = True, preview: bool = True) -> None:
        super().__init__()
        from shipyard.hangar import follow_saves

        follow_saves()  # the hangar's index follows every save of a design in a library folder
        self.settings = settings
        self.use_user_folder = use_user_folder
        self.preview_enabled = preview
        self.smoke = False  # set by `shipyard-gui --smoke`: report and quit once shown
        self.smoke_errors = 0  # errors a smoke run printed instead of showing (exit status 2)
        self.setWindowTitle("Shipyard")
        self.setStatusBar(ElidingStatusBar())  # a long message elided, the whole of it its tooltip
        app = QApplication.instance()
        if isinstance(app, QApplication):
            install_focus_frames(app)  # the focus shows on tables, check boxes, figures, the preview too
        self.undo_group = QUndoGroup(self)
        # the one undo history's Undo and Redo: the Edit menu's entries, the window's keys
        self.undo_action = self.undo_group.createUndoAction(self, "&Undo")
        self.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self.redo_action = self.undo_group.createRedoAction(self, "&Redo")
        self.redo_action.setShortcuts(redo_shortcuts())  # the platform's, Ctrl+Shift+Z and Ctrl+Y
        self.tabs = QTabWidget()
        self.tabs.setTabsClosable(True)
        self.tabs.setMovable(True)
        self.tabs.setDocumentMode(True)
        self.tabs.tabCloseRequested.connect(lambda i: self.close_tab(i))
        self.tabs.currentChanged.connect(self._current_changed)
        # The welcome page is built when it is first shown: a start with files never needs it.
        self.stack = QStackedWidget()
        self.stack.addWidget(self.tabs)
        self.welcome: Welcome | None = None
        self.setCentralWidget(self.stack)
        self.recent_files = RecentFiles(self)
        self.printing = Printing(self, self.recent_files)
        self.comparing = Comparing(self)
        self.drops = FileDrops(self)
        self.rosters = Rosters(self, self.recent_files)
        self.disk = DiskChanges(self)  # each tab follows its file as another program writes it
        self.menus = Menus(self, self.undo_action, self.redo_action)
        self._placed = False  # kept inside the screen with its frame, once first shown
        geometry = settings.value("window/geometry")
        if isinstance(geometry, QByteArray) and self.restoreGeometry(geometry):
            clamp(self)  # remembered on another screen: kept inside this one
        else:
            fill_first(self)  # most of the screen: the form and a readable preview side by side
        self._given = self.size()  # what the screen allowed: its frame kept inside too once shown
        self.recovery = Recovery(self)
        self.verdict = QLabel()
        self.verdict.setAccessibleName("Verdict")
        self.statusBar().addPermanentWidget(self.verdict)

    # --- the start page ---------------------------------------------------------------------

    def show_welcome(self) -> Welcome:
        """Show the page with new designs and samples, building it the first time."""
        if self.welcome is None:
            self.welcome = Welcome(self)
            self.stack.insertWidget(0, self.welcome)
        self.welcome.show_recent(self.recent_files.recent())
        self.stack.setCurrentWidget(self.welcome)
        return self.welcome

    def showEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        if self.tabs.count() == 0 and self.stack.currentWidget() is self.tabs:
            self.show_welcome()
        super().showEvent(event)
        if not self._placed:  # the frame is the window manager's, known once shown: kept inside too
            self._placed = True
            QTimer.singleShot(250, self, lambda: self._keep_inside(self._given))

    def _keep_inside(self, given: QSize) -> None:
        """Once the window manager has framed the window: the frame kept inside the screen,
        unless the window was resized since it was given its size (by the person, a script)."""
        if self.size() == given:
            clamp(self)

    # --- settings -------------------------------------------------------------------------

    @property
    def paper(self) -> str:
        value = self.settings.value("print/paper")
        return value if value in PAPERS else default_paper()

    def default_preset(self, ruleset: str) -> str | None:
        """The preset chosen in Settings > Default preset for new designs of ``ruleset``.

        Earlier versions kept one preset for every ruleset under "design/preset"; it still
        counts for a ruleset that has a preset of that id.
        """
        for key in (f"design/preset/{ruleset}", "design/preset"):
            value = self.settings.value(key)
            if isinstance(value, str) and value:
                return value
        return None

    def catalog_for_new(self, ruleset: str) -> Catalog:
        """The catalog a new, imported or converted design is read against.

        The user's catalog folders are layered on, and the default preset applied when the
        ruleset has it (else the ruleset's own default).
        """
        catalog = load_catalog(ruleset, self.catalog_folders(), use_user_folder=self.use_user_folder)
        preset = self.default_preset(ruleset)
        return with_preset(catalog, preset) if preset in catalog.presets else catalog

    def catalog_folders(self) -> tuple[Path, ...]:
        value = self.settings.value("catalog/folder")
        return (Path(value),) if isinstance(value, str) and value and Path(value).is_dir() else ()

    def choose_catalog_folder(self) -> None:
        from PySide6.QtWidgets import QFileDialog  # made on first use, off the start-up path

        folder = QFileDialog.getExistingDirectory(self, "User catalog folder")
        if folder:
            self.settings.setValue("catalog/folder", folder)
            self.statusBar().showMessage(f"House rules from {folder} apply to designs opened from now on", 8000)

    # --- documents ------------------------------------------------------------------------

    def documents(self) -> list[Document]:
        views = (self.tabs.widget(i) for i in range(self.tabs.count()))
        return [v.doc for v in views if isinstance(v, DocumentView)]

    def flush(self) -> None:
        """Commit the text being typed in any design (before Save, Print, Compare, closing,
        another tab): a person who types and presses Ctrl+S at once saves what they typed."""
        for doc in self.documents():
            doc.flush()

    def current(self) -> DocumentView | None:
        w = self.tabs.currentWidget()
        return w if isinstance(w, DocumentView) else None

    def current_ruleset(self) -> str | None:
        """The ruleset of the design shown, for the Help menu; None on the welcome page."""
        view = self.current()
        return None if view is None else view.doc.loaded.ruleset

    def report_error(self, message: str) -> None:
        self.statusBar().showMessage(f"Not changed: {message}", 10000)

    def show_error(self, title: str, message: str) -> None:
        """A modal error box; in a smoke run (no one to close it, no event loop yet) the error
        is printed to stderr instead and the run ends with exit status 2."""
        from PySide6.QtWidgets import QMessageBox  # made on first use, off the start-up path

        if self.smoke:
            for line in message.splitlines() or [""]:
                print(f"shipyard-gui: error: {title}: {escape(line)}", file=sys.stderr, flush=True)
            self.smoke_errors += 1
            return
        QMessageBox.critical(self, title, message)

    def add_document(self, doc: Document, *, broken_tab: bool = True) -> DocumentView | None:
        """``doc`` in a tab of its own; None when its ruleset's plug-in cannot show it (its
        ``derive`` or hand-written pages failed): the error is then in the design's tab
        (:mod:`shipyard._qt.window.brokentab`) and every other design stays open. ``broken_tab``
        False raises instead (File > New says it in a dialog: there is no design to keep)."""
        try:
            view = DocumentView(doc, self.report_error, self.paper, preview=self.preview_enabled)
        except (InputError, LookupError) as exc:  # a plug-in's failure (core.plugincode), its pages' (steppages)
            if not broken_tab:
                raise
            self._add_broken(doc, str(exc))
            return None
        view.remember_layout(self.settings, doc.loaded.ruleset)
        view.made.connect(self.add_document)  # what a ruleset's action made opens in a tab of its own
        self.undo_group.addStack(doc.undo_stack)
        i = self.tabs.addTab(view, doc.title)
        self.tabs.setCurrentIndex(i)
        self.stack.setCurrentWidget(self.tabs)
        doc.modified_changed.connect(lambda _m, d=doc: self._update_title(d))
        doc.file_changed.connect(lambda d=doc: self._update_title(d))
        doc.changed.connect(lambda d=doc: self._update_title(d))
        self._update_title(doc)
        return view

    def _add_broken(self, doc: Document, message: str) -> None:
        from shipyard._qt.window.brokentab import BrokenDesign

        if self.smoke:
            for line in message.splitlines() or [""]:
                print(f"shipyard-gui: error: {escape(doc.name)}: {escape(line)}", file=sys.stderr, flush=True)
            self.smoke_errors += 1
        i = self.tabs.addTab(BrokenDesign(doc, message), f"{doc.name} (cannot be shown)")
        self.tabs.setTabToolTip(i, message)
        self.tabs.setCurrentIndex(i)
        self.stack.setCurrentWidget(self.tabs)

    def new(self, kind: str | None = None, ruleset: str | None = None) -> DocumentView | None:
        """A new design of ``kind`` of ``ruleset`` (as their manifest names them; without a
        ruleset, the first that offers ``kind``; by default the first kind of the first
        ruleset). None, after an error dialog, when the user's catalog folder (or the
        ruleset) cannot be read.
        """
        try:
            offers = [i for i in rulesets() if kind and i.kind(kind)] if not ruleset else []
            info = ruleset_info(ruleset) if ruleset else (offers or rulesets())[0]
            kind = kind or info.kinds[0].id
            catalog = self.catalog_for_new(info.id)
            found = info.kind(kind)
            name = f"New {found.name.lower()}" if found else f"New {kind}"
            design = catalog.module.resolve(catalog.module.new_design(kind, name, catalog), catalog)
        except (InputError, IndexError) as exc:
            self.show_error(
                "Cannot start a new design", str(exc) if isinstance(exc, InputError) else "no ruleset is installed"
            )
            return None
        preset = catalog.preset.id if catalog.preset else catalog.meta.default_preset
        try:
            view = self.add_document(Document(LoadedDesign(None, info.id, preset, design, catalog)), broken_tab=False)
        except (InputError, LookupError) as exc:  # no pages for the editor (steppages.step_pages), a plug-in failed
            self.show_error("Cannot start a new design", str(exc))
            return None
        self.settings.setValue(LAST_KEY, f"{info.id} {kind}")  # what Ctrl+N offers first next time
        what = found.name.lower() if found else kind
        self.statusBar().showMessage(f"A new {info.name} {what}", 8000)  # which game it is, said
        return view

    def ask_new(self) -> NewChooser:
        """Ctrl+N: ask which ruleset and kind the new design is (the kind made last chosen;
        Enter makes it); the design is made when the person says which."""
        from shipyard._qt.window.newchooser import NewChooser  # made on first use, off the start-up path

        last = self.settings.value(LAST_KEY)
        chooser = NewChooser(self, last if isinstance(last, str) else "")

        def make() -> None:
            chosen = chooser.chosen()
            if chosen is not None:
                self.new(chosen[1], chosen[0])

        chooser.accepted.connect(make)
        chooser.finished.connect(chooser.deleteLater)
        chooser.open()
        return chooser

    def open_sample(self, path: Path) -> DocumentView | None:
        """A sample opens as a new, untitled design: saving asks where (as every file inside
        the installed catalogs does, however it is opened: :meth:`open_file`)."""
        return self.open_file(path, remember=False)

    def open_dialog(self) -> None:
        from PySide6.QtWidgets import QFileDialog  # made on first use, off the start-up path

        files, _ = QFileDialog.getOpenFileNames(self, "Open designs", self.recent_files.start_path(None), OPEN_FILTER)
        for f in files:
            self.open_file(Path(f))

    def load(self, path: Path) -> LoadedDesign:
        return load_design(path, catalog_folders=self.catalog_folders(), use_user_folder=self.use_user_folder)

    def tab_of(self, path: Path, but: Document | None = None) -> int | None:
        """The tab of the design open from ``path`` (another than ``but``), if one is: one file
        is edited in one tab, or a Save in one would write over the other's unasked."""
        wanted = Path(path).resolve()
        for i in range(self.tabs.count()):
            view = self.tabs.widget(i)
            if isinstance(view, DocumentView) and view.doc is not but and view.doc.path is not None:  # noqa: SIM102
                if view.doc.path.resolve() == wanted:
                    return i
        return None

    def open_file(self, path: Path, remember: bool = True) -> DocumentView | None:
        # absolute, so recent files work from any folder; not resolve(): a symlinked folder keeps its name
        path = Path(os.path.abspath(path))  # noqa: PTH100
        if is_roster_file(path):  # a roster opens in a tab of its own (window.rosters)
            self.rosters.open_roster(path, remember)
            return None
        open_at = self.tab_of(path)
        if open_at is not None:
            self.tabs.setCurrentIndex(open_at)
            view = self.tabs.widget(open_at)
            assert isinstance(view, DocumentView)
            self.disk.follow(view, asked=True)  # shown as the file is now, or its edits' bar shown again
            return self.current()
        try:
            loaded = self.load(path)
        except InputError as exc:
            self.show_error("Cannot open design", str(exc))
            return None
        if is_installed(path):  # a bundled sample, from the start page or File > Open: an untitled copy
            return self.add_document(Document(loaded, None))
        if remember:
            self.recent_files.remember(path)
        return self.add_document(Document(loaded, path))

    def _update_title(self, doc: Document) -> None:
        for i in range(self.tabs.count()):
            view = self.tabs.widget(i)
            if isinstance(view, DocumentView) and view.doc is doc:
                text, tip = doc.name + (" *" if doc.modified else ""), str(doc.path) if doc.path else "Not saved yet"
                if self.tabs.tabText(i) != text:  # set, the tab bar lays itself out again: each edit
                    self.tabs.setTabText(i, text)
                if self.tabs.tabToolTip(i) != tip:
                    self.tabs.setTabToolTip(i, tip)
        cur = self.current()
        if cur is not None:
            self.setWindowTitle(f"{cur.doc.title}[*] — Shipyard")
            self.setWindowModified(cur.doc.modified)
        else:
            self.setWindowTitle("Shipyard")
            self.setWindowModified(False)
        self.show_verdict()

    def show_verdict(self) -> None:
        """The status bar's permanent part: the current design's verdict (:mod:`shipyard._qt.panels.verdict`)."""
        cur = self.current()
        show_verdict(self.verdict, cur.doc if cur is not None else None)

    def _current_changed(self, _i: int) -> None:
        self.flush()
        shown = self.tabs.currentWidget()
        if followed(shown):  # a change the watch could not see (a path not watched) is seen here
            self.disk.follow(shown)
        cur = self.current()
        self.undo_group.setActiveStack(cur.doc.undo_stack if cur else None)  # type: ignore[arg-type]
        roster = self.rosters.current_roster()
        if cur:
            self._update_title(cur.doc)
        elif roster is not None:
            self.rosters.roster_shown(roster)
        elif self.tabs.count():  # a tab that shows an error (a design's, a roster's)
            self._update_title(None)  # type: ignore[arg-type]
        else:
            self.show_welcome()
            self._update_title(None)  # type: ignore[arg-type]

    # --- saving and closing -----------------------------------------------------------------

    def ask_replace_changed(self, path: Path) -> bool:
        """Save over a file another program wrote since it was opened here? Replace or Cancel."""
        from shipyard._qt.dialogs.replacing import ask_replace

        return ask_replace(
            self,
            [path],
            (
                f"“{path.name}” in {path.parent} was changed by another program since you opened it.",
                "Replace it with your version? The other program's changes will be lost.",
            ),
        )

    def ask_save_path(self, doc: Document) -> Path | None:
        from PySide6.QtWidgets import QFileDialog  # made on first use, off the start-up path

        name, _ = QFileDialog.getSaveFileName(
            self, "Save design", str(doc.path or self.recent_files.start_path(doc, f"{doc.name}{EXTENSION}")), FILTER
        )
        if not name:
            return None
        path = Path(name)
        return path if path.suffix else path.with_suffix(EXTENSION)

    def save(self, doc: Document | None = None, as_new: bool = False) -> bool:
        self.flush()
        roster = self.rosters.current_roster() if doc is None else None
        if roster is not None:
            return self.rosters.save_roster_page(roster, as_new)
        view = self.current()
        doc = doc or (view.doc if view else None)
        if doc is None:
            return False
        target = doc.path
        if as_new or target is None or is_installed(target):  # never over a bundled sample: ask where
            target = self.ask_save_path(doc)
            if target is None:
                return False
            if self.tab_of(target, but=doc) is not None:  # two tabs on one file: each Save would undo the other's
                self.show_error(
                    "Cannot save",
                    f"“{target.name}” is open in another tab. Close that tab first, or save under another name.",
                )
                return False
        if target == doc.path and doc.changed_on_disk() and not self.ask_replace_changed(target):
            return False  # the other program's change stays; the edit stays unsaved
        try:
            doc.save(target)
        except InputError as exc:  # no such folder, no permission, disk full: the file is as it was
            self.show_error("Cannot save", str(exc))
            return False
        autosave.discard(doc)
        self.recent_files.remember(target)
        self.statusBar().showMessage(f"Saved {target}", 5000)
        return True

    def unsaved_box(self, doc: Document | RosterDocument) -> QMessageBox:
        """The question for a document with unsaved changes. Its default (Enter) is Save:
        a design of the user's own is saved where it is; one without a file of its own (a
        new design, a sample's copy) asks where, so Enter never writes over a sample."""
        from PySide6.QtWidgets import QMessageBox  # made on first use, off the start-up path

        unfiled = "" if doc.path is not None else "\n\nIt has no file of its own yet: Save asks where to keep it."
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            "Unsaved changes",
            f"Save the changes to {doc.title}?{unfiled}",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
            self,
        )
        box.setDefaultButton(QMessageBox.StandardButton.Save)
        box.setEscapeButton(QMessageBox.StandardButton.Cancel)
        return box

    @staticmethod
    def unsaved_answer(box: QMessageBox, answer: int) -> str:
        """'save', 'discard' or 'cancel', from the button the box was closed with."""
        from PySide6.QtWidgets import QMessageBox  # made on first use, off the start-up path

        return {QMessageBox.StandardButton.Save: "save", QMessageBox.StandardButton.Discard: "discard"}.get(
            QMessageBox.StandardButton(answer), "cancel"
        )

    def ask_unsaved(self, doc: Document | RosterDocument) -> str:
        """'save', 'discard' or 'cancel' for a document (a design, a roster) with unsaved changes."""
        box = self.unsaved_box(doc)
        return self.unsaved_answer(box, box.exec())

    def _may_close(self, doc: Document) -> bool:
        doc.flush()
        if not doc.modified:
            return True
        answer = self.ask_unsaved(doc)
        if answer == "save":
            return self.save(doc)
        return answer == "discard"

    def close_tab(self, index: int) -> bool:
        view = self.tabs.widget(index)
        if self.rosters.is_roster_tab(view):
            return self.rosters.close_roster_tab(index)
        if not isinstance(view, DocumentView):
            from shipyard._qt.window.brokentab import BrokenDesign

            if not isinstance(view, BrokenDesign):
                return False
            self.tabs.removeTab(index)  # the design as it was read: nothing to save
            view.deleteLater()
            if self.tabs.count() == 0:
                self.show_welcome()
            return True
        if not self._may_close(view.doc):
            return False
        autosave.discard(view.doc)
        self.undo_group.removeStack(view.doc.undo_stack)
        view.release()  # a detached preview closes with its design
        self.tabs.removeTab(index)
        view.deleteLater()
        if self.tabs.count() == 0:
            self.show_welcome()
        return True

    def closeEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        for i in reversed(range(self.tabs.count())):
            self.tabs.setCurrentIndex(i)
            if not self.close_tab(i):
                event.ignore()
                return
        self.settings.setValue("window/geometry", self.saveGeometry())
        close_shared_worker()
        event.accept()
