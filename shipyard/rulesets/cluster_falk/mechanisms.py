"""The mechanisms of The Cluster Falk, each a typed rule the catalog names.

A ship is described, not bought: each rule checks the record against one passage of the
text and adds what that passage derives (who rolls which skill, the stress tracks, the
consequence slots, the actions the ship may take, handling, jumps and fuel) to the
evaluation's report parts (``ship.parts``); the builders of those parts are in ``derive``.

The numbers that belong to a *pair* of ships, the Size advantage and the detection
modifier, are pure functions of two ships' records at the end of this module.
"""

import math
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from shipyard.core.findings import Severity
from shipyard.core.model import Catalog, Context, Params, RuleType
from shipyard.core.numberwords import count_of
from shipyard.rulesets.cluster_falk.derive import (
    Rows,
    chase_figure,
    consequence_figure,
    consequence_slots,
    engagement_actions,
    engagement_table,
    fuel_track,
    handling_figure,
    hull_table,
    hyperspace_table,
    item_name,
    jump_figures,
    level_track,
    skill_figure,
    skills_table,
    stress_track,
    stunt_damage_figure,
    torpedo_parts,
    turrets_table,
)
from shipyard.rulesets.cluster_falk.design import Design
from shipyard.rulesets.cluster_falk.items import (
    EQUIPMENT_NAMES,
    ConsequenceSlot,
    DetectionModifier,
    EngagementAction,
    Equipment,
    HullEffect,
    SizeAdvantage,
    Stunt,
    Torpedo,
)
from shipyard.rulesets.cluster_falk.ship import (
    Effective,
    Seat,
    effective_skill,
    equipment,
    parts,
    rated,
    seats,
    ship_skill_items,
    station_item,
    turret_gunnery,
)

# --- Ship Skills and Crew Skills ------------------------------------------------------------------


class ShipSkillsParams(Params):
    ai_default: int = Field(ge=0, le=100, description="what the AI rolls for a function the record does not rate")
    min_percent: int = Field(ge=0)
    max_percent: int = Field(ge=1)
    percent_per_step: int = Field(ge=1, description="how many percent make one step of the ladder")
    code: str = "skill-out-of-range"
    severity: Severity = Severity.ERROR


def skills_params(catalog: Catalog) -> ShipSkillsParams:
    p = catalog.params(ShipSkillsParams)
    if p is None:
        raise LookupError(f"ruleset {catalog.meta.id!r} has no ship-skills rule")
    return p


def effective_skills(ctx: Context) -> dict[str, Effective]:
    """Every ship function's effective skill, worked out once an evaluation."""
    found = ctx.notes.get("effective-skills")
    if isinstance(found, dict):
        return found
    p = skills_params(ctx.catalog)
    out = {
        s.id: effective_skill(ctx.catalog, ctx.design, s, p.ai_default, p.percent_per_step)
        for s in ship_skill_items(ctx.catalog)
    }
    ctx.notes["effective-skills"] = out
    return out


def apply_ship_skills(ctx: Context, p: ShipSkillsParams) -> None:
    """Ship and crew skills are percentages from 0 to 100; each function's effective skill is
    the ship's (the AI's, unless the record rates it) or that of the crew member in position,
    the higher, and for Pilot the pilot in position always counts."""
    design: Design = ctx.design

    def check(path: str, name: str, value: int) -> None:
        if not p.min_percent <= value <= p.max_percent:
            ctx.findings.add(
                p.severity,
                p.code,
                f"{name} {value}% is outside {p.min_percent}..{p.max_percent}%",
                path=path,
                actual=value,
                limit=[p.min_percent, p.max_percent],
                rule=p.id,
                source=ctx.catalog.cite(p.source),
            )

    for skill_id, value in design.skills.items():
        check(f"skills.{skill_id}", f"the ship's {item_name(ctx.catalog, 'ship_skills', skill_id)}", value)
    for i, member in enumerate(design.crew):
        for skill_id, value in member.skills.items():
            name = item_name(ctx.catalog, "crew_skills", skill_id)
            check(f"crew[{i}].skills.{skill_id}", f"{member.name}'s {name}", value)
    effective = list(effective_skills(ctx).values())
    src = ctx.catalog.cite(p.source)
    out = parts(ctx)
    out.figures += [skill_figure(e, src) for e in effective]
    out.tables.append(skills_table(effective, p.ai_default, p.percent_per_step, src))


# --- crew at their stations -----------------------------------------------------------------------


