"""One test (or more) per Space Fighter Alpha construction rule, with the rules' numbers.

Each test would fail if its rule were read differently from docs/rules.md.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from shipyard.core.findings import Severity
from shipyard.core.report import Report

from .conftest import EXAMPLES, build, call_shipyard, finding, pool


def test_base_design_spends_nothing() -> None:
    _, r = build()
    assert pool(r, "freebies") == (15, 0, 0, 15)
    assert pool(r, "weapon-points")[3] == 0  # 5 unspent, exchanged below
    assert r.valid


# --- stat block ranges (Introduction, stat block) -----------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "limit"),
    [
        ("handling", 6, [-5, 5]),
        ("handling", -6, [-5, 5]),
        ("move", 6, [0, 5]),
        ("power", 11, [0, 10]),
        ("structure", 0, [1, 20]),
        ("structure", 21, [1, 20]),
    ],
)
def test_stat_out_of_range(field: str, value: int, limit: list[int]) -> None:
    _, r = build(**{field: value})
    f = finding(r, "stat-out-of-range")
    assert (f.severity, f.path, f.actual, f.limit) == (Severity.ERROR, field, value, limit)
    assert "Space Fighter Alpha" in f.source
    assert not r.valid


def test_soak_over_five_is_out_of_range() -> None:
    _, r = build(soak=6, armor=6)
    paths = {f.path for f in r.findings if f.code == "stat-out-of-range"}
    assert paths == {"soak", "armor"}


# --- Soak = Armor + Energy Shields (Step Two) ----------------------------------------------


def test_soak_split_must_add_up() -> None:
    _, r = build(soak=2, armor=1, shields=0)
    f = finding(r, "soak-split-mismatch")
    assert (f.severity, f.actual, f.limit) == (Severity.ERROR, 1, 2)


def test_soak_split_adds_up() -> None:
    _, r = build(soak=3, armor=1, shields=2)
    assert "soak-split-mismatch" not in r.codes()
    assert r.derived.figure("soak").detail == "Armor 1 + Energy Shields 2"


def test_soak_not_yet_split_is_a_warning() -> None:
    _, r = build(soak=2, armor=None, shields=None)
    f = finding(r, "soak-split-unassigned")
    assert (f.severity, f.limit) == (Severity.WARNING, 2)


# --- attribute priority (Step Two, Step Five) -----------------------------------------------


def priority(r: Report) -> dict[str, Any]:
    """The priority's outcome as check --json carries it: the value of the figure ``priority``."""
    fig = r.derived.figure("priority")
    assert fig is not None and isinstance(fig.value, dict)
    assert fig.detail.startswith("Free dots: ")  # what sheets and the text report print
    return fig.value


def test_priority_costs_five_per_dot_above_free_dots() -> None:
    # H1 S3 M2: best order S2 M1 H0 -> 3 dots above = 15 = 5 x (1 + 3 + 2 - 3)
    _, r = build(handling=1, soak=3, armor=3, move=2)
    assert pool(r, "freebies") == (15, 0, 15, 0)
    pr = priority(r)
    assert pr["order"]["soak"] == 2
    assert pr["cost"] == 15


def test_less_handling_gives_five_freebies_per_point() -> None:
    _, r = build(handling=-3)  # 3 below its 0 free dots -> +15
    assert pool(r, "freebies") == (15, 15, 0, 30)


def test_soak_and_move_below_free_dots_are_wasted() -> None:
    _, r = build(handling=0, soak=0, armor=None, move=0)
    pr = priority(r)
    # Handling takes the 2 dots and pays back 10; the 1 dot given to Soak or Move is wasted.
    assert (pr["cost"], pr["wasted"], pr["order"]["handling"]) == (-10, 1, 2)
    assert pool(r, "freebies") == (15, 10, 0, 25)


def test_pinned_priority_is_used_and_advised_when_dearer() -> None:
    _, r = build(handling=0, soak=0, armor=None, move=2, priority=["soak", "move", "handling"])
    pr = priority(r)
    assert pr["pinned"] and pr["order"] == {"soak": 2, "move": 1, "handling": 0}
    assert (pr["cost"], pr["best_cost"]) == (5, -5)
    f = finding(r, "priority-not-cheapest")
    assert (f.severity, f.actual, f.limit, f.path) == (Severity.ADVICE, 5, -5, "priority")
    assert pool(r, "freebies")[3] == 10


