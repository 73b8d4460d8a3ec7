"""What a Future Perfect record sheet shows: figures, the power bank and damage tracks, the
AP cost tables, the target numbers, the priced plan and what the ship can do now."""

from __future__ import annotations

from typing import Any

from shipyard.core.model import Context
from shipyard.core.numberwords import count_of
from shipyard.core.report import Action, Box, Derived, Figure, Table, Track
from shipyard.rulesets.future_perfect.design import FuturePerfectShip, FuturePerfectSystem
from shipyard.rulesets.future_perfect.items import ShipAction
from shipyard.rulesets.future_perfect.mechanisms import (
    BaseDefense,
    RepairParams,
    damage_level,
    repair_tn,
    target_numbers,
)
from shipyard.rulesets.future_perfect.plan import ROLES, PricedPlan, priced_plan
from shipyard.rulesets.future_perfect.record import (
    bank_capacity,
    generated,
    helmsman,
    is_disabled,
    levels,
    power_available,
    required,
    track_params,
    unstaffed,
    weapon_system,
)


def _role_name(ctx: Context, role_id: str) -> str:
    role = ctx.catalog.item("roles", role_id)
    return role.name if role is not None else role_id


def _kind_name(ctx: Context, kind_id: str) -> str:
    kind = ctx.catalog.item("system_kinds", kind_id)
    return kind.name if kind is not None else kind_id


def _actions(ctx: Context, role: str | None = None) -> list[ShipAction]:
    return [a for a in ctx.catalog.kind("actions").values() if isinstance(a, ShipAction) and role in (None, a.role)]


# --- figures ----------------------------------------------------------------------------------


def _field(ctx: Context, field: str, label: str, section: str, unit: str = "", detail: str = "") -> Figure:
    """A number of the record as it stands, with where it is set and the section it comes from."""
    value = getattr(ctx.design, field)
    return Figure(
        id=field, label=label, value=value, unit=unit, detail=detail, path=field, source=ctx.catalog.cite(section)
    )


def _record_figures(ctx: Context) -> list[Figure]:
    design: FuturePerfectShip = ctx.design
    cap = bank_capacity(ctx.catalog, design)
    gen = generated(ctx.catalog, design)
    figs = [
        _field(ctx, "ap", "AP", "Starship APs and Power", "AP", "each round"),
        _field(ctx, "power_rating", "Power rating", "Restore Power", detail=f"generates {gen} power each round"),
        _field(ctx, "power_bank", "Power bank", "Starship Roles: Engineering", "power"),
        Figure(
            id="bank_capacity",
            label="Bank capacity",
            value=cap,
            unit="power",
            detail="as the record sets it" if design.bank_capacity is not None else "from the Power rating",
            path="bank_capacity",
            source=ctx.catalog.cite("Restore Power"),
        ),
        Figure(
            id="power_available",
            label="Power this round",
            value=power_available(ctx.catalog, design),
            unit="power",
            detail=f"bank {design.power_bank} + {gen} generated, at most {cap}",
            source=ctx.catalog.cite("Starship APs and Power"),
        ),
        _field(ctx, "size", "Size", "Starship Defense"),
        _field(ctx, "speed", "Speed", "Initiative", detail="breaks initiative ties after APs bid"),
    ]
    bd = ctx.notes.get("base_defense")
    if isinstance(bd, BaseDefense):
        figs.append(
            Figure(
                id="base_defense_successes",
                label="Successes per +1 base defense",
                value=bd.per_point,
                detail=f"each multiple of Size {design.size} in successes on the defense test",
                source=bd.source,
            )
        )
    return figs


