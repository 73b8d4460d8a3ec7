"""The Cluster Falk: every rule of the reading, with the text's own numbers.

Each test builds a ship record, evaluates it as ``shipyard check`` does and asserts what
a GM reads in the report: the actions this ship may take and why not, the consequence
slots, the skills that are rolled, handling, jump range and fuel, and every finding.
"""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from shipyard.core import catalog as catalog_module
from shipyard.core.catalog import load_catalog
from shipyard.core.errors import InputError
from shipyard.core.evaluate import evaluate
from shipyard.core.model import Catalog
from shipyard.core.report import Report
from shipyard.rulesets.cluster_falk import Design, detection_modifier, size_advantage
from shipyard.rulesets.cluster_falk.items import DetectionModifier, SizeAdvantage

from .conftest import ROOT

RULESET = "cluster-falk"
BUILTIN = ROOT / "catalogs" / RULESET


def cf(preset: str = "as-read") -> Catalog:
    return load_catalog(RULESET, preset=preset, use_user_folder=False)


BASE: dict[str, Any] = {
    "name": "Test Ship",
    "size": 4,
    "scale": 3,
    "speed": 2,
    "tech_level": 10,
    "sensors": "civilian",
    "ratings": {"drives": 3, "guns": 2, "shields": 2, "systems": 1},
    "stations": ["cockpit"],
    "stress": {"hull": 3, "systems": 3},
}


def record(catalog: Catalog | None = None, **fields: Any) -> Design:
    """A ship record: BASE with ``fields`` changed, resolved against the catalog."""
    catalog = catalog or cf()
    data = {**BASE, **fields}
    return catalog.module.resolve(Design.model_validate(data), catalog)  # type: ignore[no-any-return]


def check(preset: str = "as-read", **fields: Any) -> Report:
    catalog = cf(preset)
    return evaluate(record(catalog, **fields), catalog)


def action(report: Report, action_id: str) -> Any:
    found = report.derived.action(action_id)
    assert found is not None, action_id
    return found


def figure(report: Report, figure_id: str) -> Any:
    found = report.derived.figure(figure_id)
    assert found is not None, f"no figure {figure_id!r}: {[f.id for f in report.derived.figures]}"
    return found


def findings(report: Report, code: str) -> list[Any]:
    return [f for f in report.findings if f.code == code]


# --- Engagement Actions: who may take which ---------------------------------------------------------


@pytest.mark.parametrize(("scale", "allowed"), [(0, True), (2, True), (3, True), (4, False), (5, False), (6, False)])
def test_desperate_attack_and_full_defense_up_to_scale_3(scale: int, allowed: bool) -> None:
    report = check(scale=scale)
    for action_id in ("desperate-attack", "full-defense"):
        a = action(report, action_id)
        assert a.allowed is allowed
        assert a.reason == ("" if allowed else f"only up to Scale 3; this ship is Scale {scale}")


@pytest.mark.parametrize(("scale", "allowed"), [(0, False), (2, False), (3, True), (4, True), (5, True), (6, True)])
def test_return_fire_and_fire_decoys_from_scale_3(scale: int, allowed: bool) -> None:
    report = check(scale=scale)
    for action_id in ("return-fire", "fire-decoys"):
        a = action(report, action_id)
        assert a.allowed is allowed
        assert a.reason == ("" if allowed else f"only at Scale 3 or above; this ship is Scale {scale}")


@pytest.mark.parametrize(("scale", "allowed"), [(2, False), (3, False), (4, True), (5, True), (6, True)])
def test_point_defense_from_scale_4(scale: int, allowed: bool) -> None:
    a = action(check(scale=scale), "point-defense")
    assert (a.allowed, a.reason) == (
        allowed,
        "" if allowed else f"only at Scale 4 or above; this ship is Scale {scale}",
    )


@pytest.mark.parametrize("scale", [0, 2, 3, 4, 6])
def test_inside_their_shields_is_for_every_ship_against_a_target_of_scale_4_or_more(scale: int) -> None:
    a = action(check(scale=scale), "inside-their-shields")
    assert a.allowed and a.details["notes"] == "target Scale 4+"
    assert (a.details["skill"], a.details["turn"]) == ("Pilot/Guns", "full turn")


