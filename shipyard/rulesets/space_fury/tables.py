"""The tables a Space Fury report carries: a fighter's weapons and systems, a pilot's
skills, quirks and modifiers, and the roll log of a random build.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from shipyard.core.model import Context
from shipyard.core.report import Table
from shipyard.rulesets.space_fury.catalog_lookup import items_of, listed_in
from shipyard.rulesets.space_fury.design import FighterData, PilotData, RollEntry
from shipyard.rulesets.space_fury.fighter import armament, purchases
from shipyard.rulesets.space_fury.items import BasicSystem, MountEffect, Quirk, Weapon, WeaponEffect
from shipyard.rulesets.space_fury.pilot import pilot_traits
from shipyard.rulesets.space_fury.wording import signed


def weapons_table(ctx: Context, fighter: FighterData) -> Table:
    carried: dict[str, int] = {}
    for pu in purchases(fighter, ctx.catalog):
        if pu.item is not None and any(isinstance(e, MountEffect) for e in pu.item.effects):
            for wid in pu.choice.weapons:
                carried[wid] = carried.get(wid, 0) + 1
    # one row per weapon and mount: (weapon id, mount) -> (weapon, count, where from)
    grouped: dict[tuple[str, str], tuple[Weapon | None, int, list[str]]] = {}
    for arm in armament(fighter, ctx.catalog):
        turreted = min(carried.get(arm.weapon_id, 0), arm.count)
        carried[arm.weapon_id] = carried.get(arm.weapon_id, 0) - turreted
        launched = arm.weapon is not None and arm.weapon.range is None
        for mount, count in (("Launched" if launched else "Fixed", arm.count - turreted), ("Turret", turreted)):
            if count > 0:
                _, n, sources = grouped.get((arm.weapon_id, mount), (arm.weapon, 0, []))
                grouped[(arm.weapon_id, mount)] = (arm.weapon, n + count, [*sources, arm.source])
    rows: list[list[Any]] = []
    for (wid, mount), (w, count, sources) in grouped.items():
        notes = []
        move = f"Speed {w.speed}, Maneuver {signed(w.maneuver or 0)}" if w is not None and w.speed is not None else ""
        if w is not None and w.ammo:
            notes.append(w.ammo)
        if w is not None and w.notes:
            notes.append(w.notes)
        rows.append(
            [
                w.name if w else wid,
                count,
                mount,
                w.range if w is not None and w.range is not None else "—",
                w.damage if w else "",
                signed(w.tohit) if w else "",
                move,
                ", ".join(dict.fromkeys(sources)),
                "; ".join(notes),
            ]
        )
    return Table(
        id="weapons",
        title="Weapons",
        columns=["Weapon", "Count", "Mount", "Range", "Damage", "ToHit", "Move", "From", "Notes"],
        rows=rows,
        notes="Fixed guns fire into the 60-degree front arc; a Turret's weapon fires in all arcs.",
        source=ctx.catalog.cite("7. GUN DECLARATION PHASE"),
    )


def systems_table(ctx: Context, fighter: FighterData) -> Table:
    listed = listed_in(ctx.catalog)
    rows: list[list[Any]] = [[s.name, 1, "Basic", s.notes] for s in items_of(ctx.catalog, "basic_systems", BasicSystem)]
    for pu in purchases(fighter, ctx.catalog):
        item = pu.item
        if item is None or any(isinstance(e, WeaponEffect) for e in item.effects):
            continue
        on = listed.get(item.id, [])
        notes = item.notes
        if pu.choice.weapons:
            names = [getattr(ctx.catalog.item("weapons", w), "name", w) for w in pu.choice.weapons]
            notes = f"carries {', '.join(names)}. {notes}"
        rows.append([item.name, pu.purchases, on[0].name.replace(" Table", "") if on else "", notes])
    return Table(
        id="systems",
        title="Systems",
        columns=["System", "Count", "Table", "Notes"],
        rows=rows,
        source=ctx.catalog.cite("BASIC SYSTEMS"),
    )


# The tables a pilot is rolled on, as the roll log names them.
_LOG_TABLES = {"pilot-skills": "Pilot Skills", "quirk-check": "Quirk check", "quirks": "Quirk Table"}


def rolls_table(ctx: Context, rolls: Sequence[RollEntry]) -> Table:
    names: dict[str, str] = dict(_LOG_TABLES)
    for kind in ("enhancement_tables", "enhancements", "pilot_skills", "quirks", "scenario_tables"):
        names.update({i.id: i.name for i in ctx.catalog.kind(kind).values()})
    rows: list[list[Any]] = [
        [i + 1, names.get(r.table, r.table), r.roll, names.get(r.result, r.result), r.note] for i, r in enumerate(rolls)
    ]
    return Table(
        id="rolls",
        title="Roll log",
        columns=["#", "Table", "Roll", "Result", "Note"],
        rows=rows,
        source=ctx.catalog.cite("FIGHTER CONSTRUCTION"),
    )


def pilot_tables(ctx: Context, pilot: PilotData) -> list[Table]:
    counts: dict[str, int] = {}
    for sid in pilot.skills:
        counts[sid] = counts.get(sid, 0) + 1
    skills: list[list[Any]] = []
    for sid, n in counts.items():
        skill = ctx.catalog.item("pilot_skills", sid)
        skills.append([skill.name if skill else sid, n, getattr(skill, "notes", "")])
    quirks: list[list[Any]] = []
    for qid in pilot.quirks:
        quirk = ctx.catalog.item("quirks", qid)
        if isinstance(quirk, Quirk):
            quirks.append([quirk.name, f"{quirk.low}-{quirk.high}", quirk.description])
        else:
            quirks.append([qid, "", ""])
    totals: dict[tuple[str, str, str], tuple[int, list[str]]] = {}
    for source, eff in pilot_traits(pilot, ctx.catalog):
        key = (eff.trait, eff.condition, eff.who)
        value, parts = totals.get(key, (0, []))
        totals[key] = (value + eff.amount, [*parts, f"{source} {eff.amount:+d}"])
    modifiers: list[list[Any]] = []
    for (trait, condition, who), (value, parts) in totals.items():
        label = trait.replace("-", " ").capitalize()
        when = ", ".join(x for x in ("wingmen" if who == "wingmen" else "", condition) if x)
        modifiers.append([label, signed(value), when, ", ".join(parts)])
    return [
        Table(
            id="skills",
            title="Skills",
            columns=["Skill", "Levels", "Notes"],
            rows=skills,
            source=ctx.catalog.cite("PILOT SKILLS"),
        ),
        Table(
            id="quirks",
            title="Quirks",
            columns=["Quirk", "D100", "Description"],
            rows=quirks,
            source=ctx.catalog.cite("QUIRK TABLE"),
        ),
        Table(
            id="modifiers",
            title="Skill and quirk modifiers",
            columns=["Modifier", "Total", "When", "From"],
            rows=modifiers,
            source=ctx.catalog.cite("PILOT SKILLS; QUIRK TABLE"),
        ),
    ]
