"""A comparison shows the state recorded on a design: ticked boxes, write-ins, damaged items.

A ship with its hull stress ticked and a consequence taken, or with a system knocked out,
has the same figures as the same ship undamaged; the comparison said "0 difference(s)"
and exited 0 for them, and its sheet printed a damaged stunt as "1" with no word of the
damage. The state is compared from the report and the design's table, the same for
every ruleset (:mod:`shipyard.core.compare`).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from shipyard.core.compare import compare
from shipyard.core.report import Derived, Report, Table

from .conftest import ROOT, call_shipyard

CORVETTE = ROOT / "catalogs" / "cluster-falk" / "examples" / "sentinel-corvette.ship"
FRIGATE = ROOT / "catalogs" / "future-perfect" / "examples" / "frigate.ship"


def _set(src: Path, out: Path, *edits: str) -> Path:
    proc = call_shipyard("set", src, *edits, "-o", out)
    assert proc.returncode == 0, proc.stderr
    return out


def _rows(*files: Path) -> dict[str, dict[str, Any]]:
    proc = call_shipyard("compare", *files, "--json")
    assert proc.returncode == 1, proc.stdout + proc.stderr  # they differ
    return {r["key"]: r for r in json.loads(proc.stdout)["rows"]}


def test_ticked_stress_and_a_consequence_are_differences(tmp_path: Path) -> None:
    hurt = _set(
        CORVETTE,
        tmp_path / "hurt.ship",
        "stress.hull_ticked=[1,3]",
        'consequences.moderate={"aspect":"Reactor leak","track":"hull"}',
    )
    proc = call_shipyard("compare", CORVETTE, hurt, "--differences", "--width", "0")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert proc.stdout.startswith("The Cluster Falk: 2 difference(s)")
    assert re.search(r"\* +Track: Hull +0 of 4 ticked +2 of 4 ticked \(boxes 1, 3\) \(\+2\)", proc.stdout)
    assert re.search(r"\* +Write-in: Moderate 4 +Reactor leak \(hull\) \(changed\)", proc.stdout)
    rows = _rows(CORVETTE, hurt)
    hull = rows["track:stress.hull"]
    assert hull["section"] == "state" and hull["label"] == "Track: Hull"
    assert hull["values"] == ["0 of 4 ticked", "2 of 4 ticked (boxes 1, 3)"] and hull["deltas"] == ["", "+2"]
    assert rows["slot:consequences.moderate"]["values"] == ["", "Reactor leak (hull)"]
    assert rows["slot:consequences.mild"]["differs"] is False  # the sample's own consequence, in both
    assert not rows["track:stress.systems"]["differs"]
    sections = json.loads(call_shipyard("compare", CORVETTE, hurt, "--json").stdout)["sections"]
    assert {"id": "state", "heading": "Recorded state"} in sections


def test_the_same_boxes_counted_but_others_ticked_are_a_change(tmp_path: Path) -> None:
    first = _set(CORVETTE, tmp_path / "first.ship", "stress.hull_ticked=[1]")
    last = _set(CORVETTE, tmp_path / "last.ship", "stress.hull_ticked=[4]")
    hull = _rows(first, last)["track:stress.hull"]
    assert hull["values"] == ["1 of 4 ticked", "1 of 4 ticked (box 4)"] and hull["deltas"] == ["", "changed"]


def test_a_disabled_system_is_a_difference(tmp_path: Path) -> None:
    hit = _set(FRIGATE, tmp_path / "hit.ship", "systems[Sensors].core_damage=3", "systems[Sensors].ephemeral_damage=3")
    rows = _rows(FRIGATE, hit)
    assert rows["item:systems:Sensors#1"]["label"] == "Systems: Sensors"
    assert rows["item:systems:Sensors#1"]["values"] == ["ready", "disabled"]
    assert rows["track:systems.6.core"]["deltas"] == ["", "+3"]
    assert not rows["item:systems:Bridge#1"]["differs"]
    text = call_shipyard("compare", FRIGATE, hit, "--differences", "--width", "0").stdout
    assert re.search(r"\* +Systems: Sensors +ready +disabled \(changed\)", text)


def test_a_damaged_stunt_is_a_difference_in_words(tmp_path: Path) -> None:
    damaged = _set(CORVETTE, tmp_path / "damaged.ship", "stunts[0].damaged=true")
    rows = _rows(CORVETTE, damaged)
    stunt = rows["item:stunts:Advanced Astrogation#1"]
    assert stunt["values"] == ["", "damaged"] and stunt["differs"]
    assert rows["stunts.advanced-astrogation"]["values"] == [1, 1]  # the count alone does not differ


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils not installed")
def test_the_compare_sheet_prints_the_recorded_state(tmp_path: Path) -> None:
    hurt = _set(
        CORVETTE,
        tmp_path / "hurt.ship",
        "stress.hull_ticked=[1,3]",
        'consequences.moderate={"aspect":"Reactor leak","track":"systems"}',
        "stunts[0].damaged=true",
    )
    out = tmp_path / "compare.pdf"
    proc = call_shipyard("print", CORVETTE, hurt, "--sheet", "compare", "-o", out)
    assert proc.returncode == 0, proc.stderr
    text = subprocess.run(["pdftotext", "-layout", str(out), "-"], capture_output=True, text=True, check=True).stdout
    squeezed = re.sub(r"\s+", " ", text)
    assert "4 differences" in squeezed  # the ticks, the consequence, the stunt, and the stunts it should damage
    assert "Recorded state" in text
    assert "Track: Hull 0 of 4 ticked 2 of 4 ticked (boxes 1, 3) +2" in squeezed
    assert "Write-in: Moderate 4 Reactor leak (systems) changed" in squeezed
    assert "Stunts: Advanced Astrogation damaged changed" in squeezed


def _report(tables: list[Table]) -> Report:
    return Report(
        ruleset="x",
        ruleset_name="X",
        preset="p",
        preset_name="P",
        name="Ship",
        valid=True,
        derived=Derived(tables=tables),
        findings=[],
    )


def test_item_states_are_read_from_any_table_that_names_its_state_column() -> None:
    """Neutral: any ruleset's table with a ``state_column``; rows named alike are told apart
    by their place among them, and a column the table lacks is no state."""

    def table(states: list[str], column: str = "State") -> Table:
        return Table(
            id="gear", title="Gear", columns=["Gear", "State"], rows=[["Pod", s] for s in states], state_column=column
        )

    class _Catalog:
        class meta:
            id, name = "x", "X"

        module = type("m", (), {"view": staticmethod(lambda d, c: type("v", (), {"selections": []})())})

    def run(*tables: Table) -> list[Any]:
        designs: list[Any] = [(f"S{i}", None, _Catalog, _report([t])) for i, t in enumerate(tables)]
        return compare(designs).section("state")

    rows = run(table(["", "damaged"]), table(["", ""]))
    assert [(r.label, r.values, r.deltas) for r in rows] == [
        ("Gear: Pod", ("", ""), ("", "")),
        ("Gear: Pod #2", ("damaged", ""), ("", "changed")),
    ]
    assert run(table(["damaged"], "Nowhere"), table([""], "Nowhere")) == []
