"""The catalog browser: find an item of one catalog kind and add it to the design.

It shows what a user needs to choose an item — its own fields (a weapon's Speed, Damage,
Range, cost and notes), in the detail box and the tooltip — and works from the keyboard:
Down from the search box into the list, Enter adds the selected (or the only) match. An
item not for the design's scale is shown greyed, with why. Adding is a signal: the list
the browser stands beside (:func:`browser_with_list`) says what adding an item makes.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidgetItem,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from shipyard._qt.document.document import Document
from shipyard._qt.widgets.itemdrag import ItemDragList
from shipyard._qt.widgets.itemfacts import facts_html, facts_text
from shipyard.core.items import CatalogItem
from shipyard.pointbuy.scalelimits import scale_restriction


def whole_tip(text: str, tip: str) -> str:
    """A row's tooltip that holds the row's text whole (the row may be cut to the list's
    width): its first line, in place of the item's bare name there."""
    if text in tip:
        return tip
    first, _, rest = tip.partition("\n")
    if first and text.startswith(first):
        return f"{text}\n{rest}" if rest else text
    return f"{text}\n{tip}" if tip else text


class CatalogBrowser(QWidget):
    """Search a catalog kind; see cost, description and system text; add with a click or drag."""

    add_requested = Signal(str)

    def __init__(
        self, doc: Document, kind: str, noun: str, one: str = "", parent: QWidget | None = None, add_text: str = ""
    ) -> None:
        super().__init__(parent)
        self.doc, self.kind, self.noun = doc, kind, noun
        self.search = QLineEdit(placeholderText=f"Search {noun}…")
        self.search.setAccessibleName(f"Search {noun}")
        self.search.setClearButtonEnabled(True)
        self.list = ItemDragList()
        self.list.setAccessibleName(f"{noun.capitalize()} catalog")
        self.list.setDragEnabled(True)
        # a row too long for the list ends in "…" (its tooltip holds it whole), not in a sideways scroll
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.detail = QTextBrowser()
        self.detail.setAccessibleName(f"{noun.capitalize()} description")
        self.detail.setFocusPolicy(Qt.FocusPolicy.ClickFocus)  # a description to read, not a control
        self.detail.setPlaceholderText("Select a row to see its facts.")  # one line: a placeholder does not wrap
        self.detail.setMinimumHeight(72)
        margins = 2 * (self.detail.frameWidth() + int(self.detail.document().documentMargin())) + 4
        # as wide as that line, though a chosen list beside takes the room for its names
        placeholder = self.detail.fontMetrics().horizontalAdvance(self.detail.placeholderText())
        self.detail.setMinimumWidth(placeholder + margins)
        self.detail.setMaximumHeight(180)
        self.add_button = QPushButton(add_text or f"&Add {one or noun}")
        self.add_button.setAccessibleName(f"Add the selected {noun}")
        self.add_button.setAutoDefault(True)  # Enter adds, as Space does
        label = QLabel(f"{noun.capitalize()} catalog")
        label.setBuddy(self.search)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        # the Add button under the search, above the list: in sight at the top of the page
        # at 1280x720, where below a tall list and its description it was past the fold
        for w in (label, self.search, self.add_button, self.list, self.detail):  # the list has most of the height
            lay.addWidget(w, 3 if w is self.list else 1 if w is self.detail else 0)
        self.list.setMinimumHeight(96)
        self.search.installEventFilter(self)
        self.search.textChanged.connect(self._filter)
        self.list.currentItemChanged.connect(self._show)
        self.list.itemActivated.connect(lambda _i: self._add())
        self.add_button.clicked.connect(self._add)
        self._scale: tuple[Any, str] | None = None
        self.scale_refused: set[str] = set()  # ids of the rows shown disabled: not for this design's scale
        self.populate()

    def populate(self) -> None:
        ladder = self.doc.catalog.scales
        scale = (
            ladder.parse(getattr(self.doc.design, "scale", ""))
            if ladder and hasattr(self.doc.design, "scale")
            else None
        )
        key = (scale, self.doc.preset)
        if key == self._scale and self.list.count():
            return
        self._scale = key
        current = self.list.currentItem().data(Qt.ItemDataRole.UserRole) if self.list.currentItem() else None
        self.list.clear()
        self.scale_refused = set()
        for item in self.doc.catalog.kind(self.kind).values():
            cost = getattr(item, "cost", None)
            text = item.name
            if cost is not None:
                text += f"   {cost}{' each' if getattr(item, 'per_level', False) else ''}"
            row = QListWidgetItem(text)
            row.setData(Qt.ItemDataRole.UserRole, item.id)
            reason = scale_restriction(self.doc.catalog, item, scale) if scale is not None else None
            tip = facts_text(item)
            if reason:
                row.setText(f"{text}   (for {reason} scale only)")
                row.setFlags(row.flags() & ~Qt.ItemFlag.ItemIsEnabled)
                self.scale_refused.add(item.id)
                tip = f"Not for {scale.name if scale else ''}-scale designs: {reason} scale only. {tip}"
            row.setToolTip(whole_tip(row.text(), tip))
            self.list.addItem(row)
            if item.id == current:
                self.list.setCurrentItem(row)
        self._filter(self.search.text())

    def _filter(self, text: str) -> None:
        needle = text.strip().lower()
        for i in range(self.list.count()):
            row = self.list.item(i)
            item = self.doc.catalog.item(self.kind, row.data(Qt.ItemDataRole.UserRole))
            hay = (
                " ".join(
                    [item.name, *item.aliases, getattr(item, "description", ""), getattr(item, "system", "")]
                ).lower()
                if item
                else ""
            )
            row.setHidden(bool(needle) and needle not in hay)
        current = self.list.currentItem()
        if needle and (current is None or current.isHidden()):  # the detail follows what the search leaves
            shown = self.matches()
            if shown:
                self.list.setCurrentItem(shown[0])
            else:
                self.list.setCurrentRow(-1)

    def matches(self, enabled_only: bool = False) -> list[QListWidgetItem]:
        """The rows the search shows (only those that may be added, with ``enabled_only``)."""
        rows = [self.list.item(i) for i in range(self.list.count())]
        return [
            r for r in rows if not r.isHidden() and (not enabled_only or bool(r.flags() & Qt.ItemFlag.ItemIsEnabled))
        ]

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """In the search box, Down goes into the list, Enter adds the selected or the only match."""
        if watched is self.search and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            if event.key() in (Qt.Key.Key_Down, Qt.Key.Key_PageDown):
                current = self.list.currentItem()
                if current is None or current.isHidden():
                    shown = self.matches()
                    if shown:
                        self.list.setCurrentItem(shown[0])
                self.list.setFocus(Qt.FocusReason.TabFocusReason)
                return True
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self.add_match()
                return True
        return False

    def add_match(self) -> bool:
        """Add the selected match, or the only one; False (and nothing added) when neither is clear."""
        current = self.list.currentItem()
        if current is not None and not current.isHidden() and current.flags() & Qt.ItemFlag.ItemIsEnabled:
            self.add_requested.emit(current.data(Qt.ItemDataRole.UserRole))
            return True
        shown = self.matches(enabled_only=True)
        if len(shown) == 1:
            self.list.setCurrentItem(shown[0])
            self.add_requested.emit(shown[0].data(Qt.ItemDataRole.UserRole))
            return True
        return False

    def select_named(self, text: str) -> bool:
        """Select the catalog item whose name ``text`` mentions (the longest such name), e.g. the
        item an advice recommends; False when it names none."""
        rows = [self.list.item(i) for i in range(self.list.count())]
        named = [r for r in rows if (item := self._item(r)) is not None and item.name in text]
        if not named:
            return False
        row = max(named, key=lambda r: len(self._item(r).name))  # type: ignore[union-attr]
        self.search.clear()
        self.list.setCurrentItem(row)
        self.list.scrollToItem(row)
        return True

    def _item(self, row: QListWidgetItem) -> CatalogItem | None:
        return self.doc.catalog.item(self.kind, row.data(Qt.ItemDataRole.UserRole))

    def _show(self, row: QListWidgetItem | None) -> None:
        if row is None:
            self.detail.clear()
            return
        item = self.doc.catalog.item(self.kind, row.data(Qt.ItemDataRole.UserRole))
        if item is None:
            return
        parts = [f"<b>{html.escape(item.name)}</b>", *facts_html(item)]
        if not row.flags() & Qt.ItemFlag.ItemIsEnabled:
            parts.append(f"<b>{html.escape(row.toolTip().split('.')[0])}.</b>")
        parts.append(f"<span style='color: gray'>Source: {html.escape(self.doc.catalog.cite(item.source))}</span>")
        self.detail.setHtml("<br>".join(parts))

    def _add(self) -> None:
        row = self.list.currentItem()
        if row is not None and row.flags() & Qt.ItemFlag.ItemIsEnabled:
            self.add_requested.emit(row.data(Qt.ItemDataRole.UserRole))


def browser_with_list(browser: CatalogBrowser, editor: QWidget) -> QWidget:
    """The browser beside the list it adds to (``editor``, with its caption): the list the wider."""
    box = QWidget()
    lay = QHBoxLayout(box)
    lay.setContentsMargins(0, 0, 0, 0)
    # room to browse even on a page with other sections; more when there is more. A strut,
    # not the box's own minimum height: that would win over what the catalog's column needs
    # (its Add buttons), and the next section's text ran under them
    lay.addStrut(200)
    lay.addWidget(browser, 2)
    lay.addWidget(editor, 5)  # the chosen entries have columns; the catalog is a list of names
    return box
