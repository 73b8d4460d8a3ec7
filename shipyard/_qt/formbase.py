"""What the declared form's page builders share: a scope of things to keep up to date,
accessible names from labels, and what a builder of lists, maps or actions asks of the
pages (:class:`Pages`, which :class:`shipyard._qt.generated.FormPages` is).

Kept apart so that :mod:`shipyard._qt.generated` imports the list and action builders
and none of them imports it back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from PySide6.QtWidgets import QFormLayout, QLabel, QWidget

    from shipyard._qt.binding import Binder
    from shipyard._qt.document import Document
    from shipyard.core.form import ActionDecl, Form, Section
    from shipyard.core.formview import FormContext

SPIN_LIMIT = 2_000_000_000  # a QSpinBox holds a C int


def plain(label: str) -> str:
    """A label without its accelerator marks, as an accessible name ("&Name" -> "Name")."""
    return label.replace("&&", "\0").replace("&", "").replace("\0", "&")


class Scope:
    """What one part of the form keeps up to date: conditions, texts, figures, lists.

    The pages have one scope; a list's detail area has its own, dropped (with its
    bindings) when another entry is selected.
    """

    def __init__(self) -> None:
        self.updates: list[Callable[[FormContext], None]] = []  # each document change
        self.texts: list[Callable[[FormContext], None]] = []  # each catalog change (help, titles)
        self.paths: set[str] = set()  # bound and focusable paths, to forget with the scope
        self.conditioned: set[int] = set()  # widgets enabled by a condition of their own
        self.lists: list[Any] = []  # the list editors and catalog browsers built in this scope
        self.browsers: list[Any] = []

    def refresh(self, ctx: FormContext, catalog_changed: bool) -> None:
        if catalog_changed:
            for t in self.texts:
                t(ctx)
        for u in self.updates:
            u(ctx)


class Pages(Protocol):
    """What the list, map and action builders use of the pages they build into."""

    doc: Document
    binder: Binder
    report_error: Callable[[str], None]
    form: Form
    scope: Scope
    lists: list[Any]
    browsers: list[Any]
    tables: list[Any]
    action_buttons: dict[str, QWidget]
    open_design: Callable[[Any], None] | None
    parent_widget: QWidget | None
    catalog_changed: bool

    def context(self) -> FormContext: ...

    def section(self, decl: Section, base: str, scope: Scope) -> QWidget: ...

    def row(self, form: QFormLayout, label: str, widget: QWidget, scope: Scope) -> QLabel: ...

    def _text(self, scope: Scope, raw: str, show: Callable[[str], None]) -> None: ...

    def _help(
        self, scope: Scope, widget: QWidget, raw: str, *, resolve: Callable[[FormContext], str] | None = None
    ) -> None: ...

    def _error(self, message: str | None) -> None: ...

    def ask_params(self, action: ActionDecl) -> dict[str, Any] | None: ...

    def run_action(self, action: ActionDecl) -> bool: ...
