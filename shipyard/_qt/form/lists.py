"""The declared form's lists (see :mod:`shipyard._qt.form.pages`).

A list is a table of the design's entries (the existing :class:`ListEditor`), with a
catalog browser to add entries of a catalog kind or an "Add" button (both, when the list
also takes entries of its own: ``custom``), columns and their conditions from the
declaration, read-only cells a ruleset function fills (``show``), and an optional detail
area editing the selected entry with sections of its own (paths relative to the entry,
so an entry may hold a list of its own: :mod:`shipyard._qt.form.detail`). Here is
what a declaration makes of these parts and how adding an entry goes.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from shipyard._qt.dialogs.catalogbrowser import CatalogBrowser, browser_with_list
from shipyard._qt.form.base import MarkedLabel, Pages, Scope, plain
from shipyard._qt.form.browse import ListingBrowser
from shipyard._qt.form.detail import EntryDetail
from shipyard._qt.form.listcells import Column
from shipyard._qt.form.listeditor import ListEditor
from shipyard._qt.widgets.whatnext import show_when_empty
from shipyard.core.errors import InputError
from shipyard.core.form import Column as ColumnDecl
from shipyard.core.form import ListDecl
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
from shipyard.core.paths import parse_path
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
        column.why = help_text(decl.why, ctx.catalog)
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

    own_name = decl.name or ("name" if isinstance(decl.custom, dict) and "name" in decl.custom else None)

    def name_of(entry: Any) -> str:
        """The entry's name: its catalog item's, else its own (a custom stunt's); "" for an
        entry without one (the list then calls its row by its noun and number)."""
        if not isinstance(entry, dict):
            item = item_of(entry)
            return item.name if item is not None else "" if entry is None else str(entry)
        key = entry.get(decl.key) if decl.catalog is not None and decl.key is not None else None
        if key is not None:
            item = item_of(entry)
            return item.name if item is not None else str(key)
        if own_name is not None:
            node: Any = entry
            for part in own_name.split("."):
                node = node.get(part) if isinstance(node, dict) else None
            return "" if node is None else str(node)
        return ""

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
        noun=noun,
        name_fields=tuple(f for f in (decl.key if decl.catalog is not None else None, own_name) if f),
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
            if isinstance(side, QVBoxLayout):  # beside the catalog's Add, above the list: in sight
                side.insertWidget(side.indexOf(browser.add_button) + 1, own)
        scope.updates.append(lambda _ctx: browser.populate())
        show_when_empty(editor, label, browser.add_button, catalog=True)  # what to do next, while it has no rows
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
        column.insertLayout(1, row)  # under the list's caption, above its rows: in sight however many rows
        scope.updates.append(lambda ctx: _offer_adding(button, ctx, path, noun, doc.place))
        show_when_empty(editor, label, button)  # what to do next, while it has no rows
    if decl.help:
        pages.set_help(scope, editor, decl.help)

    def texts(ctx: FormContext) -> None:  # a preset or house rule may change a header's or cell's text
        for col, d in zip(columns, decl.columns, strict=True):
            col.header, col.help = help_text(d.label, ctx.catalog), help_text(d.help, ctx.catalog)
        editor.setHorizontalHeaderLabels([c.header for c in columns] + ["Cost", ""])
        editor._signature = None  # rebuild the cells with the new help

    scope.texts.append(texts)
    scope.updates.append(lambda _ctx: editor.refresh())
    detail = EntryDetail(pages, decl, path, editor, scope) if decl.detail else None
    if detail is not None:
        detail.fit()
    focus_list = editor.focus_path

    def focus(p: str) -> bool:
        if p == path and browser is not None and (editor.rowCount() == 0 or browser.list.currentItem() is not None):
            from shipyard._qt.document.binding import _reveal  # the list as a whole: where entries are added

            _reveal(browser)
            (browser.list if browser.list.currentItem() is not None else browser.search).setFocus()
            return True
        if not focus_list(p):
            if editor.rowCount() or editor.isHidden():
                return False
            from shipyard._qt.document.binding import _reveal

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
