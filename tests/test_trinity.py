"""Trinity vessels converted per Appendix 2: the table as data, each field with real numbers.

The example vessels in ``catalogs/trinity/examples/`` are fictional (no published Trinity
vessel data is at hand); together they exercise every row of the Appendix 2 table. Each
test below checks the converted numbers themselves, not only that something came out.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from shipyard.core.designfile import load_design, save_design
from shipyard.core.errors import InputError
from shipyard.core.evaluate import evaluate
from shipyard.core.findings import Severity
from shipyard.rulesets.space_fighter_alpha.statblock import export_statblock, holdable, import_statblock
from shipyard.rulesets.space_fighter_alpha.trinity import (
    ConversionResult,
    Scaled,
    convert_vessel,
    load_table,
    load_vessel,
    parse_vessel,
)

from .conftest import ROOT, call_shipyard, finding, sfa

EXAMPLES = ROOT / "catalogs" / "trinity" / "examples"
BAD = Path(__file__).resolve().parent / "data" / "trinity"
FILES = {
    "kestrel": "kestrel-hybrid-fighter.yaml",
    "drover": "drover-hybrid-transport.yaml",
    "wren": "wren-hybrid-shuttle.json",
    "anvil": "anvil-frigate.yaml",
    "bountiful": "bountiful-freighter.yaml",
}


def convert(name: str, **kw: Any) -> ConversionResult:
    vessel, _ = load_vessel(EXAMPLES / FILES[name])
    return convert_vessel(vessel, sfa(), **kw)


def note(result: ConversionResult, field: str) -> Any:
    hits = [n for n in result.notes if n.field == field]
    assert len(hits) == 1, (field, [n.field for n in result.notes])
    return hits[0]


def notes_of(result: ConversionResult, field: str) -> list[Any]:
    return [n for n in result.notes if n.field == field]


# --- the table is data, every row citing Appendix 2 ------------------------------------------


def test_the_table_cites_appendix_2_for_every_row() -> None:
    t = load_table()
    rows: list[Any] = [
        *t.vehicle_types,
        t.tech,
        *t.notes,
        *t.stats,
        t.cost,
        *t.soak_marks,
        *t.weapon_marks,
        t.weapons,
        *t.special_weapons,
    ]
    assert all("Appendix 2" in r.source for r in rows)
    assert [(r.vt, r.scale) for r in t.vehicle_types] == [
        ("Hybrid Fighter", "starfighter"),
        ("Hybrid Transport", "starfighter"),
        ("Hybrid Shuttle", "starship"),
        ("Frigate", "starship"),
        ("Freighter", "starship"),
    ]
    assert t.cost.points_per_resource == {"starfighter": 30, "starship": 15}
    assert [(s.name, s.scale) for s in t.special_weapons] == [
        ("Smart Missiles", "starship+1"),
        ("Fusion Warheads", "starship+4"),
    ]
    assert {a.stat: a.value for a in t.assumed} == {"structure": 10, "power": 5, "crew": None}


# --- each example, field by field ------------------------------------------------------------


def test_kestrel_hybrid_fighter() -> None:
    r = convert("kestrel")
    d = r.design
    assert (d.name, d.scale, d.concept) == (
        "Kestrel-9 Interceptor",
        "starfighter",
        "Hybrid Fighter converted from Trinity",
    )
    assert (d.move, d.handling, d.soak, d.structure, d.power, d.crew) == (4, 2, 3, 10, 5, 1)
    assert (note(r, "VT").status, note(r, "VT").value) == ("converted", "Starfighter scale")
    assert (note(r, "VS (Vacuum Speed)").original, note(r, "VS (Vacuum Speed)").value) == ("4", "Move 4")
    assert note(r, "Handling").value == "Handling 2"
    assert (note(r, "Soak").original, note(r, "Soak").value) == ("3 [5]", "Soak 3")
    assert (note(r, "Soak mark").status, note(r, "Soak mark").message) == ("converted", "agrees with the VT")
    cost = note(r, "Cost (construction points)")
    assert (cost.status, cost.original, cost.value) == ("converted", "240 CP", "Resources 8")
    assert "240 / 30 construction points per point at Starfighter scale, rounded up" in cost.message
    for field, value in [("Tech", "Hardtech"), ("CS (Cruising Speed)", "1,800 kph"), ("TS (Top Speed)", "9,000 kph")]:
        assert (note(r, field).status, note(r, field).original) == ("note", value)
    assert (note(r, "Mass").original, note(r, "Tolerance").original) == ("14 tons", "6")
    # [5] weapon at the vessel's own scale: a custom weapon, Damage = Accuracy 2 + Damage 6
    (laser,) = d.custom_weapons
    assert (laser.name, laser.count, laser.damage, laser.speed, laser.scale, laser.cost) == (
        "Twin Pulse Laser",
        1,
        8,
        0,
        None,
        0,
    )
    assert laser.notes == "Trinity: Accuracy 2 + Damage 6 = +8 [5]; range 2 km (no conversion)"
    # Smart Missiles: one scale above Starship, so larger than a Starfighter: custom technology
    (missiles,) = d.custom_technology
    assert (missiles.name, missiles.scale, missiles.cost) == ("Smart Missile Rack (x2)", "starship+1", 0)
    assert missiles.description.startswith("Damage +13, Speed +0. Trinity: Accuracy 3 + Damage 10 = +13 [10]")
    smart = note(r, "weapons[1] Smart Missile Rack")
    assert smart.value == "custom technology at Starship + 1 scale: Damage +13, Speed +0, 0 Power Points"
    assert "recognised as Smart Missiles: Starship + 1 scale (its mark [10] does not decide)" in smart.message


def test_drover_hybrid_transport_clamps_vs_and_reports_the_soak_conflict() -> None:
    r = convert("drover")
    d = r.design
    assert (d.scale, d.move, d.handling, d.soak, d.crew) == ("starfighter", 5, -1, 2, 1)
    vs = note(r, "VS (Vacuum Speed)")
    assert (vs.status, vs.original, vs.value) == ("conflict", "7", "Move 5")
    assert vs.message == "7 is outside the Move range 0 to 5; clamped to 5"
    mark = note(r, "Soak mark")
    assert (mark.status, mark.original, mark.value) == ("conflict", "[10]", "Starfighter scale")
    assert "VT 'Hybrid Transport' says Starfighter but the Soak mark [10] says Starship; the VT decides" in mark.message
    assert note(r, "Cost (construction points)").value == "Resources 4"  # 95 / 30 = 3.17, rounded up
    assert note(r, "Tech").original == "Organic"
    # a weapon without a scale mark takes the vessel's scale, and the report says it was assumed
    (flinger,) = d.custom_weapons
    assert (flinger.damage, flinger.scale) == (5, None)
    assumed, converted = notes_of(r, "weapons[0] Spore Flinger")
    assert (assumed.status, assumed.value) == ("assumed", "Starfighter scale")
    assert converted.status == "converted"


def test_wren_hybrid_shuttle_from_json() -> None:
    r = convert("wren")
    d = r.design
    assert (d.scale, d.move, d.handling, d.soak, d.structure, d.power) == ("starship", 2, 0, 2, 10, 5)
    assert d.crew == 10  # the guideline minimum: equal to Structure
    assert note(r, "Crew").message.endswith("(= structure 10)")
    assert note(r, "Cost (construction points)").value == "Resources 7"  # 100 / 15 = 6.67, rounded up
    assert note(r, "Soak mark").status == "converted"
    assert d.custom_weapons == [] and d.custom_technology == []
    assert (note(r, "Weapons").original, note(r, "Weapons").value) == ("none", "none")


def test_anvil_frigate_every_weapon_scale() -> None:
    r = convert("anvil")
    d = r.design
    assert (d.scale, d.move, d.handling, d.soak) == ("starship", 3, -5, 5)
    handling = note(r, "Handling")
    assert (handling.status, handling.message) == (
        "conflict",
        "-6 is outside the Handling range -5 to 5; clamped to -5",
    )
    soak = note(r, "Soak")
    assert (soak.status, soak.message) == ("conflict", "8 is outside the Soak range 0 to 5; clamped to 5")
    assert note(r, "Cost (construction points)").value == "Resources 80"  # 1200 / 15
    assert [(w.name, w.count, w.damage, w.scale) for w in d.custom_weapons] == [
        ("Mass Driver", 1, 13, None),  # [10]: Starship, as the vessel
        ("Spinal Lance", 1, 9, None),  # [20]: "[10] or higher" is Starship too
        ("Flak Battery", 4, 7, "starfighter"),  # [5] on a Starship: an out-of-scale component
    ]
    flak = note(r, "weapons[2] Flak Battery")
    assert "out-of-scale component (Starfighter scale on a Starship: cost / 5 per step)" in flak.value
    assert "Out-of-Scale Designs" in flak.source
    (warhead,) = d.custom_technology
    assert (warhead.name, warhead.scale) == ("Fusion Warhead", "starship+4")
    assert warhead.description.startswith("Damage +22, Speed +0.")


def test_bountiful_freighter_notes_and_missing_speeds() -> None:
    r = convert("bountiful")
    d = r.design
    assert (d.scale, d.move, d.handling, d.soak) == ("starship", 1, -2, 4)
    assert note(r, "Cost (construction points)").value == "Resources 3"  # 44 / 15 = 2.93, rounded up
    for field in ("CS (Cruising Speed)", "TS (Top Speed)"):
        assert (note(r, field).status, note(r, field).message) == ("note", "not given")
    assert (note(r, "Mass").original, note(r, "Tolerance").original) == ("12,000 tons", "22")
    (turret,) = d.custom_weapons
    assert (turret.damage, turret.scale) == (6, None)
    assert notes_of(r, "weapons[0] Deterrent Turret")[0].value == "Starship scale"


def test_the_examples_cover_every_row_of_the_table() -> None:
    results = [convert(n) for n in FILES]
    vts = {note(r, "VT").original for r in results}
    assert vts == {row.vt for row in load_table().vehicle_types}
    assert {note(r, "Tech").original for r in results} == {"Hardtech", "Organic"}
    for field in ("CS (Cruising Speed)", "TS (Top Speed)", "Mass", "Tolerance"):
        assert any(note(r, field).original for r in results), field
    assert {note(r, "Soak mark").status for r in results} == {"converted", "conflict"}
    assert {note(r, f).status for r in results for f in ("VS (Vacuum Speed)", "Handling", "Soak")} == {
        "converted",
        "conflict",
    }
    scales = {r.design.scale for r in results}
    assert scales == {"starfighter", "starship"}  # both cost rates
    weapon_scales = {c.scale for r in results for c in r.design.custom_weapons} | {
        c.scale for r in results for c in r.design.custom_technology
    }
    assert weapon_scales == {None, "starfighter", "starship+1", "starship+4"}
    marks = {w.damage.mark for r in results for w in r.vessel.weapons}
    assert marks == {None, 5, 10, 20}


# --- Structure, Power and crew: supplied or assumed -------------------------------------------


def test_structure_power_and_crew_defaults_are_reported_as_assumed() -> None:
    r = convert("anvil")
    assert (note(r, "Structure").status, note(r, "Structure").value) == ("assumed", "10")
    assert "A Structure of 10 is standard" in note(r, "Structure").message
    assert (note(r, "Power").status, note(r, "Power").value) == ("assumed", "5")
    assert "A Power of 5 is considered average" in note(r, "Power").message


def test_structure_power_and_crew_given_by_the_user() -> None:
    r = convert("anvil", structure=14, power=7)
    d = r.design
    assert (d.structure, d.power, d.crew) == (14, 7, 14)  # the crew follows the given Structure
    assert note(r, "Structure").message == "Trinity has no Structure; given by you"
    r = convert("anvil", crew=60)
    assert r.design.crew == 60


def test_a_given_structure_outside_the_range_is_refused() -> None:
    vessel, _ = load_vessel(EXAMPLES / FILES["anvil"])
    with pytest.raises(InputError) as exc:
        convert_vessel(vessel, sfa(), structure=25)
    assert str(exc.value) == (
        "at structure: the Structure given, 25, is outside the Space Fighter Alpha range "
        "(allowed: Structure from 1 up to 20)"
    )


# --- converted designs: marked, budgets for information ----------------------------------------


def test_converted_design_carries_its_source_and_report() -> None:
    r = convert("kestrel")
    conv = r.design.converted
    assert conv.system == "Trinity"
    assert conv.source["vt"] == "Hybrid Fighter"
    assert conv.source["soak"] == {"value": 3, "mark": 5}
    assert conv.report == r.notes
    # first what the design does not show (the sheet's notes box shows the start), then the report
    assert r.design.notes.splitlines()[:5] == [
        "Converted from Trinity (Space Fighter Alpha, Appendix 2: Adapting Spacecraft from Trinity to Space "
        "Fighter Alpha). Budgets are for information.",
        "Kept from Trinity, with no conversion: Tech: Hardtech; CS (Cruising Speed): 1,800 kph; "
        "TS (Top Speed): 9,000 kph; Mass: 14 tons; Tolerance: 6.",
        "Assumed: Structure: 10; Power: 5; Crew: 1.",
        "Trinity notes: Fictional example vessel.",
        "",
    ]
    assert "Conflict:" not in r.design.notes and "  conflict" not in r.design.notes
    assert "\nConversion report:\nKestrel-9 Interceptor: converted from Trinity\n" in r.design.notes
    assert "  converted     Cost (construction points): 240 CP -> Resources 8;" in r.design.notes
    anvil = convert("anvil").design.notes.splitlines()
    assert "Conflict: Handling: -6 -> Handling -5; -6 is outside the Handling range -5 to 5; clamped to -5" in anvil


def test_a_vessel_whose_report_outgrows_a_design_s_notes_converts_with_the_report_cut() -> None:
    """Forty weapons and long notes, each within the vessel's limits: the report alone is
    longer than a design's notes may be. The conversion is not refused for it; the notes keep
    the vessel's own notes whole and as much of the report as they hold, saying the rest is
    in the design's conversion record."""
    weapons = [{"name": f"Point Defence Laser Turret {i}", "accuracy": 2, "damage": "4 [5]"} for i in range(40)]
    own = "Flagship of the relief fleet. " * 60
    vessel = parse_vessel(
        {"name": "Relief Carrier", "vt": "Frigate", "vs": 2, "handling": 0, "soak": "3 [10]", "weapons": weapons}
        | {"notes": own}
    )
    result = convert_vessel(vessel, sfa())
    notes = result.design.notes
    assert len(notes) <= 20_000
    assert f"Trinity notes: {own}" in notes
    assert notes.splitlines()[-1].startswith("  ... and ")
    assert notes.splitlines()[-1].endswith(" more (the whole report is the design file's conversion record)")
    assert len(result.design.converted.report) == len(result.notes)  # the record keeps every line


