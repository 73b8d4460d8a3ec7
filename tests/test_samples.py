"""The six Appendix-1 ships, as published, under both presets (see docs/rules.md)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from shipyard.core.designfile import load_design
from shipyard.core.evaluate import evaluate

from .conftest import EXAMPLES, ROOT, SAMPLES, call_shipyard, sample, sfa

# (weapon, power, freebies, accessory) as (spent, remaining); error codes; valid.
EXPECTED = {
    ("rebel-fighter", "as-written"): ([(10, 0), (3, 2), (22, -2), (12, 0)], {"pool-over-budget"}),
    ("rebel-fighter", "sample-ships"): ([(10, 0), (5, 0), (20, 0), (10, 0)], set()),
    ("rebel-frigate", "as-written"): ([(18, 0), (8, 2), (35, -2), (22, 0)], {"pool-over-budget"}),
    ("rebel-frigate", "sample-ships"): ([(18, 0), (10, 0), (33, 0), (20, 0)], set()),
    ("alien-disk-fighter", "as-written"): ([(5, 0), (7, -2), (25, -4), (10, 0)], {"pool-over-budget"}),
    ("alien-disk-fighter", "sample-ships"): ([(5, 0), (5, 0), (25, -4), (10, 0)], {"pool-over-budget"}),
    ("alien-mothership", "as-written"): ([(15, 0), (10, 0), (37, -2), (22, 0)], {"pool-over-budget"}),
    ("alien-mothership", "sample-ships"): ([(15, 0), (10, 0), (35, 0), (20, 0)], set()),
    ("federation-battlesat", "as-written"): ([(5, 0), (5, 0), (15, 0), (0, 10)], set()),
    ("federation-battlesat", "sample-ships"): ([(5, 0), (5, 0), (15, 0), (0, 10)], set()),
    ("federation-space-station", "as-written"): ([(15, 0), (12, -2), (25, 0), (20, 0)], {"pool-over-budget"}),
    ("federation-space-station", "sample-ships"): ([(15, 0), (10, 0), (25, 0), (20, 0)], set()),
}


@pytest.mark.parametrize(("name", "preset"), list(EXPECTED))
def test_sample_ship_budgets(name: str, preset: str) -> None:
    loaded = sample(name, preset)
    report = evaluate(loaded.design, loaded.catalog)
    pools, errors = EXPECTED[(name, preset)]
    assert [(p.spent, p.remaining) for p in report.pools] == pools
    assert {f.code for f in report.findings if f.severity == "error"} == errors
    assert report.valid is (not errors)


def test_five_of_six_pass_under_sample_ships_and_the_disk_fighter_does_not() -> None:
    passing = [n for n in SAMPLES if evaluate(*_ld(n, "sample-ships")).valid]
    assert passing == [n for n in SAMPLES if n != "alien-disk-fighter"]


def _ld(name: str, preset: str) -> tuple[object, object]:
    ld = sample(name, preset)
    return ld.design, ld.catalog


def test_published_names_resolve_through_aliases() -> None:
    ld = sample("alien-disk-fighter")
    ids = [a.id for a in ld.design.accessories]
    assert "ejection-pods" in ids and "science-computer" in ids and "engine-access-panels" in ids
    crew_station = next(a for a in ld.design.accessories if a.id == "co-pilot-or-crew-station")
    assert crew_station.level == 2
    assert [t.id for t in sample("rebel-fighter").design.technology] == ["enhanced-lasers"]


def test_space_station_capacities_match_the_published_block() -> None:
    report = evaluate(*_ld("federation-space-station", "sample-ships"))
    figures = {f.id: f.value for f in report.derived.figures}
    # "250 cubic-meter Cargo Bay(2), 15 vessel Hangar Bay(3), 250 Passenger Capacity (2)"
    assert (figures["capacity-cargo"], figures["capacity-hangar"], figures["capacity-passengers"]) == (250, 15, 250)
    assert figures["crew-maximum"] == 750 and figures["capacity-crew-quarters"] == 950
    codes = report.codes()
    assert "crew-above-maximum" in codes and "crew-above-quarters" in codes


def test_crew_quarters_house_the_published_crews() -> None:
    frigate = evaluate(*_ld("rebel-frigate", "sample-ships"))
    mothership = evaluate(*_ld("alien-mothership", "sample-ships"))
    assert frigate.derived.figure("capacity-crew-quarters").value == 130  # crew 120
    assert mothership.derived.figure("capacity-crew-quarters").value == 270  # crew 270
    assert "crew-above-quarters" not in frigate.codes() + mothership.codes()


def test_battlesat_ai_mans_the_turret() -> None:
    report = evaluate(*_ld("federation-battlesat", "as-written"))
    assert "gunner-shortage" not in report.codes() and "no-pilot" not in report.codes()
    assert report.derived.figure("virtual-pilot").value == 10
    assert "ai-spread-unassigned" in report.codes()


def test_documented_sample_table_equals_the_engine() -> None:
    from shipyard.samples_summary import BEGIN, END, summary

    from .conftest import ROOT

    doc = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    documented = doc.split(BEGIN, 1)[1].split(END, 1)[0].strip()
    assert documented == summary("space-fighter-alpha").strip(), (
        "docs/rules.md is stale: run python -m shipyard.samples_summary space-fighter-alpha docs/rules.md"
    )


def test_each_sample_opens_under_the_preset_its_published_figures_mean() -> None:
    """Saved with sample-ships, with a note saying so: five pass as saved, the Disk-Fighter fails honestly."""
    verdicts = {}
    for name in SAMPLES:
        loaded = load_design(EXAMPLES / f"{name}.ship", use_user_folder=False)
        assert loaded.preset == "sample-ships", name
        assert "saved with the sample-ships preset" in loaded.design.notes, name
        verdicts[name] = evaluate(loaded.design, loaded.catalog).valid
    assert [n for n, ok in verdicts.items() if not ok] == ["alien-disk-fighter"]
    as_written = call_shipyard(
        "check", *(EXAMPLES / f"{n}.ship" for n in SAMPLES), "--preset", "as-written", "--summary", "--no-user-catalog"
    )
    assert as_written.returncode == 1
    assert as_written.stdout.splitlines()[-1] == "6 designs: 1 passes, 5 do not pass"  # only the Battlesat adds up


def _words(text: str) -> str:
    return " ".join(text.split())


def test_why_a_sample_can_fail_as_written_is_one_sentence_the_guide_repeats() -> None:
    why = sfa().meta.samples_note
    assert why.endswith(".") and not re.search(r"[.!?] [A-Z]", why), f"one sentence: {why!r}"
    for number in ("3 Power Points", "sample-ships", "as-written", "Alien Disk-Fighter"):
        assert number in why
    guide = ROOT / "docs" / "guide" / "fixing.md"
    assert why in _words(guide.read_text(encoding="utf-8")), "the guide's page on fixing says it in the same words"


def test_the_fleet_book_of_the_samples_says_why_one_does_not_pass(tmp_path: Path, workers: list[Any]) -> None:
    from shipyard.render.printing import print_designs

    from .test_printing import pages_text

    out = tmp_path / "samples.pdf"
    files = [EXAMPLES / f"{n}.ship" for n in SAMPLES]
    print_designs(files, out, sheet="fleet", paper="a4", workers=workers, use_user_folder=False, title="Appendix 1")
    cover = pages_text(out)[0]
    assert "6 designs · preset Sample ships" in cover
    assert f"1 of 6 does not pass the rules; each sheet says why. {_words(sfa().meta.samples_note)}" in cover
