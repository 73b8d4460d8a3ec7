"""The main window's rosters: ``.roster`` files open in tabs of their own beside the designs.

File > Open, a drop, the recent files and the command line open a roster as they open a
design (:meth:`Rosters.open_roster`); File > New roster… asks its name, rulesets and
points limit, then where to keep it, and writes it (a roster names its designs by their
place beside it, so it has a folder from the start). A roster file that cannot be read
opens as its error, in its tab; nothing is written. Save, Close, Print and undo work on a
roster's tab as on a design's, and the roster file is followed on disk as a design's is
(:mod:`shipyard._qt.window.diskchanges`); View > Hangar's Add to roster adds to the roster
shown (or the one shown last, or the one the person picks).

:class:`Rosters` is a part the window holds (``window.rosters``), asking of the window only
what :class:`RosterHost` says and of its recent files what :class:`RosterFolders` says.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QSpinBox,
    QWidget,
)

from shipyard._qt.view.mnemonics import menu_letters
from shipyard._qt.view.pagekinds import is_roster_page, is_roster_tab
from shipyard._qt.window import autosave
from shipyard.core.errors import InputError
from shipyard.hangar import ROSTER_EXTENSION as EXTENSION

if TYPE_CHECKING:
    from PySide6.QtGui import QUndoGroup
    from PySide6.QtWidgets import QMenuBar, QStackedWidget, QStatusBar, QTabWidget

    from shipyard._qt.document.rosterdoc import RosterDocument
    from shipyard._qt.view.rosterpage import RosterPage
    from shipyard._qt.window.diskchanges import DiskChanges

ROSTER_FILTER = f"Shipyard rosters (*{EXTENSION})"


def is_roster_file(path: Path) -> bool:
    return Path(path).suffix.lower() == EXTENSION


class NewRosterDialog(QDialog):
    """File > New roster…: its name, the rulesets its members use, its points limit."""

    def __init__(self, parent: QWidget) -> None:
        from shipyard.core.registry import rulesets

        super().__init__(parent)
        self.setWindowTitle("New roster")
        form = QFormLayout(self)
        self.name = QLineEdit("New roster")
        self.name.selectAll()
        self.rulesets = QListWidget()
        for info in rulesets():
            item = QListWidgetItem(info.name)
            item.setData(Qt.ItemDataRole.UserRole, info.id)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Unchecked)
            item.setToolTip(f"{info.name} ({info.id})")
            self.rulesets.addItem(item)
        self.rulesets.setToolTip("None ticked: the first design added says which")
        self.limit = QSpinBox()
        self.limit.setRange(0, 1_000_000_000)
        from shipyard._qt.view.rosterpage import NO_LIMIT

        self.limit.setSpecialValueText(NO_LIMIT)
        self.limit.setGroupSeparatorShown(True)
        for text, w in (("&Name", self.name), ("&Rulesets", self.rulesets), ("Points &limit", self.limit)):
            label = QLabel(text)
            label.setBuddy(w)
            w.setAccessibleName(text.replace("&", ""))
            form.addRow(label, w)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def chosen_rulesets(self) -> list[str]:
        items = (self.rulesets.item(i) for i in range(self.rulesets.count()))
        return [i.data(Qt.ItemDataRole.UserRole) for i in items if i.checkState() == Qt.CheckState.Checked]


class RosterPrintDialog(QDialog):
    """Print a roster: its members as a fleet book or a card sheet, on which paper."""

    def __init__(self, parent: QWidget, paper: str) -> None:
        from shipyard.render.paper import PAPER_NAMES, PAPERS

        super().__init__(parent)
        self.setWindowTitle("Print the roster")
        form = QFormLayout(self)
        self.sheet = QComboBox()
        self.sheet.addItem("Summary, then fleet book", "fleet")
        self.sheet.addItem("Summary, then stat cards", "cards")
        self.paper = QComboBox()
        for value in PAPERS:
            self.paper.addItem(PAPER_NAMES[value], value)
        self.paper.setCurrentIndex(max(0, self.paper.findData(paper)))
        for text, w in (("&Sheet", self.sheet), ("&Paper", self.paper)):
            label = QLabel(text)
            label.setBuddy(w)
            form.addRow(label, w)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)


class RosterHost(Protocol):
    """What the roster tabs ask of the window: its tabs beside the designs', the one undo
    history, the status bar and its verdict, the window's own questions (unsaved changes,
    a file another program changed), its start page when the last tab closes, and its
    following of every tab's file (``disk``: File > Open of an open roster and Check again
    read the roster file again when the roster has no unsaved edits)."""

    tabs: QTabWidget
    stack: QStackedWidget
    undo_group: QUndoGroup
    verdict: QLabel
    smoke: bool
    disk: DiskChanges

    @property
    def paper(self) -> str: ...
    def catalog_folders(self) -> tuple[Path, ...]: ...
    def window(self) -> QWidget: ...
    def menuBar(self) -> QMenuBar: ...
    def statusBar(self) -> QStatusBar: ...
    def setWindowTitle(self, title: str) -> None: ...
    def setWindowModified(self, modified: bool) -> None: ...
    def show_error(self, title: str, message: str) -> None: ...
    def show_welcome(self) -> object: ...
    def ask_unsaved(self, doc: RosterDocument) -> str: ...
    def ask_replace_changed(self, path: Path) -> bool: ...


class RosterFolders(Protocol):
    """The recent files, and where file dialogs start and outputs went last (the window's
    :class:`shipyard._qt.window.recent.RecentFiles`)."""

    def remember(self, path: Path) -> None: ...
    def start_path(self, doc: None, name: str = "") -> str: ...
    def export_folder(self, kind: str, doc: None = None) -> Path | None: ...
    def remember_export_folder(self, kind: str, folder: Path) -> None: ...


class Rosters:
    """Roster tabs in the main window: opened, made, shown, saved, closed, printed and
    exported, and the Hangar's designs added to them."""

    def __init__(self, host: RosterHost, folders: RosterFolders) -> None:
        self.host = host
        self.folders = folders
        self._last_roster: RosterPage | None = None

    def roster_pages(self) -> list[RosterPage]:
        tabs = self.host.tabs
        return [w for i in range(tabs.count()) if is_roster_page(w := tabs.widget(i))]

    def current_roster(self) -> RosterPage | None:
        w = self.host.tabs.currentWidget()
        return w if is_roster_page(w) else None

    def is_roster_tab(self, w: Any) -> bool:
        return is_roster_tab(w)

    def open_roster(self, path: Path, remember: bool = True) -> RosterPage | None:
        """The roster in ``path`` in a tab (the tab it is in, when open); its error in a tab
        of its own when it cannot be read."""
        from shipyard._qt.document.rosterdoc import RosterDocument
        from shipyard._qt.view.rosterpage import BrokenRoster

        host, tabs = self.host, self.host.tabs
        for i in range(tabs.count()):
            w = tabs.widget(i)
            if is_roster_tab(w):
                there = w.doc.path if is_roster_page(w) else cast(BrokenRoster, w).path
                if there.resolve() == path.resolve():
                    tabs.setCurrentIndex(i)
                    if not is_roster_page(w):
                        return None
                    host.disk.follow(w, asked=True)  # shown as the file is now, or its edits' bar shown again
                    return w
        try:
            doc = RosterDocument.open(path, host.catalog_folders())
        except InputError as exc:
            if host.smoke:  # `shipyard-gui --smoke`: said on stderr, exit status 2
                host.show_error("Cannot open roster", str(exc))
            broken = BrokenRoster(path, str(exc))
            i = tabs.addTab(broken, f"{path.name} (cannot be opened)")
            tabs.setTabToolTip(i, str(exc))
            tabs.setCurrentIndex(i)
            host.stack.setCurrentWidget(tabs)
            host.statusBar().showMessage(f"Cannot open the roster {path}", 8000)
            return None
        page = self.add_roster_document(doc)
        if remember:
            self.folders.remember(path)
        return page

    def add_roster_document(self, doc: RosterDocument) -> RosterPage:
        """``doc`` in a tab of its own (opened, or restored from its autosave), shown."""
        from shipyard._qt.view.rosterpage import RosterPage

        host, tabs = self.host, self.host.tabs
        page = RosterPage(doc, self._say, lambda: menu_letters(host.menuBar()))
        host.undo_group.addStack(doc.undo_stack)
        i = tabs.addTab(page, doc.name)
        tabs.setCurrentIndex(i)
        host.stack.setCurrentWidget(tabs)
        doc.modified_changed.connect(lambda _m, p=page: self.roster_title(p))
        doc.file_changed.connect(lambda p=page: self.roster_title(p))
        doc.changed.connect(lambda p=page: self.roster_title(p))
        page.print_button.clicked.connect(lambda _=False, p=page: self.print_roster_dialog(p))
        page.export_button.clicked.connect(lambda _=False, p=page: self.export_roster_dialog(p))
        page.again_button.clicked.connect(lambda _=False, p=page: host.disk.follow(p, asked=True))  # its own file too
        self.roster_title(page)
        page.table.setFocus()
        return page

    def _say(self, text: str) -> None:
        self.host.statusBar().showMessage(text, 10000)

    def roster_title(self, page: RosterPage) -> None:
        doc, tabs = page.doc, self.host.tabs
        i = tabs.indexOf(page)
        if i >= 0:
            text = doc.name + (" *" if doc.modified else "")
            if tabs.tabText(i) != text:
                tabs.setTabText(i, text)
            if tabs.tabToolTip(i) != str(doc.path):
                tabs.setTabToolTip(i, str(doc.path))
        if self.current_roster() is page:
            self.host.setWindowTitle(f"{doc.title}[*] — Shipyard")
            self.host.setWindowModified(doc.modified)
            self.host.verdict.setText(page.verdict.text())  # the status bar's verdict: the roster's

    def roster_shown(self, page: RosterPage) -> None:
        """The roster's tab became the current one."""
        self._last_roster = page
        self.host.undo_group.setActiveStack(page.doc.undo_stack)
        if page.doc.follow_files():  # a member's design saved meanwhile (in another tab, by a command)
            self.host.statusBar().showMessage("Members whose design files changed were read again", 6000)
        self.roster_title(page)

    # --- new, save, close ----------------------------------------------------------------------

    def new_roster_dialog(self) -> RosterPage | None:
        """File > New roster…: asked, then written where the person says, then opened."""
        from shipyard.hangar.roster import Roster, save_roster

        dlg = NewRosterDialog(self.host.window())
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return None
        try:
            roster = Roster(name=dlg.name.text(), rulesets=dlg.chosen_rulesets(), limit=dlg.limit.value() or None)
        except ValueError:
            self.host.show_error("Cannot make the roster", "A roster needs a name.")
            return None
        path = self.ask_roster_path(roster.name)
        if path is None:
            return None
        try:
            save_roster(roster, path)
        except (InputError, OSError) as exc:
            self.host.show_error("Cannot make the roster", str(exc))
            return None
        return self.open_roster(path)

    def ask_roster_path(self, name: str) -> Path | None:
        """Where a new roster is kept: its folder is where its designs are (or below)."""
        from PySide6.QtWidgets import QFileDialog

        from shipyard.hangar.facts import slug

        chosen, _ = QFileDialog.getSaveFileName(
            self.host.window(),
            "Keep the roster beside its designs",
            self.folders.start_path(None, f"{slug(name)}{EXTENSION}"),
            ROSTER_FILTER,
        )
        if not chosen:
            return None
        path = Path(chosen)
        return path if path.suffix else path.with_suffix(EXTENSION)

    def save_roster_page(self, page: RosterPage, as_new: bool = False) -> bool:
        host, doc = self.host, page.doc
        doc.flush()  # the notes being typed are saved too
        target = doc.path
        if as_new:
            from PySide6.QtWidgets import QFileDialog

            chosen, _ = QFileDialog.getSaveFileName(host.window(), "Save the roster", str(doc.path), ROSTER_FILTER)
            if not chosen:
                return False
            target = Path(chosen)
        if target == doc.path and doc.changed_on_disk() and not host.ask_replace_changed(target):
            return False  # the other program's change stays; the edit stays unsaved
        try:
            doc.save(target)
        except InputError as exc:
            host.show_error("Cannot save", str(exc))
            return False
        autosave.discard(doc)
        self.folders.remember(target)
        host.statusBar().showMessage(f"Saved {target}", 5000)
        return True

    def close_roster_tab(self, index: int) -> bool:
        host = self.host
        w = host.tabs.widget(index)
        if is_roster_page(w):
            w.doc.flush()
            if w.doc.modified:
                answer = host.ask_unsaved(w.doc)
                if answer == "cancel" or (answer == "save" and not self.save_roster_page(w)):
                    return False
            autosave.discard(w.doc)
            host.undo_group.removeStack(w.doc.undo_stack)
            w.release()
            if self._last_roster is w:
                self._last_roster = None
        host.tabs.removeTab(index)
        if w is not None:
            w.deleteLater()
        if host.tabs.count() == 0:
            host.show_welcome()
        return True

    # --- from the Hangar ------------------------------------------------------------------------

    def add_to_roster(self, files: list[Path]) -> RosterPage | None:
        """View > Hangar's Add to roster: ``files`` added to the roster shown, else the one
        shown last, else the only one open, else the one the person picks; that roster shown."""
        pages = self.roster_pages()
        page = self.current_roster() or (self._last_roster if self._last_roster in pages else None)
        if page is None and len(pages) == 1:
            page = pages[0]
        if page is None and pages:
            from PySide6.QtWidgets import QInputDialog

            names = [f"{p.doc.name} ({p.doc.path.name})" for p in pages]
            chosen, ok = QInputDialog.getItem(self.host.window(), "Add to roster", "Which roster?", names, 0, False)
            if not ok:
                return None
            page = pages[names.index(chosen)]
        if page is None:
            self.host.statusBar().showMessage("No roster is open: open one, or make one with File > New roster…", 10000)
            return None
        self.host.tabs.setCurrentWidget(page)
        page.add_files(files)
        return page

    # --- print and export -----------------------------------------------------------------------

    def print_roster_dialog(self, page: RosterPage) -> None:
        from PySide6.QtWidgets import QFileDialog

        from shipyard._qt.dialogs.replacing import ask_replace, existing

        parent = self.host.window()
        dlg = RosterPrintDialog(parent, self.host.paper)
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return
        start = self.folders.export_folder("pdf") or page.doc.path.parent
        name, _ = QFileDialog.getSaveFileName(
            parent,
            "Print the roster to PDF",
            str(start / f"{page.doc.name}.pdf"),
            "PDF (*.pdf)",
            options=QFileDialog.Option.DontConfirmOverwrite,
        )
        if not name:
            return
        out = Path(name)
        self.folders.remember_export_folder("pdf", out.parent)
        if not ask_replace(parent, existing([out])):
            self.host.statusBar().showMessage(f"Not printed: {out} is as it was", 8000)
            return
        page.print_to(out, dlg.sheet.currentData(), dlg.paper.currentData())

    def export_roster_dialog(self, page: RosterPage) -> None:
        from PySide6.QtWidgets import QFileDialog

        from shipyard._qt.dialogs.replacing import ask_replace

        parent = self.host.window()
        start = self.folders.export_folder("foundry") or page.doc.path.parent
        folder = QFileDialog.getExistingDirectory(parent, "Export the roster to Foundry VTT", str(start))
        if not folder:
            return
        self.folders.remember_export_folder("foundry", Path(folder))
        page.export_to(Path(folder), lambda files: ask_replace(parent, files))
