"""A design as a Foundry VTT actor of the Simple Worldbuilding system (``worldbuilding``).

None of the five rule systems has a Foundry system of its own; Simple Worldbuilding's
actors carry free attributes in groups, resources and a biography, which is what a
design's table is. The actor is built from that table alone (:mod:`shipyard.core.shown`:
the figures as the sheet prints them, the recorded state, the health and power bars its
ruleset declares) and the report's item tables:

- ``_id`` (16 letters and digits, the same for the same design file at every export, so
  importing it again updates the actor), ``_stats`` (the Foundry core version, the system
  and its version: Foundry does not take the actor for old data to migrate);
- ``system.health``: the declared health bar (value = what is left, max = the rating:
  Structure 15 with 3 boxes ticked is 12/15); ``system.power``: the declared power bar,
  or 0/0 for a design without Power (left out, Foundry would fill in the system's 5/5);
- ``system.attributes``: every figure in the group ``figures`` (a Number when the sheet
  prints a plain number, else the printed text: "Great (+4)"), every budget line in
  ``budgets``, every track in ``tracks`` (a Resource: its ticked boxes of all its boxes,
  its label naming which when they are not the first ones)
  and every write-in slot in ``slots`` (the consequence's text; its label says its value);
- ``items``: each row of the declared tables (weapons, equipment), each with its ``_id``;
- ``system.biography``: the design's story and the report's text, as HTML;
- ``img`` and ``prototypeToken.texture.src``: the token PNG, by its file name or, for a
  world (``--world NAME``), by its path in the world's folder; the prototype token's
  ``bar1`` is the health and ``bar2`` the power (none without Power);
- ``flags.shipyard.document``: the design file itself, so ``shipyard import foundry``
  gives back the design and its recorded state.

The layout is Foundry's since v10 (``system``, not ``data``); the fields are the Simple
Worldbuilding ``template.json``'s (``Actor.character``: biography, health, power,
attributes, groups; ``Item.item``: description, quantity, weight, attributes, groups),
and the attribute shape its sheet reads (``dtype``, ``value``, ``label``, ``min``/``max``
for a Resource; no ``.`` or space in a key).
"""

from __future__ import annotations

import hashlib
import html
import re
from collections.abc import Sequence
from typing import Any

from shipyard.core.report import Report
from shipyard.core.shown import Bar, Shown, State, Table
from shipyard.core.textreport import render

SYSTEM_ID = "worldbuilding"
GROUPS = {
    "figures": "Figures",
    "budgets": "Budgets",
    "tracks": "Tracks",
    "slots": "Consequences and notes",
    "forms": "Forms and members",
}
FOUNDRY_VERSIONS = {12: "12.343", 13: "13.345"}
"""The Foundry VTT core versions the actor is written for (the current and the previous major)."""
SYSTEM_VERSIONS = {12: "0.8.2", 13: "0.9.0"}
"""The Simple Worldbuilding release of each Foundry major version the actor names in ``_stats``."""
DEFAULT_FOUNDRY = 13
_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def document_id(*parts: str) -> str:
    """A Foundry document id (16 letters and digits) made from ``parts``: the same parts, the same id."""
    n = int.from_bytes(hashlib.sha256("\x1f".join(parts).encode("utf-8")).digest(), "big")
    out = []
    for _ in range(16):
        n, r = divmod(n, len(_ALPHABET))
        out.append(_ALPHABET[r])
    return "".join(out)


def stats(foundry: int) -> dict[str, Any]:
    """The ``_stats`` of a document written for Foundry ``foundry`` (12 or 13): v13 added
    ``exportSource`` (the world an exported document came from: none, Shipyard made it)."""
    return {
        "coreVersion": FOUNDRY_VERSIONS[foundry],
        "systemId": SYSTEM_ID,
        "systemVersion": SYSTEM_VERSIONS[foundry],
        "createdTime": None,
        "modifiedTime": None,
        "lastModifiedBy": None,
        "compendiumSource": None,
        "duplicateSource": None,
        **({"exportSource": None} if foundry >= 13 else {}),
    }


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
    """An item's cell as an attribute of its kind."""
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


def _plain(fig: Shown) -> bool:
    """Whether the sheet prints the figure as its plain number (``1,200``, a modifier's ``+2``),
    not words round it."""
    n = fig.number
    if n is None or isinstance(n, bool):
        return False
    return fig.value in {str(n), f"{n:,}", f"{n:g}" if isinstance(n, float) else f"{n:+d}"}


def _figure(fig: Shown) -> dict[str, Any]:
    label = f"{fig.label} ({fig.unit})" if fig.unit else fig.label
    if isinstance(fig.number, bool):
        return {"dtype": "Boolean", "value": fig.number, "label": label, "group": fig.group}
    if _plain(fig):
        return {"dtype": "Number", "value": fig.number, "label": label, "group": fig.group}
    return {"dtype": "String", "value": fig.value, "label": label, "group": fig.group}


