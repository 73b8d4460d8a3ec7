"""Action names to catalog ids, a fresh ship record, and the neutral view of a record."""

from __future__ import annotations

from shipyard.core.errors import InputError, Problem
from shipyard.core.model import Catalog, DesignView, Selection
from shipyard.core.suggest import did_you_mean
from shipyard.rulesets.future_perfect.design import FuturePerfectShip, FuturePerfectSystem
from shipyard.rulesets.future_perfect.items import SystemKind
from shipyard.rulesets.future_perfect.record import bank_capacity, track_params


def resolve(design: FuturePerfectShip, catalog: Catalog) -> FuturePerfectShip:
    """Each planned action's id, name or alias as the AP cost tables' id; every unknown one at once."""
    if design.plan is None:
        return design
    problems: list[Problem] = []
    actions = []
    for i, entry in enumerate(design.plan.actions):
        action_id = catalog.resolve("actions", entry.action)
        if action_id is None:
            problems.append(
                Problem(
                    f"unknown action {entry.action!r}; {did_you_mean(entry.action, catalog.names('actions'))}".rstrip(
                        "; "
                    ),
                    path=f"plan.actions[{i}].action",
                    allowed=", ".join(catalog.kind("actions")),
                )
            )
            continue
        actions.append(entry.model_copy(update={"action": action_id}))
    if problems:
        raise InputError(problems)
    return design.model_copy(update={"plan": design.plan.model_copy(update={"actions": actions})})


def new_design(kind: str, name: str, catalog: Catalog) -> FuturePerfectShip:
    """A new ship at the stats' base values (ruleset.yaml), with one system of each kind the
    catalog gives a new ship (system_kinds.yaml), each with the default track levels; the
    crew is for the GM to fill in."""
    base = {st.id: st.base or 0 for st in catalog.meta.stats}
    default = track_params(catalog).default_levels
    systems = [
        FuturePerfectSystem.model_validate(
            {"name": k.new_ship, "kind": k.id, "shield": k.shield, "core_levels": default, "ephemeral_levels": default}
        )
        for k in catalog.kind("system_kinds").values()
        if isinstance(k, SystemKind) and k.new_ship
    ]
    return FuturePerfectShip(
        name=name or "New ship",
        ap=base.get("ap", 0),
        power_rating=base.get("power-rating", 0),
        power_bank=base.get("power-bank", 0),
        size=base.get("size", 0),
        speed=base.get("speed", 0),
        systems=systems,
    )


def view(design: FuturePerfectShip, catalog: Catalog) -> DesignView:
    """The record's numbers as stats (the ranges the catalog gives them are checked by the
    core's stat-range rule) and each planned action as a selection of the AP cost tables."""
    stats: dict[str, int | float] = {
        "ap": design.ap,
        "power-rating": design.power_rating,
        "power-bank": design.power_bank,
        "bank-capacity": bank_capacity(catalog, design),
        "size": design.size,
        "speed": design.speed,
    }
    selections = (
        [Selection("actions", a.action, f"plan.actions[{i}]") for i, a in enumerate(design.plan.actions)]
        if design.plan
        else []
    )
    return DesignView(None, stats, selections)
