"""Wing Commander house rules for Alternity: every rule of the reading, with its numbers.

The expected numbers are worked out here from the reading (docs/rules-wing-commander.md),
not from the engine: the resistance modifier table as Alternity prints it, the decoy
formula as the text writes it ("1+(3/2=1)+1=3").
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from shipyard.core.catalog import load_catalog
from shipyard.core.designfile import LoadedDesign, load_design, new_design, save_design, schema_for
from shipyard.core.errors import InputError
from shipyard.core.evaluate import evaluate
from shipyard.core.findings import Severity
from shipyard.core.model import Catalog
from shipyard.core.report import Report
from shipyard.rulesets import wing_commander as wc

from .conftest import ROOT, call_shipyard, finding

EXAMPLES = ROOT / "catalogs" / "wing-commander" / "examples"
SAMPLES = ["arrow", "broadsword", "hornet", "piranha", "rapier", "thunderbolt"]
CORPUS = ROOT / "tests" / "corpus" / "bad"


def catalog(preset: str = "as-written", folders: tuple[Path, ...] = ()) -> Catalog:
    return load_catalog("wing-commander", folders, preset=preset, use_user_folder=False)


def house_rule(tmp_path: Path, rule: str, changes: str) -> Catalog:
    """The catalog under a gamemaster's preset (a user catalog folder) changing one rule's numbers."""
    presets = tmp_path / "wing-commander" / "presets"
    presets.mkdir(parents=True)
    (presets / "house.yaml").write_text(
        "preset:\n  id: house\n  name: House\n  source: house rule\n"
        f"  overrides:\n    rules:\n      {rule}: {changes}\n"
    )
    return catalog("house", (tmp_path,))


LASER: dict[str, Any] = {"name": "Laser", "accuracy": 0, "range": {"short": 4, "medium": 8, "long": 12}}


def fighter(cat: Catalog | None = None, /, **fields: Any) -> tuple[wc.WCFighter, Report]:
    """A fighter record with ``fields`` changed (``dex`` sets the pilot's), evaluated."""
    cat = cat or catalog()
    pilot = {"name": "Test", "dex": fields.pop("dex", 10), "action_check": 12, "skills": {"gunnery": 12}}
    data: dict[str, Any] = {"name": "Test", "class": "Light fighter", "drv": 0, "pilot": pilot, **fields}
    design = cat.module.resolve(wc.WCFighter.model_validate(data), cat)
    return design, evaluate(design, cat)


def value(report: Report, figure_id: str) -> Any:
    fig = report.derived.figure(figure_id)
    assert fig is not None, figure_id
    return fig.value


def sample(name: str, preset: str | None = None) -> tuple[LoadedDesign, Report]:
    loaded = load_design(EXAMPLES / f"{name}.ship", preset=preset, use_user_folder=False)
    return loaded, evaluate(loaded.design, loaded.catalog)


def resistance(score: int) -> int:
    """Alternity's resistance modifier, as the reading prints it."""
    if score <= 4:
        return -2
    if score <= 6:
        return -1
    if score <= 10:
        return 0
    return (score - 9) // 2  # 11-12 +1, 13-14 +2, 15-16 +3, 17-18 +4, 19-20 +5


# --- the resistance modifier ---------------------------------------------------------------------

BOUNDARIES = [(1, -2), (4, -2), (5, -1), (6, -1), (7, 0), (10, 0), (11, 1), (12, 1), (13, 2), (14, 2)]
BOUNDARIES += [(15, 3), (16, 3), (17, 4), (18, 4), (19, 5), (20, 5)]


@pytest.mark.parametrize(("dex", "modifier"), BOUNDARIES)
def test_resistance_modifier_at_each_boundary(dex: int, modifier: int) -> None:
    _, report = fighter(dex=dex)
    assert value(report, "resistance_modifier") == modifier == resistance(dex)
    assert report.derived.figure("resistance_modifier").detail == f"DEX {dex}"  # type: ignore[union-attr]


def test_the_table_is_catalog_data_and_a_replacement_with_a_gap_is_refused(tmp_path: Path) -> None:
    table = catalog().item("score_tables", "resistance")
    assert isinstance(table, wc.items.ScoreTable)
    assert [(r.low, r.high, r.modifier) for r in table.rows][:3] == [(None, 4, -2), (5, 6, -1), (7, 10, 0)]
    folder = tmp_path / "wing-commander"
    folder.mkdir()
    (folder / "gap.yaml").write_text(
        "score_tables:\n  - id: resistance\n    name: Gap\n    ability: DEX\n    source: ours\n"
        "    rows:\n      - {high: 4, modifier: -1}\n      - {low: 6, modifier: 0}\n"
    )
    with pytest.raises(InputError) as err:
        catalog(folders=(tmp_path,))
    assert "gap.yaml:2" in str(err.value) and "row 2 must start right after row 1 (low 5)" in str(err.value)


def test_a_user_catalog_may_replace_the_table(tmp_path: Path) -> None:
    folder = tmp_path / "wing-commander"
    folder.mkdir()
    (folder / "house.yaml").write_text(
        "score_tables:\n  - id: resistance\n    name: House resistance\n    ability: DEX\n"
        "    source: our table\n    rows:\n      - {high: 10, modifier: 0}\n      - {low: 11, modifier: 3}\n"
    )
    _, report = fighter(catalog(folders=(tmp_path,)), dex=11, drv=-3)
    assert value(report, "resistance_modifier") == 3
    assert value(report, "free_decoys") == 1 + 1 + 3


# --- free missile decoys ------------------------------------------------------------------------------


def test_the_texts_piranha_gets_three_free_decoys() -> None:
    """ "a Pirahna (DRV -3) flown by a pilot with DEX of 11, gets 3 (1+(3/2=1)+1=3)" """
    _, report = fighter(drv=-3, dex=11)
    fig = report.derived.figure("free_decoys")
    assert fig is not None and fig.value == 3 and fig.unit == "per round"
    assert [(p.label, p.kind, p.amount) for p in fig.parts] == [
        ("every ship", "cost", 1),
        ("DRV -3 bonus: 3/2 rounded down", "cost", 1),
        ("DEX 11 resistance modifier +1", "cost", 1),
    ]
    assert fig.detail.startswith("1 + 1 + 1: ")


@pytest.mark.parametrize("drv", range(-5, 6))
def test_free_decoys_for_every_drv_and_dex(drv: int) -> None:
    cat = catalog()
    for dex in range(3, 21):
        bonus = -drv // 2 if drv < 0 else 0  # only a DRV bonus (a negative DRV) counts
        expected = max(1, 1 + bonus + resistance(dex))
        _, report = fighter(cat, drv=drv, dex=dex)
        assert value(report, "free_decoys") == expected, (drv, dex)


def test_free_decoys_never_fall_below_one_and_say_why() -> None:
    _, report = fighter(drv=2, dex=3)  # 1 + 0 - 2 = -1
    fig = report.derived.figure("free_decoys")
    assert fig is not None and fig.value == 1
    assert [(p.label, p.kind, p.amount) for p in fig.parts] == [
        ("every ship", "cost", 1),
        ("DEX 3 resistance modifier -2", "gain", 2),
        ("never below 1", "cost", 2),
    ]


def test_the_literal_preset_lets_a_poor_pilot_lose_the_free_decoy() -> None:
    _, report = fighter(catalog("literal"), drv=2, dex=3)
    assert value(report, "free_decoys") == 0
    _, report = fighter(catalog("literal"), drv=-3, dex=11)
    assert value(report, "free_decoys") == 3


@pytest.mark.parametrize("dex", range(3, 21))
def test_decoys_per_action_are_the_positive_modifier_at_least_one(dex: int) -> None:
    _, report = fighter(dex=dex)
    assert value(report, "decoys_per_action") == max(1, resistance(dex))


# --- the ship's DRV as a step modifier ------------------------------------------------------------------


@pytest.mark.parametrize("drv", [-3, 0, 2])
def test_drv_applies_to_the_action_check_and_to_gun_attacks(drv: int) -> None:
    guns = [{**LASER, "accuracy": 1}]
    _, report = fighter(drv=drv, guns=guns)
    assert value(report, "action_check") == 12
    assert value(report, "action_check_step") == drv == value(report, "gun_attack_step")
    (row,) = report.derived.table("guns").rows  # type: ignore[union-attr]
    attack = 1 + drv
    assert row[8] == (f"{attack:+d}" if attack else "0")
    assert report.derived.table("guns").notes.endswith("; roll Gunnery 12")  # type: ignore[union-attr]


def test_a_missile_uses_only_its_own_drv() -> None:
    missiles = [{"name": "Heat seeker", "count": 2, "drv": -2, "score": 13, "lock_time": 2}]
    _, report = fighter(drv=3, missiles=missiles)
    (row,) = report.derived.table("missiles").rows  # type: ignore[union-attr]
    assert row[3] == "-2"
    assert "Launch with the pilot's Gunnery 12, then the missile's score" in report.derived.table("missiles").notes  # type: ignore[union-attr]


# --- linked guns -------------------------------------------------------------------------------------


def gun(name: str, accuracy: int, short: int, medium: int, long: int, **kw: Any) -> dict[str, Any]:
    return {"name": name, "accuracy": accuracy, "range": {"short": short, "medium": medium, "long": long}, **kw}


def test_a_link_group_fires_at_the_worst_accuracy_and_the_shortest_range_of_each_band() -> None:
    guns = [
        gun("Laser", 0, 4, 8, 12, link_group="A"),
        gun("Neutron gun", 2, 3, 9, 10, link_group="A"),
        gun("Mass driver", -1, 5, 6, 14, link_group="A"),
        gun("Tachyon gun", -2, 6, 10, 16),
    ]
    _, report = fighter(drv=-1, guns=guns)
    group = value(report, "link_group.1")
    assert group == {
        "group": "A",
        "guns": [
            {"gun": 0, "name": "Laser", "count": 1},
            {"gun": 1, "name": "Neutron gun", "count": 1},
            {"gun": 2, "name": "Mass driver", "count": 1},
        ],
        "count": 3,
        "accuracy": 2,  # the neutron gun's: the largest step modifier is the worst
        "range": {"short": 3, "medium": 6, "long": 10},  # each band from another gun
        "attack_step": 1,  # +2 accuracy, -1 DRV
    }
    assert report.derived.table("link_groups").rows == [  # type: ignore[union-attr]
        ["A", "1 x Laser + 1 x Neutron gun + 1 x Mass driver", "+2", 3, 6, 10, "+1"]
    ]
    assert value(report, "link_groups") == "A: accuracy +2, range 3/6/10, attack step +1"
    assert "link-group-too-small" not in report.codes()


def test_link_groups_in_the_order_they_first_appear() -> None:
    guns = [
        gun("Ion", 1, 3, 6, 9, link_group="B"),
        gun("Laser", 0, 4, 8, 12, count=2, link_group="A"),
        gun("Ion", 1, 3, 6, 9, link_group="B"),
    ]
    _, report = fighter(guns=guns)
    assert [value(report, f"link_group.{n}")["group"] for n in (1, 2)] == ["B", "A"]
    assert report.derived.figure("link_group.3") is None
    assert value(report, "link_group.2")["count"] == 2  # one entry of two lasers is a link of two
    assert report.valid


def test_a_link_group_of_one_gun_is_an_error_at_its_link_group() -> None:
    _, report = fighter(guns=[gun("Laser", 0, 4, 8, 12, link_group="A"), gun("Ion", 1, 3, 6, 9)])
    f = finding(report, "link-group-too-small")
    assert (f.severity, f.path, f.actual, f.limit) == ("error", "guns[0].link_group", 1, 2)
    assert f.message == "link group 'A' has 1 gun; linked guns are 2 or more"
    assert 'paragraph "When firing linked guns"' in f.source
    assert not report.valid


def test_a_link_group_naming_a_gun_the_ship_does_not_carry_is_an_error() -> None:
    guns = [
        gun("Laser", 0, 4, 8, 12, count=2, link_group="A"),
        gun("Neutron gun", 3, 2, 3, 4, count=0, link_group="A"),
    ]
    _, report = fighter(guns=guns)
    f = finding(report, "link-group-gun-missing")
    assert (f.severity, f.path, f.actual, f.limit) == ("error", "guns[1].count", 0, 1)
    assert "names Neutron gun (guns[1]), which the ship does not carry" in f.message
    # the gun that is not there does not make the group's fire worse
    group = value(report, "link_group.1")
    assert (group["accuracy"], group["range"]) == (0, {"short": 4, "medium": 8, "long": 12})


def test_a_house_rule_may_ask_for_three_guns_a_link(tmp_path: Path) -> None:
    cat = house_rule(tmp_path, "linked-guns", "{min_guns: 3}")
    _, report = fighter(cat, guns=[{**LASER, "count": 2, "link_group": "A"}])
    assert finding(report, "link-group-too-small").limit == 3


# --- missiles ----------------------------------------------------------------------------------------


def missile(name: str, count: int, **kw: Any) -> dict[str, Any]:
    return {"name": name, "count": count, "drv": 0, "score": 12, "lock_time": 2, **kw}


def test_missile_tracks_follow_the_loadout_order_with_a_box_per_missile() -> None:
    loads = [missile("Dart", 3), missile("Heat seeker", 0), missile("Image recognition", 2), missile("FOF", 1)]
    _, report = fighter(missiles=loads)
    tracks = [t for t in report.derived.tracks if t.id.startswith("missiles.")]
    assert [(t.id, t.name, len(t.boxes), t.path) for t in tracks] == [
        ("missiles.1", "1. Dart", 3, "missiles[0].count"),
        ("missiles.2", "2. Heat seeker", 0, "missiles[1].count"),
        ("missiles.3", "3. Image recognition", 2, "missiles[2].count"),
        ("missiles.4", "4. FOF", 1, "missiles[3].count"),
    ]
    # an exhausted load: the next one LOWER on the list that still has missiles, never back up
    assert [t.notes for t in tracks] == [
        "then 3. Image recognition",
        "then 3. Image recognition",
        "then 4. FOF",
        "then none: select a load",
    ]
    assert [row[7] for row in report.derived.table("missiles").rows] == [t.notes[5:] for t in tracks]  # type: ignore[union-attr]
    assert value(report, "missiles_carried") == 6


def test_next_load_searches_lower_on_the_list() -> None:
    assert wc.next_load([2, 0, 3, 1], 0, "lower") == 2
    assert wc.next_load([2, 0, 3, 1], 3, "lower") is None
    assert wc.next_load([2, 0, 3, 1], 3, "lower-then-top") == 0
    assert wc.next_load([0, 0, 3, 0], 2, "lower-then-top") is None


def test_a_missile_without_a_lock_time_is_an_error() -> None:
    for lock in (None, 0):
        _, report = fighter(missiles=[missile("Dart", 2, lock_time=lock)])
        f = finding(report, "missile-no-lock-time")
        assert (f.severity, f.path, f.actual, f.limit) == ("error", "missiles[0].lock_time", lock, 1)


def test_a_loadout_of_empty_loads_is_an_error_but_one_empty_load_is_not() -> None:
    _, report = fighter(missiles=[missile("Dart", 0), missile("FOF", 0)])
    f = finding(report, "missile-loadout-empty")
    assert (f.path, f.actual, f.limit) == ("missiles[0].count", 0, 1)
    _, report = fighter(missiles=[missile("Dart", 0), missile("FOF", 2)])
    assert report.valid


def test_a_load_below_0_is_one_error_and_carries_no_missile() -> None:
    _, report = fighter(missiles=[missile("Dart", -2), missile("Spiculum", 3)])
    f = finding(report, "missile-count-negative")
    assert (f.path, f.actual, f.limit, f.severity) == ("missiles[0].count", -2, 0, Severity.ERROR)
    assert value(report, "missiles_carried") == 3
    _, alone = fighter(missiles=[missile("Dart", -2)])
    assert [x.code for x in alone.findings if x.severity == Severity.ERROR] == ["missile-count-negative"]
    assert value(alone, "missiles_carried") == 0


def test_a_missiles_drv_keeps_to_the_drv_range() -> None:
    _, report = fighter(missiles=[missile("Dart", 2, drv=-6)])
    f = finding(report, "missile-drv-out-of-range")
    assert (f.path, f.actual, f.limit) == ("missiles[0].drv", -6, [-5, 5])
    # the rule is the missile's own DRV ("use only the Missile's own DRV"), not the ship's DRV paragraph
    assert f.source.endswith(
        '"When firing linked guns" ("When firing a missile, use only the Missile\'s own DRV bonus or penalty")'
    )


# --- numbered components ---------------------------------------------------------------------------


def test_components_are_numbered_in_order_and_space_zero_counts_as_one() -> None:
    compartments = [
        {"name": "Cockpit", "durability": 3, "components": [{"name": "Seat", "space": 1}, {"name": "Computer"}]},
        {
            "name": "Engines",
            "durability": 5,
            "components": [{"name": "Drive", "space": 3}, {"name": "Tank", "space": 2}],
        },
    ]
    _, report = fighter(compartments=compartments)
    assert value(report, "compartment.1") == {
        "compartment": "Cockpit",
        "durability": 3,
        "space": 1,
        "counts_as": 2,
        "components": [
            {"number": 1, "name": "Seat", "space": 1, "counts_as": 1},
            {"number": 2, "name": "Computer", "space": 0, "counts_as": 1},
        ],
    }
    assert [c["number"] for c in value(report, "compartment.2")["components"]] == [1, 2]  # each compartment from 1
    assert report.derived.table("compartment.2").rows == [[1, "Drive", 3, 3], [2, "Tank", 2, 2]]  # type: ignore[union-attr]
    durability = [(t.id, t.name, [b.value for b in t.boxes]) for t in report.derived.tracks if t.id.startswith("dur")]
    assert durability == [("durability.1", "Cockpit", [1, 2, 3]), ("durability.2", "Engines", [1, 2, 3, 4, 5])]


def test_an_offline_component_passes_the_failure_to_the_next_higher_number() -> None:
    assert wc.failing_component(2, set(), 4, wraps=True) == 2
    assert wc.failing_component(2, {2}, 4, wraps=True) == 3
    assert wc.failing_component(3, {3, 4}, 4, wraps=True) == 1  # Shipyard's reading: past the last, number 1
    assert wc.failing_component(3, {3, 4}, 4, wraps=False) is None  # the literal preset: lost
    assert wc.failing_component(1, {1, 2, 3}, 3, wraps=True) is None  # everything is offline


def test_the_presets_say_whether_failures_wrap() -> None:
    comps = [{"name": "Bay", "durability": 2, "components": [{"name": "Gun", "space": 1}]}]
    _, report = fighter(compartments=comps)
    assert value(report, "component_failures").endswith("(after the last: number 1).")
    _, report = fighter(catalog("literal"), compartments=comps)
    assert value(report, "component_failures").endswith("(none after the last).")


def test_a_house_rule_may_count_space_zero_as_two(tmp_path: Path) -> None:
    cat = house_rule(tmp_path, "numbered-components", "{zero_space_counts_as: 2}")
    comps = [{"name": "Cockpit", "durability": 3, "components": [{"name": "Computer", "space": 0}]}]
    _, report = fighter(cat, compartments=comps)
    assert value(report, "compartment.1")["components"][0]["counts_as"] == 2


# --- ranges ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("fields", "path", "actual", "limit"), [
    ({"dex": 21}, "pilot.dex", 21, [1, 20]),
    ({"dex": 0}, "pilot.dex", 0, [1, 20]),
    ({"drv": 6}, "drv", 6, [-5, 5]),
    ({"drv": -6}, "drv", -6, [-5, 5]),
])  # fmt: skip
def test_dex_and_drv_out_of_range_are_errors(fields: dict[str, int], path: str, actual: int, limit: list[int]) -> None:
    _, report = fighter(**fields)
    f = finding(report, "stat-out-of-range")
    assert (f.severity, f.path, f.actual, f.limit) == ("error", path, actual, limit)
    assert "Wing Commander house rules for Alternity (Dogfighting), paragraph" in f.source