def test_over_budget_is_advice_for_a_converted_design_and_an_error_otherwise() -> None:
    r = convert("kestrel", structure=12)
    report = evaluate(r.design, r.catalog)
    over = finding(report, "pool-over-budget")
    assert (over.severity, over.actual, over.limit) == (Severity.ADVICE, 39, 25)
    assert over.message == (
        "Freebie Points over budget by 14: spent 39 of 15 + 10 gained (shown for information: the design is converted)"
    )
    assert report.valid
    plain = r.design.model_copy(update={"converted": None})
    again = finding(evaluate(plain, r.catalog), "pool-over-budget")
    assert again.severity == Severity.ERROR
    assert "shown for information" not in again.message


def test_converted_weapons_cost_what_the_storyteller_assigns_and_appear_on_the_sheet() -> None:
    r = convert("anvil")
    report = evaluate(r.design, r.catalog)
    wp = report.pool("weapon-points")
    assert wp is not None
    assert [i.label for i in wp.items][:3] == [
        "1 x Mass Driver (custom, 0 each)",
        "1 x Spinal Lance (custom, 0 each)",
        "4 x Flak Battery (custom, 0 each), Starfighter scale x 1/5",
    ]
    table = report.derived.table("weapons")
    assert table is not None
    rows = table.rows
    assert [row[:7] for row in rows] == [
        ["Mass Driver (custom)", 1, "forward", "Starship", "+0", "+13", ""],
        ["Spinal Lance (custom)", 1, "forward", "Starship", "+0", "+9", ""],
        ["Flak Battery (custom)", 4, "forward", "Starfighter", "+0", "+7", ""],
    ]
    priced = r.design.model_copy(
        update={"custom_weapons": [w.model_copy(update={"cost": 5}) for w in r.design.custom_weapons]}
    )
    wp = evaluate(priced, r.catalog).pool("weapon-points")
    assert wp is not None
    assert [i.amount for i in wp.items if "custom" in i.label] == [5, 5, 4]  # 5, 5 and 4 x 5 / 5


