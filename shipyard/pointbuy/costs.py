"""Costs charged to pools: a stat above a base, items bought (by level and count), level limits.

Point-buy mechanisms every such system has in some form (a Structure above its base, the
weapons and accessories bought); each line a cost or a gain in a pool,
with its source and its place in the design.
"""

from fractions import Fraction

from pydantic import Field

from shipyard.core.items import PricedItem
from shipyard.core.model import Context, Params
from shipyard.core.rules import cite
from shipyard.pointbuy.scalelimits import KindsParams, scale_factor, scale_label


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


class ItemCostParams(Params):
    kind: str
    pool: str
    smaller_scale_divisor: int | None = Field(default=None, ge=2)


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