# --- Structure and Power (Step Five) ------------------------------------------------------


def test_structure_above_ten_costs_two_each() -> None:
    _, r = build(structure=15)
    assert pool(r, "freebies") == (15, 0, 10, 5)


def test_less_structure_gives_two_each() -> None:
    _, r = build(structure=6)
    assert pool(r, "freebies") == (15, 8, 0, 23)


def test_power_costs_one_freebie_per_point() -> None:
    _, r = build(power=7)
    assert pool(r, "freebies") == (15, 0, 7, 8)


def test_freebies_over_budget_is_an_error() -> None:
    _, r = build(structure=20, power=10)  # 20 + 10 = 30 > 15
    f = finding(r, "pool-over-budget")
    assert (f.path, f.actual, f.limit) == ("budgets.freebies", 30, 15)
    assert not r.valid


# --- weapons (Step Three, weapon chart) ----------------------------------------------------


@pytest.mark.parametrize(
    ("weapons", "spent"),
    [
        ([{"weapon": "light-laser"}], 2),
        ([{"weapon": "medium-laser"}], 4),
        ([{"weapon": "heavy-laser"}], 6),
        ([{"weapon": "railgun"}], 5),
        ([{"weapon": "missile", "count": 2}], 8),
        ([{"weapon": "rocket-salvo"}], 3),
        ([{"weapon": "light-laser", "turret": True}], 3),
        ([{"weapon": "light-laser", "count": 2, "fire_link": "A"}], 6),
        ([{"weapon": "light-laser", "count": 2, "fire_link": "A", "turret": True}], 8),
    ],
)
def test_weapon_point_costs(weapons: list[dict[str, object]], spent: int) -> None:
    _, r = build(weapons=weapons, crew=3)
    line_total = sum(i.amount for i in r.pool("weapon-points").items if i.path.startswith("weapons"))
    assert line_total == spent


def test_unspent_weapon_points_give_two_freebies_each() -> None:
    _, r = build(weapons=[{"weapon": "light-laser"}])  # 3 of 5 left
    assert pool(r, "weapon-points") == (5, 0, 5, 0)
    assert pool(r, "freebies") == (15, 6, 0, 21)


def test_overspent_weapon_points_cost_two_freebies_each() -> None:
    _, r = build(weapons=[{"weapon": "light-laser", "count": 2, "fire_link": "A"}, {"weapon": "missile"}])
    assert pool(r, "weapon-points") == (5, 5, 10, 0)
    assert pool(r, "freebies") == (15, 0, 10, 5)
    labels = [i.label for i in r.pool("freebies").items]
    assert "5 extra Weapon Points x 2" in labels


def test_fire_link_group_needs_two_weapons() -> None:
    _, r = build(weapons=[{"weapon": "light-laser", "fire_link": "A"}])
    f = finding(r, "fire-link-group-too-small")
    assert (f.severity, f.actual, f.limit, f.path) == (Severity.ERROR, 1, 2, "weapons[0].fire_link")


def test_fire_link_group_across_entries_counts_all_weapons() -> None:
    _, r = build(weapons=[{"weapon": "light-laser", "fire_link": "A"}, {"weapon": "medium-laser", "fire_link": "A"}])
    assert "fire-link-group-too-small" not in r.codes()


# --- out-of-scale and higher-scale designs ---------------------------------------------------


def starship(**kw: object) -> dict[str, object]:
    base: dict[str, object] = {"scale": "starship", "crew": 10, "structure": 10}
    base.update(kw)
    return base


def test_smaller_scale_weapons_cost_a_fifth_per_step() -> None:
    # The text says "for 1 Weapon Point ... 2 Turreted Starfighter-scale Medium Lasers";
    # 1/5 of 2 x (4 + 1) is 2, and Shipyard charges 2 (docs/rules.md).
    _, r = build(
        **starship(weapons=[{"weapon": "medium-laser", "count": 2, "turret": True, "scale": "starfighter"}], crew=12)
    )
    item = r.pool("weapon-points").items[0]
    assert item.amount == 2 and item.exact is None