@pytest.mark.parametrize("fields", [{"dex": 1}, {"dex": 20}, {"drv": -5}, {"drv": 5}])
def test_the_ends_of_the_ranges_pass(fields: dict[str, int]) -> None:
    assert fighter(**fields)[1].findings == []


# --- what the ship may do in a round -------------------------------------------------------------------


def test_actions_that_need_equipment_say_what_they_need() -> None:
    _, bare = fighter()
    _, kitted = fighter(slide_system=True, turrets=2, afterburner=9, guns=[{**LASER, "count": 2, "link_group": "A"}])
    need = {a.id: (a.allowed, a.reason) for a in bare.derived.actions}
    assert need["facing-slide"] == (False, "needs a Slide System")
    assert need["turrets"] == (False, "needs automated turrets")
    assert need["afterburners"] == (False, "needs afterburners (its afterburner maximum is 0)")
    assert need["linked-fire"] == (False, "needs a link group")
    assert need["round-start-changes"] == (True, "")
    assert all(a.allowed for a in kitted.derived.actions if a.id != "missile-lock")


# --- the samples -----------------------------------------------------------------------------------------

# free decoys, decoys per action, link groups, missile loads, DRV
EXPECTED = {
    "arrow": (4, 1, 1, 2, -4),
    "broadsword": (1, 1, 1, 2, 2),
    "hornet": (2, 1, 1, 1, -2),
    "piranha": (3, 1, 1, 2, -3),
    "rapier": (3, 2, 2, 3, -1),
    "thunderbolt": (4, 3, 1, 2, 1),
}


