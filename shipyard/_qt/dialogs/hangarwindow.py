"""View > Hangar: every design of the hangar's library folders, filtered as ``shipyard find`` does.

A filter box takes the same words and filters as ``shipyard find`` (``ruleset:ID``,
``kind:X``, ``tag:X``, ``FIGURE>=N``, ``fails``, ``passes``, ``changed:7d``); a query that
cannot be read is said under the box, and the list keeps what it showed. The columns sort
(cost and key figure as numbers); Enter or a double click opens the design in the editor.

The first column shows each design's art, drawn in the picture worker and kept in the
index (:mod:`shipyard._qt.dialogs.hangarwatch`); the index is brought up to date in the
background when the window opens, by its Rescan button and whenever a design file in a
library folder is added, changed, removed or renamed.

The selected rows (Ctrl+A: all the filter shows) print as a fleet book or a card sheet,
or export as Foundry VTT actors, through File > Print to PDF's and File > Export's own
paths: the folder the last such output went to, Replace or Cancel before a file is
written over, rendered on the render worker.

Add to roster (Ctrl+Return) adds the selected designs to the roster open in the editor;
the rows can be dragged onto a roster's members too (as design files).
"""

from __future__ import annotations

import shlex
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QItemSelection, QItemSelectionModel, QMimeData, QSize, Qt, QUrl
from PySide6.QtGui import QAction, QIcon, QKeyEvent, QKeySequence, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from shipyard._qt.widgets import clock
from shipyard.core.errors import InputError

if TYPE_CHECKING:
    from shipyard.core.designfile import LoadedDesign

COLUMNS = ("Art", "Name", "Rule system", "Kind", "Key figure", "Cost", "Verdict", "Tags", "Modified", "File")
ART, NAME, COST, VERDICT, TAGS = (COLUMNS.index(c) for c in ("Art", "Name", "Cost", "Verdict", "Tags"))
FILTER_DELAY_MS = 150  # typing pauses this long before the list follows the box
OUTPUTS = (  # the selection's outputs: (button, what File > Print or File > Export calls it)
    ("Print &fleet book…", "fleet"),
    ("Print &card sheet…", "cards"),
    ("E&xport to Foundry…", "foundry"),
)


# the selection's designs, read, made into ``kind`` as the editor's window makes it
# (kind, designs, "N designs") -> the job in the background, or None when not made (said)
Output = Callable[[str, list["LoadedDesign"], str], "threading.Thread | None"]


class NumberItem(QTableWidgetItem):
    """A cell that sorts by its number, not its text (10 after 9)."""

    def __init__(self, text: str, number: float | None) -> None:
        super().__init__(text)
        self.number = number

    def __lt__(self, other: QTableWidgetItem) -> bool:
        if isinstance(other, NumberItem):
            return (self.number if self.number is not None else float("-inf")) < (
                other.number if other.number is not None else float("-inf")
            )
        return super().__lt__(other)


class DesignTable(QTableWidget):
    """The designs found; Enter opens the current row's design."""

    def __init__(self, opened: Callable[[], None], parent: QWidget | None = None) -> None:
        super().__init__(0, len(COLUMNS), parent)
        self.opened = opened

    def mimeData(self, items: Any) -> QMimeData:
        """The rows dragged, as their design files (a roster's members table takes them)."""
        data = QMimeData()
        files = dict.fromkeys(str(i.data(Qt.ItemDataRole.UserRole)) for i in items if i.data(Qt.ItemDataRole.UserRole))
        data.setUrls([QUrl.fromLocalFile(f) for f in files])
        return data

    def keyPressEvent(self, event: QKeyEvent) -> None:
        plain = event.modifiers() in (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.KeypadModifier)
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and plain and self.currentRow() >= 0:
            self.opened()
            return
        super().keyPressEvent(event)


