"""Typed rules: each catalog rule entry names a mechanism and gives its numbers.

The catalog's ``rules`` list is run in order for every evaluation. A rule's ``type``
selects a mechanism (a function named after the rule it applies) and its remaining keys
are validated against that mechanism's parameter model. An unknown type, or a key the
mechanism does not take, stops catalog loading: a rule we cannot apply must never be
silently skipped. The mechanisms here are neutral; a ruleset module adds its own.
"""

import itertools
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal, Self

from pydantic import ConfigDict, Field, ValidationError, model_validator

from shipyard.core.errors import InputError, Problem, format_path
from shipyard.core.findings import Severity
from shipyard.core.items import PricedItem, RuleDef
from shipyard.core.model import BoundRule, Catalog, Context, Params, RulesetModule, RuleType, Selection
from shipyard.core.report import PriorityReport
from shipyard.core.suggest import did_you_mean
from shipyard.core.usertext import validate_strictly

if TYPE_CHECKING:
    from shipyard.core.scales import Scale
    from shipyard.core.yamlio import YamlDocument

__all__ = ["BoundRule", "Params", "RuleType"]  # the rule types' shapes, for the rulesets' mechanisms


def bind_rules(
    entries: "list[tuple[YamlDocument, int, RuleDef]]", module: RulesetModule, capabilities: frozenset[str]
) -> list[BoundRule]:
    """Each rule entry bound to its mechanism; an unknown type, a key the mechanism does not
    take, or a mechanism the catalog lacks the capabilities for stops loading."""
    types = {**CORE_RULE_TYPES, **module.RULE_TYPES}
    bound: list[BoundRule] = []
    problems: list[Problem] = []
    ids: set[str] = set()
    for doc, index, definition in entries:
        loc: tuple[object, ...] = ("rules", index)
        rule_type = types.get(definition.type)
        if rule_type is None:
            line, col = doc.position((*loc, "type"))
            problems.append(
                Problem(
                    f"unknown rule type {definition.type!r}; {did_you_mean(definition.type, types)}".rstrip("; "),
                    str(doc.file),
                    line,
                    col,
                    format_path((*loc, "type")),
                    allowed=", ".join(sorted(types)),
                )
            )
            continue
        lacking = sorted(rule_type.needs - capabilities)
        if lacking:
            line, col = doc.position((*loc, "type"))
            problems.append(
                Problem(
                    f"rule type {definition.type!r} needs the ruleset's {' and '.join(lacking)}, "
                    f"which this catalog does not define (a {', '.join(lacking)} section)",
                    str(doc.file),
                    line,
                    col,
                    format_path((*loc, "type")),
                )
            )
            continue
        if definition.id in ids:
            line, col = doc.position((*loc, "id"))
            problems.append(Problem(f"rule id {definition.id!r} is used twice", str(doc.file), line, col))
        ids.add(definition.id)
        try:
            params = validate_strictly(rule_type.params, definition.model_dump())
        except ValidationError as exc:
            for err in exc.errors():
                full = (*loc, *err["loc"])
                line, col = doc.position(full)
                msg = (
                    f"unknown key {err['loc'][-1]!r} for rule type {definition.type!r}"
                    if err["type"] == "extra_forbidden"
                    else err["msg"]
                )
                allowed = ", ".join(rule_type.params.model_fields) if err["type"] == "extra_forbidden" else None
                problems.append(Problem(msg, str(doc.file), line, col, format_path(full), allowed=allowed))
            continue
        bound.append(BoundRule(definition, params, rule_type))
    if problems:
        raise InputError(problems)
    return bound


def cite(ctx: Context, p: Params) -> str:
    return ctx.catalog.cite(p.source)


def flag(
    ctx: Context,
    p: Params,
    severity: Severity | str,
    code: str,
    message: str,
    *,
    path: str,
    actual: Any,
    limit: Any,
    source: str = "",
) -> None:
    """A finding of rule ``p``, with its numbers, where to fix it and (by default) the rule's source."""
    ctx.findings.add(
        severity, code, message, path=path, actual=actual, limit=limit, rule=p.id, source=source or cite(ctx, p)
    )


# --- stat ranges -------------------------------------------------------------------------


