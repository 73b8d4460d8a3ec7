"""Helpers for the per-ruleset sheet tests (Future Perfect, Wing Commander): a sample's
report, the HTML a record sheet renders to (where every tick box names its place), and
renamed copies of the samples to fill pages of stat cards.

The PDF side (pages' text, page sizes) is ``tests/test_printing.py``'s; ``cards_printed``
prints a sheet of stat cards.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from shipyard.core.designfile import load_design
from shipyard.core.evaluate import evaluate
from shipyard.core.registry import get
from shipyard.core.report import Report
from shipyard.core.resources import builtin_template_root
from shipyard.render.context import design_entry, sheet_context, template_dirs
from shipyard.render.printing import print_designs
from shipyard.render.templates import render_html
from shipyard.render.worker import RenderWorker


def report_of(file: Path) -> tuple[Any, Report]:
    """The design in ``file`` and what the engine reports on it (no user catalog)."""
    loaded = load_design(file, use_user_folder=False)
    return loaded.design, evaluate(loaded.design, loaded.catalog)


def sheet_html(file: Path, sheet: str = "record.html") -> str:
    """The HTML of ``file``'s record sheet on A4, from its ruleset's templates."""
    loaded = load_design(file, use_user_folder=False)
    report = evaluate(loaded.design, loaded.catalog)
    ctx = sheet_context([design_entry(loaded, report)], loaded.catalog, sheet="record", paper="a4")
    dirs = template_dirs(loaded.ruleset, [], get(loaded.ruleset).templates, builtin_template_root() / "common")
    return render_html(dirs, sheet, ctx)


def renamed_copies(tmp_path: Path, files: list[Path], n: int) -> list[Path]:
    """``n`` design files in ``tmp_path``, the samples ``files`` over and over, the i-th
    renamed "Wing <i> <its name>" (so each card on a page can be found by its name)."""
    out = []
    for i in range(n):
        doc = json.loads(files[i % len(files)].read_text(encoding="utf-8"))
        doc["design"]["name"] = f"Wing {i + 1:02d} {doc['design']['name']}"
        f = tmp_path / f"d{i:03d}.ship"
        f.write_text(json.dumps(doc), encoding="utf-8")
        out.append(f)
    return out


def cards_printed(
    tmp_path: Path, files: list[Path], count: int, paper: str, workers: list[RenderWorker]
) -> tuple[int, Path]:
    """``count`` renamed copies of ``files`` printed as stat cards on ``paper``: the pages the
    print says it made, and the PDF."""
    out = tmp_path / "cards.pdf"
    result = print_designs(
        renamed_copies(tmp_path, files, count), out, sheet="cards", paper=paper, workers=workers, use_user_folder=False
    )
    return result.pages, out


def is_notes_page(text: str) -> bool:
    """A page after a design's sheet that holds the notes its Notes box had to cut, whole
    (``notes_more`` in templates/common/parts.html): "Notes of NAME, continued"."""
    return text.lstrip().lower().startswith("notes of ")
