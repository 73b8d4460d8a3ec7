"""A declared map: a value for each key of a catalog kind (see :mod:`shipyard._qt.form.pages`).

A map is a form of its own rather than a table: one spin box a key (a pilot's skill
percentages by skill id), labelled by the key's name, an unset key left out of the
design. Its keys may follow the design, so its rows are made again when they change.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QFormLayout, QLabel, QSpinBox, QVBoxLayout, QWidget

from shipyard._qt.form.base import Pages, Scope
from shipyard.core.form import MapDecl
from shipyard.core.formview import FormContext, choices, help_text, joined
from shipyard.core.paths import value_at
from shipyard.core.schema import spec_at


def map_area(pages: Pages, decl: MapDecl, base: str, scope: Scope) -> QWidget:
    """A value for each key of a catalog kind (a skill's percentage); unset keys are left out.

    The keys may follow the design (a ruleset function naming the ship's systems): the rows
    are made again when they change, and a key the design holds that is no longer offered
    keeps a row of its own until it is set to none."""
    ctx = pages.context()
    root = joined(base, decl.map)
    spec = spec_at(ctx.catalog.form_schema, root) if ctx.catalog.form_schema is not None else None
    item = spec.item if spec is not None else None
    low = decl.min if decl.min is not None else (item.minimum if item is not None else None)
    high = decl.max if decl.max is not None else (item.maximum if item is not None else None)
    percent = decl.widget == "percent"
    lo = int(low) if low is not None else 0
    hi = int(high) if high is not None else (100 if percent else 999)
    box = QWidget()
    outer = QVBoxLayout(box)
    outer.setContentsMargins(0, 0, 0, 0)
    caption = QLabel()
    pages.show_text(scope, decl.label, caption.setText)
    outer.addWidget(caption)
    form = QFormLayout()
    form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.FieldsStayAtSizeHint)
    outer.addLayout(form)
    shown: list[tuple[str, Any]] = []
    rows = Scope()  # the rows' help and labels: made again with the rows, not piled up

    def texts(ctx: FormContext) -> None:
        for t in rows.texts:
            t(ctx)

    scope.texts.append(texts)

    def row(label: str, key: Any) -> str:
        path = f"{root}.{key}"
        spin = QSpinBox()
        if percent:
            spin.setSuffix("%")
        if decl.none is not None:
            spin.setRange(lo - 1, hi)
            spin.setSpecialValueText(help_text(decl.none, pages.context().catalog))  # "AI 50%"
            pages.binder.spin(path, spin, none_value=lo - 1)
        else:
            spin.setRange(lo, hi)
            pages.binder.spin(path, spin)
        pages.row(form, label, spin, rows)
        if decl.help:
            pages.set_help(rows, spin, decl.help)
        scope.paths.add(path)
        return path

    def update(ctx: FormContext) -> None:
        keys = [(label, key) for label, key in choices(decl.keys, ctx) if key is not None]
        try:
            held = value_at(ctx.data, root)
        except Exception:
            held = None
        if isinstance(held, dict):
            # a key the design holds that is offered no longer (a system renamed): shown, so
            # that its finding has a field to focus and the user can set it to none
            offered = {str(key) for _label, key in keys}
            keys += [(str(key), key) for key in held if str(key) not in offered]
        if keys == shown:
            return
        for _label, key in shown:
            pages.binder.unbind(f"{root}.{key}")
            scope.paths.discard(f"{root}.{key}")
        while form.rowCount():
            # taken out and deleted later, not at once: the change may come from one of these
            # spin boxes (set to none, its key goes), still inside its own signal
            taken = form.takeRow(0)
            for item in (taken.labelItem, taken.fieldItem):
                widget = item.widget() if item is not None else None
                if widget is not None:
                    widget.hide()
                    widget.deleteLater()
        rows.texts.clear()
        shown[:] = keys
        for path in [row(label, key) for label, key in keys]:
            pages.binder.refresh_one(path, ctx.data)

    update(ctx)
    scope.updates.append(update)
    return box