class StatRangeParams(Params):
    code: str = "stat-out-of-range"
    severity: Severity = Severity.ERROR


def apply_stat_ranges(ctx: Context, p: StatRangeParams) -> None:
    """Every stat stays within the range the stat block prints for it."""
    for stat in ctx.catalog.meta.stats:
        value = ctx.view.stats.get(stat.id)
        if value is None:
            continue
        low = stat.min if stat.min is not None and value < stat.min else None
        high = stat.max if stat.max is not None and value > stat.max else None
        if low is None and high is None:
            continue
        rng = f"{stat.min if stat.min is not None else '…'} to {stat.max if stat.max is not None else '…'}"
        ctx.findings.add(
            p.severity,
            p.code,
            f"{stat.name} {value} is outside {rng}",
            path=stat.path,
            actual=value,
            limit=[stat.min, stat.max],
            rule=p.id,
            source=ctx.catalog.cite(stat.source),
        )


# --- sums --------------------------------------------------------------------------------


class SumEqualsParams(Params):
    total: str
    parts: list[str] = Field(min_length=2)
    code: str
    severity: Severity = Severity.ERROR
    unassigned_code: str
    unassigned_severity: Severity = Severity.WARNING


def apply_sum_equals(ctx: Context, p: SumEqualsParams) -> None:
    """A stat is split into parts that must add up to it (Soak = Armor + Shields).

    A design that has not split the stat yet (no part given) gets its own finding, so a
    published stat block that never states the split can still be entered as printed.
    """
    total = ctx.view.stats.get(p.total, 0)
    if not any(s in ctx.view.stats for s in p.parts):
        if total:
            names = " and ".join(ctx.stat_name(s) for s in p.parts)
            ctx.findings.add(
                p.unassigned_severity,
                p.unassigned_code,
                f"{ctx.stat_name(p.total)} {total} is not yet divided into {names}",
                path=ctx.stat_path(p.parts[0]),
                actual=None,
                limit=total,
                rule=p.id,
                source=cite(ctx, p),
            )
        return
    parts = {s: ctx.view.stats.get(s, 0) for s in p.parts}
    got = sum(parts.values())
    if got != total:
        names = " + ".join(f"{ctx.stat_name(s)} {v}" for s, v in parts.items())
        ctx.findings.add(
            p.severity,
            p.code,
            f"{names} = {got}, but {ctx.stat_name(p.total)} is {total}",
            path=ctx.stat_path(p.parts[0]),
            actual=got,
            limit=total,
            rule=p.id,
            source=cite(ctx, p),
        )


# --- priority allocation -------------------------------------------------------------------


class PriorityParams(Params):
    attributes: list[str] = Field(min_length=1)
    free_dots: list[int]
    pool: str
    cost_per_dot: int = Field(ge=0)
    gain_below: dict[str, int] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _one_rank_per_attribute(self) -> Self:
        if len(self.free_dots) != len(self.attributes):
            raise ValueError("free_dots must give one entry per attribute")
        return self


def _priority_cost(values: dict[str, int], order: dict[str, int], p: PriorityParams) -> tuple[int, int]:
    cost = wasted = 0
    for attr, free in order.items():
        v = values.get(attr, 0)
        if v > free:
            cost += (v - free) * p.cost_per_dot
        elif v < free:
            gain = p.gain_below.get(attr, 0)
            if gain:
                cost -= (free - v) * gain
            else:
                wasted += free - v
    return cost, wasted


