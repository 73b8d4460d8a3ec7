"""The command line: what a Storyteller sees and what other tools read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shipyard.cli import main

from .conftest import EXAMPLES, SAMPLES, run_shipyard
from .conftest import call_shipyard as run


def test_check_prints_ledger_figures_and_findings(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", str(EXAMPLES / "rebel-fighter.ship"), "--preset", "as-written", "--no-user-catalog"])
    out = capsys.readouterr().out
    assert code == 1  # as written the Rebel Fighter is 2 freebies over
    for text in (
        "Rebel Fighter",
        "DOES NOT PASS",
        "Weapon Points: budget 5 + 5 gained, spent 10",
        "2 x Light Laser (2 + 1 fire-linked each)",
        "5 extra Weapon Points x 2",
        "Freebie Points: budget 15 + 5 gained, spent 22 → OVER BUDGET by 2",
        "2,250 km/h, Mach 1.8",
        "pool-over-budget: Freebie Points over budget by 2",
        "at budgets.freebies",
        "Constructing a Spacecraft",
    ):
        assert text in out, text


def test_check_exit_zero_when_all_pass(capsys: pytest.CaptureFixture[str]) -> None:
    """The samples carry the preset their published figures mean (sample-ships): they pass as saved."""
    files = [str(EXAMPLES / f"{n}.ship") for n in SAMPLES if n != "alien-disk-fighter"]
    assert main(["check", *files, "--no-user-catalog"]) == 0
    out = capsys.readouterr().out
    assert out.count("PASSES") == 5 and out.count("preset: Sample ships (sample-ships)") == 5, out[:400]
    assert main(["check", *files, "--preset", "as-written", "--no-user-catalog"]) == 1
    assert capsys.readouterr().out.count("PASSES") == 1  # only the Battlesat adds up as written


def test_check_json_shape() -> None:
    out = run(
        "check",
        str(EXAMPLES / "federation-battlesat.ship"),
        str(EXAMPLES / "rebel-fighter.ship"),
        "--json",
        "--preset",
        "as-written",
        "--no-user-catalog",
    )
    assert out.returncode == 1, out.stderr
    data = json.loads(out.stdout)
    assert [d["file"].rsplit("/", 1)[-1] for d in data] == ["federation-battlesat.ship", "rebel-fighter.ship"]
    sat, rebel = data
    assert sat["valid"] is True and rebel["valid"] is False
    assert {"file", "valid", "preset", "pools", "derived", "findings"} <= set(sat)
    assert [p["id"] for p in sat["pools"]] == ["weapon-points", "power-points", "freebies", "accessory-points"]
    freebies = next(p for p in rebel["pools"] if p["id"] == "freebies")
    assert (freebies["budget"], freebies["spent"], freebies["remaining"]) == (15, 22, -2)
    assert {"label", "amount", "kind", "source", "path"} <= set(freebies["items"][0])
    f = next(f for f in rebel["findings"] if f["code"] == "pool-over-budget")
    assert (f["severity"], f["path"], f["actual"], f["limit"]) == ("error", "budgets.freebies", 22, 20)
    assert any(fig["id"] == "move-kmh" and fig["value"] == 2250 for fig in rebel["derived"]["figures"])


def test_new_writes_a_design_that_checks(tmp_path: Path) -> None:
    out = tmp_path / "red-five.ship"
    assert run("new", "Red Five", "--scale", "starship+1", "-o", str(out)).returncode == 0
    doc = json.loads(out.read_text())
    assert doc["design"]["scale"] == "starship+1" and doc["design"]["name"] == "Red Five"
    checked = run("check", str(out), "--json", "--no-user-catalog")
    assert checked.returncode == 0 and json.loads(checked.stdout)[0]["scale"] == "Starship + 1"  # a new design passes
    again = run("new", "Red Five", "--scale", "starfighter", "-o", str(out))
    assert again.returncode == 2 and "exists" in again.stderr


def test_new_without_a_kind_or_with_a_mistyped_one_lists_the_kinds(tmp_path: Path) -> None:
    """``new X -o x.ship`` said only "say what to make with --kind", and a mistyped kind was
    refused without the "did you mean" the rulesets and presets get."""
    out = tmp_path / "x.ship"
    bare = run("new", "X", "-o", str(out))
    assert bare.returncode == 2 and "say what to make with --kind" in bare.stderr
    from shipyard.core.registry import rulesets

    kinds = sorted({k.id for info in rulesets() for k in info.kinds})  # every installed ruleset's
    assert {"fighter", "ship", "starfighter"} <= set(kinds) and f"(allowed: {', '.join(kinds)})" in bare.stderr
    typo = run("new", "X", "--kind", "starfigher", "-o", str(out))
    assert typo.returncode == 2 and "designs of kind 'starfigher'; did you mean 'starfighter'" in typo.stderr
    assert not out.exists()


def test_catalog_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["catalog", "list", "technology", "--no-user-catalog"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("technology (30)\n"), out[:80]  # no blank line before the first line
    assert "pi-tac-cannon" in out and "cost 1 each" in out
    assert main(["catalog", "list", "--ruleset", "space-fighter-alpha", "--no-user-catalog"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Space Fighter Alpha (space-fighter-alpha)"), lines[:2]
    assert lines[3:5] == ["", "accessories (25)"], lines[:6]  # sections are set apart by one blank line
    assert main(["catalog", "list", "--no-user-catalog"]) == 0  # every installed ruleset's, each with its head
    heads = [ln for ln in capsys.readouterr().out.splitlines() if " — preset " in ln]
    assert "Space Fighter Alpha (space-fighter-alpha) — preset as-written" in heads and len(heads) >= 2
    assert main(["catalog", "list", "gadgets", "--no-user-catalog"]) == 2


def test_schema_command_prints_json_schema() -> None:
    out = run("schema")
    assert out.returncode == 0
    assert json.loads(out.stdout)["title"] == "Shipyard design file"


def test_no_traceback_on_internal_error(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import shipyard.core.designreport as built

    def boom(*_: object, **__: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(built, "design_report", boom)  # the one builder of a design's report
    monkeypatch.delenv("SHIPYARD_DEBUG", raising=False)
    assert main(["check", str(EXAMPLES / "rebel-fighter.ship"), "--no-user-catalog"]) == 70
    err = capsys.readouterr().err
    assert "internal error: RuntimeError: boom" in err and "Traceback" not in err


def test_check_summary_ends_with_one_line_of_counts(tmp_path: Path) -> None:
    """What the no-display run of scripts/run-app ends with: designs, how many pass, how many do not."""
    files = [str(EXAMPLES / f"{n}.ship") for n in SAMPLES]
    out = run("check", *files, "--summary", "--no-user-catalog")
    assert out.returncode == 1, out.stderr  # the Alien Disk-Fighter does not add up under any preset
    assert out.stdout.splitlines()[-1] == "6 designs: 5 pass, 1 does not pass", out.stdout[-300:]
    broken = tmp_path / "broken.ship"
    broken.write_text("{", encoding="utf-8")
    out = run("check", files[0], str(broken), "--summary", "--json", "--no-user-catalog")
    assert out.returncode == 2
    assert len(json.loads(out.stdout)) == 2  # the line goes to stderr, the JSON stays whole
    assert out.stderr.splitlines()[-1] == "2 designs: 1 passes, 0 do not pass, 1 could not be read", out.stderr


def test_a_read_only_command_ends_with_all_its_output_and_its_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    """check, compare, catalog ... end the process as soon as they are done (see
    shipyard._speedups.end_process_now): what they print must still arrive whole, with the exit code."""
    import subprocess
    import sys

    files = sorted(EXAMPLES.glob("*.ship"))
    out = run_shipyard("check", *files, "--json", "--no-user-catalog")
    assert out.returncode == 1, out.stderr  # the Alien Disk-Fighter does not pass
    data = json.loads(out.stdout)  # the whole JSON array, not a cut-off buffer
    assert len(out.stdout) > 65536 and [Path(d["file"]).name for d in data] == [f.name for f in files]
    args = ["catalog", "list", "--ruleset", "space-fighter-alpha", "--no-user-catalog"]
    listed = run_shipyard(*args)
    assert main(args) == 0
    assert listed.returncode == 0 and listed.stdout == capsys.readouterr().out  # every line, as in-process
    assert "heavy-laser" in listed.stdout
    # A reader that stops early (| head) gets no traceback and no "Exception ignored".
    proc = subprocess.Popen(
        [sys.executable, "-m", "shipyard", "check", *map(str, files), "--no-user-catalog"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(10)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) in (0, 1) and "Traceback" not in err and "Exception ignored" not in err, err


def test_catalog_list_prints_no_python_internals() -> None:
    """Space Fury's cost table listed as "cost <bound method CostTable.cost of CostTable(...)>":
    a table's ``cost`` is a method, not a number. Every kind of every ruleset, listed."""
    out = run("catalog", "list", "--no-user-catalog")
    assert out.returncode == 0, out.stderr
    assert "fighter-cost" in out.stdout
    assert "<bound method" not in out.stdout and " object at 0x" not in out.stdout
    assert "cost <" not in out.stdout


def test_a_mistyped_export_format_given_after_the_files_is_named_as_the_format() -> None:
    """``export red-five.ship --format card-pngs`` said "invalid choice: 'red-five.ship'":
    only a known format was moved to the front, so the file was read as the format."""
    ship = EXAMPLES / "rebel-fighter.ship"
    out = run("export", ship, "--format", "card-pngs", "-o", "x/")
    assert out.returncode == 2
    assert "invalid choice: 'card-pngs'" in out.stderr and "rebel-fighter.ship'" not in out.stderr
    text = run("export", ship, "--format", "statblock", "--no-user-catalog")
    assert text.returncode == 0 and text.stdout.startswith("Name: Rebel Fighter\n")