def test_every_standard_action_of_the_text_with_its_skill_and_turn_part() -> None:
    report = check()
    got = {(a.id, a.group, a.details["skill"], a.details["turn"]) for a in report.derived.actions}
    assert got == {
        ("desperate-attack", "attack", "Pilot/Guns", "full turn"),
        ("on-their-tail", "attack", "Pilot/Guns", "full turn"),
        ("targeted-attack", "attack", "Guns", "full turn"),
        ("inside-their-shields", "attack", "Pilot/Guns", "full turn"),
        ("snap-shot", "attack", "Guns", "half turn"),
        ("return-fire", "attack", "Guns", "second half"),
        ("target-lock", "attack", "Guns", "full turn"),
        ("special-weapon", "attack", "Guns", "full turn"),
        ("grapple-and-board", "attack", "Pilot", "second half"),
        ("create-an-advantage", "non-attack", "Any", "either half"),
        ("push", "non-attack", "Pilot", "second half"),
        ("evade", "non-attack", "Pilot", "half turn"),
        ("repair", "non-attack", "Engineering", "second half"),
        ("pickup", "non-attack", "Pilot", "full turn"),
        ("launch", "non-attack", "Systems", "second half"),
        ("shake-off-a-tail", "non-attack", "Pilot", "full turn"),
        ("reposition", "non-attack", "Pilot", "either half"),
        ("point-defense", "non-attack", "Guns", "second half"),
        ("fire-decoys", "non-attack", "Guns", "either half"),
        ("full-defense", "non-attack", "Pilot", "full turn"),
        ("jump-to-lightspeed", "non-attack", "Drives", "full turn"),
    }
    assert all(
        a.source.startswith("The Cluster Falk: Starship Rules, Engagement Actions") for a in report.derived.actions
    )


def test_a_special_weapon_only_when_one_is_installed() -> None:
    assert action(check(), "special-weapon").reason == "needs a special weapon installed"
    armed = check(special_weapons=[{"id": "Tractor Beam"}])
    assert action(armed, "special-weapon").allowed
    custom = check(special_weapons=[{"name": "Ion cannon", "text": "knocks out Systems"}])
    assert action(custom, "special-weapon").allowed


def test_launch_only_with_a_hangar_and_craft_in_it() -> None:
    assert action(check(), "launch").reason == "needs a hangar"
    assert action(check(hangar={"craft": []}), "launch").reason == "needs craft in the hangar"
    carrier = check(hangar={"craft": [{"name": "Fighter", "count": 12}]})
    a = action(carrier, "launch")
    assert a.allowed and a.details["notes"] == "modified by Engineering"
    assert a.details["roll"] == "Systems Average (+1) · Engineering 50%"


def test_jump_to_lightspeed_only_with_a_hyperdrive_and_half_a_turn_with_advanced_astrogation() -> None:
    jump = action(check(), "jump-to-lightspeed")
    assert (jump.allowed, jump.reason) == (False, "needs a hyperdrive")
    plain = action(check(hyperdrive=True), "jump-to-lightspeed")
    assert plain.allowed and plain.details["turn"] == "full turn"
    assert plain.details["notes"] == "modified by Pilot/Computing/Engineering; no tail; 2+ levels of separation"
    fast = action(check(hyperdrive=True, stunts=[{"id": "Advanced Astrogation"}]), "jump-to-lightspeed")
    assert fast.details["turn"] == "half turn"
    assert "half a turn with Advanced Astrogation" in str(fast.details["notes"])
    damaged = check(hyperdrive=True, stunts=[{"id": "advanced-astrogation", "damaged": True}])
    assert action(damaged, "jump-to-lightspeed").details["turn"] == "full turn"


@pytest.mark.parametrize(("turrets", "per_turn"), [(0, 1), (1, 1), (3, 3)])
def test_fire_decoys_once_a_turn_per_gunner_or_turret(turrets: int, per_turn: int) -> None:
    report = check(turrets=[{"name": f"Turret {i + 1}"} for i in range(turrets)])
    assert action(report, "fire-decoys").details["notes"] == f"{per_turn} a turn (once per gunner or turret)"


def test_an_action_roll_names_the_effective_skills_and_ratings() -> None:
    crew = [{"name": "Ace", "station": "cockpit", "skills": {"pilot": 65, "military-training": 55}}]
    report = check(crew=crew, ratings={"drives": 4, "guns": 3, "shields": 2, "systems": 1})
    assert (
        action(report, "desperate-attack").details["roll"]
        == "Pilot 65% · Guns Good (+3) · Military Training (Navy) 55%"
    )
    assert action(report, "evade").details["roll"] == "Pilot 65% · Drives Great (+4)"


# --- Damage: consequences and stress ------------------------------------------------------------------


