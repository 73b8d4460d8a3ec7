"""The house rules' mechanisms, each a typed rule that ``rules.yaml`` names with its numbers.

Every function here is named after the rule it applies and takes its numbers from the
rule's parameters; the pure pieces (a resistance modifier, linked fire, the numbering of
components, the next missile load) are plain functions the rules and ``derive`` share.
What a rule works out for the record is kept in ``ctx.notes`` under the rule type's name,
and ``derive`` turns it into the report's figures, tables and tracks.
"""

from dataclasses import dataclass
from typing import Literal

from pydantic import Field

from shipyard.core.findings import Severity
from shipyard.core.model import Catalog, Context
from shipyard.core.rules import Params, RuleType
from shipyard.rulesets.wing_commander.design import WCCompartment, WCFighter, WCGun, WCRange
from shipyard.rulesets.wing_commander.items import ScoreTable

# --- Alternity's resistance modifier --------------------------------------------------------


class ResistanceParams(Params):
    table: str = Field(description="the score_tables entry to read")
    stat: str = Field(description="the stat whose score is looked up (the pilot's DEX)")


@dataclass(frozen=True)
class Resistance:
    score: int
    modifier: int
    ability: str
    source: str


def resistance_modifier(catalog: Catalog, score: int) -> Resistance | None:
    """The resistance modifier of ``score`` from the table the resistance rule names."""
    p = catalog.params(ResistanceParams)
    table = catalog.item("score_tables", p.table) if p is not None else None
    if p is None or not isinstance(table, ScoreTable):
        return None
    return Resistance(score, table.modifier(score), table.ability, catalog.cite(table.source))


def _pilot_resistance(ctx: Context) -> Resistance | None:
    design: WCFighter = ctx.design
    return resistance_modifier(ctx.catalog, design.pilot.dex)


def apply_resistance_modifier(ctx: Context, p: ResistanceParams) -> None:
    """ "add the pilot's DEX resistance modifier": the pilot's modifier, from the catalog's table."""
    found = _pilot_resistance(ctx)
    if found is None:
        ctx.findings.add(
            Severity.ERROR,
            "score-table-missing",
            f"the resistance modifier table {p.table!r} is not in the catalog",
            path=ctx.stat_path(p.stat),
            actual=p.table,
            limit=sorted(ctx.catalog.kind("score_tables")),
            rule=p.id,
            source=ctx.catalog.cite(p.source),
        )
        return
    ctx.notes["resistance-modifier"] = found


# --- missile decoys ---------------------------------------------------------------------------


class FreeDecoysParams(Params):
    per_ship: int = Field(ge=0, description="free decoys every ship may launch per round")
    drv_bonus_divisor: int = Field(ge=1, description="a DRV bonus is divided by this, rounded down")
    minimum: int = Field(ge=0, description="free decoys never fall below this")


def apply_free_missile_decoys(ctx: Context, p: FreeDecoysParams) -> None:
    """1 free decoy a round, + half the DRV bonus rounded down, + the pilot's DEX resistance
    modifier, never below the minimum: the count ``free_decoys``, part by part."""
    design: WCFighter = ctx.design
    src = ctx.catalog.cite(p.source)
    count = ctx.count("free_decoys", "Free missile decoys", "per round", src)
    count.add("every ship", p.per_ship, source=src, rule=p.id)
    if design.drv < 0:
        bonus = -design.drv // p.drv_bonus_divisor
        count.add(
            f"DRV {design.drv} bonus: {-design.drv}/{p.drv_bonus_divisor} rounded down",
            bonus,
            path="drv",
            source=src,
            rule=p.id,
        )
    res = ctx.notes.get("resistance-modifier")
    if isinstance(res, Resistance):
        label = f"{res.ability} {res.score} resistance modifier {res.modifier:+d}"
        if res.modifier >= 0:
            count.add(label, res.modifier, path="pilot.dex", source=res.source, rule=p.id)
        else:
            count.take(label, -res.modifier, path="pilot.dex", source=res.source, rule=p.id)
    if count.total < p.minimum:
        count.add(f"never below {p.minimum}", p.minimum - count.total, source=src, rule=p.id)