@pytest.mark.parametrize("name", SAMPLES)
def test_each_sample_passes_with_its_numbers(name: str) -> None:
    loaded, report = sample(name)
    assert report.valid and report.findings == []
    d = loaded.design
    decoys, per_action, groups, loads, drv = EXPECTED[name]
    bonus = -d.drv // 2 if d.drv < 0 else 0
    assert value(report, "free_decoys") == decoys == max(1, 1 + bonus + resistance(d.pilot.dex))
    assert value(report, "decoys_per_action") == per_action
    assert len([f for f in report.derived.figures if f.id.startswith("link_group.")]) == groups
    assert len(d.missiles) == loads and d.drv == drv
    assert "Written for Shipyard: the house rules give no stat blocks beyond the Piranha's DRV -3" in d.notes


def test_the_samples_the_issue_asks_for() -> None:
    piranha = sample("piranha")[0].design
    assert (piranha.drv, piranha.pilot.dex, piranha.ship_class) == (-3, 11, "Light fighter (Confederation)")
    assert sample("thunderbolt")[0].design.drv > 0 and "Heavy fighter" in sample("thunderbolt")[0].design.ship_class
    rapier = sample("rapier")[1]
    assert [value(rapier, f"link_group.{n}")["group"] for n in (1, 2)] == ["A", "B"]
    assert len([t for t in rapier.derived.tracks if t.id.startswith("missiles.")]) == 3