@pytest.mark.parametrize(("scale", "extreme"), [(2, False), (5, False), (6, True), (9, True)])
def test_one_set_of_consequences_and_the_extreme_slot_only_at_scale_6(scale: int, extreme: bool) -> None:
    report = check(scale=scale)
    slots = {s.id: s for s in report.derived.slots}
    assert [(s.name, s.value) for s in report.derived.slots] == [
        ("Mild", 2),
        ("Moderate", 4),
        ("Serious", 6),
        ("Extreme", 8),
    ]
    assert all(slots[f"consequences.{s}"].available for s in ("mild", "moderate", "serious"))
    ex = slots["consequences.extreme"]
    assert ex.available is extreme
    assert ex.reason == ("" if extreme else f"only at Scale 6 or above; this ship is Scale {scale}")
    text = "Mild 2, Moderate 4, Serious 6" + (", Extreme 8" if extreme else "")
    assert figure(report, "consequence-slots").value == text


def test_each_consequence_carries_its_aspect_and_the_track_it_was_taken_on() -> None:
    report = check(
        consequences={
            "mild": {"aspect": "Scorched plating", "track": "hull"},
            "serious": {"aspect": "Fried targeting computer", "track": "systems"},
        },
        stunts=[{"id": "fast-ship"}, {"id": "maneuverability"}, {"name": "Sensor ghost", "text": "+2 to hide"}],
    )
    slots = {s.id: s for s in report.derived.slots}
    assert (slots["consequences.mild"].text, slots["consequences.mild"].track) == ("Scorched plating", "hull")
    assert (slots["consequences.serious"].text, slots["consequences.serious"].track) == (
        "Fried targeting computer",
        "systems",
    )
    assert (slots["consequences.moderate"].text, slots["consequences.moderate"].track) == ("", "")


def test_an_extreme_consequence_filled_below_scale_6_is_an_error() -> None:
    taken = {"extreme": {"aspect": "Reactor breach", "track": "hull"}}
    (f,) = findings(check(scale=5, consequences=taken), "consequence-not-available")
    assert (f.severity, f.path, f.actual, f.limit) == ("error", "consequences.extreme", 5, 6)
    assert (
        f.message == "the Extreme consequence slot holds 'Reactor breach', but it is only at Scale 6 or above; "
        "this ship is Scale 5"
    )
    assert f.source == "The Cluster Falk: Starship Rules, Damage"
    assert check(scale=6, consequences=taken).valid


def test_systems_consequences_damage_a_stunt_per_2_shifts() -> None:
    stunts = [{"id": "fast-ship"}, {"id": "maneuverability"}, {"name": "Sensor ghost", "text": "+2 to hide"}]
    moderate = {"moderate": {"aspect": "Shorted relays", "track": "systems"}}
    report = check(stunts=stunts, consequences=moderate)
    assert figure(report, "stunts-to-damage").value == 2
    (f,) = findings(report, "stunts-not-damaged")
    assert (f.severity, f.path, f.actual, f.limit) == ("warning", "stunts", 0, 2)
    marked = [{**stunts[0], "damaged": True}, {**stunts[1], "damaged": True}, stunts[2]]
    assert not findings(check(stunts=marked, consequences=moderate), "stunts-not-damaged")
    on_hull = check(stunts=stunts, consequences={"moderate": {"aspect": "Holed", "track": "hull"}})
    assert figure(on_hull, "stunts-to-damage").value == 0
    # Mild 2 + Serious 6 on Systems: 8 shifts, 4 stunts, but the ship has only 3
    both = {"mild": {"aspect": "a", "track": "systems"}, "serious": {"aspect": "b", "track": "systems"}}
    assert figure(check(stunts=stunts, consequences=both), "stunts-to-damage").value == 3


@pytest.mark.parametrize("boxes", [1, 3, 10])
def test_stress_tracks_have_valued_boxes(boxes: int) -> None:
    report = check(stress={"hull": boxes, "systems": 2})
    hull, systems = report.derived.track("stress.hull"), report.derived.track("stress.systems")
    assert hull is not None and systems is not None
    assert [b.value for b in hull.boxes] == list(range(1, boxes + 1))
    assert [b.value for b in systems.boxes] == [1, 2]
    assert (hull.name, hull.path, systems.name) == ("Hull", "stress.hull", "Systems")
    assert report.valid


@pytest.mark.parametrize(
    ("hull", "systems", "path", "actual"), [(0, 3, "stress.hull", 0), (3, 11, "stress.systems", 11)]
)
def test_a_stress_track_outside_1_to_10_boxes_is_an_error(hull: int, systems: int, path: str, actual: int) -> None:
    report = check(stress={"hull": hull, "systems": systems})
    (f,) = findings(report, "stat-out-of-range")
    assert (f.severity, f.path, f.actual, f.limit) == ("error", path, actual, [1, 10])
    assert not report.valid