def apply_priority(ctx: Context, p: PriorityParams) -> None:
    """Prioritise attributes: free dots by rank, dots above cost, some dots below pay back.

    Every order is tried; the cheapest (least waste) wins unless the user pinned one.
    Among equally cheap orders the one whose free dots lie closest to the attributes'
    values wins (what a player would write down), then the catalog's attribute order.
    """
    values = {a: int(ctx.view.stats.get(a, 0)) for a in p.attributes}  # dots are whole
    options = []
    for perm in itertools.permutations(p.free_dots):
        order = dict(zip(p.attributes, perm, strict=True))
        cost, wasted = _priority_cost(values, order, p)
        distance = sum(abs(values[a] - f) for a, f in order.items())
        options.append((cost, distance, order, wasted))
    options.sort(key=lambda o: (o[0], o[1]))  # stable: ties keep permutation order
    best_cost = options[0][0]
    pinned_names = ctx.view.pinned.get(p.id)
    pinned = bool(pinned_names)
    if pinned_names:
        order = {a: p.free_dots[pinned_names.index(a)] for a in p.attributes}
        cost, wasted = _priority_cost(values, order, p)
    else:
        cost, _, order, wasted = options[0]
    pool = ctx.ledger[p.pool]
    src = cite(ctx, p)
    for attr, free in order.items():
        v = values[attr]
        name = ctx.stat_name(attr)
        path = ctx.stat_path(attr)
        if v > free:
            pool.cost(
                f"{name} {v:+d}: {v - free} above its {free} free dots x {p.cost_per_dot}",
                (v - free) * p.cost_per_dot,
                source=src,
                path=path,
                rule=p.id,
            )
        elif v < free and p.gain_below.get(attr):
            pool.gain(
                f"{name} {v:+d}: {free - v} below its {free} free dots x {p.gain_below[attr]}",
                (free - v) * p.gain_below[attr],
                source=src,
                path=path,
                rule=p.id,
            )
        elif v < free:
            pool.cost(
                f"{name} {v}: {free - v} of its {free} free dots unused (wasted)", 0, source=src, path=path, rule=p.id
            )
    ctx.priorities.append(
        PriorityReport(rule=p.id, order=order, pinned=pinned, cost=cost, wasted=wasted, best_cost=best_cost, source=src)
    )
    if pinned and cost > best_cost:
        ctx.findings.add(
            "advice",
            "priority-not-cheapest",
            f"the pinned priority costs {cost} {pool.name}; the best order costs {best_cost}",
            path="priority",
            actual=cost,
            limit=best_cost,
            rule=p.id,
            source=src,
        )


# --- linear stat costs ---------------------------------------------------------------------


class StatCostParams(Params):
    stat: str
    pool: str
    base: int
    cost_above: int = Field(ge=0)
    gain_below: int = Field(default=0, ge=0)


def apply_stat_cost(ctx: Context, p: StatCostParams) -> None:
    """Each point above a base costs, each point below may pay back (Structure, Power)."""
    v = ctx.view.stats.get(p.stat)
    if v is None:
        return
    pool = ctx.ledger[p.pool]
    name = ctx.stat_name(p.stat)
    path = ctx.stat_path(p.stat)
    if v > p.base and p.cost_above:
        pool.cost(
            f"{name} {v}: {v - p.base} above {p.base} x {p.cost_above}",
            Fraction(v - p.base) * p.cost_above,
            source=cite(ctx, p),
            path=path,
            rule=p.id,
        )
    elif v < p.base and p.gain_below:
        pool.gain(
            f"{name} {v}: {p.base - v} below {p.base} x {p.gain_below}",
            Fraction(p.base - v) * p.gain_below,
            source=cite(ctx, p),
            path=path,
            rule=p.id,
        )


# --- item costs, levels, scale limits, recommendations ---------------------------------------


class ItemCostParams(Params):
    kind: str
    pool: str
    smaller_scale_divisor: int | None = Field(default=None, ge=2)


def scale_factor(ctx: Context, sel: Selection, divisor: int | None) -> Fraction:
    """Out-of-scale: a smaller-scale component costs 1/divisor per step down."""
    if sel.component_scale is None or divisor is None:
        return Fraction(1)
    steps = ctx.scale.index - sel.component_scale.index
    return Fraction(1, divisor**steps) if steps > 0 else Fraction(1)


def scale_label(component: "Scale | None", factor: Fraction) -> str:
    """What a line item adds to its label when an out-of-scale component is priced differently."""
    return f", {component.name} scale x {factor}" if component is not None and factor != 1 else ""