def test_a_larger_scale_custom_weapon_is_an_error() -> None:
    catalog = sfa()
    design = catalog.module.resolve(
        catalog.module.Design.model_validate(
            {
                "name": "T",
                "crew": 1,
                "handling": 0,
                "soak": 0,
                "move": 0,
                "power": 0,
                "structure": 10,
                "custom_weapons": [{"name": "Big Gun", "damage": 9, "scale": "starship"}],
            }
        ),
        catalog,
    )
    f = finding(evaluate(design, catalog), "component-scale-larger")
    assert (f.severity, f.path, f.actual) == (Severity.ERROR, "custom_weapons[0].scale", "Starship")


def test_converted_design_survives_a_design_file(tmp_path: Path) -> None:
    r = convert("anvil")
    save_design(r.loaded(), tmp_path / "anvil.ship")
    back = load_design(tmp_path / "anvil.ship", use_user_folder=False)
    assert back.design == r.design


def test_a_converted_design_exports_as_a_stat_block_and_back() -> None:
    r = convert("anvil")
    text = export_statblock(r.design, r.catalog)
    assert (
        "Weapons: 1 Mass Driver (custom, Speed 0, Damage 13, Cost 0), 1 Spinal Lance (custom, Speed 0, "
        "Damage 9, Cost 0), 4 Starfighter-scale Flak Battery (custom, Speed 0, Damage 7, Cost 0)\n"
    ) in text
    assert "Special Equipment: Starship + 4-scale Fusion Warhead (custom, Cost 0)\n" in text
    back = import_statblock(text, r.catalog)
    assert back.ok
    assert back.design == holdable(r.design, r.catalog)


