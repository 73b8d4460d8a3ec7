"""The round plan priced from the AP cost tables: the bid, each role's allocation, what
each action costs and how it is paid (power, augmented AP, the role's allocation).

"This cost must be paid from the ship's AP pool, from the APs allocated to the
appropriate system. Up to 1 point of the cost of any action may be paid from the ship's
power pool instead." (Starship APs and Power). The priced plan is kept in the context for
the other rules (defense TN, repair) and the derived tables.
"""

from dataclasses import dataclass, field

from pydantic import Field

from shipyard.core.findings import Severity
from shipyard.core.model import Context, Params, RuleType
from shipyard.core.suggest import did_you_mean, normalise
from shipyard.rulesets.future_perfect.design import (
    FuturePerfectAction,
    FuturePerfectShip,
    FuturePerfectSystem,
    FuturePerfectWeapon,
)
from shipyard.rulesets.future_perfect.items import Role, ShipAction
from shipyard.rulesets.future_perfect.record import (
    find_system,
    find_weapon,
    is_disabled,
    power_available,
    unstaffed,
    weapon_system,
)

ROLES = ("helm", "tactical", "engineering")

# The once-a-round limits by what the action acts on: (finding code, what is done twice, the text's words).
_ONCE = {
    "weapon": ("weapon-fired-twice", "fired", "each weapon system may only be fired once"),
    "shield": ("shield-modulated-twice", "modulated", "shield modulation may only be performed once per shield"),
}


# Where the text says a disabled system cannot be used, by the role whose action uses it:
# a damaged weapon "may not be used later in the round" (Offense); a warp jump "fails if the
# ship's engines are disabled" (the Helm table); any other system, the record sheet's damage.
_DISABLED_SOURCE = {"tactical": "Offense", "helm": "Movement and Maneuver: AP Costs"}


@dataclass
class PricedAction:
    """One planned action with what it costs and how it is paid."""

    index: int
    entry: FuturePerfectAction
    action: ShipAction
    weapon: FuturePerfectWeapon | None = None
    system: FuturePerfectSystem | None = None  # the system it acts on (a shield, a repaired system, a weapon's system)
    uses: list[FuturePerfectSystem] = field(default_factory=list)  # the systems whose APs may pay for it
    power: int = 0
    augmented: int = 0

    @property
    def cost(self) -> int:
        return self.action.ap

    @property
    def from_allocation(self) -> int:
        return max(0, self.cost - self.power - self.augmented)

    @property
    def target_name(self) -> str:
        if self.weapon is not None:
            return self.weapon.name
        return self.system.name if self.system is not None else (self.entry.target or "")


@dataclass
class RolePlan:
    role: str
    allocated: int
    cost: int = 0
    power: int = 0
    augmented: int = 0
    spent: int = 0  # from the allocation

    @property
    def left(self) -> int:
        return self.allocated - self.spent


@dataclass
class PricedPlan:
    ap: int
    bid: int
    base: int  # the ship's own AP to allocate: AP minus the bid when the bid is spent
    roles: dict[str, RolePlan]
    actions: list[PricedAction]
    power_available: int
    power_used: int
    augmented: dict[str, int]  # by system name, as the plan gives them
    augmented_given: dict[str, int]  # by the system's own name: the plan's augmented AP of systems the ship has
    augmented_allocated: dict[str, int]  # by the system's own name: augmented AP the commander allocated to a role
    augmented_left: dict[str, int]

    @property
    def augmented_total(self) -> int:
        return sum(self.augmented_given.values())

    @property
    def available(self) -> int:
        """AP available for allocation: the ship's AP less the bid, plus each AP an Augment
        gave a system last round (for that system only)."""
        return self.base + self.augmented_total

    @property
    def allocated(self) -> int:
        return sum(r.allocated for r in self.roles.values())

    @property
    def unallocated(self) -> int:
        """The ship's own AP left out of the allocations (lost at the end of the round).
        Augmented AP not allocated are not counted: they pay for their system's actions."""
        return self.base + sum(self.augmented_allocated.values()) - self.allocated

    @property
    def available_detail(self) -> str:
        """How the AP to allocate are made up: "AP 12 - 2 bid + 1 augmented (Engineering)"."""
        text = f"AP {self.ap} - {self.bid} bid" if self.base != self.ap else f"AP {self.ap}"
        if self.augmented_total:
            names = ", ".join(self.augmented_given)
            text += f" + {self.augmented_total} augmented ({names})"
        return text


