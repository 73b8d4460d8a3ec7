"""The form's value widgets: a field's editor (a line, a text, a check box, a choice, a
number, a ladder's words), a toggle writing several values at once, and the Storyteller's
budget settings. Each is bound to its design path through the pages' binder; what a value
means, its range and its choices come from :mod:`shipyard.core.formview`.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics, QValidator
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QLineEdit,
    QSpinBox,
    QToolButton,
    QWidget,
)

from shipyard._qt.document.keys import TextBox
from shipyard._qt.document.pagebase import quiet
from shipyard._qt.form.base import SPIN_LIMIT, Pages, Scope, plain
from shipyard.core.form import BudgetsRef, FieldDecl, Toggle
from shipyard.core.formview import (
    FormContext,
    choices,
    enum_choices,
    field_range,
    help_text,
    holds,
    joined,
    ladder_words,
    toggle_changes,
)
from shipyard.core.schema import spec_at

_NOTHING = object()


class LadderSpin(QSpinBox):
    """A spin box showing ladder values with their words: "Great (+4)"."""

    def __init__(self, words: dict[int, str]) -> None:
        super().__init__()
        self.words = words

    def textFromValue(self, value: int) -> str:
        word = self.words.get(value)
        return f"{word} ({value:+d})" if word else f"{value:+d}"

    def _parse(self, text: str) -> int | None:
        """The value a user typed: a word ("great"), the shown text or a number ("+4", "4")."""
        t = text.strip().lower()
        for value, word in self.words.items():
            if t in (word.lower(), self.textFromValue(value).lower()):
                return value
        try:
            return int(t.rsplit("(", 1)[-1].rstrip(")").strip())
        except ValueError:
            return None

    def valueFromText(self, text: str) -> int:
        found = self._parse(text)
        return self.value() if found is None else found

    def validate(self, text: str, pos: int) -> QValidator.State:  # type: ignore[override]
        return QValidator.State.Acceptable if self._parse(text) is not None else QValidator.State.Intermediate


def value_editor(pages: Pages, kind: str, decl: FieldDecl, path: str, scope: Scope) -> QWidget:
    """The widget for one value, bound to ``path``."""
    b = pages.binder
    ctx = pages.context()
    spec = spec_at(ctx.catalog.form_schema, path) if ctx.catalog.form_schema is not None else None
    nullable = decl.none is not None or (spec is not None and spec.nullable)
    if kind in ("line", "name"):
        return b.line(path, QLineEdit())
    if kind == "multiline":
        text = TextBox()  # Tab leaves it
        lines = decl.lines or 4
        text.setMaximumHeight(QFontMetrics(text.font()).lineSpacing() * lines + 16)
        return b.text(path, text)
    if kind == "check":
        return b.check(path, QCheckBox())
    if kind == "choice":
        return choice_box(pages, path, decl, scope)
    if kind == "number":
        low, high = field_range(decl, ctx, path)
        d = QDoubleSpinBox()
        d.setDecimals(2)
        d.setRange(-1e9 if low is None else float(low), 1e9 if high is None else float(high))
        b.bind(path, d, d.value, lambda v: d.setValue(float(v or 0)))
        d.valueChanged.connect(lambda v: b.commit(path, v))
        return d
    # spin, ladder, percent: whole numbers
    low, high = field_range(decl, ctx, path)
    lo = int(low) if low is not None else (0 if kind == "percent" else -SPIN_LIMIT)
    hi = int(high) if high is not None else (100 if kind == "percent" else SPIN_LIMIT)
    spin: QSpinBox
    if kind == "ladder" and decl.ladder is not None:
        spin = LadderSpin(ladder_words(decl.ladder, ctx.catalog))
    else:
        spin = QSpinBox()
    if kind == "percent":
        spin.setSuffix("%")
    if hi >= 10_000:
        spin.setGroupSeparatorShown(True)
    if nullable:
        spin.setRange(lo - 1, hi)
        spin.setSpecialValueText(decl.none or "not set")
        return b.spin(path, spin, none_value=lo - 1)
    spin.setRange(lo, hi)
    return b.spin(path, spin)


def choice_box(pages: Pages, path: str, decl: FieldDecl, scope: Scope) -> QComboBox:
    """A choice whose options may be any value (a list, a null): matched by equality."""
    combo = QComboBox()
    values: list[Any] = []

    def options(ctx: FormContext) -> list[tuple[str, Any]]:
        found = choices(decl.choices, ctx) if decl.choices is not None else enum_choices(ctx, path)
        if decl.none and not (decl.choices is not None and decl.choices.none):
            return [(decl.none, None), *found]
        return found

    def fill(ctx: FormContext) -> None:
        current = combo.currentIndex()
        with quiet(combo):
            combo.clear()
            values.clear()
            for label, value in options(ctx):
                combo.addItem(label)
                values.append(value)
            combo.setCurrentIndex(min(current, combo.count() - 1))

    def write(value: Any) -> None:
        index = next((i for i, v in enumerate(values) if v == value), -1)
        if index < 0 and value is None and decl.choices is not None and decl.choices.none:
            index = 0
        combo.setCurrentIndex(index)

    def read() -> Any:
        i = combo.currentIndex()
        return values[i] if 0 <= i < len(values) else _NOTHING  # nothing shown differs from any value

    fill(pages.context())
    scope.texts.append(fill)  # the catalog (a preset, a house rule) may change the options
    combo.activated.connect(lambda i: pages.binder.commit(path, values[i] if 0 <= i < len(values) else None, False))
    pages.binder.bind(path, combo, read, write)
    return combo


def toggle_box(pages: Pages, form: QFormLayout, decl: Toggle, base: str, scope: Scope) -> QCheckBox:
    """A check box writing several values in one undo step."""
    check = QCheckBox()

    def show(text: str) -> None:
        check.setText(text)
        check.setAccessibleName(plain(text))

    pages.show_text(scope, decl.toggle, show)
    pages.set_help(scope, check, decl.help)

    def toggled(on: bool) -> None:
        ctx = pages.context()
        if on == holds(decl.checked, ctx, base):
            return
        changes = toggle_changes(decl, ctx, on, base)
        label = plain(help_text(decl.toggle, ctx.catalog))
        error = pages.doc.edit_many(changes, label if on else f"{label}: no")
        if error:
            pages.report_error(error)
            update(pages.context())

    def update(ctx: FormContext) -> None:
        with quiet(check):
            check.setChecked(holds(decl.checked, ctx, base))

    check.toggled.connect(toggled)
    scope.updates.append(update)
    form.addRow("", check)
    pages.toggles.append(check)
    return check


def budget_rows(pages: Pages, form: QFormLayout, decl: BudgetsRef, base: str, scope: Scope) -> list[QWidget]:
    """The Storyteller's budget of each pool the catalog lets them set; unset follows the rules."""
    ctx = pages.context()
    root = joined(base, decl.budgets)
    spec = spec_at(ctx.catalog.form_schema, root) if ctx.catalog.form_schema is not None else None
    item = spec.item if spec is not None else None
    hi = int(item.maximum) if item is not None and item.maximum is not None else 10_000
    out: list[QWidget] = []
    shown = QToolButton()
    shown.setCheckable(True)
    shown.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
    shown.setAccessibleName("Show the budget settings")
    form.addRow(shown)
    spins: list[QSpinBox] = []
    for pool in ctx.catalog.pools:
        if not getattr(pool, "storyteller_editable", True):
            continue
        path = f"{root}.{pool.id}"
        spin = QSpinBox()
        spin.setRange(-1, hi)
        spin.setSpecialValueText(decl.none)
        pages.binder.spin(path, spin, none_value=-1)
        pages.labels[path] = pages.row(form, pool.name, spin, scope)
        if decl.help:
            pages.set_help(scope, spin, decl.help)
        scope.paths.add(path)
        out.append(spin)
        spins.append(spin)
    # Budgets follow the rules unless the Storyteller says otherwise: the settings fold
    # away while none is set, so a player is not invited to raise a budget to fit.
    pages.binder.gate(root, shown)

    def show_rows(on: bool) -> None:
        shown.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)
        shown.setText("Hide the budget settings" if on else "Show the budget settings (all as the rules)")
        for spin in spins:
            form.setRowVisible(spin, on)

    def update(c: FormContext) -> None:
        if not shown.isChecked() and any(c.value(f"{root}.{p.id}") is not None for p in c.catalog.pools):
            shown.setChecked(True)

    shown.toggled.connect(show_rows)
    show_rows(False)
    scope.updates.append(update)
    return [shown, *out]
