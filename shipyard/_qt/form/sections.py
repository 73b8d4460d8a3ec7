"""A section of a declared form: a titled box of fields, lists, tables and action buttons.

A section lays its elements out one under another in the order the form declares them:
fields in a run share one form layout (labels aligned), a list, map or table breaks the
run and takes its own width, and actions next to each other are one row of buttons. A
section may be about an optional object of the design (``optional``: a named pilot, a
round plan): a check box adds or removes the object, and the section's fields are shown
and enabled only while the design has it. Kept apart from the pages
(:class:`shipyard._qt.form.pages.FormPages`), which build a page of sections, as a list's
detail area (:mod:`shipyard._qt.form.detail`) does through them.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QFormLayout, QGroupBox, QLabel, QVBoxLayout, QWidget

from shipyard._qt.document.pagebase import quiet
from shipyard._qt.form.base import Pages, Scope, plain
from shipyard._qt.form.calls import action_row
from shipyard._qt.form.figures import table_area
from shipyard.core.form import ActionRef, ListDecl, MapDecl, Section, TableRef
from shipyard.core.formview import FormContext, help_text, holds, joined


def note(pages: Pages, scope: Scope, raw: str) -> QLabel:
    """A page's or section's help, as plain text that wraps, kept up with the catalog's numbers."""
    label = QLabel(wordWrap=True)
    label.setTextFormat(Qt.TextFormat.PlainText)
    pages.show_text(scope, raw, label.setText)
    return label


def section_box(pages: Pages, decl: Section, base: str, scope: Scope) -> QWidget:
    """One section: a titled box (or a plain area without a title), its help, its elements."""
    box: QWidget
    if decl.title or decl.optional is not None:
        group = QGroupBox()
        pages.show_text(scope, decl.title, group.setTitle)
        box = group
    else:
        box = QWidget()
    outer = QVBoxLayout(box)
    if not (decl.title or decl.optional is not None):
        outer.setContentsMargins(0, 0, 0, 0)
    if decl.help:
        outer.addWidget(note(pages, scope, decl.help))
    rows: list[QWidget] = []  # the widgets an optional object's check box enables
    with_object: list[tuple[QFormLayout | None, QWidget]] = []  # where each is, to show it only with the object
    if decl.optional is not None:
        opt = decl.optional
        path = joined(base, opt.path)
        check = QCheckBox(opt.label)
        check.setAccessibleName(plain(opt.label))
        default = dict(opt.default)

        def toggled(on: bool, path: str = path, check: QCheckBox = check) -> None:
            present = pages.context().value(path) is not None
            if on != present:
                text = plain(opt.label) if on else f"{plain(opt.label)}: no"
                pages.refused(pages.doc.edit(path, default if on else None, merge=False, text=text))

        check.toggled.connect(toggled)
        outer.addWidget(check)
        pages.toggles.append(check)
        pages.binder.gate(path, check)  # a finding inside the object: its check box first

        def focus_check(_path: str, check: QCheckBox = check) -> bool:
            return _focus(check)

        pages.binder.focuser(path, focus_check)  # a finding on the object itself
        scope.paths.add(path)
    form: QFormLayout | None = None
    placed: list[ActionRef] = []  # action buttons in a row, until another element comes
    for i, el in enumerate(decl.fields):
        if isinstance(el, ActionRef):
            placed.append(el)
            if i + 1 == len(decl.fields) or not isinstance(decl.fields[i + 1], ActionRef):
                form = None
                outer.addWidget(action_row(pages, placed, scope))
                placed = []
            continue
        if isinstance(el, TableRef):
            form = None
            outer.addWidget(table_area(pages, el, scope))
            continue
        if isinstance(el, ListDecl | MapDecl):
            # the list editors (tables, catalog browsers) load with the first page that has one
            from shipyard._qt.form.lists import list_area
            from shipyard._qt.form.maps import map_area

            form = None
            area = list_area(pages, el, base, scope) if isinstance(el, ListDecl) else map_area(pages, el, base, scope)
            outer.addWidget(area, 1 if isinstance(el, ListDecl) else 0)
            rows.append(area)
            with_object.append((None, area))
            continue
        if form is None:
            form = QFormLayout()
            # text fields take the width there is; numbers and choices stay their size
            form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
            holder = QWidget()
            holder.setLayout(form)
            form.setContentsMargins(0, 0, 0, 0)
            outer.addWidget(holder)
        made = pages.element(form, el, base, scope)
        rows += made
        with_object += [(form, w) for w in made]
    if decl.optional is not None:
        path = joined(base, decl.optional.path)
        opt = decl.optional

        def update(ctx: FormContext, path: str = path, check: QCheckBox = check) -> None:
            # runs after the fields' own conditions: without the object nothing in it is
            # editable; with it, a field with a condition keeps what its condition said
            present = ctx.value(path) is not None
            with quiet(check):
                check.setChecked(present)
            allowed = opt.enabled is None or holds(opt.enabled, ctx, base)
            check.setEnabled(allowed or present)  # what the design has can always be removed
            check.setToolTip("" if allowed else help_text(opt.why, ctx.catalog))
            for w in rows:
                if not present:
                    w.setEnabled(False)
                elif id(w) not in scope.conditioned:
                    w.setEnabled(True)
            for layout, w in with_object:  # the object's fields show with it (a named pilot's traits)
                if layout is None:
                    w.setVisible(present)
                elif layout.isRowVisible(w) != present:
                    layout.setRowVisible(w, present)

        scope.updates.append(update)
    if decl.when is not None:
        when = decl.when

        def shown(ctx: FormContext) -> None:
            visible = holds(when, ctx, base)
            if box.isHidden() == visible:
                box.setVisible(visible)

        scope.updates.append(shown)
    return box


def _focus(widget: QWidget) -> bool:
    """Show the page holding ``widget`` and give it the focus."""
    from shipyard._qt.document.binding import _reveal

    _reveal(widget)
    widget.setFocus()
    return True
