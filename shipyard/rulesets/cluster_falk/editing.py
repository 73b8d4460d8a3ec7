"""What the declared editor form (catalogs/cluster-falk/form.yaml) asks of the ruleset."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shipyard.core.formview import FormContext
from shipyard.rulesets.cluster_falk.items import ConsequenceSlot


def crew_stations(ctx: FormContext, **_: Any) -> list[tuple[str, str]]:
    """Where a crew member may sit: the ship's stations, then its turrets (by name)."""
    out: list[tuple[str, str]] = []
    for station_id in ctx.value("stations") or []:
        item = ctx.catalog.item("stations", str(station_id))
        out.append((item.name if item is not None else str(station_id), str(station_id)))
    for turret in ctx.value("turrets") or []:
        name = str(turret.get("name", "")) if isinstance(turret, dict) else ""
        if name:
            out.append((name, name))
    return out


def extreme_allowed(ctx: FormContext, **_: Any) -> bool:
    """Whether the ship's Scale has the Extreme consequence slot."""
    item = ctx.catalog.item("consequences", "extreme")
    scale = ctx.value("scale")
    if not isinstance(item, ConsequenceSlot) or not isinstance(scale, int):
        return False
    return item.min_scale is None or scale >= item.min_scale


FORM_CALLS: dict[str, Callable[..., Any]] = {
    "crew_stations": crew_stations,
    "extreme_allowed": extreme_allowed,
}