def priced_plan(ctx: Context) -> PricedPlan | None:
    """The plan as the ``round-plan`` rule priced it (None without a plan)."""
    found = ctx.notes.get("plan")
    return found if isinstance(found, PricedPlan) else None


class RoundPlanParams(Params):
    bid_spent: bool = Field(description="APs bid for initiative are spent: they are not allocated")
    power_per_action: int = Field(ge=0, description="points of one action's cost the power bank may pay")
    fire_extras_one_action: bool = Field(description="Careful shot is one action with the shot it is added to")
    severity: Severity = Severity.ERROR
    unspent_severity: Severity = Severity.ADVICE


class _Pricing:
    """One pricing of one plan: the findings as they are found, the priced actions."""

    def __init__(self, ctx: Context, p: RoundPlanParams, design: FuturePerfectShip) -> None:
        self.ctx, self.p, self.design = ctx, p, design
        assert design.plan is not None
        self.plan = design.plan

    def error(self, code: str, message: str, path: str, actual: object, limit: object, section: str = "") -> None:
        """An error of the plan; its source is ``section`` of the text (default: the rule's)."""
        self.ctx.findings.add(
            self.p.severity,
            code,
            message,
            path=path,
            actual=actual,
            limit=limit,
            rule=self.p.id,
            source=self.ctx.catalog.cite(section or self.p.source),
        )

    # --- who takes the action ---

    def staffed(self, pa: PricedAction) -> None:
        """An action is taken by someone in the role whose table it is on: with no one in
        that role the ship cannot take it (the action list refuses it for the same reason)."""
        act = pa.action
        nobody = unstaffed(self.ctx.catalog, self.design, act.role)
        if not nobody:
            return
        role = self.ctx.catalog.item("roles", act.role)
        quote = f' ("{role.quote}")' if isinstance(role, Role) and role.quote else ""
        self.error(
            "action-unstaffed",
            f"{act.name}: {nobody}{quote}; assign a character to the role or take the action out of the plan",
            f"plan.actions[{pa.index}]",
            0,
            1,
            role.source if role is not None else "Starship Roles",
        )

    # --- targets and the systems an action uses ---

    def target(self, pa: PricedAction) -> bool:
        """Find the action's target; False (with a finding) when it has none it can use."""
        act, entry, path = pa.action, pa.entry, f"plan.actions[{pa.index}].target"
        if act.target == "none":
            return True
        noun = {"weapon": "weapon", "shield": "shield system", "system": "system"}[act.target]
        if not entry.target:
            self.error("action-target-missing", f"{act.name} needs a {noun} as its target", path, None, noun)
            return False
        if act.target == "weapon":
            found_w = find_weapon(self.design, entry.target)
            if found_w is None:
                names = [w.name for w in self.design.weapons]
                self._unknown(pa, noun, names, path)
                return False
            pa.weapon = found_w[1]
            pa.system = weapon_system(self.design, pa.weapon)
            if act.grade is not None and pa.weapon.grade != act.grade:
                self.error(
                    "action-target-wrong-grade",
                    f"{act.name}: {pa.weapon.name} is a {pa.weapon.grade} weapon",
                    path,
                    pa.weapon.grade,
                    act.grade,
                    act.source,
                )
            return True
        found_s = find_system(self.design, entry.target)
        candidates = [s for s in self.design.systems if act.target == "system" or s.kind == "shield"]
        if found_s is None:
            self._unknown(pa, noun, [s.name for s in candidates], path)
            return False
        pa.system = found_s[1]
        if act.target == "shield" and pa.system.kind != "shield":
            self.error(
                "action-target-wrong-kind",
                f"{act.name}: {pa.system.name} is a {pa.system.kind} system, not a shield",
                path,
                pa.system.kind,
                "shield",
                act.source,
            )
        return True

    def _unknown(self, pa: PricedAction, noun: str, names: list[str], path: str) -> None:
        target = pa.entry.target or ""
        hint = did_you_mean(target, names)
        self.error(
            "action-target-unknown",
            f"{pa.action.name}: the ship has no {noun} {target!r}" + (f"; {hint}" if hint else ""),
            path,
            target,
            names,
        )

    def uses(self, pa: PricedAction) -> None:
        """The systems the action uses; a disabled one (or none at all) is an error."""
        act, path = pa.action, f"plan.actions[{pa.index}]"
        if act.uses == "target":
            systems = [pa.system] if pa.system is not None else []
        else:
            systems = [s for s in self.design.systems if s.kind == act.uses]
            if not systems:
                kind = self.ctx.catalog.item("system_kinds", act.uses)
                self.error(
                    "action-needs-system",
                    f"{act.name} needs a {kind.name if kind else act.uses} system; the ship has none",
                    path,
                    0,
                    1,
                )
                return
        usable = [s for s in systems if not is_disabled(self.ctx.catalog, s)]
        if systems and not usable:
            names = ", ".join(s.name for s in systems)
            self.error(
                "disabled-system-used",
                f"{act.name} uses {names}, which {'is' if len(systems) == 1 else 'are'} disabled",
                path,
                names,
                None,
                _DISABLED_SOURCE.get(act.role, "Starship Record Sheet"),
            )
        pa.uses = usable

    # --- once a round ---

    def once_a_round(self, priced: list[PricedAction]) -> None:
        """Each weapon *system* fires once a round ("each weapon system may only be fired
        once": two weapons of one system are that system fired twice), each shield is
        modulated once; an extra added to a shot needs that shot, once."""
        done: dict[tuple[str, int], PricedAction] = {}
        extras: set[tuple[str, int]] = set()
        fires = {id(a.weapon) for a in priced if a.weapon is not None and not a.action.adds_to_fire}
        for pa in priced:
            act, path = pa.action, f"plan.actions[{pa.index}]"
            if act.adds_to_fire and pa.weapon is not None:
                if id(pa.weapon) not in fires:
                    self.error(
                        "extra-without-fire",
                        f"{act.name} is added to a shot; the plan does not fire {pa.weapon.name}",
                        path,
                        pa.weapon.name,
                        None,
                        act.source,
                    )
                key = (act.id, id(pa.weapon))
                if key in extras:
                    self.error(
                        "extra-twice",
                        f"{act.name} is bought twice for one shot of {pa.weapon.name}",
                        path,
                        2,
                        1,
                        act.source,
                    )
                extras.add(key)
                continue
            # a weapon's once-a-round is its system's (a weapon whose system is unknown: its own)
            target = (pa.system or pa.weapon) if act.target == "weapon" else pa.system
            if not act.once_per_target or target is None or act.target not in _ONCE:
                continue
            first = done.setdefault((act.target, id(target)), pa)
            if first is not pa:
                code, verb, rule = _ONCE[act.target]
                said = [
                    f"[{a.index}]" + (f" fires {a.weapon.name}" if a.weapon is not None else "") for a in (first, pa)
                ]
                self.error(
                    code,
                    f'{target.name} is {verb} twice (plan.actions{said[0]} and {said[1]}); "{rule}"',
                    path,
                    2,
                    1,
                    act.source,
                )

    # --- paying: power, augmented AP, the allocation ---

    def power(self, priced: list[PricedAction]) -> int:
        """Up to 1 point of any action's cost from the power bank; never more than it holds."""
        limit = self.p.power_per_action
        src = "Starship APs and Power"
        groups: dict[object, int] = {}
        used = 0
        available = power_available(self.ctx.catalog, self.design)
        over_bank = False
        for pa in priced:
            paid = pa.entry.power
            path = f"plan.actions[{pa.index}].power"
            pa.power = min(paid, pa.cost)
            key: object = pa.index
            if self.p.fire_extras_one_action and pa.weapon is not None and pa.action.role == "tactical":
                key = ("shot", id(pa.weapon))
            before = groups.get(key, 0)
            groups[key] = before + paid
            if paid > limit:
                self.error(
                    "power-over-one-per-action",
                    f"{paid} power paid towards {pa.action.name}; up to {limit} point of any action's cost "
                    "may be paid from the power pool",
                    path,
                    paid,
                    limit,
                    src,
                )
            elif paid and groups[key] > limit:
                self.error(
                    "power-over-one-per-action",
                    f"{groups[key]} power paid towards one shot of {pa.target_name} ({pa.action.name} is added to "
                    f"its shot); up to {limit} point of any action's cost may be paid from the power pool",
                    path,
                    groups[key],
                    limit,
                    src,
                )
            used += paid
            if paid and used > available and not over_bank:
                over_bank = True
                self.error(
                    "power-over-bank",
                    f"the plan pays {sum(a.entry.power for a in priced)} power; {available} is available this round",
                    path,
                    sum(a.entry.power for a in priced),
                    available,
                    "Restore Power",
                )
        return used

    def augmented_given(self) -> dict[str, int]:
        """The plan's augmented AP by the ship's own name of each system (an unknown one is
        an error and gives nothing)."""
        given: dict[str, int] = {}
        for name, ap in self.plan.augmented.items():
            found = find_system(self.design, name)
            if found is None:
                hint = did_you_mean(name, [s.name for s in self.design.systems])
                self.error(
                    "augmented-system-unknown",
                    f"{ap} augmented AP for {name!r}, which is not one of the ship's systems"
                    + (f"; {hint}" if hint else ""),
                    f"plan.augmented.{name}",
                    name,
                    [s.name for s in self.design.systems],
                    "Augment System",
                )
                continue
            if ap > 0:  # 0 AP given is none: it neither adds to what is available nor earmarks a system
                given[found[1].name] = given.get(found[1].name, 0) + ap
        return given

    def pay_augmented(self, priced: list[PricedAction], pool: dict[str, int]) -> dict[str, int]:
        """Augmented AP not allocated to a role pay for actions of their system, before the
        allocation; what is left of ``pool`` (by system name)."""
        left = {normalise(name): ap for name, ap in pool.items()}
        for pa in priced:
            for s in pa.uses:
                key = normalise(s.name)
                take = min(left.get(key, 0), pa.cost - pa.power - pa.augmented)
                if take > 0:
                    pa.augmented += take
                    left[key] -= take
        names = {normalise(name): name for name in pool}
        return {names[k]: ap for k, ap in left.items()}