def test_fractional_costs_are_exact_and_the_pool_rounds_up() -> None:
    one = {"weapon": "light-laser", "scale": "starfighter"}
    _, r = build(**starship(weapons=[one]))
    item = r.pool("weapon-points").items[0]
    assert (item.amount, item.exact) == (0.4, "2/5")
    assert r.pool("weapon-points").items[1].label.startswith("14 unspent")  # 15 - ceil(2/5)
    _, r3 = build(**starship(weapons=[one, one, one]))
    assert sum(Fraction(i.exact or i.amount) for i in r3.pool("weapon-points").items[:3]) == Fraction(6, 5)
    assert r3.pool("weapon-points").items[3].label.startswith("13 unspent")  # ceil(6/5) = 2


def test_two_steps_down_cost_a_twenty_fifth() -> None:
    _, r = build(
        **starship(
            scale="starship+1", structure=10, crew=50, weapons=[{"weapon": "light-laser", "scale": "starfighter"}]
        )
    )
    assert r.pool("weapon-points").items[0].exact == "2/25"


def test_larger_scale_weapon_must_be_advanced_technology() -> None:
    _, r = build(weapons=[{"weapon": "heavy-laser", "scale": "starship"}])
    f = finding(r, "component-scale-larger")
    assert (f.severity, f.path) == (Severity.ERROR, "weapons[0].scale")
    assert "Out-of-Scale Designs" in f.source


def test_larger_scale_accessories_and_technology_must_be_advanced_technology() -> None:
    # "For installation of larger scale components, simply purchase the appropriate Advanced
    # Technology": a Starfighter's Starship-scale Landing Gear, Medical Bay or Boosters is not
    # an accessory or technology at list price.
    _, r = build(
        accessories=[{"id": "landing-gear", "scale": "starship"}, {"id": "medical-bay", "scale": "starship"}],
        technology=[{"id": "boosters", "scale": "starship"}],
    )
    found = [(f.severity, f.path, f.actual, f.limit) for f in r.findings if f.code == "component-scale-larger"]
    assert found == [
        (Severity.ERROR, "technology[0].scale", "Starship", "Starfighter"),
        (Severity.ERROR, "accessories[0].scale", "Starship", "Starfighter"),
        (Severity.ERROR, "accessories[1].scale", "Starship", "Starfighter"),
    ]
    f = finding(r, "component-scale-larger")
    assert f.message.startswith("Boosters at Starship scale is larger than this Starfighter-scale design")
    assert f.source.endswith("Out-of-Scale Designs")
    assert not r.valid
    # at the design's own scale, or a smaller one, there is nothing to refuse
    _, r = build(accessories=[{"id": "landing-gear", "scale": "starfighter"}], technology=[{"id": "boosters"}])
    assert "component-scale-larger" not in r.codes()


def test_a_scale_marking_is_judged_at_the_scale_the_item_is_built_for() -> None:
    # "Spacecraft can utilize weapons and accessories built for different scales": a Starship
    # installs a Starfighter-scale Medical Panel for 1/5 point; Crew Quarters exist only at
    # Starship scale, so a Starfighter-scale one is refused though the ship is a Starship.
    _, r = build(**starship(accessories=[{"id": "medical-panel", "scale": "starfighter"}]))
    assert "scale-restricted-item" not in r.codes()
    assert r.pool("accessory-points").items[0].exact == "1/5"
    _, r = build(**starship(accessories=[{"id": "crew-quarters", "scale": "starfighter"}]))
    f = finding(r, "scale-restricted-item")
    assert (f.path, f.actual, f.limit) == ("accessories[0].scale", "Starfighter", "Starship")
    assert f.message == "Crew Quarters is for Starship scale only; this one is Starfighter scale"


def test_custom_technology_for_larger_components_costs_power_points() -> None:
    _, r = build(custom_technology=[{"name": "Super-Laser", "cost": 4, "scale": "starship"}])
    assert pool(r, "power-points")[2] == 4
    assert r.derived.table("technology").rows[0][0] == "Super-Laser (custom)"


def test_higher_scales_keep_starship_budgets() -> None:
    _, r = build(**starship(scale="starship+2", structure=10, crew=250))
    assert [p.budget for p in r.pools] == [15, 10, 15, 20]


# --- Power Points and the Storyteller's budgets (Step Four) ------------------------------------


def test_power_points_over_budget_is_an_error() -> None:
    _, r = build(technology=[{"id": "force-field"}, {"id": "auto-turrets"}])
    f = finding(r, "pool-over-budget")
    assert (f.path, f.actual, f.limit) == ("budgets.power-points", 7, 5)


