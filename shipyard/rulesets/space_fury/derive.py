"""The figures and tables of a Space Fury report, computed after the rules ran.

A fighter's stat block follows from its basic systems and enhancements, a pilot's from
the Pilot Level Table, a force's from its members' reports. The first figure is always
``kind``: sheets tell a force's members apart by it. What the sheets tick and write in
during play (tracks and slots) comes from ``tracks``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from shipyard.core.model import Context
from shipyard.core.numberwords import count_of, quantity
from shipyard.core.report import Derived, Figure, Slot, Table, Track
from shipyard.rulesets.space_fury.catalog_lookup import level_for_xp, level_row, pilot_level, playing_row
from shipyard.rulesets.space_fury.counts import counted_figure, total
from shipyard.rulesets.space_fury.design import (
    FighterData,
    FighterDesign,
    ForceDesign,
    PilotData,
    PilotDesign,
    SpaceFuryDesign,
    fighter_of,
    force_pilots,
    pilots_of,
)
from shipyard.rulesets.space_fury.fighter import StatTotal, applied_effects, fighter_stats
from shipyard.rulesets.space_fury.items import BoostEffect, CostTable, cost_detail
from shipyard.rulesets.space_fury.params import CountCostParams, PilotSkillsParams
from shipyard.rulesets.space_fury.pilot import pilot_cool, pilot_traits, skills_allowed
from shipyard.rulesets.space_fury.tables import pilot_tables, rolls_table, systems_table, weapons_table
from shipyard.rulesets.space_fury.tracks import (
    SHIELDS_NOTE,
    fighter_tracks,
    force_parts,
    open_seat_slots,
    pilot_tracks,
    shield_hits,
)
from shipyard.rulesets.space_fury.wording import plural, signed


def _count_ids(ctx: Context) -> tuple[str, str]:
    """The counts the Fighter Cost rule names: the enhancements it looks the cost up by, and
    the total cost it counts in (the pilot's cost counts there too)."""
    rule = ctx.catalog.params(CountCostParams)
    return (rule.of, rule.count) if rule is not None else ("enhancements", "total-cost")


def _enhancements(ctx: Context) -> int:
    return total(ctx, _count_ids(ctx)[0])


def _total_cost(ctx: Context) -> int:
    return total(ctx, _count_ids(ctx)[1])


def _fighter_figures(ctx: Context, fighter: FighterData) -> list[Figure]:
    cite = ctx.catalog.cite
    figs: list[Figure] = []
    n = _enhancements(ctx)
    pub = fighter.published
    figs.append(counted_figure(ctx, _count_ids(ctx)[0], detail=f"published {pub.enhancements}" if pub else ""))
    if pub is not None:
        figs.append(
            Figure(
                id="published",
                label="Published enhancements",
                value=pub.enhancements,
                detail=pub.systems,
                source=cite("SAMPLE FIGHTER DESCRIPTIONS: HUMAN DESIGNS"),
            )
        )
    rule: CountCostParams | None = ctx.catalog.params(CountCostParams)
    table = ctx.catalog.item("cost_tables", rule.table) if rule else None
    if isinstance(table, CostTable):
        cost = table.cost(n)
        figs.append(
            Figure(
                id="cost",
                label="Cost",
                value=cost if cost is not None else "—",
                unit=table.unit,
                detail=cost_detail(table, n) if cost is not None else "beyond the table",
                source=cite(table.source),
            )
        )
    stats = fighter_stats(fighter, ctx.catalog)
    names = {s.id: s.name for s in ctx.catalog.meta.stats}
    pilot_mods = _pilot_fighter_mods(ctx, fighter)
    for stat in ("speed", "maneuver", "armor", "tohit"):
        total = stats.get(stat, StatTotal(0, [], []))
        detail = ", ".join(total.parts)
        if total.conditions:
            detail += " (" + "; ".join(total.conditions) + ")"
        if stat in pilot_mods:
            detail += f"; {pilot_mods[stat]}"
        figs.append(
            Figure(
                id=stat,
                label=names.get(stat, stat),
                value=total.value,
                detail=detail,
                source=cite("BASIC SYSTEMS"),
            )
        )
    det, rng = stats.get("detection"), stats.get("detection-range")
    if det is not None:
        figs.append(
            Figure(
                id="detection",
                label="Detection",
                value=f"1-{det.value}" if det.value > 0 else "none",
                unit="on D10",
                detail=f"cloaked fighters within {quantity(rng.value if rng else 0, 'hexes')}; " + ", ".join(det.parts),
                source=cite("2. DETECTION PHASE"),
            )
        )
    if rng is not None:
        figs.append(
            Figure(
                id="detection-range",
                label="Detection range",
                value=rng.value,
                unit="hexes",
                source=cite("2. DETECTION PHASE"),
            )
        )
    for stat, fig_id, label, unit in (
        ("seats", "seats", "Seats", ""),
        ("targets", "targets", "Targets", "per turn"),
        ("fuel-days", "fuel", "Fuel", "days"),
        ("oxygen-days", "oxygen", "Oxygen", "days"),
    ):
        if stat in stats:
            figs.append(
                Figure(
                    id=fig_id,
                    label=label,
                    value=stats[stat].value,
                    unit=unit,
                    detail=", ".join(stats[stat].parts) if len(stats[stat].parts) > 1 else "",
                    source=cite("BASIC SYSTEMS"),
                )
            )
    applied = applied_effects(fighter, ctx.catalog)
    shields = shield_hits(fighter, ctx.catalog)
    figs.append(
        Figure(
            id="shields",
            label="Deflector shields",
            value=shields,
            unit=plural("hit", shields),
            detail=SHIELDS_NOTE if shields else "",
            source=cite("PRIMARY ENHANCEMENTS TABLE"),
        )
    )
    for a in applied:
        eff = a.effect
        if isinstance(eff, BoostEffect):
            figs.append(
                Figure(
                    id=f"boost-{a.item.id}",
                    label=a.item.name,
                    value=a.times * eff.uses,
                    unit="uses",
                    detail=f"{names.get(eff.stat, eff.stat)} {eff.amount:+d} once a use; {eff.replace_cost} to replace",
                    source=cite("SPECIAL SYSTEMS TABLE"),
                )
            )
    if fighter.seed is not None or fighter.rolls:
        figs.append(
            Figure(
                id="rolled",
                label="Rolled",
                value=f"seed {fighter.seed}" if fighter.seed is not None else "by hand",
                detail=f"{len(fighter.rolls)} rolls on the tables",
                source=cite("FIGHTER CONSTRUCTION"),
            )
        )
    return figs


def _pilot_fighter_mods(ctx: Context, fighter: FighterData) -> dict[str, str]:
    """What the fighter's pilot adds to the fighter's figures in play, as a note."""
    if fighter.pilot is None:
        return {}
    out: dict[str, str] = {}
    traits = pilot_traits(fighter.pilot, ctx.catalog)
    skills_rule = ctx.catalog.params(PilotSkillsParams)
    for trait, stat in (skills_rule.on_fighter if skills_rule else {}).items():
        parts = [(e.amount, e.condition) for _, e in traits if e.trait == trait and e.who == "self"]
        amount = sum(a for a, _ in parts)
        if amount:
            when = "; ".join(sorted({c for _, c in parts if c}))
            out[stat] = f"pilot {trait.capitalize()} {amount:+d}" + (f" {when}" if when else "")
    return out


def _pilot_figures(ctx: Context, pilot: PilotData) -> list[Figure]:
    cite = ctx.catalog.cite
    level = pilot_level(ctx.catalog, pilot)
    reached = level_for_xp(ctx.catalog, pilot.xp)
    row = playing_row(ctx.catalog, level)
    nxt = level_row(ctx.catalog, reached + 1)
    how = f"from {pilot.xp} XP" if pilot.level is None else f"claimed; {pilot.xp} XP reaches level {reached}"
    cool, cool_how = pilot_cool(pilot, ctx.catalog)
    figs = [
        Figure(id="pilot", label="Pilot", value=pilot.name or "unnamed", source=cite("PILOT LEVEL TABLE")),
        Figure(id="level", label="Level", value=level, detail=how, source=cite("PILOT LEVEL TABLE")),
        Figure(
            id="xp",
            label="Experience",
            value=pilot.xp,
            unit="XP",
            detail=f"level {nxt.level} at {nxt.xp} XP" if nxt else "top of the table",
            source=cite("PILOT LEVEL TABLE"),
        ),
        Figure(
            id="reputation",
            label="Reputation",
            value=row.reputation if row else "—",
            source=cite("PILOT LEVEL TABLE"),
        ),
        Figure(id="cool", label="Cool", value=cool, detail=cool_how, source=cite("PILOT LEVEL TABLE")),
        Figure(
            id="skills-allowed",
            label="Skills",
            value=f"{len(pilot.skills)} of {skills_allowed(ctx.catalog, level)}",
            source=cite("PILOT LEVEL TABLE"),
        ),
        Figure(
            id="skill-list",
            label="Skill list",
            value=", ".join(
                f"{name} x{n}" if n > 1 else name for name, n in _counted(ctx, "pilot_skills", pilot.skills)
            ),
            source=cite("PILOT SKILLS"),
        ),
        Figure(
            id="quirk-list",
            label="Quirks",
            value=", ".join(name for name, _ in _counted(ctx, "quirks", pilot.quirks)) or "none",
            source=cite("QUIRK TABLE"),
        ),
        Figure(id="pilot-cost", label="Pilot cost", value=pilot.xp, unit="points", source=cite("FIGHTER CONSTRUCTION")),
    ]
    if pilot.seed is not None:
        figs.append(
            Figure(
                id="pilot-rolled",
                label="Pilot rolled",
                value=f"seed {pilot.seed}",
                detail=f"{len(pilot.rolls)} rolls",
                source=cite("PILOT SKILLS"),
            )
        )
    return figs


def _counted(ctx: Context, kind: str, ids: Sequence[str]) -> list[tuple[str, int]]:
    """(name, how many times) of each id, in first-seen order."""
    counts: dict[str, int] = {}
    for i in ids:
        counts[i] = counts.get(i, 0) + 1
    return [(getattr(ctx.catalog.item(kind, i), "name", i), n) for i, n in counts.items()]


def _force_derived(ctx: Context, force: ForceDesign) -> Derived:
    cite = ctx.catalog.cite
    members: list[tuple[str, Context]] = ctx.notes.get("members", [])
    rows: list[list[Any]] = []
    reserves: list[list[Any]] = []
    for name, mctx in members:
        fighter = fighter_of(mctx.design)
        if fighter is not None:
            stats = fighter_stats(fighter, ctx.catalog)
            pilot = fighter.pilot
            rows.append(
                [
                    name,
                    _enhancements(mctx),
                    _total_cost(mctx) - (pilot.xp if pilot else 0),
                    stats["speed"].value if "speed" in stats else "",
                    signed(stats["maneuver"].value) if "maneuver" in stats else "",
                    signed(stats["armor"].value) if "armor" in stats else "",
                    signed(stats["tohit"].value) if "tohit" in stats else "",
                    (pilot.name or "unnamed") if pilot else "—",
                    pilot_level(ctx.catalog, pilot) if pilot else "",
                    pilot_cool(pilot, ctx.catalog)[0] if pilot else "",
                    pilot.xp if pilot else "",
                    _total_cost(mctx),
                ]
            )
        root = getattr(mctx.design, "root", None)
        if isinstance(root, PilotDesign):
            reserves.append(
                [name, pilot_level(ctx.catalog, root), pilot_cool(root, ctx.catalog)[0], root.xp, _total_cost(mctx)]
            )
    levels_total = sum(pilot_level(ctx.catalog, p) for p in force_pilots(force))
    figs = [
        Figure(id="kind", label="Design", value="Force"),
        Figure(id="fighters", label="Fighters", value=len(force.fighters), source=cite("FIGHTER CONSTRUCTION")),
        Figure(id="pilots", label="Pilots", value=len(force_pilots(force)), source=cite("FIGHTER CONSTRUCTION")),
        Figure(
            id="pilot-levels",
            label="Pilot levels",
            value=levels_total,
            detail=f"of {count_of(force.pilot_levels, 'level')} worth of pilots"
            if force.pilot_levels is not None
            else "",
            source=cite("SAMPLE SCENARIOS: Skirmishes"),
        ),
    ]
    enhancements, cost = _count_ids(ctx)
    if any(fighter_of(mctx.design) is not None for _, mctx in members):
        figs.append(counted_figure(ctx, enhancements, detail="of the fighters"))
    figs.append(counted_figure(ctx, cost, detail="fighters + pilots"))
    tables = [
        Table(
            id="roster",
            title="Roster",
            columns=[
                "Fighter",
                "Enh.",
                "Cost",
                "Speed",
                "Man.",
                "Armor",
                "ToHit",
                "Pilot",
                "Level",
                "Cool",
                "XP",
                "Total",
            ],
            rows=rows,
            source=cite("FIGHTER CONSTRUCTION"),
        ),
        Table(
            id="reserves",
            title="Reserve pilots",
            columns=["Pilot", "Level", "Cool", "XP", "Cost"],
            rows=reserves,
            source=cite("FIGHTER CONSTRUCTION"),
        ),
    ]
    if force.rolls:
        tables.append(rolls_table(ctx, force.rolls))
    tracks, slots = force_parts(ctx, force)
    return Derived(figures=figs, tables=tables, tracks=tracks, slots=slots)


def derive(ctx: Context) -> Derived:
    """Figures and tables; the first figure is always ``kind`` (sheets tell a force's members apart by it)."""
    design: SpaceFuryDesign = ctx.design
    root = design.root
    if isinstance(root, ForceDesign):
        return _force_derived(ctx, root)
    figs: list[Figure] = []
    tables: list[Table] = []
    tracks: list[Track] = []
    slots: list[Slot] = []
    if isinstance(root, FighterDesign):
        figs.append(Figure(id="kind", label="Design", value="Fighter"))
        figs += _fighter_figures(ctx, root)
        tables += [weapons_table(ctx, root), systems_table(ctx, root)]
        tracks += fighter_tracks(ctx, figs)
        if root.pilot is None:
            slots += open_seat_slots()
        if root.rolls:
            tables.append(rolls_table(ctx, root.rolls))
    else:
        figs.append(Figure(id="kind", label="Design", value="Pilot"))
    pilots = pilots_of(design)
    for pilot, _ in pilots:
        figs += _pilot_figures(ctx, pilot)
        tables += pilot_tables(ctx, pilot)
        tracks += pilot_tracks(ctx, pilot, own_record=isinstance(root, PilotDesign))
        if pilot.rolls:
            log = rolls_table(ctx, pilot.rolls)
            tables.append(log.model_copy(update={"id": "pilot-rolls", "title": "Pilot roll log"}))
    if pilots or isinstance(root, FighterDesign):
        detail = "fighter + pilot" if pilots and isinstance(root, FighterDesign) else ""
        figs.append(counted_figure(ctx, _count_ids(ctx)[1], detail=detail))
    return Derived(figures=figs, tables=tables, tracks=tracks, slots=slots)
