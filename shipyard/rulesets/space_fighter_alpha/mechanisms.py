"""The mechanisms particular to Space Fighter Alpha, each a typed rule the catalog names."""

from fractions import Fraction
from typing import Any, NamedTuple

from pydantic import Field

from shipyard.core.findings import Severity
from shipyard.core.items import PricedItem
from shipyard.core.ladder import Step
from shipyard.core.model import Catalog, Context, Selection
from shipyard.core.numberwords import count_of
from shipyard.core.rules import Params, RuleType
from shipyard.pointbuy.scalelimits import scale_factor, scale_label
from shipyard.pointbuy.scales import ladder
from shipyard.rulesets.space_fighter_alpha.design import CustomWeapon, Design, ItemChoice
from shipyard.rulesets.space_fighter_alpha.items import (
    AutoTurretsEffect,
    CapacityEffect,
    TransformationEffect,
    VirtualPilotEffect,
    Weapon,
    _Effect,
)

# --- helpers over the selected items ------------------------------------------------------


def _selected_items(
    ctx: Context, kinds: tuple[str, ...] = ("technology", "accessories")
) -> list[tuple[Selection, PricedItem]]:
    out = []
    for sel in ctx.view.selections:
        if sel.kind in kinds:
            item = ctx.catalog.item(sel.kind, sel.id)
            if isinstance(item, PricedItem):
                out.append((sel, item))
    return out


def _effects(ctx: Context, effect_type: type[_Effect]) -> list[tuple[Selection, PricedItem, Any]]:
    out = []
    for sel, item in _selected_items(ctx):
        for eff in getattr(item, "effects", []):
            if isinstance(eff, effect_type):
                out.append((sel, item, eff))
    return out


def _scaled(per_scale: dict[str, int], scale: Step, catalog: Catalog) -> int | None:
    """A per-scale capacity at ``scale`` (x multiplier per step above its named scale); None
    where the catalog gives none for that scale."""
    found = ladder(catalog).lookup_family(per_scale, scale)
    if found is None:
        return None
    value, steps = found
    return int(value * ladder(catalog).multiplier ** steps)


class Capacity(NamedTuple):
    """A capacity's total, its unit, how it adds up, and the label its figure shows."""

    value: int
    unit: str
    how: str
    label: str


def capacities(ctx: Context) -> dict[str, Capacity]:
    """Capacity totals from every capacity effect, each component at its own scale.

    Keyed by capacity id; a component whose unit at its own scale differs from the design's
    (a Starfighter-scale Hangar Bay holds small vehicles, a Starship's Starfighters) is
    counted apart, under ``<capacity>-<scale id>``."""
    cached = ctx.notes.get("capacities")
    if cached is None:
        cached = ctx.notes["capacities"] = _capacities(ctx)
    return dict(cached)


def _capacities(ctx: Context) -> dict[str, Capacity]:
    out: dict[str, Capacity] = {}
    for kind in ("technology", "accessories"):
        selected = ctx.view.selected(kind)
        for item in ctx.catalog.kind(kind).values():
            for eff in getattr(item, "effects", []):
                if isinstance(eff, CapacityEffect):
                    _capacity_of(ctx, item.name, eff, [s for s in selected if s.id == item.id], out)
    return out


def _capacity_of(ctx: Context, name: str, eff: CapacityEffect, sels: list[Selection], out: dict[str, Capacity]) -> None:
    """One capacity effect's share: what the design's scale includes, then the levels bought
    at each scale ("Out-of-Scale Designs": a component is built for its own scale)."""
    design_unit = _unit(ctx, eff, ctx.scale)
    label = eff.capacity.replace("-", " ").capitalize()
    included = _scaled(eff.included, ctx.scale, ctx.catalog) if eff.included else None
    if included:
        _add(out, eff.capacity, Capacity(included, design_unit or "", f"{included} included", label))
    levels: dict[int, tuple[Step, int]] = {}
    for sel in sels:
        at = sel.component_scale if sel.component_scale is not None else ctx.scale
        at = ctx.scale if at.index == ctx.scale.index else at
        levels[at.index] = (at, levels.get(at.index, (at, 0))[1] + sel.level)
    for at, level in sorted(levels.values(), key=lambda found: found[0] is not ctx.scale):
        where = "" if at is ctx.scale else f" at {at.name} scale"
        per = _scaled(eff.per_level, at, ctx.catalog)
        if per is None:
            _add(
                out,
                eff.capacity,
                Capacity(0, design_unit or "", f"{name} {level}: no capacity at {at.name} scale", label),
            )
            continue
        unit = _unit(ctx, eff, at) or design_unit or ""
        key = eff.capacity if design_unit is None or unit == design_unit else f"{eff.capacity}-{at.id}"
        shown = label if key == eff.capacity else f"{label} ({at.name} scale)"
        _add(out, key, Capacity(level * per, unit, f"{name} {level} x {per}{where}", shown))