def test_storyteller_may_raise_a_budget() -> None:
    _, r = build(technology=[{"id": "force-field"}, {"id": "auto-turrets"}], budgets={"power-points": 7})
    p = r.pool("power-points")
    assert (p.budget, p.remaining) == (7, 0)
    assert "Storyteller" in p.budget_note and "5" in p.budget_note
    assert r.valid


def test_per_level_technology_costs_cost_times_level() -> None:
    _, r = build(technology=[{"id": "armor-piercing-weapons", "level": 2}])
    assert pool(r, "power-points")[2] == 4


def test_unspent_power_points_are_lost_with_advice() -> None:
    _, r = build(technology=[{"id": "holo-projector"}])
    f = next(f for f in r.findings if f.code == "pool-unspent" and f.path == "budgets.power-points")
    assert (f.severity, f.actual, f.path) == (Severity.ADVICE, 4, "budgets.power-points")
    assert pool(r, "power-points") == (5, 0, 1, 4)


# --- accessories ---------------------------------------------------------------------------

TWELVE = [
    "airlocks", "atmospheric-wings", "communications-systems", "docking-clamps", "ejection-pods",
    "engine-access-panels", "eva-and-pressure-suits", "food-and-supplies", "landing-gear",
    "life-support", "manipulator-arms", "search-lights",
]  # fmt: skip


def test_extra_accessories_cost_one_freebie_each() -> None:
    _, r = build(accessories=[{"id": a} for a in TWELVE])
    assert pool(r, "accessory-points") == (10, 2, 12, 0)
    assert pool(r, "freebies") == (15, 0, 2, 13)


def test_unspent_accessory_points_are_lost_with_advice() -> None:
    _, r = build(accessories=[{"id": "sensors"}, {"id": "life-support"}, {"id": "communications"}])
    assert pool(r, "accessory-points") == (10, 0, 3, 7)
    assert next(f for f in r.findings if f.path == "budgets.accessory-points").actual == 7
    assert pool(r, "freebies")[3] == 15  # unspent accessory points never become freebies


def test_ftl_drive_is_one_per_level_up_to_five() -> None:
    _, r = build(accessories=[{"id": "ftl-drive", "level": 5}])
    assert pool(r, "accessory-points")[2] == 5 and "level-above-max" not in r.codes()
    _, r = build(accessories=[{"id": "ftl-drive", "level": 6}])
    f = finding(r, "level-above-max")
    assert (f.actual, f.limit, f.path) == (6, 5, "accessories[0].level")


def test_items_without_levels_are_bought_once() -> None:
    _, r = build(accessories=[{"id": "landing-gear", "level": 2}])
    f = finding(r, "level-not-allowed")
    assert (f.severity, f.actual, f.limit) == (Severity.ERROR, 2, 1)


def test_starfighter_scale_items_are_refused_on_starships() -> None:
    _, r = build(**starship(accessories=[{"id": "medical-panel"}]))
    f = finding(r, "scale-restricted-item")
    assert (f.severity, f.path) == (Severity.ERROR, "accessories[0]")


def test_starship_scale_items_fit_higher_scales_but_not_starfighters() -> None:
    _, r = build(**starship(scale="starship+1", crew=50, accessories=[{"id": "engineering-deck"}]))
    assert "scale-restricted-item" not in r.codes()
    _, r = build(accessories=[{"id": "engineering-deck"}])
    assert finding(r, "scale-restricted-item").limit == "Starship"


def test_recommended_accessories_are_advice_per_scale() -> None:
    _, r = build(**starship())
    missing = {f.limit for f in r.findings if f.code == "recommended-item-missing"}
    assert missing == {"Airlocks", "Communications Systems", "Food and Supplies", "Life Support", "Sensors"}
    _, r = build()
    missing = {f.limit for f in r.findings if f.code == "recommended-item-missing"}
    assert missing == {"Communications Systems", "Life Support", "Sensors"}
    assert all(f.severity == Severity.ADVICE for f in r.findings if f.code == "recommended-item-missing")


# --- crew, gunners, seats ------------------------------------------------------------------