class CrewStationsParams(Params):
    unmanned_code: str = "station-unmanned"
    gunners_code: str = "more-gunners-than-turrets"
    turret_code: str = "turret-crew-mismatch"
    severity: Severity = Severity.WARNING


def apply_crew_stations(ctx: Context, p: CrewStationsParams) -> None:
    """A turret takes one gunner; a turret marked unmanned has nobody in it; a station
    nobody sits at, for functions the ship has no AI for (0%), is manned by no one."""
    design: Design = ctx.design
    eff = effective_skills(ctx)
    taken = seats(design)
    for i, station_id in enumerate(design.stations):
        station = station_item(ctx.catalog, station_id)
        if station is None or not station.serves or any(s.station == station_id for s in taken):
            continue
        no_ai = [eff[s].name for s in station.serves if s in eff and eff[s].ship == 0]
        if len(no_ai) == len(station.serves):
            ctx.findings.add(
                p.severity,
                p.unmanned_code,
                f"nobody sits at the {station.name}, and the ship has no AI for {', '.join(no_ai)} (0%)",
                path=f"stations[{i}]",
                actual=0,
                limit="a crew member, or a ship skill above 0%",
                rule=p.id,
                source=ctx.catalog.cite(p.source),
            )
    gunnery_skill = next((s for s in ship_skill_items(ctx.catalog) if s.from_turrets), None)
    gunnery = eff.get(gunnery_skill.id) if gunnery_skill is not None else None
    ai = gunnery.ship if gunnery is not None else 0
    rows: Rows = []
    at_turret: dict[int, list[Seat]] = {}
    for seat in taken:
        if seat.turret is not None:
            at_turret.setdefault(seat.turret, []).append(seat)
    for t, turret in enumerate(design.turrets):
        gunners = at_turret.get(t, [])
        if len(gunners) > 1:
            names = ", ".join(design.crew[s.member].name for s in gunners)
            ctx.findings.add(
                p.severity,
                p.gunners_code,
                f"{len(gunners)} gunners ({names}) sit at the {turret.name}; a turret takes one",
                path=f"crew[{gunners[1].member}].station",
                actual=len(gunners),
                limit=1,
                rule=p.id,
                source=ctx.catalog.cite(p.source),
            )
        if gunners and not turret.crewed:
            ctx.findings.add(
                p.severity,
                p.turret_code,
                f"{design.crew[gunners[0].member].name} sits at the {turret.name}, which is marked unmanned",
                path=f"turrets[{t}].crewed",
                actual=False,
                limit=True,
                rule=p.id,
                source=ctx.catalog.cite(p.source),
            )
        if not gunners and not turret.crewed and ai == 0:
            ctx.findings.add(
                p.severity,
                p.unmanned_code,
                f"the {turret.name} is unmanned and the ship has no AI gunnery (0%): it cannot fire",
                path=f"turrets[{t}].crewed",
                actual=0,
                limit="a gunner, or a ship skill above 0%",
                rule=p.id,
                source=ctx.catalog.cite(p.source),
            )
        value, who = turret_gunnery(ctx.catalog, design, t, ai, gunnery_skill, gunners)
        rows.append([turret.name, who, f"{value}%"])
    if rows:
        parts(ctx).tables.append(turrets_table(rows, ctx.catalog.cite(p.source)))


# --- equipment a record claims ----------------------------------------------------------------------


class EquipmentClaimsParams(Params):
    codes: dict[Equipment, str] = Field(description="the finding code for each piece of equipment claimed")
    severity: Severity = Severity.ERROR


def apply_equipment_claims(ctx: Context, p: EquipmentClaimsParams) -> None:
    """A station or stunt that is for firing a special weapon, launching craft or jumping
    claims an action the ship may only take with the equipment for it."""
    design: Design = ctx.design
    have = equipment(design)
    claims: list[tuple[str, str, Equipment]] = []
    for i, station_id in enumerate(design.stations):
        station = station_item(ctx.catalog, station_id)
        if station is not None and station.requires is not None:
            claims.append((f"stations[{i}]", f"the {station.name}", station.requires))
    for i, choice in enumerate(design.stunts):
        stunt = ctx.catalog.item("stunts", choice.id) if choice.id else None
        if isinstance(stunt, Stunt) and stunt.requires is not None:
            claims.append((f"stunts[{i}].id", f"the stunt {stunt.name}", stunt.requires))
    for path, what, needs in claims:
        if needs not in have:
            ctx.findings.add(
                p.severity,
                p.codes.get(needs, f"{needs}-missing"),
                f"{what} is for a ship with {EQUIPMENT_NAMES[needs]}; this one has none",
                path=path,
                actual=False,
                limit=EQUIPMENT_NAMES[needs],
                rule=p.id,
                source=ctx.catalog.cite(p.source),
            )


