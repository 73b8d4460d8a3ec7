"""Future Perfect sheets: a one-page record sheet per ship (A4 and Letter), nine stat cards a
page, a fleet book. Every figure of the report is read back from the PDF's text (pypdfium2);
the tick boxes from the sheet's HTML, where each box names its place."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from shipyard.core.report import Report
from shipyard.render.printing import print_designs
from shipyard.render.worker import RenderWorker

from .sheets import box_fields, card_slot, cards_printed, inside, placed_words, report_of, sheet_html
from .test_future_perfect import FP_EXAMPLES, FP_SAMPLES
from .test_printing import A4, LETTER, page_sizes_mm, pages_text


def samples() -> list[Path]:
    return [FP_EXAMPLES / f"{n}.ship" for n in FP_SAMPLES]


def shown(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


def expected_on_sheet(design: Any, report: Report) -> list[str]:
    """What a GM reads on the record sheet of ``design``: every figure, in the words the
    sheet prints it with, and every row of the tables it carries."""
    f = {x.id: x.value for x in report.derived.figures}
    d = design
    per = f"{f['base_defense_successes']} success" + ("es" if f["base_defense_successes"] != 1 else "")
    out = [
        d.name,
        d.class_.upper(),
        f"AP {d.ap} · Power rating {d.power_rating} · Size {d.size} · Speed {d.speed}",
        f"AP {f['ap']} each round",
        f"POWER RATING {f['power_rating']} generates {f['power_rating']} power each round",
        f"SIZE {f['size']} {per} per +1 base defense",
        f"SPEED {f['speed']} initiative tie-break",
        f"DEFENSE TN {f['defense_tn']}",
        f"Stored {f['power_bank']} of {f['bank_capacity']}",
        f"this round {f['power_available']}",
        f"Defense TN {f['defense_tn']} from 5, -1 per Evasive maneuvers, minimum 2",
        f"Base defense +1 per {per}",
        f"Restore power TN {f['restore_power_tn']} 1 power to the bank",
        f"Augment system TN {f['augment_tn']} 1 AP for that system next round",
        f"Initiative ties: {f['initiative_ties']}.",
        "1. APs bid; 2. Speed value; 3. The helmsman's Acuity; 4. An opposed card draw",
        "1 Initiative",
        "4 Auxiliary",
        "passes · page",
        f"preset As written · {d.name}",
    ]
    out += [f"{x.label} {x.value}" for x in report.derived.figures if x.id.startswith("modulation_tn.")]
    repair = [f"level {level}: {tn}" for level, tn in report.derived.table("repair_tn").rows]
    out.append("Repair TN " + ", ".join(repair))
    out += [str(f["commander"]), str(f["helmsman"])]
    for row in report.derived.table("systems").rows:
        name, kind, shield, _, _, status, repair_now = row
        out.append(" ".join(str(c) for c in (name, kind, shield) if c != ""))
        out.append(f"{status} {repair_now}".strip() if repair_now else status)
    for name, system, grade, fire, status in report.derived.table("weapons").rows:
        out.append(f"{name} {system} {grade} {fire} AP {status}")
    for name, role, skill, rating, acuity in report.derived.table("crew").rows:
        out.append(f"{name} {role} {skill} {rating} {acuity}".strip())
    for role in ("helm", "tactical", "engineering"):
        table = report.derived.table(f"ap_costs.{role}")
        title = table.title.replace(" AP costs", "")
        refused = {a.name: a.reason for a in report.derived.actions if not a.allowed and a.group == title}
        whole = len(refused) == len(table.rows) and len(set(refused.values())) == 1  # said once: nobody there
        if whole:
            out.append(f"Not now: {next(iter(refused.values()))}")
        for action, ap, _ in table.rows:  # one it cannot take now says why
            said = action in refused and not whole
            out.append(f"{action} not now: {refused[action]} {ap} AP" if said else f"{action} {ap} AP")
    if d.plan is not None:
        p = d.plan
        out.append(
            "BID HELM TACTICAL ENGINEERING NOT ALLOCATED "
            f"{p.initiative} {p.helm} {p.tactical} {p.engineering} {f['ap_unallocated']}"
        )
        out.append(f"{f['ap_available']} to allocate")
        out.append(
            f"Bid {f['initiative_bid']} of {d.ap} AP; {f['ap_available']} to allocate, {f['ap_allocated']} allocated."
        )
        out.append(f"Plan: {f['power_used']} power used, {f['power_left']} left.")
        for row in report.derived.table("plan").rows:
            out.append(" ".join(str(c) for c in row))
        for r in ("helm", "tactical", "engineering"):
            assert f"ap_left.{r}" in f
        for row in report.derived.table("plan_actions").rows:
            out.append(" ".join(str(c) for c in row if c != ""))
    return out


@pytest.mark.parametrize(("paper", "size"), [("a4", A4), ("letter", LETTER)])
def test_a_record_sheet_per_sample_with_every_figure(
    paper: str, size: tuple[float, float], tmp_path: Path, workers: list[RenderWorker]
) -> None:
    out = tmp_path / "samples.pdf"
    result = print_designs(samples(), out, paper=paper, workers=workers, use_user_folder=False)
    assert result.pages == 4 and result.starts == [1, 2, 3, 4]
    assert page_sizes_mm(out) == [size] * 4
    for file, text in zip(samples(), pages_text(out), strict=True):
        design, report = report_of(file)
        missing = [e for e in expected_on_sheet(design, report) if e not in text]
        assert missing == [], f"{file.name}: missing on the sheet: {missing}\n{text}"
        # every figure's value is on the page (the phrases above say where)
        assert [x.id for x in report.derived.figures if shown(x.value) not in text] == []


def test_an_action_the_ship_cannot_take_now_says_so_on_the_sheet_as_check_does() -> None:
    """The damaged frigate's torpedo bay is disabled: `shipyard check` says "no" to firing its
    secondary weapon, and the sheet's Tactical panel listed that action at 2 AP like any other."""
    file = FP_EXAMPLES / "damaged-frigate.ship"
    _, report = report_of(file)
    refused = [a for a in report.derived.actions if not a.allowed]
    assert [a.name for a in refused] == ["Fire secondary weapon system"]
    html = sheet_html(file)
    for action in refused:
        assert (
            f'<tr class="refused"><td>{action.name} <span class="why">not now: {action.reason}</span>'
            in html.replace("&#39;", "'")
        )
    assert html.count('class="refused"') == len(refused)  # the actions it can take say nothing more
    assert 'class="refused"' not in sheet_html(FP_EXAMPLES / "frigate.ship")