def test_each_turreted_weapon_needs_a_gunner() -> None:
    _, r = build(crew=1, weapons=[{"weapon": "light-laser", "count": 2, "turret": True}])
    f = finding(r, "gunner-shortage")
    assert (f.severity, f.actual, f.limit) == (Severity.WARNING, 0, 2)


def test_auto_turrets_need_no_gunner() -> None:
    _, r = build(crew=1, weapons=[{"weapon": "medium-laser", "turret": True}], technology=[{"id": "auto-turrets"}])
    assert "gunner-shortage" not in r.codes()
    assert r.derived.figure("gunners-needed").value == 0


def test_an_ai_counts_as_one_gunner() -> None:
    ai = {"id": "artificial-intelligence", "level": 1, "options": {"dexterity": 1, "gunnery": 1}}
    _, r = build(crew=0, weapons=[{"weapon": "light-laser", "turret": True}], technology=[ai])
    assert "gunner-shortage" not in r.codes() and "no-pilot" not in r.codes()
    _, r = build(crew=0, weapons=[{"weapon": "light-laser", "count": 2, "turret": True}], technology=[ai])
    assert (finding(r, "gunner-shortage").actual, finding(r, "gunner-shortage").limit) == (1, 2)


def test_ai_spread_must_add_up() -> None:
    _, r = build(technology=[{"id": "artificial-intelligence", "level": 5}], budgets={"power-points": 5})
    assert finding(r, "ai-spread-unassigned").limit == 10
    _, r = build(
        technology=[
            {"id": "artificial-intelligence", "level": 5, "options": {"dexterity": 4, "piloting": 3, "gunnery": 2}}
        ]
    )
    f = finding(r, "ai-spread-mismatch")
    assert (f.severity, f.actual, f.limit) == (Severity.ERROR, 9, 10)
    _, r = build(
        technology=[
            {"id": "artificial-intelligence", "level": 5, "options": {"dexterity": 4, "piloting": 3, "gunnery": 3}}
        ]
    )
    assert not {"ai-spread-mismatch", "ai-spread-unassigned"} & set(r.codes())
    assert r.derived.figure("virtual-pilot").detail == "Dexterity 4, Piloting 3, Gunnery 3"
    _, r = build(technology=[{"id": "artificial-intelligence", "level": 1, "options": {"charisma": 2}}])
    assert finding(r, "ai-spread-mismatch").actual == ["charisma"]


def test_starship_crew_guidelines() -> None:
    _, r = build(**starship(crew=5))
    assert (finding(r, "crew-below-minimum").actual, finding(r, "crew-below-minimum").limit) == (5, 10)
    _, r = build(**starship(crew=101))
    assert finding(r, "crew-above-maximum").limit == 100
    assert finding(r, "crew-above-quarters").limit == 10  # quarters for 10 come with the ship
    assert all(f.severity == Severity.WARNING for f in r.findings if f.code.startswith("crew-"))
    _, r = build(**starship(crew=30, accessories=[{"id": "crew-quarters", "level": 1}]))
    assert not [c for c in r.codes() if c.startswith("crew-")]
    assert r.derived.figure("capacity-crew-quarters").value == 30


def test_crew_guidelines_grow_five_times_per_scale_step() -> None:
    _, r = build(**starship(scale="starship+1", crew=40))
    assert finding(r, "crew-below-minimum").limit == 50
    assert r.derived.figure("crew-maximum").value == 500


def test_starfighter_seats_and_pilot() -> None:
    _, r = build(crew=3, accessories=[{"id": "co-pilot-or-crew-station", "level": 1}])
    f = finding(r, "crew-above-seats")
    assert (f.actual, f.limit) == (3, 2)
    _, r = build(crew=0)
    assert finding(r, "no-pilot").severity == Severity.WARNING


# --- each finding cites the section its rule is in --------------------------------------------


@pytest.mark.parametrize(
    ("fields", "code", "path", "section"),
    [
        # "Spend 'Freebie Points'(15)": Step Five sets the freebies
        (
            {"structure": 20, "power": 10},
            "pool-over-budget",
            "budgets.freebies",
            "Constructing a Spacecraft, Step Five",
        ),
        # "The Storyteller should assign a number of Power Points": Step Four
        (
            {"technology": [{"id": "force-field"}, {"id": "auto-turrets"}]},
            "pool-over-budget",
            "budgets.power-points",
            "Constructing a Spacecraft, Step Four",
        ),
        # "Crew Quarters for 10,x2 each additional (Starship Scale)"
        ({"scale": "starship", "crew": 11, "structure": 10}, "crew-above-quarters", "accessories", "Accessories"),
        # "capable of operating independent of a pilot or crew"
        ({"crew": 0}, "no-pilot", "crew", "Advanced Technology: Artificial Intelligence"),
    ],
)
def test_a_finding_cites_the_section_of_its_own_rule(
    fields: dict[str, Any], code: str, path: str, section: str
) -> None:
    _, r = build(**fields)
    f = next(f for f in r.findings if f.code == code and f.path == path)
    assert f.source == f"Space Fighter Alpha, {section}"