def _crew_figures(ctx: Context) -> list[Figure]:
    design: FuturePerfectShip = ctx.design
    cite = ctx.catalog.cite
    figs: list[Figure] = []
    commanders = [c for c in design.crew if c.role == "command"]
    figs.append(
        Figure(
            id="commander",
            label="Commander",
            value=", ".join(c.name for c in commanders) or "none",
            kind="text",
            detail=f"Tactics {commanders[0].rating}: the Initiative test" if len(commanders) == 1 else "",
            path="crew",
            source=cite("Starship Roles: Command"),
        )
    )
    helm = helmsman(design)
    figs.append(
        Figure(
            id="helmsman",
            label="Helmsman",
            value=helm.name if helm else "none",
            kind="text",
            detail=(f"Acuity {helm.acuity}" if helm and helm.acuity is not None else ""),
            path="crew",
            source=cite("Initiative"),
        )
    )
    bid = f"APs bid {design.plan.initiative}" if design.plan else "APs bid"
    acuity = f"Acuity {helm.acuity}" if helm and helm.acuity is not None else "the helmsman's Acuity"
    figs.append(
        Figure(
            id="initiative_ties",
            label="Initiative ties",
            value=f"{bid}, then Speed {design.speed}, then {acuity}, then an opposed draw (impulse value)",
            kind="text",
            source=cite("Initiative"),
        )
    )
    return figs


def _tn_figures(ctx: Context) -> list[Figure]:
    return [
        Figure(id=t.id, label=f"{t.name} TN", value=t.tn, detail=t.detail, source=t.source) for t in target_numbers(ctx)
    ]


def _plan_figures(ctx: Context, plan: PricedPlan) -> list[Figure]:
    src = ctx.catalog.cite("Initiative")
    ap_src = ctx.catalog.cite("Starship APs and Power")
    figs = [
        Figure(
            id="initiative_bid", label="Initiative bid", value=plan.bid, unit="AP", path="plan.initiative", source=src
        ),
        Figure(
            id="ap_available",
            label="AP to allocate",
            value=plan.available,
            unit="AP",
            detail=plan.available_detail,
            source=src,
        ),
        Figure(id="ap_allocated", label="AP allocated", value=plan.allocated, unit="AP", path="plan", source=src),
        Figure(
            id="ap_unallocated", label="AP not allocated", value=plan.unallocated, unit="AP", path="plan", source=src
        ),
    ]
    for r in ROLES:
        rp = plan.roles[r]
        how = [f"{rp.allocated} allocated", f"{rp.cost} bought"]
        if rp.power:
            how.append(f"{rp.power} from power")
        if rp.augmented:
            how.append(f"{rp.augmented} augmented")
        figs.append(
            Figure(
                id=f"ap_left.{r}",
                label=f"{_role_name(ctx, r)} AP left",
                value=rp.left,
                unit="AP",
                detail=", ".join(how),
                path=f"plan.{r}",
                source=ap_src,
            )
        )
    figs.append(
        Figure(
            id="power_left",
            label="Power left",
            value=plan.power_available - plan.power_used,
            unit="power",
            detail=f"{plan.power_available} this round - {plan.power_used} used",
            source=ap_src,
        )
    )
    return figs


# --- tracks -------------------------------------------------------------------------------------


def _tracks(ctx: Context) -> list[Track]:
    design: FuturePerfectShip = ctx.design
    cap = bank_capacity(ctx.catalog, design)
    tracks = [
        Track(
            id="power.bank",
            name="Power bank",
            boxes=[Box(label=str(n), marked=n <= design.power_bank) for n in range(1, cap + 1)],
            path="power_bank",
            source=ctx.catalog.cite("Starship Roles: Engineering"),
            notes=f"+{generated(ctx.catalog, design)} each round",
        )
    ]
    for i, s in enumerate(design.systems):
        core, eph = levels(ctx.catalog, s)
        for track, boxes, damage, section in (
            ("core", core, s.core_damage, "Starship Record Sheet"),
            ("ephemeral", eph, s.ephemeral_damage, "Starship Record Sheet"),
        ):
            tracks.append(
                Track(
                    id=f"systems.{i}.{track}",
                    name=f"{s.name}: {track}",
                    boxes=[Box(label=f"level {n}", marked=n <= damage) for n in range(1, boxes + 1)],
                    path=f"systems[{i}].{track}_damage",
                    source=ctx.catalog.cite(section),
                )
            )
    return tracks


# --- tables -----------------------------------------------------------------------------------


def _ap_cost_tables(ctx: Context) -> list[Table]:
    tables = []
    for r in ROLES:
        acts = _actions(ctx, r)
        tables.append(
            Table(
                id=f"ap_costs.{r}",
                title=f"{_role_name(ctx, r)} AP costs",
                columns=["Action", "AP", "Notes"],
                rows=[[a.name, a.printed_ap, a.notes] for a in acts],
                source=ctx.catalog.cite(acts[0].source) if acts else "",
            )
        )
    return tables