# --- the vessel model --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "value", "mark"),
    [("6 [10]", 6, 10), (" -2 [5] ", -2, 5), ("4", 4, None), (7, 7, None), ({"value": 3, "mark": 20}, 3, 20)],
)
def test_scale_marks_are_read(given: Any, value: int, mark: int | None) -> None:
    s = Scaled.model_validate(given)
    assert (s.value, s.mark) == (value, mark)


def test_parse_vessel_refuses_a_list() -> None:
    with pytest.raises(InputError) as exc:
        parse_vessel(["a"], file="v.yaml")
    assert str(exc.value) == "v.yaml: a Trinity vessel file holds one mapping of fields, not a list"


# --- bad input through the command line --------------------------------------------------------


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return call_shipyard(*args, "--no-user-catalog", cwd=cwd)


BAD_FILES = {
    "unknown-vt.yaml": [
        "unknown-vt.yaml:2:1 at vt: VT 'Battleship' is not in the Appendix 2 table, so it has no Space Fighter "
        "Alpha scale (allowed: Hybrid Fighter, Hybrid Transport, Hybrid Shuttle, Frigate, Freighter)"
    ],
    "misspelt-vt.yaml": ["misspelt-vt.yaml:2:1 at vt: VT 'Frigat' is not in the Appendix 2 table", "'Frigate'"],
    "unknown-fields.yaml": [
        "unknown-fields.yaml:6:1 at warp_factor: unknown field 'warp_factor' (allowed: name, vt, tech, cs, ts, vs, "
        "handling, mass, tolerance, cost, soak, weapons, notes)",
        "unknown-fields.yaml:11:5 at weapons[0].colour: unknown field 'colour' (allowed: name, accuracy, damage, "
        "count, range, notes)",
    ],
    "wrong-types.yaml": [
        "wrong-types.yaml:3:1 at vs: Input should be a valid integer, not 'fast'",
        "wrong-types.yaml:4:1 at handling: Input should be a valid integer, not 1.5",
        "wrong-types.yaml:5:1 at cost: Input should be a valid integer, not 'lots'",
        "wrong-types.yaml:6:1 at soak: '4 [ten]' is not a number with an optional scale mark, e.g. 6 [10]",
        "wrong-types.yaml:9:5 at weapons[0].accuracy: Input should be a valid integer, not '1'",
    ],
    "wrong-types.json": [
        "wrong-types.json at vs: Input should be a valid integer, not '2'",
        "wrong-types.json at handling: Input should be a valid integer, not True",
        "wrong-types.json at weapons: Input should be a valid list",
    ],
    "bad-mark.yaml": [
        "bad-mark.yaml:5:1 at soak: Soak scale mark [3] is not in the Appendix 2 table ([5] or more: Starfighter, "
        "[10] or more: Starship)"
    ],
    "bad-tech.yaml": ["bad-tech.yaml:3:1 at tech: Tech 'Steampunk' is neither Hardtech nor Organic"],
    "missing-fields.yaml": [
        "at vs: 'vs' is missing",
        "at handling: 'handling' is missing",
        "at soak: 'soak' is missing",
    ],
    "duplicate-key.json": ["duplicate-key.json: malformed JSON: the key 'vs' appears twice"],
    "malformed.yaml": ["malformed.yaml:3:1: malformed YAML:"],
    "malformed.json": ["malformed.json:3:1: malformed JSON: Expecting ',' delimiter"],
    "a-list.yaml": ["a-list.yaml: a Trinity vessel file holds one mapping of fields, not a list"],
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_cli_bad_vessel_files(tmp_path: Path, name: str) -> None:
    out = tmp_path / "out.ship"
    r = run("convert", "trinity", f"tests/data/trinity/{name}", "-o", str(out))
    assert r.returncode == 2, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    assert r.stdout == ""
    errors = [ln.removeprefix("shipyard: error: tests/data/trinity/") for ln in r.stderr.splitlines()]
    assert all(ln.startswith(name) for ln in errors), r.stderr
    for expected in BAD_FILES[name]:
        assert any(expected in ln for ln in errors), (expected, r.stderr)
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []


def test_cli_empty_and_missing_files(tmp_path: Path) -> None:
    empty = tmp_path / "empty.yaml"
    empty.write_text("")
    for src, expected in ((empty, "file is empty"), (tmp_path / "nope.yaml", "cannot read file")):
        r = run("convert", "trinity", str(src), "-o", str(tmp_path / "x.ship"))
        assert r.returncode == 2
        assert f"shipyard: error: {src}: {expected}" in r.stderr
        assert not (tmp_path / "x.ship").exists()


def test_cli_structure_outside_the_range(tmp_path: Path) -> None:
    r = run("convert", "trinity", str(EXAMPLES / FILES["anvil"]), "-o", str(tmp_path / "a.ship"), "--structure", "0")
    assert r.returncode == 2
    assert "the Structure given, 0, is outside the Space Fighter Alpha range" in r.stderr
    assert not (tmp_path / "a.ship").exists()


def test_cli_converts_prints_the_report_and_the_design_checks(tmp_path: Path) -> None:
    out = tmp_path / "kestrel.ship"
    r = run("convert", "trinity", str(EXAMPLES / FILES["kestrel"]), "-o", str(out), "--structure", "12", "--power", "3")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "Kestrel-9 Interceptor: converted from Trinity"
    assert any(ln.startswith("  converted     VT: Hybrid Fighter -> Starfighter scale") for ln in lines)
    assert any(ln.startswith("  assumed       Structure: 12; Trinity has no Structure; given by you") for ln in lines)
    assert lines[-1] == f"wrote {out}"
    design = load_design(out, use_user_folder=False).design
    assert (design.structure, design.power) == (12, 3)
    assert "Resources 8" in design.notes
    check = run("check", str(out))
    assert check.returncode == 0, check.stdout  # over budget, but only as advice
    assert "Freebie Points over budget by 12" in check.stdout
    again = run("convert", "trinity", str(EXAMPLES / FILES["kestrel"]), "-o", str(out))
    assert again.returncode == 2
    assert "exists; use --force to replace it" in again.stderr


def test_check_prints_a_converted_design_s_notes_line_by_line(tmp_path: Path) -> None:
    """The notes run over lines; ``check`` printed them as one line of some 3,000 letters,
    each line break shown as ``\\u000a``. Each line is a line of its own, under the slot's name."""
    out = tmp_path / "anvil.ship"
    assert (
        call_shipyard("convert", "trinity", EXAMPLES / FILES["anvil"], "-o", out, "--no-user-catalog").returncode == 0
    )
    text = call_shipyard("check", out, "--no-user-catalog").stdout
    assert "\\u000a" not in text
    lines = text.splitlines()
    start = lines.index(
        "  Notes: Converted from Trinity (Space Fighter Alpha, Appendix 2: Adapting Spacecraft from Trinity to Space "
        "Fighter Alpha). Budgets are for information."
    )
    assert lines[start + 1].startswith("    Kept from Trinity, with no conversion: Tech: Hardtech;")
    assert "    Trinity notes: Fictional example vessel." in lines[start:]


def test_conversion_errors_name_the_vessel_s_line_or_the_option_in_the_user_s_words(tmp_path: Path) -> None:
    """A mapping for the mass was three errors in pydantic's words (``mass.constrained-str``,
    ``mass.int``, ``mass.float``); an Accuracy + Damage beyond a weapon's was an error at
    ``custom_weapons[0].damage``, a place of the design the user never wrote, with no line;
    ``--crew 100000000`` blamed the vessel file."""
    vessel = tmp_path / "gun.yaml"
    text = (
        "name: Big Gun\nvt: Frigate\nvs: 2\nhandling: 0\nsoak: 2 [10]\nmass: {value: 4800, unit: tons}\n"
        "weapons:\n  - name: Siege Cannon\n    accuracy: 40\n    damage: 60 [10]\n"
    )
    vessel.write_text(text, encoding="utf-8")
    out = call_shipyard("convert", "trinity", vessel, "-o", tmp_path / "gun.ship", "--no-user-catalog")
    assert out.returncode == 2
    assert out.stderr == (
        f"shipyard: error: {vessel}:6:1 at mass: this is kept as a note: a number or a short text such as "
        "'4,800 tons', not a mapping\n"
    )
    vessel.write_text(text.replace("mass: {value: 4800, unit: tons}\n", ""), encoding="utf-8")
    out = call_shipyard("convert", "trinity", vessel, "-o", tmp_path / "gun.ship", "--no-user-catalog")
    assert out.stderr == (
        f"shipyard: error: {vessel}:7:5 at weapons[0]: Siege Cannon: Accuracy 40 + Damage 60 = +100, beyond the "
        "damage a converted weapon may have (allowed: Accuracy + Damage from -99 to +99)\n"
    )
    anvil = EXAMPLES / FILES["anvil"]
    out = call_shipyard("convert", "trinity", anvil, "-o", tmp_path / "a.ship", "--crew", "100000000")
    assert out.stderr == (
        "shipyard: error: at --crew: the Crew given, 100,000,000, is more than a design holds "
        "(allowed: Crew from 0 up to 10,000,000)\n"
    )
    assert not list(tmp_path.glob("*.ship"))