def test_stress_ticked_in_play_marks_those_boxes_and_no_others() -> None:
    """A hit ticks the box of its shifts, so a later box may be ticked with an earlier one
    clear: the report marks exactly the boxes the record ticks, on each track."""
    report = check(stress={"hull": 4, "systems": 3, "hull_ticked": [3], "systems_ticked": [1, 2]})
    hull, systems = report.derived.track("stress.hull"), report.derived.track("stress.systems")
    assert hull is not None and systems is not None
    assert [b.marked for b in hull.boxes] == [False, False, True, False]
    assert [b.marked for b in systems.boxes] == [True, True, False]
    assert report.valid and findings(report, "stress-box-not-on-track") == []


def test_a_record_without_ticks_reads_as_no_stress_ticked() -> None:
    """A file written before ticks were recorded holds only the tracks' lengths: clear tracks."""
    report = check(stress={"hull": 3, "systems": 2})
    assert not any(b.marked for t in report.derived.tracks if t.id.startswith("stress.") for b in t.boxes)
    assert record().stress.hull_ticked == [] and record().stress.systems_ticked == []


def test_a_tick_on_a_box_the_track_does_not_have_is_an_error_at_that_tick() -> None:
    """More ticks than boxes (the track made shorter after it was ticked, or a file written
    by hand): the sheet has no box to show the tick in, so the record does not pass, and the
    finding is at the tick to clear, with the track's length and the section."""
    report = check(stress={"hull": 3, "systems": 3, "hull_ticked": [1, 4], "systems_ticked": [3]})
    (f,) = findings(report, "stress-box-not-on-track")
    assert (f.severity, f.path, f.actual, f.limit) == ("error", "stress.hull_ticked[1]", 4, 3)
    assert f.message == "Hull stress box 4 is ticked, but the Hull track has 3 boxes"
    assert f.source == "The Cluster Falk: Starship Rules, Damage; Engagement Actions (Repair)"
    assert not report.valid
    hull = report.derived.track("stress.hull")
    assert hull is not None and [b.marked for b in hull.boxes] == [True, False, False]


def test_a_box_ticked_twice_is_bad_input() -> None:
    """A box is ticked or clear: the same box twice in a track's ticks is refused when read."""
    with pytest.raises(ValidationError, match="box 2 is ticked twice"):
        record(stress={"hull": 3, "systems": 3, "systems_ticked": [2, 2]})


def test_the_hull_consequence_effects_as_a_4df_table() -> None:
    table = check().derived.table("hull-consequences")
    assert table is not None and table.columns == ["4dF", "Effect", "Chance"]
    assert [r[0] for r in table.rows] == ["+4", "+3", "+2", "+1", "0", "-1", "-2", "-3", "-4"]
    assert table.rows[0][1] == "Hull breach, cargo compartment; cargo lost, no injuries"
    assert table.rows[-1][1] == "Catastrophic detonation; ship explodes, no chance of escape"
    # 4dF: 1, 4, 10, 16, 19, 16, 10, 4, 1 ways in 81
    assert [r[2] for r in table.rows] == ["1.2%", "4.9%", "12.3%", "19.8%", "23.5%", "19.8%", "12.3%", "4.9%", "1.2%"]
    assert table.notes == "Roll 4dF when a Hull consequence is filled."
    chosen = check("gm-chooses-hull-effects").derived.table("hull-consequences")
    assert chosen is not None and chosen.columns == ["Row", "Effect"]
    assert chosen.notes == "When a Hull consequence is filled, the GM chooses the row that fits the hit."


# --- Size, Speed, engagement ----------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "penalty"), [(0, 0), (9, 0), (10, -2), (14, -2)])
def test_ships_of_size_10_or_above_take_minus_2_to_handling_on_engagement(size: int, penalty: int) -> None:
    f = figure(check(size=size, speed=6), "handling-penalty")
    assert f.value == penalty
    assert f.detail == (
        f"Size {size} is 10 or above: -2 to Handling tests, whatever the Speed"
        if penalty
        else "no penalty below Size 10"
    )


def test_a_chase_adds_the_speed_rating_to_the_pilot_percentage_at_10_percent_a_step() -> None:
    crew = [{"name": "Ace", "station": "cockpit", "skills": {"pilot": 65}}]
    f = figure(check(crew=crew, speed=4), "chase")
    assert (f.value, f.kind, f.shown()) == (105, "percent", "105%")
    assert f.detail == "Pilot 65% + Speed +4 x 10% = +40%"


