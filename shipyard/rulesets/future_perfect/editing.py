"""The functions the declared editor form calls (catalogs/future-perfect/form.yaml): the
choices that are the record's own names (its systems, weapons), the AP cost tables' actions
with what each costs, and what an action bought is paid with (the engine's pricing)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shipyard.core.paths import parse_path
from shipyard.rulesets.future_perfect.design import FuturePerfectShip
from shipyard.rulesets.future_perfect.items import ShipAction

if TYPE_CHECKING:
    from shipyard.core.formview import FormContext


def _design(ctx: FormContext) -> FuturePerfectShip:
    design: FuturePerfectShip = ctx.design
    return design


def system_names(ctx: FormContext, **_: Any) -> list[tuple[str, str]]:
    """Every system, for the round plan's augmented AP."""
    return [(s.name, s.name) for s in _design(ctx).systems]


def weapon_systems(ctx: FormContext, **_: Any) -> list[tuple[str, str]]:
    """The weapon systems a weapon may belong to."""
    return [(s.name, s.name) for s in _design(ctx).systems if s.kind == "weapon"]


def action_targets(ctx: FormContext, **_: Any) -> list[tuple[str, str]]:
    """What a planned action may act on: the weapons (fire, careful shot ...), then the
    systems (modulate a shield, repair or augment a system)."""
    design = _design(ctx)
    weapons = [(f"{w.name} ({w.grade} weapon)", w.name) for w in design.weapons]
    systems = [(f"{s.name} ({s.kind} system)", s.name) for s in design.systems]
    return weapons + systems


def _ap(act: ShipAction) -> str:
    """An action's cost as the Action list says it: "2 AP", "+1 AP on a fire action"."""
    return f"{act.printed_ap} AP on a fire action" if act.adds_to_fire else f"{act.ap} AP"


def action_label(ctx: FormContext, item: str = "", **_: Any) -> str:
    """An action of the AP cost tables as the Action list offers it, with its table and
    cost: "Move 1 range band (Helm, 2 AP)"."""
    act = ctx.catalog.item("actions", item)
    if not isinstance(act, ShipAction):
        return item
    role = ctx.catalog.item("roles", act.role)
    return f"{act.name} ({role.name if role else act.role}, {_ap(act)})"


def action_cost(ctx: FormContext, base: str = "", **_: Any) -> tuple[str, str]:
    """An action bought: its cost from the AP cost table, and (its tooltip) how the engine's
    pricing pays it (its row of the report's ``plan_actions`` table): from the power bank,
    from augmented AP, from the role's allocation."""
    entry = ctx.value(base)
    act = ctx.catalog.item("actions", str(entry.get("action", ""))) if isinstance(entry, dict) else None
    if not isinstance(act, ShipAction):
        return "", ""
    role = ctx.catalog.item("roles", act.role)
    tip = f"{act.name}: {_ap(act)} on the {role.name if role else act.role} table"
    table = next((t for t in ctx.report.derived.tables if t.id == "plan_actions"), None) if ctx.report else None
    index = parse_path(base)[-1]
    plan = _design(ctx).plan
    if table is None or plan is None or len(table.rows) != len(plan.actions) or not isinstance(index, int):
        return f"{act.ap} AP", tip  # an action the engine could not price has no row to read
    row = dict(zip(table.columns, table.rows[index], strict=True))
    paid = [
        f"{row[column]} {words}"
        for column, words in (("Power", "from the power bank"), ("Augmented", "from augmented AP"))
        if row.get(column)
    ]
    paid.append(f"{row.get('From allocation', 0)} from the allocation")
    return f"{act.ap} AP", f"{tip}; paid {', '.join(paid)}"


FORM_CALLS = {
    "action_label": action_label,
    "action_cost": action_cost,
    "system_names": system_names,
    "weapon_systems": weapon_systems,
    "action_targets": action_targets,
}