class HangarWindow(QWidget):
    def __init__(
        self,
        open_file: Callable[[Path], Any],
        parent: QWidget | None = None,
        add_to_roster: Callable[[list[Path]], Any] | None = None,
        output: Output | None = None,
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle("Hangar")
        self.resize(980, 560)
        self.open_file = open_file
        self.filter = QLineEdit(self)
        self.filter.setPlaceholderText("Find: words, ruleset:ID, kind:X, tag:X, structure>=10, fails, changed:7d")
        self.filter.setClearButtonEnabled(True)
        self.problem = QLabel(self)
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #a4161a")
        self.count = QLabel(self)
        # the scan's notes, one a line, the width of the window: a note names a folder by its
        # whole path, wrapped here rather than widening the window past the screen
        self.notes_label = QLabel(self)
        self.notes_label.setWordWrap(True)
        self.notes_label.setTextFormat(Qt.TextFormat.PlainText)
        rescan = QPushButton("&Rescan", self)
        rescan.clicked.connect(self.refresh)
        from shipyard._qt.dialogs.hangarwatch import HangarWatch
        from shipyard.hangar.thumbs import BOX

        self.watch = HangarWatch(self)  # the library folders watched, scans and thumbnails in the background
        self.watch.changed.connect(self._index_changed)
        self.watch.drawn.connect(self._show_art)
        self.table = DesignTable(self.open_current, self)
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setIconSize(QSize(*BOX))
        self.table.verticalHeader().setDefaultSectionSize(BOX[1] + 4)
        self.table.setDragEnabled(True)  # rows dragged onto a roster's members become members
        self.table.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.table.setSortingEnabled(True)
        self.table.horizontalHeader().setSortIndicator(NAME, Qt.SortOrder.AscendingOrder)  # by name, as find lists
        self.table.verticalHeader().hide()
        self.table.setWordWrap(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.doubleClicked.connect(lambda _index: self.open_current())
        top = QHBoxLayout()
        top.addWidget(self.filter, 1)
        top.addWidget(rescan)
        self.add_to_roster = add_to_roster
        self.roster_action = QAction("Add to roster", self)
        self.roster_action.setShortcut(QKeySequence("Ctrl+Return"))
        self.roster_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.roster_action.triggered.connect(self.add_selected_to_roster)
        self.addAction(self.roster_action)
        to_roster = QPushButton("Add to r&oster", self)
        to_roster.setToolTip("Add the selected designs to the roster open in the editor (Ctrl+Return)")
        to_roster.clicked.connect(self.add_selected_to_roster)
        to_roster.setVisible(add_to_roster is not None)
        top.addWidget(to_roster)
        bottom = QHBoxLayout()
        bottom.addWidget(self.count, 1)
        self.output = output
        self.outputs: dict[str, QPushButton] = {}
        for text, kind in OUTPUTS:
            button = self.outputs[kind] = QPushButton(text, self)
            button.setToolTip("The selected designs (Ctrl+A selects every design the filter shows)")
            button.clicked.connect(lambda _=False, k=kind: self.output_selected(k))
            button.setVisible(output is not None)
            bottom.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.problem)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.notes_label)
        layout.addLayout(bottom)
        self.problem.hide()
        self.notes_label.hide()
        self.timer = clock.timer(self, FILTER_DELAY_MS)
        self.timer.timeout.connect(self.apply)
        self.filter.textChanged.connect(lambda _text: self.timer.start())
        self.filter.returnPressed.connect(self._to_list)
        self.notes: list[str] = []
        self.shown: Sequence[dict[str, Any]] = []  # the designs the list shows, as the index has them

    def refresh(self) -> None:
        """Show what the index holds now, and bring it up to date in the background (the
        list follows when the scan is done)."""
        self.apply()
        self.watch.rescan()

    def _index_changed(self) -> None:
        """A scan or a batch of thumbnails is done: the list again, the selection kept."""
        self.notes = list(self.watch.notes)
        if self.watch.unwatched:
            n = self.watch.unwatched
            self.notes.append(f"{n} path{'s' * (n != 1)} past the watch limit: rescanned every minute")
        self.apply()

    def apply(self) -> None:
        from shipyard.hangar.index import Index
        from shipyard.hangar.query import search

        try:
            tokens = shlex.split(self.filter.text())
        except ValueError as exc:
            self._say(f"the filter cannot be read: {exc}")
            return
        try:
            with Index() as index:
                rows = search(index, tokens)
        except InputError as exc:
            self._say(str(exc))
            return
        self.problem.hide()
        self.shown = rows
        self.show_rows(rows)

    def _say(self, text: str) -> None:
        self.problem.setText(text)
        self.problem.show()

    def show_rows(self, rows: Sequence[dict[str, Any]]) -> None:
        from shipyard.hangar.facts import shown_number

        table = self.table
        chosen, current = set(self.selected_files()), self.current_file()
        pictures = self._thumbnails(rows)
        sort_column = table.horizontalHeader().sortIndicatorSection()
        order = table.horizontalHeader().sortIndicatorOrder()
        table.setSortingEnabled(False)
        table.setRowCount(len(rows))
        for r, row in enumerate(rows):
            key = next(iter(row["key_figures"].items()), None)
            cost = row["cost"]
            verdict = "passes" if row["valid"] else f"fails ({row['errors']})"
            art = QTableWidgetItem()
            _show_picture(art, pictures.get(row["file"]), row.get("art"))
            cells = [
                art,
                QTableWidgetItem(row["name"]),
                QTableWidgetItem(row["ruleset_name"] or ""),
                QTableWidgetItem(row["kind"] or ""),
                NumberItem(f"{key[0]} {shown_number(key[1])}" if key else "", key[1] if key else None),
                NumberItem(shown_number(cost) if cost is not None else "", cost),
                QTableWidgetItem(verdict),
                QTableWidgetItem(", ".join(row["tags"])),
                QTableWidgetItem(row["modified"].replace("T", " ")),
                QTableWidgetItem(row["file"]),
            ]
            for c, item in enumerate(cells):
                item.setData(Qt.ItemDataRole.UserRole, row["file"])
                table.setItem(r, c, item)
        table.setSortingEnabled(True)
        table.sortItems(sort_column, order)
        table.resizeColumnsToContents()
        table.setColumnWidth(ART, max(table.columnWidth(ART), table.iconSize().width() + 8))
        self.count.setText(f"{len(rows)} design{'s' * (len(rows) != 1)}")
        self.notes_label.setText("\n".join(f"Note: {n}" for n in self.notes))
        self.notes_label.setVisible(bool(self.notes))
        self._select(chosen, current)
        if rows and table.currentRow() < 0:
            table.setCurrentCell(0, NAME)

    def _show_art(self) -> None:
        """New thumbnails were drawn: shown in the rows there are, nothing else redone."""
        table, files = self.table, {}
        for r in range(table.rowCount()):
            item = table.item(r, ART)
            if item is not None and item.icon().isNull() and not item.text():
                files[item.data(Qt.ItemDataRole.UserRole)] = item
        shown = {row["file"]: row for row in self.shown if row["file"] in files}
        for file, picture in self._thumbnails(list(shown.values())).items():
            _show_picture(files[file], picture, shown[file].get("art"))

    def _select(self, files: set[Path], current: Path | None) -> None:
        """The rows of ``files`` selected again, ``current`` the current row (the list was shown again)."""
        table = self.table
        if not files:
            return
        model, selection = table.selectionModel(), QItemSelection()
        for r in range(table.rowCount()):
            item = table.item(r, NAME)
            file = Path(item.data(Qt.ItemDataRole.UserRole)) if item is not None else None
            if file == current:
                table.setCurrentCell(r, NAME, QItemSelectionModel.SelectionFlag.NoUpdate)
            if file in files:
                selection.select(table.model().index(r, 0), table.model().index(r, table.columnCount() - 1))
        model.select(selection, QItemSelectionModel.SelectionFlag.ClearAndSelect)

    def _thumbnails(self, rows: Sequence[dict[str, Any]]) -> dict[str, QPixmap | str]:
        """Each shown design's thumbnail as the index keeps it: a picture, or why there is none."""
        from shipyard.hangar import thumbs
        from shipyard.hangar.index import Index

        keyed = {row["file"]: key for row in rows if (key := thumbs.thumb_key(row)) is not None}
        if not keyed:
            return {}
        try:
            with Index() as index:
                kept = thumbs.stored(index, keyed.values())
        except Exception:  # thumbnails are a cache: none shown this time
            return {}
        out: dict[str, QPixmap | str] = {}
        for file, key in keyed.items():
            png, problem = kept.get(key, (None, None))
            if png:
                pixmap = QPixmap()
                if pixmap.loadFromData(png, "PNG"):  # the picture worker's own PNG, no larger than the box
                    out[file] = pixmap
            elif problem:
                out[file] = problem
        return out

    def _to_list(self) -> None:
        """Enter in the filter box: the list follows at once and takes the focus."""
        self.timer.stop()
        self.apply()
        self.table.setFocus()

    def current_file(self) -> Path | None:
        item = self.table.item(self.table.currentRow(), NAME)
        return Path(item.data(Qt.ItemDataRole.UserRole)) if item is not None else None

    def selected_files(self) -> list[Path]:
        """The files of the selected rows, in the order the list shows them (none selected: the current row's)."""
        current = self.table.currentRow()
        rows = sorted({i.row() for i in self.table.selectionModel().selectedRows()}) or ([current] * (current >= 0))
        return [Path(item.data(Qt.ItemDataRole.UserRole)) for r in rows if (item := self.table.item(r, NAME))]

    def output_selected(self, kind: str) -> threading.Thread | None:
        """The selected designs printed as a fleet book or card sheet (``kind`` "fleet" or
        "cards") or exported to Foundry ("foundry"), as File > Print to PDF and File > Export
        do it; a design file that cannot be read is said, and nothing is made."""
        from shipyard.core.designfile import load_design

        files = self.selected_files()
        if not files:
            self._say("Select the designs first (Ctrl+A selects every design the filter shows)")
            return None
        main: Any = self.parent()
        folders = main.catalog_folders() if hasattr(main, "catalog_folders") else ()  # as the editor opens them
        problems, loaded = [], []
        for file in files:
            try:
                loaded.append(
                    load_design(file, catalog_folders=folders, use_user_folder=getattr(main, "use_user_folder", True))
                )
            except InputError as exc:
                problems.append(str(exc.problems[0]))
        if problems:
            self._say("Nothing was made: " + "; ".join(problems))
            return None
        self.problem.hide()
        what = f"{len(files)} design{'s' * (len(files) != 1)}"
        return self.output(kind, loaded, what) if self.output is not None else None

    def add_selected_to_roster(self) -> None:
        """Add to roster: the selected designs to the roster open in the editor."""
        files = self.selected_files()
        if files and self.add_to_roster is not None:
            self.add_to_roster(files)

    def open_current(self) -> None:
        file = self.current_file()
        if file is not None:
            self.open_file(file)


def _show_picture(item: QTableWidgetItem, picture: QPixmap | str | None, art: str | None) -> None:
    """An art cell: the thumbnail, or "left out" and why (nothing while none is drawn yet)."""
    if isinstance(picture, QPixmap):
        item.setIcon(QIcon(picture))
        item.setToolTip(art or "")
    elif picture:
        item.setText("left out")
        item.setToolTip(f"The art is left out: {picture}")
