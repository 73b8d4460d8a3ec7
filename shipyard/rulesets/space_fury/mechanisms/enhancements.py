"""Rules on a fighter's enhancements: what each entry counts, that it comes from the
tables, what the count costs on the Fighter Cost table, and the count a sample fighter's
source publishes.
"""

from __future__ import annotations

from shipyard.core.findings import Severity
from shipyard.core.model import Context
from shipyard.core.numberwords import count_of
from shipyard.rulesets.space_fury.catalog_lookup import items_of, listed_in
from shipyard.rulesets.space_fury.counts import count, total
from shipyard.rulesets.space_fury.design import fighter_of
from shipyard.rulesets.space_fury.fighter import Purchase, purchases
from shipyard.rulesets.space_fury.items import (
    AddCountBeyond,
    CostTable,
    Enhancement,
    EnhancementTable,
    SubtableRow,
    cost_detail,
)
from shipyard.rulesets.space_fury.params import CountCostParams, CountParams, TablesParams
from shipyard.rulesets.space_fury.wording import plural


def apply_enhancement_count(ctx: Context, p: CountParams) -> None:
    """Each entry counts its cost; items bought in units count whole purchases (racks)."""
    fighter = fighter_of(ctx.design)
    if fighter is None:
        return
    counted = count(ctx, p.count)
    for pu in purchases(fighter, ctx.catalog):
        item = pu.item
        if item is None:
            continue
        path = f"enhancements[{pu.index}]"
        counted.add(_count_label(item, pu), pu.enhancements, source=ctx.catalog.cite(item.source), path=path, rule=p.id)
        spare = pu.purchases * item.units - pu.choice.count
        if spare:
            ctx.findings.add(
                Severity.ADVICE,
                "rack-not-full",
                f"{pu.choice.count} {plural(item.unit, pu.choice.count)} {'fills' if pu.choice.count == 1 else 'fill'} "
                f"{pu.purchases} "
                f"{plural('rack', pu.purchases)} of {item.units}: {spare} more fit at no cost",
                path=f"{path}.count",
                actual=pu.choice.count,
                limit=pu.purchases * item.units,
                rule=p.id,
                source=ctx.catalog.cite(item.source),
            )


def _count_label(item: Enhancement, pu: Purchase) -> str:
    """How an entry counts: "2 x Armor", "Rail Gun (costs 2)", "Missile Rack: 4 missiles in 2 racks of 2"."""
    if item.unit:
        n = pu.choice.count
        label = f"{item.name}: {n} {plural(item.unit, n)}"
        if item.units > 1:
            label += f" in {pu.purchases} {plural('rack', pu.purchases)} of {item.units}"
            return label + (f", {item.cost} a rack" if item.cost != 1 else "")
        return label + (f", {item.cost} each" if item.cost != 1 else "")
    if pu.purchases > 1:
        return f"{pu.purchases} x {item.name}" + (f", {item.cost} each" if item.cost != 1 else "")
    return item.name + (f" (costs {item.cost})" if item.cost != 1 else "")


def apply_enhancement_tables(ctx: Context, p: TablesParams) -> None:
    """Enhancements come from the tables; a sub-table is bought through the row that opens it."""
    fighter = fighter_of(ctx.design)
    if fighter is None:
        return
    listed = listed_in(ctx.catalog)
    tables = {t.id: t for t in items_of(ctx.catalog, "enhancement_tables", EnhancementTable)}
    primary = tables.get(p.primary)
    opened = {p.primary} | {r.table for r in (primary.rows if primary else []) if isinstance(r, SubtableRow)}
    for pu in purchases(fighter, ctx.catalog):
        path = f"enhancements[{pu.index}].id"
        on = listed.get(pu.item.id, []) if pu.item else []
        name = pu.item.name if pu.item else pu.choice.id
        if not on:
            ctx.findings.add(
                Severity.ERROR,
                "enhancement-not-in-tables",
                f"{name} is on none of the enhancement tables ({', '.join(t.name for t in tables.values())})",
                path=path,
                actual=pu.choice.id,
                limit=sorted(tables),
                rule=p.id,
                source=ctx.catalog.cite(p.source),
            )
        elif not any(t.id in opened for t in on):
            ctx.findings.add(
                Severity.ERROR,
                "subtable-without-table",
                f"{name} is on the {on[0].name}, which no row of the {primary.name if primary else p.primary} opens",
                path=path,
                actual=on[0].id,
                limit=sorted(opened),
                rule=p.id,
                source=ctx.catalog.cite(on[0].source),
            )


def apply_count_cost(ctx: Context, p: CountCostParams) -> None:
    """A fighter's cost is the Fighter Cost table's entry for its count of enhancements."""
    if fighter_of(ctx.design) is None:
        return
    table = ctx.catalog.item("cost_tables", p.table)
    if not isinstance(table, CostTable):
        return
    n = total(ctx, p.of)
    cost = table.cost(n)
    if cost is None:
        ctx.findings.add(
            Severity.ERROR,
            "count-beyond-table",
            f"the {table.name} table gives no cost for {n} {table.counts}",
            path="enhancements",
            actual=n,
            limit=[table.rows[0].count, None if isinstance(table.beyond, AddCountBeyond) else table.rows[-1].count],
            rule=p.id,
            source=ctx.catalog.cite(table.source),
        )
        return
    count(ctx, p.count).add(
        f"Fighter: {cost_detail(table, n)}", cost, source=ctx.catalog.cite(table.source), path="enhancements", rule=p.id
    )


def apply_published_count(ctx: Context, p: CountParams) -> None:
    """A sample fighter's computed count beside the count its source publishes."""
    fighter = fighter_of(ctx.design)
    if fighter is None or fighter.published is None:
        return
    n = total(ctx, p.count)
    if n != fighter.published.enhancements:
        ctx.findings.add(
            Severity.WARNING,
            "published-count-differs",
            f"{count_of(n, 'enhancement')} counted; the source publishes {fighter.published.enhancements}",
            path="published.enhancements",
            actual=n,
            limit=fighter.published.enhancements,
            rule=p.id,
            source=ctx.catalog.cite(p.source),
        )
