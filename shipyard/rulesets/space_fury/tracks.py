"""What a Space Fury sheet ticks and writes in during play, as the report's tracks and slots.

A fighter: its deflector shields (a box a hit each shield absorbs), the uses of each boost
system, its accumulated structural damage and the critical damage it took (a box for each
row of the Critical Damage Table). A pilot: its rerolls (a level of Luck is one a battle)
and, on its own record, its experience up the Pilot Level Table. A fighter without a
pilot: the lines to write one in. A force: each fighter's shields, damage and notes in
battle, at its place in the force (``fighters.0.damage``).
"""

from __future__ import annotations

from shipyard.core.items import Chart
from shipyard.core.model import Catalog, Context
from shipyard.core.report import Figure, Slot, Track, box
from shipyard.rulesets.space_fury.catalog_lookup import levels
from shipyard.rulesets.space_fury.design import FighterData, ForceData, PilotData
from shipyard.rulesets.space_fury.fighter import applied_effects
from shipyard.rulesets.space_fury.items import ShieldEffect
from shipyard.rulesets.space_fury.pilot import pilot_traits

# Accumulated structural damage (+1 minor, +2 moderate): the rules set no limit, so every
# sheet and card offers the same ten boxes.
DAMAGE_BOXES = 10
SHIELDS_NOTE = "absorb 1 hit each, then blown"


def shield_hits(fighter: FighterData, catalog: Catalog) -> int:
    """The hits the fighter's deflector shields absorb, one each."""
    applied = applied_effects(fighter, catalog)
    return sum(a.times * a.effect.hits for a in applied if isinstance(a.effect, ShieldEffect))


def _shields(ctx: Context, hits: int, track_id: str = "shields") -> Track:
    return Track(
        id=track_id,
        name="Deflector shields",
        boxes=[box(label=f"shield {n}") for n in range(1, hits + 1)],
        source=ctx.catalog.cite("PRIMARY ENHANCEMENTS TABLE"),
        notes=SHIELDS_NOTE,
    )


def _damage(ctx: Context, track_id: str = "damage") -> Track:
    return Track(
        id=track_id,
        name="Accumulated structural damage",
        boxes=[box(label=f"+{n}") for n in range(1, DAMAGE_BOXES + 1)],
        source=ctx.catalog.cite("DAMAGE ROLL MODIFIERS"),
        notes="+1 minor, +2 moderate; added to the next damage roll",
    )


def fighter_tracks(ctx: Context, figures: list[Figure]) -> list[Track]:
    """Shields, each boost system's uses, damage and criticals, from the fighter's figures."""
    by_id = {f.id: f for f in figures}
    shields = by_id.get("shields")
    tracks = [_shields(ctx, int(shields.value) if shields else 0)]
    for f in figures:
        if f.id.startswith("boost-"):
            tracks.append(
                Track(
                    id=f"boosts.{f.id.removeprefix('boost-')}",
                    name=f.label,
                    boxes=[box(label=f"use {n}") for n in range(1, int(f.value) + 1)],
                    source=f.source,
                    notes=f.detail,
                )
            )
    tracks.append(_damage(ctx))
    chart = ctx.catalog.item("charts", "critical-damage")
    if isinstance(chart, Chart):
        tracks.append(
            Track(
                id="criticals",
                name=chart.name,
                boxes=[box(label=row[1] if len(row) > 1 else row[0]) for row in chart.rows],
                source=ctx.catalog.cite(chart.source),
                notes="damage roll 9+",
            )
        )
    return tracks


def pilot_tracks(ctx: Context, pilot: PilotData, own_record: bool) -> list[Track]:
    """The pilot's rerolls; on its own record, its experience too (the boxes of each
    level's experience labelled with the level)."""
    rerolls = sum(e.amount for _, e in pilot_traits(pilot, ctx.catalog) if e.trait == "luck" and e.who == "self")
    tracks = []
    if rerolls > 0:
        tracks.append(
            Track(
                id="rerolls",
                name="Rerolls",
                boxes=[box(label=f"reroll {n}") for n in range(1, rerolls + 1)],
                path="skills",
                source=ctx.catalog.cite("PILOT SKILLS"),
                notes="a level of Luck: reroll any 1 die roll during a battle",
            )
        )
    table = levels(ctx.catalog)
    if own_record and table:
        marks = {row.xp: row.level for row in table}
        tracks.append(
            Track(
                id="xp",
                name="Experience",
                boxes=[
                    box(value=n, label=f"level {marks[n]}" if n in marks else "", marked=n <= pilot.xp)
                    for n in range(1, max(marks) + 1)
                ],
                path="xp",
                source=ctx.catalog.cite("PILOT LEVEL TABLE"),
                notes="labelled boxes: the experience each level needs",
            )
        )
    return tracks


def open_seat_slots() -> list[Slot]:
    """The write-ins of a fighter that has no pilot yet."""
    lines = [
        ("name", "Name"),
        ("level", "Level / XP / Reputation"),
        ("cool", "Cool"),
        ("skills", "Skills (first: Basic Combat Pilot)"),
        ("quirks", "Quirks"),
    ]
    return [Slot(id=f"pilot.{key}", name=name, path="pilot") for key, name in lines]


def force_parts(ctx: Context, force: ForceData) -> tuple[list[Track], list[Slot]]:
    """Each fighter's shields, damage and notes in battle (the roster's In battle table)."""
    tracks: list[Track] = []
    slots: list[Slot] = []
    for i, fighter in enumerate(force.fighters):
        place = f"fighters.{i}"
        tracks += [
            _shields(ctx, shield_hits(fighter, ctx.catalog), f"{place}.shields").model_copy(
                update={"name": f"{fighter.name}: deflector shields", "path": place}
            ),
            _damage(ctx, f"{place}.damage").model_copy(
                update={"name": f"{fighter.name}: structural damage", "path": place}
            ),
        ]
        slots.append(Slot(id=f"{place}.notes", name=f"{fighter.name}: criticals, panic", path=place))
    return tracks, slots
