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
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from shipyard._qt.formbase import SPIN_LIMIT, Pages, plain
from shipyard.core.errors import InputError
from shipyard.core.form import ActionDecl, Condition, Param
from shipyard.core.formview import FormContext, choices, help_text, holds


class ParamsDialog(QDialog):
    """Asks for an action's values; each with its label as buddy and its help as tooltip."""

    def __init__(self, action: ActionDecl, ctx: FormContext, parent: QWidget | None = None) -> None:
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
        if param.kind == "choice":
            combo = QComboBox()
            options = choices(param.choices, ctx) if param.choices is not None else []
            for label, _value in options:
                combo.addItem(label)
            values = [v for _l, v in options]
            if param.default in values:
                combo.setCurrentIndex(values.index(param.default))
            self.readers[param.id] = lambda: values[combo.currentIndex()] if values else None
            return combo
        if param.kind == "text":
            line = QLineEdit("" if param.default is None else str(param.default))
            self.readers[param.id] = lambda: (line.text() or None) if param.optional else line.text()
            return line
        spin = QSpinBox()
        low = param.min if param.min is not None else -SPIN_LIMIT + 1
        high = param.max if param.max is not None else SPIN_LIMIT
        if param.optional:
            spin.setRange(low - 1, high)
            spin.setSpecialValueText("none")
            spin.setValue(int(param.default) if param.default is not None else low - 1)
            self.readers[param.id] = lambda: None if spin.value() < low else spin.value()
        else:
            spin.setRange(low, high)
            spin.setValue(int(param.default) if param.default is not None else max(low, 0))
            self.readers[param.id] = spin.value
        return spin

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

    params = pages.ask_params(action)
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


def action_bar(pages: Pages) -> QWidget:
    """A row of the form's action buttons, each enabled while its ``when`` holds."""

    bar = QWidget()
    lay = QHBoxLayout(bar)
    lay.setContentsMargins(4, 2, 4, 2)
    for action in pages.form.actions:
        button = QPushButton(action.label + ("…" if action.params else ""))
        button.setAccessibleName(plain(action.label))
        if action.help:
            pages._help(pages.scope, button, action.help)
        button.clicked.connect(lambda _=False, a=action: pages.run_action(a))
        pages.action_buttons[action.id] = button
        if action.when is not None:
            pages.scope.updates.append(_enabler(button, action.when))
        lay.addWidget(button)
    lay.addStretch(1)
    return bar
