"""Budgets between pools: exchanges of a surplus or a deficit, and the limit every pool keeps.

Point-buy mechanisms: a pool's surplus moves into another at a rate (or is lost, with
advice), a deficit is paid from another, and no pool may end below zero once every
exchange has been made. A pool's finding points where the design sets that budget, if it can.
"""

from fractions import Fraction
from typing import Literal, Self

from pydantic import ConfigDict, Field, model_validator

from shipyard.core.findings import Severity
from shipyard.core.model import Context, Params
from shipyard.core.numberwords import quantity
from shipyard.core.rules import cite


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
                f"{quantity(moved, pool.name)} unspent; {'it is' if moved == 1 else 'they are'} lost",
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

    The finding cites the pool's own source, the section that sets that budget (the rule's
    where the catalog has no such pool). A design carrying one of the marks in
    ``severity_when_marked`` gets that severity instead, and the message says why (the first
    such mark, in catalog order, wins).
    """
    mark = next((m for m in p.severity_when_marked if m in ctx.view.marks), None)
    severity = p.severity_when_marked[mark] if mark is not None else p.severity
    why = f" (shown for information: the design is {mark})" if mark is not None else ""
    for pool_id in p.pools:
        pool = ctx.ledger[pool_id]
        if pool.remaining < 0:
            pool_def = ctx.catalog.pool(pool_id)
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
                source=ctx.catalog.cite(pool_def.source if pool_def is not None else p.source),
            )