def _add(out: dict[str, Capacity], key: str, part: Capacity) -> None:
    """Add a part to the capacity ``key``: its value to the total, its reckoning to the detail."""
    prev = out.get(key)
    out[key] = part if prev is None else prev._replace(value=prev.value + part.value, how=f"{prev.how} + {part.how}")


def _unit(ctx: Context, eff: CapacityEffect, scale: Step) -> str | None:
    """The capacity's unit at ``scale`` (None where the catalog gives none)."""
    found = ladder(ctx.catalog).lookup_family(eff.unit, scale)
    return found[0] if found else None


def _virtual_pilot(ctx: Context) -> tuple[Selection, PricedItem, VirtualPilotEffect] | None:
    found = _effects(ctx, VirtualPilotEffect)
    return found[0] if found else None


def _technology_choice(ctx: Context, sel: Selection) -> ItemChoice | None:
    design: Design = ctx.design
    idx = int(sel.path.split("[")[1].rstrip("]"))
    return design.technology[idx] if idx < len(design.technology) else None


# --- mechanisms particular to Space Fighter Alpha -----------------------------------------


class WeaponCostParams(Params):
    pool: str
    turret: str = Field(description="mount id whose cost a turreted weapon adds")
    fire_link: str = Field(description="mount id whose cost a fire-linked weapon adds")
    smaller_scale_divisor: int = Field(ge=2)


def apply_weapon_cost(ctx: Context, p: WeaponCostParams) -> None:
    """Weapon Points: each weapon's cost, +turret, +fire-link, /5 per scale step down."""
    design: Design = ctx.design
    turret = ctx.catalog.item("mounts", p.turret)
    link = ctx.catalog.item("mounts", p.fire_link)
    t_cost = turret.cost if isinstance(turret, PricedItem) else 0
    l_cost = link.cost if isinstance(link, PricedItem) else 0
    pool = ctx.ledger[p.pool]
    for i, (w, sel) in enumerate(zip(design.weapons, ctx.view.selected("weapons"), strict=True)):
        weapon = ctx.catalog.item("weapons", w.weapon)
        if not isinstance(weapon, Weapon):
            ctx.findings.add(
                "error",
                "unknown-item",
                f"weapon {w.weapon!r} is not in the catalog",
                path=f"weapons[{i}].weapon",
                actual=w.weapon,
                limit=None,  # no number: the catalog's weapons are what is allowed
                rule=p.id,
                source=ctx.catalog.cite(p.source),
            )
            continue
        comp = sel.component_scale
        _refuse_larger_component(ctx, p.id, weapon.name, comp, f"weapons[{i}].scale", _OUT_OF_SCALE)
        parts = [str(weapon.cost)]
        each = weapon.cost
        if w.turret:
            each += t_cost
            parts.append(f"{t_cost} turret")
        if w.fire_link:
            each += l_cost
            parts.append(f"{l_cost} fire-linked")
        factor = scale_factor(ctx, sel, p.smaller_scale_divisor)
        label = f"{w.count} x {weapon.name}"
        if len(parts) > 1:
            label += f" ({' + '.join(parts)} each)"
        label += scale_label(comp, factor)
        pool.cost(
            label,
            Fraction(each * w.count) * factor,
            source=ctx.catalog.cite(weapon.source),
            path=f"weapons[{i}]",
            rule=p.id,
        )
    for i, c in enumerate(design.custom_weapons):
        _custom_weapon_cost(ctx, p, i, c)


