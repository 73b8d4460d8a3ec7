"""The functions the declared editor form calls (catalogs/future-perfect/form.yaml): the
choices that are the record's own names (its systems, weapons), not catalog entries."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shipyard.rulesets.future_perfect.design import FuturePerfectShip

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


FORM_CALLS = {
    "system_names": system_names,
    "weapon_systems": weapon_systems,
    "action_targets": action_targets,
}
