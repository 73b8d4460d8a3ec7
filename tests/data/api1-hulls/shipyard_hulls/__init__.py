"""Hulls: a small point-buy ruleset for Shipyard.

A ship has a hull and armour and buys systems; each costs build points from one budget
(catalog/pools.yaml), and a ship may not spend more than it has. Every number is in the
catalog: this module says only what the catalog cannot, the contract of
``shipyard.core.model.RulesetModule`` (see docs/rulesets.md and docs/reference/ in
Shipyard's source).

Modules with pydantic models do not start with ``from __future__ import annotations``
(docs/rulesets.md says why).
"""

from typing import Annotated

from pydantic import Field
from shipyard.core.designtypes import Name, Presentation, Strict
from shipyard.core.errors import InputError
from shipyard.core.items import CatalogItem, PricedItem
from shipyard.core.model import Catalog, Context, DesignView, Params, RuleType, Selection
from shipyard.core.report import Box, Derived, Figure, Table, Track

# --- the design file's `design` object: every number has a range, every list a size limit


class SystemChoice(Strict):
    id: str = Field(min_length=1, max_length=100, description="a system of the catalog, by id or name")
    level: int = Field(default=1, ge=1, le=99)


class Design(Presentation):
    name: Name
    hull: int = Field(default=1, ge=0, le=99)
    armour: int = Field(default=0, ge=0, le=99)
    systems: list[SystemChoice] = Field(default_factory=list, max_length=50)
    budgets: dict[Annotated[str, Field(max_length=60)], Annotated[int, Field(ge=0, le=10_000)]] = Field(
        default_factory=dict, max_length=10, description="the Storyteller's budgets, by pool id; unset: the rules'"
    )
    notes: str = Field(default="", max_length=2000)


# --- the catalog's own item kinds (catalog/systems.yaml)


class System(PricedItem):
    """A system a ship buys: its ``cost`` (per level when ``per_level``) comes from the pool."""


ITEM_KINDS: dict[str, type[CatalogItem]] = {"systems": System}


# --- a rule type of this ruleset's own: its numbers are the rule's parameters in rules.yaml


class SystemsWithinHullParams(Params):
    per_hull: int = Field(ge=1, description="systems a ship may carry for each point of hull")


def apply_systems_within_hull(ctx: Context, p: SystemsWithinHullParams) -> None:
    """A ship carries at most ``per_hull`` systems for each point of hull."""
    limit = ctx.design.hull * p.per_hull
    carried = len(ctx.design.systems)
    if carried > limit:
        ctx.findings.add(
            "error",
            "too-many-systems",
            f"{carried} systems on a hull of {ctx.design.hull}: at most {limit}",
            path="systems",
            actual=carried,
            limit=limit,
            rule=p.id,
            source=ctx.catalog.cite(p.source),
        )


RULE_TYPES = {"systems-within-hull": RuleType(SystemsWithinHullParams, apply_systems_within_hull)}


# --- reading a design: names to ids, then the neutral view the shared rules work on


def resolve(design: Design, catalog: Catalog) -> Design:
    """Systems named by name or alias become catalog ids; an unknown one is bad input."""
    systems = []
    for i, choice in enumerate(design.systems):
        found = catalog.resolve("systems", choice.id)
        if found is None:
            raise InputError.single(
                f"no system {choice.id!r}", path=f"systems[{i}].id", allowed=", ".join(catalog.names("systems"))
            )
        systems.append(choice.model_copy(update={"id": found}))
    for pool_id in design.budgets:
        if catalog.pool(pool_id) is None:
            raise InputError.single(
                f"no pool {pool_id!r}", path=f"budgets.{pool_id}", allowed=", ".join(p.id for p in catalog.pools)
            )
    return design.model_copy(update={"systems": systems})


def view(design: Design, catalog: Catalog) -> DesignView:
    """Stats by id, the systems bought, and the Storyteller's budgets (no scale: None)."""
    selections = [Selection("systems", s.id, f"systems[{i}]", level=s.level) for i, s in enumerate(design.systems)]
    return DesignView(None, {"hull": design.hull, "armour": design.armour}, selections, budget_overrides=design.budgets)


# --- the report's parts, after the rules ran


def derive(ctx: Context) -> Derived:
    d, catalog = ctx.design, ctx.catalog
    rows: list[list[str | int | None]] = []
    for s in d.systems:
        item = catalog.item("systems", s.id)
        if isinstance(item, System):
            rows.append(
                [item.name, s.level if item.per_level else None, item.cost * (s.level if item.per_level else 1)]
            )
    return Derived(
        figures=[
            Figure(id="protection", label="Protection", value=d.hull + d.armour, detail="hull + armour", path="armour"),
            Figure(id="systems", label="Systems", value=len(d.systems), path="systems"),
        ],
        tables=[Table(id="systems", title="Systems", columns=["System", "Level", "Cost"], rows=rows)],
        tracks=[Track(id="hull", name="Hull", boxes=[Box(value=i + 1) for i in range(d.hull)], path="hull")],
    )


def new_design(kind: str, name: str, catalog: Catalog) -> Design:
    return Design(name=name or "New ship")