_OUT_OF_SCALE = "Out-of-Scale Designs"  # the section a weapon's larger-scale finding cites


def _refuse_larger_component(ctx: Context, rule: str, name: str, comp: Step | None, path: str, source: str) -> None:
    """Out-of-Scale Designs: a component larger than the design is bought as custom technology."""
    if comp is not None and comp.index > ctx.scale.index:
        ctx.findings.add(
            "error",
            "component-scale-larger",
            f"{name} at {comp.name} scale is larger than this {ctx.scale.name}-scale design; "
            "buy larger-scale components as advanced technology (custom technology)",
            path=path,
            actual=comp.name,
            limit=ctx.scale.name,
            rule=rule,
            source=ctx.catalog.cite(source),
        )


def _custom_weapon_cost(ctx: Context, p: WeaponCostParams, i: int, c: CustomWeapon) -> None:
    """A custom weapon costs what the Storyteller assigns, /5 per scale step down."""
    comp = ladder(ctx.catalog).parse(c.scale) if c.scale else None
    _refuse_larger_component(ctx, p.id, c.name, comp, f"custom_weapons[{i}].scale", _OUT_OF_SCALE)
    sel = Selection("custom_weapons", c.name, f"custom_weapons[{i}]", 1, c.count, comp)
    factor = scale_factor(ctx, sel, p.smaller_scale_divisor)
    label = f"{c.count} x {c.name} (custom, {c.cost} each)" + scale_label(comp, factor)
    ctx.ledger[p.pool].cost(
        label, Fraction(c.cost * c.count) * factor, source=ctx.catalog.cite(p.source), path=sel.path, rule=p.id
    )


class LargerComponentParams(Params):
    kinds: list[str] = Field(min_length=1, description="item kinds whose entries may carry a component scale")


def apply_larger_components(ctx: Context, p: LargerComponentParams) -> None:
    """ "For installation of larger scale components, simply purchase the appropriate Advanced
    Technology": an accessory or technology entered at a scale above the design's is an error."""
    for kind in p.kinds:
        for sel in ctx.view.selected(kind):
            item = ctx.catalog.item(kind, sel.id)
            name = item.name if isinstance(item, PricedItem) else sel.id
            _refuse_larger_component(ctx, p.id, name, sel.component_scale, f"{sel.path}.scale", p.source)


class FireLinkParams(Params):
    min_size: int = Field(ge=2)


def apply_fire_link_groups(ctx: Context, p: FireLinkParams) -> None:
    """ "Allows two or more weapons to be fired at the same time": a group needs two."""
    design: Design = ctx.design
    groups: dict[str, tuple[int, int]] = {}
    for i, w in enumerate(design.weapons):
        if w.fire_link:
            n, first = groups.get(w.fire_link, (0, i))
            groups[w.fire_link] = (n + w.count, first)
    for name, (n, first) in groups.items():
        if n < p.min_size:
            ctx.findings.add(
                "error",
                "fire-link-group-too-small",
                f"fire-link group {name!r} has {n} weapon; a linked group needs {p.min_size} or more",
                path=f"weapons[{first}].fire_link",
                actual=n,
                limit=p.min_size,
                rule=p.id,
                source=ctx.catalog.cite(p.source),
            )


class CustomTechParams(Params):
    pool: str


def apply_custom_technology(ctx: Context, p: CustomTechParams) -> None:
    """Larger-scale components "simply purchase the appropriate Advanced Technology"."""
    design: Design = ctx.design
    for i, c in enumerate(design.custom_technology):
        label = f"{c.name} (custom" + (f", {c.scale} scale" if c.scale else "") + ")"
        ctx.ledger[p.pool].cost(
            label, c.cost, source=ctx.catalog.cite(p.source), path=f"custom_technology[{i}]", rule=p.id
        )