def apply_round_plan(ctx: Context, p: RoundPlanParams) -> None:
    """Price the round plan: the bid, the allocations, each action from its role's table."""
    design: FuturePerfectShip = ctx.design
    if design.plan is None:
        return
    plan = design.plan
    pricing = _Pricing(ctx, p, design)
    priced: list[PricedAction] = []
    for i, entry in enumerate(plan.actions):
        act = ctx.catalog.item("actions", entry.action)
        if not isinstance(act, ShipAction):  # resolve() refuses unknown ids; a design built in code may not
            pricing.error(
                "action-unknown",
                f"no action {entry.action!r} in the AP cost tables",
                f"plan.actions[{i}].action",
                entry.action,
                None,
            )
            continue
        pa = PricedAction(i, entry, act)
        if act.role != entry.role:
            role = ctx.catalog.item("roles", act.role)
            pricing.error(
                "action-wrong-role",
                f"{act.name} is on the {role.name if role else act.role} AP cost table, not {entry.role}'s",
                f"plan.actions[{i}].role",
                entry.role,
                act.role,
                act.source,
            )
        pricing.staffed(pa)
        if pricing.target(pa):
            pricing.uses(pa)
        priced.append(pa)
    pricing.once_a_round(priced)
    power_used = pricing.power(priced)
    base = max(0, design.ap - plan.initiative) if p.bid_spent else design.ap
    # "AP available for allocation = AP - bid, plus, for the system it was given to, each AP
    # from an Augment": the commander may allocate them to a role (the allocations beyond the
    # ship's own AP are those); the rest pay for their system's actions directly.
    given = pricing.augmented_given()
    roles = {r: RolePlan(r, getattr(plan, r)) for r in ROLES}
    allocated = sum(rp.allocated for rp in roles.values())
    in_roles = _take(given, min(max(0, allocated - base), sum(given.values())))
    augmented_left = pricing.pay_augmented(priced, {n: ap - in_roles.get(n, 0) for n, ap in given.items()})

    if plan.initiative > design.ap:
        pricing.error(
            "initiative-over-ap",
            f"{plan.initiative} AP bid for initiative; the ship has {design.ap}",
            "plan.initiative",
            plan.initiative,
            design.ap,
            "Initiative",
        )
    for pa in priced:
        rp = roles[pa.entry.role]
        rp.cost += pa.cost
        rp.power += pa.power
        rp.augmented += pa.augmented
        rp.spent += pa.from_allocation
    result = PricedPlan(
        ap=design.ap,
        bid=plan.initiative,
        base=base,
        roles=roles,
        actions=priced,
        power_available=power_available(ctx.catalog, design),
        power_used=power_used,
        augmented=dict(plan.augmented),
        augmented_given=given,
        augmented_allocated=in_roles,
        augmented_left=augmented_left,
    )
    ctx.notes["plan"] = result
    available = result.available
    if result.allocated > available:
        parts = " + ".join(f"{r.capitalize()} {roles[r].allocated}" for r in ROLES)
        pricing.error(
            "plan-over-budget",
            f"{parts} = {result.allocated} AP allocated; {available} available ({result.available_detail})",
            "plan",
            result.allocated,
            available,
            "Initiative",
        )
    elif in_roles:
        _augmented_kept_to_their_systems(pricing, result)
    for r in ROLES:
        rp = roles[r]
        role = ctx.catalog.item("roles", r)
        name = role.name if role else r
        if rp.spent > rp.allocated:
            pricing.error(
                "role-over-allocation",
                _over_allocation(name, rp),
                f"plan.{r}",
                rp.spent,
                rp.allocated,
                "Starship APs and Power",
            )
        elif rp.left > 0:
            ctx.findings.add(
                p.unspent_severity,
                "ap-unspent",
                f"{rp.left} of the {rp.allocated} AP allocated to {name} buy nothing",
                path=f"plan.{r}",
                actual=rp.left,
                limit=0,
                rule=p.id,
                source=ctx.catalog.cite(p.source),
            )
    if result.unallocated > 0 and result.allocated <= available:
        ctx.findings.add(
            p.unspent_severity,
            "ap-unallocated",
            f"{result.unallocated} of the {available} AP available are not allocated to a role",
            path="plan",
            actual=result.unallocated,
            limit=0,
            rule=p.id,
            source=ctx.catalog.cite("Initiative"),
        )
    for name, ap in augmented_left.items():
        if ap > 0:
            system = find_system(design, name)
            ctx.findings.add(
                p.unspent_severity,
                "augmented-unused",
                f"{ap} augmented AP for {system[1].name if system else name} pay for no action this round",
                path="plan.augmented",
                actual=ap,
                limit=0,
                rule=p.id,
                source=ctx.catalog.cite("Augment System"),
            )
    _counts(ctx, result)