def test_the_engagement_ladder_starts_at_the_pilot_roll_divided_by_10() -> None:
    table = check(skills={"pilot": 70}).derived.table("engagement-ladder")
    assert table is not None
    assert table.rows[0] == ["Entering", "roll Pilot (70%): the result / 10 is your level"]
    assert table.rows[1][1].startswith("every combatant moves 1 level down")
    # a 100% roll / 10 is the top of the ladder: a box a level, from 10 down to 0
    levels = check().derived.track("engagement.level")
    assert levels is not None and [b.value for b in levels.boxes] == list(range(10, -1, -1))


# --- Hyperspace Jumps --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("drives", "parsecs"), [(0, 0), (1, 1), (4, 4), (8, 8)])
def test_jump_range_is_1_parsec_a_drives_point(drives: int, parsecs: int) -> None:
    report = check(hyperdrive=True, ratings={**BASE["ratings"], "drives": drives})
    f = figure(report, "jump-range")
    assert (f.value, f.unit) == (parsecs, "parsec" if parsecs == 1 else "parsecs")  # "1 parsec", "4 parsecs"
    assert f.detail == f"1 parsec a Drives point (Drives {drives:+d})".replace("+0", "0")


def test_a_jump_uses_half_the_fuel_so_a_full_tank_gives_2_jumps() -> None:
    report = check(hyperdrive=True, skills={"navigate": 60})
    assert figure(report, "jumps-per-tank").value == 2
    fuel = report.derived.track("fuel")
    assert fuel is not None and [b.label for b in fuel.boxes] == ["jump 1", "jump 2"]
    table = report.derived.table("hyperspace")
    assert table is not None
    assert {r[0]: r[1] for r in table.rows} == {
        "Success": "+1 a parsec; a hyperspace lane: 1 or 2 less",
        "Calculations": "Navigate 60%, 1+ round, again after each jump",
        "Departure": "100+ diameters from any planet or planetoid",
        "Duration": "about 1 week",
        "Fuel": "50% of the reserves a jump",
    }


def test_the_fuel_a_jump_takes_is_the_catalogs_number() -> None:
    catalog = cf()
    rules = [
        r.with_changes({"fuel_per_jump_percent": 25}) if r.definition.id == "hyperspace-jumps" else r
        for r in catalog.rules
    ]
    quarter = dataclasses.replace(catalog, rules=rules)
    report = evaluate(record(quarter, hyperdrive=True), quarter)
    assert figure(report, "jumps-per-tank").value == 4
    fuel = report.derived.track("fuel")
    assert fuel is not None and len(fuel.boxes) == 4


def test_no_hyperdrive_no_jump_range_no_fuel_track() -> None:
    report = check(hyperdrive=False, ratings={**BASE["ratings"], "drives": 5})
    f = figure(report, "jump-range")
    assert (f.value, f.detail) == (0, "no hyperdrive")
    assert report.derived.figure("jumps-per-tank") is None
    assert report.derived.track("fuel") is None


# --- Ship Skills and Crew Skills -----------------------------------------------------------------------------

SKILLS = ["pilot", "sensors", "navigate", "engineering", "computing", "military-training"]


def skill(report: Report, skill_id: str) -> int:
    return int(figure(report, f"skill.{skill_id}").value)


def test_every_function_the_record_does_not_rate_is_the_ais_50_percent() -> None:
    report = check()
    for s in SKILLS:
        f = figure(report, f"skill.{s}")
        assert (f.value, f.kind, f.shown()) == (50, "percent", "50%")
        assert f.detail == "+5 on the ladder; the ship's AI"
    rated = check(skills={"pilot": 70, "sensors": 0})
    assert (skill(rated, "pilot"), skill(rated, "sensors"), skill(rated, "navigate")) == (70, 0, 50)
    assert figure(rated, "skill.pilot").detail == "+7 on the ladder; the record's rating"


def test_without_ai_every_unrated_function_is_0_percent() -> None:
    report = check("crewed-ships", skills={"pilot": 40})
    assert [skill(report, s) for s in SKILLS] == [40, 0, 0, 0, 0, 0]


@pytest.mark.parametrize(("percent", "step"), [(0, 0), (9, 0), (10, 1), (50, 5), (59, 5), (60, 6), (100, 10)])
def test_a_percentage_reads_on_the_ladder_at_10_percent_a_step(percent: int, step: int) -> None:
    f = figure(check(skills={"sensors": percent}), "skill.sensors")
    assert f.detail.startswith(f"{step:+d} on the ladder;" if step else "0 on the ladder;")


