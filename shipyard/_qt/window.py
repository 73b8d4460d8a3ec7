"""The main window: open designs in tabs, files, undo, settings, autosave, printing."""

from __future__ import annotations

import html
import os
import sys
import threading
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings, QSize, Qt, QTimer, QUrl
from PySide6.QtGui import QAction, QActionGroup, QDesktopServices, QKeySequence, QPalette, QUndoGroup
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from shipyard._qt import autosave, convert_actions, exportactions, helpmenu, previewactions
from shipyard._qt.document import Document
from shipyard._qt.focusstyle import FOCUS_STYLE
from shipyard._qt.formbase import mark_colour
from shipyard._qt.host import EditorWindow
from shipyard._qt.keys import redo_shortcuts
from shipyard._qt.placement import clamp, fit_first
from shipyard._qt.rendering import RenderBridge, close_shared_worker, render_in_background
from shipyard._qt.scrollpage import ScrollPage
from shipyard._qt.statusline import ElidingStatusBar
from shipyard._qt.view import DocumentView
from shipyard.core.catalog import load_catalog, with_preset
from shipyard.core.designfile import EXTENSION, LoadedDesign, load_design, sample_files
from shipyard.core.errors import InputError
from shipyard.core.model import Catalog
from shipyard.core.registry import get as ruleset_info
from shipyard.core.registry import is_installed, rulesets
from shipyard.core.registry import problems as registry_problems
from shipyard.core.termtext import escape
from shipyard.render.paper import PAPER_NAMES, PAPERS, default_paper
from shipyard.render.tokens import SHAPES, SIZE_HELP, TokenSpec, token_spec

FILTER = f"Shipyard designs (*{EXTENSION});;All files (*)"
MAX_RECENT = 10
AUTOSAVE_MS = 60_000


def _sample_name(path: Path) -> str:
    return path.stem.replace("-", " ").title()


def _plain(menu_text: str) -> str:
    return menu_text.replace("&", "")


