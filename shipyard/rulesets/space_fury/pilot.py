"""What a Space Fury pilot has: the modifiers of its skills and quirks, its Cool, the
skills its level allows, and the level 1 pilot a new one starts as.
"""

from __future__ import annotations

from shipyard.core.model import Catalog
from shipyard.rulesets.space_fury.catalog_lookup import level_row, levels, pilot_level, playing_row
from shipyard.rulesets.space_fury.design import PilotData
from shipyard.rulesets.space_fury.items import PilotSkill, Quirk, TraitEffect
from shipyard.rulesets.space_fury.params import PilotSkillsParams


def pilot_traits(pilot: PilotData, catalog: Catalog) -> list[tuple[str, TraitEffect]]:
    """(source name, effect) for every trait modifier of a pilot's skills and quirks."""
    out: list[tuple[str, TraitEffect]] = []
    for sid in pilot.skills:
        skill = catalog.item("pilot_skills", sid)
        if isinstance(skill, PilotSkill):
            out += [(skill.name, e) for e in skill.effects if isinstance(e, TraitEffect)]
    for qid in pilot.quirks:
        quirk = catalog.item("quirks", qid)
        if isinstance(quirk, Quirk):
            out += [(quirk.name, e) for e in quirk.effects]
    return out


def pilot_cool(pilot: PilotData, catalog: Catalog) -> tuple[int, str]:
    """The pilot's Cool: the level's, plus every unconditional Cool modifier of its own."""
    level = pilot_level(catalog, pilot)
    row = playing_row(catalog, level)
    base = row.cool if row else 0
    parts = [f"level {level}: {base}"]
    total = base
    for source, eff in pilot_traits(pilot, catalog):
        if eff.trait == "cool" and eff.who == "self" and not eff.condition:
            total += eff.amount
            parts.append(f"{source} {eff.amount:+d}")
    return total, ", ".join(parts)


def first_skill(catalog: Catalog) -> str | None:
    """The skill every pilot has first (Basic Combat Pilot), as the rules say."""
    p = catalog.params(PilotSkillsParams)
    return p.first_skill if p is not None else None


def new_pilot(catalog: Catalog, name: str = "") -> PilotData:
    """A level 1 pilot: the XP the first level needs, and the first skill."""
    table = levels(catalog)
    first = first_skill(catalog)
    return PilotData(name=name, xp=table[0].xp if table else 0, skills=[first] if first else [])


def skills_allowed(catalog: Catalog, level: int) -> int:
    row = level_row(catalog, level)
    return row.skills if row else 0
