"""Future Perfect from the command line: check, print, new, schema, rulesets, as a user runs
them (``shipyard.cli.main`` with its output captured), with the exit codes of the other
systems: 0 passes, 1 breaks a rule, 2 cannot be read (nothing written), and the report as JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import ROOT, call_shipyard
from .test_future_perfect import FP_EXAMPLES, FP_SAMPLES

FINDINGS = Path(__file__).resolve().parent / "corpus" / "findings"
BAD = Path(__file__).resolve().parent / "corpus" / "bad"


def check_json(*files: Path, env_home: Path) -> tuple[int, list[dict[str, object]]]:
    proc = call_shipyard("check", *files, "--json", "--no-user-catalog", env={"XDG_DATA_HOME": str(env_home)})
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def test_the_samples_pass_and_their_report_is_plain_data(tmp_path: Path) -> None:
    status, reports = check_json(*(FP_EXAMPLES / f"{n}.ship" for n in FP_SAMPLES), env_home=tmp_path)
    assert status == 0 and [r["valid"] for r in reports] == [True] * 4
    damaged = reports[3]
    assert damaged["name"] == "Far Horizon" and damaged["ruleset"] == "future-perfect"
    derived = damaged["derived"]
    figures = {f["id"]: f for f in derived["figures"]}
    assert {k: figures["defense_tn"][k] for k in ("id", "name", "value")} == {
        "id": "defense_tn",
        "name": "Starship defense TN",
        "value": 3,
    }
    assert figures["ap_left.helm"]["value"] == 0 and figures["power_used"]["value"] == 3
    tables = {t["id"]: t for t in derived["tables"]}
    assert tables["repair_tn"]["columns"] == ["level", "tn"]
    repair = [dict(zip(tables["repair_tn"]["columns"], row, strict=True)) for row in tables["repair_tn"]["rows"]]
    assert repair == [{"level": 1, "tn": 5}, {"level": 2, "tn": 7}, {"level": 3, "tn": 9}]
    assert tables["plan"]["rows"][2] == ["Engineering", 4, 6, 1, 1, 4, 0]
    tracks = {t["id"]: t for t in derived["tracks"]}
    assert tracks["power.bank"]["name"] == "Power bank"
    assert [b["marked"] for b in tracks["systems.3.ephemeral"]["boxes"]] == [True, True, True]
    jump = next(a for a in derived["actions"] if a["id"] == "fire-secondary")
    assert (jump["allowed"], jump["reason"]) == (False, "every such weapon's system is disabled")


# (file, code, path, actual, limit): the findings a GM gets, exit 1
FINDING_CASES = [
    ("future-perfect-over-budget.ship", "plan-over-budget", "plan", 11, 10),
    ("future-perfect-weapon-fired-twice.ship", "weapon-fired-twice", "plan.actions[1]", 2, 1),
    ("future-perfect-two-commanders.ship", "role-over-limit", "crew[5].role", 2, 1),
    ("future-perfect-two-power-on-one-action.ship", "power-over-one-per-action", "plan.actions[0].power", 2, 1),
    ("future-perfect-damage-over-track.ship", "damage-over-track", "systems[1].core_damage", 4, 3),
]


def test_every_findings_corpus_file_has_a_case() -> None:
    assert sorted(p.name for p in FINDINGS.glob("future-perfect-*.ship")) == sorted(c[0] for c in FINDING_CASES)


@pytest.mark.parametrize(("file", "code", "path", "actual", "limit"), FINDING_CASES, ids=[c[1] for c in FINDING_CASES])
def test_a_broken_rule_is_a_finding_with_its_numbers_and_exit_1(
    file: str, code: str, path: str, actual: int, limit: int, tmp_path: Path
) -> None:
    before = (FINDINGS / file).read_bytes()
    status, (report,) = check_json(FINDINGS / file, env_home=tmp_path)
    assert status == 1 and report["valid"] is False
    errors = [f for f in report["findings"] if f["severity"] == "error"]
    assert [(f["code"], f["path"], f["actual"], f["limit"]) for f in errors] == [(code, path, actual, limit)]
    assert errors[0]["source"].startswith("Future Perfect, ")
    assert (FINDINGS / file).read_bytes() == before


def test_the_text_report_says_what_is_wrong_and_where(tmp_path: Path) -> None:
    proc = call_shipyard("check", FINDINGS / "future-perfect-over-budget.ship", "--no-user-catalog")
    assert proc.returncode == 1
    assert "Result: DOES NOT PASS — 1 error(s)" in proc.stdout
    assert (
        "ERROR   plan-over-budget: Helm 4 + Tactical 4 + Engineering 3 = 11 AP allocated; 10 available" in proc.stdout
    )
    assert "at plan · Future Perfect, Initiative" in proc.stdout
    assert "Budgets" not in proc.stdout  # a record, not a point-buy: no empty budgets heading


def test_print_a_failing_ship_says_so_on_the_sheet(tmp_path: Path) -> None:
    from .test_printing import pages_text

    out = tmp_path / "broken.pdf"
    proc = call_shipyard(
        "print", FINDINGS / "future-perfect-two-commanders.ship", "-o", out, "--paper", "a4", "--no-user-catalog"
    )
    assert proc.returncode == 0, proc.stderr
    (text,) = pages_text(out)
    assert "DOES NOT PASS" in text and "Command is always a single character" in text


def test_print_of_a_bad_file_exits_2_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "never.pdf"
    proc = call_shipyard("print", BAD / "future-perfect-unknown-action.ship", "-o", out, "--no-user-catalog")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "did you mean 'evasive-maneuvers'" in proc.stderr
    assert list(tmp_path.iterdir()) == []


def test_new_writes_a_ship_that_asks_for_its_commander(tmp_path: Path) -> None:
    out = tmp_path / "venture.ship"
    proc = call_shipyard("new", "Venture", "--ruleset", "future-perfect", "-o", out, "--no-user-catalog")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert (doc["ruleset"], doc["preset"], doc["design"]["name"], doc["design"]["ap"]) == (
        "future-perfect",
        "as-written",
        "Venture",
        10,
    )
    assert [s["kind"] for s in doc["design"]["systems"]] == [
        "command",
        "helm",
        "weapon",
        "shield",
        "engineering",
        "sensors",
    ]
    status, (report,) = check_json(out, env_home=tmp_path)
    assert status == 1
    assert [f["code"] for f in report["findings"] if f["severity"] == "error"] == ["role-unfilled"]
    # the kind is enough when only Future Perfect offers it, and an existing file is kept
    again = call_shipyard(
        "new", "Other", "--ruleset", "future-perfect", "--kind", "ship", "-o", out, "--no-user-catalog"
    )
    assert again.returncode == 2 and "exists; use --force" in again.stderr
    assert json.loads(out.read_text(encoding="utf-8"))["design"]["name"] == "Venture"


def test_rulesets_lists_future_perfect_with_its_kind_and_presets() -> None:
    proc = call_shipyard("rulesets", "--json")
    assert proc.returncode == 0
    (fp,) = [r for r in json.loads(proc.stdout)["rulesets"] if r["id"] == "future-perfect"]
    assert fp["kinds"] == [{"id": "ship", "name": "Ship"}]
    assert fp["presets"] == ["as-written", "bid-kept"] and fp["default_preset"] == "as-written"
    check = call_shipyard("rulesets", "--check", ROOT / "shipyard" / "rulesets" / "future_perfect")
    assert check.returncode == 0, check.stderr


def test_schema_has_the_ship_record_as_the_file_spells_it() -> None:
    proc = call_shipyard("schema", "--ruleset", "future-perfect")
    assert proc.returncode == 0
    schema = json.loads(proc.stdout)
    design = schema["$defs"]["FuturePerfectShip"]
    assert {"name", "class", "ap", "power_rating", "power_bank", "bank_capacity", "size", "speed"} <= set(
        design["properties"]
    )
    assert {"systems", "weapons", "crew", "plan", "notes"} <= set(design["properties"])
    assert design["additionalProperties"] is False
    assert schema["$defs"]["FuturePerfectAction"]["properties"]["role"]["enum"] == ["helm", "tactical", "engineering"]
    assert schema["$defs"]["FuturePerfectCrewMember"]["properties"]["role"]["enum"] == [
        "command",
        "helm",
        "tactical",
        "engineering",
    ]
    committed = json.loads((ROOT / "docs" / "design-file.schema.json").read_text(encoding="utf-8"))
    assert "future-perfect" in json.dumps(committed)
