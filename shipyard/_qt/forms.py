"""Small layout helpers every ruleset's step pages share: a scrolling page, a titled form,
a labelled row (with its accessible name and help), and a guard for setting values quietly.
"""

from __future__ import annotations

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


def page(*widgets: QWidget) -> QScrollArea:
    """A step page: the widgets one under another, scrolling when the window is small."""
    inner = QWidget()
    lay = QVBoxLayout(inner)
    for w in widgets:
        lay.addWidget(w)
    lay.addStretch(1)
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setWidget(inner)
    return area


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
