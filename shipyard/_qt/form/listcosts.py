"""What each entry of a list costs, as the list editor's Cost column says it.

The figures are the report's: each pool's line items whose path is inside an entry of
the list (``weapons[2]`` or ``weapons[2].ammo``), netted per pool, costs less gains. A
pool's amounts may be fractions (half a point a ton), so they are added exactly and shown
as a whole number where they come to one. The editor works out no cost of its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from shipyard.core.numberwords import quantity
from shipyard.core.pools import LineItem, PoolReport


def row_costs(pools: Iterable[PoolReport], list_path: str) -> dict[int, str]:
    """By row, what the entry costs in each pool ("6 Weapon Points", "1 Accessory point";
    "gains 2 Freebie Points"); a row that costs nothing has no text (or none at all)."""
    head = list_path + "["
    nets: dict[int, dict[str, Fraction]] = {}
    names: dict[str, str] = {}
    for pool in pools:
        names[pool.id] = pool.name
        for i in pool.items:
            if not i.path.startswith(head):
                continue
            index = i.path[len(head) : i.path.find("]", len(head))]
            if not index.isdigit():
                continue
            per = nets.setdefault(int(index), {})
            per[pool.id] = per.get(pool.id, Fraction(0)) + _exact(i) * (1 if i.kind == "cost" else -1)
    return {
        row: ", ".join(
            f"{'gains ' if net < 0 else ''}{quantity(abs(net), names[pid], _shown(abs(net)))}"
            for pid, net in per.items()
            if net
        )
        for row, per in nets.items()
    }


def _exact(item: LineItem) -> Fraction:
    return Fraction(item.exact) if item.exact else Fraction(item.amount)


def _shown(amount: Fraction) -> str:
    return str(amount.numerator) if amount.denominator == 1 else f"{float(amount):.2f}".rstrip("0").rstrip(".")
