"""The command line on Space Fury files: check, new, catalog and the ``fury`` commands."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from shipyard.cli import main
from shipyard.core.designfile import load_design
from shipyard.core.evaluate import evaluate

from .conftest import ROOT
from .conftest import call_shipyard as run
from .test_space_fury import EXPECTED, FURY_EXAMPLES, FURY_SAMPLES, PRESETS


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("name", FURY_SAMPLES)
def test_check_reports_computed_count_and_cost_beside_the_published_count(
    name: str, preset: str, capsys: pytest.CaptureFixture[str]
) -> None:
    published, by_preset = EXPECTED[name]
    count, cost = by_preset[preset]
    code = main(["check", str(FURY_EXAMPLES / f"{name}.ship"), "--preset", preset, "--no-user-catalog"])
    out = capsys.readouterr().out
    assert code == 0  # a published count that differs is a warning, not an error
    assert f"Enhancements            {count}  — published {published}" in out
    assert f"Cost                    {cost} points" in out
    assert f"Published enhancements  {published}  — " in out
    if count != published:
        assert f"published-count-differs: {count} enhancements counted; the source publishes {published}" in out


def test_check_every_sample_at_once_exits_0_and_json_has_the_figures() -> None:
    files = [str(FURY_EXAMPLES / f"{n}.ship") for n in FURY_SAMPLES]
    out = run("check", *files, "--json", "--no-user-catalog", "--preset", "sample-fighters")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    got = {
        d["file"].rsplit("/", 1)[-1][: -len(".ship")]: {f["id"]: f["value"] for f in d["derived"]["figures"]}
        for d in data
    }
    for name in FURY_SAMPLES:
        published, by_preset = EXPECTED[name]
        assert (got[name]["published"], got[name]["enhancements"], got[name]["cost"]) == (
            published,
            *by_preset["sample-fighters"],
        )
    assert all(d["pools"] == [] for d in data)  # nothing to spend: what counts is in the figures


GUNSHIP_PARTS = [  # the Gunship's enhancements as the sample-fighters preset counts them
    ("Copilot", "cost", 1, "enhancements[0]"),
    ("Chain Gun", "cost", 1, "enhancements[1]"),
    ("Turret", "cost", 1, "enhancements[2]"),
    ("Rail Gun (costs 2)", "cost", 2, "enhancements[3]"),
    ("2 x Armor", "cost", 2, "enhancements[4]"),
    ("2 x Deflector Shield", "cost", 2, "enhancements[5]"),
    ("Missile Rack: 2 missiles", "cost", 2, "enhancements[6]"),
    ("Chain Gun replaces the basic Laser", "gain", 1, "enhancements[1].replaces_basic"),
]


def test_json_carries_the_counted_figures_with_their_parts() -> None:
    gunship = str(FURY_EXAMPLES / "gunship.ship")
    out = run("check", gunship, "--json", "--no-user-catalog", "--preset", "sample-fighters")
    assert out.returncode == 0, out.stderr
    (report,) = json.loads(out.stdout)
    assert report["pools"] == [] and report["scale"] == ""
    figures = {f["id"]: f for f in report["derived"]["figures"]}
    enhancements, cost = figures["enhancements"], figures["total-cost"]
    assert (enhancements["name"], enhancements["value"], enhancements["detail"]) == ("Enhancements", 10, "published 10")
    assert [(p["label"], p["kind"], p["amount"], p["path"]) for p in enhancements["parts"]] == GUNSHIP_PARTS
    assert (cost["name"], cost["value"], cost["unit"]) == ("Total cost", 75, "points")
    assert [(p["label"], p["amount"], p["source"]) for p in cost["parts"]] == [
        ("Fighter: Fighter Cost table, 10 enhancements", 75, "Space Fury, FIGHTER CONSTRUCTION")
    ]
    assert figures["cost"]["parts"] == []  # the Fighter Cost table's entry is looked up, not counted


def test_check_prints_each_counted_figure_with_what_it_counted(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(FURY_EXAMPLES / "gunship.ship"), "--preset", "sample-fighters", "--no-user-catalog"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2] == "Space Fury · preset: Sample fighters (sample-fighters)"  # no scale: Space Fury has none
    assert "Budgets" not in lines and "Tallies" not in lines and not any("OVER BUDGET" in ln for ln in lines)
    at = lines.index("  Enhancements            10  — published 10")
    assert lines[at + 1 : at + 9] == [
        f"      {'+' if kind == 'cost' else '-'}{amount:>5}  {label}  ({path})"
        for label, kind, amount, path in GUNSHIP_PARTS
    ]
    assert lines[at + 9].startswith("  Published enhancements  10  — Copilot, Chain Gun+Turret")  # the next figure
    at = lines.index("  Total cost              75 points")
    assert lines[at + 1] == "      +   75  Fighter: Fighter Cost table, 10 enhancements  (enhancements)"


def test_a_ruleset_folder_with_the_old_tally_pools_is_refused_with_the_reason(tmp_path: Path) -> None:
    """A copy of Space Fury as a ruleset package of its own checks clean; with the pools.yaml
    of earlier versions (its counts as pools with ``tally: true``) it is refused, saying why."""
    package = tmp_path / "old_fury"
    code = ROOT / "shipyard" / "rulesets" / "space_fury"
    shutil.copytree(code, package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "catalogs" / "space-fury", package / "catalog")
    manifest = package / "manifest.yaml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace("shipyard-data:catalogs/space-fury", "catalog"), encoding="utf-8")
    assert run("rulesets", "--check", str(package)).returncode == 0
    (package / "catalog" / "pools.yaml").write_text(
        "pools:\n  - id: points\n    name: Cost\n    unit: points\n    budget: {}\n    tally: true\n"
        "    storyteller_editable: false\n    source: FIGHTER CONSTRUCTION\n",
        encoding="utf-8",
    )
    out = run("rulesets", "--check", str(package))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "pools.yaml:2:5 at pools[0]" in out.stderr and "'tally' is not a pool key" in out.stderr


def test_fury_roll_writes_a_fighter_that_checks_and_reproduces(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = tmp_path / "a.ship", tmp_path / "b.ship"
    for out in (a, b):
        assert main(["fury", "roll", "--enhancements", "5", "--seed", "42", "-o", str(out), "--no-user-catalog"]) == 0
    printed = capsys.readouterr().out
    assert "Rolled fighter 42 (seed 42): Engines, Targeter, Extra Laser, Missile Rack (4 missiles)" in printed
    assert "enhancements 5, cost 35" in printed
    assert a.read_bytes() == b.read_bytes()
    doc = json.loads(a.read_text())
    assert (doc["ruleset"], doc["preset"], doc["design"]["kind"], doc["design"]["seed"]) == (
        "space-fury",
        "as-written",
        "fighter",
        42,
    )
    assert len(doc["design"]["rolls"]) == 5
    assert main(["check", str(a), "--no-user-catalog"]) == 0
    assert "Rolled             seed 42  — 5 rolls on the tables" in capsys.readouterr().out


def test_fury_roll_without_a_seed_saves_the_one_it_chose(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "f.ship"
    assert main(["fury", "roll", "--enhancements", "3", "-o", str(out), "--no-user-catalog"]) == 0
    seed = json.loads(out.read_text())["design"]["seed"]
    assert f"(seed {seed})" in capsys.readouterr().out
    again = tmp_path / "g.ship"
    assert (
        main(["fury", "roll", "--enhancements", "3", "--seed", str(seed), "-o", str(again), "--no-user-catalog"]) == 0
    )
    assert (
        json.loads(again.read_text())["design"]["enhancements"] == json.loads(out.read_text())["design"]["enhancements"]
    )


def test_fury_roll_under_the_sample_fighters_preset(tmp_path: Path) -> None:
    out = tmp_path / "f.ship"
    args = ["fury", "roll", "--enhancements", "5", "--seed", "42", "--preset", "sample-fighters"]
    assert main([*args, "-o", str(out), "--no-user-catalog"]) == 0
    doc = json.loads(out.read_text())
    assert doc["preset"] == "sample-fighters"
    # the same rolls; a Missile Rack holds one missile under this preset
    assert doc["design"]["enhancements"][-1] == {"id": "missile-rack", "count": 2}


def test_fury_pilot_crew_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pilot, crewed, force = tmp_path / "p.ship", tmp_path / "c.ship", tmp_path / "force.ship"
    assert (
        main(["fury", "pilot", "--xp", "20", "--seed", "7", "--name", "Kim", "-o", str(pilot), "--no-user-catalog"])
        == 0
    )
    out = capsys.readouterr().out
    assert (
        "Kim (seed 7), 20 XP; skills Basic Combat Pilot, Evasion, Accuracy, Engineering, Accuracy; quirks Focused"
        in out
    )
    assert "level 5, cool 7, total cost 20; passes" in out
    gunship = str(FURY_EXAMPLES / "gunship.ship")
    assert main(["fury", "crew", gunship, str(pilot), "-o", str(crewed), "--no-user-catalog"]) == 0
    assert "Gunship flown by Kim" in capsys.readouterr().out
    assert (
        main(
            [
                "fury",
                "force",
                "Red",
                str(crewed),
                str(FURY_EXAMPLES / "scout.ship"),
                "-o",
                str(force),
                "--no-user-catalog",
            ]
        )
        == 0
    )
    loaded = load_design(force, use_user_folder=False)
    report = evaluate(loaded.design, loaded.catalog)
    assert report.derived.figure("total-cost").value == 75 + 20 + 41
    assert report.derived.figure("fighters").value == 2
    assert "fighter-without-pilot" in report.codes()  # the Scout has none
    capsys.readouterr()
    assert main(["check", str(force), "--no-user-catalog"]) == 0
    out = capsys.readouterr().out
    assert "\nMember: Scout\n-------------\n" in out and "Form:" not in out  # a force's members, by that word
    # the force's counts: one part a member, each its member's total
    assert (
        "  Enhancements  16  — of the fighters\n"
        "      +   10  Gunship  (fighters[0])\n"
        "      +    6  Scout  (fighters[1])\n"
        "  Total cost    136 points  — fighters + pilots\n"
        "      +   95  Gunship  (fighters[0])\n"
        "      +   41  Scout  (fighters[1])\n"
    ) in out


def test_fury_pilot_by_level(tmp_path: Path) -> None:
    out = tmp_path / "p.ship"
    assert main(["fury", "pilot", "--level", "7", "--seed", "1", "-o", str(out), "--no-user-catalog"]) == 0
    design = json.loads(out.read_text())["design"]
    assert design["xp"] == 28 and len(design["skills"]) == 7 and design["skills"][0] == "basic-combat-pilot"


def test_fury_skirmish_writes_both_sides(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "skirmish"
    assert main(["fury", "skirmish", "--seed", "3", "-o", str(folder), "--no-user-catalog"]) == 0
    out = capsys.readouterr().out
    assert "seed 3: Skirmishes roll 2: 3 Defense Fighters vs 3 Light Fighters" in out
    assert "side A: 11 pilot levels (1D6 (5) + 6 fighters), spread 4, 4, 3" in out
    sides = sorted(p.name for p in folder.iterdir())
    assert sides == ["side-a.ship", "side-b.ship"]
    assert main(["check", *(str(folder / s) for s in sides), "--no-user-catalog"]) == 0
    checked = capsys.readouterr().out
    assert "Pilot levels  11  — of 11 levels worth of pilots" in checked
    assert main(["fury", "skirmish", "--seed", "3", "-o", str(folder), "--no-user-catalog"]) == 2
    assert "exists; use --force" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (
            ["fury", "roll", "--enhancements", "-2"],
            "--enhancements: the number of enhancements to roll is out of range",
        ),
        (["fury", "pilot", "--xp", "1000000"], "at xp: Input should be less than or equal to 100000"),
        (["fury", "pilot", "--xp", "0"], "--xp: 0 XP is below level 1 (1 XP) (allowed: 1 or more)"),
        (["fury", "pilot", "--level", "12"], "--level: level 12 is not on the Pilot Level Table (allowed: 1 to 10)"),
        (
            ["fury", "roll", "--enhancements", "2", "--seed", "-5"],
            "--seed: the seed must be from 0 to 9,223,372,036,854,775,807",
        ),
        (["fury", "skirmish", "--seed", "9" * 23], "--seed: the seed must be from 0 to 9,223,372,036,854,775,807"),
    ],
)
def test_fury_bad_requests_exit_2_with_a_message(
    args: list[str], says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "x.ship"
    assert main([*args, "-o", str(out), "--no-user-catalog"]) == 2
    assert says in capsys.readouterr().err and not out.exists()


def test_fury_crew_needs_a_fighter_and_a_pilot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scout = str(FURY_EXAMPLES / "scout.ship")
    assert main(["fury", "crew", scout, scout, "-o", str(tmp_path / "x.ship"), "--no-user-catalog"]) == 2
    assert "'Scout' is a fighter, not a pilot" in capsys.readouterr().err


def test_fury_without_a_subcommand_is_a_usage_error() -> None:
    out = run("fury")
    assert out.returncode == 2 and "COMMAND" in out.stderr


def test_new_and_catalog_list_work_for_space_fury(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "red.ship"
    assert main(["new", "Red 5", "--kind", "fighter", "--ruleset", "space-fury", "-o", str(out)]) == 0
    assert main(["check", str(out), "--no-user-catalog"]) == 0
    assert re.search(r"\n  Cost +20 points", capsys.readouterr().out)
    assert main(["catalog", "list", "enhancements", "--ruleset", "space-fury", "--no-user-catalog"]) == 0
    listed = capsys.readouterr().out
    assert "enhancements (25)" in listed and "rail-gun" in listed and "cost 2" in listed


def test_other_commands_do_not_import_the_fury_command_or_its_ruleset() -> None:
    """`shipyard fury` is listed from the manifest; only running it imports Space Fury."""
    code = (
        "import sys\n"
        "from shipyard.cli import build_parser\n"
        "helptext = build_parser(None).format_help()\n"
        "print('fury' in helptext, sorted(m for m in sys.modules if m.startswith('shipyard.rulesets.')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert out.stdout.strip() == "True []", out.stdout + out.stderr
