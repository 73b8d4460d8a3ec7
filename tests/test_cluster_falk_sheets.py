"""Cluster Falk sheets: what lands on the page, on A4 and Letter, read back from the PDF."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from shipyard.core.designfile import load_design
from shipyard.core.evaluate import evaluate
from shipyard.core.report import Figure, Report
from shipyard.render.printing import print_designs
from shipyard.render.worker import RenderWorker

from .sheets import is_notes_page, placed_words
from .test_printing import page_sizes_mm, pages_text

EXAMPLES = Path(__file__).resolve().parents[1] / "catalogs" / "cluster-falk" / "examples"
SAMPLES = sorted(EXAMPLES.glob("*.ship"))
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}


def report_of(file: Path) -> tuple[Any, Report]:
    loaded = load_design(file, use_user_folder=False)
    return loaded.design, evaluate(loaded.design, loaded.catalog)


def printed(f: Figure) -> list[str]:
    """How a figure may appear on the sheet: label then value ("Jump range 3 parsecs"), or for a
    rating the big number and its word ("Drives +3 Good")."""
    value = f.shown() + (f" {f.unit}" if f.unit else "")
    ways = [f"{f.label} {value}", f"{f.label}: {value}"]
    if f.kind == "ladder":
        ways.append(f"{f.label} {f.value:+d} {f.word}")
    return [w.lower() for w in ways]


@pytest.fixture(scope="module")
def sheets(tmp_path_factory: pytest.TempPathFactory, workers: list[RenderWorker]) -> dict[str, tuple[Path, list[str]]]:
    """Every sample's record sheet, printed once on each paper."""
    out = {}
    for paper in PAPERS:
        pdf = tmp_path_factory.mktemp(paper) / "records.pdf"
        result = print_designs(SAMPLES, pdf, paper=paper, workers=workers, use_user_folder=False)
        assert result.starts == list(range(1, len(SAMPLES) + 1)), f"a sheet ran over one page on {paper}"
        out[paper] = (pdf, pages_text(pdf))
    return out


@pytest.mark.parametrize("paper", list(PAPERS))
def test_a_ship_named_at_length_still_prints_on_one_page(
    paper: str, tmp_path: Path, workers: list[RenderWorker]
) -> None:
    """A 200-letter name took three lines of the header and pushed every sample but two onto
    a second page; the name now takes less room the longer it is, on a dense sheet too."""
    name = ("Dominion Carrier of the Outer Reaches and the Long Night " * 4)[:200]
    named = []
    for file in SAMPLES:
        doc = json.loads(file.read_text(encoding="utf-8"))
        doc["design"]["name"] = name
        named.append(tmp_path / file.name)
        named[-1].write_text(json.dumps(doc), encoding="utf-8")
    pdf = tmp_path / "long.pdf"
    result = print_designs(named, pdf, paper=paper, workers=workers, use_user_folder=False)
    texts = pages_text(pdf)
    # each sheet one page; a crowded sheet's Notes box holds less, and notes it cut follow it whole
    sheets = [i + 1 for i, text in enumerate(texts) if not is_notes_page(text)]
    assert result.starts == sheets and len(sheets) == len(SAMPLES)
    assert all(not is_notes_page(texts[i - 1]) for i, text in enumerate(texts) if is_notes_page(text))
    assert all(name[:40] in text for text in texts)


@pytest.mark.parametrize("paper", list(PAPERS))
def test_one_page_a_ship_on_a4_and_letter(paper: str, sheets: dict[str, tuple[Path, list[str]]]) -> None:
    pdf, texts = sheets[paper]
    assert page_sizes_mm(pdf) == [PAPERS[paper]] * len(SAMPLES)
    for text, file in zip(texts, SAMPLES, strict=True):
        design, _ = report_of(file)
        assert design.name in text
        assert f"{file.name}" in text and "passes" in text


@pytest.mark.parametrize("paper", list(PAPERS))
@pytest.mark.parametrize("file", SAMPLES, ids=[f.stem for f in SAMPLES])
def test_every_figure_of_the_ship_is_on_its_sheet(
    paper: str, file: Path, sheets: dict[str, tuple[Path, list[str]]]
) -> None:
    text = sheets[paper][1][SAMPLES.index(file)].lower()
    _, report = report_of(file)
    missing = [f.id for f in report.derived.figures if not any(w in text for w in printed(f))]
    assert missing == [], f"figures not on the {paper} sheet of {file.name}: {missing}"


