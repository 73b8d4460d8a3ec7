"""The numbers between two ships in every comparison: The Cluster Falk's Size advantage and
detection modifier ("Size", "Detection"), in `shipyard compare` as text, --json and
--markdown, and on the compare sheet; the editor's view is in test_editor_compare_fix.

Expected numbers worked by hand from the text: "ten levels of Size above or below it
without special benefits or penalties. After that, the difference in Size confers an extra
+10%" (per level); "Military sensors always have a +20% advantage over civilian sensors.
Each level of difference in Tech Level between ships adds another 10%".
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from shipyard.core.compare import compare, render_text
from shipyard.core.designfile import load_design
from shipyard.core.evaluate import evaluate

from .conftest import EXAMPLES, ROOT, call_shipyard

CF = ROOT / "catalogs" / "cluster-falk" / "examples"
CARRIER, GUNBOAT, KESTREL = CF / "dominion-carrier.ship", CF / "brigand-gunboat.ship", CF / "kestrel-fighter.ship"
SOURCE = "The Cluster Falk: Starship Rules"

# Dominion Carrier: Size 14, military sensors, Tech Level 13. Brigand Gunboat: Size 5,
# civilian, TL 11. 14 - 5 = 9 levels apart, within the 10 free: no Size advantage. The
# carrier seeking the gunboat: +20% (military over civilian) + (13 - 11) x 10% = +40%; the
# gunboat seeking the carrier: -20% - 20% = -40%.
NO_SIZE = "Size 14 vs 5: 9 levels apart, within the 10 free levels: no advantage"
CARRIER_SEEKS = "military over civilian sensors +20%, Tech Level 13 vs 11 +20%"
GUNBOAT_SEEKS = "civilian against military sensors -20%, Tech Level 11 vs 13 -20%"


def _pair_json(*files: Path) -> dict[str, Any]:
    proc = call_shipyard("compare", *files, "--json")
    assert proc.returncode == 1, proc.stderr  # the ships differ
    return {r["key"]: r for r in json.loads(proc.stdout)["rows"] if r["section"] == "pair"}


def test_the_text_comparison_shows_both_numbers_with_how_and_where_from() -> None:
    proc = call_shipyard("compare", CARRIER, GUNBOAT, "--width", "0")  # full width: a row a line
    assert proc.returncode == 1, proc.stderr
    out = proc.stdout
    assert re.search(r"^\s+Size advantage \(Dominion Carrier vs Brigand Gunboat\)\s+0%\s+0%$", out, re.M), out
    assert re.search(r"^\s+Detection modifier \(Dominion Carrier vs Brigand Gunboat\)\s+\+40%\s+-40%$", out, re.M)
    between = out.split("\nBetween the ships:\n", 1)[1].splitlines()
    assert between == [
        f"  Size advantage (Dominion Carrier vs Brigand Gunboat): Dominion Carrier: 0% ({NO_SIZE}); "
        f"Brigand Gunboat: 0% ({NO_SIZE}) — {SOURCE}, Size",
        f"  Detection modifier (Dominion Carrier vs Brigand Gunboat): Dominion Carrier: +40% ({CARRIER_SEEKS}); "
        f"Brigand Gunboat: -40% ({GUNBOAT_SEEKS}) — {SOURCE}, Detection",
    ]
    # into a pipe the table and the notes under it fit 80 columns, the notes' words all there
    fitted = call_shipyard("compare", CARRIER, GUNBOAT).stdout
    assert max(map(len, fitted.splitlines())) <= 80
    notes = " ".join(fitted.split("\nBetween the ships:\n", 1)[1].split())
    assert notes == " ".join(" ".join(between).split())
    # not differences: the count at the top is the figures', items' and findings' alone
    differs = sum(1 for line in out.splitlines() if line.startswith("* "))
    assert out.startswith(f"The Cluster Falk: {differs} difference(s)")
    # with --differences the rows go, the numbers between the ships stay
    only = call_shipyard("compare", CARRIER, GUNBOAT, "--differences", "--width", "0").stdout
    assert only.split("\nBetween the ships:\n", 1)[1].splitlines() == between


def test_the_json_comparison_carries_the_numbers_their_notes_and_sections() -> None:
    rows = _pair_json(CARRIER, GUNBOAT)
    size, seen = rows["pair.size-contest:Brigand Gunboat"], rows["pair.sensors-contest:Brigand Gunboat"]
    assert (size["values"], size["shown"], size["unit"], size["differs"]) == ([0, 0], ["0%", "0%"], "%", False)
    assert size["notes"] == [NO_SIZE, NO_SIZE] and size["source"] == f"{SOURCE}, Size"
    assert (seen["values"], seen["shown"]) == ([40, -40], ["+40%", "-40%"])
    assert seen["notes"] == [CARRIER_SEEKS, GUNBOAT_SEEKS] and seen["source"] == f"{SOURCE}, Detection"
    assert seen["label"] == "Detection modifier (Dominion Carrier vs Brigand Gunboat)"
    assert seen["explained"] == [
        f"Dominion Carrier: +40% ({CARRIER_SEEKS})",
        f"Brigand Gunboat: -40% ({GUNBOAT_SEEKS})",
    ]


def test_the_markdown_comparison_has_the_rows_and_the_notes() -> None:
    proc = call_shipyard("compare", CARRIER, GUNBOAT, "--markdown")
    lines = proc.stdout.splitlines()
    assert "| Size advantage (Dominion Carrier vs Brigand Gunboat) | 0% | 0% |" in lines
    assert "| Detection modifier (Dominion Carrier vs Brigand Gunboat) | +40% | -40% |" in lines
    at = lines.index("Between the ships:")
    assert lines[at + 2].startswith("- Size advantage (Dominion Carrier vs Brigand Gunboat): Dominion Carrier: 0% (")
    assert lines[at + 3].endswith(f"Brigand Gunboat: -40% ({GUNBOAT_SEEKS}) — {SOURCE}, Detection")


def test_beyond_ten_levels_the_bigger_and_the_smaller_ship_each_get_ten_percent_a_level() -> None:
    # Kestrel Fighter: Size 2, military, TL 12. 14 - 2 = 12 levels: 2 beyond 10 = +20%, the
    # carrier to its guns and shields, the fighter to its evasion; detection 1 TL: +10% / -10%.
    rows = _pair_json(CARRIER, KESTREL)
    size, seen = rows["pair.size-contest:Kestrel Fighter"], rows["pair.sensors-contest:Kestrel Fighter"]
    assert size["values"] == [20, 20] and size["shown"] == ["+20%", "+20%"]
    assert size["notes"] == [
        "Size 14 vs 2: 12 levels apart, 2 beyond the 10 free levels: 2 x 10%, "
        "to Guns and Shields, and most other offensive and defensive rolls",
        "Size 14 vs 2: 12 levels apart, 2 beyond the 10 free levels: 2 x 10%, to defensive evasion moves",
    ]
    assert seen["values"] == [10, -10]
    assert seen["notes"] == [
        "both military sensors +0%, Tech Level 13 vs 12 +10%",
        "both military sensors +0%, Tech Level 12 vs 13 -10%",
    ]


@pytest.mark.parametrize(("size", "percent"), [(4, 0), (3, 10), (2, 20), (1, 30), (14, 0), (24, 0), (25, 10)])
def test_the_size_advantage_against_the_carrier_as_the_text_counts_it(size: int, percent: int) -> None:
    carrier, gunboat = load_design(CARRIER, use_user_folder=False), load_design(GUNBOAT, use_user_folder=False)
    catalog = carrier.catalog
    other = gunboat.design.model_copy(update={"size": size})
    designs = [(n, d, catalog, evaluate(d, catalog)) for n, d in (("Carrier", carrier.design), ("Other", other))]
    (row,) = [r for r in compare(designs).section("pair") if r.key.startswith("pair.size-contest")]
    assert row.values == (percent, percent)
    bigger = 0 if size < 14 else 1
    if percent:
        assert "to Guns and Shields" in row.notes[bigger] and "to defensive evasion moves" in row.notes[1 - bigger]


def test_three_ships_get_a_row_for_each_pair_with_the_first() -> None:
    loaded = [load_design(f, use_user_folder=False) for f in (CARRIER, GUNBOAT, KESTREL)]
    designs = [(ld.design.name, ld.design, ld.catalog, evaluate(ld.design, ld.catalog)) for ld in loaded]
    cmp = compare(designs)
    shown = {r.label: [r.shown(i) for i in range(3)] for r in cmp.section("pair")}
    assert shown == {
        "Size advantage (Dominion Carrier vs Brigand Gunboat)": ["0%", "0%", "—"],
        "Detection modifier (Dominion Carrier vs Brigand Gunboat)": ["+40%", "-40%", "—"],
        "Size advantage (Dominion Carrier vs Kestrel Fighter)": ["+20%", "—", "+20%"],
        "Detection modifier (Dominion Carrier vs Kestrel Fighter)": ["+10%", "—", "-10%"],
    }
    assert render_text(cmp).count(f"— {SOURCE}, Detection") == 2


def test_a_ruleset_without_pair_figures_has_no_such_rows() -> None:
    proc = call_shipyard("compare", EXAMPLES / "rebel-fighter.ship", EXAMPLES / "rebel-frigate.ship", "--json")
    assert [r for r in json.loads(proc.stdout)["rows"] if r["section"] == "pair"] == []
    text = call_shipyard("compare", EXAMPLES / "rebel-fighter.ship", EXAMPLES / "rebel-frigate.ship").stdout
    assert "Between the ships" not in text


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils not installed")
def test_the_compare_sheet_prints_the_numbers_between_the_ships(tmp_path: Path) -> None:
    out = tmp_path / "compare.pdf"
    proc = call_shipyard("print", CARRIER, GUNBOAT, "--sheet", "compare", "-o", out, "--no-user-catalog")
    assert proc.returncode == 0, proc.stderr
    text = subprocess.run(["pdftotext", "-layout", str(out), "-"], capture_output=True, text=True, check=True).stdout
    squeezed = re.sub(r"\s+", " ", text)
    assert "Between the ships" in text
    assert re.search(r"Size advantage \(Dominion Carrier vs Brigand Gunboat\) 0% 0%", squeezed)
    assert re.search(r"Detection modifier \(Dominion Carrier vs Brigand Gunboat\) \+40% -40%", squeezed)
    assert (
        f"Dominion Carrier: +40% ({CARRIER_SEEKS}); Brigand Gunboat: -40% ({GUNBOAT_SEEKS}) — {SOURCE}, Detection"
        in (squeezed)
    )
    assert f"({NO_SIZE}) — {SOURCE}, Size" in squeezed