# --- capacities and derived figures ----------------------------------------------------------


@pytest.mark.parametrize(
    ("scale", "cargo"), [("starfighter", 10), ("starship", 50), ("starship+1", 250), ("starship+2", 1250)]
)
def test_cargo_capacity_grows_five_times_per_scale(scale: str, cargo: int) -> None:
    extra = {} if scale == "starfighter" else starship(scale=scale, crew=10 * 5 ** (len(scale) > 8))
    _, r = build(**{**extra, "technology": [{"id": "cargo-hold", "level": 2}]})
    fig = r.derived.figure("capacity-cargo")
    assert (fig.value, fig.unit) == (cargo, "cubic meters")


def test_a_smaller_scale_capacity_holds_what_its_own_scale_holds() -> None:
    # "Out-of-Scale Designs": a Starfighter-scale component costs 1/5 and is built for its
    # scale, so it holds what a Starfighter's does: Cargo Hold 5 m3 and Passengers 5 a level,
    # and a Hangar Bay 1 small vehicle a level (not a Starfighter-scale spacecraft).
    small = [{"id": i, "level": 5, "scale": "starfighter"} for i in ("cargo-hold", "passengers", "hangar-bay")]
    _, r = build(**starship(technology=small))
    assert [(i.amount, i.path) for i in r.pool("power-points").items[:3]] == [
        (1, "technology[0]"), (1, "technology[1]"), (1, "technology[2]"),
    ]  # fmt: skip
    cargo, passengers = r.derived.figure("capacity-cargo"), r.derived.figure("capacity-passengers")
    assert (cargo.value, cargo.unit, cargo.detail) == (25, "cubic meters", "Cargo Hold 5 x 5 at Starfighter scale")
    assert (passengers.value, passengers.detail) == (25, "Passengers 5 x 5 at Starfighter scale")
    assert r.derived.figure("capacity-hangar") is None  # no Starfighter-scale spacecraft fit
    hangar = r.derived.figure("capacity-hangar-starfighter")
    assert (hangar.label, hangar.value, hangar.unit, hangar.detail) == (
        "Hangar (Starfighter scale)", 5, "small vehicles", "Hangar Bay 5 x 1 at Starfighter scale",
    )  # fmt: skip
    # beside a Hangar Bay of the ship's own scale, each is counted in its own unit
    _, r = build(**starship(technology=[{"id": "hangar-bay", "level": 2}, small[2]]))
    assert r.derived.figure("capacity-hangar").value == 2
    assert r.derived.figure("capacity-hangar-starfighter").value == 5


def test_smaller_scale_crew_quarters_house_what_a_starship_s_do() -> None:
    # A Starship + 1 gets quarters for 10 x 5 = 50; Starship-scale Crew Quarters (1/5 point
    # a level) house 20 a level, not the Starship + 1's 100.
    quarters = {"id": "crew-quarters", "level": 5, "scale": "starship"}
    _, r = build(**starship(scale="starship+1", crew=160, accessories=[quarters]))
    assert r.pool("accessory-points").items[0].amount == 1
    fig = r.derived.figure("capacity-crew-quarters")
    assert (fig.value, fig.detail) == (150, "50 included + Crew Quarters 5 x 20 at Starship scale")
    f = finding(r, "crew-above-quarters")
    assert (f.actual, f.limit) == (160, 150)


def test_a_component_scale_with_no_capacity_in_the_text_adds_none_and_says_so() -> None:
    # The text gives Cargo Hold per level for Starfighter and Starship scale only.
    _, r = build(
        technology=[{"id": "cargo-hold", "level": 1}, {"id": "cargo-hold", "level": 2, "scale": "street-fighter"}]
    )
    fig = r.derived.figure("capacity-cargo")
    assert (fig.value, fig.detail) == (5, "Cargo Hold 1 x 5 + Cargo Hold 2: no capacity at Street Fighter scale")