def test_a_crew_member_at_the_right_station_takes_over_when_higher() -> None:
    better = [{"name": "Grubb", "station": "engineering", "skills": {"craft-engineering": 65}}]
    worse = [{"name": "Grubb", "station": "engineering", "skills": {"craft-engineering": 40}}]
    stations = ["cockpit", "engineering"]
    up = check(stations=stations, crew=better)
    assert skill(up, "engineering") == 65
    assert figure(up, "skill.engineering").detail == "+6 on the ladder; Grubb (Engineering), over the ship's 50%"
    assert skill(check(stations=stations, crew=worse), "engineering") == 50


def test_the_pilot_in_the_cockpit_always_counts_even_below_the_ship() -> None:
    rookie = [{"name": "Rookie", "station": "cockpit", "skills": {"pilot": 30}}]
    report = check(crew=rookie)
    assert skill(report, "pilot") == 30
    assert "the pilot always counts" in figure(report, "skill.pilot").detail


def test_a_pilot_away_from_the_cockpit_or_command_deck_cannot_fly() -> None:
    ace = [{"name": "Ace", "station": "engineering", "skills": {"pilot": 90}}]
    assert skill(check(stations=["cockpit", "engineering"], crew=ace), "pilot") == 50
    on_deck = [{"name": "Ace", "station": "command-deck", "skills": {"pilot": 90}}]
    assert skill(check(stations=["command-deck"], crew=on_deck), "pilot") == 90


def test_engineering_is_used_from_anywhere_aboard() -> None:
    gunner = [{"name": "Sella", "station": "Dorsal", "skills": {"craft-engineering": 70}}]
    report = check(turrets=[{"name": "Dorsal", "crewed": True}], crew=gunner)
    assert skill(report, "engineering") == 70


def test_a_crew_member_at_no_station_still_counts_for_engineering_only() -> None:
    aboard = [{"name": "Pell", "skills": {"craft-engineering": 75, "pilot": 90}}]
    report = check(crew=aboard)
    assert (skill(report, "engineering"), skill(report, "pilot")) == (75, 50)
    crew = report.derived.table("crew")
    assert crew is not None and crew.rows == [["Pell", "aboard, at no station", "Craft (Engineering) 75%, Pilot 90%"]]


def test_detection_takes_a_crew_members_science_or_military_training() -> None:
    comms = [{"name": "Tovar", "station": "sensors", "skills": {"science-comms": 65}}]
    assert skill(check(stations=["cockpit", "sensors"], crew=comms), "sensors") == 65
    navy = [{"name": "Kor", "station": "command-deck", "skills": {"military-training": 75}}]
    assert skill(check(stations=["command-deck"], crew=navy), "sensors") == 75


def test_an_unmanned_turret_fires_at_the_ais_rating_and_a_gunner_when_better() -> None:
    turrets = [{"name": "Dorsal", "crewed": True}, {"name": "Ventral"}, {"name": "Aft", "crewed": True}]
    crew = [
        {"name": "Sella", "station": "Dorsal", "skills": {"military-training": 70}},
        {"name": "Dunn", "station": "Aft", "skills": {"military-training": 40}},
    ]
    table = check(turrets=turrets, crew=crew).derived.table("turrets")
    assert table is not None
    assert table.rows == [
        ["Dorsal", "Sella", "70%"],
        ["Ventral", "unmanned: the AI", "50%"],
        ["Aft", "Dunn (the ship's skill)", "50%"],
    ]
    rated = check(turrets=turrets[1:2], skills={"military-training": 60}).derived.table("turrets")
    assert rated is not None and rated.rows == [["Ventral", "unmanned: the AI", "60%"]]


def test_more_gunners_than_turrets_is_a_warning() -> None:
    crew = [
        {"name": "Sella", "station": "Dorsal", "skills": {"military-training": 70}},
        {"name": "Dunn", "station": "Dorsal", "skills": {"military-training": 40}},
    ]
    report = check(turrets=[{"name": "Dorsal", "crewed": True}], crew=crew)
    (f,) = findings(report, "more-gunners-than-turrets")
    assert (f.severity, f.path, f.actual, f.limit) == ("warning", "crew[1].station", 2, 1)
    assert f.message == "2 gunners (Sella, Dunn) sit at the Dorsal; a turret takes one"
    assert report.valid


def test_a_gunner_in_a_turret_marked_unmanned_is_a_warning() -> None:
    crew = [{"name": "Sella", "station": "Dorsal", "skills": {"military-training": 70}}]
    (f,) = findings(check(turrets=[{"name": "Dorsal"}], crew=crew), "turret-crew-mismatch")
    assert (f.severity, f.path) == ("warning", "turrets[0].crewed")