@pytest.mark.parametrize("file", SAMPLES, ids=[f.stem for f in SAMPLES])
def test_the_sheet_has_the_tracks_slots_actions_and_tables_of_the_report(
    file: Path, sheets: dict[str, tuple[Path, list[str]]]
) -> None:
    text = sheets["a4"][1][SAMPLES.index(file)]
    design, report = report_of(file)
    d = report.derived
    for t in d.tracks:
        if t.id.startswith("stress."):
            assert f"{t.name} " + " ".join(str(b.value) for b in t.boxes) in text, t.id
    for s in d.slots:
        shown = f"{s.name} {s.value}" in text
        assert shown is s.available, (s.id, s.available)
        if s.text:
            assert s.text in text
    for a in d.actions:
        effect = str(a.details["effect"])
        assert (effect in text) is a.allowed, (a.id, a.allowed)
    hull = d.table("hull-consequences")
    assert hull is not None
    for row in hull.rows:
        assert f"{row[0]} {row[1]} {row[2]}" in text
    if design.hyperdrive:
        assert "Fuel" in text and "Navigate" in text
    for row in d.table("stunts").rows if d.table("stunts") else []:
        assert str(row[0]) in text
    torpedoes = d.table("torpedoes")
    for row in torpedoes.rows if torpedoes else []:
        assert f"{row[0]} ×{row[1]}: Scale {row[2]}, Pilot {row[3]}, Drives {row[4]}, {row[5]}, damage {row[6]}" in text


