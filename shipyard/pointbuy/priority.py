"""Attribute priority: free dots by rank, every order tried, the cheapest kept unless pinned.

A point-buy mechanism (a construction step "Attribute Priority"): each rank of
the priority gives its attribute free dots, a dot above them costs from a pool, some below
pay back. The outcome is not a part of the neutral report: the rule leaves it in the
context's notes (:func:`outcomes`), and :func:`priority_figure` makes it a figure, the
report part every template, the editor and ``check --json`` already show.
"""

import itertools
from dataclasses import asdict, dataclass
from typing import Any, Self

from pydantic import Field, model_validator

from shipyard.core.model import Context, Params
from shipyard.core.numberwords import quantity
from shipyard.core.report import Figure
from shipyard.core.rules import cite

NOTE = "point-buy.priority"  # the context note the outcomes are kept under


@dataclass(frozen=True)
class Priority:
    """The outcome of one priority rule: which attribute got which free dots, pinned or
    chosen, what it cost and what the cheapest order would have cost."""

    rule: str
    order: dict[str, int]
    pinned: bool
    cost: int
    wasted: int
    best_cost: int
    source: str


def pinned_order(design: Any, p: "PriorityParams") -> list[str] | None:
    """The order the design pins (its ``p.field``), when it pins one of exactly the rule's attributes."""
    names = getattr(design, p.field, None)
    if not names or sorted(names) != sorted(p.attributes):
        return None
    return list(names)


def outcomes(ctx: Context) -> list[Priority]:
    """The priority rules' outcomes in this evaluation, in rule order."""
    found: list[Priority] = ctx.notes.get(NOTE, [])
    return found


def priority_figure(ctx: Context, label: str = "Attribute priority", fig_id: str = "priority") -> Figure | None:
    """The first priority outcome as a figure: its value the outcome itself (for JSON readers:
    ``order``, ``pinned``, ``cost``, ``wasted``, ``best_cost``, ``rule``), its detail in words
    (what sheets and the text report print)."""
    found = outcomes(ctx)
    if not found:
        return None
    pr = found[0]
    rule = next((r.params for r in ctx.catalog.rules if r.definition.id == pr.rule), None)
    pool = ctx.catalog.pool(rule.pool) if isinstance(rule, PriorityParams) else None
    order = ", ".join(f"{ctx.stat_name(k)} {v}" for k, v in sorted(pr.order.items(), key=lambda kv: -kv[1]))
    how = "pinned" if pr.pinned else "chosen automatically: wastes least"
    wasted = f", {pr.wasted} dot(s) wasted." if pr.wasted else "."
    unit = f" {pool.name}" if pool is not None else ""
    value = {k: v for k, v in asdict(pr).items() if k != "source"}
    return Figure(
        id=fig_id,
        label=label,
        value=value,
        detail=f"Free dots: {order} ({how}). Net cost {pr.cost}{unit}{wasted}",
        kind="text",
        path=rule.field if isinstance(rule, PriorityParams) else "",
        source=pr.source,
    )


class PriorityParams(Params):
    attributes: list[str] = Field(min_length=1)
    free_dots: list[int]
    pool: str
    cost_per_dot: int = Field(ge=0)
    gain_below: dict[str, int] = Field(default_factory=dict)
    field: str = Field(
        default="priority",
        pattern=r"^[a-z_][a-z0-9_]*$",
        description="the design's field that pins an order (a list of the attributes, highest first); "
        "the advice on a dearer pinned order points at it",
    )

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
    pinned_names = pinned_order(ctx.design, p)
    pinned = pinned_names is not None
    if pinned_names is not None:
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
    ctx.notes.setdefault(NOTE, []).append(
        Priority(rule=p.id, order=order, pinned=pinned, cost=cost, wasted=wasted, best_cost=best_cost, source=src)
    )
    if pinned and cost > best_cost:
        ctx.findings.add(
            "advice",
            "priority-not-cheapest",
            f"the pinned priority costs {quantity(cost, pool.name)}; the best order costs {best_cost}",
            path=p.field,
            actual=cost,
            limit=best_cost,
            rule=p.id,
            source=src,
        )
