"""A Space Fury force and its members: each fighter and reserve pilot is evaluated as a
variant of the force (the core's way of evaluating parts beside a design), and the force
adds up what they count. Its force rules (every fighter crewed, the side's pilot levels)
are the catalog's composition rules, judged by the core over the members' reports as a
roster's are (:mod:`shipyard.core.composition`): one concept of a force. Also how a fighter
is crewed and a force gathered.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from pydantic import BaseModel

from shipyard.core.composition import Allowance, Group, add_findings, judge_catalog, members_of_forms
from shipyard.core.errors import InputError
from shipyard.core.model import Context
from shipyard.rulesets.space_fury.design import (
    FighterData,
    FighterDesign,
    ForceData,
    ForceDesign,
    PilotData,
    PilotDesign,
    SpaceFuryDesign,
    force_of,
)


def as_fighter(fighter: FighterData) -> SpaceFuryDesign:
    return SpaceFuryDesign(root=FighterDesign(kind="fighter", **dict(fighter)))


def as_pilot(pilot: PilotData, name: str) -> SpaceFuryDesign:
    return SpaceFuryDesign(root=PilotDesign(kind="pilot", **{**dict(pilot), "name": pilot.name or name}))


def _member_paths(force: ForceData) -> list[str]:
    return [f"fighters[{i}]" for i in range(len(force.fighters))] + [f"pilots[{i}]" for i in range(len(force.pilots))]


def variants(design: SpaceFuryDesign) -> list[tuple[str, SpaceFuryDesign]]:
    """A force's fighters and reserve pilots, each evaluated as a design of its own."""
    force = force_of(design)
    if force is None:
        return []
    out = [(f.name, as_fighter(f)) for f in force.fighters]
    for i, p in enumerate(force.pilots):
        member = as_pilot(p, f"Reserve pilot {i + 1}")
        out.append((member.name, member))
    return out


def compare_variants(ctx: Context, forms: list[tuple[str, Context]]) -> None:
    """A force counts what its members count, one part a member (a force costs its fighters
    and its pilots; its enhancements are its fighters')."""
    force = force_of(ctx.design)
    if force is None:
        return
    ctx.notes["members"] = forms
    paths = _member_paths(force)
    for (name, fctx), path in zip(forms, paths, strict=True):
        for member in fctx.counts.values():
            if member.lines:
                counted = ctx.count(member.id, member.name, member.unit, member.source)
                counted.add(name, member.total, source=member.source, path=path)
    add_findings(ctx.findings, judge_catalog(ctx.catalog, members_of_forms(forms, paths), force_group(force)))


def force_group(force: ForceData) -> Group:
    """What a force sets for its composition rules: no points limit (the rules give a side
    none), and the levels worth of pilots it has, when it says."""
    allowances = (
        {PILOT_LEVELS: Allowance(force.pilot_levels, "pilot_levels", "levels worth of pilots")}
        if force.pilot_levels is not None
        else {}
    )
    return Group(limit=None, allowances=allowances, path="fighters")


# The allowance the catalog's pilot-levels rule counts against (rules.yaml: {allowance: pilot-levels}).
PILOT_LEVELS = "pilot-levels"


B = TypeVar("B", bound=BaseModel)


def body(model: type[B], design: BaseModel) -> B:
    """A design's fields as a part of another design (a force's fighter): without its ``kind``,
    and without its picture and story, which belong to a design of its own."""
    return model(**{k: v for k, v in dict(design).items() if k in model.model_fields})


def crew(fighter: SpaceFuryDesign, pilot: SpaceFuryDesign) -> SpaceFuryDesign:
    """The fighter with the pilot at its controls."""
    f, p = fighter.root, pilot.root
    if not isinstance(f, FighterDesign):
        raise InputError.single(f"{fighter.name!r} is a {f.kind}, not a fighter")
    if not isinstance(p, PilotDesign):
        raise InputError.single(f"{pilot.name!r} is a {p.kind}, not a pilot")
    data = body(PilotData, p)
    return SpaceFuryDesign(root=f.model_copy(update={"pilot": data}))


def force(name: str, members: Sequence[SpaceFuryDesign], pilot_levels: int | None = None) -> SpaceFuryDesign:
    """A force of fighters and reserve pilots (forces given are merged in)."""
    fighters: list[FighterData] = []
    pilots: list[PilotData] = []
    for m in members:
        root = m.root
        if isinstance(root, FighterDesign):
            fighters.append(body(FighterData, root))
        elif isinstance(root, PilotDesign):
            pilots.append(body(PilotData, root))
        else:
            fighters += root.fighters
            pilots += root.pilots
    return SpaceFuryDesign(
        root=ForceDesign(kind="force", name=name, fighters=fighters, pilots=pilots, pilot_levels=pilot_levels)
    )
