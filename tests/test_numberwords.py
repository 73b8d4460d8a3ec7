"""One helper writes a count with its unit (issue 46): "1 Accessory point", "Pilot cost 1
point", "3 points", in the editor's panels, the text report and the sheets alike."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from shipyard.core.designfile import load_design
from shipyard.core.evaluate import evaluate
from shipyard.core.numberwords import count_of, is_one, plural, quantity, singular, unit_for
from shipyard.core.report import Figure
from shipyard.render.templates import environment

CATALOGS = Path(__file__).resolve().parents[1] / "catalogs"
SAMPLES = sorted(CATALOGS.glob("*/examples/*.ship"))


@pytest.mark.parametrize(
    ("plural_form", "one"),
    [
        ("points", "point"),
        ("Weapon Points", "Weapon Point"),
        ("Accessory points", "Accessory point"),
        ("hexes", "hex"),
        ("boxes", "box"),
        ("entries", "entry"),
        ("parsecs", "parsec"),
        ("uses", "use"),
        ("phases", "phase"),
        ("classes", "class"),
        ("cubic meters", "cubic meter"),
        ("crew", "crew"),
        ("Starfighter-scale spacecraft", "Starfighter-scale spacecraft"),
        ("AP", "AP"),
        ("XP", "XP"),
        ("km/h", "km/h"),
        ("Mach", "Mach"),
        ("on D10", "on D10"),
        ("power", "power"),
    ],
)
def test_a_unit_written_plural_reads_singular_for_one(plural_form: str, one: str) -> None:
    assert singular(plural_form) == one
    assert unit_for(1, plural_form) == one and unit_for(-1, plural_form) == one
    for many in (0, 2, 10, 1.5, Fraction(1, 2)):
        assert unit_for(many, plural_form) == plural_form, many


@pytest.mark.parametrize(
    ("noun", "many"),
    [("rack", "racks"), ("missile", "missiles"), ("entry", "entries"), ("box", "boxes"), ("day", "days")],
)
def test_a_noun_written_singular_takes_its_plural_for_any_other_count(noun: str, many: str) -> None:
    assert count_of(1, noun) == f"1 {noun}"
    assert count_of(0, noun) == f"0 {many}" and count_of(3, noun) == f"3 {many}"
    assert singular(many) == noun and plural(noun) == many


def test_numbers_as_text_count_too() -> None:
    assert is_one("1") and is_one("+1") and is_one("1.0") and not is_one("1,200") and not is_one("one")
    assert not is_one(None) and not is_one(True) and not is_one("")
    assert quantity("1", "points") == "1 point" and quantity(Fraction(1, 2), "points", "0.5") == "0.5 points"


def test_a_figure_of_one_point_reads_one_point() -> None:
    fig = Figure(id="pilot-cost", label="Pilot cost", value=1, unit="points")
    assert fig.with_unit() == "1 point"
    assert fig.model_copy(update={"value": 12}).with_unit() == "12 points"
    assert fig.model_copy(update={"value": 1200}).with_unit() == "1,200 points"
    assert Figure(id="p", label="Skill", value=1, kind="percent").with_unit() == "1%"


def test_sheets_write_the_unit_that_agrees() -> None:
    template = environment([]).from_string('{{ n }} {{ n | unit("points") }}, {{ m }} {{ m | unit("missiles") }}')
    assert template.render(n=1, m="1") == "1 point, 1 missile"
    assert template.render(n=3, m="0") == "3 points, 0 missiles"


@pytest.mark.parametrize("sample", SAMPLES, ids=[f"{p.parent.parent.name}-{p.stem}" for p in SAMPLES])
def test_no_sample_reports_one_of_a_plural_unit(sample: Path) -> None:
    """Every figure and budget line of every sample, as the panels and reports write it."""
    from shipyard._qt.form.listcosts import row_costs

    loaded = load_design(sample, use_user_folder=False)
    report = evaluate(loaded.design, loaded.catalog)
    shown = [f.with_unit() for f in report.derived.figures]
    for pool in report.pools:
        paths = {i.path.partition("[")[0] for i in pool.items if "[" in i.path}
        for list_path in paths:
            shown += row_costs(report.pools, list_path).values()
    for text in shown:
        for part in text.split(", "):
            words = part.removeprefix("gains ").split(" ")
            if words[0] == "1" and len(words) > 1:
                assert singular(" ".join(words[1:])) == " ".join(words[1:]), text
