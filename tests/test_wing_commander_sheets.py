"""Wing Commander sheets: every figure of every sample read back from the PDF's text (pypdfium2)
on A4 and Letter, a tick box per missile and a box per point of durability, nine cards a page,
and the fleet book with its maneuver and altitude reference."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from shipyard.core.report import Report
from shipyard.render.printing import print_designs
from shipyard.render.worker import RenderWorker

from .conftest import call_shipyard
from .sheets import cards_printed, is_notes_page, report_of, sheet_html
from .test_printing import A4, LETTER, page_sizes_mm, pages_text
from .test_wing_commander import CORPUS, EXAMPLES, SAMPLES, catalog


def files() -> list[Path]:
    return [EXAMPLES / f"{n}.ship" for n in SAMPLES]


def step(n: int) -> str:
    return f"{n:+d}" if n else "0"


def row_text(cells: list[Any]) -> str:
    return " ".join(str(c) for c in cells if c != "")


def expected_on_the_sheet(d: Any, report: Report) -> list[str]:
    f = {fig.id: fig for fig in report.derived.figures}
    t = {tab.id: tab for tab in report.derived.tables}
    out = [
        f"{d.name} {d.ship_class} FIGHTER DRV {step(d.drv)} · Acceleration {d.acceleration} · "
        f"Afterburner {d.afterburner or 'none'}",
        f"DEX {d.pilot.dex} RESISTANCE {step(f['resistance_modifier'].value)} ACTION CHECK {f['action_check'].value}",
        f"DRV {step(d.drv)} applies as a {step(d.drv)} step modifier",
        f"{f['free_decoys'].value} free per round = ",
        f"+{f['decoys_per_action'].value} for each action spent, that round only",
        f"MISSILE LOADOUT ({f['missiles_carried'].value} MISSILES)",
        f"Slide System {'yes' if d.slide_system else 'no'} Automated turrets {d.turrets or 'none'}",
        f"roll Gunnery {d.pilot.skills['gunnery']}",
        f"preset {report.preset_name}",
    ]
    out += [f"{p.amount} ({p.label})" for p in f["free_decoys"].parts]
    out += [" · ".join(f"{k.capitalize()} {v}" for k, v in d.pilot.skills.items())]
    out += [row_text(row) for row in t["guns"].rows]
    out += [f"Linked {r[0]}: {r[1]} {r[2]} {r[3]} {r[4]} {r[5]} one attack roll {r[6]}" for r in t["link_groups"].rows]
    for r in t["missiles"].rows:
        out.append(f"{r[0]}. {r[1]} {r[3]} {r[4]} {r[5]} {r[6]} {r[2]} {r[7]}")
    for n in range(1, len(d.compartments) + 1):
        c = f[f"compartment.{n}"].value
        out.append(f"{c['compartment']} durability {c['durability']} · space {c['space']} (counts as {c['counts_as']})")
        for comp in c["components"]:
            same = comp["counts_as"] == comp["space"]
            out.append(
                f"{comp['number']} {comp['name']} {comp['space']}" + ("" if same else f" (as {comp['counts_as']})")
            )
    out.append(f["component_failures"].value)
    for a in report.derived.actions:
        if a.group != "Decoys":
            out.append(
                f"{a.name} {a.details['When']} {a.details['Cost']} " + ("yes" if a.allowed else f"no — {a.reason}")
            )
    out += ["Moderate piloting check +1 change altitude 2 levels", "Extreme piloting check +3 Loop and Turn"]
    out += ["5 altitude levels; guns reach 1 level up or down. Change 1 level: Routine; 2 levels: Moderate"]
    return out


@pytest.mark.parametrize(("paper", "size"), [("a4", A4), ("letter", LETTER)])
def test_every_sample_prints_on_one_page_with_every_figure(
    paper: str, size: tuple[float, float], tmp_path: Path, workers: list[RenderWorker]
) -> None:
    out = tmp_path / "records.pdf"
    result = print_designs(files(), out, paper=paper, workers=workers, use_user_folder=False)
    assert result.pages == len(SAMPLES) and result.starts == list(range(1, len(SAMPLES) + 1))
    assert page_sizes_mm(out) == [size] * len(SAMPLES)
    for file, text in zip(files(), pages_text(out), strict=True):
        d, report = report_of(file)
        missing = [e for e in expected_on_the_sheet(d, report) if e not in text]
        assert missing == [], f"{file.name} on {paper}: missing {missing}\n{text}"


def test_the_piranha_sheet_shows_the_texts_example_worked_out(tmp_path: Path, workers: list[RenderWorker]) -> None:
    out = tmp_path / "piranha.pdf"
    print_designs([EXAMPLES / "piranha.ship"], out, paper="a4", workers=workers, use_user_folder=False)
    (text,) = pages_text(out)
    assert (
        "3 free per round = 1 (every ship) + 1 (DRV -3 bonus: 3/2 rounded down) + 1 (DEX 11 resistance modifier +1)"
        in text
    )


@pytest.mark.parametrize("name", SAMPLES)
def test_a_tick_box_per_missile_and_a_box_per_point_of_durability(name: str) -> None:
    html = sheet_html(EXAMPLES / f"{name}.ship")
    d, _ = report_of(EXAMPLES / f"{name}.ship")
    for n, m in enumerate(d.missiles, 1):
        assert len(re.findall(rf'data-field="missiles\.{n}\.\d+"', html)) == m.count, m.name
    for n, c in enumerate(d.compartments, 1):
        assert len(re.findall(rf'data-field="durability\.{n}\.\d+"', html)) == c.durability, c.name


def test_a_heavy_record_still_fits_one_letter_page(tmp_path: Path, workers: list[RenderWorker]) -> None:
    doc = json.loads((EXAMPLES / "rapier.ship").read_text())
    d = doc["design"]
    d["name"] = "Heavy test carrier-killer with a long name"
    d["guns"] += [{**g, "name": g["name"] + " II"} for g in d["guns"]] + [{**d["guns"][0], "link_group": None}]
    d["missiles"] += [{**m, "name": m["name"] + " II"} for m in d["missiles"]]
    d["compartments"] += [{**c, "name": c["name"] + " aft"} for c in d["compartments"]]
    heavy = tmp_path / "heavy.ship"
    heavy.write_text(json.dumps(doc))
    out = tmp_path / "heavy.pdf"
    result = print_designs([heavy], out, paper="letter", workers=workers, use_user_folder=False)
    # the sheet is one page; the denser layout has no Notes box, so the notes follow, whole
    assert result.pages == 2
    text, notes = pages_text(out)
    assert is_notes_page(notes) and not is_notes_page(text)
    assert notes.startswith("NOTES OF HEAVY TEST CARRIER-KILLER WITH A LONG NAME ")
    assert " ".join(d["notes"].split()) in notes
    assert "Linked B: 1 x Neutron gun + 1 x Mass driver + 1 x Neutron gun II + 1 x Mass driver II +1 3 6 9" in text
    assert "6. Friend-or-foe II 0 12 1" in text and "Extreme: piloting check, +3 steps" in text


@pytest.mark.parametrize(("count", "pages", "paper", "size"), [(9, 1, "a4", A4), (10, 2, "letter", LETTER)])
def test_nine_stat_cards_a_page(
    count: int, pages: int, paper: str, size: tuple[float, float], tmp_path: Path, workers: list[RenderWorker]
) -> None:
    printed, out = cards_printed(tmp_path, files(), count, paper, workers)
    assert printed == pages and page_sizes_mm(out) == [size] * pages
    texts = pages_text(out)
    assert [sum(t.count(f"Wing {i + 1:02d} ") for i in range(count)) for t in texts] == [9, count - 9][:pages]
    text = " ".join(texts)
    for i in range(count):
        d, report = report_of(files()[i % len(SAMPLES)])
        f = {fig.id: fig.value for fig in report.derived.figures}
        assert f"Decoys {f['free_decoys']} free / round · +{f['decoys_per_action']} per action" in text
        assert f"{step(d.drv)} {d.acceleration} {d.afterburner} {d.pilot.dex} {d.pilot.action_check}" in text


def test_the_fleet_book_ends_with_the_maneuver_and_altitude_reference(
    tmp_path: Path, workers: list[RenderWorker]
) -> None:
    out = tmp_path / "fleet.pdf"
    result = print_designs(
        files(), out, sheet="fleet", paper="a4", workers=workers, use_user_folder=False, title="Black Lance"
    )
    texts = pages_text(out)
    assert texts[0].startswith("WING COMMANDER (ALTERNITY) Black Lance 6 designs · preset As written")
    assert "Every design passes the rules." in texts[0]
    assert texts[1].startswith("Contents") and "Maneuver, altitude and play reference 9" in texts[1]
    assert result.starts == [3, 4, 5, 6, 7, 8]
    assert len(texts) == 9  # the reference fits one page
    reference = texts[8]
    cat = catalog()
    for m in cat.kind("maneuvers").values():
        assert m.name in reference
    assert (
        "1 level Routine 2 levels Moderate any level the Extreme maneuver Loop and Turn may end on any level"
        in reference
    )
    assert (
        "The field has 5 altitude levels. Guns shoot only at targets 1 level above or below the attacker." in reference
    )
    assert "DEX 4 OR LESS 5-6 7-10 11-12 13-14 15-16 17-18 19-20 Modifier -2 -1 0 +1 +2 +3 +4 +5" in reference
    for note in cat.kind("reference").values():
        assert note.name in reference, note.name


def test_printing_a_broken_file_exits_2_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "bad.pdf"
    proc = call_shipyard(
        "print",
        CORPUS / "wc-negative-gun-count.ship",
        "-o",
        out,
        "--no-user-catalog",
        env={"XDG_DATA_HOME": str(tmp_path)},
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "at design.guns[0].count" in proc.stderr
    assert not out.exists() and list(tmp_path.glob("*.pdf")) == []


def test_the_print_command_prints_a_record_that_breaks_a_rule(tmp_path: Path) -> None:
    out = tmp_path / "one.pdf"
    proc = call_shipyard("print", CORPUS / "wc-link-group-of-one.ship", "-o", out, "--no-user-catalog")
    assert proc.returncode == 0, proc.stderr
    (text,) = pages_text(out)
    assert "DOES NOT PASS — 2 rules broken" in text
    assert "link group 'A' has 1 gun; linked guns are 2 or more (link-group-too-small;" in text
