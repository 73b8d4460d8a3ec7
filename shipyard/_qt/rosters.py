"""The main window's rosters: ``.roster`` files open in tabs of their own beside the designs.

File > Open, a drop, the recent files and the command line open a roster as they open a
design (:meth:`Rosters.open_roster`); File > New roster… asks its name, rulesets and
points limit, then where to keep it, and writes it (a roster names its designs by their
place beside it, so it has a folder from the start). A roster file that cannot be read
opens as its error, in its tab; nothing is written. Save, Close, Print and undo work on a
roster's tab as on a design's; View > Hangar's Add to roster adds to the roster shown (or
the one shown last, or the one the person picks).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

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

from shipyard._qt import autosave
from shipyard._qt.host import EditorWindow
from shipyard._qt.rosterdoc import RosterDocument
from shipyard._qt.rosterpage import NO_LIMIT, BrokenRoster, RosterPage
from shipyard.core.errors import InputError
from shipyard.hangar.roster import EXTENSION

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


class Rosters(EditorWindow):
    """Roster tabs in the main window (its other parts ask through :class:`EditorWindow`)."""

    _last_roster: RosterPage | None = None

    def roster_pages(self) -> list[RosterPage]:
        return [w for i in range(self.tabs.count()) if isinstance(w := self.tabs.widget(i), RosterPage)]

    def current_roster(self) -> RosterPage | None:
        w = self.tabs.currentWidget()
        return w if isinstance(w, RosterPage) else None

    def is_roster_tab(self, w: Any) -> bool:
        return isinstance(w, RosterPage | BrokenRoster)

    def open_roster(self, path: Path, remember: bool = True) -> RosterPage | None:
        """The roster in ``path`` in a tab (the tab it is in, when open); its error in a tab
        of its own when it cannot be read."""
        for i in range(self.tabs.count()):
            w = self.tabs.widget(i)
            if isinstance(w, RosterPage | BrokenRoster):
                there = w.doc.path if isinstance(w, RosterPage) else w.path
                if there.resolve() == path.resolve():
                    self.tabs.setCurrentIndex(i)
                    return w if isinstance(w, RosterPage) else None
        try:
            doc = RosterDocument.open(path)
        except InputError as exc:
            if getattr(self, "smoke", False):  # `shipyard-gui --smoke`: said on stderr, exit status 2
                self.show_error("Cannot open roster", str(exc))
            broken = BrokenRoster(path, str(exc))
            i = self.tabs.addTab(broken, f"{path.name} (cannot be opened)")
            self.tabs.setTabToolTip(i, str(exc))
            self.tabs.setCurrentIndex(i)
            self.stack.setCurrentWidget(self.tabs)
            self.statusBar().showMessage(f"Cannot open the roster {path}", 8000)
            return None
        page = self.add_roster_document(doc)
        if remember:
            self.remember(path)
        return page

    def add_roster_document(self, doc: RosterDocument) -> RosterPage:
        """``doc`` in a tab of its own (opened, or restored from its autosave), shown."""
        page = RosterPage(doc, self._say, lambda: _menu_letters(self))
        self.undo_group.addStack(doc.undo_stack)
        i = self.tabs.addTab(page, doc.name)
        self.tabs.setCurrentIndex(i)
        self.stack.setCurrentWidget(self.tabs)
        doc.modified_changed.connect(lambda _m, p=page: self.roster_title(p))
        doc.file_changed.connect(lambda p=page: self.roster_title(p))
        doc.changed.connect(lambda p=page: self.roster_title(p))
        page.print_button.clicked.connect(lambda _=False, p=page: self.print_roster_dialog(p))
        page.export_button.clicked.connect(lambda _=False, p=page: self.export_roster_dialog(p))
        self.roster_title(page)
        page.table.setFocus()
        return page

    def _say(self, text: str) -> None:
        self.statusBar().showMessage(text, 10000)

    def roster_title(self, page: RosterPage) -> None:
        doc = page.doc
        i = self.tabs.indexOf(page)
        if i >= 0:
            text = doc.name + (" *" if doc.modified else "")
            if self.tabs.tabText(i) != text:
                self.tabs.setTabText(i, text)
            if self.tabs.tabToolTip(i) != str(doc.path):
                self.tabs.setTabToolTip(i, str(doc.path))
        if self.current_roster() is page:
            self.setWindowTitle(f"{doc.title}[*] — Shipyard")
            self.setWindowModified(doc.modified)
            self.verdict.setText(page.verdict.text())  # the status bar's verdict: the roster's

    def roster_shown(self, page: RosterPage) -> None:
        """The roster's tab became the current one."""
        self._last_roster = page
        self.undo_group.setActiveStack(page.doc.undo_stack)
        if page.doc.follow_files():  # a member's design saved meanwhile (in another tab, by a command)
            self.statusBar().showMessage("Members whose design files changed were read again", 6000)
        self.roster_title(page)

    # --- new, save, close ----------------------------------------------------------------------

    def new_roster_dialog(self) -> RosterPage | None:
        """File > New roster…: asked, then written where the person says, then opened."""
        from shipyard.hangar.roster import Roster, save_roster

        dlg = NewRosterDialog(self)
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return None
        try:
            roster = Roster(name=dlg.name.text(), rulesets=dlg.chosen_rulesets(), limit=dlg.limit.value() or None)
        except ValueError:
            self.show_error("Cannot make the roster", "A roster needs a name.")
            return None
        path = self.ask_roster_path(roster.name)
        if path is None:
            return None
        try:
            save_roster(roster, path)
        except (InputError, OSError) as exc:
            self.show_error("Cannot make the roster", str(exc))
            return None
        return self.open_roster(path)

    def ask_roster_path(self, name: str) -> Path | None:
        """Where a new roster is kept: its folder is where its designs are (or below)."""
        from PySide6.QtWidgets import QFileDialog

        from shipyard.hangar.facts import slug

        chosen, _ = QFileDialog.getSaveFileName(
            self, "Keep the roster beside its designs", self.start_path(None, f"{slug(name)}{EXTENSION}"), ROSTER_FILTER
        )
        if not chosen:
            return None
        path = Path(chosen)
        return path if path.suffix else path.with_suffix(EXTENSION)

    def save_roster_page(self, page: RosterPage, as_new: bool = False) -> bool:
        doc = page.doc
        doc.flush()  # the notes being typed are saved too
        target = doc.path
        if as_new:
            from PySide6.QtWidgets import QFileDialog

            chosen, _ = QFileDialog.getSaveFileName(self, "Save the roster", str(doc.path), ROSTER_FILTER)
            if not chosen:
                return False
            target = Path(chosen)
        if target == doc.path and doc.changed_on_disk() and not self.ask_replace_changed(target):
            return False  # the other program's change stays; the edit stays unsaved
        try:
            doc.save(target)
        except InputError as exc:
            self.show_error("Cannot save", str(exc))
            return False
        autosave.discard(doc)
        self.remember(target)
        self.statusBar().showMessage(f"Saved {target}", 5000)
        return True

    def close_roster_tab(self, index: int) -> bool:
        w = self.tabs.widget(index)
        if isinstance(w, RosterPage):
            w.doc.flush()
            if w.doc.modified:
                answer = self.ask_unsaved(w.doc)
                if answer == "cancel" or (answer == "save" and not self.save_roster_page(w)):
                    return False
            autosave.discard(w.doc)
            self.undo_group.removeStack(w.doc.undo_stack)
            w.release()
            if self._last_roster is w:
                self._last_roster = None
        self.tabs.removeTab(index)
        if w is not None:
            w.deleteLater()
        if self.tabs.count() == 0:
            self.show_welcome()
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
            chosen, ok = QInputDialog.getItem(self, "Add to roster", "Which roster?", names, 0, False)
            if not ok:
                return None
            page = pages[names.index(chosen)]
        if page is None:
            self.statusBar().showMessage("No roster is open: open one, or make one with File > New roster…", 10000)
            return None
        self.tabs.setCurrentWidget(page)
        page.add_files(files)
        return page

    # --- print and export -----------------------------------------------------------------------

    def print_any(self) -> None:
        """File > Print: the roster's print on a roster's tab, else the design's."""
        page = self.current_roster()
        if page is not None:
            self.print_roster_dialog(page)
        else:
            self.print_dialog()

    def print_roster_dialog(self, page: RosterPage) -> None:
        from PySide6.QtWidgets import QFileDialog

        from shipyard._qt.replacing import ask_replace, existing

        dlg = RosterPrintDialog(self, self.paper)
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return
        start = self.export_folder("pdf") or page.doc.path.parent
        name, _ = QFileDialog.getSaveFileName(
            self,
            "Print the roster to PDF",
            str(start / f"{page.doc.name}.pdf"),
            "PDF (*.pdf)",
            options=QFileDialog.Option.DontConfirmOverwrite,
        )
        if not name:
            return
        out = Path(name)
        self.remember_export_folder("pdf", out.parent)
        if not ask_replace(self, existing([out])):
            self.statusBar().showMessage(f"Not printed: {out} is as it was", 8000)
            return
        page.print_to(out, dlg.sheet.currentData(), dlg.paper.currentData())

    def export_roster_dialog(self, page: RosterPage) -> None:
        from PySide6.QtWidgets import QFileDialog

        from shipyard._qt.replacing import ask_replace

        start = self.export_folder("foundry") or page.doc.path.parent
        folder = QFileDialog.getExistingDirectory(self, "Export the roster to Foundry VTT", str(start))
        if not folder:
            return
        self.remember_export_folder("foundry", Path(folder))
        page.export_to(Path(folder), lambda files: ask_replace(self, files))


def _menu_letters(window: EditorWindow) -> set[str]:
    from shipyard._qt.mnemonics import menu_letters

    return menu_letters(window.menuBar())