class Welcome(ScrollPage):
    """New designs and samples of every installed ruleset, from their manifests (no ruleset is imported).

    The rulesets sit two to a row, so that the page fits a 1280x720 screen (one under
    another it was 770 pixels tall and made the window taller than the screen); a
    smaller window scrolls the page."""

    def __init__(self, window: MainWindow) -> None:
        page = QWidget()
        super().__init__(page)
        lay = QVBoxLayout(page)
        lay.addStretch(1)
        title = QLabel("<h1>Shipyard</h1><p>Build a spacecraft by the rules, or open one of the sample ships.</p>")
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        lay.addWidget(title)
        grid = QGridLayout()
        grid.setHorizontalSpacing(48)
        grid.setVerticalSpacing(16)
        centred = QHBoxLayout()  # the two columns side by side in the middle, not at the window's edges
        centred.addStretch(1)
        centred.addLayout(grid)
        centred.addStretch(1)
        lay.addLayout(centred)
        for n, info in enumerate(rulesets()):
            cell = QVBoxLayout()
            grid.addLayout(cell, n // 2, n % 2, Qt.AlignmentFlag.AlignTop)
            heading = QLabel(f"<b>{info.name}</b>")
            heading.setToolTip(info.manifest.description)
            cell.addWidget(heading, alignment=Qt.AlignmentFlag.AlignCenter)
            row = QWidget()
            buttons = QHBoxLayout(row)
            buttons.setContentsMargins(0, 0, 0, 0)
            for kind in info.kinds:
                b = QPushButton(f"New {kind.name.lower()}")
                b.setAccessibleName(f"New {info.name} {kind.name.lower()}")
                b.setToolTip(kind.description)
                b.setMinimumWidth(120)
                b.clicked.connect(lambda _=False, k=kind.id, r=info.id: window.new(k, r))
                buttons.addWidget(b)
            cell.addWidget(row, alignment=Qt.AlignmentFlag.AlignCenter)
            samples = sample_files(info.samples)
            if samples:
                picker = QComboBox()
                picker.setAccessibleName(f"Open a {info.name} sample")
                picker.addItem(f"Open a sample ({len(samples)})…", None)
                for f in samples:
                    picker.addItem(_sample_name(f), str(f))
                picker.activated.connect(
                    lambda i, p=picker: window.open_sample(Path(p.itemData(i))) if p.itemData(i) else None
                )
                cell.addWidget(picker, alignment=Qt.AlignmentFlag.AlignCenter)
            if info.manifest.samples_note:
                note = QLabel(info.manifest.samples_note, wordWrap=True)
                note.setAlignment(Qt.AlignmentFlag.AlignCenter)
                note.setFixedSize(480, note.heightForWidth(480))  # all its lines, in a centred layout
                cell.addWidget(note, alignment=Qt.AlignmentFlag.AlignCenter)
        for problem in registry_problems():
            broken = QLabel(f"Not loaded: {escape(str(problem))}", wordWrap=True)
            broken.setTextFormat(Qt.TextFormat.PlainText)  # a folder name is text, never markup
            broken.setMaximumWidth(560)
            lay.addWidget(broken, alignment=Qt.AlignmentFlag.AlignCenter)
        self.main = window
        self.recent_box = QWidget()  # the designs opened last, filled each time the page shows
        self.recent_box.setAccessibleName("Recent designs")
        self.recent_lay = QVBoxLayout(self.recent_box)
        self.recent_lay.setContentsMargins(0, 8, 0, 0)
        lay.addWidget(self.recent_box, alignment=Qt.AlignmentFlag.AlignCenter)
        lay.addStretch(2)

    def show_recent(self, paths: list[str]) -> list[QPushButton]:
        """A button for each recent design that is still there (the first five)."""
        lay = self.recent_lay
        while lay.count():
            item = lay.takeAt(0)
            old = item.widget() if item is not None else None
            if old is not None:
                old.deleteLater()
        there = [Path(p) for p in paths if Path(p).is_file()][:5]
        buttons = []
        if there:
            lay.addWidget(QLabel("<b>Recent designs</b>"), alignment=Qt.AlignmentFlag.AlignCenter)
        for path in there:
            b = QPushButton(path.name)
            b.setAccessibleName(f"Open {path.name}")
            b.setToolTip(str(path))
            b.setMinimumWidth(240)
            b.clicked.connect(lambda _=False, p=path: self.main.open_file(p))
            lay.addWidget(b, alignment=Qt.AlignmentFlag.AlignCenter)
            buttons.append(b)
        self.recent_box.setVisible(bool(there))
        return buttons


class PrintDialog(QDialog):
    def __init__(self, parent: QWidget, paper: str, several: bool) -> None:
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
        if self.sheet.currentData() == "tokens":
            try:
                self.token()
            except InputError as exc:  # said at once, the dialog stays open with what was typed
                QMessageBox.warning(self, "Token size", str(exc.problems[0]))
                self.token_size.setFocus()
                return
        super().accept()


class MainWindow(EditorWindow):
    def __init__(self, settings: QSettings, *, use_user_folder: bool = True, preview: bool = True) -> None:
        super().__init__()
        self.settings = settings
        self.use_user_folder = use_user_folder
        self.preview_enabled = preview
        self.smoke = False  # set by `shipyard-gui --smoke`: report and quit once shown
        self.smoke_errors = 0  # errors a smoke run printed instead of showing (exit status 2)
        self.setWindowTitle("Shipyard")
        self.setStatusBar(ElidingStatusBar())  # a long message elided, the whole of it its tooltip
        self.setStyleSheet(FOCUS_STYLE)  # the focus shows on tables, check boxes, figures, the preview too
        self.setAcceptDrops(True)
        self.undo_group = QUndoGroup(self)
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
        self._make_menus()
        geometry = settings.value("window/geometry")
        if isinstance(geometry, QByteArray) and self.restoreGeometry(geometry):
            clamp(self)  # remembered on another screen: kept inside this one
        else:
            fit_first(self, QSize(1400, 900))  # or less: the screen's available area
        self.autosave_timer = QTimer(self, interval=AUTOSAVE_MS)
        self.autosave_timer.timeout.connect(self.autosave_all)
        self.autosave_timer.start()
        self.print_bridge = RenderBridge(self)  # goes with the window: a print still running then answers no one
        self.print_bridge.done.connect(self._printed)
        self.verdict = QLabel()
        self.verdict.setAccessibleName("Verdict")
        self.statusBar().addPermanentWidget(self.verdict)

    # --- menus --------------------------------------------------------------------------

    def _action(self, menu, text: str, slot, shortcut=None) -> QAction:  # type: ignore[no-untyped-def]
        a = QAction(text, self)
        if shortcut is not None:
            a.setShortcut(QKeySequence(shortcut))
        a.triggered.connect(slot)
        menu.addAction(a)
        return a

    def _make_menus(self) -> None:
        bar = self.menuBar()
        m = bar.addMenu("&File")
        nm = m.addMenu("&New")
        first = True
        for info in rulesets():
            nm.addSection(info.name)
            for kind in info.kinds:
                a = self._action(nm, kind.menu or kind.name, lambda _=False, k=kind.id, r=info.id: self.new(k, r))
                a.setStatusTip(f"A new {info.name} {kind.name.lower()}: {kind.description}".rstrip(": "))
                if first:  # Ctrl+N: the first kind of the first ruleset
                    a.setShortcut(QKeySequence(QKeySequence.StandardKey.New))
                    first = False
        sm = m.addMenu("New from &sample")
        for info in rulesets():
            sm.addSection(info.name)
            for f in sample_files(info.samples):
                self._action(sm, _sample_name(f), lambda _=False, p=f: self.open_sample(p))
        self._action(m, "&Open…", self.open_dialog, QKeySequence.StandardKey.Open)
        self.recent_menu = m.addMenu("Open &recent")
        self._fill_recent()
        m.addSeparator()
        self._action(m, "&Save", lambda: self.save(), QKeySequence.StandardKey.Save)
        self._action(m, "Save &as…", lambda: self.save(as_new=True), QKeySequence.StandardKey.SaveAs)
        self._action(m, "&Close", lambda: self.close_tab(self.tabs.currentIndex()), QKeySequence.StandardKey.Close)
        m.addSeparator()
        self._action(m, "&Print to PDF…", self.print_dialog, QKeySequence.StandardKey.Print)
        self.export_menu = exportactions.add_menu(self, m)
        m.addSeparator()
        self._action(m, "&Quit", self.close, QKeySequence.StandardKey.Quit)
        e = bar.addMenu("&Edit")
        self.undo_action = self.undo_group.createUndoAction(self, "&Undo")
        self.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self.redo_action = self.undo_group.createRedoAction(self, "&Redo")
        self.redo_action.setShortcuts(redo_shortcuts())  # the platform's, Ctrl+Shift+Z and Ctrl+Y
        e.addAction(self.undo_action)
        e.addAction(self.redo_action)
        v = bar.addMenu("&View")
        self.compare_action = self._action(v, "&Compare with…", self.compare_dialog)
        self.compare_action.setStatusTip("This design beside another open one, a file, or its saved version")
        previewactions.install(self, v)
        s = bar.addMenu("&Settings")
        paper = s.addMenu("&Paper")
        group = QActionGroup(self)
        for value in PAPERS:
            label = PAPER_NAMES[value]
            a = QAction(label, self, checkable=True)
            a.setChecked(self.paper == value)
            a.triggered.connect(lambda _=False, v=value: self.settings.setValue("print/paper", v))
            group.addAction(a)
            paper.addAction(a)
        self.preset_menu = s.addMenu("Default &preset")
        self.preset_menu.aboutToShow.connect(self._fill_presets)
        self._action(s, "User &catalog folder…", self.choose_catalog_folder)
        convert_actions.install(self)
        self.help_menu = helpmenu.install(self)

    def _fill_presets(self) -> None:
        """Each ruleset's presets (house-rule presets from the user's folders too), the default ticked.

        Filled each time the menu opens: start-up need not load catalogs for it, and a
        newly chosen user catalog folder shows its presets at once.
        """
        self.preset_menu.clear()
        for info in rulesets():
            ruleset = info.id
            self.preset_menu.addSection(info.name)
            try:
                catalog = self.catalog_for_new(ruleset)
            except InputError as exc:
                a = self.preset_menu.addAction(f"Cannot read the catalog: {str(exc).splitlines()[0]}")
                a.setEnabled(False)
                continue
            group = QActionGroup(self.preset_menu)
            for p in catalog.presets.values():
                a = QAction(p.name, self.preset_menu, checkable=True)
                a.setChecked(catalog.preset is not None and catalog.preset.id == p.id)
                a.triggered.connect(lambda _=False, r=ruleset, v=p.id: self.settings.setValue(f"design/preset/{r}", v))
                group.addAction(a)
                self.preset_menu.addAction(a)

    def show_welcome(self) -> Welcome:
        """Show the page with new designs and samples, building it the first time."""
        if self.welcome is None:
            self.welcome = Welcome(self)
            self.stack.insertWidget(0, self.welcome)
        self.welcome.show_recent(self.recent())
        self.stack.setCurrentWidget(self.welcome)
        return self.welcome

    def showEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        if self.tabs.count() == 0 and self.stack.currentWidget() is self.tabs:
            self.show_welcome()
        super().showEvent(event)

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
        folder = QFileDialog.getExistingDirectory(self, "User catalog folder")
        if folder:
            self.settings.setValue("catalog/folder", folder)
            self.statusBar().showMessage(f"House rules from {folder} apply to designs opened from now on", 8000)

    def recent(self) -> list[str]:
        value = self.settings.value("files/recent") or []
        return [v for v in ([value] if isinstance(value, str) else list(value)) if v]

    def _remember(self, path: Path) -> None:
        items = [str(path)] + [p for p in self.recent() if p != str(path)]
        self.settings.setValue("files/recent", items[:MAX_RECENT])
        self.settings.setValue("files/folder", str(path.parent))  # where the next dialog starts
        self._fill_recent()

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for p in self.recent():
            self._action(self.recent_menu, p, lambda _=False, path=p: self.open_file(Path(path)))
        self.recent_menu.setEnabled(bool(self.recent()))

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
        if self.smoke:
            for line in message.splitlines() or [""]:
                print(f"shipyard-gui: error: {title}: {escape(line)}", file=sys.stderr, flush=True)
            self.smoke_errors += 1
            return
        QMessageBox.critical(self, title, message)

    def add_document(self, doc: Document) -> DocumentView:
        view = DocumentView(doc, self.report_error, self.paper, preview=self.preview_enabled)
        view.remember_layout(self.settings, doc.loaded.ruleset)
        self.undo_group.addStack(doc.undo_stack)
        i = self.tabs.addTab(view, doc.title)
        self.tabs.setCurrentIndex(i)
        self.stack.setCurrentWidget(self.tabs)
        doc.modified_changed.connect(lambda _m, d=doc: self._update_title(d))
        doc.file_changed.connect(lambda d=doc: self._update_title(d))
        doc.changed.connect(lambda d=doc: self._update_title(d))
        self._update_title(doc)
        return view

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
        return self.add_document(Document(LoadedDesign(None, info.id, preset, design, catalog)))

    def open_sample(self, path: Path) -> DocumentView | None:
        """A sample opens as a new, untitled design: saving asks where (as every file inside
        the installed catalogs does, however it is opened: :meth:`open_file`)."""
        return self.open_file(path, remember=False)

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

    def _start(self, doc: Document | None, name: str = "") -> str:
        folder = self.start_folder(doc)
        return str(folder / name) if folder is not None else name

    def open_dialog(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(self, "Open designs", self._start(None), FILTER)
        for f in files:
            self.open_file(Path(f))

    def load(self, path: Path) -> LoadedDesign:
        return load_design(path, catalog_folders=self.catalog_folders(), use_user_folder=self.use_user_folder)

    def open_file(self, path: Path, remember: bool = True) -> DocumentView | None:
        # absolute, so recent files work from any folder; not resolve(): a symlinked folder keeps its name
        path = Path(os.path.abspath(path))  # noqa: PTH100
        for i in range(self.tabs.count()):
            view = self.tabs.widget(i)
            if isinstance(view, DocumentView) and view.doc.path and view.doc.path.resolve() == path.resolve():
                self.tabs.setCurrentIndex(i)
                return view
        try:
            loaded = self.load(path)
        except InputError as exc:
            self.show_error("Cannot open design", str(exc))
            return None
        if is_installed(path):  # a bundled sample, from the start page or File > Open: an untitled copy
            return self.add_document(Document(loaded, None))
        if remember:
            self._remember(path)
        return self.add_document(Document(loaded, path))

    def _update_title(self, doc: Document) -> None:
        for i in range(self.tabs.count()):
            view = self.tabs.widget(i)
            if isinstance(view, DocumentView) and view.doc is doc:
                self.tabs.setTabText(i, doc.name + (" *" if doc.modified else ""))
                self.tabs.setTabToolTip(i, str(doc.path) if doc.path else "Not saved yet")
        cur = self.current()
        if cur is not None:
            self.setWindowTitle(f"{cur.doc.title}[*] — Shipyard")
            self.setWindowModified(cur.doc.modified)
        else:
            self.setWindowTitle("Shipyard")
            self.setWindowModified(False)
        self.show_verdict()

    def show_verdict(self) -> None:
        """The status bar's permanent part: the current design's verdict in words and colour,
        its pools' totals and its preset, from the engine's report."""
        cur = self.current()
        if cur is None:
            self.verdict.setText("")
            self.verdict.setToolTip("")
            return
        text, tone, tip = verdict_text(cur.doc)
        dark = self.verdict.palette().color(QPalette.ColorRole.Window).lightness() < 128
        colour = mark_colour("error", self.verdict) if tone == "error" else ("#81c784" if dark else "#2e7d32")
        shown = html.escape(text)
        self.verdict.setText(f'<span style="color:{colour}"><b>{shown}</b></span>' if tone else shown)
        self.verdict.setToolTip(tip)

    def _current_changed(self, _i: int) -> None:
        self.flush()
        cur = self.current()
        self.undo_group.setActiveStack(cur.doc.undo_stack if cur else None)  # type: ignore[arg-type]
        if cur:
            self._update_title(cur.doc)
        else:
            self.show_welcome()
            self._update_title(None)  # type: ignore[arg-type]

    # --- saving and closing -----------------------------------------------------------------

    def ask_save_path(self, doc: Document) -> Path | None:
        name, _ = QFileDialog.getSaveFileName(
            self, "Save design", str(doc.path or self._start(doc, f"{doc.name}{EXTENSION}")), FILTER
        )
        if not name:
            return None
        path = Path(name)
        return path if path.suffix else path.with_suffix(EXTENSION)

    def save(self, doc: Document | None = None, as_new: bool = False) -> bool:
        self.flush()
        view = self.current()
        doc = doc or (view.doc if view else None)
        if doc is None:
            return False
        target = doc.path
        if as_new or target is None or is_installed(target):  # never over a bundled sample: ask where
            target = self.ask_save_path(doc)
            if target is None:
                return False
        try:
            doc.save(target)
        except InputError as exc:  # no such folder, no permission, disk full: the file is as it was
            self.show_error("Cannot save", str(exc))
            return False
        autosave.discard(doc)
        self._remember(target)
        self.statusBar().showMessage(f"Saved {target}", 5000)
        return True

    def unsaved_box(self, doc: Document) -> QMessageBox:
        """The question for a document with unsaved changes. Its default (Enter) is Save:
        a design of the user's own is saved where it is; one without a file of its own (a
        new design, a sample's copy) asks where, so Enter never writes over a sample."""
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
        return {QMessageBox.StandardButton.Save: "save", QMessageBox.StandardButton.Discard: "discard"}.get(
            QMessageBox.StandardButton(answer), "cancel"
        )

    def ask_unsaved(self, doc: Document) -> str:
        """'save', 'discard' or 'cancel' for a document with unsaved changes."""
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
        if not isinstance(view, DocumentView):
            return False
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

    # --- autosave and recovery ----------------------------------------------------------------

    def autosave_all(self) -> int:
        """Autosave every document with changes its autosave does not hold yet (unchanged ones are not
        rewritten every minute); a failure (disk full, no permission) is reported, not raised."""
        n = 0
        for doc in self.documents():
            if autosave.needed(doc):
                try:
                    autosave.save(doc)
                except InputError as exc:
                    self.statusBar().showMessage(f"Autosave failed: {exc}", 15000)
                    continue
                n += 1
        return n

    def ask_restore(self, items: list[autosave.Recovered]) -> bool:
        names = "\n".join(f"• {r.title}" for r in items)
        return (
            QMessageBox.question(
                self, "Restore unsaved work?", f"Shipyard closed with unsaved changes in:\n{names}\n\nRestore them?"
            )
            == QMessageBox.StandardButton.Yes
        )

    def offer_restore(self) -> int:
        items = autosave.pending()
        if not items:
            return 0
        restore = self.ask_restore(items)
        n = 0
        for rec in items:
            if restore:
                try:
                    doc = autosave.load(rec, self.use_user_folder)
                except (InputError, OSError, ValueError) as exc:
                    self.show_error("Cannot restore", f"{rec.title}: {exc}")
                    continue
                doc.undo_stack.resetClean()  # restored work stays unsaved until the user saves it
                self.add_document(doc)
                n += 1
            autosave.remove(rec)
        return n

    # --- drag and drop ----------------------------------------------------------------------

    def dragEnterEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        if event.mimeData().hasUrls() and any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        for url in event.mimeData().urls():
            if url.isLocalFile():
                self.open_file(Path(url.toLocalFile()))
        event.acceptProposedAction()

    # --- printing ---------------------------------------------------------------------------

    def print_dialog(self) -> None:
        self.flush()
        view = self.current()
        if view is None:
            return
        dlg = PrintDialog(self, self.paper, self.tabs.count() > 1)
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return
        docs = self.documents() if dlg.scope.currentData() == "all" else [view.doc]
        pdf = f"{view.doc.name if len(docs) == 1 else 'Fleet'}.pdf"  # the design's name, in its folder
        name, _ = QFileDialog.getSaveFileName(self, "Print to PDF", self._start(view.doc, pdf), "PDF (*.pdf)")
        if name:
            tokens = dlg.sheet.currentData() == "tokens"
            fillable = dlg.fillable.isChecked() and not tokens
            token = dlg.token() if tokens else None
            self.print_to(Path(name), docs, dlg.sheet.currentData(), dlg.paper.currentData(), fillable, token)

    def print_to(
        self,
        out: Path,
        docs: list[Document],
        sheet: str,
        paper: str,
        fillable: bool = False,
        token: TokenSpec | None = None,
    ) -> threading.Thread:
        self.flush()
        loaded = [d.loaded for d in docs]
        self.statusBar().showMessage(f"Printing {out}…")
        return render_in_background(
            self.print_bridge,
            loaded,
            out,
            sheet=sheet,
            paper=paper,
            name="shipyard-print",
            reports=[d.report for d in docs],
            fillable=fillable,
            token=token,
        )

    # --- compare -----------------------------------------------------------------------------

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
        from shipyard._qt.compare import CompareView

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

    def open_url(self, url: QUrl) -> bool:
        """Open ``url`` with the desktop's viewer; False when none could be started."""
        return bool(QDesktopServices.openUrl(url))

    def _printed(self, path: str, error: str) -> None:
        if error:
            self.show_error("Printing failed", error)
            return
        self.statusBar().showMessage(f"Printed {path}", 8000)
        if self.open_url(QUrl.fromLocalFile(path)) is False:  # say where it is, never fail silently
            self.statusBar().showMessage(f"Printed {path} — no PDF viewer could be started; open the file from there")


class CompareSource(QDialog):
    """What to compare the current design with: its saved version, another open design, a file."""

    def __init__(self, window: MainWindow, doc: Document) -> None:
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


def verdict_text(doc: Document) -> tuple[str, str, str]:
    """(the verdict line, its tone "error" | "pass" | "", its tooltip): "2 errors · Weapon Points 0 left ·
    Freebie Points OVER by 12 · Preset: Sample ships" — in words, the colour only adds."""
    report = doc.report
    counts = {s: sum(1 for f in report.findings if f.severity.value == s) for s in ("error", "warning")}
    if counts["error"]:
        head = f"{counts['error']} error{'s' if counts['error'] != 1 else ''}: does not pass"
    else:
        head = "Passes" + (
            f" ({counts['warning']} warning{'s' if counts['warning'] != 1 else ''})" if counts["warning"] else ""
        )
    pools = [
        f"{p.name} {p.remaining} left" if p.remaining >= 0 else f"{p.name} OVER by {-p.remaining}" for p in report.pools
    ]
    preset = doc.catalog.presets.get(doc.preset)
    parts = [head, *pools] + ([f"Preset: {preset.name}"] if preset is not None else [])
    tone = "error" if counts["error"] else ("pass" if not counts["warning"] else "")
    return " · ".join(parts), tone, "\n".join(parts)


def install_crash_autosave(window: MainWindow) -> None:
    """On an unhandled exception, autosave every document before Python reports it."""
    previous = sys.excepthook

    def hook(kind, value, tb) -> None:  # type: ignore[no-untyped-def]
        try:
            window.autosave_all()
        finally:
            previous(kind, value, tb)

    sys.excepthook = hook
