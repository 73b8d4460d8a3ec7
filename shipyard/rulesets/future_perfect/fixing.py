"""What Fix... may try for a round plan beyond lowering numbers and dropping actions.

An over-spent role is cured by dropping an action (the search does that) or by raising
the role's allocation; raising it alone is seldom legal, because the AP it needs must come
from somewhere: first the AP not allocated yet, then what other roles leave unspent, then
the initiative bid (when bid AP are spent: "APs bid for initiative are spent; the rest is
allocated"). Every figure is the engine's own, read from the report's findings
(``role-over-allocation``: spent and allocated; ``ap-unspent``, ``ap-unallocated``).
"""

from __future__ import annotations

from typing import Any

from shipyard.core.model import Catalog
from shipyard.core.report import Report
from shipyard.rulesets.future_perfect.design import FuturePerfectShip
from shipyard.rulesets.future_perfect.plan import RoundPlanParams

Change = tuple[str, Any]


def raise_allocation(
    design: FuturePerfectShip, report: Report, catalog: Catalog, path: str, short: int
) -> list[Change]:
    """The changes that give the role at ``path`` ``short`` more AP without over-allocating,
    or [] when the plan has not that many to move."""
    plan = design.plan
    if plan is None:
        return []
    changes: list[Change] = [(path, int(getattr(plan, path.removeprefix("plan."))) + short)]
    need = short
    free = sum(int(f.actual or 0) for f in report.findings if f.code == "ap-unallocated")
    need -= min(need, free)
    for f in report.findings:
        if need and f.code == "ap-unspent" and f.path != path and f.path.startswith("plan."):
            take = min(need, int(f.actual or 0))
            changes.append((f.path, int(getattr(plan, f.path.removeprefix("plan."))) - take))
            need -= take
    rule = catalog.params(RoundPlanParams)
    if need and rule is not None and rule.bid_spent and plan.initiative:
        take = min(need, plan.initiative)
        changes.append(("plan.initiative", plan.initiative - take))
        need -= take
    return changes if need == 0 else []


def fix_hints(design: Any, report: Report, catalog: Catalog) -> list[list[Change]]:
    """For each over-spent role: raise its allocation to what its actions take from it."""
    out: list[list[Change]] = []
    if not isinstance(design, FuturePerfectShip):
        return out
    for f in report.findings:
        if f.code == "role-over-allocation" and isinstance(f.actual, int) and isinstance(f.limit, int):
            changes = raise_allocation(design, report, catalog, f.path, f.actual - f.limit)
            if changes:
                out.append(changes)
    return out