class DecoysPerActionParams(Params):
    minimum: int = Field(ge=0, description="decoys an action gives a pilot with no or a negative modifier")


def apply_decoys_per_action(ctx: Context, p: DecoysPerActionParams) -> None:
    """An action spent on decoys gives the pilot's positive resistance modifier in extra
    decoys for that round, at least the minimum: the count ``decoys_per_action``."""
    src = ctx.catalog.cite(p.source)
    count = ctx.count("decoys_per_action", "Extra decoys per action", "this round", src)
    res = ctx.notes.get("resistance-modifier")
    modifier = res.modifier if isinstance(res, Resistance) else 0
    if isinstance(res, Resistance) and modifier > 0 and modifier >= p.minimum:
        label = f"{res.ability} {res.score} resistance modifier {modifier:+d}"
        count.add(label, modifier, path="pilot.dex", source=src, rule=p.id)
    else:
        label = f"minimum {p.minimum} (resistance modifier {modifier:+d})"
        count.add(label, p.minimum, path="pilot.dex", source=src, rule=p.id)


# --- linked guns --------------------------------------------------------------------------------


@dataclass(frozen=True)
class LinkGroup:
    """Guns fired together: the record's entries (index, gun) with the same link group."""

    name: str
    entries: tuple[tuple[int, WCGun], ...]

    @property
    def fitted(self) -> list[WCGun]:
        return [g for _, g in self.entries if g.count > 0]

    @property
    def guns(self) -> int:
        return sum(g.count for _, g in self.entries)

    @property
    def first(self) -> int:
        return self.entries[0][0]


def link_groups(guns: list[WCGun]) -> list[LinkGroup]:
    """The link groups in the order they first appear among the guns."""
    found: dict[str, list[tuple[int, WCGun]]] = {}
    for i, gun in enumerate(guns):
        if gun.link_group is not None:
            found.setdefault(gun.link_group, []).append((i, gun))
    return [LinkGroup(name, tuple(entries)) for name, entries in found.items()]


def linked_fire(guns: list[WCGun]) -> tuple[int, WCRange] | None:
    """ "When firing linked guns, the worst accuracy and shortest range are used": the largest
    accuracy modifier (negative is better) and, band by band, the shortest range."""
    if not guns:
        return None
    return max(g.accuracy for g in guns), WCRange(
        short=min(g.range.short for g in guns),
        medium=min(g.range.medium for g in guns),
        long=min(g.range.long for g in guns),
    )


class LinkedGunsParams(Params):
    min_guns: int = Field(ge=2, description="guns a link group needs")
    severity: Severity = Severity.ERROR


def apply_linked_guns(ctx: Context, p: LinkedGunsParams) -> None:
    """A link group fires two or more guns the ship carries with one attack roll."""
    design: WCFighter = ctx.design
    groups = link_groups(design.guns)
    ctx.notes["linked-guns"] = groups
    for group in groups:
        for i, gun in group.entries:
            if gun.count == 0:
                ctx.findings.add(
                    p.severity,
                    "link-group-gun-missing",
                    f"link group {group.name!r} names {gun.name} (guns[{i}]), which the ship does not carry (count 0)",
                    path=f"guns[{i}].count",
                    actual=0,
                    limit=1,
                    rule=p.id,
                    source=ctx.catalog.cite(p.source),
                )
        if group.guns < p.min_guns:
            ctx.findings.add(
                p.severity,
                "link-group-too-small",
                f"link group {group.name!r} has {group.guns} gun{'s' if group.guns != 1 else ''}; "
                f"linked guns are {p.min_guns} or more",
                path=f"guns[{group.first}].link_group",
                actual=group.guns,
                limit=p.min_guns,
                rule=p.id,
                source=ctx.catalog.cite(p.source),
            )


