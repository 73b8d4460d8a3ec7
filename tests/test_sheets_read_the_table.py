"""The record sheet and the stat cards print each figure from the table of what a design shows
(:mod:`shipyard.core.shown`), the one source every output reads, not from the report or the
design file: with every number of the table changed to one found nowhere else, each figure
a card prints shows the changed number on the sheet and on the cards of every sample of
every ruleset. (Figures in words, a fighter's kind, say, are left as they are: templates
choose what to draw by them.)"""

from __future__ import annotations

from typing import Any

import pytest

from shipyard.core import registry
from shipyard.core.designfile import load_design, sample_files
from shipyard.core.evaluate import evaluate
from shipyard.core.resources import builtin_template_root
from shipyard.core.shown import design_table
from shipyard.render.context import design_entry, field_prefixes, sheet_context, template_dirs
from shipyard.render.templates import render_html

FIRST_MARK = 900_001  # a number no sample's figure has


def _mark(entry: dict[str, Any], counter: list[int]) -> None:
    """Give each number of the entry's table (the figures by id, and the table's own list)
    a number of its own, printed as it would be."""
    listed = {f["id"]: f for f in entry["shown"]["figures"]}
    for fig_id, fig in entry["shown_figures"].items():
        if isinstance(fig["number"], int) and not isinstance(fig["number"], bool):
            counter[0] += 1
            for f in (fig, listed[fig_id]):
                f["value"], f["number"] = f"{counter[0]:,}", counter[0]


def _printed(html: str, fig: dict[str, Any]) -> bool:
    n = fig["number"]
    return any(m in html for m in (fig["value"], f"{n:+d}", str(n)))


@pytest.mark.parametrize("ruleset", [r.id for r in registry.rulesets()])
def test_the_sheet_and_cards_print_the_numbers_of_the_table(ruleset: str) -> None:
    loaded = [load_design(f, use_user_folder=False) for f in sample_files(registry.get(ruleset).samples)]
    reports = [evaluate(ld.design, ld.catalog) for ld in loaded]
    prefixes = field_prefixes([r.name for r in reports])
    entries = [design_entry(ld, r, p) for ld, r, p in zip(loaded, reports, prefixes, strict=True)]
    counter = [FIRST_MARK - 1]
    for e in entries:
        _mark(e, counter)
    dirs = template_dirs(ruleset, [], registry.get(ruleset).templates, builtin_template_root() / "common")
    missing, checked = [], 0
    for sheet in ("record", "cards"):
        html = render_html(dirs, f"{sheet}.html", sheet_context(entries, loaded[0].catalog, sheet=sheet, paper="a4"))
        for e, report in zip(entries, reports, strict=True):
            table = design_table(report)
            tracks = {s.id for s in table.states}  # a figure a sheet draws as its track's boxes
            for f in table.figures:
                fig = e["shown_figures"][f.id]
                if f.card and fig["number"] >= FIRST_MARK and not (sheet == "record" and f.id in tracks):
                    checked += 1
                    if not _printed(html, fig):
                        missing.append(f"{sheet} of {report.name}: {f.id} ({f.value}) is not the table's")
    assert not missing, "\n".join(missing)
    assert checked >= 2 * len(entries)  # every ruleset's card prints numbers
