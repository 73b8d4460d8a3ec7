"""A design as a Foundry VTT actor of the Simple Worldbuilding system (``worldbuilding``).

None of the five rule systems has a Foundry system of its own; Simple Worldbuilding's
actors carry free attributes in groups, resources and a biography, which is what a
report is. The actor is built from the neutral report alone, with the ruleset's small
declared mapping (``tabletop`` in its manifest: which track is the health, which tables
are the items):

- ``system.health``: the declared track, as many boxes as it has (value = max: undamaged);
  ``system.power`` stays at the system's default, which the worldbuilding sheet shows;
- ``system.attributes``: every figure of the report in the group ``figures``, every pool
  in ``budgets`` (a Resource: what is left of its budget, below 0 when overspent) and
  every track in ``tracks`` (a Resource: value and max its boxes);
  a figure is Number, Boolean or String by its value; ``system.groups`` names the groups;
- ``items``: each row of the declared tables (weapons, equipment), type ``item``, its
  columns as String or Number attributes and as the description;
- ``system.biography``: the design's story and the report's text, as HTML;
- ``img`` and ``prototypeToken.texture.src``: the token PNG written beside the JSON.

The layout is Foundry's current one (v10 and later: ``system``, not ``data``); the
fields are the Simple Worldbuilding ``template.json``'s (``Actor.character``: biography,
health, power, attributes, groups; ``Item.item``: description, quantity, weight,
attributes, groups), and the attribute shape its sheet reads (``dtype``, ``value``,
``label``, ``min``/``max`` for a Resource; no ``.`` or space in a key).
"""

from __future__ import annotations

import html
import re
from typing import Any

from shipyard.core.report import Report
from shipyard.core.textreport import render

SYSTEM_ID = "worldbuilding"
GROUPS = {"figures": "Figures", "budgets": "Budgets", "tracks": "Tracks"}


def key(text: str, taken: set[str]) -> str:
    """An attribute key the worldbuilding sheet accepts (no dots or spaces), unique among ``taken``."""
    base = re.sub(r"[^A-Za-z0-9_-]+", "_", text).strip("_") or "value"
    out, n = base, 1
    while out in taken:
        n += 1
        out = f"{base}_{n}"
    taken.add(out)
    return out


def _attribute(label: str, value: Any, group: str) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"dtype": "Boolean", "value": value, "label": label, "group": group}
    if isinstance(value, (int, float)):
        return {"dtype": "Number", "value": value, "label": label, "group": group}
    if isinstance(value, dict):
        text = "; ".join(f"{k} {v}" for k, v in value.items() if not isinstance(v, (dict, list)))
    elif isinstance(value, list):
        text = ", ".join(str(v) for v in value)
    else:
        text = "" if value is None else str(value)
    return {"dtype": "String", "value": text, "label": label, "group": group}


def _resource(label: str, value: int, maximum: int, group: str) -> dict[str, Any]:
    """A Resource; an overspent pool keeps its negative value (the sheet clamps a value to min..max)."""
    return {"dtype": "Resource", "value": value, "min": min(0, value), "max": maximum, "label": label, "group": group}


def attributes(report: Report) -> dict[str, dict[str, Any]]:
    """The report's figures, pools and tracks as the worldbuilding system's grouped attributes."""
    out: dict[str, dict[str, Any]] = {g: {} for g in GROUPS}
    taken: set[str] = set(GROUPS)  # the sheet refuses an attribute key that is also a group's
    for fig in report.derived.figures:
        label = f"{fig.label} ({fig.unit})" if fig.unit else fig.label
        out["figures"][key(fig.id, taken)] = _attribute(label, fig.value, "figures")
    for pool in report.pools:
        out["budgets"][key(pool.id, taken)] = _resource(
            pool.name, pool.remaining, max(pool.budget, pool.remaining), "budgets"
        )
    for track in report.derived.tracks:
        n = len(track.boxes)
        out["tracks"][key(track.id, taken)] = _resource(track.name, n, n, "tracks")
    return {g: attrs for g, attrs in out.items() if attrs}


def items(report: Report, tables: list[str]) -> list[dict[str, Any]]:
    """Each row of the declared tables as a worldbuilding item."""
    out = []
    for table in report.derived.tables:
        if table.id not in tables:
            continue
        for row in table.rows:
            if not row:
                continue
            taken: set[str] = set()
            attrs = {
                key(col, taken): _attribute(col, cell, "")
                for col, cell in zip(table.columns[1:], row[1:], strict=False)
            }
            for a in attrs.values():
                a.pop("group")
            described = "; ".join(f"{col}: {cell}" for col, cell in zip(table.columns[1:], row[1:], strict=False))
            out.append({
                "name": str(row[0])[:200] or table.title,
                "type": "item",
                "img": "icons/svg/item-bag.svg",
                "system": {
                    "description": f"<p>{html.escape(table.title)}: {html.escape(described)}</p>",
                    "quantity": 1,
                    "weight": 0,
                    "attributes": attrs,
                    "groups": {},
                },
                "effects": [],
                "flags": {},
            })  # fmt: skip
    return out


def biography(report: Report, story: str) -> str:
    parts = []
    if story:
        parts.append(f"<h2>Story</h2><p>{html.escape(story)}</p>")
    parts.append(f"<h2>Record</h2><pre>{html.escape(render(report))}</pre>")
    return "".join(parts)


def actor(
    report: Report, *, story: str, image: str, health: str | None, tables: list[str], source: str
) -> dict[str, Any]:
    """The Foundry actor of a design's report; ``image`` is the token PNG's file name, beside the JSON."""
    track = next((t for t in report.derived.tracks if t.id == health), None) if health else None
    hp = len(track.boxes) if track is not None else 0
    attrs = attributes(report)
    return {
        "name": report.name,
        "type": "character",
        "img": image,
        "system": {
            "biography": biography(report, story),
            "health": {"value": hp, "min": 0, "max": hp},
            "power": {"value": 5, "min": 0, "max": 5},
            "attributes": attrs,
            "groups": {g: {"key": g, "label": GROUPS[g], "dtype": "String"} for g in attrs},
        },
        "prototypeToken": {
            "name": report.name,
            "actorLink": False,
            "texture": {"src": image},
            "bar1": {"attribute": "health"},
            "displayName": 20,
            "displayBars": 20,
        },
        "items": items(report, tables),
        "effects": [],
        "flags": {
            "shipyard": {"ruleset": report.ruleset, "preset": report.preset, "valid": report.valid, "file": source}
        },
    }


__all__ = ["GROUPS", "SYSTEM_ID", "actor", "attributes", "items", "key"]
