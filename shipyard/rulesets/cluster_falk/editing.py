"""What the declared editor form (catalogs/cluster-falk/form.yaml) asks of the ruleset."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shipyard.core.errors import InputError
from shipyard.core.formview import FormContext
from shipyard.core.numberwords import count_of
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


def _track_of(base: str) -> str:
    """The stress track a list of ticked boxes is for, from its path (``stress.hull_ticked``)."""
    return base.removeprefix("stress.").removesuffix("_ticked")


def _boxes(ctx: FormContext, track: str) -> list[tuple[str, int]]:
    """The boxes of a stress track a tick may be on, by number with what each absorbs; a box
    ticked beyond the track (made shorter since) is offered too, so that its row shows the
    box its finding is about until it is cleared."""
    length = ctx.value(f"stress.{track}")
    boxes = list(range(1, length + 1)) if isinstance(length, int) else []
    held = ctx.value(f"stress.{track}_ticked") or []
    out = [(f"Box {n}: absorbs {count_of(n, 'shift')}", n) for n in boxes]
    out += [(f"Box {n}: not on the track", n) for n in held if isinstance(n, int) and n not in boxes]
    return out


def hull_boxes(ctx: FormContext, **_: Any) -> list[tuple[str, int]]:
    """The Hull track's boxes, for a tick's row."""
    return _boxes(ctx, "hull")


def systems_boxes(ctx: FormContext, **_: Any) -> list[tuple[str, int]]:
    """The Systems track's boxes, for a tick's row."""
    return _boxes(ctx, "systems")


def first_clear_box(ctx: FormContext, base: str = "", **_: Any) -> int:
    """The box a new tick goes on: the track's smallest clear box, which the person then
    changes to the box the hit's shifts name. A track with every box ticked has none to
    tick: the ship takes a consequence instead, so nothing is added and the reason is said."""
    track = _track_of(base)
    length = ctx.value(f"stress.{track}")
    held = set(ctx.value(base) or [])
    for n in range(1, (length if isinstance(length, int) else 0) + 1):
        if n not in held:
            return n
    raise InputError.single(
        f"every box of the {track.capitalize()} stress track is ticked: take a consequence, or clear a box first",
        path=base,
    )


FORM_CALLS: dict[str, Callable[..., Any]] = {
    "crew_stations": crew_stations,
    "extreme_allowed": extreme_allowed,
    "first_clear_box": first_clear_box,
    "hull_boxes": hull_boxes,
    "systems_boxes": systems_boxes,
}