# --- Damage: stress and consequences ------------------------------------------------------------------


class TrackDef(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z][a-z0-9-]*$")
    name: str
    stat: str = Field(description="the stat holding the track's length")


class StressTracksParams(Params):
    tracks: list[TrackDef] = Field(min_length=1)
    code: str = Field(default="stress-box-not-on-track", description="a ticked box the track does not have")
    severity: Severity = Severity.ERROR


def apply_stress_tracks(ctx: Context, p: StressTracksParams) -> None:
    """Each stress track has the record's number of boxes; box n absorbs n shifts. The boxes
    ticked in play are marked; a tick on a box the track does not have (the track made
    shorter after it was ticked, a file written by hand) is an error at that tick, as the
    sheet has no box to show it in."""
    design: Design = ctx.design
    out = parts(ctx)
    for track in p.tracks:
        boxes = int(ctx.view.stats.get(track.stat, 0))
        ticked = design.stress.ticked(track.id)
        for i, n in enumerate(ticked):
            if n > boxes:
                ctx.findings.add(
                    p.severity,
                    p.code,
                    f"{track.name} stress box {n} is ticked, but the {track.name} track has {count_of(boxes, 'box')}",
                    path=f"stress.{track.id}_ticked[{i}]",
                    actual=n,
                    limit=boxes,
                    rule=p.id,
                    source=ctx.catalog.cite(p.source),
                )
        out.tracks.append(
            stress_track(track.id, track.name, boxes, ticked, ctx.stat_path(track.stat), ctx.catalog.cite(p.source))
        )


class ConsequenceParams(Params):
    code: str = "consequence-not-available"
    severity: Severity = Severity.ERROR


def consequence_items(catalog: Catalog) -> list[ConsequenceSlot]:
    return [i for i in catalog.kind("consequences").values() if isinstance(i, ConsequenceSlot)]


def apply_consequence_ladder(ctx: Context, p: ConsequenceParams) -> None:
    """One set of consequence slots for the ship (Mild 2, Moderate 4, Serious 6), plus the
    Extreme 8 only at Scale 6 or above; a consequence filled in a slot the ship lacks is an error."""
    design: Design = ctx.design
    items = consequence_items(ctx.catalog)
    slots = consequence_slots(items, design.consequences, design.scale, ctx.catalog)
    for item, slot in zip(items, slots, strict=True):
        if slot.text and not slot.available:
            ctx.findings.add(
                p.severity,
                p.code,
                f"the {slot.name} consequence slot holds {slot.text!r}, but it is {slot.reason}",
                path=slot.path,
                actual=design.scale,
                limit=item.min_scale,
                rule=p.id,
                source=ctx.catalog.cite(p.source),
            )
    out = parts(ctx)
    out.slots += slots
    out.figures.append(consequence_figure(slots, ctx.catalog.cite(p.source)))


class StuntDamageParams(Params):
    shifts_per_stunt: int = Field(ge=1)
    code: str = "stunts-not-damaged"
    severity: Severity = Severity.WARNING


def stunts_to_damage(design: Design, catalog: Catalog, shifts_per_stunt: int) -> int:
    """How many stunts the Systems consequences taken damage: their shifts, a stunt per
    ``shifts_per_stunt`` (rounded up), at most the stunts the ship has."""
    shifts = 0
    for item in consequence_items(catalog):
        taken = getattr(design.consequences, item.id, None)
        if taken is not None and taken.track == "systems":
            shifts += item.value
    return min(len(design.stunts), math.ceil(shifts / shifts_per_stunt))


def apply_systems_consequence_damage(ctx: Context, p: StuntDamageParams) -> None:
    """ "Each Consequence box filled for Systems does a corresponding amount of damage to
    Systems stunts": a stunt per ``shifts_per_stunt`` shifts should be marked damaged."""
    design: Design = ctx.design
    needed = stunts_to_damage(design, ctx.catalog, p.shifts_per_stunt)
    damaged = sum(1 for s in design.stunts if s.damaged)
    if damaged < needed:
        ctx.findings.add(
            p.severity,
            p.code,
            f"the Systems consequences taken damage {needed} stunt{'s' if needed != 1 else ''}; "
            f"{damaged} marked damaged",
            path="stunts",
            actual=damaged,
            limit=needed,
            rule=p.id,
            source=ctx.catalog.cite(p.source),
        )
    parts(ctx).figures.append(stunt_damage_figure(needed, damaged, p.shifts_per_stunt, ctx.catalog.cite(p.source)))


