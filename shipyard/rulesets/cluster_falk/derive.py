"""What a Cluster Falk report holds: figures, tracks, slots, actions and tables.

The builders here make each part from plain numbers (the rules in ``mechanisms`` pick the
numbers from the catalog and add the parts); :func:`derive` puts the record's own figures
first and the parts the rules worked out after them, with the record's lists as tables.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Collection, Sequence
from fractions import Fraction

from shipyard.core.model import Catalog, Context
from shipyard.core.numberwords import count_of, plural
from shipyard.core.report import Action, Box, Cell, Derived, Figure, Slot, Table, Track
from shipyard.rulesets.cluster_falk.design import Consequences, Design
from shipyard.rulesets.cluster_falk.items import (
    EQUIPMENT_NAMES,
    ConsequenceSlot,
    EngagementAction,
    HullEffect,
    SpecialWeapon,
    Stunt,
    Torpedo,
)
from shipyard.rulesets.cluster_falk.ship import Effective, ladder_word, parts, signed

Rows = list[list[Cell]]


# --- the record's own figures ------------------------------------------------------------------


def record_figures(catalog: Catalog, design: Design) -> list[Figure]:
    """Size, Scale, Speed, Tech Level, sensors and the four ratings, as the record gives them."""
    cite = catalog.cite
    figs = [
        Figure(id="size", label="Size", value=design.size, path="size", source=cite("Size")),
        Figure(
            id="scale",
            label="Scale",
            value=design.scale,
            detail="a torpedo" if design.scale == 0 else "",
            path="scale",
            source=cite("Torpedoes; Engagement Actions; Damage"),
        ),
        Figure(
            id="speed",
            label="Speed",
            value=design.speed,
            kind="ladder",
            word=ladder_word(catalog, design.speed),
            path="speed",
            source=cite("Closing to engage"),
        ),
        Figure(
            id="tech-level", label="Tech Level", value=design.tech_level, path="tech_level", source=cite("Detection")
        ),
        Figure(
            id="sensors",
            label="Sensor suite",
            value=design.sensors.capitalize(),
            kind="text",
            path="sensors",
            source=cite("Detection"),
        ),
    ]
    for rating in ("drives", "guns", "shields", "systems"):
        value = getattr(design.ratings, rating)
        stat = catalog.stat(rating)
        figs.append(
            Figure(
                id=rating,
                label=stat.name if stat is not None else rating.capitalize(),
                value=value,
                kind="ladder",
                word=ladder_word(catalog, value),
                detail="base rating; play degrades it (1 a shift of a Targeted attack)",
                path=f"ratings.{rating}",
                source=cite(stat.source if stat is not None else "Engagement Actions"),
            )
        )
    return figs


# --- skills -----------------------------------------------------------------------------------------


def skill_figure(eff: Effective, source: str) -> Figure:
    return Figure(
        id=f"skill.{eff.skill}",
        label=eff.name,
        value=eff.value,
        kind="percent",
        detail=f"{signed(eff.step)} on the ladder; {eff.how()}",
        path=f"skills.{eff.skill}",
        source=source,
    )


def skills_table(effective: Sequence[Effective], ai_default: int, percent_per_step: int, source: str) -> Table:
    rows: Rows = [
        [
            e.name,
            f"{e.ship}%" + ("" if e.rated else " (AI)"),
            f"{e.who}: {e.crew}%" if e.crew is not None else "",
            f"{e.value}%",
            signed(e.step),
            e.rolled_by(),
        ]
        for e in effective
    ]
    return Table(
        id="skills",
        title="Skills",
        columns=["Skill", "Ship", "Crew in position", "Effective", "Ladder", "Rolled by"],
        rows=rows,
        notes=f"A function the record does not rate is the AI's {ai_default}%; {percent_per_step}% is one ladder step.",
        source=source,
    )


def turrets_table(rows: Rows, source: str) -> Table:
    return Table(
        id="turrets",
        title="Turrets",
        columns=["Turret", "Gunner", "Military Training (Navy)"],
        rows=rows,
        notes="An unmanned turret fires at the AI's rating.",
        source=source,
    )


# --- stress and consequences --------------------------------------------------------------------


def stress_track(track_id: str, name: str, boxes: int, ticked: Collection[int], path: str, source: str) -> Track:
    """A stress track of valued boxes: box n absorbs n shifts; the boxes ticked in play marked."""
    return Track(
        id=f"stress.{track_id}",
        name=name,
        boxes=[
            Box(value=n, label=f"absorbs {count_of(n, 'shift')}", marked=n in ticked)
            for n in range(1, max(0, boxes) + 1)
        ],
        path=path,
        source=source,
    )


def consequence_slots(
    slots: Sequence[ConsequenceSlot], taken: Consequences, scale: int, catalog: Catalog
) -> list[Slot]:
    """One set of consequence slots for the ship; a slot above the ship's Scale is listed as
    unavailable, with the reason. Each carries what was written in it and the track."""
    out = []
    for item in slots:
        available = item.min_scale is None or scale >= item.min_scale
        filled = getattr(taken, item.id, None)
        out.append(
            Slot(
                id=f"consequences.{item.id}",
                name=item.name,
                value=item.value,
                text=filled.aspect if filled is not None else "",
                track=filled.track if filled is not None else "",
                available=available,
                reason="" if available else f"only at Scale {item.min_scale} or above; this ship is Scale {scale}",
                path=f"consequences.{item.id}",
                source=catalog.cite(item.source),
            )
        )
    return out


def consequence_figure(slots: Sequence[Slot], source: str) -> Figure:
    text = ", ".join(f"{s.name} {s.value}" for s in slots if s.available)
    return Figure(
        id="consequence-slots",
        label="Consequences",
        value=text,
        kind="text",
        detail="one set for the ship, each taken on the Hull or the Systems track",
        path="consequences",
        source=source,
    )


def stunt_damage_figure(needed: int, damaged: int, shifts_per_stunt: int, source: str) -> Figure:
    return Figure(
        id="stunts-to-damage",
        label="Stunts to damage",
        value=needed,
        detail=f"1 stunt per {count_of(shifts_per_stunt, 'shift')} of Systems consequences; {damaged} marked damaged",
        path="stunts",
        source=source,
    )


def fudge_chances(dice: int) -> dict[int, Fraction]:
    """The chance of each total of ``dice`` Fate dice (each -1, 0 or +1)."""
    totals = Counter(sum(roll) for roll in itertools.product((-1, 0, 1), repeat=dice))
    every = 3**dice
    return {total: Fraction(n, every) for total, n in totals.items()}


def hull_table(effects: Sequence[HullEffect], dice: int, gm_chooses: bool, source: str) -> Table:
    """The Hull consequence effects: a 4dF table with each row's chance, or a list the GM picks from."""
    ordered = sorted(effects, key=lambda e: -e.roll)
    if gm_chooses:
        return Table(
            id="hull-consequences",
            title="Hull consequences",
            columns=["Row", "Effect"],
            rows=[[signed(e.roll), e.effect] for e in ordered],
            notes="When a Hull consequence is filled, the GM chooses the row that fits the hit.",
            source=source,
        )
    chances = fudge_chances(dice)
    rows: Rows = [[signed(e.roll), e.effect, f"{float(chances.get(e.roll, 0)) * 100:.1f}%"] for e in ordered]
    return Table(
        id="hull-consequences",
        title="Hull consequences",
        columns=[f"{dice}dF", "Effect", "Chance"],
        rows=rows,
        notes=f"Roll {dice}dF when a Hull consequence is filled.",
        source=source,
    )


