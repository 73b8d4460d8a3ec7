"""Tiny Gunboats: the smallest whole ruleset, for Shipyard's plug-in tests.

A gunboat has a hull (1 to 10) and guns; a rule of its own says the guns may not
outnumber the hull. It derives its firepower and a hull track.

No ``from __future__ import annotations``: the module defines pydantic models, whose
annotations would then be strings compiled again when each class is made (docs/rulesets.md).
"""

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from shipyard.core.model import Catalog, Context, DesignView, Params, RuleType
from shipyard.core.report import Box, Derived, Figure, Track


class Design(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=100)
    hull: int = Field(default=3, ge=0, le=99)
    guns: int = Field(default=1, ge=0, le=99)
    notes: str = Field(default="", max_length=2000)


class GunsParams(Params):
    per_hull: int = Field(ge=1)


def apply_guns_within_hull(ctx: Context, p: GunsParams) -> None:
    """The guns may not outnumber the hull (times the catalog's guns per hull point)."""
    limit = ctx.design.hull * p.per_hull
    if ctx.design.guns > limit:
        ctx.findings.add(
            "error",
            "too-many-guns",
            f"{ctx.design.guns} guns on a hull of {ctx.design.hull}: at most {limit}",
            path="guns",
            actual=ctx.design.guns,
            limit=limit,
            rule=p.id,
            source=ctx.catalog.cite(p.source),
        )


ITEM_KINDS: dict[str, Any] = {}
RULE_TYPES = {"guns-within-hull": RuleType(GunsParams, apply_guns_within_hull)}


def resolve(design: Design, catalog: Catalog) -> Design:
    return design


def view(design: Design, catalog: Catalog) -> DesignView:
    return DesignView(None, {"hull": design.hull, "guns": design.guns}, [])


def derive(ctx: Context) -> Derived:
    d = ctx.design
    return Derived(
        figures=[Figure(id="firepower", label="Firepower", value=d.guns * 2, detail="2 a gun")],
        tracks=[Track(id="hull", name="Hull", boxes=[Box(value=i + 1) for i in range(d.hull)])],
    )


def new_design(kind: str, name: str, catalog: Catalog) -> Design:
    return Design(name=name or "New gunboat")