class HullTableParams(Params):
    dice: int = Field(ge=1, le=8, description="Fate dice rolled for a Hull consequence's effect")
    gm_chooses: bool = Field(description="the GM picks the row instead of rolling")


def apply_hull_consequence_table(ctx: Context, p: HullTableParams) -> None:
    """The Hull consequence effects from +4 to -4, as a 4dF table (or the GM's choice)."""
    effects = [i for i in ctx.catalog.kind("hull_effects").values() if isinstance(i, HullEffect)]
    parts(ctx).tables.append(hull_table(effects, p.dice, p.gm_chooses, ctx.catalog.cite(p.source)))


# --- Size, chase, engagement ------------------------------------------------------------------------


class SizeHandlingParams(Params):
    size_from: int = Field(ge=0)
    penalty: int = Field(le=0)


def apply_size_handling(ctx: Context, p: SizeHandlingParams) -> None:
    """Ships of Size 10 or above take -2 to Handling tests on engagement."""
    design: Design = ctx.design
    parts(ctx).figures.append(handling_figure(design.size, p.size_from, p.penalty, ctx.catalog.cite(p.source)))


class ChaseParams(Params):
    percent_per_speed: int = Field(ge=0)


def apply_chase(ctx: Context, p: ChaseParams) -> None:
    """A chase is Pilot vs Pilot, each adding its ship's Speed to the percentage roll."""
    design: Design = ctx.design
    pilot = effective_skills(ctx).get("pilot")
    parts(ctx).figures.append(
        chase_figure(pilot.value if pilot else 0, design.speed, p.percent_per_speed, ctx.catalog.cite(p.source))
    )


class EngagementLadderParams(Params):
    position_divisor: int = Field(ge=1)
    levels_down_per_turn: int = Field(ge=0)