class GunnerParams(Params):
    pilots: int = Field(ge=0, description="crew members who fly and cannot man a turret")
    virtual_pilot_gunners: int = Field(ge=0)
    severity: Severity = Severity.WARNING


def apply_gunners(ctx: Context, p: GunnerParams) -> None:
    """Each turreted weapon needs a gunner other than the pilot, unless Auto-Turrets."""
    design: Design = ctx.design
    turreted = sum(w.count for w in design.weapons if w.turret)
    if not turreted or _effects(ctx, AutoTurretsEffect):
        return
    ai = _virtual_pilot(ctx) is not None
    gunners = max(design.crew - p.pilots, 0) + (p.virtual_pilot_gunners if ai else 0)
    if gunners < turreted:
        first = next(i for i, w in enumerate(design.weapons) if w.turret)
        ctx.findings.add(
            p.severity,
            "gunner-shortage",
            f"{count_of(turreted, 'turreted weapon')} {'needs' if turreted == 1 else 'need'} "
            f"{count_of(turreted, 'gunner')} besides the pilot; this crew of {design.crew}"
            + (" with its AI" if ai else "")
            + f" has {gunners}",
            path=f"weapons[{first}].turret",
            actual=gunners,
            limit=turreted,
            rule=p.id,
            source=ctx.catalog.cite(p.source),
        )


class SpreadParams(Params):
    unassigned_severity: Severity = Severity.WARNING
    mismatch_severity: Severity = Severity.ERROR


def apply_virtual_pilot_spread(ctx: Context, p: SpreadParams) -> None:
    """AI: points per level spread over the virtual pilot's traits; the spread must add up."""
    found = _virtual_pilot(ctx)
    if found is None:
        return
    sel, item, eff = found
    choice = _technology_choice(ctx, sel)
    points = eff.points_per_level * sel.level
    spread = dict(choice.options) if choice else {}
    unknown = set(spread) - set(eff.traits)
    src = ctx.catalog.cite(item.source)
    if unknown:
        ctx.findings.add(
            p.mismatch_severity,
            "ai-spread-mismatch",
            f"{item.name} spread names {', '.join(sorted(unknown))}; it may use {', '.join(eff.traits)}",
            path=f"{sel.path}.options",
            actual=sorted(unknown),
            limit=eff.traits,
            rule=p.id,
            source=src,
        )
    elif not spread:
        ctx.findings.add(
            p.unassigned_severity,
            "ai-spread-unassigned",
            f"{item.name} ({sel.level}) has {count_of(points, 'point')} for {', '.join(eff.traits)} not yet assigned",
            path=f"{sel.path}.options",
            actual=0,
            limit=points,
            rule=p.id,
            source=src,
        )
    elif sum(spread.values()) != points:
        ctx.findings.add(
            p.mismatch_severity,
            "ai-spread-mismatch",
            f"{item.name} ({sel.level}) spread adds up to {sum(spread.values())}, not {points}",
            path=f"{sel.path}.options",
            actual=sum(spread.values()),
            limit=points,
            rule=p.id,
            source=src,
        )


class CrewParams(Params):
    scale: str = Field(description="the scale family these guidelines are for")
    min_per_structure: int = Field(ge=0)
    max_per_structure: int = Field(ge=1)
    quarters: str = Field(description="capacity id that houses the crew")
    quarters_source: str = Field(description="the section of the rules the quarters are in, which their finding cites")
    severity: Severity = Severity.WARNING


def crew_range(catalog: Catalog, scale: Step, structure: int, p: CrewParams) -> tuple[int, int, int] | None:
    """The crew guideline (minimum, maximum, the scale's multiplier), or None off the rule's scale."""
    if scale.family != p.scale:
        return None
    mult: int = ladder(catalog).multiplier ** scale.steps_above_family
    return structure * p.min_per_structure * mult, structure * p.max_per_structure * mult, mult


