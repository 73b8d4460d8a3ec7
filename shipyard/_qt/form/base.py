"""What the declared form's page builders share: a scope of things to keep up to date,
accessible names from labels, and what a builder of sections, lists, maps or actions
asks of the pages (:class:`Pages`, which :class:`shipyard._qt.form.pages.FormPages` is).

Kept apart so that :mod:`shipyard._qt.form.pages` imports the section, list and action
builders and none of them imports it back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPaintEvent
from PySide6.QtWidgets import QLabel, QWidget

from shipyard._qt.widgets.marks import MARK_GLYPH, mark_colour
from shipyard.core.placewords import plain

if TYPE_CHECKING:
    from PySide6.QtWidgets import QFormLayout

    from shipyard._qt.document.binding import Binder
    from shipyard._qt.document.document import Document
    from shipyard.core.form import ActionDecl, Form, Section
    from shipyard.core.formview import FormContext

SPIN_LIMIT = 2_000_000_000  # a QSpinBox holds a C int

__all__ = ["SPIN_LIMIT", "MarkedLabel", "Pages", "Scope", "plain"]


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
    """What the section, list, map, report and action builders use of the pages they build into: the
    public interface of :class:`shipyard._qt.form.pages.FormPages` (nothing private)."""

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
    browser_of: dict[str, Any]  # a catalog list's browser by the list's path
    labels: dict[str, MarkedLabel]  # each field's label, to mark while a finding is about it
    toggles: list[Any]  # every toggle's check box

    def structure_changed(self) -> None: ...

    def context(self) -> FormContext: ...

    def section(self, decl: Section, base: str, scope: Scope) -> QWidget: ...

    def element(self, form: QFormLayout, el: Any, base: str, scope: Scope) -> list[QWidget]:
        """The rows of one element of a section in ``form``; the widgets that edit something."""

    def row(self, form: QFormLayout, label: str, widget: QWidget, scope: Scope) -> MarkedLabel: ...

    def show_text(self, scope: Scope, raw: str, show: Callable[[str], None]) -> None:
        """Show ``raw`` with the catalog's numbers now, and again whenever the catalog changes."""

    def set_help(
        self, scope: Scope, widget: QWidget, raw: str, *, resolve: Callable[[FormContext], str] | None = None
    ) -> None:
        """Help as the widget's tooltip and accessible description, resolved against the catalog."""

    def refused(self, message: str | None) -> None:
        """Report an edit the document refused (its message; None: it was made)."""

    def ask_params(self, action: ActionDecl) -> dict[str, Any] | None: ...

    def run_action(self, action: ActionDecl) -> bool: ...


class MarkedLabel(QLabel):
    """A field's label that shows, while a finding is about the field, its severity as a
    sign and a colour ("✖ Armor" in red), and the finding as its tooltip."""

    def __init__(self, text: str = "") -> None:
        super().__init__()
        self._base = text
        self._mark: tuple[str, str] | None = None
        self._show()

    @property
    def base(self) -> str:
        return self._base

    @property
    def mark(self) -> tuple[str, str] | None:
        """(severity, finding text) while the label is marked."""
        return self._mark

    def set_base(self, text: str) -> None:
        if text != self._base:
            self._base = text
            self._show()

    def set_mark(self, mark: tuple[str, str] | None) -> None:
        if mark != self._mark:
            self._mark = mark
            self._show()

    def _show(self) -> None:
        """The text stays plain (its Alt+letter is the one Qt reads from it: rich text would
        turn "&Armor" into "&amp;Armor", Alt+A); the sign is painted before it."""
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setText(self._base)
        if self._mark is None:
            self.setContentsMargins(0, 0, 0, 0)
            self.setToolTip("")
            return
        glyph = MARK_GLYPH.get(self._mark[0], "•")
        bold = QFont(self.font())
        bold.setBold(True)
        self.setContentsMargins(QFontMetrics(bold).horizontalAdvance(glyph + " "), 0, 0, 0)
        self.setToolTip(self._mark[1])
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if self._mark is None:
            return
        painter = QPainter(self)
        bold = QFont(self.font())
        bold.setBold(True)
        painter.setFont(bold)
        painter.setPen(QColor(mark_colour(self._mark[0], self)))
        room = self.contentsRect().adjusted(-self.contentsMargins().left(), 0, 0, 0)
        vertical = self.alignment() & Qt.AlignmentFlag.AlignVertical_Mask
        painter.drawText(room, vertical | Qt.AlignmentFlag.AlignLeft, MARK_GLYPH.get(self._mark[0], "•"))
        painter.end()