def apply_engagement_ladder(ctx: Context, p: EngagementLadderParams) -> None:
    """Entering an engagement: a Pilot roll, divided by 10, is the ship's level; every turn
    ends one level down."""
    pilot = effective_skills(ctx).get("pilot")
    src = ctx.catalog.cite(p.source)
    out = parts(ctx)
    out.tables.append(engagement_table(pilot.value if pilot else 0, p.position_divisor, p.levels_down_per_turn, src))
    out.tracks.append(level_track(skills_params(ctx.catalog).max_percent // p.position_divisor, src))


class EngagementActionsParams(Params):
    decoys_without_turrets: int = Field(ge=0, description="how often a ship without turrets fires decoys a turn")


def action_rolls(ctx: Context) -> dict[str, str]:
    """What each figure an action's roll is made from says: "Pilot 65%", "Guns Good (+3)"."""
    design: Design = ctx.design
    rolls = {f"skill.{e.skill}": f"{e.name} {e.value}%" for e in effective_skills(ctx).values()}
    for rating in ("drives", "guns", "shields", "systems"):
        rolls[rating] = f"{ctx.stat_name(rating)} {rated(ctx.catalog, getattr(design.ratings, rating))}"
    return rolls


def apply_engagement_actions(ctx: Context, p: EngagementActionsParams) -> None:
    """The standard engagement actions, each with whether this ship may take it: Desperate
    attack and Full defense up to Scale 3, Return fire and Fire decoys from Scale 3, Point
    defense from Scale 4, Special weapon, Launch and Jump only with the equipment."""
    design: Design = ctx.design
    actions = [i for i in ctx.catalog.kind("actions").values() if isinstance(i, EngagementAction)]
    have = equipment(design)
    half_turn: dict[str, str] = {}
    for choice in design.stunts:
        stunt = ctx.catalog.item("stunts", choice.id) if choice.id else None
        if isinstance(stunt, Stunt) and not choice.damaged and (stunt.requires is None or stunt.requires in have):
            for action_id in stunt.half_turn:
                half_turn[action_id] = stunt.name
    gunners = len(design.turrets) or p.decoys_without_turrets
    parts(ctx).actions += engagement_actions(
        actions, design.scale, have, half_turn, action_rolls(ctx), gunners, ctx.catalog
    )


# --- Hyperspace Jumps ------------------------------------------------------------------------------


class HyperspaceParams(Params):
    parsecs_per_drives: int = Field(ge=1)
    success_per_parsec: int = Field(ge=1)
    lane_difficulty: list[int] = Field(min_length=1)
    planet_diameters: int = Field(ge=0)
    calculation_rounds: int = Field(ge=0)
    duration: str
    fuel_per_jump_percent: int = Field(ge=1, le=100)


def apply_hyperspace_jumps(ctx: Context, p: HyperspaceParams) -> None:
    """1 parsec of jump a Drives point; an n-parsec jump needs a +n success; a jump uses half
    the fuel. A ship without a hyperdrive has no jump range and no fuel track."""
    design: Design = ctx.design
    src = ctx.catalog.cite(p.source)
    out = parts(ctx)
    out.figures += jump_figures(
        design.hyperdrive, design.ratings.drives, p.parsecs_per_drives, p.fuel_per_jump_percent, src
    )
    if design.hyperdrive:
        navigate = effective_skills(ctx).get("navigate")
        out.tracks.append(fuel_track(100 // p.fuel_per_jump_percent, src))
        out.tables.append(
            hyperspace_table(
                navigate.value if navigate else 0,
                p.success_per_parsec,
                p.lane_difficulty,
                p.planet_diameters,
                p.calculation_rounds,
                p.duration,
                p.fuel_per_jump_percent,
                src,
            )
        )


# --- Torpedoes -------------------------------------------------------------------------------------------


class TorpedoLoadsParams(Params):
    pass


def apply_torpedo_loads(ctx: Context, p: TorpedoLoadsParams) -> None:
    """Each torpedo load: the torpedo's mini stat block, and a tick box a torpedo."""
    design: Design = ctx.design
    loads = []
    for i, load in enumerate(design.torpedoes):
        torpedo = ctx.catalog.item("torpedoes", load.id)
        if isinstance(torpedo, Torpedo):
            loads.append((torpedo, load.count, f"torpedoes[{i}]"))
    if not loads:
        return
    table, tracks = torpedo_parts(
        loads, skills_params(ctx.catalog).percent_per_step, ctx.catalog, ctx.catalog.cite(p.source)
    )
    out = parts(ctx)
    out.tables.append(table)
    out.tracks += tracks


RULE_TYPES: dict[str, RuleType] = {
    "ship-skills": RuleType(ShipSkillsParams, apply_ship_skills),
    "crew-stations": RuleType(CrewStationsParams, apply_crew_stations),
    "equipment-claims": RuleType(EquipmentClaimsParams, apply_equipment_claims),
    "stress-tracks": RuleType(StressTracksParams, apply_stress_tracks),
    "consequence-ladder": RuleType(ConsequenceParams, apply_consequence_ladder),
    "systems-consequence-damage": RuleType(StuntDamageParams, apply_systems_consequence_damage),
    "hull-consequence-table": RuleType(HullTableParams, apply_hull_consequence_table),
    "size-handling": RuleType(SizeHandlingParams, apply_size_handling),
    "chase": RuleType(ChaseParams, apply_chase),
    "engagement-ladder": RuleType(EngagementLadderParams, apply_engagement_ladder),
    "engagement-actions": RuleType(EngagementActionsParams, apply_engagement_actions),
    "hyperspace-jumps": RuleType(HyperspaceParams, apply_hyperspace_jumps),
    "torpedo-loads": RuleType(TorpedoLoadsParams, apply_torpedo_loads),
}


# --- numbers of a pair of ships (for comparing two records) ---------------------------------------------


@dataclass(frozen=True)
class SizeEdge:
    """What the Size difference between two ships gives: the bigger ship adds ``percent`` to
    Guns, Shields and most offensive and defensive rolls, the smaller the same to evasion."""

    bigger: Literal["first", "second"] | None
    levels: int  # levels of Size beyond the free band
    percent: int


def size_advantage(first: Design, second: Design, rule: SizeAdvantage) -> SizeEdge:
    """None within ``free_levels`` of Size; beyond, ``percent_per_level`` a level."""
    diff = first.size - second.size
    levels = max(0, abs(diff) - rule.free_levels)
    if levels == 0:
        return SizeEdge(None, 0, 0)
    return SizeEdge("first" if diff > 0 else "second", levels, levels * rule.percent_per_level)


def detection_modifier(seeker: Design, target: Design, rule: DetectionModifier) -> int:
    """The percent added to the seeker's Sensors roll against the target: military sensors
    over civilian, and every level of Tech Level between them."""
    sensors = {"military": 1, "civilian": 0}
    edge = (sensors[seeker.sensors] - sensors[target.sensors]) * rule.military_over_civilian
    return edge + (seeker.tech_level - target.tech_level) * rule.percent_per_tech_level