def _take(pool: dict[str, int], amount: int) -> dict[str, int]:
    """``amount`` taken from ``pool``'s entries in order: what was taken of each."""
    taken: dict[str, int] = {}
    for name, ap in pool.items():
        if amount <= 0:
            break
        taken[name] = min(ap, amount)
        amount -= taken[name]
    return taken


def _augmented_kept_to_their_systems(pricing: _Pricing, plan: PricedPlan) -> None:
    """Augmented AP allocated to a role pay only for their system's actions ("1 AP is
    provided for use next round for that given system"): the allocations' spending on
    every other action must fit in the ship's own AP."""
    systems = {normalise(name) for name in plan.augmented_allocated}
    elsewhere = sum(pa.from_allocation for pa in plan.actions if not systems & {normalise(s.name) for s in pa.uses})
    if elsewhere <= plan.base:
        return
    names = ", ".join(plan.augmented_allocated)
    pricing.error(
        "augmented-used-elsewhere",
        f"{sum(plan.augmented_allocated.values())} of the AP allocated are augmented AP for {names}, "
        f"which pay only for that system's actions; the other actions take {elsewhere} AP of the allocations, "
        f"more than the {plan.base} AP of the ship's own ({plan.available_detail})",
        "plan",
        elsewhere,
        plan.base,
        "Augment System",
    )