# --- the ship's DRV as a step modifier ----------------------------------------------------------


class DrvStepParams(Params):
    applies_to: Literal["action-check", "gun-attacks"]
    stat: str = Field(description="the stat holding the ship's DRV")
    skill: str | None = Field(default=None, description="the pilot's skill the roll uses, if any")


@dataclass(frozen=True)
class StepModifier:
    step: int
    skill: str | None
    source: str


def apply_drv_step_modifier(ctx: Context, p: DrvStepParams) -> None:
    """The ship's DRV applies as a step modifier to the pilot's action check, or to gun attacks."""
    steps = ctx.notes.setdefault("drv-step-modifier", {})
    steps[p.applies_to] = StepModifier(int(ctx.view.stats.get(p.stat, 0)), p.skill, ctx.catalog.cite(p.source))


# --- missiles -------------------------------------------------------------------------------------


class MissileDrvParams(Params):
    stat: str = Field(description="the stat whose range a missile's DRV keeps to")
    severity: Severity = Severity.ERROR


def apply_missile_drv_range(ctx: Context, p: MissileDrvParams) -> None:
    """A missile's own DRV is a DRV modifier like the ship's, within the same range."""
    design: WCFighter = ctx.design
    stat = ctx.catalog.stat(p.stat)
    if stat is None:
        return
    for i, m in enumerate(design.missiles):
        if (stat.min is not None and m.drv < stat.min) or (stat.max is not None and m.drv > stat.max):
            ctx.findings.add(
                p.severity,
                "missile-drv-out-of-range",
                f"{m.name}'s DRV {m.drv:+d} is outside {stat.min:+d} to {stat.max:+d}",
                path=f"missiles[{i}].drv",
                actual=m.drv,
                limit=[stat.min, stat.max],
                rule=p.id,
                source=ctx.catalog.cite(p.source),  # the missile's own DRV paragraph, not the ship's
            )


class MissileLaunchParams(Params):
    launch_skill: str = Field(description="the pilot's skill an initial launch uses")
    lock_time_unit: str = Field(min_length=1)
    severity: Severity = Severity.ERROR


def apply_missile_launch(ctx: Context, p: MissileLaunchParams) -> None:
    """A missile is launched once the target stayed in the fire arc for its Lock Time: every
    missile needs a lock time."""
    design: WCFighter = ctx.design
    for i, m in enumerate(design.missiles):
        if not m.lock_time:
            ctx.findings.add(
                p.severity,
                "missile-no-lock-time",
                f"{m.name} has no lock time: a full lock needs the target in the arc for its Lock Time",
                path=f"missiles[{i}].lock_time",
                actual=m.lock_time,
                limit=1,
                rule=p.id,
                source=ctx.catalog.cite(p.source),
            )


class MissileLoadoutParams(Params):
    search: Literal["lower", "lower-then-top"] = Field(
        description="where the computer looks for the next load: lower on the list only, or from the top after the last"
    )
    severity: Severity = Severity.ERROR


def next_load(counts: list[int], exhausted: int, search: str) -> int | None:
    """The load the computer selects when load ``exhausted`` runs out: the next one lower on
    the list that still has missiles (and, with ``lower-then-top``, from the top after that)."""
    order = list(range(exhausted + 1, len(counts)))
    if search == "lower-then-top":
        order += list(range(exhausted))
    return next((i for i in order if counts[i] > 0), None)


