"""What the editor's declared form (``catalogs/space-fighter-alpha/form.yaml``) asks the ruleset.

Each function of :data:`FORM_CALLS` takes the form's view of one design
(:class:`shipyard.core.formview.FormContext`) and answers from the catalog or the report,
so the editor never holds a rule: the priority orders come from the catalog's priority
rule, the order to pin from the order the engine chose.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from shipyard.core.formview import FormContext
from shipyard.pointbuy.priority import PriorityParams


def priority_orders(ctx: FormContext, **_: Any) -> list[tuple[str, list[str]]]:
    """Every order of the priority rule's attributes, highest first ("Handling > Soak > Move")."""
    rule = ctx.catalog.params(PriorityParams)
    if rule is None:
        return []

    def name(stat_id: str) -> str:
        stat = ctx.catalog.stat(stat_id)
        return str(stat.name) if stat is not None else stat_id

    return [(" > ".join(name(a) for a in order), list(order)) for order in itertools.permutations(rule.attributes)]


def chosen_priority(ctx: FormContext, **_: Any) -> list[str] | None:
    """The order the engine chose (or the one pinned), highest priority first: what pinning keeps."""
    figure = ctx.report.derived.figure("priority") if ctx.report is not None else None
    if figure is None or not isinstance(figure.value, dict):
        return None
    order: dict[str, int] = figure.value["order"]
    return sorted(order, key=lambda attr: -order[attr])


FORM_CALLS: dict[str, Callable[..., Any]] = {
    "priority_orders": priority_orders,
    "chosen_priority": chosen_priority,
}
