"""The plain data a sheet template sees: reports and designs dumped to dicts.

Templates may come from strangers, so they get JSON-like data only — no models, no
catalog objects, nothing with methods worth calling.
"""

from __future__ import annotations

import datetime as _dt
import math
from pathlib import Path
from typing import Any

from shipyard.core.designfile import LoadedDesign
from shipyard.core.model import Catalog
from shipyard.core.report import Report
from shipyard.render.paper import PAPERS

CONTENTS_PER_PAGE = 38


def design_entry(loaded: LoadedDesign, report: Report) -> dict[str, Any]:
    """One design as the templates see it: its fields, its report, where it came from."""
    data = report.model_dump(mode="json")
    return {
        "file": loaded.file.name if loaded.file else "",
        "design": loaded.design.model_dump(mode="json"),
        "report": data,
        "figures": {f["id"]: f for f in data["derived"]["figures"]},
        "tables": {t["id"]: t for t in data["derived"]["tables"]},
        "tracks": {t["id"]: t for t in data["derived"]["tracks"]},
        "slots": {s["id"]: s for s in data["derived"]["slots"]},
        "actions": {a["id"]: a for a in data["derived"]["actions"]},
    }


def reference(catalog: Catalog) -> dict[str, Any]:
    """Catalog reference tables (charts, maneuvers, weapons) for appendices and sheets."""
    return {
        kind: [i.model_dump(mode="json") for i in catalog.kind(kind).values()] for kind in catalog.meta.sheet_reference
    }


def sheet_context(
    entries: list[dict[str, Any]],
    catalog: Catalog,
    *,
    sheet: str,
    paper: str,
    title: str = "",
    first_page: int = 1,
    today: _dt.date | None = None,
) -> dict[str, Any]:
    preset = catalog.preset
    return {
        "sheet": sheet,
        "paper": paper,
        "paper_mm": list(PAPERS[paper]),
        "title": title,
        "date": (today or _dt.date.today()).isoformat(),
        "ruleset": {
            "id": catalog.meta.id,
            "name": catalog.meta.name,
            "source": catalog.meta.source_title,
            "samples_note": catalog.meta.samples_note,
            "stats": {s.id: {"name": s.name, "min": s.min, "max": s.max} for s in catalog.meta.stats},
        },
        "preset": {"id": preset.id, "name": preset.name, "description": preset.description} if preset else {},
        "designs": entries,
        "reference": reference(catalog),
        "first_page": first_page,
    }


def fleet_layout(n_designs: int) -> dict[str, int]:
    """Page numbers of a fleet book, known before rendering so parts render in parallel.

    Cover (1 page), contents (``CONTENTS_PER_PAGE`` designs a page), one record sheet per
    design (each sheet is exactly one page), then the reference appendix.
    """
    contents_pages = max(1, math.ceil(n_designs / CONTENTS_PER_PAGE))
    first_sheet = 1 + contents_pages + 1
    return {
        "contents_pages": contents_pages,
        "contents_per_page": CONTENTS_PER_PAGE,
        "first_sheet": first_sheet,
        "appendix": first_sheet + n_designs,
    }


def template_dirs(ruleset: str, user_dirs: list[Path], ruleset_templates: Path | None, common: Path) -> list[Path]:
    """Where templates are looked up, first match wins: user folders (a ``RULESET`` and a
    ``common`` folder in each, then the folder itself), the ruleset's own templates (its
    manifest says where), then the shared ``common`` templates."""
    dirs: list[Path] = []
    for d in user_dirs:
        dirs += [d / ruleset, d / "common", d]
    dirs += [*([ruleset_templates] if ruleset_templates else []), common]
    return [d for d in dirs if d.is_dir()]
