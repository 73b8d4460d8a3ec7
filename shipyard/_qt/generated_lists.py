"""The declared form's lists and maps (see :mod:`shipyard._qt.generated`).

A list is a table of the design's entries (the existing :class:`ListEditor`), with a
catalog browser to add entries of a catalog kind or an "Add" button (both, when the list
also takes entries of its own: ``custom``), columns and their conditions from the
declaration, read-only cells a ruleset function fills (``show``), and an optional detail
area editing the selected entry with sections of its own (paths relative to the entry,
so an entry may hold a list of its own). A map is one row a catalog key (skill
percentages by skill id).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from shipyard._qt.catalogbrowser import CatalogBrowser, browser_with_list
from shipyard._qt.formbase import MarkedLabel, Pages, Scope, plain
from shipyard._qt.generated_browse import ListingBrowser
from shipyard._qt.listcells import Column
from shipyard._qt.listeditor import ListEditor
from shipyard.core.errors import InputError
from shipyard.core.form import Column as ColumnDecl
from shipyard.core.form import ListDecl, MapDecl
from shipyard.core.formview import (
    FormContext,
    cell_text,
    choices,
    custom_entry,
    enum_choices,
    field_range,
    help_text,
    holds,
    joined,
    list_entry,
    widget_for,
)
from shipyard.core.paths import parse_path, value_at
from shipyard.core.schema import spec_at

_CELL = {"name": "name", "line": "line", "check": "check", "choice": "combo", "spin": "spin", "percent": "spin"}


def _column(pages: Pages, decl: ColumnDecl, list_path: str, item_of: Any) -> Column:
    """A list editor column from its declaration: the kind of cell from the design's type."""
    ctx = pages.context()
    path = joined(list_path + "[0]", decl.path)
    kind = widget_for(decl, ctx, path)
    spec = spec_at(ctx.catalog.form_schema, path) if ctx.catalog.form_schema is not None else None
    low, high = field_range(decl, ctx, path)
    cell = "label" if decl.show is not None else _CELL.get(kind, "line")
    none = decl.none
    if cell == "spin" and (none is not None or (spec is not None and spec.nullable)):
        cell = "optspin"
    column = Column(
        help_text(decl.label, ctx.catalog),
        decl.path,
        cell,
        int(low) if low is not None else 0,
        int(high) if high is not None else 999,
        none=none or "not set",
        help=help_text(decl.help, ctx.catalog),
    )
    if cell == "combo":
        if decl.choices is not None:
            source = decl.choices
            column.choices = lambda: choices(source, pages.context())
            column.unset = source.unset
        else:
            column.choices = lambda: enum_choices(pages.context(), path)
    if decl.enabled is not None:
        cond = decl.enabled
        column.enabled_at = lambda row, entry: holds(cond, pages.context(), f"{list_path}[{row}]", item_of(entry))
    if decl.show is not None:
        function = decl.show
        column.text = lambda row, _entry: cell_text(function, pages.context(), f"{list_path}[{row}]")
    return column


