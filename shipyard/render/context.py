"""The plain data a sheet template sees: reports and designs dumped to dicts.

Templates may come from strangers, so they get JSON-like data only — no models, no
catalog objects, nothing with methods worth calling.

Every tick box of a track and every write-in slot carries ``field``, the name its form
field gets on a fillable sheet: its place in the design (``structure.3``, the third box
of the track ``structure``; ``consequences.mild``, a slot). A PDF of several designs (a
fleet book, a card sheet, a record print of several files) starts each design's names
with a slug of its name (``rebel-fighter.structure.3``), numbered when two designs
share one (``rebel-fighter-2.``); so do a report's forms within it.

Every dumped report (a design's, and each of its forms': a force's fighters and pilots)
carries ``shown``, its table's figures by id (:mod:`shipyard.core.shown`): the values a
sheet or card prints come from there, as every other output's do.
"""

from __future__ import annotations

import datetime as _dt
import math
import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from shipyard.core.artcheck import design_story
from shipyard.core.designfile import LoadedDesign
from shipyard.core.model import Catalog
from shipyard.core.report import Report
from shipyard.core.shown import Table, design_table
from shipyard.render.art import entry_art
from shipyard.render.paper import PAPERS

CONTENTS_PER_PAGE = 38


def slug(text: str) -> str:
    """A name as a piece of a field name: lower-case ASCII letters, digits and hyphens."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:40].strip("-") or "design"


def unique_slugs(names: Iterable[str]) -> list[str]:
    """The slug of each name, numbered from the second of a kind (``wing``, ``wing-2``)."""
    out: list[str] = []
    for name in names:
        base = candidate = slug(name)
        n = 1
        while candidate in out:
            n += 1
            candidate = f"{base}-{n}"
        out.append(candidate)
    return out


def field_prefixes(names: list[str]) -> list[str]:
    """What each design's field names start with: nothing when the PDF holds one design."""
    return [""] if len(names) == 1 else [f"{s}." for s in unique_slugs(names)]


def name_fields(report: dict[str, Any], prefix: str = "") -> None:
    """Give each box of each track and each slot of a dumped report (and its forms) its field name."""
    for track in report["derived"]["tracks"]:
        for n, box in enumerate(track["boxes"], 1):
            box["field"] = f"{prefix}{track['id']}.{n}"
    for s in report["derived"]["slots"]:
        s["field"] = prefix + s["id"]
    forms = report["forms"]
    for form, part in zip(forms, unique_slugs(f["name"] for f in forms), strict=True):
        name_fields(form, f"{prefix}{part}.")


def add_shown(data: dict[str, Any], report: Report, table: Table | None = None) -> None:
    """Give a dumped report, and each of its forms, ``shown``: its table's figures by id
    (``table``: the report's, when made already)."""
    data["shown"] = {f.id: f.model_dump(mode="json") for f in (table or design_table(report)).figures}
    for form_data, form in zip(data["forms"], report.forms, strict=True):
        add_shown(form_data, form)


def design_entry(loaded: LoadedDesign, report: Report, field_prefix: str = "") -> dict[str, Any]:
    """One design as the templates see it: its fields, its report, where it came from."""
    data = report.model_dump(mode="json")
    name_fields(data, field_prefix)
    shown = design_table(report)
    add_shown(data, report, shown)
    return {
        "field_prefix": field_prefix,
        "file": loaded.file.name if loaded.file else "",
        "art": entry_art(loaded.design, loaded.file),
        "story": design_story(loaded.design),
        "design": loaded.design.model_dump(mode="json"),
        "report": data,
        "figures": {f["id"]: f for f in data["derived"]["figures"]},
        "tables": {t["id"]: t for t in data["derived"]["tables"]},
        "tracks": {t["id"]: t for t in data["derived"]["tracks"]},
        "slots": {s["id"]: s for s in data["derived"]["slots"]},
        "actions": {a["id"]: a for a in data["derived"]["actions"]},
        # the table every output shows (core.shown): figures as printed, recorded state, bars
        "shown": shown.model_dump(mode="json"),
        "shown_figures": data["shown"],
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


def fleet_layout(n_designs: int, first_page: int = 1) -> dict[str, int]:
    """Page numbers of a fleet book, known before rendering so parts render in parallel.

    Cover (1 page, numbered ``first_page``: a book printed after other pages, as a roster's
    after its summary, goes on counting from them), contents (``CONTENTS_PER_PAGE`` designs
    a page), one record sheet per design (each sheet is exactly one page), then the
    reference appendix.
    """
    contents_pages = max(1, math.ceil(n_designs / CONTENTS_PER_PAGE))
    first_sheet = first_page + contents_pages + 1
    return {
        "first_page": first_page,
        "contents_pages": contents_pages,
        "contents_per_page": CONTENTS_PER_PAGE,
        "first_sheet": first_sheet,
        "appendix": first_sheet + n_designs,
    }


def template_dirs(ruleset: str, user_dirs: list[Path], ruleset_templates: Path | None, common: Path) -> list[Path]:
    """Where templates are looked up, first match wins: user folders (a ``RULESET`` and a
    ``common`` folder in each, then the folder itself), the ruleset's own templates (its
    manifest says where), then the shared ``common`` templates.

    A user folder's ``RULESET`` and ``common`` must be real folders: a link there (to
    ``/etc``, say) is refused with an input error, never followed (the safe folder walk,
    :mod:`shipyard.core.safepaths`)."""
    from shipyard.core.errors import InputError
    from shipyard.core.safepaths import UnsafePath, subfolder

    dirs: list[Path] = []
    for d in user_dirs:
        for name in (ruleset, "common"):
            try:
                found = subfolder(d, name)
            except UnsafePath as exc:
                raise InputError.single(
                    f"refused template folder: it is {exc.what}; a template folder's {ruleset!r} and 'common' "
                    "must be real folders inside it, never links",
                    file=exc.path,
                ) from None
            dirs += [found] if found is not None else []
        dirs.append(d)
    dirs += [*([ruleset_templates] if ruleset_templates else []), common]
    return [d for d in dirs if d.is_dir()]
