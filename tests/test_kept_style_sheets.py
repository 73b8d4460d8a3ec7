"""A render worker parses each ``<style>`` text once (shipyard._speedups.keep_parsed_style_sheets).

What is held here: a sheet printed with a kept style sheet is the same PDF, byte for byte,
as the first print of its text, whose sheets were all parsed, and with every other
speed-up on the same bytes as with all of them off; the page rules a kept sheet gave the
first document (its ``@page`` size and margins) reach every later one; a sheet whose
parse reaches outside itself (an ``@import`` through the document's fetcher, which keeps
each job to its own folders) is parsed for each document; and with
``SHIPYARD_NO_SPEEDUPS=1`` every document parses its sheets again. All but the record
sheets' run in the speed-ups-off pass too (there, printing a sheet three times would show
only that printing is repeatable).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shipyard import _speedups
from shipyard.core.designfile import load_design
from shipyard.core.evaluate import evaluate
from shipyard.core.registry import rulesets
from shipyard.core.resources import builtin_template_root
from shipyard.render.context import design_entry, sheet_context, template_dirs
from shipyard.render.pdf import SafeFetcher, html_to_pdf
from shipyard.render.templates import render_html

PAGE = (
    "<html lang=en><title>kept</title><style>@page {{ size: {size}; margin: 4mm }} "
    "p {{ color: #a00 }} .big {{ font-size: 18pt }}</style><p>Grey <span class=big>Heron</span></p>"
)


@pytest.fixture
def sheets_made() -> Iterator[list[Any]]:
    """Every style sheet object WeasyPrint's documents get from their ``<style>`` elements."""
    import weasyprint.css as css_module

    made: list[Any] = []
    original = css_module.find_stylesheets

    def noting(*args: Any, **kwargs: Any) -> Iterator[Any]:
        for sheet in original(*args, **kwargs):
            made.append(sheet)
            yield sheet

    css_module.find_stylesheets = noting
    try:
        yield made
    finally:
        css_module.find_stylesheets = original


def record_html(ruleset: str) -> str:
    info = next(i for i in rulesets() if i.id == ruleset)
    ship = sorted(info.samples.glob("*.ship"))[0]
    loaded = load_design(ship, use_user_folder=False)
    dirs = template_dirs(ruleset, [], info.templates, builtin_template_root() / "common")
    entry = design_entry(loaded, evaluate(loaded.design, loaded.catalog))
    return render_html(dirs, "record.html", sheet_context([entry], loaded.catalog, sheet="record", paper="a4"))


@pytest.mark.parametrize("ruleset", [i.id for i in rulesets()])
def test_a_record_sheet_printed_with_kept_style_sheets_is_the_same_pdf(
    ruleset: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # style texts of this test's own, so that no earlier document in this process kept it:
    # the first print parses every sheet, the second (speed-ups on) is given them kept
    html = record_html(ruleset).replace("</style>", f"/* {tmp_path.name} */</style>")
    assert html.count(tmp_path.name) == html.count("<style") > 0
    base = builtin_template_root() / ruleset
    first = html_to_pdf(html, base, [base, builtin_template_root()])
    again = html_to_pdf(html, base, [base, builtin_template_root()])
    assert again == first
    # every speed-up but the stroked dotted rules (which write other bytes for the same
    # marks): the same PDF as with all of them off, the sheets parsed again
    import weasyprint.draw as draw_module

    monkeypatch.setattr(draw_module, "draw_border", draw_module.draw_border._shipyard_original)
    dots_drawn_one_by_one = html_to_pdf(html, base, [base, builtin_template_root()])
    monkeypatch.setenv(_speedups.SWITCH, "1")
    parsed_again = html_to_pdf(html, base, [base, builtin_template_root()])
    assert dots_drawn_one_by_one == parsed_again
    assert parsed_again[1:] == first[1:]  # the same pages and anchors either way
    assert first[1][0] == (210.0, 297.0)  # A4: the page rule of the sheet's own <style>


@pytest.mark.speedups
def test_a_kept_sheet_gives_each_document_its_page_rules(tmp_path: Path, sheets_made: list[Any]) -> None:
    small, wide = PAGE.format(size="100mm 50mm"), PAGE.format(size="150mm 60mm")
    sizes = [html_to_pdf(html, tmp_path, [tmp_path])[1] for html in (small, wide, small, small)]
    assert sizes == [[(100.0, 50.0)], [(150.0, 60.0)], [(100.0, 50.0)], [(100.0, 50.0)]]
    kept = _speedups.enabled()
    assert (sheets_made[2] is sheets_made[0] and sheets_made[3] is sheets_made[0]) == kept
    assert sheets_made[1] is not sheets_made[0]  # another text is another sheet


@pytest.mark.speedups
def test_a_sheet_that_imports_is_parsed_for_each_document_through_its_own_fetcher(
    tmp_path: Path, sheets_made: list[Any]
) -> None:
    """An ``@import`` is fetched at parse time, through the job's fetcher (the folders that job
    may read): such a sheet is never kept, and a changed imported file shows at once."""
    fetched: list[str] = []

    class Noting(SafeFetcher):
        def fetch(self, url: str, headers: dict[str, str] | None = None) -> Any:
            fetched.append(url.rsplit("/", 1)[-1])
            return super().fetch(url, headers)

    (tmp_path / "paper.css").write_text("@page { size: 100mm 50mm }", encoding="utf-8")
    html = '<html lang=en><title>i</title><style>@import "paper.css"; p { color: red }</style><p>x</p>'

    import shipyard.render.pdf as pdf

    original = pdf.SafeFetcher
    pdf.SafeFetcher = Noting  # type: ignore[misc]
    try:
        first = html_to_pdf(html, tmp_path, [tmp_path])[1]
        (tmp_path / "paper.css").write_text("@page { size: 120mm 40mm }", encoding="utf-8")
        second = html_to_pdf(html, tmp_path, [tmp_path])[1]
    finally:
        pdf.SafeFetcher = original  # type: ignore[misc]
    assert (first, second) == ([(100.0, 50.0)], [(120.0, 40.0)])
    assert fetched.count("paper.css") == 2  # once a document
    assert sheets_made[0] is not sheets_made[1]


@pytest.mark.speedups
def test_with_the_speed_ups_off_every_document_parses_its_sheets(
    tmp_path: Path, sheets_made: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(_speedups.SWITCH, "1")
    html = PAGE.format(size="90mm 45mm")
    assert [html_to_pdf(html, tmp_path, [tmp_path])[1] for _ in range(2)] == [[(90.0, 45.0)]] * 2
    assert sheets_made[0] is not sheets_made[1]


@pytest.mark.speedups
def test_no_more_sheets_are_kept_than_the_limit(tmp_path: Path, sheets_made: list[Any]) -> None:
    """A worker printing many kinds of sheet keeps the latest few, not every one it saw."""
    if not _speedups.enabled():
        pytest.skip("SHIPYARD_NO_SPEEDUPS: nothing is kept")
    texts = [PAGE.format(size=f"{100 + n}mm 50mm") for n in range(_speedups.STYLE_SHEETS_KEPT + 1)]
    for html in texts:
        html_to_pdf(html, tmp_path, [tmp_path])
    html_to_pdf(texts[-1], tmp_path, [tmp_path])  # the latest: kept
    html_to_pdf(texts[0], tmp_path, [tmp_path])  # the first: dropped for the newer ones, parsed again
    last = len(texts)
    assert sheets_made[last] is sheets_made[last - 1]
    assert sheets_made[last + 1] is not sheets_made[0]