def apply_missile_loadout(ctx: Context, p: MissileLoadoutParams) -> None:
    """The loadout is the missile loads in order: no load holds fewer than 0 missiles, and one
    with loads listed needs missiles in them."""
    design: WCFighter = ctx.design
    for i, m in enumerate(design.missiles):
        if m.count < 0:
            ctx.findings.add(
                p.severity,
                "missile-count-negative",
                f"{m.name}: {m.count} missiles; a load holds 0 or more",
                path=f"missiles[{i}].count",
                actual=m.count,
                limit=0,
                rule=p.id,
                source=ctx.catalog.cite(p.source),
            )
    if design.missiles and all(m.count == 0 for m in design.missiles):  # a negative count has its own error
        ctx.findings.add(
            p.severity,
            "missile-loadout-empty",
            f"{len(design.missiles)} missile load{'s' if len(design.missiles) != 1 else ''} listed, "
            "but none holds a missile",
            path="missiles[0].count",
            actual=0,
            limit=1,
            rule=p.id,
            source=ctx.catalog.cite(p.source),
        )


# --- numbered components ------------------------------------------------------------------------


@dataclass(frozen=True)
class NumberedComponent:
    number: int
    name: str
    space: int
    counts_as: int


def numbered_components(compartment: WCCompartment, zero_space_counts_as: int) -> list[NumberedComponent]:
    """A compartment's components numbered 1..n in the order entered; one of space 0 counts
    as ``zero_space_counts_as`` when lost systems are tallied."""
    return [
        NumberedComponent(n, c.name, c.space, c.space if c.space > 0 else zero_space_counts_as)
        for n, c in enumerate(compartment.components, 1)
    ]


def failing_component(rolled: int, offline: set[int], n: int, wraps: bool) -> int | None:
    """The component that fails when ``rolled`` comes up: itself, or if it is already offline
    the next higher number that is not (after the last, number 1 when ``wraps``)."""
    order = list(range(rolled, n + 1)) + (list(range(1, rolled)) if wraps else [])
    return next((c for c in order if c not in offline), None)


class ComponentsParams(Params):
    zero_space_counts_as: int = Field(ge=0, le=100)
    wraps: bool = Field(description="a failure passed on from the last component goes to component 1")
    severity: Severity = Severity.ERROR


def apply_numbered_components(ctx: Context, p: ComponentsParams) -> None:
    """Components in a compartment are numbered for the random failure roll; a component
    takes no space (0) or some, never less."""
    design: WCFighter = ctx.design
    for i, compartment in enumerate(design.compartments):
        for j, c in enumerate(compartment.components):
            if c.space < 0:
                ctx.findings.add(
                    p.severity,
                    "component-space-negative",
                    f"{compartment.name}: {c.name} takes {c.space} space; a component takes 0 (an internal "
                    "system) or more",
                    path=f"compartments[{i}].components[{j}].space",
                    actual=c.space,
                    limit=0,
                    rule=p.id,
                    source=ctx.catalog.cite(p.source),
                )
    ctx.notes["numbered-components"] = [numbered_components(c, p.zero_space_counts_as) for c in design.compartments]


RULE_TYPES: dict[str, RuleType] = {
    "resistance-modifier": RuleType(ResistanceParams, apply_resistance_modifier),
    "free-missile-decoys": RuleType(FreeDecoysParams, apply_free_missile_decoys),
    "decoys-per-action": RuleType(DecoysPerActionParams, apply_decoys_per_action),
    "linked-guns": RuleType(LinkedGunsParams, apply_linked_guns),
    "drv-step-modifier": RuleType(DrvStepParams, apply_drv_step_modifier),
    "missile-drv-range": RuleType(MissileDrvParams, apply_missile_drv_range),
    "missile-launch": RuleType(MissileLaunchParams, apply_missile_launch),
    "missile-loadout": RuleType(MissileLoadoutParams, apply_missile_loadout),
    "numbered-components": RuleType(ComponentsParams, apply_numbered_components),
}


__all__ = [
    "RULE_TYPES",
    "LinkGroup",
    "NumberedComponent",
    "Resistance",
    "StepModifier",
    "failing_component",
    "link_groups",
    "linked_fire",
    "next_load",
    "numbered_components",
    "resistance_modifier",
]