def ticked_words(state: State) -> str:
    """A track's Resource label's note: "ticked", and which boxes when they are not the first
    ones. A Resource holds only how many are ticked, which reads as the first boxes; a Fate
    stress track may have a later box ticked and an earlier one clear, and the next hit and
    the next repair depend on which."""
    if state.marks == tuple(range(1, state.ticked + 1)):
        return "ticked"
    return ("ticked: box " if len(state.marks) == 1 else "ticked: boxes ") + ", ".join(str(n) for n in state.marks)


def attributes(shown: Table, forms: Sequence[Table] = ()) -> dict[str, dict[str, Any]]:
    """The table's figures, budget lines, tracks and slots as the worldbuilding system's grouped
    attributes; ``forms``: the tables of the design's forms (a transforming fighter's other
    form, a force's members), each figure and track under its form's name in the group forms."""
    out: dict[str, dict[str, Any]] = {g: {} for g in GROUPS}
    taken: set[str] = set(GROUPS)  # the sheet refuses an attribute key that is also a group's
    for form in forms:
        for fig in form.figures:
            attr = _figure(fig)
            out["forms"][key(f"{form.name}-{fig.id}", taken)] = attr | {
                "label": f"{form.name}: {attr['label']}",
                "group": "forms",
            }
        for state in form.states:
            if state.kind == "track":
                label = f"{form.name}: {state.name} ({ticked_words(state)})"
                out["forms"][key(f"{form.name}-{state.id}-ticked", taken)] = _resource(
                    label, state.ticked, state.boxes, "forms"
                )
    for fig in shown.figures:
        out[fig.group][key(fig.id, taken)] = _figure(fig)
    for state in shown.states:
        if state.kind == "track":
            out["tracks"][key(f"{state.id}-ticked", taken)] = _resource(
                f"{state.name} ({ticked_words(state)})", state.ticked, state.boxes, "tracks"
            )
        else:
            label = f"{state.name} {state.value}" if state.value is not None else state.name
            if state.track:  # the track it was taken on (a hull consequence rolls on the hull table)
                label += f" ({state.track})"
            if not state.available:
                label += " (not available)"
            out["slots"][key(state.id, taken)] = {
                "dtype": "String",
                "value": state.text,
                "label": label,
                "group": "slots",
            }
    return {g: attrs for g, attrs in out.items() if attrs}


def items(report: Report, tables: list[str], owner: str = "") -> list[dict[str, Any]]:
    """Each row of the declared tables as a worldbuilding item, its ``_id`` made from its owner's and its place."""
    out: list[dict[str, Any]] = []
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
                "_id": document_id(owner, table.id, str(len(out))),
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


def _bar(bar: Bar | None) -> dict[str, int]:
    """A bar as the system's value/min/max; a bar the design lacks is 0/0, never the system's default."""
    if bar is None:
        return {"value": 0, "min": 0, "max": 0}
    return {"value": bar.value, "min": bar.min, "max": bar.max}


def actor(
    report: Report,
    shown: Table,
    *,
    story: str,
    image: str,
    tables: list[str],
    source: str,
    document: dict[str, Any],
    foundry: int = DEFAULT_FOUNDRY,
    forms: Sequence[Table] = (),
) -> dict[str, Any]:
    """The Foundry actor of a design: ``image`` is the token PNG's path as Foundry reads it
    (its file name, or ``worlds/NAME/...``); ``source`` names the design's file (the actor's
    id is made from it); ``document`` is the design file's content, kept for the way back."""
    if foundry not in FOUNDRY_VERSIONS:
        raise ValueError(f"Foundry {foundry} is not written; {', '.join(map(str, FOUNDRY_VERSIONS))} are")
    ident = document_id("actor", report.ruleset, source or shown.name)
    attrs = attributes(shown, forms)
    return {
        "_id": ident,
        "name": shown.name,
        "type": "character",
        "img": image,
        "system": {
            "biography": biography(report, story),
            "health": _bar(shown.health),
            "power": _bar(shown.power),
            "attributes": attrs,
            "groups": {g: {"key": g, "label": GROUPS[g], "dtype": "String"} for g in attrs},
        },
        "prototypeToken": {
            "name": shown.name,
            "actorLink": False,
            "texture": {"src": image},
            "bar1": {"attribute": "health" if shown.health is not None else None},
            "bar2": {"attribute": "power" if shown.power is not None else None},
            "displayName": 20,
            "displayBars": 20,
        },
        "items": items(report, tables, ident),
        "effects": [],
        "folder": None,
        "sort": 0,
        "ownership": {"default": 0},
        "flags": {
            "shipyard": {
                "ruleset": report.ruleset,
                "preset": report.preset,
                "valid": report.valid,
                "file": source,
                "document": document,
            }
        },
        "_stats": stats(foundry),
    }


__all__ = [
    "DEFAULT_FOUNDRY",
    "FOUNDRY_VERSIONS",
    "GROUPS",
    "SYSTEM_ID",
    "actor",
    "attributes",
    "document_id",
    "items",
    "key",
    "stats",
]