def _over_allocation(name: str, rp: RolePlan) -> str:
    """An over-spent role as a player says it: "Helm's actions cost 6 AP, 1 paid from power:
    the other 5 AP are 2 more than the 3 AP allocated to Helm"."""
    paid = [f"{rp.power} paid from power"] * bool(rp.power) + [f"{rp.augmented} from augmented AP"] * bool(rp.augmented)
    over = f"{rp.spent - rp.allocated} more than the {rp.allocated} AP allocated to {name}"
    if not paid:
        return f"{name}'s actions cost {rp.cost} AP, {over}"
    return f"{name}'s actions cost {rp.cost} AP, {' and '.join(paid)}: the other {rp.spent} AP are {over}"


def _counts(ctx: Context, plan: PricedPlan) -> None:
    """What the plan spends, counted up from its actions: AP from each role, power used."""
    power_src = ctx.catalog.cite("Starship APs and Power")
    power = ctx.count("power_used", "Power used", "power", power_src)
    for pa in plan.actions:
        label = pa.action.name + (f" ({pa.target_name})" if pa.target_name else "")
        path = f"plan.actions[{pa.index}]"
        if pa.entry.power:
            power.add(label, pa.entry.power, path=f"{path}.power", source=power_src)
        role = ctx.catalog.item("roles", pa.entry.role)
        spent = ctx.count(
            f"ap_spent.{pa.entry.role}", f"{role.name if role else pa.entry.role} AP spent", "AP", power_src
        )
        spent.add(label, pa.from_allocation, path=path, source=ctx.catalog.cite(pa.action.source))


PLAN_RULE_TYPES: dict[str, RuleType] = {"round-plan": RuleType(RoundPlanParams, apply_round_plan)}
