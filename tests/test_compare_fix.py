"""Compare designs side by side; let the engine propose the fixes for one that breaks the rules."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shipyard.core.compare import compare, signed
from shipyard.core.designfile import LoadedDesign, load_design, save_design
from shipyard.core.errors import InputError
from shipyard.core.evaluate import evaluate
from shipyard.core.fixes import apply, propose
from shipyard.core.report import Report

from .conftest import EXAMPLES, FURY_EXAMPLES, call_shipyard, sample, sfa, starfighter


def _errors(report: Report) -> Counter[str]:
    return Counter(f.code for f in report.findings if f.severity.value == "error")


def _saved(tmp_path: Path, name: str, design: Any, catalog: Any) -> Path:
    out = tmp_path / f"{name}.ship"
    save_design(LoadedDesign(None, "space-fighter-alpha", "as-written", design, catalog), out)
    return out


# --- compare ---------------------------------------------------------------------------------


def test_identical_designs_do_not_differ() -> None:
    ship = EXAMPLES / "rebel-fighter.ship"
    proc = call_shipyard("compare", ship, ship, "--width", "0")  # the heads unwrapped
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("Space Fighter Alpha: 0 difference(s)")
    assert "Rebel Fighter (rebel-fighter.ship)" in proc.stdout  # the same name twice: told apart by file


def test_each_kind_of_difference_is_signed(tmp_path: Path) -> None:
    catalog = sfa()
    base = starfighter(catalog)
    other = starfighter(
        catalog,
        soak=2,
        armor=2,
        power=10,
        structure=20,
        weapons=[{"weapon": "railgun"}, {"weapon": "light-laser", "count": 2}],
    )
    a, b = _saved(tmp_path, "base", base, catalog), _saved(tmp_path, "heavier", other, catalog)
    proc = call_shipyard("compare", a, b, "--json")
    assert proc.returncode == 1, proc.stderr
    rows = {r["key"]: r for r in json.loads(proc.stdout)["rows"]}
    assert rows["soak"]["values"] == [1, 2] and rows["soak"]["deltas"] == ["", "+1"]
    assert rows["weapons.light-laser"]["values"] == [None, 2] and rows["weapons.light-laser"]["deltas"][1] == "added"
    assert rows["weapons.railgun"]["deltas"] == ["", ""]  # the same in both
    spent = rows["weapon-points.spent"]
    assert spent["values"][0] == 5 and spent["deltas"][1] == signed(spent["values"][1] - 5)
    over = [r for r in rows.values() if r["section"] == "findings" and r["values"][0] is None and r["values"][1]]
    assert any("pool-over-budget" in r["key"] for r in over)  # a finding present in one and not the other
    budget = next(r for r in over if r["key"] == "pool-over-budget@budgets.freebies")
    assert budget["label"].startswith("ERROR: Freebie Points over budget by ")  # in words, no internal place
    text = call_shipyard("compare", b, a, "--differences", "--width", "0").stdout  # one row a line
    assert "* " in text and "— [removed]" in text and "(-1)" in text
    assert "ERROR: Freebie Points over budget by" in text and "budgets.freebies" not in text


def test_compare_names_a_findings_place_as_the_user_sees_it() -> None:
    loaded = load_design(EXAMPLES / "rebel-fighter.ship")
    catalog = loaded.catalog
    linked = loaded.design.model_copy(
        update={"weapons": [loaded.design.weapons[0], loaded.design.weapons[1].model_copy(update={"fire_link": "B"})]}
    )
    cmp = compare(
        [(n, d, catalog, evaluate(d, catalog)) for n, d in (("Rebel Fighter", loaded.design), ("Linked", linked))]
    )
    (row,) = [r for r in cmp.section("findings") if r.key == "fire-link-group-too-small@weapons[1].fire_link"]
    assert row.label == (
        "ERROR: fire-link group 'B' has 1 weapon; a linked group needs 2 or more"
        " — at Weapons, Missile/Torpedo: fire-link group"
    )
    assert row.values == (None, "error") and row.deltas == ("", "added")
    (crew,) = [r for r in cmp.section("findings") if r.key == "crew-above-seats@crew"]
    assert crew.label == "WARNING: crew 2 but only 1 seat (1 included) — at Crew" and not crew.differs


def test_markdown_output_is_a_table() -> None:
    proc = call_shipyard("compare", EXAMPLES / "rebel-fighter.ship", EXAMPLES / "rebel-frigate.ship", "--markdown")
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    assert lines[0] == "| What | Rebel Fighter | Rebel Frigate |" and lines[1] == "| --- | --- | --- |"
    assert any(line.startswith("| **Structure") for line in lines)


def test_designs_of_different_rulesets_are_refused() -> None:
    proc = call_shipyard("compare", EXAMPLES / "rebel-fighter.ship", FURY_EXAMPLES / "interceptor.ship")
    assert proc.returncode == 2
    assert "designs of different rulesets cannot be compared" in proc.stderr
    assert "Rebel Fighter is Space Fighter Alpha" in proc.stderr and "Interceptor is Space Fury" in proc.stderr


def test_compare_needs_two_designs() -> None:
    with pytest.raises(InputError, match="two designs or more"):
        ld = sample("rebel-fighter")
        compare([("a", ld.design, ld.catalog, evaluate(ld.design, ld.catalog))])


# --- fix ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["as-written", "sample-ships"])
def test_the_alien_disk_fighter_can_be_made_to_pass(preset: str) -> None:
    ld = load_design(EXAMPLES / "alien-disk-fighter.ship", preset=preset, use_user_folder=False)
    before = evaluate(ld.design, ld.catalog)
    assert not before.valid and _errors(before)["pool-over-budget"] >= 1
    assert before.pool("freebies").remaining == -4  # 4 freebies over under both presets (docs/rules.md)
    proposals = propose(ld.design, ld.catalog)
    assert proposals and all(p.passes for p in proposals)
    assert all(len(p.edits) <= 2 for p in proposals)  # the fewest changes first: none needs more than two
    for p in proposals:
        after = evaluate(apply(ld.design, p.edits, ld.catalog), ld.catalog)
        assert after.valid, p.text
        assert any(e.startswith("Freebie Points: ") and e.endswith(" left (was 4 over)") for e in p.effects), p.effects
        errors = sum(1 for f in before.findings if f.severity.value == "error")
        assert f"no errors left (was {errors})" in p.effects
    first = proposals[0]
    assert first.cures == ["pool-over-budget"]
    assert {e.op for e in first.edits} <= {"set", "remove"}


def test_fixes_never_raise_a_storyteller_budget() -> None:
    catalog = sfa()
    design = starfighter(catalog, power=5, budgets={"freebies": 2})  # Power 5 costs 5 freebies
    proposals = propose(design, catalog)
    assert proposals
    assert all(not e.path.startswith("budgets") for p in proposals for e in p.edits)
    kept = propose(design, catalog, keep={"weapons"})
    assert all(not e.path.startswith("weapons") for p in kept for e in p.edits)


def test_shipyard_fix_writes_the_chosen_proposal(tmp_path: Path) -> None:
    source = EXAMPLES / "alien-disk-fighter.ship"
    listed = call_shipyard("check", source, "--suggest", "--json")
    (report,) = json.loads(listed.stdout)
    first = report["suggestions"][0]
    out = tmp_path / "fixed.ship"
    proc = call_shipyard("fix", source, "--apply", "1", "-o", out)
    assert proc.returncode == 0, proc.stderr
    assert f"wrote {out}: {first['text']}; it passes" in proc.stdout
    assert call_shipyard("check", out).returncode == 0
    again = call_shipyard("fix", source, "--apply", "1", "-o", out)
    assert again.returncode == 2 and "exists; use --force" in again.stderr
    wrong = call_shipyard("fix", source, "--apply", "9", "-o", tmp_path / "x.ship")
    assert wrong.returncode == 2 and "allowed: 1 to" in wrong.stderr and not (tmp_path / "x.ship").exists()
    fine = call_shipyard("fix", EXAMPLES / "rebel-frigate.ship", "--preset", "sample-ships", "--apply", "1", "-o", out)
    assert fine.returncode == 2 and "nothing to fix" in fine.stderr


def test_a_kept_place_is_named_as_set_names_it_and_a_mistyped_one_is_refused(tmp_path: Path) -> None:
    """``--keep handlin`` kept nothing: ``check --suggest`` still proposed lowering Handling
    and ``fix --apply 1`` made that change. A place that names nothing is refused as ``set``
    refuses it, with the places there are, and nothing is written."""
    source = EXAMPLES / "alien-disk-fighter.ship"
    (plain,) = json.loads(call_shipyard("check", source, "--suggest", "--json").stdout)
    assert any("Handling" in s["text"] for s in plain["suggestions"])  # what keeping Handling must take away

    listed = call_shipyard("check", source, "--suggest", "--keep", "handlin")
    assert listed.returncode == 2 and "Suggested fixes" not in listed.stdout
    assert f"{source} at --keep handlin: no such place in the design" in listed.stderr
    assert "allowed: handling," in listed.stderr
    out = tmp_path / "fixed.ship"
    fixed = call_shipyard("fix", source, "--keep", "handlin", "--apply", "1", "-o", out)
    assert fixed.returncode == 2 and "at --keep handlin: no such place" in fixed.stderr and not out.exists()

    (kept,) = json.loads(call_shipyard("check", source, "--suggest", "--keep", "Handling", "--json").stdout)
    assert kept["suggestions"] and not any("Handling" in s["text"] for s in kept["suggestions"])
    laser = "weapons[Medium Laser]"  # an entry by its name, as set and get take it
    (by_name,) = json.loads(call_shipyard("check", source, "--suggest", "--keep", laser, "--json").stdout)
    assert any("Medium Laser" in s["text"] for s in plain["suggestions"])
    assert by_name["suggestions"] and not any("Medium Laser" in s["text"] for s in by_name["suggestions"])

    alone = call_shipyard("check", source, "--keep", "handling")
    assert (
        alone.returncode == 2 and "at --keep: names a place" in alone.stderr and "goes with --suggest" in alone.stderr
    )
    assert alone.stdout == ""

    # a design that passes is held to its --keep places too, and --json keeps each report whole
    passing = EXAMPLES / "rebel-fighter.ship"
    r = call_shipyard("check", passing, source, "--suggest", "--keep", "handlin", "--json")
    assert r.returncode == 2
    reports = json.loads(r.stdout)
    assert [x["valid"] for x in reports] == [True, False] and all("figures" in x["derived"] for x in reports)
    assert all(x["error"][0]["path"] == "--keep handlin" and x["suggestions"] == [] for x in reports)
    r = call_shipyard("check", passing, "--suggest", "--keep", "handlin")
    assert r.returncode == 2 and "at --keep handlin: no such place in the design" in r.stderr
    assert "Result: PASSES" in r.stdout  # the report is still shown


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    soak=st.integers(0, 5),
    move=st.integers(0, 5),
    power=st.integers(0, 10),
    structure=st.integers(5, 20),
    lasers=st.integers(0, 3),
)
def test_every_proposal_cures_what_it_claims_and_adds_no_error(
    soak: int, move: int, power: int, structure: int, lasers: int
) -> None:
    catalog = sfa()
    weapons = [{"weapon": "railgun"}] + ([{"weapon": "heavy-laser", "count": lasers}] if lasers else [])
    design = starfighter(catalog, soak=soak, armor=soak, move=move, power=power, structure=structure, weapons=weapons)
    before = _errors(evaluate(design, catalog))
    for p in propose(design, catalog, limit=3):
        after = _errors(evaluate(apply(design, p.edits, catalog), catalog))
        assert all(after[c] <= before[c] for c in after), (p.text, before, after)
        assert all(after[c] < before[c] for c in p.cures), (p.text, p.cures)
        assert p.passes == (not after)


@pytest.mark.parametrize(("paper", "width_pt"), [("a4", 595), ("letter", 612)])
def test_a_comparison_sheet_prints(tmp_path: Path, paper: str, width_pt: int) -> None:
    from pypdf import PdfReader

    out = tmp_path / "compare.pdf"
    a, b = EXAMPLES / "rebel-fighter.ship", EXAMPLES / "rebel-frigate.ship"
    proc = call_shipyard("print", a, b, "--sheet", "compare", "--paper", paper, "-o", out)
    assert proc.returncode == 0, proc.stderr
    reader = PdfReader(out)
    assert round(float(reader.pages[0].mediabox.width)) == width_pt
    text = "\n".join(p.extract_text() for p in reader.pages)
    assert "Rebel Fighter · Rebel Frigate" in text and "differences (the first design is the reference)" in text
    assert "Pi-Tac Cannon" in text and "added" in text and "+118" in text  # the frigate's crew: 120 against 2
    mixed = call_shipyard(
        "print", a, FURY_EXAMPLES / "interceptor.ship", "--sheet", "compare", "-o", tmp_path / "x.pdf"
    )
    assert mixed.returncode == 2 and not (tmp_path / "x.pdf").exists()