def list_area(pages: Pages, decl: ListDecl, base: str, scope: Scope) -> QWidget:
    """A list: its table, how entries are added, and the selected entry's detail."""
    doc = pages.doc
    path = joined(base, decl.list_)
    label = plain(decl.label)
    noun = decl.noun or label.lower()

    def item_of(entry: Any) -> Any:
        if decl.catalog is None or decl.key is None:
            return None
        if decl.key == ".":  # the entry is the item's id (a list of station ids)
            return doc.catalog.item(decl.catalog, str(entry))
        if not isinstance(entry, dict):
            return None
        return doc.catalog.item(decl.catalog, str(entry.get(decl.key, "")))

    def name_of(entry: Any) -> str:
        if not isinstance(entry, dict):
            item = item_of(entry)
            return item.name if item is not None else str(entry)
        if decl.catalog is not None and decl.key is not None:
            item = item_of(entry)
            return item.name if item is not None else str(entry.get(decl.key, ""))
        if decl.name is not None:
            node: Any = entry
            for part in decl.name.split("."):
                node = node.get(part) if isinstance(node, dict) else None
            return "" if node is None else str(node)
        return noun

    def count() -> int:
        value = pages.context().value(path)
        return len(value) if isinstance(value, list) else 0

    def ready(row: int) -> None:
        """The new entry's first field has the focus, its text selected: what the person
        types next names the entry (a Space typed then is a space, not another entry)."""
        if not editor.focus_path(f"{path}[{row}]"):
            return
        field = QApplication.focusWidget()
        if isinstance(field, QLineEdit | QAbstractSpinBox):
            field.selectAll()

    def add(item_id: str | None) -> None:
        item = doc.catalog.item(decl.catalog, item_id) if decl.catalog and item_id else None
        text = f"Add {item.name if item is not None else item_id or noun}"
        before = count()
        ctx = pages.context()
        try:
            if decl.adding is not None and item_id is not None:  # the ruleset says what adding it does
                entries = ctx.call(decl.adding, base=path, item=item_id)
                pages.refused(doc.edit(path, entries, merge=False, text=text))
            else:
                pages.refused(doc.insert(path, list_entry(decl, ctx, path, item_id, before + 1), text=text))
        except InputError as exc:  # the ruleset refuses (nothing to add): said, nothing changes
            pages.report_error(str(exc))
            return
        if item_id is None and count() > before:  # the Add button: the new row, ready to fill in
            ready(before)
        elif decl.detail and count() > before:
            editor.setCurrentCell(before, 0)  # the new entry's detail, ready to fill in

    def add_custom() -> None:
        before = count()
        pages.refused(doc.insert(path, custom_entry(decl), text=f"{plain(decl.add or 'Add')}"))
        if count() > before:
            ready(before)

    columns = [_column(pages, c, path, item_of) for c in decl.columns]
    editor = ListEditor(
        doc,
        path,
        columns,
        name_of,
        pages.report_error,
        (lambda i: add(i)) if decl.catalog is not None else None,
        data=lambda: pages.context().data,
    )
    editor.setAccessibleName(label)
    editor.setMinimumHeight(110)
    editor.rebuilt.connect(pages.structure_changed)
    caption = MarkedLabel(f"{label}: chosen" if decl.catalog is not None else label)
    caption.setBuddy(editor)
    editor.caption = caption
    pages.lists.append(editor)
    scope.lists.append(editor)
    scope.paths.add(path)
    chosen = QWidget()
    column = QVBoxLayout(chosen)
    column.setContentsMargins(0, 0, 0, 0)
    column.addWidget(caption)
    column.addWidget(editor, 1)
    area: QWidget
    browser: CatalogBrowser | None = None
    if decl.catalog is not None:
        if decl.browse is not None:
            browser = ListingBrowser(doc, decl, noun, pages.context)
        else:
            browser = CatalogBrowser(doc, decl.catalog, noun, add_text=(decl.add or "") if decl.custom is None else "")
        browser.add_requested.connect(lambda i: add(i))
        pages.browsers.append(browser)
        scope.browsers.append(browser)
        pages.browser_of[path] = browser
        area = browser_with_list(browser, chosen)
        if decl.custom is not None:  # entries of the list's own beside the catalog's
            own = QPushButton(decl.add or "&Add")
            own.setAutoDefault(True)  # Enter adds, as Space does
            own.setAccessibleName(f"{plain(decl.add or 'Add')} to {label}")
            own.clicked.connect(add_custom)
            side = browser.layout()
            if isinstance(side, QVBoxLayout):
                side.addWidget(own)
        scope.updates.append(lambda _ctx: browser.populate())
    else:
        area = QWidget()
        lay = QVBoxLayout(area)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(chosen, 1)
        button = QPushButton(decl.add or "&Add")
        button.setAutoDefault(True)  # Enter adds, as Space does
        button.setAccessibleName(f"{plain(decl.add or 'Add')} to {label}")
        button.clicked.connect(lambda: add(None))
        row = QHBoxLayout()
        row.addWidget(button)
        row.addStretch(1)
        lay.addLayout(row)
        scope.updates.append(lambda ctx: _offer_adding(button, ctx, path, noun, doc.place))
    if decl.help:
        pages.set_help(scope, editor, decl.help)

    def texts(ctx: FormContext) -> None:  # a preset or house rule may change a header's or cell's text
        for col, d in zip(columns, decl.columns, strict=True):
            col.header, col.help = help_text(d.label, ctx.catalog), help_text(d.help, ctx.catalog)
        editor.setHorizontalHeaderLabels([c.header for c in columns] + ["Cost", ""])
        editor._signature = None  # rebuild the cells with the new help

    scope.texts.append(texts)
    scope.updates.append(lambda _ctx: editor.refresh())
    detail = _Detail(pages, decl, path, editor, scope) if decl.detail else None
    if detail is not None:
        detail.fit()
    focus_list = editor.focus_path

    def focus(p: str) -> bool:
        if p == path and browser is not None and (editor.rowCount() == 0 or browser.list.currentItem() is not None):
            from shipyard._qt.binding import _reveal  # the list as a whole: where entries are added

            _reveal(browser)
            (browser.list if browser.list.currentItem() is not None else browser.search).setFocus()
            return True
        if not focus_list(p):
            if editor.rowCount() or editor.isHidden():
                return False
            from shipyard._qt.binding import _reveal

            _reveal(editor)  # an empty list: where the entry the finding asks for is added
            editor.setFocus()
            return True
        return detail.focus(p) if detail is not None else True

    pages.binder.focuser(path, focus)
    if detail is None:
        return area
    box = QWidget()
    lay = QVBoxLayout(box)
    lay.setContentsMargins(0, 0, 0, 0)
    lay.addWidget(area, 1)
    lay.addWidget(detail.box)
    return box


