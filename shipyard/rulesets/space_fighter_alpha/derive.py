"""Derived figures and tables: what a record sheet shows beyond the stat block, and the
tracks and slots a player marks in play (the Structure and Power boxes, the notes)."""

from __future__ import annotations

from typing import Any

from shipyard.core.model import Context
from shipyard.core.report import Box, Derived, Figure, Slot, Table, Track
from shipyard.pointbuy.priority import priority_figure
from shipyard.pointbuy.scales import ladder
from shipyard.rulesets.space_fighter_alpha.design import Design
from shipyard.rulesets.space_fighter_alpha.items import (
    AutoTurretsEffect,
    Interscale,
    MoveSpeedTable,
    Technology,
    TransformationEffect,
    Weapon,
    WeaponBonusEffect,
)
from shipyard.rulesets.space_fighter_alpha.mechanisms import (
    CrewParams,
    _effects,
    _selected_items,
    _technology_choice,
    _virtual_pilot,
    capacities,
    crew_range,
)

# --- derived figures ------------------------------------------------------------------------


def _signed(n: int) -> str:
    return f"{n:+d}"


def _move_speed(ctx: Context, move: int) -> tuple[int, float] | None:
    tables = {t.scale: t for t in ctx.catalog.kind("move_speeds").values() if isinstance(t, MoveSpeedTable)}
    found = ladder(ctx.catalog).lookup(tables, ctx.scale)
    if found is None:
        return None
    row = next((r for r in found[0].speeds if r.move == move), None)
    return (row.kmh, row.mach) if row else None


def _weapon_bonus(ctx: Context, weapon: Weapon) -> tuple[int, int, list[str]]:
    """The weapon's damage and range bonuses, and the items giving them, each named once
    ("Enhanced Lasers x3"): a design's notes grow with the catalog, not with the design."""
    dmg = rng = 0
    counts: dict[str, int] = {}
    for _, item, eff in _effects(ctx, WeaponBonusEffect):
        if eff.tag in weapon.tags:
            dmg += eff.damage
            rng += eff.range
            counts[item.name] = counts.get(item.name, 0) + 1
    return dmg, rng, [name if n == 1 else f"{name} x{n}" for name, n in counts.items()]


def _attack_text(design: Design, weapon: Weapon | None, damage: int, turret: bool) -> str:
    """The attack pool: a turret's gunner uses Gunnery, the pilot Piloting (Auto-Turrets too)."""
    if weapon is not None and weapon.missile is not None:
        return f"{weapon.missile.attack_pool}{damage:+d} = {weapon.missile.attack_pool + damage}"
    h = design.handling
    p = design.pilot
    if p is not None and not turret:
        return str(p.dexterity + p.piloting + h + damage)
    skill = "Gunnery" if turret else "Piloting"
    return f"Dex+{skill}{h:+d}{damage:+d}"


def _component_scale_name(ctx: Context, scale: str | None) -> str:
    parsed = ladder(ctx.catalog).parse(scale) if scale else None
    return parsed.name if parsed is not None else ctx.scale.name


def _weapons_table(ctx: Context) -> Table:
    design: Design = ctx.design
    auto = bool(_effects(ctx, AutoTurretsEffect))
    rows: list[list[Any]] = []
    for w in design.weapons:
        weapon = ctx.catalog.item("weapons", w.weapon)
        if not isinstance(weapon, Weapon):
            continue
        dmg_bonus, rng_bonus, by = _weapon_bonus(ctx, weapon)
        damage = weapon.damage + dmg_bonus
        mount = ", ".join(
            x for x in ("turret" if w.turret else "forward", f"fire-linked {w.fire_link}" if w.fire_link else "") if x
        )
        notes = [weapon.notes] if weapon.notes else []
        if by:
            notes.append(f"with {', '.join(by)}")
        rows.append(
            [
                weapon.name,
                w.count,
                mount,
                _component_scale_name(ctx, w.scale),
                _signed(weapon.speed),
                _signed(damage) if weapon.damage_modifier else str(damage),
                weapon.range + rng_bonus,
                _attack_text(design, weapon, damage, w.turret and not auto),
                "; ".join(notes),
            ]
        )
    for c in design.custom_weapons:
        rows.append(
            [
                f"{c.name} (custom)",
                c.count,
                "forward",
                _component_scale_name(ctx, c.scale),
                _signed(c.speed),
                _signed(c.damage),
                "" if c.range is None else c.range,
                _attack_text(design, None, c.damage, False),
                c.notes,
            ]
        )
    return Table(
        id="weapons",
        title="Weapons",
        columns=["Weapon", "Count", "Mount", "Scale", "Speed", "Damage", "Range", "Attack pool", "Notes"],
        rows=rows,
        notes="Attack pool before the target's Soak is subtracted.",
        source=ctx.catalog.cite("Attacking"),
    )