def test_the_broadsword_shows_the_minimum_and_the_literal_preset_does_not() -> None:
    assert value(sample("broadsword")[1], "free_decoys") == 1
    assert value(sample("broadsword", "literal")[1], "free_decoys") == 0


# --- the design file --------------------------------------------------------------------------------------


def test_a_saved_record_keeps_the_class_key_and_reads_back_the_same(tmp_path: Path) -> None:
    loaded, _ = sample("rapier")
    out = tmp_path / "rapier.ship"
    save_design(loaded, out)
    doc = json.loads(out.read_text())
    assert doc["ruleset"] == "wing-commander"
    assert doc["design"]["class"] == "Medium fighter (Confederation)" and "ship_class" not in doc["design"]
    assert load_design(out, use_user_folder=False).design == loaded.design


def test_skills_may_be_named_by_their_alternity_names() -> None:
    cat = catalog()
    design = wc.WCFighter.model_validate(
        {"name": "T", "pilot": {"dex": 10, "action_check": 10, "skills": {"Vehicle Operation": 14, "Weapons": 11}}}
    )
    assert cat.module.resolve(design, cat).pilot.skills == {"piloting": 14, "gunnery": 11}


def test_a_new_fighter_starts_at_the_base_values_and_passes() -> None:
    loaded = new_design("wing-commander", "Blue Two", "fighter")
    d = loaded.design
    assert (d.name, d.drv, d.pilot.dex, d.pilot.action_check, d.guns, d.missiles) == ("Blue Two", 0, 10, 10, [], [])
    report = evaluate(d, loaded.catalog)
    assert report.valid and value(report, "free_decoys") == 1