def test_a_ship_with_nobody_at_a_station_says_so_once_for_its_actions(tmp_path: Path) -> None:
    """A new ship has no crew: every action of Helm, Tactical and Engineering is refused for
    one reason, said once under each panel's title rather than beside each of its actions,
    and the sheet stays one page."""
    from .conftest import call_shipyard

    ship, pdf = tmp_path / "empty.ship", tmp_path / "empty.pdf"
    assert (
        call_shipyard("new", "Empty Deck", "--kind", "ship", "--ruleset", "future-perfect", "-o", ship).returncode == 0
    )
    _, report = report_of(ship)
    assert not any(a.allowed for a in report.derived.actions if a.group in ("Helm", "Tactical", "Engineering"))
    html = sheet_html(ship)
    for role in ("Helm", "Tactical", "Engineering"):
        assert html.count(f'<div class="why none">Not now: no one in {role}</div>') == 1
    assert "not now:" not in html  # no reason repeated beside an action
    assert call_shipyard("print", ship, "-o", pdf).returncode == 0
    (text,) = pages_text(pdf)
    assert "does not pass · page 1" in text  # it has no Command either
    missing = [e for e in expected_on_sheet(*report_of(ship)) if e not in text and e != "passes · page"]
    assert missing == [], missing


def _boxes(html: str, field: str) -> list[bool]:
    """The tick boxes of one track, in order: True where the box is ticked."""
    found = re.findall(r'<span class="chk( on)?" data-field="' + re.escape(field) + r'\.(\d+)"', html)
    return [on == " on" for on, _ in sorted(found, key=lambda m: int(m[1]))]


def test_the_power_bank_and_each_systems_damage_are_tick_boxes() -> None:
    html = sheet_html(FP_EXAMPLES / "damaged-frigate.ship")
    # bank 1 of a capacity of 6 (twice the Power rating 3)
    assert _boxes(html, "power.bank") == [True, False, False, False, False, False]
    # Engines: 1 core, 1 ephemeral; the Torpedo bay every box (disabled)
    assert _boxes(html, "systems.1.core") == [True, False, False]
    assert _boxes(html, "systems.1.ephemeral") == [True, False, False]
    assert _boxes(html, "systems.3.core") == [True] * 3 and _boxes(html, "systems.3.ephemeral") == [True] * 3
    # the cruiser's vital systems have 4 levels
    cruiser = sheet_html(FP_EXAMPLES / "cruiser.ship")
    assert _boxes(cruiser, "systems.0.core") == [False] * 4 and _boxes(cruiser, "systems.3.core") == [False] * 3
    assert len(_boxes(cruiser, "power.bank")) == 12


def _frigate(tmp_path: Path, name: str, **changes: Any) -> Path:
    """The frigate with ``changes`` to its record (``bridge``: to its Bridge system)."""
    doc = json.loads((FP_EXAMPLES / "frigate.ship").read_text(encoding="utf-8"))
    doc["design"].update({k: v for k, v in changes.items() if k != "bridge"})
    doc["design"]["systems"][0].update(changes.get("bridge", {}))
    out = tmp_path / f"{name}.ship"
    out.write_text(json.dumps(doc), encoding="utf-8")
    return out


def _box_names(report: Report) -> list[str]:
    """The field name of every box of every track: box n (from 1) of track t is "t.n"."""
    return sorted(f"{t.id}.{n}" for t in report.derived.tracks for n in range(1, len(t.boxes) + 1))