def _interscale_table(ctx: Context) -> Table | None:
    rule = next((i for i in ctx.catalog.kind("interscale").values() if isinstance(i, Interscale)), None)
    if rule is None:
        return None
    rows: list[list[Any]] = []
    for step in range(-rule.span, rule.span + 1):
        other = ladder(ctx.catalog).at_index(ctx.scale.index + step)
        if other is None or step == 0:
            continue
        n = abs(step) * rule.successes_per_step
        # attacking a larger scale loses successes; attacking a smaller one gains them
        attacking, attacked = (f"-{n}", f"+{n}") if step > 0 else (f"+{n}", f"-{n}")
        rows.append([other.name, f"{step:+d}", attacking, attacked])
    return Table(
        id="interscale",
        title="Interscale combat",
        columns=["Other scale", "Steps", "This craft attacks it", "It attacks this craft"],
        rows=rows,
        notes="Successes removed from (-) or added to (+) a damage roll; added successes need a successful roll.",
        source=ctx.catalog.cite(rule.source),
    )


def _technology_table(ctx: Context) -> Table:
    design: Design = ctx.design
    rows: list[list[Any]] = []
    for sel, item in _selected_items(ctx, ("technology",)):
        if not isinstance(item, Technology):
            continue
        levels = sel.level if item.per_level else 1
        choice = _technology_choice(ctx, sel)
        spread = ", ".join(f"{k} {v}" for k, v in choice.options.items()) if choice and choice.options else ""
        rows.append(
            [
                item.name,
                sel.level if item.per_level else "",
                item.cost * levels,
                _signed(item.speed) if item.speed is not None else "",
                item.power_use or "",
                item.system + (f" Spread: {spread}." if spread else ""),
            ]
        )
    for c in design.custom_technology:
        rows.append([c.name + " (custom)", "", c.cost, "", "", c.description])
    return Table(
        id="technology",
        title="Advanced Technology",
        columns=["Technology", "Level", "Power Points", "Speed", "Power use", "System"],
        rows=rows,
        source=ctx.catalog.cite("Advanced Technology"),
    )


def _accessories_table(ctx: Context) -> Table:
    rows: list[list[Any]] = []
    for sel, item in _selected_items(ctx, ("accessories",)):
        rows.append([item.name, sel.level if item.per_level else "", getattr(item, "notes", "")])
    return Table(
        id="accessories",
        title="Accessories",
        columns=["Accessory", "Level", "Notes"],
        rows=rows,
        source=ctx.catalog.cite("Accessories"),
    )


def no_structure(structure: int) -> str:
    """What the Structure track says of a design of Structure 0 or below (an error of its
    own): no boxes, as the craft has no Structure left to lose."""
    return f"a craft of Structure {structure} has no Structure left to mark"