def _offer_adding(button: QPushButton, ctx: FormContext, path: str, noun: str, place: Any) -> None:
    """An Add button is enabled while the list has a place to be in (a round plan's actions
    need a round plan); greyed, its tooltip says what to make first."""
    parts = parse_path(path)
    parent = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts[:-1]).lstrip(".")
    there = not parent or ctx.value(parent) is not None
    if button.isEnabled() != there:
        button.setEnabled(there)
    tip = ""
    if not there:  # the place is named only when the tooltip says it: naming it walks the form
        article = "an" if noun[:1].lower() in "aeiou" else "a"
        what = f"{article.capitalize()} {noun} belongs to “{place(parent)}”"
        tip = f"{what}, which this design has not got: turn that on first."
    if button.toolTip() != tip:
        button.setToolTip(tip)


class _Detail:
    """The selected entry's own sections, rebuilt (with a scope of their own) on selection."""

    def __init__(self, pages: Pages, decl: ListDecl, path: str, editor: ListEditor, parent: Scope) -> None:
        self.pages, self.decl, self.path, self.editor = pages, decl, path, editor
        self.noun = decl.noun or plain(decl.label).lower()
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
        self.box.setTitle(f"{plain(self.decl.label)}: {self.editor.name_of(entries[row]) or self.noun}")
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
            self.box.setTitle(f"{plain(self.decl.label)}: {self.editor.name_of(entries[self.row]) or self.noun}")
        self.fit()

    def focus(self, path: str) -> bool:
        """After the list selected the row: a field of the detail, if one is bound at ``path``."""
        rest = parse_path(path)[len(parse_path(self.path)) :]
        if not rest or not isinstance(rest[0], int):
            return True
        self.show(rest[0])
        from shipyard._qt.binding import _covers

        if any(_covers(p, path) for p in self.scope.paths):
            return self.pages.binder.focus(path)
        return True


def map_area(pages: Pages, decl: MapDecl, base: str, scope: Scope) -> QWidget:
    """A value for each key of a catalog kind (a skill's percentage); unset keys are left out.

    The keys may follow the design (a ruleset function naming the ship's systems): the rows
    are made again when they change, and a key the design holds that is no longer offered
    keeps a row of its own until it is set to none."""
    ctx = pages.context()
    root = joined(base, decl.map)
    spec = spec_at(ctx.catalog.form_schema, root) if ctx.catalog.form_schema is not None else None
    item = spec.item if spec is not None else None
    low = decl.min if decl.min is not None else (item.minimum if item is not None else None)
    high = decl.max if decl.max is not None else (item.maximum if item is not None else None)
    percent = decl.widget == "percent"
    lo = int(low) if low is not None else 0
    hi = int(high) if high is not None else (100 if percent else 999)
    box = QWidget()
    outer = QVBoxLayout(box)
    outer.setContentsMargins(0, 0, 0, 0)
    caption = QLabel()
    pages.show_text(scope, decl.label, caption.setText)
    outer.addWidget(caption)
    form = QFormLayout()
    form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.FieldsStayAtSizeHint)
    outer.addLayout(form)
    shown: list[tuple[str, Any]] = []
    rows = Scope()  # the rows' help and labels: made again with the rows, not piled up

    def texts(ctx: FormContext) -> None:
        for t in rows.texts:
            t(ctx)

    scope.texts.append(texts)

    def row(label: str, key: Any) -> str:
        path = f"{root}.{key}"
        spin = QSpinBox()
        if percent:
            spin.setSuffix("%")
        if decl.none is not None:
            spin.setRange(lo - 1, hi)
            spin.setSpecialValueText(help_text(decl.none, pages.context().catalog))  # "AI 50%"
            pages.binder.spin(path, spin, none_value=lo - 1)
        else:
            spin.setRange(lo, hi)
            pages.binder.spin(path, spin)
        pages.row(form, label, spin, rows)
        if decl.help:
            pages.set_help(rows, spin, decl.help)
        scope.paths.add(path)
        return path

    def update(ctx: FormContext) -> None:
        keys = [(label, key) for label, key in choices(decl.keys, ctx) if key is not None]
        try:
            held = value_at(ctx.data, root)
        except Exception:
            held = None
        if isinstance(held, dict):
            # a key the design holds that is offered no longer (a system renamed): shown, so
            # that its finding has a field to focus and the user can set it to none
            offered = {str(key) for _label, key in keys}
            keys += [(str(key), key) for key in held if str(key) not in offered]
        if keys == shown:
            return
        for _label, key in shown:
            pages.binder.unbind(f"{root}.{key}")
            scope.paths.discard(f"{root}.{key}")
        while form.rowCount():
            # taken out and deleted later, not at once: the change may come from one of these
            # spin boxes (set to none, its key goes), still inside its own signal
            taken = form.takeRow(0)
            for item in (taken.labelItem, taken.fieldItem):
                widget = item.widget() if item is not None else None
                if widget is not None:
                    widget.hide()
                    widget.deleteLater()
        rows.texts.clear()
        shown[:] = keys
        for path in [row(label, key) for label, key in keys]:
            pages.binder.refresh_one(path, ctx.data)

    update(ctx)
    scope.updates.append(update)
    return box
