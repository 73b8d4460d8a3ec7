"""Transformation: alternate forms evaluated as whole designs and compared pool by pool."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from shipyard.core.model import Context
from shipyard.core.numberwords import quantity
from shipyard.rulesets.space_fighter_alpha.design import Design

# --- transformation forms -----------------------------------------------------------------

_FORM_FIELDS = (
    "concept",
    "handling",
    "soak",
    "armor",
    "shields",
    "move",
    "power",
    "structure",
    "weapons",
    "technology",
    "accessories",
)


def variants(design: Design) -> list[tuple[str, Design]]:
    """Each alternate form as a whole design: the primary with the form's changes."""
    out = []
    for form in design.forms:
        changes = {f: getattr(form, f) for f in _FORM_FIELDS if getattr(form, f) is not None}
        out.append(
            (form.name, design.model_copy(update={**changes, "name": f"{design.name}: {form.name}", "forms": []}))
        )
    return out


def compare_variants(ctx: Context, forms: list[tuple[str, Context]]) -> None:
    """ "The total point value of each spacecraft design must equal the original", per pool."""
    rule = ctx.catalog.rule("transformation-forms")
    source = ctx.catalog.cite(rule.params.source) if rule else ""
    exchanges = {r.definition.id for r in ctx.catalog.rules if r.definition.type == "exchange"}
    for i, (name, fctx) in enumerate(forms):
        for pool_id, pool in ctx.ledger.pools.items():
            primary = _pool_value(pool.lines, exchanges)
            other = _pool_value(fctx.ledger[pool_id].lines, exchanges)
            if primary != other:
                ctx.findings.add(
                    "error",
                    "form-value-mismatch",
                    f"form {name!r} spends {quantity(_num(other), pool.name)}; the primary form spends {_num(primary)}",
                    path=f"forms[{i}]",
                    actual=_num(other),
                    limit=_num(primary),
                    rule=rule.definition.id if rule else "",
                    source=source,
                )


def _pool_value(lines: list[Any], exchanges: set[str]) -> Fraction:
    """Net points a form puts into a pool: costs minus gains, the lines of exchange rules excluded."""
    total = Fraction(0)
    for ln in lines:
        if ln.rule in exchanges:
            continue
        total += ln.amount if ln.kind == "cost" else -ln.amount
    return total


def _num(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else float(x)