def _tracks(ctx: Context) -> list[Track]:
    """Structure, a box for each point from Structure down to -Structure (none at Structure
    0 or below: :func:`no_structure`), and Power, a box for each point of the pool spent on
    special maneuvers."""
    design: Design = ctx.design
    s = design.structure
    cite = ctx.catalog.cite

    def fate(i: int) -> str:
        return "scrapped" if i == 0 else ("destroyed" if i == -s else "")

    notes = (
        f"Mark damage from {s} down. At 0 the craft is scrapped and inoperable; at {-s} it is destroyed."
        if s > 0
        else f"No boxes: {no_structure(s)}."
    )
    return [
        Track(
            id="structure",
            name="Structure",
            boxes=[Box(value=i, label=fate(i)) for i in range(s, -s - 1, -1)] if s > 0 else [],
            path="structure",
            source=cite("Structure"),
            notes=notes,
        ),
        Track(
            id="power",
            name="Power",
            boxes=[Box(label=f"point {n}") for n in range(1, design.power + 1)],
            path="power",
            source=cite("Power"),
            notes="Tick a point when it is spent on a special maneuver.",
        ),
    ]


def derive(ctx: Context) -> Derived:
    design: Design = ctx.design
    figs: list[Figure] = []
    cite = ctx.catalog.cite

    figs.append(Figure(id="scale", label="Scale", value=ctx.scale.name, source=cite("Scale")))
    figs.append(
        Figure(
            id="handling",
            label="Handling",
            value=design.handling,
            detail="modifies the pilot's Dexterity + Piloting",
            source=cite("Handling"),
        )
    )
    split = (
        f"Armor {design.armor or 0} + Energy Shields {design.shields or 0}"
        if design.armor is not None or design.shields is not None
        else "not yet divided into Armor and Energy Shields"
    )
    figs.append(Figure(id="soak", label="Soak", value=design.soak, detail=split, source=cite("Soak")))
    speed = _move_speed(ctx, design.move)
    figs.append(
        Figure(
            id="move",
            label="Move",
            value=design.move,
            unit="hexes",
            detail=(f"{speed[0]:,.0f} km/h, Mach {speed[1]}" if speed else ("stationary" if design.move == 0 else "")),
            source=cite("Real-World Figures"),
        )
    )
    if speed:
        figs.append(
            Figure(id="move-kmh", label="Speed", value=speed[0], unit="km/h", source=cite("Real-World Figures"))
        )
        figs.append(
            Figure(id="move-mach", label="Mach", value=speed[1], unit="Mach", source=cite("Real-World Figures"))
        )
    priority = priority_figure(ctx)
    if priority is not None:
        figs.append(priority)
    figs.append(
        Figure(id="power", label="Power", value=design.power, detail="pool for special maneuvers", source=cite("Power"))
    )
    figs.append(
        Figure(id="structure", label="Structure", value=design.structure, source=cite("Structure"), path="structure")
    )
    if design.pilot is not None:  # what the sheet's pilot line prints
        pilot = design.pilot
        for pid, word, score in (
            ("dexterity", "Dexterity", pilot.dexterity),
            ("piloting", "Piloting", pilot.piloting),
            ("gunnery", "Gunnery", pilot.gunnery),
            ("willpower", "Willpower", pilot.willpower),
        ):
            figs.append(Figure(id=f"pilot.{pid}", label=word, value=score, path=f"pilot.{pid}"))
    figs.append(
        Figure(
            id="structure-track",
            label="Structure track",
            value=design.structure * 2 + 1 if design.structure > 0 else 0,
            unit="boxes",
            detail=(
                f"{design.structure} down to 0 (scrapped) and to -{design.structure} (destroyed)"
                if design.structure > 0
                else no_structure(design.structure)
            ),
            source=cite("Structure"),
        )
    )

    caps = capacities(ctx)
    for cap_id, cap in caps.items():
        figs.append(
            Figure(
                id=f"capacity-{cap_id}",
                label=cap.label,
                value=cap.value,
                unit="" if cap.unit.lower() == cap.label.lower() else cap.unit,
                detail=cap.how,
                source=cite("Advanced Technology"),
            )
        )
    crew_rule = ctx.catalog.params(CrewParams)
    guideline = crew_range(ctx.catalog, ctx.scale, design.structure, crew_rule) if crew_rule is not None else None
    if crew_rule is not None and guideline is not None:
        low, high, _ = guideline
        for fig_id, label, value in (("crew-minimum", "Crew minimum", low), ("crew-maximum", "Crew maximum", high)):
            figs.append(Figure(id=fig_id, label=label, value=value, detail="guideline", source=cite(crew_rule.source)))
    figs.append(Figure(id="crew", label="Crew", value=design.crew))

    gunner_needed = sum(w.count for w in design.weapons if w.turret)
    auto = bool(_effects(ctx, AutoTurretsEffect))
    figs.append(
        Figure(
            id="gunners-needed",
            label="Gunners needed",
            value=0 if auto else gunner_needed,
            detail="Auto-Turrets: the pilot fires them" if auto and gunner_needed else "",
            source=cite("Weapons"),
        )
    )

    vp = _virtual_pilot(ctx)
    if vp is not None:
        sel, item, eff = vp
        choice = _technology_choice(ctx, sel)
        spread = choice.options if choice else {}
        figs.append(
            Figure(
                id="virtual-pilot",
                label=item.name,
                value=eff.points_per_level * sel.level,
                unit="points",
                detail=", ".join(f"{t.capitalize()} {spread.get(t, 0)}" for t in eff.traits)
                if spread
                else "not assigned",
                source=cite(item.source),
            )
        )

    h = design.handling
    p = design.pilot
    if p is not None:
        figs.append(
            Figure(
                id="attack-pool",
                label="Pilot attack pool",
                value=p.dexterity + p.piloting + h,
                detail=f"Dexterity {p.dexterity} + Piloting {p.piloting} + Handling {h:+d}"
                " + weapon Damage - target Soak",
                source=cite("Attacking"),
            )
        )
        figs.append(
            Figure(
                id="soak-pool",
                label="Soak pool",
                value=p.dexterity + p.piloting + design.soak + h,
                detail=f"Dexterity {p.dexterity} + Piloting {p.piloting} + Soak {design.soak} + Handling {h:+d}"
                " + maneuver modifiers",
                source=cite("Soak"),
            )
        )
        figs.append(
            Figure(
                id="speed-base",
                label="Base Speed",
                value=p.dexterity + p.piloting,
                detail="Dexterity + Piloting + the weapon's or system's Speed modifier",
                source=cite("Turn Order"),
            )
        )
    else:
        figs.append(
            Figure(
                id="attack-pool",
                label="Pilot attack pool",
                value=f"Dex + Piloting {h:+d} + Damage",
                detail="minus the target's Soak",
                source=cite("Attacking"),
            )
        )
        figs.append(
            Figure(
                id="soak-pool",
                label="Soak pool",
                value=f"Dex + Piloting + {design.soak} {h:+d}",
                detail="plus maneuver modifiers",
                source=cite("Soak"),
            )
        )
    figs.append(
        Figure(
            id="gunner-attack-pool",
            label="Gunner attack pool",
            value=f"Dex + Gunnery {h:+d} + Damage",
            detail="minus the target's Soak",
            source=cite("Attacking"),
        )
    )

    # the accessories that make a form a robot, as the Transformation technology says
    robot_parts = {
        part
        for item in ctx.catalog.kind("technology").values()
        for eff in getattr(item, "effects", [])
        if isinstance(eff, TransformationEffect)
        for part in eff.robot_with
    }
    if design.forms:

        def is_robot(form: Any) -> bool:
            accessories = form.accessories if form.accessories is not None else design.accessories
            return bool(robot_parts) and robot_parts <= {a.id for a in accessories}

        forms = ", ".join(f.name + (" (robot)" if is_robot(f) else "") for f in design.forms)
        figs.append(
            Figure(
                id="forms",
                label="Transformation forms",
                value=len(design.forms),
                detail=forms,
                source=cite("Advanced Technology: Transformation"),
            )
        )

    tables = [_weapons_table(ctx), _technology_table(ctx), _accessories_table(ctx)]
    interscale = _interscale_table(ctx)
    if interscale is not None:
        tables.append(interscale)
    notes = Slot(id="notes", name="Notes", text=design.notes, path="notes")
    return Derived(figures=figs, tables=tables, tracks=_tracks(ctx), slots=[notes])
