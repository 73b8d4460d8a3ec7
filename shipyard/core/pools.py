"""Pools: budgets of points, the line items spent from them, and exchanges between them.

Point-buy systems share this shape: a pool has a budget (possibly raised by the
Storyteller), costs and gains as line items, and exchanges that move a surplus or a
deficit into another pool at a rate. Costs are kept as exact fractions (out-of-scale
parts cost 1/5) and a pool's total is rounded up only when it is read.

A pool is a budget to spend. A figure that only counts what a design has (how many
enhancements, what it costs when nothing limits it) is not a pool: the rules count it
with ``Context.count`` and the report carries it as a figure with its parts.
"""

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Annotated, Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from shipyard.core.numberwords import unit_for

LineKind = Literal["cost", "gain"]


class PoolDef(BaseModel):
    """A budget as the catalog defines it: amounts per scale, per a choice the design makes
    (``budget_by``: a hull class, a kind), or one for every design; and where the rule says so."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    id: str = Field(pattern=r"^[a-z][a-z0-9-]*$")
    name: str
    budget: dict[str, Annotated[int, Field(ge=0)]] = Field(
        description="points, 0 or more: by the value of the design's budget_by choice when given, else by "
        "scale (a value holds for the scales above it until another), else {all: N} for every design"
    )
    budget_by: str | None = Field(
        default=None,
        pattern=r"^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*$",
        description="the design's field whose value picks the budget (hull_class: {sloop: 10, frigate: 20}); "
        "a design whose value has no budget gets the error pool-budget-not-given",
    )
    unit: str = "points"
    storyteller_editable: bool = True
    source: str

    @model_validator(mode="before")
    @classmethod
    def _not_a_tally(cls, data: Any) -> Any:
        """Catalogs of earlier versions declared counts as pools with ``tally: true``."""
        if isinstance(data, dict) and "tally" in data:
            raise ValueError(
                "'tally' is not a pool key: a pool is a budget to spend; a figure that only counts "
                "what a design has is counted by the ruleset's rules and reported as a figure with "
                "its parts (see docs/catalog-format.md, Pools and counted figures)"
            )
        return data


@dataclass
class Line:
    label: str
    amount: Fraction
    kind: LineKind
    source: str = ""
    path: str = ""
    rule: str = ""
    pool: str = ""  # an exchange's other pool: where the points came from or went


@dataclass
class PoolState:
    """One pool during an evaluation. Add lines only through :meth:`cost` and :meth:`gain`:
    they keep the running totals (evaluate is called on every keystroke in the editor)."""

    id: str
    name: str
    budget: int
    budget_note: str = ""
    source: str = ""
    lines: list[Line] = field(default_factory=list, init=False)
    spent_exact: Fraction = field(default=Fraction(0), init=False)
    gained_exact: Fraction = field(default=Fraction(0), init=False)

    def cost(self, label: str, amount: Fraction | int, **kw: str) -> None:
        line = Line(label, Fraction(amount), "cost", **kw)
        self.lines.append(line)
        self.spent_exact += line.amount

    def gain(self, label: str, amount: Fraction | int, **kw: str) -> None:
        line = Line(label, Fraction(amount), "gain", **kw)
        self.lines.append(line)
        self.gained_exact += line.amount

    @property
    def spent(self) -> int:
        """Total cost, rounded up: fractional parts are paid in whole points."""
        return math.ceil(self.spent_exact)

    @property
    def gained(self) -> int:
        return math.floor(self.gained_exact)

    @property
    def remaining(self) -> int:
        return self.budget + self.gained - self.spent


class Ledger:
    """All pools of one evaluation, in catalog order."""

    def __init__(self, pools: list[PoolState]) -> None:
        self.pools = {p.id: p for p in pools}

    def __getitem__(self, pool_id: str) -> PoolState:
        return self.pools[pool_id]

    def __contains__(self, pool_id: object) -> bool:
        return pool_id in self.pools

    def exchange_surplus(self, src: str, dst: str | None, rate: Fraction, *, source: str, rule: str) -> int:
        """Turn what is left of ``src`` into ``dst`` at ``rate``.

        With no ``dst`` nothing moves: the points stay in ``remaining`` (they are lost at
        the end of construction) and the caller reports it; they were never spent.
        """
        a = self.pools[src]
        left = a.remaining
        if left <= 0 or dst is None:
            return max(left, 0)
        b = self.pools[dst]
        a.cost(f"{left} unspent exchanged for {b.name}", left, source=source, rule=rule, pool=dst)
        b.gain(
            f"{left} unspent {unit_for(left, a.name)} x {_rate(rate)}", left * rate, source=source, rule=rule, pool=src
        )
        return left

    def exchange_deficit(self, src: str, dst: str, rate: Fraction, *, source: str, rule: str) -> int:
        """Pay what ``src`` is over budget with ``dst`` at ``rate`` per point."""
        a = self.pools[src]
        over = -a.remaining
        if over <= 0:
            return 0
        b = self.pools[dst]
        a.gain(f"{over} over budget, bought with {b.name}", over, source=source, rule=rule, pool=dst)
        b.cost(
            f"{over} extra {unit_for(over, a.name)} x {_rate(rate)}", over * rate, source=source, rule=rule, pool=src
        )
        return over


def _rate(rate: Fraction) -> str:
    return str(rate.numerator) if rate.denominator == 1 else str(rate)


class LineItem(BaseModel):
    """A line of a pool as reported: plain data for JSON, sheets and the editor."""

    model_config = ConfigDict(frozen=True)

    label: str
    kind: LineKind
    amount: int | float
    exact: str | None = None
    source: str = ""
    path: str = ""
    pool: str = Field(default="", description="for an exchange: the other pool, where the points came from or went")


def items_at(items: list[LineItem], path: str) -> list[LineItem]:
    """The line items of one place in the design and everything inside it (``enhancements[2]``)."""
    return [i for i in items if i.path == path or i.path.startswith((path + ".", path + "["))]


def line_items(lines: list[Line]) -> list[LineItem]:
    """Lines as the report carries them: whole amounts as integers, fractions exact beside a float."""
    items = []
    for ln in lines:
        whole = ln.amount.denominator == 1
        items.append(
            LineItem(
                label=ln.label,
                kind=ln.kind,
                amount=int(ln.amount) if whole else float(ln.amount),
                exact=None if whole else str(ln.amount),
                source=ln.source,
                path=ln.path,
                pool=ln.pool,
            )
        )
    return items


class PoolReport(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    budget: int
    budget_note: str = ""
    spent: int
    gained: int
    remaining: int
    source: str = ""
    items: list[LineItem]

    def items_at(self, path: str) -> list[LineItem]:
        """The line items of one place in the design and everything inside it (``enhancements[2]``)."""
        return items_at(self.items, path)

    @classmethod
    def of(cls, state: PoolState) -> Self:
        items = line_items(state.lines)
        return cls(
            id=state.id,
            name=state.name,
            budget=state.budget,
            budget_note=state.budget_note,
            spent=state.spent,
            gained=state.gained,
            remaining=state.remaining,
            source=state.source,
            items=items,
        )