def apply_item_cost(ctx: Context, p: ItemCostParams) -> None:
    """Charge each selected item of a kind to its pool: cost x level (if levelled) x count."""
    for sel in ctx.view.selected(p.kind):
        item = ctx.catalog.item(p.kind, sel.id)
        if not isinstance(item, PricedItem):
            continue
        levels = sel.level if item.per_level else 1
        factor = scale_factor(ctx, sel, p.smaller_scale_divisor)
        amount = Fraction(item.cost * levels * sel.count) * factor
        pool_id = item.pool or p.pool
        if pool_id not in ctx.ledger:
            continue
        label = item.name + (f" ({sel.level})" if item.per_level else "")
        if sel.count > 1:
            label = f"{sel.count} x {label}"
        label += scale_label(sel.component_scale, factor)
        ctx.ledger[pool_id].cost(label, amount, source=ctx.catalog.cite(item.source), path=sel.path, rule=p.id)


class KindsParams(Params):
    kinds: list[str] = Field(min_length=1)
    severity: Severity = Severity.ERROR


def apply_item_levels(ctx: Context, p: KindsParams) -> None:
    """Items without levels are bought once; levelled items stop at their maximum."""
    for kind in p.kinds:
        for sel in ctx.view.selected(kind):
            item = ctx.catalog.item(kind, sel.id)
            if not isinstance(item, PricedItem):
                continue
            src = ctx.catalog.cite(item.source)
            if not item.per_level and sel.level != 1:
                ctx.findings.add(
                    p.severity,
                    "level-not-allowed",
                    f"{item.name} has no levels; level {sel.level} given",
                    path=f"{sel.path}.level",
                    actual=sel.level,
                    limit=1,
                    rule=p.id,
                    source=src,
                )
            elif item.max_level is not None and sel.level > item.max_level:
                ctx.findings.add(
                    p.severity,
                    "level-above-max",
                    f"{item.name} level {sel.level} is above its maximum {item.max_level}",
                    path=f"{sel.path}.level",
                    actual=sel.level,
                    limit=item.max_level,
                    rule=p.id,
                    source=src,
                )


def scale_restriction(catalog: Catalog, item: object, scale: "Scale") -> str | None:
    """Why ``item`` may not be used at ``scale`` (None when it may): the scales it is for."""
    if not isinstance(item, PricedItem) or catalog.scales is None or catalog.scales.allows(item.scales, scale):
        return None
    scales = [catalog.scales.parse(s) for s in item.scales or []]
    return ", ".join(s.name for s in scales if s is not None)


def apply_scale_restricted(ctx: Context, p: KindsParams) -> None:
    """Items marked for some scales only may not be used at any other scale."""
    for kind in p.kinds:
        for sel in ctx.view.selected(kind):
            item = ctx.catalog.item(kind, sel.id)
            allowed = scale_restriction(ctx.catalog, item, sel.component_scale or ctx.scale)
            if allowed is None or not isinstance(item, PricedItem):
                continue
            ctx.findings.add(
                p.severity,
                "scale-restricted-item",
                f"{item.name} is for {allowed} scale only; this design is {ctx.scale.name}",
                path=sel.path,
                actual=ctx.scale.name,
                limit=allowed,
                rule=p.id,
                source=ctx.catalog.cite(item.source),
            )


class RecommendedParams(Params):
    kind: str
    severity: Severity = Severity.ADVICE


def apply_recommended(ctx: Context, p: RecommendedParams) -> None:
    """Items the rules recommend for the design's scale; missing ones are advice."""
    for item in ctx.catalog.kind(p.kind).values():
        if not isinstance(item, PricedItem) or not item.recommended_for:
            continue
        if ctx.scale.family in item.recommended_for and not ctx.view.has(p.kind, item.id):
            ctx.findings.add(
                p.severity,
                "recommended-item-missing",
                f"{item.name} is highly recommended for {ctx.scale.name}-scale designs",
                path=p.kind,
                actual=None,
                limit=item.name,
                rule=p.id,
                source=ctx.catalog.cite(item.source),
            )


# --- exchanges and limits ------------------------------------------------------------------


class ExchangeParams(Params):
    when: Literal["surplus", "deficit"]
    from_pool: str = Field(alias="from")
    to_pool: str | None = Field(default=None, alias="to")
    rate: Fraction = Fraction(1)
    severity: Severity = Severity.ADVICE
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, defer_build=True)

    @model_validator(mode="after")
    def _deficit_needs_payer(self) -> Self:
        if self.when == "deficit" and self.to_pool is None:
            raise ValueError("a deficit exchange needs a pool to pay from ('to')")
        return self


