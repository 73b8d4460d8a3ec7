"""What to do next where the form cannot be used yet: an empty list, a greyed field.

A new design's lists are empty: a fresh fighter showed "Weapons: chosen" over a blank
table and its budget unspent, with nothing saying where a weapon comes from. While a
list has no rows, its viewport shows one sentence in the placeholder colour: "No weapons
yet: choose one in the catalog on the left and press Add weapon (Alt+W), or double-click
it." The keys are read from the Add button when the hint is shown, so they are the ones
the button has; a greyed Add button's reason (its tooltip) is said instead. The sentence
is the list's accessible description too, for a screen reader.

A field or cell greyed by its form's ``enabled`` condition says why in its form's words
(``why``), in its tooltip and, for a field, in a line under it while it is greyed
(:func:`greyed_reason`): a greyed Armor spin box with a warning mark beside it gave no
clue that a check box above unlocks it.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QAbstractButton, QAbstractItemView, QLabel, QSizePolicy, QWidget

from shipyard.core.placewords import plain


def mnemonic(button: QAbstractButton) -> str:
    """The Alt+letter that presses ``button`` ("Alt+W"), or "" when its text has none."""
    text = button.text().replace("&&", "")
    at = text.find("&")
    return f"Alt+{text[at + 1].upper()}" if 0 <= at < len(text) - 1 else ""


def how_to_add(label: str, add: QAbstractButton, catalog: bool) -> str:
    """The sentence an empty list shows: what it lacks and how to add the first entry."""
    what = f"No {label.lower()} yet"
    if not add.isEnabled():
        why = add.toolTip()
        return f"{what}. {why}" if why else f"{what}."
    keys = mnemonic(add)
    press = f"press {plain(add.text())}" + (f" ({keys})" if keys else "")
    if catalog:
        return f"{what}: choose one in the catalog on the left and {press}, or double-click it."
    return f"{what}: {press} to add one."


class EmptyHint(QLabel):
    """The hint shown over ``view``'s viewport while it has no rows."""

    def __init__(self, view: QAbstractItemView, label: str, add: QAbstractButton, catalog: bool = False) -> None:
        super().__init__(view.viewport())
        self.view, self.label, self.add, self.catalog = view, label, add, catalog
        self.setObjectName("empty-hint")
        self.setWordWrap(True)
        self.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)  # in sight above the fold
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)  # drops and clicks reach the list
        palette = self.palette()
        palette.setColor(QPalette.ColorRole.WindowText, palette.color(QPalette.ColorRole.PlaceholderText))
        self.setPalette(palette)
        view.viewport().installEventFilter(self)
        model = view.model()
        model.rowsInserted.connect(self.follow)
        model.rowsRemoved.connect(self.follow)
        model.modelReset.connect(self.follow)
        add.installEventFilter(self)  # a greyed Add button (or one back) changes the sentence
        self.follow()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (
            QEvent.Type.Resize,
            QEvent.Type.Show,
            QEvent.Type.EnabledChange,
            QEvent.Type.ToolTipChange,
        ):
            self.follow()
        return False

    def text_now(self) -> str:
        return how_to_add(self.label, self.add, self.catalog)

    def follow(self, *_args: object) -> None:
        """Shown, with the sentence as it is now, while the list is empty; hidden else."""
        empty = self.view.model().rowCount() == 0
        if empty:
            text = self.text_now()
            if self.text() != text:
                self.setText(text)
            if self.view.accessibleDescription() != text:
                self.view.setAccessibleDescription(text)
            room = self.view.viewport().rect().adjusted(12, 8, -12, -8)
            if self.geometry() != room:
                self.setGeometry(room)
        elif self.view.accessibleDescription():
            self.view.setAccessibleDescription("")
        if self.isHidden() == empty:
            self.setVisible(empty)


def greyed_reason(widget: QWidget, enabled: bool, why: str, tip: str) -> None:
    """``widget``'s tooltip: ``tip`` (its help) while enabled; greyed, ``why`` first."""
    text = tip if enabled or not why else (f"{why}\n\n{tip}" if tip and tip != why else why)
    if widget.toolTip() != text:
        widget.setToolTip(text)


def why_line() -> QLabel:
    """The line under a greyed field saying why it is greyed (shown only while it is)."""
    line = QLabel()
    line.setObjectName("greyed-why")
    line.setWordWrap(True)
    line.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)  # the row's width, not a column
    palette = line.palette()
    palette.setColor(QPalette.ColorRole.WindowText, palette.color(QPalette.ColorRole.PlaceholderText))
    line.setPalette(palette)
    return line


def show_when_empty(view: QAbstractItemView, label: str, add: QAbstractButton, catalog: bool = False) -> EmptyHint:
    """Give ``view`` its empty state: ``label`` names the list ("Weapons"), ``add`` is the
    button that adds an entry (a catalog's, with ``catalog``: the catalog is on the left)."""
    return EmptyHint(view, label, add, catalog)


__all__ = ["EmptyHint", "greyed_reason", "how_to_add", "mnemonic", "show_when_empty", "why_line"]
