"""Space Fury sheets: record sheets, stat and pilot cards, force rosters and the fleet book.

Every figure a sheet prints is read back from the PDF's text (pypdfium2) and compared with
the engine's report for the same design.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from shipyard.core.designfile import LoadedDesign, load_design, save_design
from shipyard.core.evaluate import evaluate
from shipyard.core.report import Report
from shipyard.render.printing import print_designs
from shipyard.render.worker import RenderWorker
from shipyard.rulesets import space_fury as sf

from .test_printing import A4, LETTER, page_sizes_mm, pages_text
from .test_space_fury import EXPECTED, FURY_EXAMPLES, FURY_SAMPLES, fury


def printed(files: list[Path], out: Path, workers: list[RenderWorker], **options: Any) -> list[str]:
    """Print ``files`` to ``out`` and return each page's text."""
    result = print_designs(files, out, workers=workers, use_user_folder=False, **options)
    text = pages_text(out)
    assert result.pages == len(text)
    return text


def samples() -> list[Path]:
    return [FURY_EXAMPLES / f"{n}.ship" for n in FURY_SAMPLES]


def report_of(file: Path, preset: str | None = None) -> Report:
    loaded = load_design(file, preset=preset, use_user_folder=False)
    return evaluate(loaded.design, loaded.catalog)


def figures(report: Report) -> dict[str, Any]:
    return {f.id: f.value for f in report.derived.figures}


def rows(report: Report, table_id: str) -> list[list[Any]]:
    t = report.derived.table(table_id)
    return t.rows if t else []


def signed(n: int) -> str:
    return f"{n:+d}"


def save(design: sf.SpaceFuryDesign, out: Path) -> Path:
    catalog = fury()
    save_design(LoadedDesign(None, "space-fury", "as-written", design, catalog), out)
    return out