@pytest.mark.parametrize(
    ("scale", "move", "kmh", "mach"),
    [
        ("starfighter", 3, 6750, 5.5),
        ("starfighter", 5, 11250, 9.1),
        ("starship", 3, 1350, 1.1),
        ("starship+2", 1, 450, 0.4),
    ],
)
def test_move_in_kmh_and_mach(scale: str, move: int, kmh: int, mach: float) -> None:
    extra = {} if scale == "starfighter" else starship(scale=scale, crew=250)
    _, r = build(**{**extra, "move": move, "soak": 1})
    assert r.derived.figure("move-kmh").value == kmh
    assert r.derived.figure("move-mach").value == mach


def test_structure_track_runs_to_minus_structure() -> None:
    _, r = build(structure=7)
    fig = r.derived.figure("structure-track")
    assert fig.value == 15 and "-7" in fig.detail


@pytest.mark.parametrize("structure", [0, -3])
def test_structure_0_or_below_is_a_track_of_no_boxes(structure: int, tmp_path: Path) -> None:
    """Structure -3 (an error of its own) printed "Structure track -5 boxes — -3 down to 0
    (scrapped) and to --3", "at 3 it is destroyed", and a Foundry health of -3 of -3;
    Structure 0 "at 0 ... scrapped; at 0 it is destroyed". The track has no boxes now, its
    text says the craft has no Structure left, and the health is 0 of 0."""
    import json
    import re

    ship = _set_structure(tmp_path, structure)
    text = call_shipyard("check", ship).stdout
    assert f"stat-out-of-range: Structure {structure} is outside 1 to 20" in text
    said = f"a craft of Structure {structure} has no Structure left to mark"
    assert re.search(rf"Structure track +0 boxes +— {re.escape(said)}$", text, re.M), text
    assert re.search(rf"Structure +— No boxes: {re.escape(said)}\.$", text, re.M), text
    structure_lines = [line for line in text.splitlines() if "Structure" in line]
    assert not [line for line in structure_lines if re.search(r"--|-\d+ box|destroyed|scrapped", line)], text
    r = call_shipyard("export", "foundry", ship, "-o", tmp_path / "actor")
    assert r.returncode == 0, r.stderr
    actor = json.loads((tmp_path / "actor" / "ship.json").read_text())
    assert actor["system"]["health"] == {"value": 0, "min": 0, "max": 0}
    _, report = build(structure=structure)
    track = report.derived.track("structure")
    assert track is not None and track.boxes == []


def _set_structure(tmp_path: Path, structure: int) -> Path:
    out = tmp_path / "ship.ship"
    r = call_shipyard("set", EXAMPLES / "rebel-fighter.ship", f"structure={structure}", "-o", out)
    assert r.returncode in (0, 1), r.stderr  # written, with its error
    return out


def test_enhanced_lasers_and_missiles_raise_damage_and_range_by_five() -> None:
    _, r = build(
        weapons=[{"weapon": "light-laser"}, {"weapon": "missile"}, {"weapon": "rocket-salvo"}],
        technology=[{"id": "enhanced-lasers"}, {"id": "enhanced-missiles"}],
        budgets={"weapon-points": 9, "power-points": 6},
    )
    rows = {row[0]: row for row in r.derived.table("weapons").rows}
    assert rows["Light Laser"][5:7] == ["+10", 10]
    assert rows["Missile/Torpedo"][5:7] == ["25", 25]
    assert rows["Rocket Salvo"][5:7] == ["+8", 5]  # rockets are not missiles/torpedoes
    assert rows["Missile/Torpedo"][7] == "10+25 = 35"


def test_pilot_pools_use_handling_and_soak() -> None:
    _, r = build(handling=-1, soak=2, armor=2, move=1, pilot={"dexterity": 3, "piloting": 4})
    assert r.derived.figure("attack-pool").value == 6  # 3 + 4 - 1
    assert r.derived.figure("soak-pool").value == 8  # 3 + 4 + 2 - 1
    railgun = r.derived.table("weapons").rows[0]
    assert railgun[7] == "18"  # 3 + 4 - 1 + Railgun +12


# --- transformation forms ---------------------------------------------------------------------


