"""The declared form's actions: a button, a dialog asking the action's ``params``, a call.

An action calls a function of the ruleset's ``FORM_CALLS`` with the values asked for
(``fn(FormContext, **params)``). What it returns is a design: ``result: new-design``
opens it in a new tab, ``replace`` makes it the open design's new state, one undo step.
A refusal (an input error) is reported and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from shipyard._qt.form.base import SPIN_LIMIT, Pages, Scope, plain
from shipyard.core.errors import InputError
from shipyard.core.form import ActionDecl, ActionRef, Condition, Form, ListDecl, Param, Section
from shipyard.core.formview import FormContext, choices, help_text, holds, resolve_value


class ParamsDialog(QDialog):
    """Asks for an action's values; each with its label as buddy and its help as tooltip."""

    def __init__(self, action: ActionDecl, ctx: FormContext, parent: QWidget | None = None) -> None:
        from PySide6.QtWidgets import QDialogButtonBox  # made on first use, off the start-up path

        super().__init__(parent)
        self.setWindowTitle(plain(action.label))
        self.action = action
        form = QFormLayout(self)
        if action.help:
            note = QLabel(help_text(action.help, ctx.catalog), wordWrap=True)
            form.addRow(note)
        self.readers: dict[str, Any] = {}
        for param in action.params:
            widget = self._widget(param, ctx)
            label = QLabel(param.label)
            label.setBuddy(widget)
            widget.setAccessibleName(plain(param.label))
            if param.help:
                text = help_text(param.help, ctx.catalog)
                widget.setToolTip(text)
                widget.setAccessibleDescription(text)
            form.addRow(label, widget)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _widget(self, param: Param, ctx: FormContext) -> QWidget:
        default = resolve_value(param.default, ctx)  # as declared, or {call: NAME}: the ruleset's
        if param.kind == "choice":
            combo = QComboBox()
            options = choices(param.choices, ctx) if param.choices is not None else []
            for label, _value in options:
                combo.addItem(label)
            values = [v for _l, v in options]
            if default in values:
                combo.setCurrentIndex(values.index(default))
            self.readers[param.id] = lambda: values[combo.currentIndex()] if values else None
            return combo
        if param.kind in ("text", "file"):
            line = QLineEdit("" if default is None else str(default))
            if param.none:
                line.setPlaceholderText(param.none)
            self.readers[param.id] = lambda: (line.text() or None) if param.optional else line.text()
            if param.kind == "text":
                return line
            return self._file(param, line)
        spin = QSpinBox()
        low = param.min if param.min is not None else -SPIN_LIMIT + 1
        high = param.max if param.max is not None else SPIN_LIMIT
        if param.optional:
            spin.setRange(low - 1, high)
            spin.setSpecialValueText(param.none or "none")
            spin.setValue(int(default) if default is not None else low - 1)
            self.readers[param.id] = lambda: None if spin.value() < low else spin.value()
        else:
            spin.setRange(low, high)
            spin.setValue(int(default) if default is not None else max(low, 0))
            self.readers[param.id] = spin.value
        return spin

    def _file(self, param: Param, line: QLineEdit) -> QWidget:
        """A file name: typed, or chosen with a button that opens a file dialog."""
        from PySide6.QtWidgets import QFileDialog  # made on first use, off the start-up path

        holder = QWidget()
        lay = QHBoxLayout(holder)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(line, 1)
        choose = QPushButton("&Browse…")
        choose.setAccessibleName(f"Choose the {plain(param.label).lower()}")
        lay.addWidget(choose)

        def ask() -> None:
            name, _ = QFileDialog.getOpenFileName(self, plain(param.label), line.text())
            if name:
                line.setText(name)

        choose.clicked.connect(ask)
        line.setMinimumWidth(360)
        holder.setFocusProxy(line)
        return holder

    def values(self) -> dict[str, Any]:
        return {name: read() for name, read in self.readers.items()}


def ask_params(pages: Pages, action: ActionDecl) -> dict[str, Any] | None:
    """The values the user gives for ``action``, or None when they cancel (no params: no dialog)."""
    if not action.params:
        return {}
    dialog = ParamsDialog(action, pages.context(), pages.parent_widget)
    return dialog.values() if dialog.exec() == QDialog.DialogCode.Accepted else None


def run_action(pages: Pages, action: ActionDecl) -> bool:
    """Ask, call the ruleset's function, open or apply what it returns; False when nothing happened."""

    params = pages.ask_params(action) if action.params else {}  # nothing to ask: no dialog
    if params is None:
        return False
    ctx = pages.context()
    try:
        result = ctx.call(action.call, **params)
    except InputError as exc:
        pages.report_error(str(exc))
        return False
    if action.result == "replace":
        error = pages.doc.replace_design(result, plain(action.label))
        if error:
            pages.report_error(error)
            return False
        return True
    if pages.open_design is None:
        pages.report_error(f"{plain(action.label)}: no window to open the new design in")
        return False
    pages.open_design(result)
    return True


def _enabler(button: QPushButton, cond: Condition) -> Callable[[FormContext], None]:
    return lambda ctx: button.setEnabled(holds(cond, ctx))


def action_button(pages: Pages, action: ActionDecl, scope: Scope) -> QPushButton:
    """One action's button, enabled while its ``when`` holds ("…" when it asks first)."""
    button = QPushButton(action.label + ("…" if action.params else ""))
    button.setAccessibleName(plain(action.label))
    if action.help:
        pages.set_help(scope, button, action.help)
    button.clicked.connect(lambda _=False, a=action: pages.run_action(a))
    pages.action_buttons[action.id] = button
    if action.when is not None:
        enable = _enabler(button, action.when)
        enable(pages.context())
        scope.updates.append(enable)
    return button


def _sections_actions(sections: list[Section]) -> set[str]:
    found: set[str] = set()
    for section in sections:
        for el in section.fields:
            if isinstance(el, ActionRef):
                found.add(el.action)
            elif isinstance(el, ListDecl):
                found |= _sections_actions(el.detail)
    return found


def placed_actions(form: Form) -> set[str]:
    """The actions a page shows where they belong (an ``action:`` element)."""
    found: set[str] = set()
    for page in form.pages:
        found |= _sections_actions(page.sections)
    return found


def action_row(pages: Pages, refs: list[ActionRef], scope: Scope) -> QWidget:
    """Buttons of actions placed on a page, side by side."""
    row = QWidget()
    lay = QHBoxLayout(row)
    lay.setContentsMargins(0, 0, 0, 0)
    by_id = {a.id: a for a in pages.form.actions}
    for ref in refs:
        lay.addWidget(action_button(pages, by_id[ref.action], scope))
    lay.addStretch(1)
    return row


def action_bar(pages: Pages) -> QWidget | None:
    """A row above the pages of the form's actions no page places; None when there are none."""
    placed = placed_actions(pages.form)
    actions = [a for a in pages.form.actions if a.id not in placed]
    if not actions:
        return None
    bar = QWidget()
    lay = QHBoxLayout(bar)
    lay.setContentsMargins(4, 2, 4, 2)
    for action in actions:
        lay.addWidget(action_button(pages, action, pages.scope))
    lay.addStretch(1)
    return bar