LONG_TRACKS = {
    "bank": {"power_rating": 12, "power_bank": 20},
    "eight": {"bridge": {"core_levels": 8, "ephemeral_levels": 8, "ephemeral_damage": 8}},
    "twenty": {"bridge": {"core_levels": 20, "ephemeral_levels": 20, "ephemeral_damage": 20}},
}


@pytest.mark.parametrize("name", LONG_TRACKS)
def test_a_long_track_wraps_within_the_card(name: str, tmp_path: Path, workers: list[RenderWorker]) -> None:
    """The power bank and the systems' tracks were one row of boxes, however long: a bank of 24
    ran past the card's edge, a system of 8 levels showed about 5 of its ephemeral boxes.
    Every box of every track is on the card, inside it."""
    ship = _frigate(tmp_path, name, **LONG_TRACKS[name])
    out = tmp_path / "card.pdf"
    print_designs([ship], out, sheet="cards", paper="a4", fillable=True, workers=workers, use_user_folder=False)
    _, report = report_of(ship)
    fields = box_fields(out)
    assert sorted(fields) == _box_names(report)
    card = card_slot("a4", 0)
    assert [n for n, (page, at) in fields.items() if page != 0 or not inside(at, card)] == []


@pytest.mark.parametrize("name", LONG_TRACKS)
def test_a_long_track_wraps_within_its_box_on_the_record_sheet(
    name: str, tmp_path: Path, workers: list[RenderWorker]
) -> None:
    """A bank of 24 ran into the "AP this round" box beside it; systems of 20 levels pushed
    the Status and Repair TN columns off the page. Every box lies in its own box or column,
    on the page, and the columns after the tracks stay on it."""
    ship = _frigate(tmp_path, name, **LONG_TRACKS[name])
    out = tmp_path / "sheet.pdf"
    print_designs([ship], out, fillable=True, workers=workers, use_user_folder=False)
    fields = box_fields(out)
    _, report = report_of(ship)
    assert sorted(fields) == _box_names(report)
    words = placed_words(out)
    page_width = A4[0] * 72 / 25.4
    content = page_width - 10 * 72 / 25.4  # the right margin
    alloc = next(at for n, (_, at, w) in enumerate(words) if w == "AP" and words[n + 1][2] == "THIS")
    (top,) = [at[1] for _, at, w in words if w == "EPHEMERAL"]  # the systems' table's header
    header = {w: at for _, at, w in words if abs(at[1] - top) < 1}
    assert {"STATUS", "REPAIR", "TN"} <= header.keys() and all(at[2] <= content for at in header.values())
    status = header["STATUS"]
    for field, (page, at) in fields.items():
        assert at[2] <= content, field
        if field.startswith("power.bank."):
            assert page == 0 and at[2] < alloc[0], field
        else:
            assert at[2] < status[0], field


@pytest.mark.parametrize(("count", "pages", "paper", "size"), [(9, 1, "a4", A4), (10, 2, "letter", LETTER)])
def test_cards_nine_a_page(
    count: int, pages: int, paper: str, size: tuple[float, float], tmp_path: Path, workers: list[RenderWorker]
) -> None:
    printed, out = cards_printed(tmp_path, samples(), count, paper, workers)
    assert printed == pages and page_sizes_mm(out) == [size] * pages
    text = pages_text(out)
    assert [t.count("Future Perfect · As written") for t in text] == [9, count - 9][:pages]
    joined = " ".join(text)
    for i in range(count):
        assert f"Wing {i + 1:02d}" in joined
    # what a card says about the damaged frigate: defense TN after its plan, repair TNs
    design, _ = report_of(FP_EXAMPLES / "damaged-frigate.ship")
    assert f"AP POWER SIZE SPEED DEF TN {design.ap} {design.power_rating} {design.size} {design.speed} 3" in joined
    assert "Repair TN 5/7/9" in joined


def test_a_fleet_book_has_cover_contents_sheets_and_the_ap_cost_tables(
    tmp_path: Path, workers: list[RenderWorker]
) -> None:
    out = tmp_path / "fleet.pdf"
    result = print_designs(
        samples(), out, sheet="fleet", paper="a4", workers=workers, use_user_folder=False, title="Vigil Squadron"
    )
    text = pages_text(out)
    assert result.pages == len(text) == 1 + 1 + 4 + 1
    assert "Vigil Squadron" in text[0] and "Every design passes the rules." in text[0]
    for name in ("Kestrel", "Resolute", "Indomitable", "Far Horizon"):
        assert name in text[1]
    assert "AP cost tables and charts" in text[1]
    for name, sheet in zip(("Kestrel", "Resolute", "Indomitable", "Far Horizon"), text[2:6], strict=True):
        assert f"preset As written · {name}" in sheet
    appendix = text[6]
    for phrase in (
        "HELM AP COSTS",
        "Move 1 range band 2 Movement and Maneuver",
        "Jump to warp speed 6 Auxiliary",
        "Careful shot +1 Offense",
        "Target a specific system 4 Offense",
        "Augment system 4 Auxiliary",
        "Command Tactics Initiative",
        "INITIATIVE TIES 1. APs bid",
        "TACTICAL MAP A 4 x 4 grid",
    ):
        assert phrase in appendix, phrase
