"""The Cluster Falk on the command line: check, print, new, schema, rulesets, and bad input.

Bad input is the corpus in tests/corpus/bad/cluster-falk/: files that cannot be read
(exit 2, one message naming the file and the place, nothing printed, nothing changed) and,
in rules/, records that read but break a rule (exit 1, a finding at the place to fix).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from .conftest import call_shipyard
from .test_bad_input import assert_input_error, error_lines, run_check, snapshot

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "catalogs" / "cluster-falk" / "examples"
CORPUS = Path(__file__).resolve().parent / "corpus" / "bad" / "cluster-falk"


@dataclass(frozen=True)
class Case:
    file: str
    where: str
    says: tuple[str, ...]


UNREADABLE = [
    Case("unknown-stunt.ship", "at design.stunts[0].id", ("unknown stunt 'Fast Shp'", "did you mean 'fast-ship'")),
    Case(
        "unknown-torpedo.ship",
        "at design.torpedoes[0].id",
        ("unknown torpedo 'Photon torpedo'", "did you mean 'Proton torpedo'", "allowed: standard-torpedo"),
    ),
    Case(
        "unknown-special-weapon.ship",
        "at design.special_weapons[0].id",
        ("unknown special weapon 'tractor bean'", "did you mean 'tractor-beam'"),
    ),
    Case(
        "unknown-ship-skill.ship",
        "at design.skills.Piloting",
        ("unknown ship skill 'Piloting'", "did you mean 'pilot'"),
    ),
    Case(
        "crew-skill-given-to-the-ship.ship",
        "at design.skills.Science (Comms)",
        ("a crew skill: give it to a crew member at a station",),
    ),
    Case(
        "unknown-crew-skill.ship", "at design.crew[0].skills.Gunnary", ("unknown crew skill 'Gunnary'", "did you mean")
    ),
    Case(
        "unknown-station.ship",
        "at design.stations[1]",
        ("unknown station 'reactor room'", "allowed: cockpit, command-deck"),
    ),
    Case(
        "crew-at-a-missing-station.ship",
        "at design.crew[0].station",
        ("'engineering' is not one of this ship's stations or turrets", "allowed: cockpit"),
    ),
    Case(
        "stunt-with-id-and-name.ship", "at design.stunts[0]", ("give a catalog stunt's id, or a custom stunt's name",)
    ),
    Case("rating-not-a-number.ship", "at design.ratings.guns", ("valid integer",)),
    Case("rating-beyond-any-ladder.ship", "at design.ratings.drives", ("less than or equal to 20",)),
    Case("unknown-sensors.ship", "at design.sensors", ("'military' or 'civilian'",)),
    Case("missing-stress.ship", "at design.stress", ("Field required",)),
    Case("torpedo-count-zero.ship", "at design.torpedoes[0].count", ("greater than or equal to 1",)),
    Case("consequence-on-a-third-track.ship", "at design.consequences.mild.track", ("'hull' or 'systems'",)),
    Case("stress-box-ticked-twice.ship", "at design.stress.systems_ticked", ("box 2 is ticked twice",)),
]

BROKEN = [
    (
        "rating-above-legendary.ship",
        "stat-out-of-range",
        "ratings.guns",
        9,
        [0, 8],
        "Engagement Actions (Targeted attack)",
    ),
    ("skill-over-100-percent.ship", "skill-out-of-range", "skills.pilot", 120, [0, 100], "Ship Skills and Crew Skills"),
    (
        "crew-skill-negative.ship",
        "skill-out-of-range",
        "crew[0].skills.pilot",
        -5,
        [0, 100],
        "Ship Skills and Crew Skills",
    ),
    ("size-negative.ship", "stat-out-of-range", "size", -1, [0, None], "Size"),
    ("scale-negative.ship", "stat-out-of-range", "scale", -1, [0, None], "Torpedoes; Engagement Actions; Damage"),
    (
        "stress-track-too-long.ship",
        "stat-out-of-range",
        "stress.hull",
        11,
        [1, 10],
        "Damage; Engagement Actions (Repair)",
    ),
    (
        "stress-track-empty.ship",
        "stat-out-of-range",
        "stress.systems",
        0,
        [1, 10],
        "Damage; Engagement Actions (Repair)",
    ),
    (
        "stress-ticked-beyond-the-track.ship",
        "stress-box-not-on-track",
        "stress.hull_ticked[1]",
        4,
        3,
        "Damage; Engagement Actions (Repair)",
    ),
    ("extreme-consequence-below-scale-6.ship", "consequence-not-available", "consequences.extreme", 5, 6, "Damage"),
    (
        "special-weapons-console-without-a-weapon.ship",
        "special-weapon-without-equipment",
        "stations[1]",
        False,
        "a special weapon installed",
        "Engagement Actions",
    ),
    (
        "jump-stunt-without-hyperdrive.ship",
        "jump-without-hyperdrive",
        "stunts[0].id",
        False,
        "a hyperdrive",
        "Engagement Actions",
    ),
    (
        "flight-deck-without-hangar.ship",
        "launch-without-hangar",
        "stations[1]",
        False,
        "a hangar",
        "Engagement Actions",
    ),
]


def test_every_corpus_file_has_a_case() -> None:
    assert sorted(p.name for p in CORPUS.glob("*.ship")) == sorted(c.file for c in UNREADABLE)
    assert sorted(p.name for p in (CORPUS / "rules").glob("*.ship")) == sorted(b[0] for b in BROKEN)


def test_each_record_that_cannot_be_read_gets_one_clear_message(tmp_path: Path) -> None:
    """All of them in one run, as a GM checks a folder: exit 2, one message a file naming the
    file and the place, no report, no file changed and none left beside them."""
    files = [CORPUS / c.file for c in UNREADABLE]
    before = {f: snapshot(f) for f in files}
    listing = sorted(p.name for p in CORPUS.iterdir())
    proc = run_check(*files, env_home=tmp_path)
    assert "Traceback" not in proc.stderr and proc.returncode == 2, (proc.returncode, proc.stderr)
    assert proc.stdout.strip() == ""
    lines = error_lines(proc.stderr)
    assert len(lines) == len(UNREADABLE), proc.stderr
    for case, line in zip(UNREADABLE, lines, strict=True):
        assert f"{case.file} {case.where}:" in line, (case.file, line)
        for text in case.says:
            assert text in line, (text, line)
    assert {f: snapshot(f) for f in files} == before
    assert sorted(p.name for p in CORPUS.iterdir()) == listing


def test_one_unreadable_record_alone_is_the_same_clear_message(tmp_path: Path) -> None:
    case = UNREADABLE[1]
    assert_input_error(run_check(CORPUS / case.file, env_home=tmp_path), case.file, case.where, case.says)


@pytest.mark.parametrize(
    ("file", "code", "path", "actual", "limit", "section"), BROKEN, ids=[b[0].removesuffix(".ship") for b in BROKEN]
)
def test_a_record_that_breaks_a_rule_gets_a_finding_at_the_place_to_fix(
    file: str, code: str, path: str, actual: object, limit: object, section: str, tmp_path: Path
) -> None:
    ship = CORPUS / "rules" / file
    before = snapshot(ship)
    proc = run_check(ship, extra=("--json",), env_home=tmp_path)
    assert "Traceback" not in proc.stderr and proc.returncode == 1, (proc.returncode, proc.stderr)
    (report,) = json.loads(proc.stdout)
    assert report["valid"] is False
    (f,) = [f for f in report["findings"] if f["severity"] == "error"]
    assert (f["code"], f["path"], f["actual"], f["limit"]) == (code, path, actual, limit)
    assert f["source"] == f"The Cluster Falk: Starship Rules, {section}"
    text = run_check(ship, env_home=tmp_path)
    assert text.returncode == 1 and "Result: DOES NOT PASS — 1 error(s)" in text.stdout
    assert f"ERROR   {code}: " in text.stdout and f"at {path}" in text.stdout
    assert snapshot(ship) == before


def test_check_prints_what_the_rules_derive(tmp_path: Path) -> None:
    proc = run_check(EXAMPLES / "dominion-carrier.ship", env_home=tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Result: PASSES — 0 error(s), 0 warning(s), 0 advice" in out
    assert "Budgets" not in out
    for line in (
        "Drives                    Fair (+2)",
        "Pilot                     75%  — +7 on the ladder; Helmsman Brandt (Command deck), over the ship's 50%",
        "Consequences              Mild 2, Moderate 4, Serious 6, Extreme 8",
        "Handling on engagement    -2  — Size 14 is 10 or above: -2 to Handling tests, whatever the Speed",
        "Jump range                2 parsecs",
        "Extreme 8: —",
        "no      Desperate attack — only up to Scale 3; this ship is Scale 6",
    ):
        assert line in out, line
    assert re.search(r"\n  Hull +\[1\] \[2\] \[3\] \[4\] \[5\] \[6\]\n", out)
    assert re.search(r"\n  Standard torpedo +(\[ \] ){11}\[ \]  — tick one a launch\n", out)


def test_all_samples_pass_together(tmp_path: Path) -> None:
    proc = run_check(*sorted(EXAMPLES.glob("*.ship")), extra=("--json",), env_home=tmp_path)
    assert proc.returncode == 0, proc.stderr
    reports = json.loads(proc.stdout)
    assert [r["valid"] for r in reports] == [True] * 5
    assert all(not r["findings"] for r in reports)


def test_new_writes_a_ship_that_checks(tmp_path: Path) -> None:
    out = tmp_path / "red-falcon.ship"
    made = call_shipyard(
        "new",
        "Red Falcon",
        "--ruleset",
        "cluster-falk",
        "--kind",
        "ship",
        "-o",
        out,
        "--no-user-catalog",
        env={"XDG_DATA_HOME": str(tmp_path)},
    )
    assert made.returncode == 0, made.stderr
    doc = json.loads(out.read_text())
    assert (doc["ruleset"], doc["preset"]) == ("cluster-falk", "as-read")
    d = doc["design"]
    assert (d["name"], d["size"], d["scale"], d["stress"], d["stations"]) == (
        "Red Falcon",
        2,
        2,
        {"hull": 3, "systems": 3},
        ["cockpit"],
    )
    assert run_check(out, env_home=tmp_path).returncode == 0
    again = call_shipyard(
        "new",
        "Red Falcon",
        "--ruleset",
        "cluster-falk",
        "--kind",
        "ship",
        "-o",
        out,
        env={"XDG_DATA_HOME": str(tmp_path)},
    )
    assert again.returncode == 2 and "exists; use --force" in again.stderr
    assert json.loads(out.read_text()) == doc


def test_schema_and_rulesets_describe_it() -> None:
    schema = call_shipyard("schema", "--ruleset", "cluster-falk")
    assert schema.returncode == 0
    text = schema.stdout
    for key in ('"tech_level"', '"special_weapons"', '"torpedoes"', '"consequences"', '"military"', '"civilian"'):
        assert key in text, key
    listed = call_shipyard("rulesets", "--json")
    entry = next(r for r in json.loads(listed.stdout)["rulesets"] if r["id"] == "cluster-falk")
    assert entry["kinds"] == [{"id": "ship", "name": "Ship"}]
    assert entry["presets"] == ["as-read", "crewed-ships", "gm-chooses-hull-effects"]
    assert entry["default_preset"] == "as-read"


def test_print_writes_one_page_a_ship_and_nothing_on_failure(tmp_path: Path) -> None:
    out = tmp_path / "fleet.pdf"
    ok = call_shipyard("print", *sorted(EXAMPLES.glob("*.ship")), "-o", out, "--paper", "letter", "--no-user-catalog")
    assert ok.returncode == 0, ok.stderr
    assert "5 page(s), 5 design(s)" in ok.stdout and out.read_bytes().startswith(b"%PDF")
    bad = tmp_path / "bad.pdf"
    failed = call_shipyard("print", CORPUS / "unknown-stunt.ship", "-o", bad, "--no-user-catalog")
    assert failed.returncode == 2 and "unknown stunt 'Fast Shp'" in failed.stderr
    assert not bad.exists()


def test_set_ticks_stress_and_check_prints_the_boxes_ticked(tmp_path: Path) -> None:
    """Stress ticked in play is set from the command line as any field is, saved in the file,
    read back the same and printed [x] by check; the file without it printed every box clear."""
    ship = tmp_path / "gunboat.ship"
    ship.write_text((EXAMPLES / "brigand-gunboat.ship").read_text(encoding="utf-8"), encoding="utf-8")
    env = {"XDG_DATA_HOME": str(tmp_path)}
    clear = run_check(ship, env_home=tmp_path)
    assert "  Hull     [1] [2] [3]\n" in clear.stdout
    made = call_shipyard(
        "set",
        ship,
        "stress.hull_ticked=[3]",
        "stress.systems_ticked=[1, 2]",
        "--in-place",
        "--no-user-catalog",
        env=env,
    )
    assert made.returncode == 0, made.stderr
    stress = json.loads(ship.read_text(encoding="utf-8"))["design"]["stress"]
    assert stress == {"hull": 3, "systems": 3, "hull_ticked": [3], "systems_ticked": [1, 2]}
    got = call_shipyard("get", ship, "stress.hull_ticked", "--no-user-catalog", env=env)
    assert got.returncode == 0 and json.loads(got.stdout) == [3], (got.stdout, got.stderr)
    text = run_check(ship, env_home=tmp_path)
    assert text.returncode == 0, text.stderr
    assert "  Hull     [1] [2] [x]\n" in text.stdout and "  Systems  [x] [x] [3]\n" in text.stdout
    # the track cut below a tick: a finding at the tick; clearing the tick passes again
    cut = call_shipyard("set", ship, "stress.hull=2", "--in-place", "--no-user-catalog", env=env)
    assert cut.returncode == 1 and "Hull stress box 3 is ticked" in cut.stdout + cut.stderr, (cut.stdout, cut.stderr)
    assert "Hull stress box 3 is ticked, but the Hull track has 2 boxes" in run_check(ship, env_home=tmp_path).stdout
    fixed = call_shipyard("set", ship, "stress.hull_ticked=[]", "--in-place", "--no-user-catalog", env=env)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