def apply_crew_guidelines(ctx: Context, p: CrewParams) -> None:
    """Starship crews: at least Structure, at most 10 x Structure, x5 per step; quarters."""
    design: Design = ctx.design
    guideline = crew_range(ctx.catalog, ctx.scale, design.structure, p)
    if guideline is None:
        return
    low, high, mult = guideline
    src = ctx.catalog.cite(p.source)
    x = f" x {mult}" if mult > 1 else ""
    if design.crew < low:
        ctx.findings.add(
            p.severity,
            "crew-below-minimum",
            f"crew {design.crew} is below the guideline minimum {low} (Structure {design.structure}{x})",
            path="crew",
            actual=design.crew,
            limit=low,
            rule=p.id,
            source=src,
        )
    if design.crew > high:
        ctx.findings.add(
            p.severity,
            "crew-above-maximum",
            f"crew {design.crew} is above the guideline maximum {high} "
            f"({p.max_per_structure} x Structure {design.structure}{x})",
            path="crew",
            actual=design.crew,
            limit=high,
            rule=p.id,
            source=src,
        )
    quarters = capacities(ctx).get(p.quarters)
    if quarters is not None and design.crew > quarters.value:
        ctx.findings.add(
            p.severity,
            "crew-above-quarters",
            f"crew {design.crew} does not fit the quarters for {quarters.value} ({quarters.how})",
            path="accessories",
            actual=design.crew,
            limit=quarters.value,
            rule=p.id,
            source=ctx.catalog.cite(p.quarters_source),
        )


class SeatsParams(Params):
    scale: str
    seats: str = Field(description="capacity id of the seats")
    no_pilot_source: str = Field(description="the section that lets a craft fly with no crew, which no-pilot cites")
    severity: Severity = Severity.WARNING


def apply_seats(ctx: Context, p: SeatsParams) -> None:
    """Starfighters: the pilot plus one seat per Co-Pilot or Crew Station; someone must fly."""
    design: Design = ctx.design
    src = ctx.catalog.cite(p.source)
    if design.crew == 0 and _virtual_pilot(ctx) is None:
        ctx.findings.add(
            p.severity,
            "no-pilot",
            "crew 0 and no Artificial Intelligence: nobody flies this craft",
            path="crew",
            actual=0,
            limit=1,
            rule=p.id,
            source=ctx.catalog.cite(p.no_pilot_source),
        )
    if ctx.scale.family != p.scale:
        return
    seats = capacities(ctx).get(p.seats)
    if seats is not None and design.crew > seats.value:
        ctx.findings.add(
            p.severity,
            "crew-above-seats",
            f"crew {design.crew} but only {seats.value} seat{'s' if seats.value != 1 else ''} ({seats.how})",
            path="crew",
            actual=design.crew,
            limit=seats.value,
            rule=p.id,
            source=src,
        )


class TransformationParams(Params):
    severity: Severity = Severity.ERROR


def apply_transformation_forms(ctx: Context, p: TransformationParams) -> None:
    """Transformation buys one extra form per level; forms need the technology."""
    if ctx.notes.get("form"):
        return
    design: Design = ctx.design
    found = _effects(ctx, TransformationEffect)
    levels = sum(sel.level for sel, _, _ in found)
    if levels != len(design.forms):
        ctx.findings.add(
            p.severity,
            "transformation-forms-mismatch",
            f"{count_of(len(design.forms), 'alternate form')} given; Transformation level {levels} pays for {levels}",
            path="forms",
            actual=len(design.forms),
            limit=levels,
            rule=p.id,
            source=ctx.catalog.cite(p.source),
        )


RULE_TYPES: dict[str, RuleType] = {
    "weapon-cost": RuleType(WeaponCostParams, apply_weapon_cost),
    "larger-components": RuleType(LargerComponentParams, apply_larger_components),
    "fire-link-groups": RuleType(FireLinkParams, apply_fire_link_groups),
    "custom-technology-cost": RuleType(CustomTechParams, apply_custom_technology),
    "gunners": RuleType(GunnerParams, apply_gunners),
    "virtual-pilot-spread": RuleType(SpreadParams, apply_virtual_pilot_spread),
    "crew-guidelines": RuleType(CrewParams, apply_crew_guidelines),
    "seats": RuleType(SeatsParams, apply_seats),
    "transformation-forms": RuleType(TransformationParams, apply_transformation_forms),
}
