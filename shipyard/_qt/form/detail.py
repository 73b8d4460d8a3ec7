"""A declared list's detail area: the selected entry's own sections (see
:func:`shipyard._qt.form.lists.list_area`).

Some entries hold more than a row can show (a turret's weapons, a pilot's traits): the
list declares ``detail`` sections, with paths relative to the entry, and they are shown
below the table for the entry selected there. They are built again, with a scope of
their own, when another entry is selected, so that their bindings and findings follow
that entry and those of the last one are forgotten.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QGroupBox, QVBoxLayout, QWidget

from shipyard._qt.form.base import Pages, Scope, plain
from shipyard._qt.form.listeditor import ListEditor
from shipyard.core.form import ListDecl
from shipyard.core.formview import FormContext
from shipyard.core.paths import parse_path


class EntryDetail:
    """The selected entry's own sections, rebuilt (with a scope of their own) on selection."""

    def __init__(self, pages: Pages, decl: ListDecl, path: str, editor: ListEditor, parent: Scope) -> None:
        self.pages, self.decl, self.path, self.editor = pages, decl, path, editor
        self.box = QGroupBox()
        self.box.setTitle(f"Selected: none (choose a row of {plain(decl.label)})")
        self.layout = QVBoxLayout(self.box)
        self.scope = Scope()
        self.row: int | None = None
        self.shown: tuple[int | None, int] = (None, -1)
        self.sections: list[QWidget] = []
        # a detail whose every section is for some entries only (a Turret's weapons) is
        # hidden while the selected entry has none of them to show
        self.conditional = all(s.when is not None for s in decl.detail)
        editor.currentCellChanged.connect(lambda row, _c, _r, _pc: self.show(row))
        parent.updates.append(self.update)

    def entries(self) -> list[Any]:
        value = self.pages.context().value(self.path)
        return value if isinstance(value, list) else []

    def clear(self) -> None:
        for p in self.scope.paths:
            self.pages.binder.unbind(p)
        for e in self.scope.lists:
            if e in self.pages.lists:
                self.pages.lists.remove(e)
        for b in self.scope.browsers:
            if b in self.pages.browsers:
                self.pages.browsers.remove(b)
        while self.layout.count():
            item = self.layout.takeAt(0)
            w = item.widget() if item is not None else None
            if w is not None:
                w.hide()
                w.deleteLater()
        self.scope = Scope()
        self.sections = []

    def fit(self) -> None:
        """Hide a detail that has nothing to show for the selected entry."""
        if self.conditional:
            wanted = self.row is not None and any(not w.isHidden() for w in self.sections)
            if self.box.isHidden() == wanted:
                self.box.setVisible(wanted)

    def show(self, row: int | None) -> None:
        entries = self.entries()
        if row is not None and not 0 <= row < len(entries):
            row = None
        if (row, len(entries)) == self.shown:
            return
        self.clear()
        self.row = row
        self.shown = (row, len(entries))
        if row is None:
            self.box.setTitle(f"Selected: none (choose a row of {plain(self.decl.label)})")
            self.fit()
            return
        base = f"{self.path}[{row}]"
        self.box.setTitle(f"{plain(self.decl.label)}: {self.editor.row_name(row, entries[row])}")
        for section in self.decl.detail:
            widget = self.pages.section(section, base, self.scope)
            self.sections.append(widget)
            self.layout.addWidget(widget)
        ctx = self.pages.context()
        self.pages.binder.refresh(ctx.data)
        self.scope.refresh(ctx, True)
        self.fit()
        self.pages.structure_changed()

    def update(self, ctx: FormContext) -> None:
        entries = self.entries()
        if self.row is not None and self.shown != (self.row, len(entries)):
            self.show(self.editor.currentRow() if self.editor.currentRow() >= 0 else self.row)
            return
        self.scope.refresh(ctx, self.pages.catalog_changed)
        if self.row is not None and self.row < len(entries):
            self.box.setTitle(f"{plain(self.decl.label)}: {self.editor.row_name(self.row, entries[self.row])}")
        self.fit()

    def focus(self, path: str) -> bool:
        """After the list selected the row: a field of the detail, if one is bound at ``path``."""
        rest = parse_path(path)[len(parse_path(self.path)) :]
        if not rest or not isinstance(rest[0], int):
            return True
        self.show(rest[0])
        from shipyard._qt.document.binding import _covers

        if any(_covers(p, path) for p in self.scope.paths):
            return self.pages.binder.focus(path)
        return True