def test_the_schema_carries_the_record() -> None:
    text = json.dumps(schema_for(["wing-commander"]))
    for key in ('"class"', '"link_group"', '"lock_time"', '"space"', '"action_check"', '"slide_system"'):
        assert key in text, key


# --- the command line ---------------------------------------------------------------------------------------


def test_check_exits_0_for_a_sample_and_1_for_a_broken_rule(tmp_path: Path) -> None:
    ok = call_shipyard("check", EXAMPLES / "piranha.ship", "--no-user-catalog")
    assert ok.returncode == 0, ok.stderr
    assert "Free missile decoys         3 per round  — 1 + 1 + 1" in ok.stdout
    assert "Link group A                2 x Laser; accuracy 0, range 4/8/12, attack step -3" in ok.stdout
    assert "Budgets" not in ok.stdout
    bad = call_shipyard("check", CORPUS / "wc-link-group-of-one.ship", "--no-user-catalog", "--json")
    assert bad.returncode == 1, bad.stderr
    (entry,) = json.loads(bad.stdout)
    assert [(f["code"], f["path"]) for f in entry["findings"]] == [
        ("link-group-too-small", "guns[0].link_group"),
        ("link-group-too-small", "guns[1].link_group"),
    ]


def test_check_json_carries_the_documented_shapes() -> None:
    proc = call_shipyard("check", EXAMPLES / "rapier.ship", "--no-user-catalog", "--json")
    (entry,) = json.loads(proc.stdout)
    figures = {f["id"]: f for f in entry["derived"]["figures"]}
    assert {"id", "name", "value"} <= set(figures["free_decoys"])
    assert figures["free_decoys"]["name"] == "Free missile decoys" and figures["free_decoys"]["value"] == 3
    assert figures["link_group.2"]["value"]["range"] == {"short": 3, "medium": 6, "long": 9}
    assert set(figures["compartment.3"]["value"]["components"][5]) == {"number", "name", "space", "counts_as"}
    tracks = {t["id"]: t for t in entry["derived"]["tracks"]}
    assert [t["name"] for i, t in tracks.items() if i.startswith("missiles.")] == [
        "1. Heat seeker",
        "2. Image recognition",
        "3. Friend-or-foe",
    ]
    assert len(tracks["durability.3"]["boxes"]) == 4