@pytest.fixture(scope="module")
def extra_designs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A rolled fighter crewed by a rolled pilot, a level 10 pilot, and a skirmish side."""
    folder = tmp_path_factory.mktemp("fury-designs")
    catalog = fury()
    pilot = sf.roll_pilot(catalog, 7, xp=20, name="Kim")
    crewed = sf.crew(sf.roll_fighter(catalog, 5, 42), pilot)
    ace = sf.roll_pilot(catalog, 11, level=10, name="Commander Hayes-Montgomery")
    side = sf.skirmish(catalog, 3).sides[1]
    return {
        "crewed": save(crewed, folder / "crewed.ship"),
        "pilot": save(pilot, folder / "kim.ship"),
        "ace": save(ace, folder / "ace.ship"),
        "side": save(side, folder / "side-b.ship"),
    }


@pytest.mark.parametrize(("paper", "size", "preset"), [("a4", A4, "as-written"), ("letter", LETTER, "sample-fighters")])
def test_a_record_sheet_per_sample_with_every_figure(
    paper: str, size: tuple[float, float], preset: str, tmp_path: Path, workers: list[RenderWorker]
) -> None:
    out = tmp_path / "samples.pdf"
    result = print_designs(samples(), out, paper=paper, preset=preset, workers=workers, use_user_folder=False)
    assert result.pages == 10 and page_sizes_mm(out) == [size] * 10
    for name, text in zip(FURY_SAMPLES, pages_text(out), strict=True):
        report = report_of(FURY_EXAMPLES / f"{name}.ship", preset)
        f = figures(report)
        published, by_preset = EXPECTED[name]
        count, cost = by_preset[preset]
        assert f"{report.name} " in text
        assert f"Cost {cost} points · {count} enhancements" in text
        assert f"The source publishes {published}." in text
        design = load_design(FURY_EXAMPLES / f"{name}.ship", use_user_folder=False).design.root
        assert f"Published: {design.published.systems} ({published} enhancements)" in text
        assert f"SPEED {f['speed']} " in text
        for stat in ("maneuver", "armor", "tohit"):
            assert f"{stat.upper()} {signed(f[stat])} " in text, stat
        for row in rows(report, "weapons"):
            weapon, n, mount, rng, dmg, hit = row[:6]
            assert f"{weapon} {n} {mount} {rng} {dmg} {hit}" in text, row
        for item in report.derived.figure("enhancements").parts:  # what counted, line by line
            assert f"{item.label} {'-' if item.kind == 'gain' else ''}{item.amount}" in text, item.label
        assert f"Enhancements {count} " in text
        assert f"Detection {f['detection']} on D10, {f['detection-range']} hexes" in text
        assert f"Seats {f['seats']} " in text and f"Fuel {f['fuel']} days" in text
        for row in rows(report, "systems"):
            assert row[0] in text
        assert "Critical Damage Table" in text and "9+ Ship Explodes" in text


def test_a_crewed_fighters_sheet_shows_its_pilot_and_roll_log(
    extra_designs: dict[str, Path], tmp_path: Path, workers: list[RenderWorker]
) -> None:
    (text,) = printed([extra_designs["crewed"]], tmp_path / "crewed.pdf", workers, paper="a4")
    f = figures(report_of(extra_designs["crewed"]))
    assert f"Cost 35 points · 5 enhancements · with pilot {f['total-cost']}" in text and f["total-cost"] == 55
    assert f"Kim Level {f['level']} · {f['reputation']} {f['xp']} XP" in text
    assert f"Cool {f['cool']} " in text and f"Skills {f['skill-list']} " in text and f"Quirks {f['quirk-list']}" in text
    assert "Rolled seed 42, 5 rolls on the tables" in text
    assert "1 Primary 2 → Engines" in text and "5 Primary 4 → Missile Rack" in text
    assert "SPEED 5 Standard Engine 4, Engines +1; pilot Speed +1" in text


def test_a_pilot_record_shows_level_xp_cool_skills_quirks_and_panic(
    extra_designs: dict[str, Path], tmp_path: Path, workers: list[RenderWorker]
) -> None:
    files = [extra_designs["pilot"], extra_designs["ace"]]
    pages = printed(files, tmp_path / "pilots.pdf", workers, paper="letter")
    assert len(pages) == 2
    for file, text in zip(files, pages, strict=True):
        report = report_of(file)
        f = figures(report)
        assert f"{f['pilot']} PILOT Cost {f['pilot-cost']} points ({f['xp']} XP)" in text
        assert f"LEVEL {f['level']} " in text and f"EXPERIENCE {f['xp']} " in text
        assert f"REPUTATION {f['reputation']} skills {f['skills-allowed']}" in text and f"COOL {f['cool']} " in text
        for skill, levels, notes in rows(report, "skills"):
            assert f"{skill} {levels} {notes}" in text
        for quirk, d100, description in rows(report, "quirks"):
            assert f"{quirk} D100 {d100} {description}" in text
        for modifier, value, *_ in rows(report, "modifiers"):
            assert f"{modifier} {value} " in text
        assert "PANIC TABLE" in text and "10 Help! A nearby friendly ship" in text
    assert "REPUTATION Elite skills 10 of 10" in pages[1]


def test_a_force_roster_lists_every_fighter_and_pilot(
    extra_designs: dict[str, Path], tmp_path: Path, workers: list[RenderWorker]
) -> None:
    (text,) = printed([extra_designs["side"]], tmp_path / "side.pdf", workers, paper="a4")
    report = report_of(extra_designs["side"])
    f = figures(report)
    assert f"Total cost {f['total-cost']} points" in text
    assert f"FIGHTERS {f['fighters']} PILOTS {f['pilots']} PILOT LEVELS {f['pilot-levels']} of 11 levels worth" in text
    for row in rows(report, "roster"):
        cells = [str(c) for c in row]
        assert " ".join(cells) in text, row
    for member in report.forms:
        mf = figures(member)
        assert f"{mf['pilot']}: level {mf['level']}, Cool {mf['cool']}; {mf['skill-list']}" in text
    assert "CRITICAL DAMAGE TABLE" in text and "PANIC TABLE" in text
    assert "1 Skirmishes 2 → row 2" in text


def test_a_force_of_200_fighters_and_200_reserves_lists_every_member(
    tmp_path: Path, workers: list[RenderWorker]
) -> None:
    """Issue 25's large force: its roster, reserves and In battle table run over many
    pages, and none of its 200 fighters, their pilots or the 200 reserve pilots is left out."""
    import json
    import re

    from .largest import fury_force

    doc = fury_force(200)
    path = tmp_path / "force.ship"
    path.write_text(json.dumps(doc))
    text = " ".join(printed([path], tmp_path / "force.pdf", workers, paper="a4"))
    for fighter in doc["design"]["fighters"]:
        # the roster and the In battle table each name the fighter (not "... 1" inside "... 10")
        assert len(re.findall(re.escape(fighter["name"]) + r"(?!\d)", text)) >= 2, fighter["name"]
    assert {int(n) for n in re.findall(r"Pilot (\d+)\b", text)} == set(range(1, 201))
    assert {int(n) for n in re.findall(r"Reserve (\d+)\b", text)} == set(range(1, 201))


def test_cards_nine_a_page_fighters_and_their_pilots(
    extra_designs: dict[str, Path], tmp_path: Path, workers: list[RenderWorker]
) -> None:
    files = [*samples(), extra_designs["crewed"], extra_designs["pilot"], extra_designs["side"]]
    out = tmp_path / "cards.pdf"
    # 10 sample fighters, the crewed fighter and its pilot, a pilot, 3 crewed fighters and their pilots
    cards = 10 + 2 + 1 + 6
    result = print_designs(files, out, sheet="cards", paper="a4", workers=workers, use_user_folder=False)
    assert result.pages == math.ceil(cards / 9) == 3 and page_sizes_mm(out) == [A4] * 3
    text = " ".join(pages_text(out))
    assert text.upper().count("CRITICAL DAMAGE TABLE") == 10 + 1 + 3
    assert text.upper().count("PANIC TABLE") == 1 + 1 + 3
    for file in files[:11]:
        f = figures(report_of(file))
        assert f"Fighter · {f['enhancements']} enh. · {f['cost']} pts" in text
        stats = f"{f['speed']} {signed(f['maneuver'])} {signed(f['armor'])} {signed(f['tohit'])} {f['shields']}"
        assert f"SPEED MAN. ARMOR TOHIT SHIELDS {stats}" in text, file.name
    for member in report_of(extra_designs["side"]).forms:
        f = figures(member)
        assert (
            f"{member.name} Fighter · {f['enhancements']} enh. · {f['cost']} pts · with pilot {f['total-cost']}" in text
        )
        assert f"{f['pilot']} Pilot · {f['xp']} XP · {f['pilot-cost']} pts · flies {member.name}" in text
        assert f"LEVEL REPUTATION COOL XP {f['level']} {f['reputation']} {f['cool']} {f['xp']}" in text
    heavy = report_of(FURY_EXAMPLES / "heavy-bomber.ship")
    assert "1× Laser turret · Rng 5 · Dmg +0 · Hit +0" in text and heavy.valid
    assert "4× Nuclear Missile · Spd 6 Man +4 · Dmg +25 · Hit +1" in text


def test_cards_fill_every_page_but_the_last_when_a_design_has_two(
    extra_designs: dict[str, Path], tmp_path: Path, workers: list[RenderWorker]
) -> None:
    """A crewed fighter gets two cards: 1 x 2 + 9 x 1 = 11 cards are two pages, not three."""
    assert len(workers) == 2  # the print could be split between them
    out = tmp_path / "cards.pdf"
    files = [extra_designs["crewed"], *samples()[:9]]
    result = print_designs(files, out, sheet="cards", paper="a4", workers=workers, use_user_folder=False)
    assert result.pages == 2
    first, second = pages_text(out)
    assert first.upper().count("CRITICAL DAMAGE TABLE") == 8 and second.upper().count("CRITICAL DAMAGE TABLE") == 2


def test_a_fleet_book_has_cover_contents_sheets_and_combat_charts(
    extra_designs: dict[str, Path], tmp_path: Path, workers: list[RenderWorker]
) -> None:
    files = [*samples()[:3], extra_designs["side"], extra_designs["pilot"]]
    out = tmp_path / "fleet.pdf"
    result = print_designs(
        files, out, sheet="fleet", paper="letter", title="Red squadron", workers=workers, use_user_folder=False
    )
    text = pages_text(out)
    assert "Red squadron 5 designs · preset As written" in text[0] and "Every design passes the rules." in text[0]
    assert result.starts == [3, 4, 5, 6, 7]
    contents = text[1]
    for file, page in zip(files, result.starts, strict=True):
        assert f"{report_of(file).name} passes {page}" in contents
    appendix = " ".join(text[7:])
    assert "Combat charts 8" in contents and len(text) == result.pages > 8
    for chart in (
        "TO HIT TABLE",
        "DAMAGE TABLE",
        "CRITICAL DAMAGE TABLE",
        "BASIC SYSTEM DESTROYED TABLE",
        "PANIC TABLE",
    ):
        assert chart in appendix, chart
    assert "Nuclear Missile — +25 +1 Speed 6, Maneuver +4" in appendix
    assert page_sizes_mm(out) == [LETTER] * result.pages