def _status(ctx: Context, s: FuturePerfectSystem) -> str:
    if is_disabled(ctx.catalog, s):
        return "disabled"
    return "damaged" if s.core_damage or s.ephemeral_damage else "ready"


def _repair_now(ctx: Context, s: FuturePerfectSystem) -> str:
    p = required(ctx.catalog, RepairParams)
    if not s.ephemeral_damage:
        return ""
    return str(repair_tn(p, damage_level(p, s.core_damage, s.ephemeral_damage)))


def _systems_table(ctx: Context) -> Table:
    design: FuturePerfectShip = ctx.design
    rows: list[list[Any]] = []
    for s in design.systems:
        core, eph = levels(ctx.catalog, s)
        rows.append(
            [
                s.name,
                _kind_name(ctx, s.kind),
                s.shield if s.kind == "shield" else "",
                f"{s.core_damage}/{core}",
                f"{s.ephemeral_damage}/{eph}",
                _status(ctx, s),
                _repair_now(ctx, s),
            ]
        )
    return Table(
        id="systems",
        title="Systems",
        columns=["System", "Kind", "Shield", "Core", "Ephemeral", "Status", "Repair TN"],
        rows=rows,
        state_column="Status",
        notes="Core damage cannot be repaired in combat; ephemeral damage can.",
        source=ctx.catalog.cite("Starship Record Sheet"),
    )


def _weapons_table(ctx: Context) -> Table:
    design: FuturePerfectShip = ctx.design
    fire = {a.grade: a for a in _actions(ctx, "tactical") if a.grade is not None}
    rows: list[list[Any]] = []
    for w in design.weapons:
        system = weapon_system(design, w)
        status = "no such system" if system is None else _status(ctx, system)
        act = fire.get(w.grade)
        rows.append([w.name, w.system, w.grade, act.ap if act else "", status])
    return Table(
        id="weapons",
        title="Weapons",
        columns=["Weapon", "System", "Grade", "Fire AP", "Status"],
        rows=rows,
        state_column="Status",
        notes="Each weapon system may only be fired once a round.",
        source=ctx.catalog.cite("Offense: AP Costs"),
    )


def _crew_table(ctx: Context) -> Table:
    design: FuturePerfectShip = ctx.design
    order = {r: i for i, r in enumerate(ctx.catalog.kind("roles"))}
    crew = sorted(design.crew, key=lambda c: order.get(c.role, len(order)))
    rows: list[list[Any]] = [
        [c.name, _role_name(ctx, c.role), c.skill, c.rating, "" if c.acuity is None else c.acuity] for c in crew
    ]
    return Table(
        id="crew",
        title="Crew",
        columns=["Name", "Role", "Skill", "Rating", "Acuity"],
        rows=rows,
        source=ctx.catalog.cite("Starship Roles"),
    )


def _tn_tables(ctx: Context) -> list[Table]:
    design: FuturePerfectShip = ctx.design
    p = required(ctx.catalog, RepairParams)
    rows: list[list[Any]] = [[t.name, _role_name(ctx, t.role), t.tn, t.detail] for t in target_numbers(ctx)]
    repair = ctx.catalog.item("actions", p.action)
    how = "ephemeral damage level" if p.damage_level == "ephemeral" else "damage level (core + ephemeral)"
    rows.append(
        [
            repair.name if repair else p.action,
            _role_name(ctx, "engineering"),
            f"{p.base} + {p.per_level} x level",
            f"{how}; success reduces the damage by one level",
        ]
    )
    default = track_params(ctx.catalog).default_levels
    if p.damage_level == "ephemeral":
        top = max((levels(ctx.catalog, s)[1] for s in design.systems), default=default)
    else:
        top = max((sum(levels(ctx.catalog, s)) for s in design.systems), default=2 * default)
    tables = [
        Table(
            id="target_numbers",
            title="Target numbers",
            columns=["Test", "Role", "TN", "Each success and bump"],
            rows=rows,
            source=ctx.catalog.cite("Procedure"),
        ),
        Table(
            id="repair_tn",
            title="Repair TN by damage level",
            columns=["level", "tn"],  # read as objects: dict(zip(columns, row)) (docs/rules-future-perfect.md)
            rows=[[n, repair_tn(p, n)] for n in range(1, top + 1)],
            notes=f"TN = {p.base} + ({p.per_level} x {how}); only ephemeral damage can be repaired in combat.",
            source=ctx.catalog.cite(p.source),
        ),
    ]
    bd = ctx.notes.get("base_defense")
    if isinstance(bd, BaseDefense):
        tables.append(
            Table(
                id="base_defense",
                title="Base defense",
                columns=["Successes", "Base defense"],
                rows=[[s, f"+{n}"] for s, n in bd.steps],
                notes=f"Each {count_of(bd.per_point, 'success')} on the helm's defense test (a complex test) add 1.",
                source=bd.source,
            )
        )
    return tables