@pytest.mark.parametrize(("count", "pages"), [(9, 1), (10, 2)])
def test_nine_cards_a_page(count: int, pages: int, tmp_path: Path, workers: list[RenderWorker]) -> None:
    files = []
    for i in range(count):
        doc = json.loads(SAMPLES[i % len(SAMPLES)].read_text())
        doc["design"]["name"] = f"Wing {i + 1:02d} {doc['design']['name']}"
        files.append(tmp_path / f"s{i:02d}.ship")
        files[-1].write_text(json.dumps(doc))
    out = tmp_path / "cards.pdf"
    result = print_designs(files, out, sheet="cards", paper="a4", workers=workers, use_user_folder=False)
    assert result.pages == pages and page_sizes_mm(out) == [PAPERS["a4"]] * pages
    texts = pages_text(out)
    for i in range(count):
        assert f"Wing {i + 1:02d}" in texts[i // 9]
    assert "Consequences" in texts[0].title() and "Pilot 30%" in " ".join(texts)


def test_a_card_says_what_the_ship_may_do_for_its_scale_and_equipment(
    tmp_path: Path, workers: list[RenderWorker]
) -> None:
    out = tmp_path / "cards.pdf"
    carrier = EXAMPLES / "dominion-carrier.ship"
    print_designs([carrier], out, sheet="cards", paper="letter", workers=workers, use_user_folder=False)
    (text,) = pages_text(out)
    assert "Handling on engagement -2" in text
    assert (
        "May also: Return fire, Special weapon, Launch, Point defense, Fire decoys, Jump to lightspeed (half turn)"
        in text
    )
    assert "Extreme 8" in text


def test_a_card_carries_damaged_stunts_and_the_track_of_each_consequence(
    tmp_path: Path, workers: list[RenderWorker]
) -> None:
    """The card listed a damaged stunt as if it were whole, and a consequence without the track
    it was taken on (a hull one rolls on the hull table, a systems one damages a stunt): both
    as the record sheet and the report have them."""
    doc = json.loads((EXAMPLES / "dominion-carrier.ship").read_text(encoding="utf-8"))
    design = doc["design"]
    design["consequences"] = {
        "mild": {"aspect": "Scorched hull plating", "track": "hull"},
        "moderate": {"aspect": "Fried targeting relay", "track": "systems"},
    }
    design["stunts"][0]["damaged"] = True
    hurt = tmp_path / "hurt.ship"
    hurt.write_text(json.dumps(doc), encoding="utf-8")
    _, report = report_of(hurt)
    stunts = next(t for t in report.derived.tables if t.id == "stunts").rows
    out = tmp_path / "cards.pdf"
    print_designs([hurt], out, sheet="cards", paper="a4", workers=workers, use_user_folder=False)
    (text,) = pages_text(out)
    assert f"{stunts[0][0]} (damaged)" in text and f"{stunts[1][0]} (damaged)" not in text
    assert "Mild 2 Scorched hull plating (hull)" in text and "Moderate 4 Fried targeting relay (systems)" in text


def test_an_extreme_consequence_written_below_scale_6_is_shown_not_dropped(
    tmp_path: Path, workers: list[RenderWorker]
) -> None:
    """An aspect written in the Extreme slot of a ship below Scale 6 (the design's error) was
    kept only by the Foundry actor: the sheet, `check` and the error itself never showed it."""
    from .conftest import call_shipyard

    doc = json.loads((EXAMPLES / "sentinel-corvette.ship").read_text(encoding="utf-8"))
    doc["design"]["consequences"] = {"extreme": {"aspect": "Reactor breach", "track": "hull"}}
    hurt = tmp_path / "hurt.ship"
    hurt.write_text(json.dumps(doc), encoding="utf-8")
    checked = call_shipyard("check", hurt, "--no-user-catalog")
    assert checked.returncode == 1
    assert "Extreme 8: not available — only at Scale 6 or above" in checked.stdout
    assert "written in it: Reactor breach (hull)" in checked.stdout
    assert "the Extreme consequence slot holds 'Reactor breach'" in checked.stdout
    out = tmp_path / "sheet.pdf"
    print_designs([hurt], out, workers=workers, use_user_folder=False)
    (text,) = pages_text(out)
    assert "written in it: Reactor breach (hull)" in " ".join(text.split())


def test_the_track_of_a_consequence_stands_on_its_line_on_the_card(tmp_path: Path, workers: list[RenderWorker]) -> None:
    """The words "(hull)" and "(systems)" beside a consequence stood a line low, level with the next
    consequence's name: the label had the class of the rows of boxes (line-height 0)."""
    doc = json.loads((EXAMPLES / "dominion-carrier.ship").read_text(encoding="utf-8"))
    doc["design"]["consequences"] = {
        "mild": {"aspect": "Scorched hull plating", "track": "hull"},
        "moderate": {"aspect": "Fried targeting relay", "track": "systems"},
    }
    hurt = tmp_path / "hurt.ship"
    hurt.write_text(json.dumps(doc), encoding="utf-8")
    out = tmp_path / "cards.pdf"
    print_designs([hurt], out, sheet="cards", paper="a4", workers=workers, use_user_folder=False)
    words = placed_words(out)

    def bottom(word: str) -> float:
        (found,) = [box[3] for _, box, w in words if w == word]
        return found

    for name, aspect, track in (("Mild", "Scorched", "(hull)"), ("Moderate", "Fried", "(systems)")):
        assert abs(bottom(track) - bottom(name)) < 1 and abs(bottom(aspect) - bottom(name)) < 1, track


def test_the_fleet_book_ends_with_the_engagement_reference(tmp_path: Path, workers: list[RenderWorker]) -> None:
    out = tmp_path / "fleet.pdf"
    result = print_designs(
        SAMPLES, out, sheet="fleet", paper="letter", workers=workers, use_user_folder=False, title="Strike Group"
    )
    texts = pages_text(out)
    assert texts[0].startswith("THE CLUSTER FALK Strike Group 5 designs")
    assert texts[1].startswith("Contents")
    assert result.starts == [3, 4, 5, 6, 7]
    appendix = " ".join(texts[7:])
    assert texts[7].startswith("Engagement reference") and "Engagement reference 8" in texts[1]
    for heading in ("ATTACK ACTIONS", "NON-ATTACK ACTIONS", "HULL CONSEQUENCE EFFECTS", "SIZE ADVANTAGE", "DETECTION"):
        assert heading in appendix, heading
    assert "Desperate attack Pilot/Guns full turn Scale 3 or below" in appendix
    jump = r"Jump to lightspeed Drives, modified by [A-Za-z/ ]+ full turn with a hyperdrive; no tail; 2\+ levels"
    assert re.search(jump, appendix)
    assert "No advantage within 10 levels of Size. Beyond, +10% a level" in appendix
    assert "Military sensors +20% over civilian; ±10% a level of Tech Level difference" in appendix
    assert "STANDARD TORPEDO Scale 0, Pilot +3, Drives +3, Fast Ship, Maneuverability, damage +6" in appendix
    assert page_sizes_mm(out) == [PAPERS["letter"]] * len(texts)