def test_a_station_with_no_one_and_no_ai_is_a_warning() -> None:
    report = check(stations=["cockpit", "engineering"], skills={"engineering": 0})
    (f,) = findings(report, "station-unmanned")
    assert (f.severity, f.path) == ("warning", "stations[1]")
    assert f.message == "nobody sits at the Engineering, and the ship has no AI for Engineering (0%)"
    manned = [{"name": "Grubb", "station": "engineering", "skills": {"craft-engineering": 55}}]
    assert not findings(
        check(stations=["cockpit", "engineering"], skills={"engineering": 0}, crew=manned), "station-unmanned"
    )
    # a ship without AIs: the empty cockpit is flagged, and the unmanned turret cannot fire
    bare = check("crewed-ships", turrets=[{"name": "Dorsal"}])
    assert sorted(f.path for f in findings(bare, "station-unmanned")) == ["stations[0]", "turrets[0].crewed"]


# --- ranges ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rating", "value", "ok"), [("guns", 8, True), ("guns", 9, False), ("drives", -1, False), ("shields", 0, True)]
)
def test_ratings_run_from_mediocre_0_to_legendary_8(rating: str, value: int, ok: bool) -> None:
    report = check(ratings={**BASE["ratings"], rating: value})
    found = findings(report, "stat-out-of-range")
    assert report.valid is ok
    if not ok:
        (f,) = found
        assert (f.severity, f.path, f.actual, f.limit) == ("error", f"ratings.{rating}", value, [0, 8])


def test_ratings_figures_carry_the_ladder_word() -> None:
    report = check(ratings={"drives": 4, "guns": 0, "shields": 8, "systems": 3})
    shown = {r: figure(report, r).shown() for r in ("drives", "guns", "shields", "systems")}
    assert shown == {
        "drives": "Great (+4)",
        "guns": "Mediocre (+0)",
        "shields": "Legendary (+8)",
        "systems": "Good (+3)",
    }


@pytest.mark.parametrize("value", [-1, 101])
def test_skills_outside_0_to_100_percent_are_errors(value: int) -> None:
    (f,) = findings(check(skills={"pilot": value}), "skill-out-of-range")
    assert (f.severity, f.path, f.actual, f.limit) == ("error", "skills.pilot", value, [0, 100])
    crew = [{"name": "Ace", "station": "cockpit", "skills": {"pilot": value}}]
    (g,) = findings(check(crew=crew), "skill-out-of-range")
    assert (g.path, g.message) == ("crew[0].skills.pilot", f"Ace's Pilot {value}% is outside 0..100%")
    assert check(skills={"pilot": 100, "sensors": 0}).valid


@pytest.mark.parametrize(("field", "path"), [("size", "size"), ("scale", "scale"), ("tech_level", "tech_level")])
def test_size_scale_and_tech_level_may_not_be_negative(field: str, path: str) -> None:
    (f,) = findings(check(**{field: -1}), "stat-out-of-range")
    assert (f.path, f.actual) == (path, -1)


# --- equipment claimed ------------------------------------------------------------------------------------


def test_a_special_weapons_console_without_a_special_weapon_is_an_error() -> None:
    report = check(stations=["cockpit", "special-weapons"])
    (f,) = findings(report, "special-weapon-without-equipment")
    assert (f.severity, f.path) == ("error", "stations[1]")
    assert f.message == "the Special weapons console is for a ship with a special weapon installed; this one has none"
    assert check(stations=["cockpit", "special-weapons"], special_weapons=[{"id": "tractor-beam"}]).valid


def test_advanced_astrogation_without_a_hyperdrive_claims_a_jump() -> None:
    (f,) = findings(check(stunts=[{"id": "advanced-astrogation"}]), "jump-without-hyperdrive")
    assert (f.severity, f.path, f.limit) == ("error", "stunts[0].id", "a hyperdrive")
    assert check(hyperdrive=True, stunts=[{"id": "advanced-astrogation"}]).valid
    (g,) = findings(check(stations=["cockpit", "astrogation"]), "jump-without-hyperdrive")
    assert g.path == "stations[1]"


def test_a_flight_deck_without_a_hangar_claims_a_launch() -> None:
    (f,) = findings(check(stations=["cockpit", "flight-deck"]), "launch-without-hangar")
    assert (f.severity, f.path) == ("error", "stations[1]")
    assert check(stations=["cockpit", "flight-deck"], hangar={"craft": [{"name": "Shuttle"}]}).valid


# --- torpedoes ----------------------------------------------------------------------------------------------


