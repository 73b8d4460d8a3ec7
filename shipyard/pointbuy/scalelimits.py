"""Scale limits: out-of-scale components, items for some scales only, items recommended per scale.

Point-buy mechanisms of a ruleset with a scale ladder (the catalog's ``scales`` section):
a smaller-scale component costs a fraction per step down, an item marked for a scale may
not be used at another, and an item the rules recommend for a scale is advice when missing.
"""

from fractions import Fraction
from typing import TYPE_CHECKING

from pydantic import Field

from shipyard.core.findings import Severity
from shipyard.core.items import PricedItem
from shipyard.core.model import Catalog, Context, Params, Selection

if TYPE_CHECKING:
    from shipyard.core.ladder import Step


class KindsParams(Params):
    kinds: list[str] = Field(min_length=1)
    severity: Severity = Severity.ERROR


def scale_factor(ctx: Context, sel: Selection, divisor: int | None) -> Fraction:
    """Out-of-scale: a smaller-scale component costs 1/divisor per step down."""
    if sel.component_scale is None or divisor is None:
        return Fraction(1)
    steps = ctx.scale.index - sel.component_scale.index
    return Fraction(1, divisor**steps) if steps > 0 else Fraction(1)


def scale_label(component: "Step | None", factor: Fraction) -> str:
    """What a line item adds to its label when an out-of-scale component is priced differently."""
    return f", {component.name} scale x {factor}" if component is not None and factor != 1 else ""


def scale_restriction(catalog: Catalog, item: object, scale: "Step") -> str | None:
    """Why ``item`` may not be used at ``scale`` (None when it may): the scales it is for."""
    if not isinstance(item, PricedItem) or catalog.scales is None or catalog.scales.allows(item.scales, scale):
        return None
    scales = [catalog.scales.parse(s) for s in item.scales or []]
    return ", ".join(s.name for s in scales if s is not None)


def apply_scale_restricted(ctx: Context, p: KindsParams) -> None:
    """Items marked for some scales only may not be used at any other scale.

    An entry given a component scale is built for that scale, and it is that scale the
    marking is judged against: an item for the smaller scale may be installed, out of
    scale, in a larger design; the same item at a scale it is not made for may not. Whether
    a component may be larger than its design is the ruleset's to say."""
    for kind in p.kinds:
        for sel in ctx.view.selected(kind):
            item = ctx.catalog.item(kind, sel.id)
            at = sel.component_scale or ctx.scale
            allowed = scale_restriction(ctx.catalog, item, at)
            if allowed is None or not isinstance(item, PricedItem):
                continue
            ctx.findings.add(
                p.severity,
                "scale-restricted-item",
                f"{item.name} is for {allowed} scale only; "
                + (f"this design is {at.name}" if sel.component_scale is None else f"this one is {at.name} scale"),
                path=sel.path if sel.component_scale is None else f"{sel.path}.scale",
                actual=at.name,
                limit=allowed,
                rule=p.id,
                source=ctx.catalog.cite(item.source),
            )


class RecommendedParams(Params):
    kind: str
    severity: Severity = Severity.ADVICE


def apply_recommended(ctx: Context, p: RecommendedParams) -> None:
    """Items the rules recommend for the design's scale; missing ones are advice."""
    for item in ctx.catalog.kind(p.kind).values():
        if not isinstance(item, PricedItem) or not item.recommended_for:
            continue
        if ctx.scale.family in item.recommended_for and not ctx.view.has(p.kind, item.id):
            ctx.findings.add(
                p.severity,
                "recommended-item-missing",
                f"{item.name} is highly recommended for {ctx.scale.name}-scale designs",
                path=p.kind,
                actual=None,
                limit=item.name,
                rule=p.id,
                source=ctx.catalog.cite(item.source),
            )