def test_forms_need_transformation_levels() -> None:
    _, r = build(forms=[{"name": "Walker", "move": 1}])
    f = finding(r, "transformation-forms-mismatch")
    assert (f.actual, f.limit) == (1, 0)


def test_a_form_of_equal_value_passes() -> None:
    # Primary H0 S1 M2; the form moves the dots around (H1 S2 M0): same 0-freebie priority.
    _, r = build(
        technology=[{"id": "transformation"}],
        forms=[{"name": "Guardian", "handling": 1, "soak": 2, "armor": 2, "move": 0}],
    )
    assert "form-value-mismatch" not in r.codes()
    assert len(r.forms) == 1 and r.forms[0].name == "Test: Guardian"
    assert r.valid
    from shipyard.core.textreport import render

    assert "\nForm: Test: Guardian\n--------------------\n" in render(r)


def test_a_form_of_other_value_is_an_error() -> None:
    _, r = build(technology=[{"id": "transformation"}], forms=[{"name": "Fast", "move": 4}])
    f = finding(r, "form-value-mismatch")
    assert (f.actual, f.limit, f.path) == (10, 0, "forms[0]")
    assert not r.valid


def test_a_form_with_legs_and_arms_is_a_robot() -> None:
    acc = [{"id": "legs"}, {"id": "manipulator-arms"}]
    _, r = build(
        technology=[{"id": "transformation"}],
        accessories=acc,
        forms=[{"name": "Robot", "handling": 1, "soak": 2, "armor": 2, "move": 0}],
    )
    assert r.derived.figure("forms").detail == "Robot (robot)"


# --- presets ---------------------------------------------------------------------------------


def test_sample_ships_preset_moves_ftl_to_power_points_and_cheapens_force_field() -> None:
    kw = {"technology": [{"id": "force-field"}], "accessories": [{"id": "ftl-drive", "level": 2}]}
    _, written = build(**kw)
    assert pool(written, "power-points")[2] == 5 and pool(written, "accessory-points")[2] == 2
    _, sample = build(preset="sample-ships", **kw)
    assert pool(sample, "power-points")[2] == 5  # 3 + FTL 2
    assert pool(sample, "accessory-points")[2] == 0
    assert sample.preset == "sample-ships"


def test_evaluate_is_deterministic_and_leaves_the_design_alone() -> None:
    from .conftest import sfa

    design, r1 = build(weapons=[{"weapon": "light-laser", "count": 2, "fire_link": "A"}])
    before = design.model_dump()
    from shipyard.core.evaluate import evaluate

    r2 = evaluate(design, sfa())
    assert r1 == r2 and design.model_dump() == before


def test_interscale_notes_shift_five_successes_per_step() -> None:
    _, r = build()
    rows = {row[0]: row for row in r.derived.table("interscale").rows}
    assert set(rows) == {"Street Fighter", "Starship", "Starship + 1"}
    assert rows["Starship"][2:] == ["-5", "+5"]
    assert rows["Starship + 1"][2:] == ["-10", "+10"]
    assert rows["Street Fighter"][2:] == ["+5", "-5"]


def test_auto_turrets_are_fired_with_the_pilots_piloting() -> None:
    _, r = build(weapons=[{"weapon": "medium-laser", "turret": True}], technology=[{"id": "auto-turrets"}], crew=2)
    assert r.derived.table("weapons").rows[0][7] == "Dex+Piloting+0+10"
    _, r = build(weapons=[{"weapon": "medium-laser", "turret": True}], crew=2)
    assert r.derived.table("weapons").rows[0][7] == "Dex+Gunnery+0+10"


@pytest.mark.parametrize(("scale", "crew"), [("starfighter", 1), ("starship", 10), ("starship+1", 50)])
def test_a_new_design_starts_at_the_crew_its_scale_needs(scale: str, crew: int) -> None:
    """A starfighter carries its pilot; a starship starts at Structure x 1, x5 a scale step up."""
    from shipyard.core.evaluate import evaluate

    from .conftest import sfa

    catalog = sfa()
    design = catalog.module.resolve(catalog.module.new_design(scale, "Fresh", catalog), catalog)
    assert (design.structure, design.crew) == (10, crew)
    assert not {"crew-below-minimum", "crew-above-maximum"} & set(evaluate(design, catalog).codes())
