"""What every ruleset's step pages share: a scrolling page, a titled form, a labelled row
(with its accessible name and help), a guard for setting values quietly, and
:class:`StepPages`, the editor's page contract and the base of the pages (built on demand, the preset choice).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from shipyard._qt.widgets.scrollpage import ScrollPage

if TYPE_CHECKING:
    from shipyard._qt.document.binding import Binder
    from shipyard._qt.document.document import Document
    from shipyard.core.findings import Finding


def page(*widgets: QWidget, grow: Sequence[QWidget] = ()) -> QScrollArea:
    """A step page: the widgets one under another, scrolling only when the window is too
    small for them; the ``grow`` ones (lists) share the height there is, the rest keep
    theirs (:class:`~shipyard._qt.widgets.scrollpage.ScrollPage`: the page or its lists scroll, not both)."""
    inner = QWidget()
    lay = QVBoxLayout(inner)
    for w in widgets:
        lay.addWidget(w, 1 if w in grow else 0)
    if not grow:
        lay.addStretch(1)
    return ScrollPage(inner)


def form(title: str) -> tuple[QGroupBox, QFormLayout]:
    box = QGroupBox(title)
    layout = QFormLayout(box)
    # numbers stay number-sized; text fields get a comfortable minimum width in row()
    layout.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.FieldsStayAtSizeHint)
    return box, layout


def row(layout: QFormLayout, label: str, widget: QWidget, help_text: str = "") -> QWidget:
    """A labelled row: the label is the widget's buddy and its accessible name."""
    lab = QLabel(label)
    lab.setBuddy(widget)
    widget.setAccessibleName(label.replace("&", ""))
    if isinstance(widget, QLineEdit | QPlainTextEdit | QComboBox):
        widget.setMinimumWidth(420)
    elif isinstance(widget, QSpinBox):
        widget.setMinimumWidth(110)
    if help_text:
        widget.setToolTip(help_text)
        widget.setAccessibleDescription(help_text)
    layout.addRow(lab, widget)
    return widget


class quiet:
    """Block the widgets' signals while the code (not the user) sets their values."""

    def __init__(self, *widgets: QWidget) -> None:
        self.widgets = widgets

    def __enter__(self) -> None:
        for w in self.widgets:
            w.blockSignals(True)

    def __exit__(self, *exc: object) -> None:
        for w in self.widgets:
            w.blockSignals(False)


class StepPages(ABC):
    """The editor's page contract: what a design's view (:class:`shipyard._qt.view.documentview.DocumentView`)
    asks of its step pages, typed in one place so the view calls them without probing.

    Required: ``pages`` (tab title, function building the page when first shown) and
    :meth:`refresh`. The rest has a default here that asks nothing of the view: every page
    shown, no action bar, no marks, no binder data, a Tab order that never goes stale.
    :class:`shipyard._qt.form.pages.FormPages` (the declared form's pages) overrides them;
    a ruleset's hand-written pages are wrapped in :class:`shipyard._qt.view.steppages.HandWritten`.
    The view sets ``open_design`` (a design an action made, to open in a new tab),
    ``parent_widget`` (the parent of the pages' dialogs) and ``on_structure`` (called when
    controls came or went outside an edit, such as a selected entry's details).
    """

    pages: list[tuple[str, Callable[[], QWidget]]]

    def __init__(self, doc: Document, binder: Binder, report_error: Callable[[str], None]) -> None:
        self.doc, self.binder, self.report_error = doc, binder, report_error
        self.built: set[str] = set()  # the pages built so far, by name
        self.presets: list[tuple[QComboBox, QLabel]] = []
        self.open_design: Callable[[Any], None] | None = None  # set by the view
        self.parent_widget: QWidget | None = None  # set by the view
        self.chain_dirty = False  # controls came or went since the view made the Tab order
        self.on_structure: Callable[[], None] = lambda: None  # set by the view: controls came or went

    @abstractmethod
    def refresh(self) -> None:
        """Bring the built pages in step with the document (after every change of it)."""

    def visible_pages(self) -> list[bool]:
        """Whether each of ``pages`` is for this design (shown as a tab): all of them."""
        return [True] * len(self.pages)

    def action_bar(self) -> QWidget | None:
        """A bar of actions above the tabs; None: no bar."""
        return None

    def binder_data(self) -> Any:
        """The design as JSON for the binder's widgets, made once a refresh; None: the binder reads the design."""
        return None

    def mark(self, findings: list[Finding]) -> None:
        """Mark the fields and rows the findings are about; the default marks nothing."""
        return

    def _built(self, name: str, factory: Callable[[], QWidget]) -> Callable[[], QWidget]:
        def build() -> QWidget:
            widget = factory()
            self.built.add(name)
            return widget

        return build

    def refused(self, message: str | None) -> None:
        """Report an edit the document refused (its message; None: it was made) in the status bar."""
        if message:
            self.report_error(message)

    def preset_row(self, layout: QFormLayout, help_text: str, label: str = "&Preset") -> QComboBox:
        """The design's preset: a choice (each with its description as tooltip) and a note below."""
        combo = QComboBox()
        for p in self.doc.catalog.presets.values():
            combo.addItem(p.name, p.id)
            combo.setItemData(combo.count() - 1, p.description, Qt.ItemDataRole.ToolTipRole)
        combo.activated.connect(lambda i: self.refused(self.doc.set_preset(combo.itemData(i))))
        row(layout, label, combo, help_text)
        note = QLabel(wordWrap=True)
        note.setMinimumWidth(420)
        note.setMaximumWidth(560)
        layout.addRow("", note)
        self.presets.append((combo, note))
        return combo

    def refresh_presets(self) -> None:
        p = self.doc.catalog.presets.get(self.doc.preset)
        for combo, note in self.presets:
            with quiet(combo):
                combo.setCurrentIndex(max(0, combo.findData(self.doc.preset)))
            note.setText(p.description if p else "")