def test_new_writes_a_fighter_and_refuses_to_overwrite(tmp_path: Path) -> None:
    out = tmp_path / "blue.ship"
    proc = call_shipyard("new", "--ruleset", "wing-commander", "-o", out, "Blue Two", "--no-user-catalog")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(out.read_text())["design"] == {"name": "Blue Two", "pilot": {"dex": 10, "action_check": 10}}
    before = out.read_bytes()
    again = call_shipyard("new", "--ruleset", "wing-commander", "-o", out, "Blue Three", "--no-user-catalog")
    assert again.returncode == 2 and "exists; use --force" in again.stderr
    assert out.read_bytes() == before


def test_rulesets_and_schema_commands_list_it() -> None:
    listed = call_shipyard("rulesets")
    assert "wing-commander  Wing Commander (Alternity) 1" in listed.stdout
    assert "kinds: fighter" in listed.stdout and "presets: as-written (default), literal" in listed.stdout
    checked = call_shipyard("rulesets", "--check", ROOT / "shipyard" / "rulesets" / "wing_commander")
    assert checked.returncode == 0 and "read without problems" in checked.stdout
    schema = call_shipyard("schema", "--ruleset", "wing-commander")
    assert schema.returncode == 0 and '"WCFighter"' in schema.stdout


def test_the_decoy_table_in_the_docs_is_what_the_engine_gives() -> None:
    text = (ROOT / "docs" / "rules-wing-commander.md").read_text()
    table = text[text.index("| DRV \\ DEX |") :].split("\n\n")[0].splitlines()
    header = [c.strip() for c in table[0].strip("|").split("|")][1:]
    dex_low = [int(c.split("-")[0]) for c in header]
    cat = catalog()
    for line in table[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[0] == "extra per action":
            got = [value(fighter(cat, dex=d)[1], "decoys_per_action") for d in dex_low]
            assert got == [int(c) for c in cells[1:]]
            continue
        drvs = {"-5, -4": [-5, -4], "-3, -2": [-3, -2], "-1 .. +5": list(range(-1, 6))}[cells[0]]
        for drv in drvs:
            got = [value(fighter(cat, drv=drv, dex=d)[1], "free_decoys") for d in dex_low]
            assert got == [int(c) for c in cells[1:]], (cells[0], drv)
