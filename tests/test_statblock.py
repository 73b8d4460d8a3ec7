"""Stat-block text both ways: the six published blocks, round trips, every word, bad input.

The published blocks in ``tests/data/statblocks/`` are the exact text of Appendix 1 of the
source (two blocks share a line there, separated by a tab; the whole section as printed is
``catalogs/space-fighter-alpha/examples/appendix-1.txt``, beside the sample ships). The
sample files use the same published names, so importing the text must give the very
designs the samples resolve to.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shipyard.core.designfile import load_design
from shipyard.core.errors import InputError
from shipyard.core.model import Catalog
from shipyard.rulesets.space_fighter_alpha import Design
from shipyard.rulesets.space_fighter_alpha.statblock import (
    MAX_TEXT_BYTES,
    export_statblock,
    holdable,
    import_statblock,
    import_statblocks,
    lost_in_text,
)

from .conftest import EXAMPLES, ROOT, SAMPLES, STATBLOCKS, call_shipyard, published, sample, sfa, starfighter


def without_notes(design: Any) -> dict[str, Any]:
    dump: dict[str, Any] = design.model_dump(exclude={"notes"})
    return dump


def entries(result: Any, status: str | None = None, label: str | None = None) -> list[Any]:
    return [
        e
        for e in result.report.entries
        if (status is None or e.status == status) and (label is None or e.label == label)
    ]


def entry_for(result: Any, text: str) -> Any:
    hits = [e for e in result.report.entries if e.text == text]
    assert len(hits) == 1, (text, [e.text for e in result.report.entries])
    return hits[0]


# --- the six published stat blocks ------------------------------------------------------------


@pytest.mark.parametrize("name", SAMPLES)
@pytest.mark.parametrize("preset", ["as-written", "sample-ships"])
def test_published_block_imports_into_the_sample_design(name: str, preset: str) -> None:
    result = import_statblock(published(name), sfa(preset), source=f"{name}.txt")
    assert result.ok, [e.describe() for e in result.report.not_understood]
    assert without_notes(result.design) == without_notes(sample(name, preset).design)
    # every piece of the text is accounted for: no part is left unreported
    assert not entries(result, "skipped")


SUMMARIES = {
    "as-written": [
        "Rebel Fighter: 23 used",
        "Rebel Frigate: 29 used",
        "Alien Disk-Fighter: 20 used, 1 differs",
        "Alien Mothership: 20 used, 1 differs",
        "Federation Battlesat: 12 used",
        "Federation Space Station: 25 used, 1 differs",
    ],
    "sample-ships": [
        "Rebel Fighter: 23 used",
        "Rebel Frigate: 29 used",
        "Alien Disk-Fighter: 21 used",
        "Alien Mothership: 21 used",
        "Federation Battlesat: 12 used",
        "Federation Space Station: 26 used",
    ],
}


@pytest.mark.parametrize("preset", sorted(SUMMARIES))
def test_published_block_reports_as_documented(preset: str) -> None:
    """The counts docs/conversion.md prints: only Force Field (3) differs, and only as written."""
    got = [import_statblock(published(n), sfa(preset)).report.lines()[0] for n in SAMPLES]
    assert got == SUMMARIES[preset]


def test_the_appendix_as_printed_holds_six_blocks_in_order() -> None:
    results = import_statblocks(published("appendix-1"), sfa(), source="appendix-1.txt")
    assert [r.design.name for r in results] == [
        "Rebel Fighter",
        "Rebel Frigate",
        "Alien Disk-Fighter",
        "Alien Mothership",
        "Federation Battlesat",
        "Federation Space Station",
    ]
    by_name = dict(zip(SAMPLES, sorted(results, key=lambda r: SAMPLES.index(_slug(r.design.name))), strict=True))
    for name, result in by_name.items():
        assert without_notes(result.design) == without_notes(sample(name).design), name
    # the heading before the first label is reported, not silently dropped, and blocks nothing
    heading = entries(results[0], "skipped")
    assert [e.text for e in heading] == ["Appendix 1: Example Spacecraft"]
    assert (heading[0].line, heading[0].column) == (1, 1)
    assert all(r.ok for r in results)


def _slug(name: str) -> str:
    return name.lower().replace(" ", "-")


def test_force_field_published_cost_differs_from_the_catalog_as_written() -> None:
    result = import_statblock(published("alien-disk-fighter"), sfa("as-written"))
    ff = entry_for(result, "Force Field (3)")
    assert ff.status == "differs"
    assert ff.field == "technology[0]"
    assert "published cost 3, the catalog's is 5 Power Points (preset as-written)" in ff.message
    auto = entry_for(result, "Auto-Turrets (2)")
    assert auto.status == "used"
    assert "published cost 2 equals the catalog's 2 Power Points" in auto.message
    assert result.design.technology[0].level == 1  # a cost, not a level: Force Field has no levels


def test_force_field_published_cost_equals_the_sample_ships_preset() -> None:
    result = import_statblock(published("alien-disk-fighter"), sfa("sample-ships"))
    ff = entry_for(result, "Force Field (3)")
    assert ff.status == "used"
    assert "published cost 3 equals the catalog's 3 Power Points" in ff.message


def test_high_powered_lasers_are_enhanced_lasers_at_the_same_cost() -> None:
    result = import_statblock(published("rebel-fighter"), sfa())
    hpl = entry_for(result, "High Powered Lasers (3)")
    assert (hpl.status, hpl.field, hpl.value) == ("used", "technology[0]", "Enhanced Lasers")
    assert "'High Powered Lasers' is a name of Enhanced Lasers" in hpl.message
    assert "published cost 3 equals the catalog's 3 Power Points" in hpl.message
    assert result.design.technology[0].id == "enhanced-lasers"


def test_rebel_fighter_weapons_fire_linked_group_and_missile() -> None:
    result = import_statblock(published("rebel-fighter"), sfa())
    lasers, missile = result.design.weapons
    assert (lasers.weapon, lasers.count, lasers.turret, lasers.fire_link) == ("light-laser", 2, False, "A")
    assert (missile.weapon, missile.count, missile.fire_link) == ("missile", 1, None)
    assert entry_for(result, "2 Fire-Linked Light Lasers").value == "2 x Light Laser, fire-linked (group A)"


def test_rebel_frigate_turrets_missiles_and_additional_crew_quarters() -> None:
    result = import_statblock(published("rebel-frigate"), sfa())
    assert [(w.weapon, w.count, w.turret) for w in result.design.weapons] == [
        ("light-laser", 2, True),
        ("missile", 3, False),
    ]
    quarters = entry_for(result, "additional Crew Quarters (6)")
    assert quarters.value == "Crew Quarters, level 6"
    assert result.design.accessories[14].id == "crew-quarters"
    assert result.design.accessories[14].level == 6


def test_mothership_ftl_under_special_equipment_goes_to_the_accessories() -> None:
    result = import_statblock(published("alien-mothership"), sfa("sample-ships"))
    ftl = entry_for(result, "FTL (2)")
    assert (ftl.label, ftl.field) == ("Special Equipment", "accessories[0]")
    assert "listed under Special Equipment; the catalog has FTL Drive under accessories" in ftl.message
    assert "paid from Power Points" in ftl.message  # the sample-ships preset pays FTL in Power Points
    assert (result.design.accessories[0].id, result.design.accessories[0].level) == ("ftl-drive", 2)
    assert [t.id for t in result.design.technology] == ["force-field", "pi-tac-cannon"]


def test_battlesat_accessories_none_and_ai_level() -> None:
    result = import_statblock(published("federation-battlesat"), sfa())
    assert result.design.accessories == []
    none = entry_for(result, "None.")
    assert (none.status, none.field, none.value) == ("used", "accessories", "None")
    ai = result.design.technology[0]
    assert (ai.id, ai.level) == ("artificial-intelligence", 5)


def test_space_station_scale_and_published_capacities_agree() -> None:
    result = import_statblock(published("federation-space-station"), sfa())
    assert result.design.scale == "starship+1"
    cargo = entry_for(result, "250 cubic-meter Cargo Bay(2)")
    hangar = entry_for(result, "15 vessel Hangar Bay(3)")
    passengers = entry_for(result, "250 Passenger Capacity (2)")
    assert "published capacity 250 equals the design's 250 cubic meters" in cargo.message
    assert "published capacity 15 equals the design's 15 Starfighter-scale spacecraft" in hangar.message
    assert "published capacity 250 equals the design's 250" in passengers.message
    assert {cargo.status, hangar.status, passengers.status} == {"used"}
    assert [(t.id, t.level) for t in result.design.technology] == [
        ("force-field", 1),
        ("cargo-hold", 2),
        ("hangar-bay", 3),
        ("passengers", 2),
    ]
    # the printed list ends with a comma: nothing after it, nothing reported as missing
    assert result.design.accessories[-1].id == "science-laboratories"


def test_a_published_capacity_that_does_not_match_is_reported() -> None:
    text = published("federation-space-station").replace("250 cubic-meter Cargo Bay(2)", "300 cubic-meter Cargo Bay(2)")
    result = import_statblock(text, sfa())
    cargo = entry_for(result, "300 cubic-meter Cargo Bay(2)")
    assert cargo.status == "differs"
    assert "published capacity 300, the design holds 250 cubic meters" in cargo.message


# --- round trips: import(export(d)) == d ------------------------------------------------------


@pytest.mark.parametrize("name", SAMPLES)
@pytest.mark.parametrize("markdown", [False, True])
def test_every_sample_round_trips(name: str, markdown: bool) -> None:
    loaded = sample(name)
    text = export_statblock(loaded.design, loaded.catalog, markdown=markdown)
    back = import_statblock(text, loaded.catalog)
    assert back.ok
    assert back.design == holdable(loaded.design, loaded.catalog)
    assert without_notes(back.design) == without_notes(loaded.design)
    assert not [e for e in back.report.entries if e.status in ("differs", "skipped", "not-understood")]


def test_export_prints_the_appendix_1_format() -> None:
    loaded = sample("rebel-fighter")
    assert export_statblock(loaded.design, loaded.catalog) == (
        "Name: Rebel Fighter\n"
        "Scale: Starfighter\n"
        "Concept: Long-range rugged fighter\n"
        "Crew: 2\n"
        "Handling: -1\n"
        "Soak: 2\n"
        "Move: 1\n"
        "Power: 0\n"
        "Structure: 15\n"
        "Weapons: 2 Fire-Linked Light Lasers, 1 Missile\n"
        "Special Equipment: Enhanced Lasers (3)\n"
        "Accessories: Landing Gear, Ejection Pods, Search Lights, Atmospheric Wings, Sensors, Life Support, "
        "EVA and Pressure Suits, Food and Supplies, Airlocks, Communications Systems, FTL Drive (2)\n"
    )


def test_markdown_export_is_a_bold_labelled_list_with_escapes() -> None:
    catalog = sfa()
    design = starfighter(catalog, name="Red *5*_b", weapons=[{"weapon": "railgun", "count": 2}])
    md = export_statblock(design, catalog, markdown=True)
    lines = md.splitlines()
    assert lines[0] == r"- **Name:** Red \*5\*\_b"
    assert "- **Weapons:** 2 Railguns" in lines
    assert "- **Accessories:** None" in lines
    assert import_statblock(md, catalog).design.name == "Red *5*_b"


def rich_design(catalog: Catalog) -> Design:
    return starfighter(
        catalog,
        name="Heron",
        concept="long-range\n  escort",
        scale="starship",
        crew=30,
        handling=-1,
        soak=3,
        armor=2,
        shields=1,
        move=3,
        power=5,
        structure=12,
        weapons=[
            {"weapon": "light-laser", "count": 2, "fire_link": "port"},
            {"weapon": "medium-laser", "turret": True, "fire_link": "solo"},
            {"weapon": "light-laser", "count": 1, "fire_link": "port"},
            {"weapon": "medium-laser", "count": 2, "turret": True, "scale": "starfighter"},
            {"weapon": "missile", "count": 3},
        ],
        technology=[
            {"id": "force-field"},
            {"id": "cargo-hold", "level": 3},
            {"id": "artificial-intelligence", "level": 2, "options": {"dexterity": 4}},
        ],
        custom_technology=[{"name": "Super-Lasers", "cost": 4, "scale": "starship+1", "description": "big guns"}],
        custom_weapons=[
            {"name": "Plasma Lance", "count": 2, "damage": 9, "range": 8, "cost": 3, "scale": "starfighter"},
            {"name": "Flak", "damage": -2},
        ],
        accessories=[{"id": "ftl-drive", "level": 2}, {"id": "sensors"}, {"id": "crew-quarters", "level": 1}],
        notes="house notes",
        pilot={"dexterity": 3, "piloting": 2},
        budgets={"power-points": 12},
    )


@pytest.mark.parametrize("markdown", [False, True])
def test_everything_the_text_can_hold_round_trips(markdown: bool) -> None:
    catalog = sfa("sample-ships")
    design = rich_design(catalog)
    text = export_statblock(design, catalog, markdown=markdown)
    back = import_statblock(text, catalog)
    assert back.ok, [e.describe() for e in back.report.not_understood]
    assert back.design == holdable(design, catalog)
    held = back.design
    assert (held.armor, held.shields, held.concept) == (2, 1, "long-range escort")
    assert [w.fire_link for w in held.weapons] == ["A", "B", "A", None, None]
    assert held.weapons[3].scale == "starfighter"
    assert held.custom_weapons[0].model_dump() == {
        "name": "Plasma Lance",
        "count": 2,
        "speed": 0,
        "damage": 9,
        "range": 8,
        "cost": 3,
        "scale": "starfighter",
        "notes": "",
    }
    assert (held.custom_technology[0].name, held.custom_technology[0].cost) == ("Super-Lasers", 4)
    assert held.custom_technology[0].scale == "starship+1"


def test_the_rich_design_prints_groups_scales_and_custom_items() -> None:
    catalog = sfa()
    text = export_statblock(rich_design(catalog), catalog)
    assert "Soak: 3 (Armor 2, Energy Shields 1)\n" in text
    assert (
        "Weapons: 2 Fire-Linked (group A) Light Lasers, 1 Turreted Fire-Linked Medium Laser, "
        "1 Fire-Linked (group A) Light Laser, 2 Turreted Starfighter-scale Medium Lasers, 3 Missiles, "
        "2 Starfighter-scale Plasma Lance (custom, Speed 0, Damage 9, Range 8, Cost 3), "
        "1 Flak (custom, Speed 0, Damage -2, Cost 0)\n"
    ) in text
    assert (
        "Special Equipment: Force Field (5), Cargo Hold (3), Artificial Intelligence (2), "
        "Starship + 1-scale Super-Lasers (custom, Cost 4)\n"
    ) in text


def test_what_the_text_cannot_hold_is_listed() -> None:
    catalog = sfa()
    lost = lost_in_text(rich_design(catalog), catalog)
    assert lost == [
        "concept",
        "technology[2].options.dexterity",
        "custom_technology[0].description",
        "budgets.power-points",
        "pilot",
        "notes",
    ]
    # a published sample holds all a stat block holds, and the note on the preset it is saved with
    assert lost_in_text(sample("rebel-fighter").design, catalog) == ["notes"]


NAMES = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 '-", min_size=1, max_size=30)


@st.composite
def designs(draw: Any) -> dict[str, Any]:
    catalog = sfa()
    scale = draw(st.sampled_from(["starfighter", "starship", "starship+1"]))
    weapons = [
        {
            "weapon": draw(st.sampled_from(sorted(catalog.kind("weapons")))),
            "count": draw(st.integers(1, 6)),
            "turret": draw(st.booleans()),
            "fire_link": draw(st.sampled_from([None, "A", "B", "C"])),
            "scale": draw(st.sampled_from([None, "street-fighter"])),
        }
        for _ in range(draw(st.integers(0, 4)))
    ]
    items: dict[str, list[dict[str, Any]]] = {}
    for kind in ("technology", "accessories"):
        chosen = draw(st.lists(st.sampled_from(sorted(catalog.kind(kind))), max_size=5))
        items[kind] = [
            {"id": i, "level": draw(st.integers(1, 9)) if getattr(catalog.item(kind, i), "per_level", False) else 1}
            for i in chosen
        ]
    name = draw(NAMES.filter(lambda s: s.strip() and not s.strip()[0].isdigit()))
    return {
        "name": name,
        "concept": draw(st.sampled_from(["", "fast", "a slow, heavy hauler"])),
        "scale": scale,
        "crew": draw(st.integers(0, 5000)),
        "handling": draw(st.integers(-5, 5)),
        "soak": draw(st.integers(0, 5)),
        "move": draw(st.integers(0, 5)),
        "power": draw(st.integers(0, 10)),
        "structure": draw(st.integers(1, 20)),
        "weapons": weapons,
        "custom_weapons": [
            {"name": draw(st.sampled_from(["Plasma Lance", "Graviton Whip"])), "damage": draw(st.integers(-9, 30))}
            for _ in range(draw(st.integers(0, 2)))
        ],
        **items,
    }


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(designs())
def test_any_design_round_trips_through_the_text(data: dict[str, Any]) -> None:
    catalog = sfa()
    design = catalog.module.resolve(Design.model_validate(data), catalog)
    for markdown in (False, True):
        back = import_statblock(export_statblock(design, catalog, markdown=markdown), catalog)
        assert back.ok, [e.describe() for e in back.report.not_understood]
        assert back.design == holdable(design, catalog)


# --- the words of the format -----------------------------------------------------------------

ONE_PER_LINE = """\
NAME: Red Five
scale: starship+1
Concept: test bed
CREW: 400
handling: +1
Soak: 2
MOVE: 3
Power: 4
STRUCTURE: 11
Weapons: 2 turreted light lasers
Advanced Technology: force field
accessories: sensors, Co-Pilot, or Crew Station (2), additional crew quarters (5)
"""


def test_labels_one_per_line_in_any_case_with_the_blank_blocks_names() -> None:
    result = import_statblock(ONE_PER_LINE, sfa())
    d = result.design
    assert (d.name, d.scale, d.crew, d.handling, d.soak, d.move, d.power, d.structure) == (
        "Red Five",
        "starship+1",
        400,
        1,
        2,
        3,
        4,
        11,
    )
    assert [(w.weapon, w.count, w.turret) for w in d.weapons] == [("light-laser", 2, True)]
    assert [t.id for t in d.technology] == ["force-field"]
    # "Co-Pilot, or Crew Station" as the Accessories list prints it, comma included
    assert [(a.id, a.level) for a in d.accessories] == [
        ("sensors", 1),
        ("co-pilot-or-crew-station", 2),
        ("crew-quarters", 5),
    ]
    assert entry_for(result, "Co-Pilot, or Crew Station (2)").field == "accessories[1]"
    assert entry_for(result, "force field").label == "Special Equipment"


def test_windows_line_endings_bullets_and_bold_markdown() -> None:
    text = ONE_PER_LINE.replace("\n", "\r\n").replace("NAME:", "- **NAME:**").replace("Soak:", "* __Soak:__")
    d = import_statblock(text, sfa()).design
    assert (d.name, d.soak, d.structure) == ("Red Five", 2, 11)


@pytest.mark.parametrize(
    ("written", "scale"),
    [
        ("Starfighter", "starfighter"),
        ("Fighter", "starfighter"),
        ("Fighter-scale", "starfighter"),
        ("Starship scale", "starship"),
        ("Starship + 1", "starship+1"),
        ("starship+3", "starship+3"),
    ],
)
def test_scale_names(written: str, scale: str) -> None:
    text = ONE_PER_LINE.replace("scale: starship+1", f"Scale: {written}")
    assert import_statblock(text, sfa()).design.scale == scale


def test_name_n_is_a_level_for_items_with_levels_and_a_cost_otherwise() -> None:
    text = ONE_PER_LINE.replace(
        "Advanced Technology: force field",
        "Special Equipment: Armor-Piercing Weapons (2), Stealth (4), Transformation (1)",
    ).replace("Weapons: 2 turreted light lasers", "Weapons: None")
    result = import_statblock(text, sfa())
    tech = {t.id: t.level for t in result.design.technology}
    assert tech == {"armor-piercing-weapons": 2, "stealth": 1, "transformation": 1}
    ap = entry_for(result, "Armor-Piercing Weapons (2)")
    assert "level 2 (2 x 2 = 4 Power Points)" in ap.message
    stealth = entry_for(result, "Stealth (4)")
    assert stealth.status == "differs"
    assert "published cost 4, the catalog's is 5 Power Points" in stealth.message


def test_plurals_are_read_with_the_catalogs_plural_rules() -> None:
    text = ONE_PER_LINE.replace("2 turreted light lasers", "2 Railguns, 3 Rocket Salvos, 2 Torpedoes, 1 Heavy Laser")
    d = import_statblock(text, sfa()).design
    assert [(w.weapon, w.count) for w in d.weapons] == [
        ("railgun", 2),
        ("rocket-salvo", 3),
        ("missile", 2),
        ("heavy-laser", 1),
    ]


def test_fire_link_groups_each_phrase_its_own_group_unless_tagged() -> None:
    text = ONE_PER_LINE.replace(
        "2 turreted light lasers",
        "2 Fire-Linked Light Lasers, 2 Fire-Linked (group C) Medium Lasers, 1 Fire-Linked Railgun, "
        "1 Fire Linked (group C) Heavy Laser",
    )
    d = import_statblock(text, sfa()).design
    assert [w.fire_link for w in d.weapons] == ["A", "C", "B", "C"]


def test_soak_split_into_armor_and_energy_shields() -> None:
    text = ONE_PER_LINE.replace("Soak: 2", "Soak: 4 (Armor 1, Shields 3)")
    d = import_statblock(text, sfa()).design
    assert (d.soak, d.armor, d.shields) == (4, 1, 3)


def test_out_of_scale_weapon_and_item_prefixes() -> None:
    text = ONE_PER_LINE.replace(
        "2 turreted light lasers", "2 Turreted Starfighter-scale Medium Lasers, 1 Street Fighter scale Light Laser"
    )
    d = import_statblock(text, sfa()).design
    assert [(w.weapon, w.count, w.turret, w.scale) for w in d.weapons] == [
        ("medium-laser", 2, True, "starfighter"),
        ("light-laser", 1, False, "street-fighter"),
    ]


def test_missing_crew_and_concept_are_assumed_and_said() -> None:
    text = "Name: Dart Scale: Starfighter Handling: 1 Soak: 1 Move: 3 Power: 0 Structure: 8 Weapons: 1 Light Laser"
    result = import_statblock(text, sfa())
    assert result.design.crew == 1
    crew = next(e for e in entries(result, "assumed") if e.label == "Crew")
    assert "1 assumed for a Starfighter-scale craft" in crew.message
    assert {e.label for e in entries(result, "assumed")} == {"Concept", "Crew", "Special Equipment", "Accessories"}
    ship = import_statblock(text.replace("Starfighter", "Starship"), sfa())
    assert ship.design.crew == 10


def test_numbers_outside_the_rules_range_are_imported_and_flagged() -> None:
    result = import_statblock(ONE_PER_LINE.replace("Soak: 2", "Soak: 7"), sfa())
    soak = entry_for(result, "7")
    assert result.design.soak == 7
    assert "outside the rules' range 0 to 5" in soak.message


def test_text_after_a_blank_line_is_reported_as_outside_the_block() -> None:
    result = import_statblock(ONE_PER_LINE + "\nThanks for reading, fly safe!\n", sfa())
    skipped = entries(result, "skipped")
    assert [e.text for e in skipped] == ["Thanks for reading, fly safe!"]
    assert skipped[0].line == 14
    assert result.ok


def test_not_understood_pieces_are_reported_with_the_closest_names() -> None:
    text = ONE_PER_LINE.replace("2 turreted light lasers", "2 Lite Lasers, 1 Railgun").replace(
        "sensors,", "Sensers, Warp Core, Light Laser (2),"
    )
    result = import_statblock(text, sfa(), source="red5.txt")
    assert not result.ok
    missed = {e.text: e for e in result.report.not_understood}
    assert set(missed) == {"2 Lite Lasers", "Sensers", "Warp Core", "Light Laser (2)"}
    assert missed["2 Lite Lasers"].suggestions[:2] == ["Light Lasers", "Light Laser"]
    assert (missed["2 Lite Lasers"].line, missed["2 Lite Lasers"].column) == (10, 10)
    assert missed["Sensers"].suggestions[0] == "Sensors"
    assert missed["Warp Core"].suggestions == []
    # the rest is still read
    assert [w.weapon for w in result.design.weapons] == ["railgun"]
    noted = result.design_with_report_notes().notes
    assert noted.startswith('Not understood when imported from a stat block:\n- Weapons: "2 Lite Lasers"')
    assert "Warp Core" in noted and "did you mean 'Sensors'" in noted


def test_a_catalog_name_marked_custom_is_not_understood() -> None:
    text = ONE_PER_LINE.replace("2 turreted light lasers", "1 Light Laser (custom, Damage 9)")
    result = import_statblock(text, sfa())
    (missed,) = result.report.not_understood
    assert "Light Laser is in the catalog" in missed.message


# --- bad input (pure functions) ------------------------------------------------------------------


def problems(text: str, catalog: Catalog | None = None) -> list[str]:
    with pytest.raises(InputError) as exc:
        import_statblocks(text, catalog or sfa(), source="bad.txt")
    return [str(p) for p in exc.value.problems]


def test_garbage_has_no_labels() -> None:
    (msg,) = problems("Lorem ipsum dolor sit amet, consectetur adipiscing elit.\n" * 20)
    assert msg.startswith("bad.txt: no stat-block labels found")


def test_missing_required_labels() -> None:
    (msg,) = problems("Name: Hulk\nScale: Starship\nSoak: 2\n")
    assert msg.startswith("bad.txt:1:1: stat block 'Hulk' lacks Handling:, Move:, Power:, Structure:")


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "CREW: 400",
            "CREW: -5",
            "bad.txt:4:7 at Crew: Crew -5 is impossible: Input should be greater than or equal to 0",
        ),
        ("handling: +1", "handling: 500", "bad.txt:5:11 at Handling: Handling 500 is impossible"),
        ("Soak: 2", "Soak: 99999999999", "bad.txt:6:7 at Soak: Soak 99999999999 is impossibly large"),
        ("Soak: 2", "Soak: two", "bad.txt:6:7 at Soak: Soak 'two' is not a whole number"),
        ("2 turreted light lasers", "0 Light Lasers", "at Weapons: '0 Light Lasers': a count of 0 is impossible"),
        ("additional crew quarters (5)", "FTL (0)", "at Accessories: 'FTL (0)': level 0 is impossible"),
        ("scale: starship+1", "Scale: Starshp", "at Scale: Scale 'Starshp' is not a scale; did you mean 'Starship'"),
        ("scale: starship+1", "Scale: Street Fighter", "is not a scale a spacecraft can be designed at"),
        ("Power: 4", "Power: 4\nSoak: 3", "Soak is given twice in one stat block (first on line 6)"),
    ],
)
def test_impossible_values(old: str, new: str, expected: str) -> None:
    assert old in ONE_PER_LINE
    found = problems(ONE_PER_LINE.replace(old, new))
    assert any(expected in p for p in found), found


def test_too_much_text() -> None:
    (msg,) = problems(ONE_PER_LINE + "x" * MAX_TEXT_BYTES)
    assert f"stat-block text is limited to {MAX_TEXT_BYTES:,}" in msg


def test_several_blocks_where_one_is_expected() -> None:
    with pytest.raises(InputError) as exc:
        import_statblock(published("appendix-1"), sfa())
    assert "the text holds 6 stat blocks" in str(exc.value)


# --- the command line --------------------------------------------------------------------------


def run(*args: str, stdin: str | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return call_shipyard(*args, "--no-user-catalog", stdin=stdin, cwd=cwd)


def test_cli_import_writes_the_sample_design(tmp_path: Path) -> None:
    out = tmp_path / "frigate.ship"
    r = run("import", "statblock", str(STATBLOCKS / "rebel-frigate.txt"), "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert "Rebel Frigate: 29 used" in r.stdout
    assert f"wrote {out}" in r.stdout
    loaded = load_design(out, use_user_folder=False)
    assert without_notes(loaded.design) == without_notes(sample("rebel-frigate").design)


def test_cli_import_from_stdin_with_a_json_report(tmp_path: Path) -> None:
    out = tmp_path / "disk.ship"
    r = run("import", "statblock", "-", "-o", str(out), "--json", stdin=published("alien-disk-fighter"))
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout[: r.stdout.rindex("]") + 1])
    assert report[0]["name"] == "Alien Disk-Fighter"
    assert [e["status"] for e in report[0]["entries"]].count("differs") == 1
    written = load_design(out, use_user_folder=False)
    assert without_notes(written.design) == without_notes(sample("alien-disk-fighter").design)


def test_cli_import_of_several_blocks_writes_a_folder(tmp_path: Path) -> None:
    out = tmp_path / "fleet"
    r = run("import", "statblock", str(EXAMPLES / "appendix-1.txt"), "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in out.iterdir()) == sorted(f"{n}.ship" for n in SAMPLES)
    for name in SAMPLES:
        got = load_design(out / f"{name}.ship", use_user_folder=False).design
        assert without_notes(got) == without_notes(sample(name).design)


def test_cli_import_refuses_to_replace_without_force(tmp_path: Path) -> None:
    out = tmp_path / "fighter.ship"
    out.write_text("keep me")
    r = run("import", "statblock", str(STATBLOCKS / "rebel-fighter.txt"), "-o", str(out))
    assert r.returncode == 2
    assert f"shipyard: error: {out}: exists; use --force to replace it" in r.stderr
    assert out.read_text() == "keep me"
    r = run("import", "statblock", str(STATBLOCKS / "rebel-fighter.txt"), "-o", str(out), "--force")
    assert r.returncode == 0, r.stderr
    assert load_design(out, use_user_folder=False).design.name == "Rebel Fighter"


def test_cli_partial_import_keeps_what_was_not_understood_in_the_notes(tmp_path: Path) -> None:
    text = tmp_path / "odd.txt"
    text.write_text(ONE_PER_LINE.replace("sensors,", "Warp Core,"))
    out = tmp_path / "odd.ship"
    r = run("import", "statblock", str(text), "-o", str(out))
    assert r.returncode == 2
    assert "1 part(s) not understood (listed above); nothing written" in r.stderr
    assert 'not understood  Accessories: "Warp Core"' in r.stdout
    assert not out.exists()
    r = run("import", "statblock", str(text), "-o", str(out), "--partial")
    assert r.returncode == 0, r.stderr
    notes = load_design(out, use_user_folder=False).design.notes
    assert notes.startswith('Not understood when imported from a stat block:\n- Accessories: "Warp Core"')


def test_cli_export_text_and_markdown(tmp_path: Path) -> None:
    r = run("export", "statblock", str(EXAMPLES / "federation-battlesat.ship"))
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-3:] == [
        "Weapons: 1 Turreted Medium Laser",
        "Special Equipment: Artificial Intelligence (5)",
        "Accessories: None",
    ]
    r = run("export", "statblock", str(EXAMPLES / "federation-battlesat.ship"), "--markdown")
    assert r.stdout.splitlines()[0] == "- **Name:** Federation Battlesat"
    out = tmp_path / "two.txt"
    r = run(
        "export",
        "statblock",
        str(EXAMPLES / "rebel-fighter.ship"),
        str(EXAMPLES / "alien-mothership.ship"),
        "-o",
        str(out),
    )
    assert r.returncode == 0, r.stderr
    # the sample's notes cannot go into a stat block, and the command says so
    assert "alien-mothership.ship: stat-block text cannot hold notes" in r.stderr
    # ... nor the preset the samples are read under: read back, they are read under the default
    assert "rebel-fighter.ship: stat-block text cannot hold notes, preset sample-ships\n" in r.stderr
    back = import_statblocks(out.read_text(), sfa())
    assert [b.design.name for b in back] == ["Rebel Fighter", "Alien Mothership"]


BAD_TEXT = {
    "garbage.txt": ("The quick brown fox jumps over the lazy dog.\n" * 40, "no stat-block labels found"),
    "missing.txt": ("Name: Hulk\nScale: Starship\nSoak: 2\n", "lacks Handling:, Move:, Power:, Structure:"),
    "impossible.txt": (
        ONE_PER_LINE.replace("CREW: 400", "CREW: -5"),
        "4:7 at Crew: Crew -5 is impossible",
    ),
    "huge-number.txt": (ONE_PER_LINE.replace("Soak: 2", "Soak: 123456789012345"), "is impossibly large"),
    "megabyte.txt": (ONE_PER_LINE + ("Sensors, " * 120_000), "stat-block text is limited to 262,144"),
}


@pytest.mark.parametrize("name", sorted(BAD_TEXT))
def test_cli_bad_stat_block_text(tmp_path: Path, name: str) -> None:
    text, expected = BAD_TEXT[name]
    src = tmp_path / name
    src.write_text(text, encoding="utf-8")
    out = tmp_path / "out.ship"
    r = run("import", "statblock", str(src), "-o", str(out))
    assert r.returncode == 2, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    errors = [ln for ln in r.stderr.splitlines() if ln.startswith("shipyard: error: ")]
    assert errors and all(str(src) in ln for ln in errors), r.stderr
    assert any(expected in ln for ln in errors), r.stderr
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


def test_cli_binary_input(tmp_path: Path) -> None:
    src = tmp_path / "ship.png"
    src.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8)
    r = run("import", "statblock", str(src), "-o", str(tmp_path / "x.ship"))
    assert r.returncode == 2
    assert f"shipyard: error: {src}: not UTF-8 text (byte 0 is 0x89); is this a binary file?" in r.stderr
    assert "Traceback" not in r.stderr
    assert not (tmp_path / "x.ship").exists()


def test_cli_missing_file(tmp_path: Path) -> None:
    r = run("import", "statblock", str(tmp_path / "nope.txt"), "-o", str(tmp_path / "x.ship"))
    assert r.returncode == 2
    assert f"shipyard: error: {tmp_path / 'nope.txt'}: cannot read file: No such file or directory" in r.stderr


class _ClosedPipe(io.StringIO):
    """Standard output to a reader that stopped early (``| head -1``, quitting ``less``)."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


