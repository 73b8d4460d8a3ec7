"""What the hangar and rosters know of one design, read from its report, for any ruleset.

Key figures: the figure the ruleset's manifest declares for the table (``tabletop.key_figure``),
the track it takes as health, the design's cost and what each pool spent. Every number of
the report (figures, and tracks by their boxes) is searchable (``structure>=10``).

Cost, in the ruleset's own currency: a numeric figure named as a cost (its id or label says
"cost"; of several, the one that says "total"), else what the design's pools spent together,
else none: a roster then counts designs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from shipyard.core.artcheck import design_art
from shipyard.core.composition import design_kind as design_kind  # what a design is, as composition rules see it
from shipyard.core.report import Report

COUNT_UNIT = "designs"  # the currency of a ruleset whose designs have no cost: each counts one


def slug(text: str) -> str:
    """A label as a filter names it: "Structure track" -> ``structure-track``."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


@dataclass
class Facts:
    """A design as the hangar indexes it."""

    name: str
    ruleset: str
    ruleset_name: str
    kind: str
    valid: bool
    errors: int
    findings: int
    cost: float | None
    cost_unit: str
    key: dict[str, float] = field(default_factory=dict)  # label -> value, the design's key figures
    numbers: list[tuple[str, str, float]] = field(default_factory=list)  # (id, label, value), all searchable
    notes: str = ""
    art: str | None = None  # the design's ``art`` as written: a path beside it, or a data: URI


def cost_of(report: Report) -> tuple[float | None, str]:
    """The design's cost and its unit (see the module's docstring)."""
    costs = [
        (value, f)
        for f in report.derived.figures
        if (value := _number(f.value)) is not None and ("cost" in f.id.lower() or "cost" in f.label.lower())
    ]
    # a design reporting its parts' costs and their total (a crewed craft: its own cost, its
    # crew's, and both together) costs the total
    totals = [c for c in costs if "total" in c[1].id.lower() or "total" in c[1].label.lower()]
    for value, f in totals or costs:
        return value, f.unit or "points"
    if report.pools:
        return float(sum(p.spent for p in report.pools)), "points"
    return None, COUNT_UNIT


def design_notes(design: Any) -> str:
    """The design's own words (its story and notes), for free-text search."""
    data = design.model_dump(mode="json") if hasattr(design, "model_dump") else {}
    if "root" in data and isinstance(data["root"], dict):
        data = data["root"]
    return "\n".join(str(data[k]) for k in ("story", "notes", "description") if isinstance(data.get(k), str))


def facts_of(report: Report, design: Any, key_figure: str | None, health: str | None) -> Facts:
    """The design's facts from its report; ``key_figure`` and ``health``: the manifest's tabletop ids."""
    numbers: list[tuple[str, str, float]] = []
    for f in report.derived.figures:
        value = _number(f.value)
        if value is not None:
            numbers.append((f.id, f.label, value))
    figure_ids = {n[0] for n in numbers}
    for t in report.derived.tracks:  # a track named like a figure (Structure's boxes beside its rating) says so,
        clash = t.id in figure_ids  # in words a filter on the figure ("structure>=10") does not also match
        track_id, label = (f"boxes-of-{t.id}", f"Boxes of {t.name}") if clash else (t.id, t.name)
        numbers.append((track_id, label, float(len(t.boxes))))
    cost, unit = cost_of(report)
    # what the hangar shows of every design (its cost, each pool's spending) is searchable
    # too: "cost>=50", "weapon-points-spent>=10"
    known = {n[0] for n in numbers}
    if cost is not None and "cost" not in known:
        numbers.append(("cost", "Cost", cost))
    numbers += [
        (f"{p.id}-spent", f"{p.name} spent", float(p.spent)) for p in report.pools if f"{p.id}-spent" not in known
    ]
    key: dict[str, float] = {}
    for wanted in (key_figure, health):
        hit = next((n for n in numbers if n[0] == wanted), None)
        same = (
            any(v == hit[2] and (label.startswith(hit[1]) or hit[1].startswith(label)) for label, v in key.items())
            if hit
            else True
        )
        if hit is not None and not same:
            key[hit[1]] = hit[2]
    if cost is not None:
        key[f"Cost ({unit})" if unit != "points" else "Cost"] = cost
    for p in report.pools:
        key[f"{p.name} spent"] = float(p.spent)
    errors = sum(1 for f in report.findings if f.severity.value == "error")
    return Facts(
        name=report.name,
        ruleset=report.ruleset,
        ruleset_name=report.ruleset_name,
        kind=design_kind(report, design),
        valid=report.valid,
        errors=errors,
        findings=len(report.findings),
        cost=cost,
        cost_unit=unit,
        key=key,
        numbers=numbers,
        notes=design_notes(design),
        art=design_art(design),
    )


def shown_number(value: float) -> str:
    """A figure as a person reads it: 12, not 12.0."""
    return f"{value:g}" if value != int(value) else f"{int(value):,}"


def changed_figures(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """ "Structure 10 -> 12" for each key figure that differs (new and gone ones too)."""
    out = []
    for label in [*before, *(k for k in after if k not in before)]:
        a, b = before.get(label), after.get(label)
        if a != b:
            out.append(f"{label} {_shown(a)} -> {_shown(b)}")
    return out


def _shown(value: Any) -> str:
    if value is None:
        return "(none)"
    return shown_number(float(value)) if isinstance(value, int | float) else str(value)
