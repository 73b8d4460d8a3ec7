"""Dock Test: a repair dock of bays, each with its parts (a ruleset for the editor's tests).

A real ruleset, small: the editor's declared-form machinery is tested on it where Space
Fighter Alpha's form has no such element (nested lists in a detail area, a map, a ladder,
an action). No ``from __future__ import annotations``: the module defines pydantic models
(docs/rulesets.md).
"""

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from shipyard.core.errors import InputError
from shipyard.core.formview import FormContext
from shipyard.core.items import CatalogItem, PricedItem
from shipyard.core.model import Catalog, Context, DesignView, RuleType, Selection
from shipyard.core.report import Action, Box, Derived, Figure, Slot, Track


class Part(PricedItem):
    notes: str = ""


class Skill(CatalogItem):
    pass


class Grade(CatalogItem):
    value: int


ITEM_KINDS: dict[str, type[CatalogItem]] = {"parts": Part, "skills": Skill, "grades": Grade}
RULE_TYPES: dict[str, RuleType] = {}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Fitted(_Strict):
    id: str = Field(min_length=1, max_length=60)
    count: int = Field(default=1, ge=1, le=50)


class Bay(_Strict):
    name: str = Field(min_length=1, max_length=60)
    size: int = Field(default=1, ge=1, le=9)
    notes: str = Field(default="", max_length=2000)
    parts: list[Fitted] = Field(default_factory=list, max_length=20)


class Chief(_Strict):
    name: str = Field(default="", max_length=60)
    years: int = Field(default=1, ge=0, le=60)


class Design(_Strict):
    name: str = Field(min_length=1, max_length=200)
    grade: int = Field(default=0, ge=-2, le=4)
    bays: list[Bay] = Field(default_factory=list, max_length=20)
    skills: dict[str, Annotated[int, Field(ge=0, le=100)]] = Field(default_factory=dict)
    chief: Chief | None = None


def resolve(design: Design, catalog: Catalog) -> Design:
    for b, bay in enumerate(design.bays):
        for p, part in enumerate(bay.parts):
            if catalog.item("parts", part.id) is None:
                raise InputError.single(f"unknown part {part.id!r}", path=f"bays[{b}].parts[{p}].id")
    return design


def view(design: Design, catalog: Catalog) -> DesignView:
    selections = [
        Selection("parts", part.id, f"bays[{b}].parts[{p}]", count=part.count)
        for b, bay in enumerate(design.bays)
        for p, part in enumerate(bay.parts)
    ]
    return DesignView(scale=None, stats={"grade": design.grade}, selections=selections)


def derive(ctx: Context) -> Derived:
    design: Design = ctx.design
    cost = ctx.count("cost", "Parts cost", "credits", "Dock Test Rules")
    for b, bay in enumerate(design.bays):
        for p, fitted in enumerate(bay.parts):
            part = ctx.catalog.item("parts", fitted.id)
            if isinstance(part, Part):
                label = f"{fitted.count} x {part.name} in {bay.name}"
                cost.add(label, part.cost * fitted.count, path=f"bays[{b}].parts[{p}]")
    full = len(design.bays) >= 3
    return Derived(
        figures=[Figure(id="bays", label="Bays", value=len(design.bays))],
        tracks=[Track(id="wear", name="Wear", boxes=[Box(value=n, marked=n <= len(design.bays)) for n in (1, 2, 3)])],
        slots=[Slot(id="berth.spare", name="Spare berth", available=not full, reason="every berth is taken")],
        actions=[Action(id="launch", name="Launch", allowed=bool(design.bays), reason="" if design.bays else "no bay")],
    )


def new_design(kind: str, name: str, catalog: Catalog) -> Design:
    return Design(name=name)


def fresh_dock(ctx: FormContext, bays: int = 1, name: str = "", **_: Any) -> Design:
    """A new dock with ``bays`` empty bays (what the form's action makes)."""
    if bays < 1:
        raise InputError.single("a dock has at least one bay", path="bays")
    return Design(name=name or "Fresh dock", bays=[Bay(name=f"Bay {n}") for n in range(1, bays + 1)])


def strip_parts(ctx: FormContext, **_: Any) -> Design:
    """The open dock with every bay emptied."""
    design: Design = ctx.design
    return design.model_copy(update={"bays": [bay.model_copy(update={"parts": []}) for bay in design.bays]})


FORM_CALLS = {"fresh_dock": fresh_dock, "strip_parts": strip_parts}
