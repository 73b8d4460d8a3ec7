"""The Roster page: a ``.roster`` file open in a tab of its own, as a design is.

It shows the roster's name, its points limit (a spin box: every change, the limit's too,
is checked again at once), its members (design, file, count, callsign, pilot or crew,
notes, each one's cost and verdict), the total against the limit and the roster's
findings: over the limit, each member's own findings, a missing file named, a changed
design with what changed, a moved one found again by its content (Relink). Every figure
and finding is the engine's (:mod:`shipyard.hangar.roster`); the page computes none.

Members are added with Add design… (a file dialog), from View > Hangar by keyboard
(Add to roster) or by dragging its rows onto the members table; Delete or Remove takes
the selected ones out. Every change is a step on the tab's undo stack
(:mod:`shipyard._qt.document.rosterdoc`). Print and Export run the command line's own roster
print and export (``shipyard roster print|export``) on the editor's render worker, after the
members whose files changed are read again: the book is read from the files as they are,
so the summary and the totals printed with it are of the same files.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QColor, QDragEnterEvent, QDragMoveEvent, QDropEvent, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from shipyard._qt.document.keys import TextBox, share_undo
from shipyard._qt.document.rosterdoc import TEXT_FIELDS, RosterDocument
from shipyard._qt.preview.rendering import RenderBridge
from shipyard._qt.view.mnemonics import Mnemonics
from shipyard._qt.widgets.disknotice import DiskNotice
from shipyard._qt.widgets.marks import MARK_GLYPH, SEVERITY_ORDER, mark_colour
from shipyard._qt.widgets.whatnext import EmptyHint
from shipyard.core.designfile import EXTENSION as DESIGN_EXTENSION
from shipyard.hangar.facts import shown_number
from shipyard.hangar.roster import MAX_COUNT, subtotal

COLUMNS = ("#", "Design", "File", "Count", "Callsign", "Pilot or crew", "Notes", "Cost", "Subtotal", "Verdict")
COUNT, CALLSIGN, CREW = 3, 4, 5
MEMBER_PATH = re.compile(r"^members\[(\d+)\]")  # a finding's path naming a member (and maybe its field)
EDITABLE = {3: "count", 4: "callsign", 5: "crew", 6: "notes"}
NO_LIMIT = "No limit"
VERDICTS = {
    "ok": "passes",
    "changed": "changed",
    "missing": "missing",
    "outside": "outside the folder",
    "broken": "cannot be read",
    "other-ruleset": "another ruleset",
    "fails": "does not pass",
}


class CountDelegate(QStyledItemDelegate):
    """A count is typed in a spin box from 1 to the most a roster takes."""

    def createEditor(
        self, parent: QWidget, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QWidget:
        box = QSpinBox(parent)
        box.setRange(1, MAX_COUNT)
        box.setAccessibleName("Count")
        return box


class MembersTable(QTableWidget):
    """The members: typing on a cell edits it, Delete removes the selected rows, design
    files dropped on it (from View > Hangar, a file manager) are added."""

    removed = Signal()
    dropped = Signal(list)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, len(COLUMNS), parent)
        self.setAcceptDrops(True)
        self.viewport().setAcceptDrops(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DropOnly)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace) and self.state() != self.State.EditingState:
            self.removed.emit()
            return
        super().keyPressEvent(event)

    @staticmethod
    def _files(event: QDropEvent | QDragEnterEvent | QDragMoveEvent) -> list[Path]:
        data = event.mimeData()
        return [Path(u.toLocalFile()) for u in data.urls() if u.isLocalFile()] if data.hasUrls() else []

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if self._files(event):
            event.acceptProposedAction()

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        if self._files(event):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        files = self._files(event)
        if files:
            event.acceptProposedAction()
            self.dropped.emit(files)


class MembersHint(EmptyHint):
    """An empty roster says every way to add its first member."""

    def text_now(self) -> str:
        first = super().text_now().rstrip(".")
        return (
            f"{first}, or select designs in View > Hangar (Ctrl+Shift+H) and press Add to roster (Ctrl+Return), "
            "or drag them here from the Hangar."
        )


def _ruleset_name(ruleset: str) -> str:
    """The ruleset's name as its manifest gives it (its id, when it is not installed)."""
    from shipyard.core.registry import rulesets

    return next((i.name for i in rulesets() if i.id == ruleset), ruleset)


