"""From a design file to what the rules see: names resolved to catalog ids, the neutral
view, and the new designs ``shipyard new`` and the editor start from.

Every unknown name is reported at once, with a suggestion and the names allowed, so a
hand-written file is fixed in one go.
"""

from __future__ import annotations

from typing import Any

from shipyard.core.errors import InputError, Problem
from shipyard.core.model import Catalog, DesignView, Selection
from shipyard.core.suggest import did_you_mean
from shipyard.rulesets.space_fury.design import (
    FighterData,
    FighterDesign,
    ForceDesign,
    PilotData,
    PilotDesign,
    SpaceFuryDesign,
    fighter_of,
    pilots_of,
)
from shipyard.rulesets.space_fury.fighter import fighter_stats
from shipyard.rulesets.space_fury.pilot import new_pilot


def _names(catalog: Catalog, kind: str) -> str:
    return ", ".join(i.name for i in catalog.kind(kind).values())


_NOUN = {
    "enhancements": "enhancement",
    "weapons": "weapon",
    "pilot_skills": "pilot skill",
    "quirks": "quirk",
}


def _lookup(catalog: Catalog, kind: str, name: str, path: str, problems: list[Problem]) -> str:
    found = catalog.resolve(kind, name)
    if found is None:
        # names before ids, so the hint reads as the rules print it
        hint = did_you_mean(name, [n for i in catalog.kind(kind).values() for n in (i.name, *i.aliases, i.id)])
        problems.append(
            Problem(
                f"unknown {_NOUN.get(kind, kind)} {name!r}" + (f"; {hint}" if hint else ""),
                path=path,
                allowed=_names(catalog, kind),
            )
        )
        return name
    return found


def _resolve_pilot(pilot: PilotData, catalog: Catalog, base: str, problems: list[Problem]) -> dict[str, Any]:
    return {
        "skills": [
            _lookup(catalog, "pilot_skills", s, f"{base}skills[{i}]", problems) for i, s in enumerate(pilot.skills)
        ],
        "quirks": [_lookup(catalog, "quirks", q, f"{base}quirks[{i}]", problems) for i, q in enumerate(pilot.quirks)],
    }


def _resolve_fighter(fighter: FighterData, catalog: Catalog, base: str, problems: list[Problem]) -> dict[str, Any]:
    choices = []
    for i, c in enumerate(fighter.enhancements):
        weapons = [
            _lookup(catalog, "weapons", w, f"{base}enhancements[{i}].weapons[{j}]", problems)
            for j, w in enumerate(c.weapons)
        ]
        item_id = _lookup(catalog, "enhancements", c.id, f"{base}enhancements[{i}].id", problems)
        choices.append(c.model_copy(update={"id": item_id, "weapons": weapons}))
    update: dict[str, Any] = {"enhancements": choices}
    if fighter.pilot is not None:
        update["pilot"] = fighter.pilot.model_copy(
            update=_resolve_pilot(fighter.pilot, catalog, f"{base}pilot.", problems)
        )
    return update


def resolve(design: SpaceFuryDesign, catalog: Catalog) -> SpaceFuryDesign:
    """Resolve names and aliases to catalog ids; report every unknown name at once."""
    problems: list[Problem] = []
    root = design.root
    if isinstance(root, FighterDesign):
        new: FighterDesign | PilotDesign | ForceDesign = root.model_copy(
            update=_resolve_fighter(root, catalog, "", problems)
        )
    elif isinstance(root, PilotDesign):
        new = root.model_copy(update=_resolve_pilot(root, catalog, "", problems))
    else:
        fighters = [
            f.model_copy(update=_resolve_fighter(f, catalog, f"fighters[{i}].", problems))
            for i, f in enumerate(root.fighters)
        ]
        pilots = [
            p.model_copy(update=_resolve_pilot(p, catalog, f"pilots[{i}].", problems))
            for i, p in enumerate(root.pilots)
        ]
        new = root.model_copy(update={"fighters": fighters, "pilots": pilots})
    if problems:
        raise InputError(problems)
    return SpaceFuryDesign(root=new)


def view(design: SpaceFuryDesign, catalog: Catalog) -> DesignView:
    stats: dict[str, int] = {}
    selections: list[Selection] = []
    fighter = fighter_of(design)
    if fighter is not None:
        stats.update({k: v.value for k, v in fighter_stats(fighter, catalog).items()})
        selections += [
            Selection("enhancements", c.id, f"enhancements[{i}]", 1, c.count)
            for i, c in enumerate(fighter.enhancements)
        ]
    for pilot, base in pilots_of(design):
        stats["xp"] = pilot.xp
        if pilot.level is not None:
            stats["level"] = pilot.level
        selections += [Selection("pilot_skills", s, f"{base}skills[{i}]") for i, s in enumerate(pilot.skills)]
        selections += [Selection("quirks", q, f"{base}quirks[{i}]") for i, q in enumerate(pilot.quirks)]
    return DesignView(None, stats, selections)


def new_design(kind: str, name: str, catalog: Catalog) -> SpaceFuryDesign:
    """A new design of ``kind``: a fighter with only its basic systems (0 enhancements), a
    level 1 pilot, an empty force."""
    if kind == "fighter":
        design = SpaceFuryDesign(root=FighterDesign(kind="fighter", name=name or "New fighter"))
    elif kind == "pilot":
        pilot = new_pilot(catalog, name or "New pilot").model_dump(mode="json")
        design = SpaceFuryDesign.model_validate({**pilot, "kind": "pilot"})
    elif kind == "force":
        design = SpaceFuryDesign.model_validate({"kind": "force", "name": name or "New force"})
    else:
        raise InputError.single(
            f"a {catalog.meta.name} design is a fighter, a pilot or a force, not a {kind!r}",
            allowed="fighter, pilot, force",
        )
    return resolve(design, catalog)