# --- handling, chase, engagement ----------------------------------------------------------------


def handling_figure(size: int, size_from: int, penalty: int, source: str) -> Figure:
    large = size >= size_from
    return Figure(
        id="handling-penalty",
        label="Handling on engagement",
        value=penalty if large else 0,
        detail=(
            f"Size {size} is {size_from} or above: {signed(penalty)} to Handling tests, whatever the Speed"
            if large
            else f"no penalty below Size {size_from}"
        ),
        path="size",
        source=source,
    )


def chase_figure(pilot: int, speed: int, percent_per_speed: int, source: str) -> Figure:
    bonus = speed * percent_per_speed
    return Figure(
        id="chase",
        label="Chase roll",
        value=pilot + bonus,
        kind="percent",
        detail=f"Pilot {pilot}% + Speed {signed(speed)} x {percent_per_speed}% = {bonus:+d}%",
        path="speed",
        source=source,
    )


def engagement_table(pilot: int, divisor: int, down: int, source: str) -> Table:
    return Table(
        id="engagement-ladder",
        title="Engagement ladder",
        columns=["When", "What happens"],
        rows=[
            ["Entering", f"roll Pilot ({pilot}%): the result / {divisor} is your level"],
            [
                "Each turn's end",
                f"every combatant moves {count_of(down, 'level')} down, unless the turn says otherwise",
            ],
            ["Off the bottom", "out of engagement range; close to engage again (Pilot vs Pilot)"],
        ],
        source=source,
    )