def crew_word(rulesets: list[str]) -> str:
    """What the members table calls who flies or crews a member, from what ``rulesets``
    declare in their manifests (``crew``): "Pilot", "Crew", "Pilot or crew" when they say
    different words; empty when none of them has pilots or crew."""
    from shipyard.core.registry import rulesets as installed

    words = {i.id: i.manifest.crew for i in installed()}
    said = sorted({w for r in rulesets if (w := words.get(r))})
    if len(said) > 1:
        return "Pilot or crew"
    return said[0] if said else ""


def member_findings(findings: list[Any]) -> dict[int, list[Any]]:
    """The composition findings naming a member (a path ``members[i]`` or below), by row, most severe first."""
    out: dict[int, list[Any]] = {}
    for f in findings:
        if (m := MEMBER_PATH.match(f.path or "")) is not None:
            out.setdefault(int(m.group(1)), []).append(f)
    for found in out.values():
        found.sort(key=lambda f: SEVERITY_ORDER.get(str(f.severity), 9))
    return out


def _item(text: str, tip: str = "") -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
    item.setToolTip(tip or text)
    return item


class RosterPage(QScrollArea):
    """A roster's tab. ``say(text)``: a line for the status bar (why a change was refused)."""

    def __init__(self, doc: RosterDocument, say: Callable[[str], None], reserved: Callable[[], set[str]]) -> None:
        super().__init__()
        self.doc = doc
        self.say = say
        self.notice: DiskNotice | None = None  # made when the roster's file first changes on disk
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        inner = QWidget()
        self.setWidget(inner)
        self._filling = False
        self._rows: list[tuple[str, ...]] = []  # the texts each row shows now
        self.name = QLineEdit()
        self.name.setAccessibleName("Roster name")
        font = self.name.font()
        font.setPointSizeF(font.pointSizeF() * 1.3)
        font.setBold(True)
        self.name.setFont(font)
        self.name.editingFinished.connect(self._name_done)
        name_label = QLabel("&Name")
        name_label.setBuddy(self.name)
        self.limit = QSpinBox()
        self.limit.setRange(0, 1_000_000_000)
        self.limit.setSpecialValueText(NO_LIMIT)
        self.limit.setAccessibleName("Points limit")
        self.limit.setToolTip("The points limit in the rulesets' own currency; 0: no limit")
        self.limit.setMinimumWidth(self.limit.fontMetrics().horizontalAdvance("1,000,000,000") + 48)
        self.limit.setGroupSeparatorShown(True)
        self.limit.valueChanged.connect(self._limit_changed)
        limit_label = QLabel("Points &limit")
        limit_label.setBuddy(self.limit)
        self.rulesets = QLabel()
        self.rulesets.setAccessibleName("Rulesets")
        self.total = QLabel()
        self.total.setAccessibleName("Total")
        self.total.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.verdict = QLabel()
        self.verdict.setAccessibleName("Roster verdict")
        top = QHBoxLayout()
        top.addWidget(name_label)
        top.addWidget(self.name, 2)
        top.addSpacing(12)
        top.addWidget(limit_label)
        top.addWidget(self.limit)
        top.addSpacing(12)
        top.addWidget(self.rulesets, 1)
        self.table = MembersTable()
        self.table.setAccessibleName("Members")
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        for c, head in enumerate(COLUMNS):
            if (header_item := self.table.horizontalHeaderItem(c)) is not None:
                header_item.setToolTip(head)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setEditTriggers(
            QAbstractItemView.EditTrigger.AnyKeyPressed
            | QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        self.table.setItemDelegateForColumn(COUNT, CountDelegate(self.table))
        self.table.verticalHeader().hide()
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        self.table.itemChanged.connect(self._cell_changed)
        self.table.removed.connect(self.remove_selected)
        self.table.dropped.connect(self.add_files)
        self.add_button = QPushButton("&Add design…")
        self.add_button.setToolTip("Add design files from the roster's folder (or below) as members")
        self.add_button.clicked.connect(self.add_dialog)
        self.remove_button = QPushButton("&Remove")
        self.remove_button.setToolTip("Take the selected members out of the roster (Delete)")
        self.remove_button.clicked.connect(self.remove_selected)
        self.again_button = QPushButton("Check a&gain")
        self.again_button.setToolTip("Read every member's design file again (one changed on disk since)")
        self.again_button.clicked.connect(self.doc.check_again)
        self.print_button = QPushButton("&Print…")
        self.print_button.setToolTip("A summary page, then the members' fleet book or card sheet, as a PDF")
        self.export_button = QPushButton("E&xport to Foundry…")
        self.export_button.setToolTip("The roster as Foundry VTT actors: one per ship, named by callsign")
        buttons = QHBoxLayout()
        for b in (self.add_button, self.remove_button, self.again_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        buttons.addWidget(self.print_button)
        buttons.addWidget(self.export_button)
        self.findings = QListWidget()
        self.findings.setAccessibleName("Roster findings")
        self.findings.setWordWrap(True)
        self.findings.setMaximumHeight(self.findings.fontMetrics().height() * 9)
        self.relink_button = QPushButton("Re&link moved files")
        self.relink_button.setToolTip("Link each missing member to the file found with its content")
        self.relink_button.clicked.connect(self.relink)
        self.accept_button = QPushButton("Acc&ept changed designs")
        self.accept_button.setToolTip("Take the changed designs' figures as they are now: their change is seen")
        self.accept_button.clicked.connect(self.doc.acknowledge)
        fix = QVBoxLayout()
        fix.addWidget(self.relink_button)
        fix.addWidget(self.accept_button)
        fix.addStretch(1)
        below = QHBoxLayout()
        below.addWidget(self.findings, 1)
        below.addLayout(fix)
        layout = QVBoxLayout(inner)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        totals = QHBoxLayout()
        totals.addWidget(self.total, 1)
        totals.addWidget(self.verdict)
        layout.addLayout(totals)
        layout.addLayout(buttons)
        findings_label = QLabel("&Findings")
        findings_label.setBuddy(self.findings)
        layout.addWidget(findings_label)
        layout.addLayout(below)
        self.notes = TextBox()
        self.notes.setAccessibleName("Roster notes")
        self.notes.setToolTip("The roster's own notes (saved in the roster file)")
        self.notes.setMaximumHeight(self.notes.fontMetrics().height() * 6)
        self.notes.textChanged.connect(self._notes_typed)
        notes_label = QLabel("N&otes")
        notes_label.setBuddy(self.notes)
        layout.addWidget(notes_label)
        layout.addWidget(self.notes)
        self.hint = MembersHint(self.table, "Members", self.add_button)
        share_undo(self.name, doc.undo_stack)
        share_undo(self.limit, doc.undo_stack)
        share_undo(self.notes, doc.undo_stack)
        self.print_bridge = RenderBridge(self)
        self.print_bridge.done.connect(self._printed)
        self.mnemonics = Mnemonics(self, lambda: [], reserved)
        self.setFocusProxy(self.table)
        doc.changed.connect(self.refresh)
        self.refresh()
        self.fit_columns()

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        self.mnemonics.start()

    # --- showing the engine's check ----------------------------------------------------------

    def refresh(self) -> None:
        """Show the roster and its check as they are now (after every change, undo, redo)."""
        check = self.doc.check
        roster = check.roster
        self._filling = True
        try:
            if self.name.text() != roster.name and not self.name.hasFocus():
                self.name.setText(roster.name)
                self.name.setToolTip(roster.name)
            if self.limit.value() != (roster.limit or 0):
                self.limit.blockSignals(True)
                self.limit.setValue(roster.limit or 0)
                self.limit.blockSignals(False)
            if self.notes.toPlainText() != roster.notes and not self.doc.pending.holds(self.notes):
                at = self.notes.textCursor().position()
                self.notes.setPlainText(roster.notes)
                cursor = self.notes.textCursor()  # where the person was typing, not the start
                cursor.setPosition(min(at, len(roster.notes)))
                self.notes.setTextCursor(cursor)
            rulesets = ", ".join(map(_ruleset_name, roster.rulesets)) or "any (the first design added says which)"
            self._set_label(self.rulesets, f"Rulesets: {rulesets}")
            self._show_crew(check)
            self._fill(check)
            limit = f" of {shown_number(roster.limit)}" if roster.limit is not None else " (no limit)"
            self._set_label(self.total, f"Total: {shown_number(check.total)} {check.unit}{limit}")
            passes = "The roster passes" if check.valid else "The roster does not pass"
            self._set_label(self.verdict, passes)
            style = "" if check.valid else "color: #a4161a; font-weight: bold"
            if self.verdict.styleSheet() != style:  # a style sheet set polishes the label again: only on a change
                self.verdict.setStyleSheet(style)
            self._show_findings(check)
            self.relink_button.setEnabled(any(s.relink is not None for s in check.members))
            self.accept_button.setEnabled(
                any(s.facts is not None and s.member.hash and s.hash != s.member.hash for s in check.members)
            )
            has_rows = bool(check.members)
            self.remove_button.setEnabled(has_rows)
            self.print_button.setEnabled(has_rows)
            self.export_button.setEnabled(has_rows)
        finally:
            self._filling = False

    @staticmethod
    def _set_label(label: QLabel, text: str) -> None:
        if label.text() != text:
            label.setText(text)
            label.setToolTip(text)

    def _show_crew(self, check: Any) -> None:
        """The Pilot or crew column, named as the roster's rulesets declare it, shown only
        where one of them has pilots or crew (or a member already names one)."""
        used = list(check.roster.rulesets) + [s.facts.ruleset for s in check.members if s.facts is not None]
        word = crew_word(list(dict.fromkeys(used)))
        shown = bool(word) or any(s.member.crew for s in check.members)
        head = self.table.horizontalHeaderItem(CREW)
        if head is not None and word and head.text() != word:
            head.setText(word)
            head.setToolTip(word)
        if self.table.isColumnHidden(CREW) == shown:
            self.table.setColumnHidden(CREW, not shown)

    def _fill(self, check: Any) -> None:
        """The members' rows: only the rows whose texts changed are touched (an edit of one
        count redraws its row and nothing else; the page keeps up with typing)."""
        table = self.table
        grown = table.rowCount() != len(check.members)
        if grown:
            table.setRowCount(len(check.members))
            del self._rows[len(check.members) :]
        marked = member_findings(check.findings)
        for r, s in enumerate(check.members):
            f = s.facts
            m = s.member
            sub = subtotal(s, check.unit)
            cost = f.cost if f is not None and f.cost is not None and check.unit != "designs" else None
            said = "; ".join(s.says)
            texts = [
                str(s.number),
                f.name if f else Path(m.file).stem,
                m.file,
                str(m.count),
                m.callsign,
                m.crew,
                m.notes,
                shown_number(cost) if cost is not None else "",
                shown_number(sub) if sub is not None else "",
                VERDICTS.get(s.state, s.state),
            ]
            named = marked.get(r, [])
            severity = str(named[0].severity) if named else ""
            if named:  # the composition findings naming this member mark its row (#, Design) by the worst
                texts[0] = f"{MARK_GLYPH.get(severity, '')} {texts[0]}"
            mark = "\n".join(f"{str(x.severity).capitalize()}: {x.message}" for x in named)
            row = (*texts, said, mark)
            if r < len(self._rows) and self._rows[r] == row and table.item(r, 0) is not None:
                continue
            self._rows[r : r + 1] = [row]
            for c, text in enumerate(texts):
                item = table.item(r, c)
                if item is None:
                    item = QTableWidgetItem() if c in EDITABLE else _item("")
                    table.setItem(r, c, item)
                tip = f"{text}\n{said}" if c == len(COLUMNS) - 1 and said else text
                if c in (0, 1) and mark:
                    tip = f"{text}\n{mark}"
                    item.setForeground(QColor(mark_colour(severity, table)))
                elif c in (0, 1):
                    item.setData(Qt.ItemDataRole.ForegroundRole, None)
                if c == COUNT:
                    if item.data(Qt.ItemDataRole.EditRole) != m.count:
                        item.setData(Qt.ItemDataRole.EditRole, m.count)
                elif item.text() != text:
                    item.setText(text)
                if item.toolTip() != tip:
                    item.setToolTip(tip)

        if grown:  # members added or removed: the columns fit what they show (a long note elided, its tooltip whole)
            self.fit_columns()

    def fit_columns(self) -> None:
        """Each column as wide as what it shows, none wider than a long name (the rest in its tooltip)."""
        self.table.resizeColumnsToContents()
        widest = max(self.fontMetrics().horizontalAdvance("M") * 24, 200)
        for c in range(self.table.columnCount() - 1):
            if self.table.columnWidth(c) > widest:
                self.table.setColumnWidth(c, widest)

    def _show_findings(self, check: Any) -> None:
        lines = [(e, True) for e in check.errors] + [(w, False) for w in check.warnings]
        if not lines:
            lines = [("No findings: every member passes and the total is within the limit.", False)]
        now = [self.findings.item(i).text() for i in range(self.findings.count())]
        if now == [t for t, _ in lines]:
            return
        self.findings.clear()
        for text, error in lines:
            item = QListWidgetItem(text)
            item.setToolTip(text)
            if error:
                item.setForeground(Qt.GlobalColor.darkRed)
            self.findings.addItem(item)

    # --- changes -----------------------------------------------------------------------------

    def _refused(self, why: str | None) -> None:
        if why:
            self.say(f"Not changed: {why}")
            self.refresh()

    def _name_done(self) -> None:
        if self.name.text() != self.doc.roster.name:
            self._refused(self.doc.set_name(self.name.text()))

    def _notes_typed(self) -> None:
        """The roster's notes typed: committed on a pause or on leaving them, one undo step each."""
        if not self._filling:
            self.doc.pending.hold(self.notes, self._notes_done)

    def _notes_done(self) -> None:
        if self.notes.toPlainText() != self.doc.roster.notes:
            self._refused(self.doc.set_notes(self.notes.toPlainText()))

    def _limit_changed(self, value: int) -> None:
        if not self._filling:
            self.doc.set_limit(value or None)

    def _cell_changed(self, item: QTableWidgetItem) -> None:
        if self._filling or item.column() not in EDITABLE:
            return
        row, field = item.row(), EDITABLE[item.column()]
        if field == "count":
            value = item.data(Qt.ItemDataRole.EditRole)
            try:
                count = int(value)
            except (TypeError, ValueError):
                self._refused(f"{value!r} is not a count: a whole number from 1 to {MAX_COUNT}")
                return
            self._refused(self.doc.set_count(row, count))
        elif field in TEXT_FIELDS:
            self._refused(self.doc.set_text(row, field, item.text()))

    def selected_rows(self) -> list[int]:
        return sorted({i.row() for i in self.table.selectedIndexes()})

    def remove_selected(self) -> None:
        rows = self.selected_rows() or ([self.table.currentRow()] if self.table.currentRow() >= 0 else [])
        if rows:
            at = min(rows)
            self.doc.remove(rows)
            if self.table.rowCount():
                self.table.setCurrentCell(min(at, self.table.rowCount() - 1), 1)

    def add_files(self, files: list[Path]) -> bool:
        """Add ``files`` as members (one undo step); said in the status bar when refused."""
        designs = [Path(f) for f in files]
        if not designs:
            return False
        why = self.doc.add(designs)
        if why:
            self.say(f"Not added: {why}")
            return False
        self.table.setCurrentCell(self.table.rowCount() - 1, 1)
        self.say(f"Added {len(designs)} design{'s' * (len(designs) != 1)} to {self.doc.name}")
        return True

    def add_dialog(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        files, _ = QFileDialog.getOpenFileNames(
            self,
            "Add designs to the roster",
            str(self.doc.path.parent),
            f"Shipyard designs (*{DESIGN_EXTENSION});;All files (*)",
        )
        if files:
            self.add_files([Path(f) for f in files])

    def relink(self) -> None:
        done = self.doc.relink()
        self.say(f"Relinked {done} moved member{'s' * (done != 1)}" if done else "No moved member was found again")

    # --- print and export, on the editor's render worker ----------------------------------------

    def print_to(self, out: Path, sheet: str, paper: str) -> threading.Thread:
        """The roster printed to ``out`` by ``shipyard roster print``'s code, in the background."""
        from shipyard._qt.preview.rendering import shared_worker

        self.doc.follow_files()  # the book is read from the files now: the summary counts them as they are too
        check = self.doc.check
        bridge = self.print_bridge

        def run() -> None:
            from shipyard.commands.roster_command import print_roster

            error = ""
            try:
                print_roster(check, out, sheet, paper, shared_worker())
            except Exception as exc:
                error = str(exc)
            bridge.send(str(out), error)

        self.say(f"Printing {out}…")
        thread = threading.Thread(target=run, daemon=True, name="shipyard-roster-print")
        thread.start()
        return thread

    def export_to(self, folder: Path, replace: Callable[[list[Path]], bool]) -> bool:
        """The roster's actors written into ``folder`` (``replace``: asked about files there)."""
        from shipyard.commands.roster_command import roster_actor_files
        from shipyard.core.designfile import write_into_folder
        from shipyard.core.errors import InputError

        self.doc.follow_files()  # the actors are read from the files now: the roster's check as they are too
        try:
            files = roster_actor_files(self.doc.check)
            targets = [folder / name for name, _ in files]
            if not replace([t for t in targets if t.exists()]):
                self.say(f"Not exported: the files in {folder} are as they were")
                return False
            write_into_folder(folder, [(t, data) for t, (_, data) in zip(targets, files, strict=True)])
        except InputError as exc:
            self.say(f"Not exported: {exc.problems[0].message}")
            return False
        self.say(f"Exported {len(targets)} files to {folder}")
        return True

    def disk_notice(self) -> DiskNotice:
        """The bar above the roster's name that says its file changed on disk while this tab
        has unsaved edits (:mod:`shipyard._qt.window.diskchanges` shows it), made on first use."""
        if self.notice is None:
            inner = self.widget()
            layout = inner.layout() if inner is not None else None
            assert isinstance(layout, QVBoxLayout)
            self.notice = DiskNotice(inner)
            layout.insertWidget(0, self.notice)
        return self.notice

    def _printed(self, path: str, error: str) -> None:
        self.say(f"Not printed: {error}" if error else f"Printed {path}")

    def release(self) -> None:
        self.print_bridge.close()
        self.doc.release()


class BrokenRoster(QWidget):
    """A roster file that cannot be read, shown in its tab: what is wrong, where, what is
    allowed; the file is not touched."""

    def __init__(self, path: Path, message: str) -> None:
        super().__init__()
        self.path = path
        self.message = message
        layout = QVBoxLayout(self)
        title = QLabel(f"The roster {path.name} cannot be opened. The file is unchanged.")
        title.setWordWrap(True)
        layout.addWidget(title)
        from PySide6.QtWidgets import QPlainTextEdit

        text = QPlainTextEdit(message)
        text.setReadOnly(True)
        text.setAccessibleName("Why the roster cannot be opened")
        layout.addWidget(text, 1)
        self.setFocusProxy(text)