def test_a_torpedo_load_gets_the_torpedos_mini_stat_block_and_a_box_a_torpedo() -> None:
    report = check(torpedoes=[{"id": "Proton torpedo", "count": 4}])
    table = report.derived.table("torpedoes")
    assert table is not None
    assert table.rows == [["Standard torpedo", 4, 0, "+3 (30%)", "+3", "Fast Ship, Maneuverability", "+6"]]
    load = report.derived.track("torpedoes.0")
    assert load is not None and len(load.boxes) == 4 and load.path == "torpedoes[0]"


def test_every_reference_between_catalog_entries_exists() -> None:
    """A typo in the catalog would silently drop a rule (a station serving no skill, a roll
    missing a figure): every id an entry names is an entry."""
    catalog = cf()
    kind = catalog.kind
    for torpedo in kind("torpedoes").values():
        assert set(getattr(torpedo, "stunts", [])) <= set(kind("stunts")), torpedo.id
    for station in kind("stations").values():
        assert set(getattr(station, "serves", [])) <= set(kind("ship_skills")), station.id
    for ship_skill in kind("ship_skills").values():
        assert set(getattr(ship_skill, "crew_skills", [])) <= set(kind("crew_skills")), ship_skill.id
    for stunt in kind("stunts").values():
        assert set(getattr(stunt, "half_turn", [])) <= set(kind("actions")), stunt.id
    figures = {f.id for f in check(hyperdrive=True).derived.figures}
    for a in kind("actions").values():
        assert set(getattr(a, "uses", [])) <= figures, (a.id, set(getattr(a, "uses", [])) - figures)


# --- numbers of a pair of ships (issue 15 will show them) -------------------------------------------------


def _pair_rules() -> tuple[SizeAdvantage, DetectionModifier]:
    catalog = cf()
    size = catalog.item("size_advantage", "size-contest")
    detection = catalog.item("detection", "sensors-contest")
    assert isinstance(size, SizeAdvantage) and isinstance(detection, DetectionModifier)
    return size, detection


@pytest.mark.parametrize(
    ("first", "second", "bigger", "percent"),
    [(14, 4, None, 0), (4, 14, None, 0), (14, 3, "first", 10), (15, 1, "first", 40), (2, 14, "second", 20)],
)
def test_size_counts_only_beyond_10_levels_at_10_percent_a_level(
    first: int, second: int, bigger: str | None, percent: int
) -> None:
    rule, _ = _pair_rules()
    edge = size_advantage(record(size=first), record(size=second), rule)
    assert (edge.bigger, edge.percent) == (bigger, percent)


def test_detection_military_sensors_20_percent_and_10_percent_a_tech_level() -> None:
    _, rule = _pair_rules()
    navy = record(sensors="military", tech_level=13)
    trader = record(sensors="civilian", tech_level=11)
    assert detection_modifier(navy, trader, rule) == 40
    assert detection_modifier(trader, navy, rule) == -40
    assert detection_modifier(navy, navy, rule) == 0


# --- the catalog fails closed --------------------------------------------------------------------------------


@pytest.fixture
def builtin_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the built-in Cluster Falk catalog, loaded in place of the real one."""
    from shipyard.core import registry

    root = tmp_path / "builtin" / RULESET
    shutil.copytree(BUILTIN, root)
    installed = registry.get(RULESET)
    copy = dataclasses.replace(installed, manifest=installed.manifest.model_copy(update={"catalog": str(root)}))
    real_get = registry.get
    monkeypatch.setattr(registry, "get", lambda rid, **kw: copy if rid == RULESET else real_get(rid, **kw))
    catalog_module._load_layers.cache_clear()
    yield root
    catalog_module._load_layers.cache_clear()


def test_an_unknown_rule_type_stops_loading(builtin_copy: Path) -> None:
    rules = builtin_copy / "rules.yaml"
    rules.write_text(rules.read_text() + "\n  - id: house-rule\n    type: size-handling-v2\n    source: House rules\n")
    with pytest.raises(InputError) as info:
        load_catalog(RULESET, use_user_folder=False)
    (problem,) = info.value.problems
    assert problem.message.startswith("unknown rule type 'size-handling-v2'; did you mean 'size-handling'")
    assert problem.file == str(rules)


def test_a_rule_missing_a_number_stops_loading(builtin_copy: Path) -> None:
    rules = builtin_copy / "rules.yaml"
    rules.write_text(rules.read_text().replace("    penalty: -2\n", ""))
    with pytest.raises(InputError) as info:
        load_catalog(RULESET, use_user_folder=False)
    assert any(p.path == "rules[8].penalty" and "Field required" in p.message for p in info.value.problems)
