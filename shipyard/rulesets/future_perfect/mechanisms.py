"""The mechanisms of a Future Perfect ship record, each a typed rule the catalog names.

The round plan's pricing is in :mod:`.plan`; the target numbers each test uses are
worked out here, once, and kept in the context for the derived figures and the sheet.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from shipyard.core.findings import Severity
from shipyard.core.model import Context, Params, RuleType
from shipyard.core.numberwords import count_of
from shipyard.core.suggest import did_you_mean, normalise
from shipyard.rulesets.future_perfect.design import FuturePerfectShip
from shipyard.rulesets.future_perfect.items import Role
from shipyard.rulesets.future_perfect.plan import PLAN_RULE_TYPES, priced_plan
from shipyard.rulesets.future_perfect.record import (
    PowerBankParams,
    TrackParams,
    bank_capacity,
    find_system,
    helmsman,
    levels,
)

# --- target numbers, kept for the derived figures -------------------------------------------


@dataclass(frozen=True)
class TargetNumber:
    """A test's target number as the sheet prints it."""

    id: str
    name: str
    role: str
    tn: int
    detail: str
    source: str


def target_numbers(ctx: Context) -> list[TargetNumber]:
    found: list[TargetNumber] = ctx.notes.setdefault("target_numbers", [])
    return found


# --- crew in the four roles ---------------------------------------------------------------


