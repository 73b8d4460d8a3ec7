"""A budget per choice: a pool whose budget follows a value the design chooses.

Many point-buy systems give a design its points by what it is — a hull class, a chassis,
a kind of ship — not by a size ladder. A pool says which of the design's fields picks its
budget (``budget_by: hull_class``) and gives a budget for each value (``budget: {sloop:
10, frigate: 20}``). The field's values are checked against the budgets when the catalog
loads (where the design's model lists them, a Literal or an Enum), and a design whose
value has no budget gets an error finding at that field, never an exception.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any

from shipyard.core.errors import Problem
from shipyard.core.schema import Spec, spec_at

if TYPE_CHECKING:
    from shipyard.core.findings import FindingSink
    from shipyard.core.model import Catalog
    from shipyard.core.pools import PoolDef

NOT_GIVEN = "pool-budget-not-given"


def chosen(design: Any, path: str) -> str | None:
    """The design's value at ``path`` (``hull_class``, ``frame.kind``) as a budget key; None if unset."""
    value = design
    for name in path.split("."):
        value = getattr(value, name, None)
        if value is None:
            return None
    if isinstance(value, enum.Enum):
        value = value.value
    return str(value)


def label(path: str) -> str:
    """What the choice is called in a pool's note and its finding: its field's name in words
    ("hull class" for ``hull_class``, "kind" for ``frame.kind``)."""
    return path.rsplit(".", 1)[-1].replace("_", " ")


def choice_budget(pdef: PoolDef, design: Any, catalog: Catalog, findings: FindingSink) -> tuple[int, str]:
    """The pool's budget for the design's choice, and the note saying which choice gave it; a
    value without a budget gives 0 and the error :data:`NOT_GIVEN` at the choice's field."""
    assert pdef.budget_by is not None
    value = chosen(design, pdef.budget_by)
    what = label(pdef.budget_by)
    if value is not None and value in pdef.budget:
        return pdef.budget[value], f"for {what} {value}"
    findings.add(
        "error",
        NOT_GIVEN,
        f"{pdef.name}: no budget for {what} {value!r}; the catalog gives one for " + ", ".join(pdef.budget)
        if value is not None
        else f"{pdef.name}: {what} is not chosen, and the budget follows it",
        path=pdef.budget_by,
        actual=value,
        limit=list(pdef.budget),
        rule=f"pool:{pdef.id}",
        source=catalog.cite(pdef.source),
    )
    return 0, f"{what} {value} has no budget" if value is not None else f"no {what} chosen"


def check_pool_choice(pdef: PoolDef, design: Spec) -> list[Problem]:
    """A ``budget_by`` that names no field of the design (``design``: its model's schema tree,
    :func:`shipyard.core.schema.design_schema`), or budgets for values its field cannot take
    (or none for one it can, where the model lists them: a Literal, an Enum), as catalog problems."""
    assert pdef.budget_by is not None
    found = spec_at(design, pdef.budget_by)
    if found is None:
        return [
            Problem(
                f"pool {pdef.id!r}: budget_by {pdef.budget_by!r} is no field of the design",
                path=f"pools.{pdef.id}.budget_by",
                allowed=", ".join(design.fields),
            )
        ]
    if found.enum is None:
        return []
    allowed = [str(v) for v in found.enum]
    problems = [
        Problem(
            f"pool {pdef.id!r}: a budget for {key!r}, which {pdef.budget_by} cannot be",
            path=f"pools.{pdef.id}.budget.{key}",
            allowed=", ".join(allowed),
        )
        for key in pdef.budget
        if key not in allowed
    ]
    missing = [v for v in allowed if v not in pdef.budget]
    if missing:
        problems.append(
            Problem(
                f"pool {pdef.id!r}: no budget for {', '.join(map(repr, missing))}, which {pdef.budget_by} can be",
                path=f"pools.{pdef.id}.budget",
            )
        )
    return problems
