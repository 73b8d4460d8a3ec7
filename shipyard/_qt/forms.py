"""What every ruleset's step pages share: a scrolling page, a titled form, a labelled row
(with its accessible name and help), a guard for setting values quietly, and
:class:`StepPages`, the base of each ruleset's pages (built on demand, the preset choice).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

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

from shipyard._qt.scrollpage import ScrollPage

if TYPE_CHECKING:
    from shipyard._qt.binding import Binder
    from shipyard._qt.document import Document


def page(*widgets: QWidget, grow: Sequence[QWidget] = ()) -> QScrollArea:
    """A step page: the widgets one under another, scrolling only when the window is too
    small for them; the ``grow`` ones (lists) share the height there is, the rest keep
    theirs (:class:`~shipyard._qt.scrollpage.ScrollPage`: the page or its lists scroll, not both)."""
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


class StepPages:
    """The base of a ruleset's step pages: each page is built when first shown, refused
    edits go to the status bar, and every preset choice follows the document's preset."""

    def __init__(self, doc: Document, binder: Binder, report_error: Callable[[str], None]) -> None:
        self.doc, self.binder, self.report_error = doc, binder, report_error
        self.built: set[str] = set()  # the pages built so far, by name
        self.presets: list[tuple[QComboBox, QLabel]] = []

    def _built(self, name: str, factory: Callable[[], QWidget]) -> Callable[[], QWidget]:
        def build() -> QWidget:
            widget = factory()
            self.built.add(name)
            return widget

        return build

    def _error(self, message: str | None) -> None:
        if message:
            self.report_error(message)

    def preset_row(self, layout: QFormLayout, help_text: str, label: str = "&Preset") -> QComboBox:
        """The design's preset: a choice (each with its description as tooltip) and a note below."""
        combo = QComboBox()
        for p in self.doc.catalog.presets.values():
            combo.addItem(p.name, p.id)
            combo.setItemData(combo.count() - 1, p.description, Qt.ItemDataRole.ToolTipRole)
        combo.activated.connect(lambda i: self._error(self.doc.set_preset(combo.itemData(i))))
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
