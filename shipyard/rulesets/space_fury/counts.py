"""Space Fury's counted figures: a fighter's enhancements and what a design costs.

Space Fury has no budget to spend: what a fighter costs follows from what it has. The
rules count it up instead (``Context.count``), each part saying what counted, where and
by which rule, and the report carries each count as a figure with its parts. A rule
names its count by id; the catalog's ``counts`` give its name and unit.
"""

from __future__ import annotations

from typing import Any

from shipyard.core.model import Context, Count
from shipyard.core.pools import line_items
from shipyard.core.report import Figure, count_figure
from shipyard.rulesets.space_fury.items import CountDef


def count(ctx: Context, count_id: str) -> Count:
    """The count ``count_id`` of this evaluation, started as the catalog defines it."""
    defined = _defined(ctx, count_id)
    return ctx.count(count_id, defined.name, defined.unit, defined.source)


def total(ctx: Context, count_id: str) -> int:
    """What ``count_id`` adds up to so far: 0 while nothing has counted."""
    found = ctx.counts.get(count_id)
    return found.total if found is not None else 0


def counted_figure(ctx: Context, count_id: str, **update: Any) -> Figure:
    """The figure of a count with its parts, for the ruleset's figures to place where they
    want it (``update``: its detail). A count nothing added to is 0, with no parts."""
    c = ctx.counts.get(count_id) or _defined(ctx, count_id)
    fig = count_figure(c.id, c.name, c.unit, c.source, c.total, line_items(c.lines))
    return fig.model_copy(update=update) if update else fig


def _defined(ctx: Context, count_id: str) -> Count:
    """The count as the catalog's ``counts`` define it, with no parts yet (named by its id
    where the catalog has no entry for it)."""
    entry = ctx.catalog.item("counts", count_id)
    if isinstance(entry, CountDef):
        return Count(count_id, entry.name, entry.unit, ctx.catalog.cite(entry.source))
    return Count(count_id, count_id)
