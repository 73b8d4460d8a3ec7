"""A catalog browser whose lines, descriptions and filter the ruleset describes (a list's
``browse`` function, see :class:`shipyard.core.formview.Browse`).

A ruleset may say where each item is on its tables ("Turbo Laser   1   · Special
Weapon 1") and let the user filter by table. The browser shows what the function returns
and then the item's own facts it did not say (:func:`shipyard.core.items.facts`), in the
detail box and the tooltip: the editor works nothing out.
"""

from __future__ import annotations

import html
from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QListWidgetItem, QVBoxLayout

from shipyard._qt.dialogs.catalogbrowser import CatalogBrowser, whole_tip
from shipyard._qt.document.document import Document
from shipyard._qt.widgets.itemfacts import facts_html, facts_text
from shipyard.core.form import ListDecl
from shipyard.core.formview import Browse, FormContext, browse


class ListingBrowser(CatalogBrowser):
    """A :class:`CatalogBrowser` showing each item as the ruleset's ``browse`` function
    lists it, with a choice of group to filter by when it names groups."""

    def __init__(self, doc: Document, decl: ListDecl, noun: str, context: Callable[[], FormContext]) -> None:
        self.decl, self.context = decl, context
        self.listing: Browse = Browse()
        self.group = QComboBox()
        self._ready = False  # the group choice is in the layout (not a window of its own)
        self._tips: dict[str, tuple[object, str]] = {}
        super().__init__(doc, decl.catalog or "", noun)
        self.group.setAccessibleName(f"Show the {noun} of")
        self.group.setToolTip(f"Show the {noun} of one group")
        self.group.currentIndexChanged.connect(lambda _i: self._filter(self.search.text()))
        lay = self.layout()
        if isinstance(lay, QVBoxLayout):
            lay.insertWidget(1, self.group)
        self._ready = True
        self._fill_groups()
        self._filter(self.search.text())

    def _fill_groups(self) -> None:
        groups = [(self.listing.all_groups, ""), *self.listing.groups]
        current = self.group.currentData()
        self.group.blockSignals(True)
        try:
            if [(self.group.itemText(i), self.group.itemData(i)) for i in range(self.group.count())] != groups:
                self.group.clear()
                for label, gid in groups:
                    self.group.addItem(label, gid)
            self.group.setCurrentIndex(max(0, self.group.findData(current)))
        finally:
            self.group.blockSignals(False)
        self.group.setVisible(bool(self.listing.groups))

    def populate(self) -> None:
        self.listing = browse(self.decl, self.context()) or Browse()
        super().populate()
        for i in range(self.list.count()):
            row = self.list.item(i)
            listed = self.listing.items.get(row.data(Qt.ItemDataRole.UserRole))
            if listed is None:
                continue
            if row.text() != listed.text:
                row.setText(listed.text)
            item_id = row.data(Qt.ItemDataRole.UserRole)
            tip = self._tip(item_id, listed.detail)
            # the listing is asked again at every edit: a row it stops refusing can be added again
            enabled = not listed.refused and item_id not in self.scale_refused
            flags = row.flags()
            if enabled != bool(flags & Qt.ItemFlag.ItemIsEnabled):
                row.setFlags(flags | Qt.ItemFlag.ItemIsEnabled if enabled else flags & ~Qt.ItemFlag.ItemIsEnabled)
            tip = whole_tip(row.text(), tip)  # the row whole, then the listing's facts
            if listed.refused:
                tip = f"{listed.refused}\n{tip}"
            if row.toolTip() != tip:
                row.setToolTip(tip)
        if self._ready:
            self._fill_groups()
            self._filter(self.search.text())

    def _tip(self, item_id: str, said: tuple[str, ...]) -> str:
        """The item's tooltip: what the listing says, then its facts (made again only when
        the listing or the catalog changes: populate runs at every edit)."""
        key = (item_id, said, id(self.doc.catalog))
        known = self._tips.get(item_id)
        if known is None or known[0] != key:
            item = self.doc.catalog.item(self.kind, item_id)
            known = (key, facts_text(item, said) if item is not None else "")
            self._tips[item_id] = known
        return known[1]

    def _filter(self, text: str) -> None:
        super()._filter(text)
        group = self.group.currentData() if self.group.count() else ""
        if not group:
            return
        for i in range(self.list.count()):
            row = self.list.item(i)
            listed = self.listing.items.get(row.data(Qt.ItemDataRole.UserRole))
            if listed is None or group not in listed.groups:
                row.setHidden(True)

    def _show(self, row: QListWidgetItem | None) -> None:
        listed = self.listing.items.get(row.data(Qt.ItemDataRole.UserRole)) if row is not None else None
        item = self.doc.catalog.item(self.kind, row.data(Qt.ItemDataRole.UserRole)) if row is not None else None
        if listed is None or item is None:
            super()._show(row)
            return
        parts = [f"<b>{html.escape(item.name)}</b>", *facts_html(item, listed.detail)]
        if listed.refused:
            parts.append(f"<b>{html.escape(listed.refused)}</b>")
        parts.append(f"<span style='color: gray'>Source: {html.escape(self.doc.catalog.cite(item.source))}</span>")
        self.detail.setHtml("<br>".join(parts))