def apply_exchange(ctx: Context, p: ExchangeParams) -> None:
    """Move a pool's surplus (or cover its deficit) into another pool at a rate.

    With no target pool a surplus is lost, and we say so as advice: points a player
    forgot to spend are worth a reminder.
    """
    src = cite(ctx, p)
    if p.when == "surplus":
        moved = ctx.ledger.exchange_surplus(p.from_pool, p.to_pool, p.rate, source=src, rule=p.id)
        if moved and p.to_pool is None:
            pool = ctx.ledger[p.from_pool]
            ctx.findings.add(
                p.severity,
                "pool-unspent",
                f"{moved} {pool.name} unspent; they are lost",
                path=pool_place(ctx, pool.id),
                actual=moved,
                limit=0,
                rule=p.id,
                source=src,
            )
    elif p.to_pool is not None:
        ctx.ledger.exchange_deficit(p.from_pool, p.to_pool, p.rate, source=src, rule=p.id)


def pool_place(ctx: Context, pool_id: str) -> str:
    """Where a pool's finding (over budget, unspent) points: the design's own setting of that
    budget (``budgets.<pool id>``) where the design has one — the pool is the Storyteller's
    to set and the design model has a ``budgets`` field — else the design as a whole ("").

    A budget the design cannot set (fixed by the rules, or following a choice such as the
    hull class) is not a place to fix; the message names the pool, and what was bought
    from it is in the pool's lines, each with its own path."""
    pool = ctx.catalog.pool(pool_id)
    fields = getattr(ctx.catalog.module.Design, "model_fields", {})
    return f"budgets.{pool_id}" if pool is not None and pool.storyteller_editable and "budgets" in fields else ""


class PoolLimitParams(Params):
    pools: list[str] = Field(min_length=1)
    code: str = "pool-over-budget"
    severity: Severity = Severity.ERROR
    severity_when_marked: dict[str, Severity] = Field(
        default_factory=dict,
        description="severity for designs the ruleset marks (e.g. converted from another system): "
        "their budgets are shown for information",
    )


def apply_pool_limit(ctx: Context, p: PoolLimitParams) -> None:
    """A pool may not end below zero once every exchange has been made.

    A design carrying one of the marks in ``severity_when_marked`` gets that severity
    instead, and the message says why (the first such mark, in catalog order, wins).
    """
    mark = next((m for m in p.severity_when_marked if m in ctx.view.marks), None)
    severity = p.severity_when_marked[mark] if mark is not None else p.severity
    why = f" (shown for information: the design is {mark})" if mark is not None else ""
    for pool_id in p.pools:
        pool = ctx.ledger[pool_id]
        if pool.remaining < 0:
            ctx.findings.add(
                severity,
                p.code,
                f"{pool.name} over budget by {-pool.remaining}: spent {pool.spent} of {pool.budget}"
                + (f" + {pool.gained} gained" if pool.gained else "")
                + why,
                path=pool_place(ctx, pool.id),
                actual=pool.spent,
                limit=pool.budget + pool.gained,
                rule=p.id,
                source=ctx.catalog.cite(p.source),
            )


_POOLS = frozenset({"pools"})
_SCALES = frozenset({"scales"})

CORE_RULE_TYPES: dict[str, RuleType] = {
    "stat-range": RuleType(StatRangeParams, apply_stat_ranges),
    "sum-equals": RuleType(SumEqualsParams, apply_sum_equals),
    "priority": RuleType(PriorityParams, apply_priority, _POOLS),
    "stat-cost": RuleType(StatCostParams, apply_stat_cost, _POOLS),
    "item-cost": RuleType(ItemCostParams, apply_item_cost, _POOLS),
    "item-levels": RuleType(KindsParams, apply_item_levels),
    "scale-restricted": RuleType(KindsParams, apply_scale_restricted, _SCALES),
    "recommended-items": RuleType(RecommendedParams, apply_recommended, _SCALES),
    "exchange": RuleType(ExchangeParams, apply_exchange, _POOLS),
    "pool-limit": RuleType(PoolLimitParams, apply_pool_limit, _POOLS),
}