def level_track(top: int, source: str) -> Track:
    """The engagement ladder's levels, top first, to mark where the ship stands."""
    return Track(
        id="engagement.level",
        name="Level",
        boxes=[Box(value=n, label=f"level {n}") for n in range(top, -1, -1)],
        source=source,
        notes="mark the ship's level",
    )


def engagement_actions(
    actions: Sequence[EngagementAction],
    scale: int,
    have: set[str],
    half_turn: dict[str, str],
    roll: dict[str, str],
    gunners: int,
    catalog: Catalog,
) -> list[Action]:
    """Every standard action with whether this ship may take it, and why not.

    ``half_turn`` names the undamaged stunt that cuts an action to half a turn, ``roll`` the
    figures' values by id (for the roll it is made from), ``gunners`` how often a turn an
    action limited to one per gunner or turret may be taken.
    """
    out = []
    for a in actions:
        why = []
        if a.scale_max is not None and scale > a.scale_max:
            why.append(f"only up to Scale {a.scale_max}; this ship is Scale {scale}")
        if a.scale_min is not None and scale < a.scale_min:
            why.append(f"only at Scale {a.scale_min} or above; this ship is Scale {scale}")
        missing = [r for r in a.requires if r not in have]
        if "hangar" in missing and "craft" in missing:
            missing.remove("craft")  # no hangar: no craft in it, said once
        why += [f"needs {EQUIPMENT_NAMES[r]}" for r in missing]
        details: dict[str, Cell] = {
            "skill": a.skill,
            "turn": "half turn" if a.id in half_turn else a.turn,
            "roll": " · ".join(roll[u] for u in a.uses if u in roll),
            "effect": a.effect,
        }
        notes = [
            f"modified by {a.modified_by}" if a.modified_by else "",
            f"half a turn with {half_turn[a.id]}" if a.id in half_turn else "",
            a.target,
            a.needs,
        ]
        if a.per_turn == "gunner-or-turret":
            notes.append(f"{gunners} a turn (once per gunner or turret)")
        details["notes"] = "; ".join(n for n in notes if n)
        out.append(
            Action(
                id=a.id,
                name=a.name,
                allowed=not why,
                reason="; ".join(why),
                group=a.group,
                details=details,
                source=catalog.cite(a.source),
            )
        )
    return out


# --- jumps and fuel -------------------------------------------------------------------------------


def jump_figures(
    hyperdrive: bool, drives: int, parsecs_per_drives: int, fuel_per_jump_percent: int, source: str
) -> list[Figure]:
    if not hyperdrive:
        return [
            Figure(
                id="jump-range",
                label="Jump range",
                value=0,
                unit="parsecs",
                detail="no hyperdrive",
                path="hyperdrive",
                source=source,
            )
        ]
    parsecs = max(0, drives) * parsecs_per_drives
    return [
        Figure(
            id="jump-range",
            label="Jump range",
            value=parsecs,
            unit=plural("parsec", parsecs),  # "1 parsec", "4 parsecs"
            detail=f"{count_of(parsecs_per_drives, 'parsec')} a Drives point (Drives {signed(drives)})",
            path="ratings.drives",
            source=source,
        ),
        Figure(
            id="jumps-per-tank",
            label="Jumps a full tank",
            value=100 // fuel_per_jump_percent,
            detail=f"a jump uses {fuel_per_jump_percent}% of the fuel reserves",
            path="hyperdrive",
            source=source,
        ),
    ]


def fuel_track(jumps: int, source: str) -> Track:
    return Track(
        id="fuel",
        name="Fuel",
        boxes=[Box(label=f"jump {n}") for n in range(1, jumps + 1)],
        path="hyperdrive",
        source=source,
        notes="a box a jump",
    )


def hyperspace_table(
    navigate: int,
    success_per_parsec: int,
    lane: Sequence[int],
    planet_diameters: int,
    rounds: int,
    duration: str,
    fuel_percent: int,
    source: str,
) -> Table:
    lanes = " or ".join(str(n) for n in lane)
    return Table(
        id="hyperspace",
        title="Hyperspace jumps",
        columns=["", "Rule"],
        rows=[
            ["Success", f"+{success_per_parsec} a parsec; a hyperspace lane: {lanes} less"],
            ["Calculations", f"Navigate {navigate}%, {rounds}+ {plural('round', rounds)}, again after each jump"],
            ["Departure", f"{planet_diameters}+ diameters from any planet or planetoid"],
            ["Duration", duration],
            ["Fuel", f"{fuel_percent}% of the reserves a jump"],
        ],
        source=source,
    )