def _plan_tables(ctx: Context, plan: PricedPlan) -> list[Table]:
    role_rows: list[list[Any]] = [
        [_role_name(ctx, r), rp.allocated, rp.cost, rp.power, rp.augmented, rp.spent, rp.left]
        for r, rp in plan.roles.items()
    ]
    action_rows: list[list[Any]] = [
        [
            _role_name(ctx, pa.entry.role),
            pa.action.name,
            pa.target_name,
            pa.cost,
            pa.entry.power,
            pa.augmented,
            pa.from_allocation,
        ]
        for pa in plan.actions
    ]
    src = ctx.catalog.cite("Starship APs and Power")
    return [
        Table(
            id="plan",
            title="Round plan",
            columns=["Role", "Allocated", "Cost", "Power", "Augmented", "Spent", "Left"],
            rows=role_rows,
            notes=f"Bid {plan.bid} of {plan.ap} AP; {plan.available} to allocate, {plan.allocated} allocated. "
            f"Power used {plan.power_used} of {plan.power_available}.",
            source=src,
        ),
        Table(
            id="plan_actions",
            title="Actions bought",
            columns=["Role", "Action", "Target", "AP", "Power", "Augmented", "From allocation"],
            rows=action_rows,
            source=src,
        ),
    ]


# --- what the ship can do now -----------------------------------------------------------------------


def _can(ctx: Context, act: ShipAction) -> str:
    """Why the ship cannot take ``act`` now ("" when it can)."""
    design: FuturePerfectShip = ctx.design
    cat = ctx.catalog
    if nobody := unstaffed(cat, design, act.role):
        return nobody
    if act.uses != "target":
        systems = [s for s in design.systems if s.kind == act.uses]
        if not systems:
            return f"no {_kind_name(ctx, act.uses)} system"
        if all(is_disabled(cat, s) for s in systems):
            return f"{', '.join(s.name for s in systems)} disabled"
        return ""
    if act.target == "weapon":
        weapons = [w for w in design.weapons if act.grade in (None, w.grade)]
        if not weapons:
            return f"no {act.grade + ' ' if act.grade else ''}weapon"
        usable = [w for w in weapons if (s := weapon_system(design, w)) is not None and not is_disabled(cat, s)]
        return "" if usable else "every such weapon's system is disabled"
    systems = [s for s in design.systems if act.target == "system" or s.kind == act.target]
    if not systems:
        return f"no {_kind_name(ctx, act.target)} system"
    return "" if any(not is_disabled(cat, s) for s in systems) else "every such system is disabled"


def _action_list(ctx: Context) -> list[Action]:
    out = []
    for act in _actions(ctx):
        why = _can(ctx, act)
        out.append(
            Action(
                id=act.id,
                name=act.name,
                allowed=not why,
                reason=why,
                group=_role_name(ctx, act.role),
                details={"AP": act.printed_ap, "Step": act.step},
                source=ctx.catalog.cite(act.source),
            )
        )
    return out


def derive(ctx: Context) -> Derived:
    plan = priced_plan(ctx)
    figures = [*_record_figures(ctx), *_tn_figures(ctx), *_crew_figures(ctx)]
    tables = [_systems_table(ctx), _weapons_table(ctx), _crew_table(ctx), *_ap_cost_tables(ctx), *_tn_tables(ctx)]
    if plan is not None:
        figures += _plan_figures(ctx, plan)
        tables += _plan_tables(ctx, plan)
    return Derived(figures=figures, tables=tables, tracks=_tracks(ctx), actions=_action_list(ctx))
