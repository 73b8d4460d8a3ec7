"""Space Fury: the catalog, one test (or more) per rule with the rules' numbers, and the samples.

Each test would fail if its rule were read differently from docs/rules-space-fury.md.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from shipyard.core.catalog import load_catalog
from shipyard.core.designfile import load_design
from shipyard.core.errors import InputError
from shipyard.core.evaluate import evaluate
from shipyard.core.findings import Severity
from shipyard.core.model import Catalog
from shipyard.core.report import Figure, Report
from shipyard.rulesets import space_fury as sf

from .conftest import FURY_EXAMPLES, ROOT, finding, source_text

FURY = ROOT / "catalogs" / "space-fury"
SOURCE, needs_source = source_text("002_9290a3f0af73c00a.txt", "Space Fury")
FURY_SAMPLES = [
    "interceptor",
    "defense-fighter",
    "light-fighter",
    "scout",
    "assault-fighter",
    "escort-fighter",
    "gunship",
    "heavy-bomber",
    "fighter-bomber",
    "symbiote-fighter",
]
PRESETS = ["as-written", "sample-fighters"]


def fury(preset: str = "as-written", folders: tuple[Path, ...] = ()) -> Catalog:
    return load_catalog("space-fury", folders, preset=preset, use_user_folder=False)


def build(body: dict[str, Any], preset: str = "as-written", catalog: Catalog | None = None) -> Report:
    catalog = catalog or fury(preset)
    design = sf.resolve(sf.SpaceFuryDesign.model_validate(body), catalog)
    return evaluate(design, catalog)


def fighter(*enhancements: dict[str, Any], preset: str = "as-written", **fields: Any) -> Report:
    return build({"kind": "fighter", "name": "Test", "enhancements": list(enhancements), **fields}, preset)


def pilot(preset: str = "as-written", **fields: Any) -> Report:
    return build({"kind": "pilot", "name": "Ace", **fields}, preset)


def fig(report: Report, fig_id: str) -> Any:
    found = report.derived.figure(fig_id)
    assert found is not None, f"no figure {fig_id!r}; got {[f.id for f in report.derived.figures]}"
    return found.value


def counted(report: Report, fig_id: str) -> Figure:
    """A counted figure; its value is what its parts add up to (a credit takes away)."""
    found = report.derived.figure(fig_id)
    assert found is not None, f"no figure {fig_id!r}; got {[f.id for f in report.derived.figures]}"
    assert found.value == sum(p.amount if p.kind == "cost" else -p.amount for p in found.parts)
    return found


def total(report: Report, fig_id: str) -> int:
    value = counted(report, fig_id).value
    assert isinstance(value, int)
    return value


def table(report: Report, table_id: str) -> list[list[Any]]:
    found = report.derived.table(table_id)
    assert found is not None, table_id
    return found.rows


def sample(name: str, preset: str = "as-written") -> Report:
    loaded = load_design(FURY_EXAMPLES / f"{name}.ship", preset=preset, use_user_folder=False)
    return evaluate(loaded.design, loaded.catalog)


def house_rules(tmp_path: Path, text: str) -> Path:
    """A user catalog folder with one file of Space Fury house rules."""
    folder = tmp_path / "house" / "space-fury"
    folder.mkdir(parents=True)
    (folder / "house.yaml").write_text(text, encoding="utf-8")
    return tmp_path / "house"


# --- the catalog -------------------------------------------------------------------------


@needs_source
def test_every_entry_cites_a_heading_of_the_source_text() -> None:
    headings = {ln.strip() for ln in SOURCE.read_text(encoding="utf-8").splitlines() if ln.strip()}
    cat = fury()
    sources = [i.source for items in cat.items.values() for i in items.values()]
    sources += [r.definition.source for r in cat.rules]
    sources += [s.source for s in cat.meta.stats] + [p.source for p in cat.presets.values()]
    for source in sources:
        for section in source.split("; "):
            assert section in headings, f"{section!r} is not a heading of the source text"


def test_every_name_and_alias_resolves_to_its_item() -> None:
    cat = fury()
    for kind, items in cat.items.items():
        for item in items.values():
            for name in (item.id, item.name, *item.aliases):
                assert cat.resolve(kind, name) == item.id, (kind, name)


def test_the_three_tables_list_every_enhancement_once_and_open_both_subtables() -> None:
    cat = fury()
    tables = {t.id: t for t in cat.kind("enhancement_tables").values() if isinstance(t, sf.EnhancementTable)}
    assert sorted(tables) == ["primary", "special-system", "special-weapon"]
    listed = [r.item for t in tables.values() for r in t.rows if isinstance(r, sf.ItemRow)]
    assert sorted(listed) == sorted(cat.kind("enhancements")) and len(listed) == 25
    primary = tables["primary"]
    assert {r.roll: r.table for r in primary.rows if isinstance(r, sf.SubtableRow)} == {
        6: "special-weapon",
        9: "special-system",
    }
    assert all(isinstance(t.row(10), sf.PickRow) for t in tables.values())


def test_costs_of_two_enhancements_are_the_four_the_tables_print() -> None:
    two = sorted(i.id for i in fury().kind("enhancements").values() if getattr(i, "cost", 1) == 2)
    assert two == ["cloaking-device", "nuclear-missile", "particle-accelerator", "rail-gun"]


def test_weapon_stats() -> None:
    stats = {w.id: (w.range, w.damage, w.tohit) for w in fury().kind("weapons").values() if isinstance(w, sf.Weapon)}
    assert stats == {
        "laser": (5, "+0", 0),
        "turbo-laser": (3, "+1", 1),
        "particle-accelerator": (8, "+1", 0),
        "rail-gun": (6, "+3", -1),
        "chain-gun": (2, "+2", 1),
        "ion-gun": (4, "+X", -1),
        "rocket-pod": (6, "+2", 0),
        "plasma-generator": (1, "+0", 2),
        "missile": (None, "+4", 1),
        "nuclear-missile": (None, "+25", 1),
    }


def test_every_effect_names_a_weapon_the_catalog_has() -> None:
    cat = fury()
    items = [*cat.kind("enhancements").values(), *cat.kind("basic_systems").values()]
    named = [e.weapon for i in items for e in getattr(i, "effects", []) if isinstance(e, sf.WeaponEffect)]
    assert named and all(cat.item("weapons", w) is not None for w in named)


def test_pilot_level_table() -> None:
    rows = [(r.level, r.xp, r.skills, r.reputation, r.cool) for r in sf.levels(fury())]
    assert rows == [
        (1, 1, 1, "Green", 3),
        (2, 3, 2, "Green", 4),
        (3, 6, 3, "Regular", 5),
        (4, 10, 4, "Regular", 6),
        (5, 15, 5, "Regular", 7),
        (6, 21, 6, "Regular", 8),
        (7, 28, 7, "Veteran", 9),
        (8, 36, 8, "Veteran", 9),
        (9, 45, 9, "Veteran", 10),
        (10, 55, 10, "Elite", 10),
    ]


def test_skills_cover_the_d10_and_quirks_the_d100_exactly_once() -> None:
    cat = fury()
    rolls = sorted(s.roll for s in cat.kind("pilot_skills").values() if getattr(s, "roll", None))
    assert rolls == list(range(1, 11))
    covered = sorted(n for q in cat.kind("quirks").values() for n in range(q.low, q.high + 1))
    assert covered == list(range(1, 101)) and len(cat.kind("quirks")) == 20


def test_sample_fighters_preset_changes_the_missiles_and_the_basic_laser_rule() -> None:
    base, samples = fury(), fury("sample-fighters")
    changed = [
        (kind, item_id)
        for kind, items in base.items.items()
        for item_id, item in items.items()
        if samples.item(kind, item_id) != item
    ]
    assert sorted(changed) == [("enhancements", "missile-rack"), ("enhancements", "nuclear-missile")]
    assert [getattr(samples.item("enhancements", i), "units", 0) for i in ("missile-rack", "nuclear-missile")] == [1, 1]
    before = {r.definition.id: r.params for r in base.rules}
    after = {r.definition.id: r.params for r in samples.rules}
    assert [rule_id for rule_id in before if before[rule_id] != after[rule_id]] == ["basic-weapon"]
    assert (before["basic-weapon"].replace_credit, after["basic-weapon"].replace_credit) == (None, 1)


def test_an_unknown_effect_type_in_a_house_rule_fails_closed(tmp_path: Path) -> None:
    folder = house_rules(
        tmp_path,
        "enhancements:\n  - id: warp-core\n    name: Warp Core\n    source: PRIMARY ENHANCEMENTS TABLE\n"
        "    cost: 1\n    effects:\n      - {type: teleport, hexes: 3}\n",
    )
    with pytest.raises(InputError) as exc:
        fury(folders=(folder,))
    text = str(exc.value)
    assert "house.yaml:7" in text and "teleport" in text and "'stat'" in text


def test_an_unknown_key_in_a_house_rule_fails_closed(tmp_path: Path) -> None:
    folder = house_rules(
        tmp_path, "weapons:\n  - {id: laser, name: Laser, source: BASIC SYSTEMS, damage: '+1', tohit: 0, rng: 5}\n"
    )
    with pytest.raises(InputError) as exc:
        fury(folders=(folder,))
    assert "unknown key 'rng'" in str(exc.value) and "range" in str(exc.value)


@pytest.mark.parametrize(
    "entry",
    [
        "enhancement_tables:\n  - {id: odd, name: Odd, source: PRIMARY ENHANCEMENTS TABLE, die: 2,\n"
        "     rows: [{roll: 1, type: pick}]}\n",
        "scenario_tables:\n  - {id: odd, name: Odd, source: 'SAMPLE SCENARIOS: Skirmishes', die: 2,\n"
        "     levels: {die: 6, plus: total-fighters},\n"
        "     rows: [{roll: 1, side_a: {fighters: [{count: 1, fighter: scout}]},\n"
        "             side_b: {fighters: [{count: 1, fighter: scout}]}}]}\n",
    ],
)
def test_a_table_rolled_on_gives_every_face_of_its_die_a_row(tmp_path: Path, entry: str) -> None:
    with pytest.raises(InputError) as exc:
        fury(folders=(house_rules(tmp_path, entry),))
    assert "house.yaml:2" in str(exc.value) and "rows must give each roll 1 to 2 exactly once" in str(exc.value)


# --- counted figures (the counts were once "tally" pools) -----------------------------------


def test_a_count_is_named_by_the_catalog_and_a_house_rule_may_rename_it(tmp_path: Path) -> None:
    folder = house_rules(
        tmp_path, "counts:\n  - {id: total-cost, name: Price, unit: credits, source: FIGHTER CONSTRUCTION}\n"
    )
    catalog = fury(folders=(folder,))
    r = build({"kind": "fighter", "name": "T", "enhancements": [{"id": "Armor"}]}, catalog=catalog)
    price = counted(r, "total-cost")
    assert (price.label, price.value, price.unit) == ("Price", 21, "credits")
    assert any("counts 'total-cost'" in o for o in r.catalog_overrides)


def test_house_rules_with_the_old_tally_pools_are_refused(tmp_path: Path) -> None:
    folder = house_rules(
        tmp_path,
        "pools:\n  - {id: points, name: Cost, budget: {}, tally: true, source: FIGHTER CONSTRUCTION}\n",
    )
    with pytest.raises(InputError) as exc:
        fury(folders=(folder,))
    assert "house.yaml:1" in str(exc.value) and "section 'pools' belongs to the ruleset itself" in str(exc.value)


def test_a_count_is_not_a_tally(tmp_path: Path) -> None:
    folder = house_rules(
        tmp_path, "counts:\n  - {id: enhancements, name: Enhancements, tally: true, source: FIGHTER CONSTRUCTION}\n"
    )
    with pytest.raises(InputError) as exc:
        fury(folders=(folder,))
    assert "house.yaml:2" in str(exc.value) and "unknown key 'tally'" in str(exc.value)


def test_a_preset_cannot_change_the_old_pools(tmp_path: Path) -> None:
    folder = house_rules(
        tmp_path,
        "preset:\n  id: dear\n  name: Dear\n  source: FIGHTER CONSTRUCTION\n"
        "  overrides:\n    pools:\n      points: {name: Price}\n",
    )
    with pytest.raises(InputError) as exc:
        fury(folders=(folder,))
    assert "house.yaml:7" in str(exc.value) and "pools has no entry 'points'" in str(exc.value)


# --- FIGHTER COST: the table and the rule beyond ten ---------------------------------------


def test_cost_table_as_printed() -> None:
    table = fury().item("cost_tables", "fighter-cost")
    assert isinstance(table, sf.CostTable)
    assert [table.cost(n) for n in range(11)] == [20, 21, 23, 26, 30, 35, 41, 48, 56, 65, 75]


@pytest.mark.parametrize(("n", "cost"), [(11, 86), (12, 98), (13, 111), (15, 140), (20, 230), (100, 5070)])
def test_beyond_ten_each_enhancement_adds_its_number(n: int, cost: int) -> None:
    table = fury().item("cost_tables", "fighter-cost")
    assert isinstance(table, sf.CostTable)
    assert table.cost(n) == cost == table.cost(n - 1) + n == 20 + n * (n + 1) // 2


def test_a_fighter_with_twelve_enhancements_costs_98() -> None:
    r = fighter({"id": "Armor", "count": 12})
    assert (fig(r, "enhancements"), fig(r, "cost"), total(r, "total-cost")) == (12, 98, 98)
    assert r.derived.figure("cost").detail == "Fighter Cost table: 75 for 10, + 11 + 12 beyond it"


def test_a_table_that_stops_gives_no_cost_beyond_it(tmp_path: Path) -> None:
    rows = "\n".join(f"      - {{count: {n}, cost: {c}}}" for n, c in enumerate([20, 21, 23]))
    folder = house_rules(
        tmp_path,
        "cost_tables:\n  - id: fighter-cost\n    name: Short Cost\n    source: FIGHTER CONSTRUCTION\n"
        f"    counts: enhancements\n    rows:\n{rows}\n    beyond: {{type: none}}\n",
    )
    catalog = fury(folders=(folder,))
    r = build({"kind": "fighter", "name": "T", "enhancements": [{"id": "Armor", "count": 3}]}, catalog=catalog)
    f = finding(r, "count-beyond-table")
    assert (f.severity, f.actual, f.limit) == (Severity.ERROR, 3, [0, 2])
    assert fig(r, "cost") == "—"


# --- counting enhancements ---------------------------------------------------------------


def test_a_bare_fighter_has_its_basic_systems_and_costs_20() -> None:
    r = fighter()
    assert (total(r, "enhancements"), fig(r, "cost")) == (0, 20)
    assert (fig(r, "speed"), fig(r, "maneuver"), fig(r, "armor"), fig(r, "tohit")) == (4, 0, 0, 0)
    assert table(r, "weapons") == [["Laser", 1, "Fixed", 5, "+0", "+0", "", "basic", ""]]
    assert (fig(r, "seats"), fig(r, "fuel"), fig(r, "oxygen"), fig(r, "targets")) == (1, 4, 7, 1)
    assert (fig(r, "detection"), fig(r, "detection-range")) == ("1-2", 10)
    assert r.valid and not r.findings


def test_repeated_enhancements_count_each_time_and_add_up() -> None:
    r = fighter({"id": "Engines", "count": 2}, {"id": "Thrusters", "count": 3}, {"id": "Armor"}, {"id": "Targeter"})
    assert total(r, "enhancements") == 7 and fig(r, "cost") == 48
    assert (fig(r, "speed"), fig(r, "maneuver"), fig(r, "armor"), fig(r, "tohit")) == (6, 3, 1, 1)
    assert "with one weapon vs one target" in r.derived.figure("tohit").detail


@pytest.mark.parametrize("item", ["Particle Accelerator", "Rail Gun", "Cloaking Device"])
def test_cost_two_enhancements(item: str) -> None:
    r = fighter({"id": item})
    assert total(r, "enhancements") == 2 and fig(r, "cost") == 23


@pytest.mark.parametrize(
    ("preset", "missiles", "count", "spare"),
    [("as-written", 3, 2, 1), ("as-written", 4, 2, 0), ("sample-fighters", 3, 3, 0), ("sample-fighters", 4, 4, 0)],
)
def test_missiles_count_by_rack_as_written_and_one_each_for_the_samples(
    preset: str, missiles: int, count: int, spare: int
) -> None:
    r = fighter({"id": "Missiles", "count": missiles}, preset=preset)
    assert total(r, "enhancements") == count
    assert [row[:2] for row in table(r, "weapons")] == [["Laser", 1], ["Missile", missiles]]
    if spare:
        f = finding(r, "rack-not-full")
        assert (f.severity, f.actual, f.limit, f.path) == (
            Severity.ADVICE,
            missiles,
            missiles + spare,
            "enhancements[0].count",
        )
    else:
        assert "rack-not-full" not in r.codes()


def test_a_rack_not_full_is_said_in_plain_words() -> None:
    one = finding(fighter({"id": "Missiles", "count": 1}), "rack-not-full")
    assert one.message.startswith("1 missile fills 1 rack of ")
    three = finding(fighter({"id": "Missiles", "count": 3}), "rack-not-full")
    assert three.message.startswith("3 missiles fill 2 racks of ")


@pytest.mark.parametrize(("preset", "count"), [("as-written", 4), ("sample-fighters", 8)])
def test_nuclear_missiles_cost_two_a_rack_as_written_and_two_each_for_the_samples(preset: str, count: int) -> None:
    r = fighter({"id": "Nukes", "count": 4}, preset=preset)
    assert total(r, "enhancements") == count
    nukes = next(row for row in table(r, "weapons") if row[0] == "Nuclear Missile")
    assert (nukes[1], nukes[4], nukes[6]) == (4, "+25", "Speed 6, Maneuver +4")


def test_an_enhancement_not_in_the_tables_is_an_error(tmp_path: Path) -> None:
    folder = house_rules(
        tmp_path,
        "enhancements:\n  - {id: warp-core, name: Warp Core, source: PRIMARY ENHANCEMENTS TABLE, cost: 1}\n",
    )
    catalog = fury(folders=(folder,))
    r = build({"kind": "fighter", "name": "T", "enhancements": [{"id": "Warp Core"}]}, catalog=catalog)
    f = finding(r, "enhancement-not-in-tables")
    assert (f.severity, f.path, f.actual) == (Severity.ERROR, "enhancements[0].id", "warp-core")
    assert f.limit == ["primary", "special-system", "special-weapon"]
    assert "PRIMARY ENHANCEMENTS TABLE" in f.source and not r.valid


def test_a_design_built_in_code_with_an_unknown_name_is_reported_not_raised() -> None:
    design = sf.SpaceFuryDesign.model_validate({"kind": "fighter", "name": "T", "enhancements": [{"id": "warp-core"}]})
    r = evaluate(design, fury())
    assert finding(r, "enhancement-not-in-tables").actual == "warp-core" and total(r, "enhancements") == 0


def test_a_subtable_item_bought_without_its_table_is_an_error(tmp_path: Path) -> None:
    # A house rule that takes "Special System" off the Primary table (9 is Armor as well).
    rows = "\n".join(
        f"      - {{roll: {n}, type: item, item: {i}}}"
        for n, i in enumerate(
            ["targeter", "engines", "thrusters", "missile-rack", "extra-laser", "armor", "armor", "deflector-shield"], 1
        )
    )
    folder = house_rules(
        tmp_path,
        "enhancement_tables:\n  - id: primary\n    name: Primary Enhancements Table\n"
        f"    source: PRIMARY ENHANCEMENTS TABLE\n    die: 10\n    rows:\n{rows}\n"
        "      - {roll: 9, type: table, table: special-weapon}\n      - {roll: 10, type: pick}\n",
    )
    catalog = fury(folders=(folder,))
    r = build({"kind": "fighter", "name": "T", "enhancements": [{"id": "Jump"}, {"id": "Rail Gun"}]}, catalog=catalog)
    f = finding(r, "subtable-without-table")
    assert (f.severity, f.path, f.actual) == (Severity.ERROR, "enhancements[0].id", "special-system")
    assert f.limit == ["primary", "special-weapon"] and "SPECIAL SYSTEMS TABLE" in f.source
    assert [x.path for x in r.findings if x.code == "subtable-without-table"] == ["enhancements[0].id"]


# --- the basic Laser and the special guns --------------------------------------------------


def test_as_written_a_special_gun_is_added_on_top_of_the_basic_laser() -> None:
    r = fighter({"id": "Turbo Laser", "replaces_basic": True})
    assert total(r, "enhancements") == 1 and fig(r, "cost") == 21
    assert [row[0] for row in table(r, "weapons")] == ["Laser", "Turbo Laser"]
    f = finding(r, "basic-weapon-kept")
    assert (f.severity, f.path) == (Severity.ADVICE, "enhancements[0].replaces_basic") and r.valid


def test_for_the_samples_one_special_gun_replaces_the_basic_laser_and_credits_one() -> None:
    r = fighter({"id": "Turbo Laser", "replaces_basic": True}, {"id": "Engines"}, preset="sample-fighters")
    assert total(r, "enhancements") == 1 and fig(r, "cost") == 21
    parts = counted(r, "enhancements").parts
    assert [(p.label, p.kind, p.amount, p.path) for p in parts] == [
        ("Turbo Laser", "cost", 1, "enhancements[0]"),
        ("Engines", "cost", 1, "enhancements[1]"),
        ("Turbo Laser replaces the basic Laser", "gain", 1, "enhancements[0].replaces_basic"),
    ]
    assert [row[0] for row in table(r, "weapons")] == ["Turbo Laser"]
    assert "basic-weapon-kept" not in r.codes()


def test_only_one_special_gun_may_replace_the_basic_laser() -> None:
    r = fighter(
        {"id": "Turbo Laser", "replaces_basic": True},
        {"id": "Chain Gun", "replaces_basic": True},
        preset="sample-fighters",
    )
    f = finding(r, "basic-weapon-replaced-twice")
    assert (f.severity, f.actual, f.limit, f.path) == (Severity.ERROR, 2, 1, "enhancements[1].replaces_basic")
    assert total(r, "enhancements") == 1  # 2 bought, 1 credited once


@pytest.mark.parametrize("item", ["Armor", "Rocket Pod", "Nuclear Missile", "Extra Laser"])
def test_only_a_special_gun_can_replace_the_basic_laser(item: str) -> None:
    r = fighter({"id": item, "replaces_basic": True}, preset="sample-fighters")
    f = finding(r, "basic-weapon-replacement-not-a-gun")
    assert (f.severity, f.limit, f.path) == (Severity.ERROR, "gun", "enhancements[0].replaces_basic")
    assert "Laser" in [row[0] for row in table(r, "weapons")]


# --- the Turret ----------------------------------------------------------------------------


def test_a_turret_carries_one_weapon_in_all_arcs() -> None:
    r = fighter({"id": "Turret", "weapons": ["Laser"]}, {"id": "Chain Gun"})
    assert [(row[0], row[2]) for row in table(r, "weapons")] == [("Laser", "Turret"), ("Chain Gun", "Fixed")]
    assert total(r, "enhancements") == 2 and r.valid and not r.findings


def test_more_weapons_on_a_turret_than_one_is_an_error() -> None:
    r = fighter({"id": "Turret", "weapons": ["Laser", "Chain Gun"]}, {"id": "Chain Gun"})
    f = finding(r, "turret-overloaded")
    assert (f.severity, f.actual, f.limit, f.path) == (Severity.ERROR, 2, 1, "enhancements[0].weapons")
    assert not r.valid


def test_two_turrets_carry_two_weapons() -> None:
    r = fighter({"id": "Turret", "count": 2, "weapons": ["Laser", "Chain Gun"]}, {"id": "Chain Gun"})
    assert "turret-overloaded" not in r.codes() and r.valid


def test_a_turret_without_a_weapon_is_a_warning() -> None:
    f = finding(fighter({"id": "Turret"}), "turret-empty")
    assert (f.severity, f.actual, f.limit) == (Severity.WARNING, 0, 1)


def test_a_turret_cannot_carry_a_missile() -> None:
    f = finding(
        fighter({"id": "Turret", "weapons": ["Missile"]}, {"id": "Missiles", "count": 2}), "turret-weapon-not-mountable"
    )
    assert (f.severity, f.actual, f.limit, f.path) == (
        Severity.ERROR,
        "missile",
        ["gun", "rocket"],
        "enhancements[0].weapons[0]",
    )


@pytest.mark.parametrize(
    ("entries", "actual", "limit"),
    [
        ([{"id": "Turret", "weapons": ["Chain Gun"]}], 1, 0),
        ([{"id": "Turret", "count": 2, "weapons": ["Laser", "Laser"]}], 2, 1),
    ],
)
def test_a_turret_carries_only_weapons_the_fighter_has(entries: list[dict[str, Any]], actual: int, limit: int) -> None:
    f = finding(fighter(*entries), "turret-weapon-missing")
    assert (f.severity, f.actual, f.limit) == (Severity.ERROR, actual, limit)


# --- effects on the fighter's figures ---------------------------------------------------------


def test_scanners_deflector_shields_copilots_and_afterburner() -> None:
    r = fighter({"id": "Scanners"}, {"id": "Shields", "count": 2}, {"id": "Copilot", "count": 2}, {"id": "Afterburner"})
    assert (fig(r, "detection"), fig(r, "detection-range")) == ("1-4", 20)  # DETECTION PHASE: scanners 1-4, 20 hexes
    assert (fig(r, "shields"), fig(r, "seats")) == (2, 3)
    boost = r.derived.figure("boost-afterburner")
    assert boost is not None and (boost.value, boost.detail) == (1, "Speed +4 once a use; 1 to replace")
    assert fig(r, "speed") == 4


# --- pilots ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("xp", "level"),
    [
        (1, 1),
        (2, 1),
        (3, 2),
        (5, 2),
        (6, 3),
        (9, 3),
        (10, 4),
        (14, 4),
        (15, 5),
        (20, 5),
        (21, 6),
        (27, 6),
        (28, 7),
        (35, 7),
        (36, 8),
        (44, 8),
        (45, 9),
        (54, 9),
        (55, 10),
        (1000, 10),
    ],
)
def test_pilot_level_from_xp(xp: int, level: int) -> None:
    assert sf.level_for_xp(fury(), xp) == level
    r = pilot(xp=xp)
    assert fig(r, "level") == level and fig(r, "pilot-cost") == xp == total(r, "total-cost")


def test_below_one_xp_a_pilot_has_no_level() -> None:
    r = pilot(xp=0, skills=["Basic Combat Pilot"])
    f = finding(r, "xp-below-level")
    assert (f.severity, f.actual, f.limit, f.path) == (Severity.ERROR, 0, 1, "xp")
    assert fig(r, "level") == 0
    # the one error: no second one saying a level-0 pilot "has 0" skills
    assert [x.code for x in r.findings if x.severity == Severity.ERROR] == ["xp-below-level"]


@pytest.mark.parametrize(("level", "xp", "need"), [(5, 14, 15), (2, 2, 3), (10, 54, 55)])
def test_xp_below_the_level_claimed(level: int, xp: int, need: int) -> None:
    f = finding(pilot(xp=xp, level=level, skills=["Basic Combat Pilot"]), "xp-below-level")
    assert (f.severity, f.actual, f.limit, f.path) == (Severity.ERROR, xp, need, "xp")
    assert "PILOT LEVEL TABLE" in f.source


def test_a_level_beyond_the_table() -> None:
    r = pilot(xp=100, level=11, skills=["Basic Combat Pilot"])
    f = finding(r, "level-not-in-table")
    assert (f.severity, f.actual, f.limit, f.path) == (Severity.ERROR, 11, 10, "level")
    assert [x.code for x in r.findings if x.severity == Severity.ERROR] == ["level-not-in-table"]


def test_a_level_behind_the_xp_is_advice() -> None:
    f = finding(pilot(xp=10, level=3, skills=["Basic Combat Pilot", "Speed", "Speed"]), "level-behind-xp")
    assert (f.severity, f.actual, f.limit) == (Severity.ADVICE, 3, 4)


@pytest.mark.parametrize(
    ("xp", "reputation", "cool"), [(1, "Green", 3), (6, "Regular", 5), (28, "Veteran", 9), (55, "Elite", 10)]
)
def test_reputation_and_cool_follow_the_level(xp: int, reputation: str, cool: int) -> None:
    r = pilot(xp=xp)
    assert (fig(r, "reputation"), fig(r, "cool")) == (reputation, cool)


def test_more_skills_than_the_level_allows() -> None:
    r = pilot(xp=3, skills=["Basic Combat Pilot", "Lucky", "Lucky"])
    f = finding(r, "too-many-skills")
    assert (f.severity, f.actual, f.limit, f.path) == (Severity.ERROR, 3, 2, "skills")


def test_fewer_skills_than_the_level_gives_is_a_warning() -> None:
    f = finding(pilot(xp=6, skills=["Basic Combat Pilot"]), "skills-unassigned")
    assert (f.severity, f.actual, f.limit) == (Severity.WARNING, 1, 3)


def test_the_first_skill_is_always_basic_combat_pilot() -> None:
    r = pilot(xp=3, skills=["Accuracy", "Basic Combat Pilot"])
    f = finding(r, "first-skill-not-basic")
    assert (f.severity, f.actual, f.limit, f.path) == (Severity.ERROR, "accuracy", "basic-combat-pilot", "skills[0]")


def test_basic_combat_pilot_is_on_no_table_after_the_first_level() -> None:
    f = finding(pilot(xp=3, skills=["Basic Combat Pilot", "Basic Combat Pilot"]), "skill-not-on-table")
    assert (f.severity, f.actual, f.path) == (Severity.ERROR, "basic-combat-pilot", "skills[1]")


def test_skills_repeat_and_give_their_modifiers_each_time() -> None:
    r = pilot(xp=10, skills=["Basic Combat Pilot", "Lucky", "Lucky", "Taunting"])
    assert r.valid and not r.findings
    assert fig(r, "skill-list") == "Basic Combat Pilot, Lucky x2, Taunting"
    mods = {row[0]: row[1] for row in table(r, "modifiers")}
    assert mods == {"Luck": "+2", "Taunt": "+1", "Cool": "+1"}
    assert fig(r, "cool") == 7  # level 4: Cool 6, Taunting +1


def test_quirk_modifiers_and_conditions() -> None:
    r = pilot(xp=6, skills=["Basic Combat Pilot", "Speed", "Evasion"], quirks=["Foolhardy", "Safety in Numbers"])
    assert fig(r, "cool") == 8  # level 3: Cool 5, Foolhardy +3; the formation modifiers are conditional
    rows = {(row[0], row[2]): row[1] for row in table(r, "modifiers")}
    assert rows[("Cool", "")] == "+3" and rows[("Cool", "when in formation")] == "+2"
    assert rows[("Cool", "when not in formation")] == "-2" and rows[("Taunt save", "")] == "-3"


def test_a_quirk_that_needs_a_veteran() -> None:
    f = finding(
        pilot(xp=6, skills=["Basic Combat Pilot", "Speed", "Speed"], quirks=["Intimidating"]), "quirk-requirement"
    )
    assert (f.severity, f.actual, f.limit, f.path) == (Severity.ERROR, "Regular", "Veteran", "quirks[0]")
    ok = pilot(xp=28, skills=["Basic Combat Pilot", *["Speed"] * 6], quirks=["Intimidating"])
    assert "quirk-requirement" not in ok.codes()


def test_at_most_one_quirk_a_level() -> None:
    f = finding(pilot(xp=1, skills=["Basic Combat Pilot"], quirks=["Sneaky", "Taciturn"]), "too-many-quirks")
    assert (f.severity, f.actual, f.limit) == (Severity.WARNING, 2, 1)


def test_a_crewed_fighter_costs_the_fighter_plus_the_pilot() -> None:
    r = fighter(
        {"id": "Engines"},
        pilot={"name": "Kim", "xp": 10, "skills": ["Basic Combat Pilot", "Speed", "Accuracy", "Evasion"]},
    )
    assert (fig(r, "cost"), fig(r, "pilot-cost"), fig(r, "total-cost"), total(r, "total-cost")) == (21, 10, 31, 31)
    assert r.derived.figure("speed").detail == "Standard Engine 4, Engines +1; pilot Speed +1"
    assert fig(r, "level") == 4 and r.valid


def test_a_crewed_fighters_pilot_is_checked_at_its_path() -> None:
    r = fighter(pilot={"xp": 3, "skills": ["Accuracy", "Speed"]})
    assert finding(r, "first-skill-not-basic").path == "pilot.skills[0]"


# --- forces ------------------------------------------------------------------------------


def _force(**fields: Any) -> Report:
    gunship = {"name": "Gunship 1", "enhancements": [{"id": "Armor", "count": 10}]}
    crewed = {
        "name": "Escort 1",
        "enhancements": [{"id": "Engines"}],
        "pilot": {"name": "Kim", "xp": 3, "skills": ["Basic Combat Pilot", "Speed"]},
    }
    body = {
        "kind": "force",
        "name": "Red",
        "fighters": [gunship, crewed],
        "pilots": [{"name": "Lee", "xp": 1, "skills": ["Basic Combat Pilot"]}],
    }
    return build({**body, **fields})


def test_a_force_costs_its_fighters_and_pilots() -> None:
    r = _force()
    assert fig(r, "total-cost") == 75 + 21 + 3 + 1 == total(r, "total-cost")
    assert [(i.label, i.amount, i.path) for i in counted(r, "total-cost").parts] == [
        ("Gunship 1", 75, "fighters[0]"),
        ("Escort 1", 24, "fighters[1]"),
        ("Lee", 1, "pilots[0]"),
    ]
    # its enhancements are its fighters' (a reserve pilot has none)
    assert [(i.label, i.amount, i.path) for i in counted(r, "enhancements").parts] == [
        ("Gunship 1", 10, "fighters[0]"),
        ("Escort 1", 1, "fighters[1]"),
    ]
    assert r.pools == [] and r.derived.figures[0].id == "kind"
    assert [row[:3] for row in table(r, "roster")] == [["Gunship 1", 10, 75], ["Escort 1", 1, 21]]
    assert [f.name for f in r.forms] == ["Gunship 1", "Escort 1", "Lee"]
    assert (fig(r, "fighters"), fig(r, "pilots"), fig(r, "pilot-levels")) == (2, 2, 3)


def test_a_fighter_without_a_pilot_in_a_force_is_a_warning() -> None:
    f = finding(_force(), "fighter-without-pilot")
    assert (f.severity, f.path) == (Severity.WARNING, "fighters[0].pilot")


@pytest.mark.parametrize(
    ("levels", "code", "severity"),
    [(2, "pilot-levels-over", Severity.ERROR), (5, "pilot-levels-unused", Severity.WARNING)],
)
def test_a_sides_pilot_levels(levels: int, code: str, severity: Severity) -> None:
    f = finding(_force(pilot_levels=levels), code)
    assert (f.severity, f.actual, f.limit, f.path) == (severity, 3, levels, "pilot_levels")


def test_a_member_that_breaks_a_rule_fails_the_force() -> None:
    body = {
        "kind": "force",
        "name": "Red",
        "fighters": [{"name": "Bad", "enhancements": [{"id": "Turret", "weapons": ["Laser", "Laser"]}]}],
    }
    r = build(body)
    assert not r.valid and "turret-overloaded" in r.forms[0].codes()


# --- the ten sample fighters ----------------------------------------------------------------

# (computed count, cost) under each preset; the published count is in each file.
EXPECTED = {
    "interceptor": (4, {"as-written": (5, 35), "sample-fighters": (4, 30)}),
    "defense-fighter": (3, {"as-written": (3, 26), "sample-fighters": (3, 26)}),
    "light-fighter": (4, {"as-written": (4, 30), "sample-fighters": (4, 30)}),
    "scout": (5, {"as-written": (6, 41), "sample-fighters": (6, 41)}),
    "assault-fighter": (6, {"as-written": (6, 41), "sample-fighters": (6, 41)}),
    "escort-fighter": (5, {"as-written": (6, 41), "sample-fighters": (5, 35)}),
    "gunship": (10, {"as-written": (10, 75), "sample-fighters": (10, 75)}),
    "heavy-bomber": (10, {"as-written": (6, 41), "sample-fighters": (10, 75)}),
    "fighter-bomber": (7, {"as-written": (5, 35), "sample-fighters": (7, 48)}),
    "symbiote-fighter": (3, {"as-written": (3, 26), "sample-fighters": (3, 26)}),
}


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("name", FURY_SAMPLES)
def test_sample_fighter_count_and_cost(name: str, preset: str) -> None:
    published, by_preset = EXPECTED[name]
    count, cost = by_preset[preset]
    r = sample(name, preset)
    assert (fig(r, "published"), fig(r, "enhancements"), fig(r, "cost")) == (published, count, cost)
    assert r.valid, r.findings
    differs = [f for f in r.findings if f.code == "published-count-differs"]
    if count == published:
        assert not differs
    else:
        assert [(f.severity, f.actual, f.limit) for f in differs] == [(Severity.WARNING, count, published)]


def test_half_match_as_written_and_nine_of_ten_for_the_samples() -> None:
    def matching(preset: str) -> list[str]:
        return [n for n in FURY_SAMPLES if "published-count-differs" not in sample(n, preset).codes()]

    assert matching("as-written") == [
        "defense-fighter",
        "light-fighter",
        "assault-fighter",
        "gunship",
        "symbiote-fighter",
    ]
    assert matching("sample-fighters") == [n for n in FURY_SAMPLES if n != "scout"]


def test_the_samples_weapons_as_published() -> None:
    weapons = {
        n: [(row[0], row[1], row[2]) for row in table(sample(n, "sample-fighters"), "weapons")] for n in FURY_SAMPLES
    }
    assert weapons["gunship"] == [("Chain Gun", 1, "Turret"), ("Rail Gun", 1, "Fixed"), ("Missile", 2, "Launched")]
    assert weapons["heavy-bomber"] == [("Laser", 1, "Turret"), ("Nuclear Missile", 4, "Launched")]
    assert weapons["assault-fighter"] == [("Laser", 4, "Fixed"), ("Missile", 1, "Launched")]
    assert weapons["escort-fighter"] == [("Particle Accelerator", 1, "Fixed"), ("Ion Gun", 1, "Fixed")]
    assert weapons["defense-fighter"] == [("Laser", 1, "Fixed"), ("Rocket Pod", 2, "Fixed")]
    assert weapons["symbiote-fighter"] == [("Laser", 2, "Fixed")]


def test_the_samples_figures() -> None:
    figures = {
        n: tuple(fig(sample(n), s) for s in ("speed", "maneuver", "armor", "tohit", "shields", "seats"))
        for n in FURY_SAMPLES
    }
    assert figures == {
        "interceptor": (5, 2, 0, 1, 0, 1),
        "defense-fighter": (4, 0, 0, 0, 1, 1),
        "light-fighter": (6, 2, 0, 0, 0, 1),
        "scout": (4, 0, 0, 0, 0, 1),
        "assault-fighter": (4, 0, 0, 0, 1, 1),
        "escort-fighter": (4, 0, 1, 0, 1, 1),
        "gunship": (4, 0, 2, 0, 2, 2),
        "heavy-bomber": (4, 0, 0, 0, 1, 1),
        "fighter-bomber": (4, 1, 1, 0, 0, 1),
        "symbiote-fighter": (4, 0, 0, 0, 0, 3),
    }
    assert fig(sample("scout"), "detection") == "1-4"


@pytest.mark.parametrize("name", FURY_SAMPLES)
def test_each_sample_is_entered_with_its_published_line(name: str) -> None:
    text = SOURCE.read_text(encoding="utf-8") if SOURCE.exists() else ""
    loaded = load_design(FURY_EXAMPLES / f"{name}.ship", use_user_folder=False)
    published = loaded.design.root.published
    assert published is not None
    if text:
        line = re.search(rf"^{published.enhancements}\s+[A-Za-z ]+?\s+{re.escape(published.systems[:12])}", text, re.M)
        assert line, f"{name}: {published.systems!r} is not how the text prints it"


# --- bad input ---------------------------------------------------------------------------


def _problems(body: dict[str, Any]) -> str:
    with pytest.raises(InputError) as exc:
        sf.resolve(sf.SpaceFuryDesign.model_validate(body), fury())
    return str(exc.value)


def test_unknown_names_are_reported_with_their_paths_and_what_is_allowed() -> None:
    text = _problems(
        {
            "kind": "force",
            "name": "F",
            "fighters": [
                {
                    "name": "A",
                    "enhancements": [{"id": "Armour"}, {"id": "Railgunn"}, {"id": "Turret", "weapons": ["Lazer"]}],
                    "pilot": {"xp": 1, "skills": ["Acuracy"], "quirks": ["Sneeky"]},
                }
            ],
        }
    )
    assert "Armour" not in text  # an alias of Armor
    for part in (
        "at fighters[0].enhancements[1].id: unknown enhancement 'Railgunn'; did you mean 'Rail Gun'",
        "at fighters[0].enhancements[2].weapons[0]: unknown weapon 'Lazer'; did you mean 'Laser'",
        "at fighters[0].pilot.skills[0]: unknown pilot skill 'Acuracy'; did you mean 'Accuracy'",
        "at fighters[0].pilot.quirks[0]: unknown quirk 'Sneeky'; did you mean 'Sneaky'",
        "(allowed: Targeter, Engines, Thrusters",
    ):
        assert part in text, part


@pytest.mark.parametrize(
    ("body", "path", "says"),
    [
        ({"name": "X"}, "design", "'kind' must be one of fighter, pilot, force"),
        ({"kind": "ship", "name": "X"}, "design", "got 'ship'"),
        ({"kind": "fighter", "name": "X", "colour": "red"}, "design.colour", "unknown field 'colour'"),
        (
            {"kind": "fighter", "name": "X", "enhancements": [{"id": "Armor", "count": 0}]},
            "design.enhancements[0].count",
            "greater than or equal to 1",
        ),
        ({"kind": "pilot", "name": "X", "xp": -1}, "design.xp", "greater than or equal to 0"),
        ({"kind": "pilot", "name": "X"}, "design.xp", "Field required"),
        (
            {"kind": "fighter", "name": "X", "enhancements": [{"id": "Warp Core"}]},
            "design.enhancements[0].id",
            "unknown enhancement 'Warp Core'",
        ),
    ],
)
def test_a_bad_design_file_names_file_path_and_problem(
    body: dict[str, Any], path: str, says: str, tmp_path: Path
) -> None:
    import json

    file = tmp_path / "bad.ship"
    file.write_text(json.dumps({"format_version": 2, "ruleset": "space-fury", "design": body}))
    with pytest.raises(InputError) as exc:
        load_design(file, use_user_folder=False)
    text = str(exc.value)
    assert str(file) in text and f"at {path}" in text and says in text


def test_new_design_is_an_empty_fighter() -> None:
    from shipyard.core.designfile import new_design

    loaded = new_design("space-fury", "Red 5", "fighter")
    assert loaded.design.root.kind == "fighter" and loaded.design.root.enhancements == []
    with pytest.raises(InputError) as exc:
        new_design("space-fury", "Red 5", "starship")
    assert "allowed: fighter" in str(exc.value)


def test_documented_sample_table_equals_the_engine() -> None:
    def cell(n: int, published: int) -> str:
        return str(n) if n == published else f"**{n}**"

    lines = [
        "| Sample | Published | as-written count | as-written cost | sample-fighters count | sample-fighters cost |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for name in FURY_SAMPLES:
        cells = []
        for preset in PRESETS:
            r = sample(name, preset)
            cells += [cell(fig(r, "enhancements"), fig(r, "published")), str(fig(r, "cost"))]
        lines.append(f"| {r.name} | {fig(r, 'published')} | {' | '.join(cells)} |")
    doc = (ROOT / "docs" / "rules-space-fury.md").read_text(encoding="utf-8")
    documented = doc.split("<!-- fury-samples:begin -->", 1)[1].split("<!-- fury-samples:end -->", 1)[0].strip()
    assert documented == "\n".join(lines)


def test_documented_finding_codes_are_the_ones_the_rules_use() -> None:
    doc = (ROOT / "docs" / "rules-space-fury.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `([a-z-]+)` \| (?:error|warning|advice) \|", doc, re.M))
    package = ROOT / "shipyard" / "rulesets" / "space_fury"
    source = "\n".join(p.read_text(encoding="utf-8") for p in sorted(package.rglob("*.py")))
    used = set(re.findall(r'\bctx\.findings\.add\(\s*(?:Severity\.[A-Z]+|p\.\w+),\s*"([a-z-]+)"', source))
    assert len(used) == 21
    # the force's rules are composition rules of the catalog: their codes are its data
    from shipyard.core.composition import composition_rules

    for rule in composition_rules(load_catalog("space-fury")):
        used.update(rule.params.codes())  # type: ignore[attr-defined]
    assert {"fighter-without-pilot", "pilot-levels-over", "pilot-levels-unused"} <= used
    assert documented == used