class RoleLimit(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min: int = Field(ge=0)
    max: int | None = Field(default=None, ge=1)
    severity: Severity


class RoleCrewParams(Params):
    roles: dict[str, RoleLimit]


def apply_role_crew(ctx: Context, p: RoleCrewParams) -> None:
    """Command is always a single character; a role with no one cannot be used."""
    design: FuturePerfectShip = ctx.design
    for role_id, limit in p.roles.items():
        role = ctx.catalog.item("roles", role_id)
        name = role.name if role else role_id
        src = ctx.catalog.cite(role.source if role else p.source)
        members = [(i, c) for i, c in enumerate(design.crew) if c.role == role_id]
        if len(members) < limit.min:
            need = "exactly one character" if limit.max == limit.min == 1 else f"at least {limit.min}"
            ctx.findings.add(
                limit.severity,
                "role-unfilled",
                f"{name} needs {need}; none is assigned"
                + ("" if limit.severity == Severity.ERROR else " (the ship cannot use the role)"),
                path="crew",
                actual=len(members),
                limit=limit.min,
                rule=p.id,
                source=src,
            )
        if limit.max is not None and len(members) > limit.max:
            names = ", ".join(c.name for _, c in members)
            single = "always a single character" if limit.max == 1 else f"at most {limit.max} characters"
            ctx.findings.add(
                limit.severity,
                "role-over-limit",
                f"{name} is {single}; {len(members)} are assigned ({names})",
                path=f"crew[{members[limit.max][0]}].role",
                actual=len(members),
                limit=limit.max,
                rule=p.id,
                source=src,
            )


class CrewSkillParams(Params):
    severity: Severity = Severity.ADVICE


def apply_crew_skills(ctx: Context, p: CrewSkillParams) -> None:
    """Each role rolls its own skill (Command: Tactics; Helm: Piloting ...); the helmsman's
    Acuity breaks initiative ties."""
    design: FuturePerfectShip = ctx.design
    for i, c in enumerate(design.crew):
        role = ctx.catalog.item("roles", c.role)
        if not isinstance(role, Role):
            continue
        if c.skill and normalise(c.skill) not in {normalise(s) for s in role.skills}:
            ctx.findings.add(
                p.severity,
                "crew-skill-not-the-roles",
                f"{c.name} is in {role.name} with {c.skill}; {role.name} rolls {' or '.join(role.skills)}",
                path=f"crew[{i}].skill",
                actual=c.skill,
                limit=role.skills,
                rule=p.id,
                source=ctx.catalog.cite(role.source),
            )
    helm = helmsman(design)
    if helm is not None and helm.acuity is None:
        i = design.crew.index(helm)
        ctx.findings.add(
            p.severity,
            "helmsman-acuity-missing",
            f"the helmsman {helm.name} has no Acuity; it breaks initiative ties after APs bid and Speed",
            path=f"crew[{i}].acuity",
            actual=None,
            limit=None,
            rule=p.id,
            source=ctx.catalog.cite("Initiative"),
        )


# --- systems, their damage tracks and shields ----------------------------------------------


def _duplicates(names: Iterable[str]) -> list[tuple[int, str]]:
    seen: set[str] = set()
    out = []
    for i, name in enumerate(names):
        key = normalise(name)
        if key in seen:
            out.append((i, name))
        seen.add(key)
    return out


def apply_system_tracks(ctx: Context, p: TrackParams) -> None:
    """Core and ephemeral damage each fill a track of levels; damage beyond them is an error.
    Systems are named in the plan and by weapons, so each name is used once."""
    design: FuturePerfectShip = ctx.design
    src = ctx.catalog.cite(p.source)
    for i, s in enumerate(design.systems):
        for track, damage, boxes in zip(
            ("core", "ephemeral"), (s.core_damage, s.ephemeral_damage), levels(ctx.catalog, s), strict=True
        ):
            if damage > boxes:
                ctx.findings.add(
                    p.severity,
                    "damage-over-track",
                    f"{s.name} has {damage} {track} damage; its {track} track has {count_of(boxes, 'level')}",
                    path=f"systems[{i}].{track}_damage",
                    actual=damage,
                    limit=boxes,
                    rule=p.id,
                    source=src,
                )
    for i, name in _duplicates(s.name for s in design.systems):
        ctx.findings.add(
            p.severity,
            "duplicate-system-name",
            f"two systems are called {name!r}; the plan and the weapons name systems, so each name is used once",
            path=f"systems[{i}].name",
            actual=name,
            limit=None,
            rule=p.id,
            source=src,
        )


class ShieldParams(Params):
    severity: Severity = Severity.ERROR
    ignored_severity: Severity = Severity.WARNING


def apply_shield_values(ctx: Context, p: ShieldParams) -> None:
    """Each shield system has a Shield value (its modulation TN comes from it)."""
    design: FuturePerfectShip = ctx.design
    for i, s in enumerate(design.systems):
        if s.kind == "shield" and s.shield is None:
            ctx.findings.add(
                p.severity,
                "shield-value-missing",
                f"{s.name} is a shield system without a Shield value",
                path=f"systems[{i}].shield",
                actual=None,
                limit=None,
                rule=p.id,
                source=ctx.catalog.cite(p.source),
            )
        elif s.kind != "shield" and s.shield is not None:
            ctx.findings.add(
                p.ignored_severity,
                "shield-value-ignored",
                f"{s.name} is a {s.kind} system; its Shield value {s.shield} is not used",
                path=f"systems[{i}].shield",
                actual=s.shield,
                limit=None,
                rule=p.id,
                source=ctx.catalog.cite(p.source),
            )


class WeaponSystemParams(Params):
    severity: Severity = Severity.ERROR


def apply_weapon_systems(ctx: Context, p: WeaponSystemParams) -> None:
    """Each weapon belongs to one of the ship's weapon systems."""
    design: FuturePerfectShip = ctx.design
    for i, w in enumerate(design.weapons):
        found = find_system(design, w.system)
        if found is None:
            hint = did_you_mean(w.system, [s.name for s in design.systems if s.kind == "weapon"])
            ctx.findings.add(
                p.severity,
                "weapon-system-unknown",
                (
                    f"{w.name} belongs to {w.system!r}, which is not one of the ship's systems"
                    if w.system.strip()
                    else f"{w.name} belongs to no weapon system"
                )
                + (f"; {hint}" if hint else ""),
                path=f"weapons[{i}].system",
                actual=w.system,
                limit=[s.name for s in design.systems if s.kind == "weapon"],
                rule=p.id,
                source=ctx.catalog.cite(p.source),
            )
        elif found[1].kind != "weapon":
            ctx.findings.add(
                p.severity,
                "weapon-system-not-weapon",
                f"{w.name} belongs to {found[1].name}, a {found[1].kind} system, not a weapon system",
                path=f"weapons[{i}].system",
                actual=found[1].kind,
                limit="weapon",
                rule=p.id,
                source=ctx.catalog.cite(p.source),
            )
    for i, name in _duplicates(w.name for w in design.weapons):
        ctx.findings.add(
            p.severity,
            "duplicate-weapon-name",
            f"two weapons are called {name!r}; the plan fires weapons by name, so each name is used once",
            path=f"weapons[{i}].name",
            actual=name,
            limit=None,
            rule=p.id,
            source=ctx.catalog.cite(p.source),
        )


def apply_power_bank(ctx: Context, p: PowerBankParams) -> None:
    """The bank holds stored power up to its capacity."""
    design: FuturePerfectShip = ctx.design
    cap = bank_capacity(ctx.catalog, design)
    if design.power_bank > cap:
        how = "as the record sets it" if design.bank_capacity is not None else f"{p.capacity_per_rating} x Power rating"
        ctx.findings.add(
            p.severity,
            "power-bank-over-capacity",
            f"the power bank holds {design.power_bank}; its capacity is {cap} ({how})",
            path="power_bank",
            actual=design.power_bank,
            limit=cap,
            rule=p.id,
            source=ctx.catalog.cite(p.source),
        )


# --- target numbers ----------------------------------------------------------------------


class DefenseParams(Params):
    tn: int = Field(ge=1, le=20)
    action: str = Field(description="the helm action that lowers the TN")
    per_action: int = Field(ge=1)
    minimum: int = Field(ge=1)
    wasted_severity: Severity = Severity.WARNING


def defense_tn(p: DefenseParams, evasive: int) -> int:
    return max(p.minimum, p.tn - p.per_action * evasive)


def apply_defense_tn(ctx: Context, p: DefenseParams) -> None:
    """Starship defense TN 5; each Evasive maneuvers lowers it by 1, to a minimum of 2."""
    plan = priced_plan(ctx)
    evasive = [a for a in plan.actions if a.action.id == p.action] if plan else []
    tn = defense_tn(p, len(evasive))
    useful = (p.tn - p.minimum + p.per_action - 1) // p.per_action
    action = ctx.catalog.item("actions", p.action)
    name = action.name if action else p.action
    detail = f"from {p.tn}, -{p.per_action} per {name}, minimum {p.minimum}; {len(evasive)} bought"
    target_numbers(ctx).append(
        TargetNumber("defense_tn", "Starship defense", "helm", tn, detail, ctx.catalog.cite(p.source))
    )
    if len(evasive) > useful:
        ctx.findings.add(
            p.wasted_severity,
            "evasive-wasted",
            f"{len(evasive)} {name} bought; the TN reaches its minimum {p.minimum} after {useful}, "
            f"so {len(evasive) - useful} buy nothing",
            path=f"plan.actions[{evasive[useful].index}]",
            actual=len(evasive),
            limit=useful,
            rule=p.id,
            source=ctx.catalog.cite(p.source),
        )


class RepairParams(Params):
    base: int = Field(ge=0)
    per_level: int = Field(ge=0)
    damage_level: Literal["ephemeral", "total"] = Field(
        description="the damage level of the formula: the ephemeral damage taken, or core + ephemeral"
    )
    action: str
    severity: Severity = Severity.WARNING


def repair_tn(p: RepairParams, level: int) -> int:
    return p.base + p.per_level * level


def damage_level(p: RepairParams, core: int, ephemeral: int) -> int:
    return ephemeral + (core if p.damage_level == "total" else 0)


def apply_repair_tn(ctx: Context, p: RepairParams) -> None:
    """Repair TN 3 + 2 x damage level; only ephemeral damage can be repaired in combat."""
    plan = priced_plan(ctx)
    for a in plan.actions if plan else []:
        if a.action.id != p.action or a.system is None:
            continue
        s = a.system
        if s.ephemeral_damage == 0:
            why = "only core damage, which cannot be repaired in combat" if s.core_damage else "no damage"
            ctx.findings.add(
                p.severity,
                "repair-nothing-to-repair",
                f"{a.action.name} on {s.name}: it has {why}",
                path=f"plan.actions[{a.index}].target",
                actual=s.ephemeral_damage,
                limit=1,
                rule=p.id,
                source=ctx.catalog.cite(p.source),
            )


class FixedTnParams(Params):
    test: str = Field(description="the id the figure takes (restore_power_tn ...)")
    action: str = Field(description="the action whose test this is")
    tn: int = Field(ge=1, le=20)
    each_success: str = Field(description="what each success and bump gives, as the sheet prints it")


def apply_fixed_tn(ctx: Context, p: FixedTnParams) -> None:
    """A test with a fixed TN: Restore power TN 5, Augment system TN 5."""
    action = ctx.catalog.item("actions", p.action)
    name = action.name if action else p.action
    role = getattr(action, "role", "")
    target_numbers(ctx).append(TargetNumber(p.test, name, role, p.tn, p.each_success, ctx.catalog.cite(p.source)))


class ModulationParams(Params):
    base: int = Field(description="TN = base + per_shield x the Shield value")
    per_shield: int
    minimum: int = Field(default=0, ge=0, description="the lowest TN (0: none, the formula as it comes)")
    each_success: str


def modulation_tn(p: ModulationParams, shield: int) -> int:
    return max(p.minimum, p.base + p.per_shield * shield)


def apply_modulation_tn(ctx: Context, p: ModulationParams) -> None:
    """Shield modulation: the TN comes from the shield's value (a formula of the catalog)."""
    design: FuturePerfectShip = ctx.design
    for s in design.systems:
        if s.kind == "shield" and s.shield is not None:
            tn = modulation_tn(p, s.shield)
            target_numbers(ctx).append(
                TargetNumber(
                    f"modulation_tn.{normalise(s.name)}",
                    f"Modulate {s.name}",
                    "tactical",
                    tn,
                    f"Shield {s.shield}; {p.each_success}",
                    ctx.catalog.cite(p.source),
                )
            )


class BaseDefenseParams(Params):
    per_size: int = Field(ge=1, description="successes per +1 base defense = this x the Size value")
    rows: int = Field(ge=1, le=10, description="how many steps the sheet prints")


@dataclass(frozen=True)
class BaseDefense:
    """The successes of the helm's defense test that each +1 base defense needs."""

    per_point: int
    steps: list[tuple[int, int]]  # (successes, base defense)
    source: str


def apply_base_defense(ctx: Context, p: BaseDefenseParams) -> None:
    """Starship defense is a complex test: each multiple of the Size value in successes adds
    1 to the base defense."""
    design: FuturePerfectShip = ctx.design
    per = design.size * p.per_size
    steps = [(per * n, n) for n in range(1, p.rows + 1)] if per > 0 else []
    ctx.notes["base_defense"] = BaseDefense(per, steps, ctx.catalog.cite(p.source))


RULE_TYPES: dict[str, RuleType] = {
    "role-crew": RuleType(RoleCrewParams, apply_role_crew),
    "crew-skills": RuleType(CrewSkillParams, apply_crew_skills),
    "system-tracks": RuleType(TrackParams, apply_system_tracks),
    "shield-values": RuleType(ShieldParams, apply_shield_values),
    "weapon-systems": RuleType(WeaponSystemParams, apply_weapon_systems),
    "power-bank": RuleType(PowerBankParams, apply_power_bank),
    **PLAN_RULE_TYPES,
    "defense-tn": RuleType(DefenseParams, apply_defense_tn),
    "repair-tn": RuleType(RepairParams, apply_repair_tn),
    "fixed-tn": RuleType(FixedTnParams, apply_fixed_tn),
    "modulation-tn": RuleType(ModulationParams, apply_modulation_tn),
    "base-defense": RuleType(BaseDefenseParams, apply_base_defense),
}