# --- torpedoes --------------------------------------------------------------------------------------


def torpedo_parts(
    loads: Sequence[tuple[Torpedo, int, str]], percent_per_step: int, catalog: Catalog, source: str
) -> tuple[Table, list[Track]]:
    """The loads' mini stat blocks (Pilot on the ladder and as a percentage) and a track of
    tick boxes for each load."""
    rows: Rows = []
    tracks = []
    for i, (torpedo, count, path) in enumerate(loads):
        stunts = [catalog.item("stunts", s) for s in torpedo.stunts]
        rows.append(
            [
                torpedo.name,
                count,
                torpedo.scale,
                f"{signed(torpedo.pilot)} ({torpedo.pilot * percent_per_step}%)",
                signed(torpedo.drives),
                ", ".join(s.name for s in stunts if s is not None),
                signed(torpedo.damage),
            ]
        )
        tracks.append(
            Track(
                id=f"torpedoes.{i}",
                name=torpedo.name,
                boxes=[Box(label="fired") for _ in range(count)],
                path=path,
                source=source,
                notes="tick one a launch",
            )
        )
    table = Table(
        id="torpedoes",
        title="Torpedoes",
        columns=["Torpedo", "Loaded", "Scale", "Pilot", "Drives", "Stunts", "Damage"],
        rows=rows,
        source=source,
    )
    return table, tracks


# --- the record's lists -------------------------------------------------------------------------


def item_name(catalog: Catalog, kind: str, item_id: str) -> str:
    item = catalog.item(kind, item_id)
    return item.name if item is not None else item_id


def record_tables(catalog: Catalog, design: Design) -> list[Table]:
    """The stunts (with their text and damaged mark), crew, special weapons and hangar."""
    cite = catalog.cite
    stunts: Rows = []
    for s in design.stunts:
        item = catalog.item("stunts", s.id) if s.id else None
        name = item.name if item is not None else (s.name or "")
        text = item.text if isinstance(item, Stunt) else s.text
        stunts.append([name, text, "damaged" if s.damaged else ""])
    crew: Rows = []
    for m in design.crew:
        # a turret's name is no catalog id: item_name gives it back as it is
        where = "aboard, at no station" if m.station is None else item_name(catalog, "stations", m.station)
        skills = ", ".join(f"{item_name(catalog, 'crew_skills', k)} {v}%" for k, v in m.skills.items())
        crew.append([m.name, where, skills])
    weapons: Rows = []
    for w in design.special_weapons:
        item = catalog.item("special_weapons", w.id) if w.id else None
        weapons.append(
            [
                item.name if item is not None else (w.name or ""),
                item.text if isinstance(item, SpecialWeapon) else w.text,
            ]
        )
    tables = [
        Table(
            id="stunts",
            title="Stunts",
            columns=["Stunt", "Text", "State"],
            rows=stunts,
            source=cite("Damage"),
            state_column="State",
        ),
        Table(
            id="crew",
            title="Crew",
            columns=["Crew member", "Station", "Skills"],
            rows=crew,
            source=cite("Ship Skills and Crew Skills"),
        ),
        Table(
            id="special-weapons",
            title="Special weapons",
            columns=["Weapon", "What it does"],
            rows=weapons,
            source=cite("Engagement Actions (Special weapon)"),
        ),
    ]
    if design.hangar is not None:
        tables.append(
            Table(
                id="hangar",
                title="Hangar",
                columns=["Craft", "Carried"],
                rows=[[c.name, c.count] for c in design.hangar.craft],
                source=cite("Engagement Actions (Launch)"),
            )
        )
    return tables


def derive(ctx: Context) -> Derived:
    """The record's figures first, then what the rules worked out, then the record's lists."""
    design: Design = ctx.design
    found = parts(ctx)
    return Derived(
        figures=[*record_figures(ctx.catalog, design), *found.figures],
        tables=[*found.tables, *record_tables(ctx.catalog, design)],
        tracks=list(found.tracks),
        slots=list(found.slots),
        actions=list(found.actions),
    )
