"""The editor's pages built from a ruleset's declared form (the catalog's ``form`` section).

:class:`FormPages` turns each page of :class:`shipyard.core.form.Form` into a tab (built
when first shown), each section into a titled form, each field into a widget bound to
its design path through the :class:`~shipyard._qt.document.binding.Binder`: every edit goes
through the document as one undo step, findings focus the widget of their path, and
every label is its widget's buddy and accessible name. What a value means, its range,
its choices, whether it is enabled and the numbers its help quotes all come from
:mod:`shipyard.core.formview`; this module only draws.

A section and how it lays out its elements is in :mod:`shipyard._qt.form.sections`;
the value widgets (a field's editor, a toggle, the budget settings) in
:mod:`shipyard._qt.form.fields`; lists in :mod:`shipyard._qt.form.lists`, a
list's detail area in :mod:`shipyard._qt.form.detail`, maps in
:mod:`shipyard._qt.form.maps`; the declared actions' dialog in
:mod:`shipyard._qt.form.calls`; what they share in :mod:`shipyard._qt.form.base`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSpinBox,
    QWidget,
)

from shipyard._qt.document.pagebase import StepPages, page
from shipyard._qt.form.base import MarkedLabel, Scope, plain
from shipyard._qt.form.calls import action_bar, ask_params, run_action
from shipyard._qt.form.fields import budget_rows, toggle_box, value_editor
from shipyard._qt.form.figures import figure_rows
from shipyard._qt.form.sections import note, section_box
from shipyard._qt.widgets.marks import SEVERITY_ORDER
from shipyard._qt.widgets.whatnext import greyed_reason, why_line
from shipyard.core.form import (
    ActionDecl,
    BudgetsRef,
    FieldDecl,
    FigureRef,
    Form,
    ListDecl,
    Page,
    PresetRef,
    Section,
    Toggle,
)
from shipyard.core.formview import (
    FormContext,
    field_help,
    help_text,
    holds,
    joined,
    pages,
    widget_for,
)

if TYPE_CHECKING:
    from shipyard._qt.document.binding import Binder
    from shipyard._qt.document.document import Document
    from shipyard.core.findings import Finding


class FormPages(StepPages):
    """A ruleset's pages, built from its declared form; the view shows them as tabs."""

    def __init__(self, doc: Document, binder: Binder, report_error: Callable[[str], None]) -> None:
        super().__init__(doc, binder, report_error)
        form = doc.catalog.form
        if form is None:
            raise LookupError(f"the ruleset {doc.loaded.ruleset!r} declares no editor form")
        self.form: Form = form
        self.scope = Scope()
        self.lists: list[Any] = []  # every ListEditor, for tests and focus
        self.browsers: list[Any] = []  # every CatalogBrowser
        self.tables: list[Any] = []  # every report table shown (figures.ReportTable)
        self.toggles: list[QCheckBox] = []
        self.action_buttons: dict[str, QWidget] = {}
        self._catalog: object | None = None
        self.catalog_changed = True  # during a refresh: the catalog is another than the last one shown
        self._context: FormContext | None = None
        self._context_state: object = None  # the document state the context was made for
        self.page_decls: list[Page] = list(self.form.pages)
        self.pages: list[tuple[str, Callable[[], QWidget]]] = [
            (p.title, self._built(p.id, self._page_factory(p))) for p in self.page_decls
        ]
        self.labels: dict[str, MarkedLabel] = {}  # each field's label, to mark while a finding is about it
        self.browser_of: dict[str, Any] = {}  # a catalog list's browser, by the list's path
        self.chain_dirty = True  # controls came or went since the Tab order was made
        self._marked: object = None
        binder.closed.connect(self.refresh)  # a greyed field a finding opened was left

    # --- the document as the form sees it --------------------------------------------------

    def context(self) -> FormContext:
        """The current design, its report and its JSON data (made once a document change)."""
        state = self.doc.state
        if self._context is None or self._context_state is not state:
            self._context = FormContext(self.doc.catalog, self.doc.design, self.doc.report)
            self._context_state = state
        return self._context

    def visible_pages(self) -> list[bool]:
        """Whether each page is for this design (a page's ``when``)."""
        ctx = self.context()
        shown = {id(p) for p in pages(self.form, ctx)}
        return [id(p) in shown for p in self.page_decls]

    def refresh(self) -> None:
        """Bring the built pages in step with the document: values, conditions, figures, texts."""
        ctx = self.context()
        self.catalog_changed = self._catalog is not self.doc.catalog
        self._catalog = self.doc.catalog
        self.refresh_presets()
        self.scope.refresh(ctx, self.catalog_changed)

    def binder_data(self) -> Any:
        return self.context().data

    def structure_changed(self) -> None:
        """Controls came or went (a list's rows, a detail area): the view makes the Tab order
        again, and gives the Alt+letters out again."""
        self.chain_dirty = True
        self.on_structure()

    def browser_for(self, path: str) -> Any:
        """The catalog browser that adds entries to the list at ``path``, if there is one."""
        return self.browser_of.get(path)

    def mark(self, findings: list[Finding]) -> None:
        """Mark each field and list row a finding is about, until the finding goes away."""
        marks = [(f.path, f.severity.value, f.message) for f in findings if f.path]
        key = (len(self.labels), len(self.lists), marks)  # pages built since are marked too
        if key == self._marked:
            return
        self._marked = key
        worst: dict[str, tuple[str, str]] = {}
        for path, severity, message in marks:
            known = worst.get(path)
            if known is None or SEVERITY_ORDER[severity] < SEVERITY_ORDER[known[0]]:
                worst[path] = (severity, message)
        for path, label in list(self.labels.items()):
            try:
                label.set_mark(_covering(worst, path))
            except RuntimeError:  # the label of a detail area that was rebuilt
                del self.labels[path]
        for editor in self.lists:
            editor.mark(worst)

    # --- building ----------------------------------------------------------------------------

    def show_text(self, scope: Scope, raw: str, show: Callable[[str], None]) -> None:
        """Show ``raw`` with the catalog's numbers now, and again whenever the catalog changes."""
        if "{" not in raw:
            show(raw)
            return

        def update(ctx: FormContext) -> None:
            show(help_text(raw, ctx.catalog))

        update(self.context())
        scope.texts.append(update)

    def set_help(
        self, scope: Scope, widget: QWidget, raw: str, *, resolve: Callable[[FormContext], str] | None = None
    ) -> None:
        """Help as the widget's tooltip and accessible description, resolved against the catalog."""

        def show(text: str) -> None:
            widget.setToolTip(text)
            widget.setAccessibleDescription(text)

        if resolve is not None:

            def update(ctx: FormContext) -> None:
                show(resolve(ctx))

            update(self.context())
            scope.texts.append(update)
        elif raw:
            self.show_text(scope, raw, show)

    def _page_factory(self, decl: Page) -> Callable[[], QWidget]:
        return lambda: self._page(decl)

    def _page(self, decl: Page) -> QWidget:
        """A step: its help and sections one under another; lists take the height there is."""
        widgets: list[QWidget] = []
        if decl.help:
            widgets.append(note(self, self.scope, decl.help))
        grow: list[QWidget] = []
        for s in decl.sections:
            box = self.section(s, "", self.scope)
            widgets.append(box)
            if any(isinstance(el, ListDecl) for el in s.fields):
                grow.append(box)
        if decl is self.page_decls[0]:  # every design's picture and story, the same part for every ruleset
            from shipyard._qt.form.artfield import presentation_row
            from shipyard._qt.form.tagsfield import TagsField

            row, self.art_field, self.story_field = presentation_row(self.doc, self.binder, self.report_error)
            self.scope.updates.append(self.art_field.update_from_design)
            self.tags_field = TagsField(self.doc, self.report_error)  # the file's own labels, for the hangar
            self.scope.updates.append(self.tags_field.update_from_design)
            widgets += [row, self.tags_field]
        return page(*widgets, grow=grow)

    def section(self, decl: Section, base: str, scope: Scope) -> QWidget:
        """One section: a titled box (or a plain area without a title), its help, its elements."""
        return section_box(self, decl, base, scope)

    def element(self, form: QFormLayout, el: Any, base: str, scope: Scope) -> list[QWidget]:
        """The rows of one element in a form; returns the widgets that edit something."""
        if isinstance(el, FieldDecl):
            return [self.field(form, el, base, scope)]
        if isinstance(el, Toggle):
            return [toggle_box(self, form, el, base, scope)]
        if isinstance(el, FigureRef):
            return [self.figure(form, el, scope)]
        if isinstance(el, PresetRef):
            combo = self.preset_row(form, "", el.preset)
            self.set_help(scope, combo, el.help)
            return [combo]
        if isinstance(el, BudgetsRef):
            return budget_rows(self, form, el, base, scope)
        raise TypeError(f"unknown form element {type(el).__name__}")

    def row(self, form: QFormLayout, label: str, widget: QWidget, scope: Scope) -> MarkedLabel:
        """A labelled row: the label is the widget's buddy, its text the accessible name."""
        lab = MarkedLabel()
        lab.setBuddy(widget)

        def show(text: str) -> None:
            lab.set_base(text)
            widget.setAccessibleName(plain(text))

        self.show_text(scope, label, show)
        if isinstance(widget, QLineEdit | QPlainTextEdit | QComboBox):
            widget.setMinimumWidth(260)
        elif isinstance(widget, QSpinBox | QDoubleSpinBox):
            widget.setMinimumWidth(110)
        form.addRow(lab, widget)
        return lab

    # --- fields ----------------------------------------------------------------------------------

    def field(self, form: QFormLayout, decl: FieldDecl, base: str, scope: Scope) -> QWidget:
        ctx = self.context()
        path = joined(base, decl.path)
        kind = widget_for(decl, ctx, path)
        widget = value_editor(self, kind, decl, path, scope)
        self.labels[path] = self.row(form, decl.label, widget, scope)
        self.set_help(scope, widget, "", resolve=lambda c: field_help(decl, c, path))
        scope.paths.add(path)
        if decl.enabled is not None:
            cond = decl.enabled
            scope.conditioned.add(id(widget))
            why = why_line() if decl.why else None  # greyed, the field says why under it
            if why is not None:
                form.addRow("", why)

            def update(c: FormContext) -> None:
                on = holds(cond, c, base) or self.binder.is_open(widget)
                widget.setEnabled(on)
                if why is not None:
                    reason = help_text(decl.why, c.catalog)
                    if why.text() != reason:
                        why.setText(reason)
                    if form.isRowVisible(why) == on:
                        form.setRowVisible(why, not on)
                    greyed_reason(widget, on, reason, field_help(decl, c, path))

            scope.updates.append(update)
        return widget

    def figure(self, form: QFormLayout, decl: FigureRef, scope: Scope) -> QLabel:
        """A read-only value from the report, labelled, with how it came about as its tooltip."""
        return figure_rows(self, form, decl, scope)

    # --- actions -----------------------------------------------------------------------------

    def action_bar(self) -> QWidget | None:
        """The form's actions no page places, as buttons (none: no bar)."""
        return action_bar(self)

    def ask_params(self, action: ActionDecl) -> dict[str, Any] | None:
        """The values an action asks for (a dialog); None when the user cancels."""
        return ask_params(self, action)

    def run_action(self, action: ActionDecl) -> bool:
        """Ask for the action's values, call the ruleset, open or apply what it made."""
        return run_action(self, action)


def _covering(worst: dict[str, tuple[str, str]], path: str) -> tuple[str, str] | None:
    """The worst finding about ``path`` or a place inside it (a pilot's trait marks the pilot)."""
    found = [m for p, m in worst.items() if p == path or p.startswith((path + ".", path + "["))]
    return min(found, key=lambda m: SEVERITY_ORDER[m[0]]) if found else None