@pytest.mark.parametrize(
    "command",
    [
        ["import", "statblock", "ship.txt", "-o", "ship.ship"],
        [
            "convert",
            "trinity",
            str(ROOT / "catalogs" / "trinity" / "examples" / "anvil-frigate.yaml"),
            "-o",
            "ship.ship",
        ],
    ],
    ids=["import", "convert"],
)
def test_a_reader_that_stops_early_still_gets_the_design_written(
    command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``import ... | head -1`` exited 0 and wrote nothing: the report was printed before the
    design was saved, and a closed pipe ends a command quietly. The work is done first."""
    from shipyard.cli import main

    (tmp_path / "ship.txt").write_text(
        "Name: Test Ship\nScale: Starfighter\nHandling: 0\nSoak: 2\nMove: 2\nPower: 1\nStructure: 10\n"
        "Weapons: 2 Light Lasers\nAccessories: Sensors\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdout", _ClosedPipe())
    assert main([*command, "--no-user-catalog"]) == 0
    assert load_design(tmp_path / "ship.ship", use_user_folder=False).design.name in (
        "Test Ship",
        "Anvil-class Picket Frigate",
    )


def test_import_of_several_designs_into_a_name_like_a_design_file_is_refused(tmp_path: Path) -> None:
    """``-o f.ship`` with a text of six designs silently made a folder ``f.ship/``; ``-o
    out.pdf`` wrote a design file named ``.pdf`` without a word; ``convert trinity -`` said
    "-: cannot read file". Each now says what it does or why it will not."""
    appendix = ROOT / "catalogs" / "space-fighter-alpha" / "examples" / "appendix-1.txt"
    out = call_shipyard("import", "statblock", appendix, "-o", tmp_path / "f.ship", "--no-user-catalog")
    assert out.returncode == 2
    assert "the text holds 6 designs, so -o must name a folder" in out.stderr
    assert f"(allowed: a folder, for example {tmp_path / 'f'}{os.sep})" in out.stderr
    assert not (tmp_path / "f.ship").exists()
    assert call_shipyard("import", "statblock", appendix, "-o", tmp_path / "f", "--no-user-catalog").returncode == 0
    assert len(list((tmp_path / "f").glob("*.ship"))) == 6
    one = tmp_path / "one.txt"
    one.write_text(
        (
            "Name: Test Ship\nScale: Starfighter\nHandling: 0\nSoak: 2\nMove: 2\nPower: 1\nStructure: 10\n"
            "Weapons: 2 Light Lasers\nAccessories: Sensors\n"
        ),
        encoding="utf-8",
    )
    pdf = call_shipyard("import", "statblock", one, "-o", tmp_path / "out.pdf", "--no-user-catalog")
    assert pdf.returncode == 0 and "shipyard: note: design files usually end in .ship" in pdf.stderr
    vessel = (ROOT / "catalogs" / "trinity" / "examples" / "anvil-frigate.yaml").read_text(encoding="utf-8")
    piped = call_shipyard("convert", "trinity", "-", "-o", tmp_path / "x.ship", "--no-user-catalog", stdin=vessel)
    assert piped.returncode == 2
    assert "convert trinity reads a file, not standard input ('-')" in piped.stderr
    assert "cannot read file" not in piped.stderr


@pytest.mark.parametrize(
    ("update", "place"),
    [
        ({"name": "Red `Five`"}, "name"),
        ({"name": "Viper **Mk II**"}, "name"),
        ({"custom_weapons": [{"name": "Gauss Cannon, Mk II", "count": 1, "damage": 8}]}, "custom_weapons[0].name"),
        ({"custom_weapons": [{"name": "Gauss; Cannon", "count": 1, "damage": 8}]}, "custom_weapons[0].name"),
    ],
    ids=["backticks", "asterisks", "comma", "semicolon"],
)
def test_export_names_what_does_not_read_back_as_written(update: dict[str, Any], place: str) -> None:
    """Export said nothing of a custom weapon "Gauss Cannon, Mk II" (import then refused the
    line) or of a name with Markdown's marks (it came back changed): what the text holds in
    principle was taken to come back. Export reads back what it writes and names the rest."""
    catalog = sfa()
    design = catalog.module.resolve(Design.model_validate(starfighter(catalog).model_dump() | update), catalog)
    assert place in lost_in_text(design, catalog)
    plain = starfighter(catalog)
    assert lost_in_text(plain, catalog) == []  # a design the text holds whole: nothing named
