"""Future Perfect: every rule of the reading (docs/rules-future-perfect.md) with the text's numbers.

Each test builds a ship record (a legal frigate, changed where the test says), evaluates
it and checks what a GM sees: the findings with their numbers and paths, the figures, the
tracks and the priced plan.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from shipyard.core.catalog import load_catalog
from shipyard.core.designfile import load_design
from shipyard.core.edits import get_at, set_at
from shipyard.core.errors import InputError
from shipyard.core.evaluate import evaluate
from shipyard.core.model import Catalog
from shipyard.core.report import Report
from shipyard.rulesets.future_perfect import Design

ROOT = Path(__file__).resolve().parents[1]
FP_EXAMPLES = ROOT / "catalogs" / "future-perfect" / "examples"
FP_SAMPLES = ["scout", "frigate", "cruiser", "damaged-frigate"]


def fp(preset: str = "as-written", folders: tuple[Path, ...] = ()) -> Catalog:
    return load_catalog("future-perfect", folders, preset=preset, use_user_folder=False)


BASE: dict[str, Any] = {
    "name": "Test frigate",
    "class": "Vigil-class frigate",
    "ap": 12,
    "power_rating": 3,
    "power_bank": 2,
    "size": 2,
    "speed": 3,
    "systems": [
        {"name": "Bridge", "kind": "command"},
        {"name": "Engines", "kind": "helm"},
        {"name": "Forward battery", "kind": "weapon"},
        {"name": "Torpedo bay", "kind": "weapon"},
        {"name": "Deflectors", "kind": "shield", "shield": 4},
        {"name": "Engineering", "kind": "engineering"},
    ],
    "weapons": [
        {"name": "Twin lasers", "system": "Forward battery", "grade": "primary"},
        {"name": "Torpedo launcher", "system": "Torpedo bay", "grade": "secondary"},
    ],
    "crew": [
        {"name": "Obi", "role": "command", "skill": "Tactics", "rating": 4},
        {"name": "Halvard", "role": "helm", "skill": "Piloting", "rating": 3, "acuity": 4},
        {"name": "Sato", "role": "tactical", "skill": "Weapons", "rating": 3},
        {"name": "Ferrante", "role": "engineering", "skill": "Engineering", "rating": 3},
    ],
}


def ship(catalog: Catalog | None = None, **changes: Any) -> Design:
    data = copy.deepcopy(BASE)
    data.update(changes)
    catalog = catalog or fp()
    return catalog.module.resolve(Design.model_validate(data), catalog)  # type: ignore[no-any-return]


def check(catalog: Catalog | None = None, **changes: Any) -> Report:
    catalog = catalog or fp()
    return evaluate(ship(catalog, **changes), catalog)


def plan(*actions: dict[str, Any], initiative: int = 0, **allocations: Any) -> dict[str, Any]:
    return {"initiative": initiative, **allocations, "actions": list(actions)}


def act(role: str, action: str, target: str | None = None, power: int = 0) -> dict[str, Any]:
    a: dict[str, Any] = {"role": role, "action": action, "power": power}
    if target is not None:
        a["target"] = target
    return a


def codes(report: Report, severity: str = "error") -> list[str]:
    return [f.code for f in report.findings if f.severity == severity]


def finding(report: Report, code: str) -> Any:
    hits = [f for f in report.findings if f.code == code]
    assert hits, f"no {code!r} finding; got {report.codes()}"
    return hits[0]


def fig(report: Report, fig_id: str) -> Any:
    f = report.derived.figure(fig_id)
    assert f is not None, fig_id
    return f.value


def rows(report: Report, table_id: str) -> list[list[Any]]:
    t = report.derived.table(table_id)
    assert t is not None, table_id
    return t.rows


def test_the_base_ship_passes_with_nothing_to_say() -> None:
    report = check()
    assert report.valid and report.findings == []


# --- the AP cost tables ------------------------------------------------------------------------

# (role, action, target, AP) as the three AP Costs tables print them, each bought alone; Careful
# shot ("+1 AP") and Target a specific system ("4 AP") are bought on top of a fire action, below.
AP_COSTS = [
    ("helm", "move-1", None, 2),
    ("helm", "move-2", None, 3),
    ("helm", "jump-to-warp", None, 6),
    ("helm", "evasive-maneuvers", None, 1),
    ("tactical", "fire-primary", "Twin lasers", 1),
    ("tactical", "fire-secondary", "Torpedo launcher", 2),
    ("tactical", "modulate-shield", "Deflectors", 2),
    ("engineering", "restore-power", None, 2),
    ("engineering", "repair-system", "Forward battery", 4),
    ("engineering", "augment-system", "Engines", 4),
]


@pytest.mark.parametrize(("role", "action", "target", "ap"), AP_COSTS, ids=[f"{a[1]}-{a[2]}" for a in AP_COSTS])
def test_each_action_costs_what_its_table_prints(role: str, action: str, target: str | None, ap: int) -> None:
    changes: dict[str, Any] = {}
    if action == "repair-system":  # something to repair
        systems = copy.deepcopy(BASE["systems"])
        systems[2]["ephemeral_damage"] = 1
        changes["systems"] = systems
    exact = check(plan=plan(act(role, action, target), **{role: ap}), **changes)
    assert exact.valid, exact.findings
    assert fig(exact, f"ap_left.{role}") == 0
    assert [r[3] for r in rows(exact, "plan_actions")] == [ap]
    short = check(plan=plan(act(role, action, target), **{role: ap - 1}), **changes)
    f = finding(short, "role-over-allocation")
    assert (f.actual, f.limit, f.path) == (ap, ap - 1, f"plan.{role}")


@pytest.mark.parametrize(
    ("shot", "weapon", "extra", "total"),
    [
        ("fire-primary", "Twin lasers", "careful-shot", 1 + 1),
        ("fire-secondary", "Torpedo launcher", "careful-shot", 2 + 1),
        ("fire-primary", "Twin lasers", "target-system", 1 + 4),
        ("fire-secondary", "Torpedo launcher", "target-system", 2 + 4),
    ],
)
def test_an_extra_adds_its_ap_to_the_fire_action(shot: str, weapon: str, extra: str, total: int) -> None:
    # the reading: "Careful shot and Target a specific system are added to a fire action (the
    # total is the fire cost plus theirs)"
    both = [act("tactical", shot, weapon), act("tactical", extra, weapon)]
    exact = check(plan=plan(*both, tactical=total))
    assert exact.valid, exact.findings
    fire = 1 if shot == "fire-primary" else 2
    assert [r[3] for r in rows(exact, "plan_actions")] == [fire, total - fire]
    over = check(plan=plan(*both, tactical=total - 1))
    assert finding(over, "role-over-allocation").actual == total


def test_targeting_a_system_needs_the_fire_action_it_is_added_to() -> None:
    # bought alone it has no shot to add to
    alone = check(plan=plan(act("tactical", "target-system", "Torpedo launcher"), tactical=4))
    f = finding(alone, "extra-without-fire")
    assert (f.path, f.actual) == ("plan.actions[0]", "Torpedo launcher")
    assert "Target a specific system is added to a shot" in f.message
    # a careful shot aimed at a system: fire 1 + target 4 + careful 1
    all_three = [
        act("tactical", "fire-primary", "Twin lasers"),
        act("tactical", "target-system", "Twin lasers"),
        act("tactical", "careful-shot", "Twin lasers"),
    ]
    exact = check(plan=plan(*all_three, tactical=6))
    assert exact.valid, exact.findings
    # one point of power between the shot and both its extras
    paid = [act("tactical", "fire-primary", "Twin lasers"), act("tactical", "target-system", "Twin lasers", power=1)]
    assert check(plan=plan(*paid, tactical=4)).valid
    twice = [paid[0] | {"power": 1}, paid[1]]
    assert finding(check(plan=plan(*twice, tactical=3)), "power-over-one-per-action").actual == 2
    # targeted twice in one shot
    again = [all_three[0], all_three[1], all_three[1]]
    assert "extra-twice" in codes(check(plan=plan(*again, tactical=9)))


def test_an_extra_needs_a_fire_action_at_that_weapon_and_is_bought_once() -> None:
    alone = check(plan=plan(act("tactical", "careful-shot", "Twin lasers"), tactical=1))
    f = finding(alone, "extra-without-fire")
    assert f.path == "plan.actions[0]" and f.actual == "Twin lasers"
    twice = [act("tactical", "fire-primary", "Twin lasers")] + [act("tactical", "careful-shot", "Twin lasers")] * 2
    assert "extra-twice" in codes(check(plan=plan(*twice, tactical=3)))


def test_helm_may_buy_the_same_action_several_times() -> None:
    report = check(plan=plan(act("helm", "move-1"), act("helm", "move-1"), act("helm", "move-2"), helm=7))
    assert report.valid and fig(report, "ap_left.helm") == 0


# --- the power rule: "Up to 1 point of the cost of any action may be paid from the ship's power pool"


@pytest.mark.parametrize(("power", "from_allocation"), [(0, 2), (1, 1)])
def test_power_pays_up_to_one_point_of_an_action(power: int, from_allocation: int) -> None:
    report = check(plan=plan(act("helm", "move-1", power=power), helm=from_allocation))
    assert report.valid, report.findings
    assert rows(report, "plan_actions")[0][4:] == [power, 0, from_allocation]
    assert fig(report, "power_used") == power
    assert fig(report, "ap_left.helm") == 0


def test_two_points_of_power_on_one_action_is_an_error() -> None:
    report = check(plan=plan(act("helm", "move-1", power=2), helm=2))
    f = finding(report, "power-over-one-per-action")
    assert (f.actual, f.limit, f.path, f.severity) == (2, 1, "plan.actions[0].power", "error")
    assert "Starship APs and Power" in f.source


def test_a_fire_action_and_its_extra_are_one_action_for_the_power_rule() -> None:
    shot = [act("tactical", "fire-primary", "Twin lasers", 1), act("tactical", "careful-shot", "Twin lasers", 1)]
    f = finding(check(plan=plan(*shot, tactical=0)), "power-over-one-per-action")
    assert (f.actual, f.limit, f.path) == (2, 1, "plan.actions[1].power")
    one = [act("tactical", "fire-primary", "Twin lasers"), act("tactical", "careful-shot", "Twin lasers", 1)]
    assert check(plan=plan(*one, tactical=1)).valid


def house(tmp_path: Path, preset: str, rule: str, changes: str) -> Catalog:
    """The catalog with a house-rule preset (a user catalog folder) changing one rule."""
    folder = tmp_path / "future-perfect" / "presets"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{preset}.yaml").write_text(
        f"preset:\n  id: {preset}\n  name: {preset}\n  source: Procedure\n"
        f"  overrides:\n    rules:\n      {rule}: {changes}\n",
        encoding="utf-8",
    )
    return fp(preset, (tmp_path,))


def test_power_comes_from_the_bank_and_this_rounds_generation(tmp_path: Path) -> None:
    # bank 0 + Power rating 1 generated this round = 1 power to pay with
    two = plan(act("helm", "move-1", power=1), act("helm", "move-2", power=1), helm=3)
    report = check(plan=two, power_bank=0, power_rating=1)
    assert fig(report, "power_available") == 1
    f = finding(report, "power-over-bank")
    assert (f.actual, f.limit, f.path) == (2, 1, "plan.actions[1].power")
    assert check(plan=two, power_bank=1, power_rating=1).valid
    # a house rule: the round's power is generated after the plan pays
    later = house(tmp_path, "later", "power-bank", "{generated_before_plan: false}")
    report = check(later, plan=two, power_bank=1, power_rating=1)
    assert fig(report, "power_available") == 1 and "power-over-bank" in report.codes()
    assert fig(check(later, power_bank=1, power_rating=1), "power_available") == 1


def test_the_bank_holds_twice_the_power_rating_unless_the_record_says() -> None:
    assert fig(check(), "bank_capacity") == 6
    f = finding(check(power_bank=7), "power-bank-over-capacity")
    assert (f.actual, f.limit, f.path) == (7, 6, "power_bank")
    assert check(power_bank=7, bank_capacity=10).valid
    # this round's generation never lifts the bank above its capacity
    assert fig(check(power_bank=5), "power_available") == 6


# --- the bid and the allocations -------------------------------------------------------------------


def test_allocations_may_not_exceed_the_ap_left_after_the_bid() -> None:
    over = check(plan=plan(initiative=2, helm=4, tactical=4, engineering=3))
    f = finding(over, "plan-over-budget")
    assert (f.actual, f.limit, f.path) == (11, 10, "plan")
    assert "AP 12 - 2 bid" in f.message
    exact = check(plan=plan(initiative=2, helm=4, tactical=3, engineering=3))
    assert "plan-over-budget" not in exact.codes()
    assert (fig(exact, "ap_available"), fig(exact, "ap_allocated"), fig(exact, "ap_unallocated")) == (10, 10, 0)


def test_under_the_bid_kept_preset_the_bid_is_not_spent() -> None:
    report = check(fp("bid-kept"), plan=plan(initiative=2, helm=4, tactical=4, engineering=4))
    assert "plan-over-budget" not in report.codes()
    assert fig(report, "ap_available") == 12


def test_a_bid_above_the_ships_ap_is_an_error() -> None:
    f = finding(check(plan=plan(initiative=13)), "initiative-over-ap")
    assert (f.actual, f.limit, f.path) == (13, 12, "plan.initiative")


def test_unspent_and_unallocated_ap_are_advice() -> None:
    report = check(plan=plan(act("helm", "evasive-maneuvers"), initiative=1, helm=3))
    assert report.valid
    assert finding(report, "ap-unspent").actual == 2
    assert finding(report, "ap-unallocated").actual == 8


def test_augmented_ap_pay_for_actions_of_their_system_first() -> None:
    # 1 AP from last round's Augment of the engines: Move 1 range band (2 AP) needs 1 from Helm
    report = check(plan={**plan(act("helm", "move-1"), helm=1), "augmented": {"Engines": 1}})
    assert report.valid, report.findings
    assert rows(report, "plan_actions")[0][3:] == [2, 0, 1, 1]
    # augmented AP of another system do not pay for the helm
    other = check(plan={**plan(act("helm", "move-1"), helm=1), "augmented": {"Deflectors": 1}})
    assert finding(other, "role-over-allocation").actual == 2
    assert finding(other, "augmented-unused").actual == 1
    unknown = check(plan={**plan(), "augmented": {"Engnes": 1}})
    f = finding(unknown, "augmented-system-unknown")
    assert f.path == "plan.augmented.Engnes" and "did you mean 'Engines'" in f.message


def test_augmented_ap_are_available_for_allocation_to_their_system() -> None:
    # "AP available for allocation = the ship's AP - the initiative bid, plus, for the system it
    # was given to, each AP from an Augment last round"
    augmented = {"augmented": {"Engines": 1}}
    helm = [act("helm", "move-2"), act("helm", "evasive-maneuvers")]  # 4 AP, on the Engines
    exact = check(plan=plan(*helm, initiative=2, helm=4, tactical=3, engineering=4) | augmented)
    assert "plan-over-budget" not in exact.codes() and "augmented-used-elsewhere" not in exact.codes()
    available = next(f for f in exact.derived.figures if f.id == "ap_available")
    assert (available.value, available.detail) == (11, "AP 12 - 2 bid + 1 augmented (Engines)")
    assert (fig(exact, "ap_allocated"), fig(exact, "ap_unallocated"), fig(exact, "ap_left.helm")) == (11, 0, 0)
    # allocated, it no longer pays for the Engines' actions a second time
    assert [r[5] for r in rows(exact, "plan_actions")] == [0, 0]
    over = finding(
        check(plan=plan(*helm, initiative=2, helm=4, tactical=4, engineering=4) | augmented), "plan-over-budget"
    )
    assert (over.actual, over.limit) == (12, 11)
    assert "11 available (AP 12 - 2 bid + 1 augmented (Engines))" in over.message
    # the augmented AP pay for the Engines' actions only: 11 AP of other actions is one too many
    tactical = [act("tactical", a, "Torpedo launcher") for a in ("fire-secondary", "target-system", "careful-shot")]
    engineering = [act("engineering", "restore-power")] * 2
    elsewhere = check(plan=plan(*tactical, *engineering, initiative=2, tactical=7, engineering=4) | augmented)
    f = finding(elsewhere, "augmented-used-elsewhere")
    assert (f.actual, f.limit, f.path, f.source) == (11, 10, "plan", "Future Perfect, Augment System")
    # 0 AP given to a system earmarks nothing: it neither adds to what is available nor lets
    # the other actions count as that system's
    zero = {"augmented": {"Engines": 1, "Torpedo bay": 0}}  # the system the 7 tactical AP fire
    with_zero = check(plan=plan(*tactical, *engineering, initiative=2, tactical=7, engineering=4) | zero)
    assert "augmented-used-elsewhere" in with_zero.codes()
    shown = next(f for f in with_zero.derived.figures if f.id == "ap_available")
    assert shown.detail == "AP 12 - 2 bid + 1 augmented (Engines)"
    # not allocated, they pay for the Engines' actions directly (the sample's damaged frigate)
    direct = check(plan=plan(act("helm", "move-1"), initiative=2, helm=1, tactical=4, engineering=5) | augmented)
    assert direct.valid, direct.findings
    assert (fig(direct, "ap_available"), fig(direct, "ap_unallocated")) == (11, 0)


# --- once a round --------------------------------------------------------------------------------------


def test_each_weapon_system_fires_once_a_round() -> None:
    twice = [act("tactical", "fire-primary", "Twin lasers")] * 2
    f = finding(check(plan=plan(*twice, tactical=2)), "weapon-fired-twice")
    assert (f.actual, f.limit, f.path) == (2, 1, "plan.actions[1]")
    assert f.message == (
        "Forward battery is fired twice (plan.actions[0] fires Twin lasers and [1] fires Twin lasers); "
        '"each weapon system may only be fired once"'
    )
    both = [act("tactical", "fire-primary", "Twin lasers"), act("tactical", "fire-secondary", "Torpedo launcher")]
    assert check(plan=plan(*both, tactical=3)).valid


BATTERY = ["Laser A", "Laser B", "Laser C"]


@pytest.mark.parametrize("carried", [1, 2, 3])
def test_one_weapon_system_fires_once_whatever_number_of_weapons_it_carries(carried: int) -> None:
    """ "each weapon system may only be fired once": the Forward battery carrying one, two and
    three primary weapons fires one of them a round; each further one fired is an error."""
    weapons = [{"name": n, "system": "Forward battery", "grade": "primary"} for n in BATTERY[:carried]]
    weapons.append({"name": "Torpedo launcher", "system": "Torpedo bay", "grade": "secondary"})
    one = check(weapons=weapons, plan=plan(act("tactical", "fire-primary", BATTERY[carried - 1]), tactical=1))
    assert one.valid, one.findings
    every = [act("tactical", "fire-primary", n) for n in BATTERY[:carried]]
    report = check(weapons=weapons, plan=plan(*every, tactical=carried))
    fired = [f for f in report.findings if f.code == "weapon-fired-twice"]
    assert [(f.path, f.actual, f.limit) for f in fired] == [(f"plan.actions[{i}]", 2, 1) for i in range(1, carried)]
    assert all(f.message.startswith("Forward battery is fired twice (plan.actions[0] fires Laser A") for f in fired)
    assert all("Offense: AP Costs" in f.source for f in fired)
    assert report.valid == (carried == 1)
    # the other weapon system still fires beside it
    beside = check(
        weapons=weapons, plan=plan(every[0], act("tactical", "fire-secondary", "Torpedo launcher"), tactical=3)
    )
    assert beside.valid, beside.findings


# --- who takes an action: "The tactical officer is responsible for weapons and defensive systems"

ONE_OF_EACH = [
    act("helm", "evasive-maneuvers"),
    act("tactical", "fire-primary", "Twin lasers"),
    act("engineering", "restore-power"),
]


@pytest.mark.parametrize(
    ("role", "row", "name", "quote"),
    [
        ("helm", 0, "Helm", "The helmsman is responsible for movement of the vessel."),
        ("tactical", 1, "Tactical", "The tactical officer is responsible for weapons and defensive systems."),
        (
            "engineering",
            2,
            "Engineering",
            "They may attempt to augment a single system, repair a system or provide power",
        ),
    ],
)
def test_a_planned_action_of_an_empty_role_is_an_error_on_its_row(role: str, row: int, name: str, quote: str) -> None:
    crew = [c for c in BASE["crew"] if c["role"] != role]
    report = check(crew=crew, plan=plan(*ONE_OF_EACH, helm=1, tactical=1, engineering=2))
    errors = [f for f in report.findings if f.severity == "error"]
    assert [(f.code, f.path, f.actual, f.limit) for f in errors] == [("action-unstaffed", f"plan.actions[{row}]", 0, 1)]
    assert f"no one in {name}" in errors[0].message and quote in errors[0].message
    assert errors[0].source == f"Future Perfect, Starship Roles: {name}"
    # the same reason the report's action list gives for refusing it
    refused = {a.id: a.reason for a in report.derived.actions if not a.allowed}
    assert refused[ONE_OF_EACH[row]["action"]] == f"no one in {name}"
    assert finding(report, "role-unfilled").severity == "warning"  # the role itself stays a warning
    # the other two roles' rows pass
    assert not [
        f for f in report.findings if f.path in {f"plan.actions[{i}]" for i in range(3)} - {f"plan.actions[{row}]"}
    ]


def test_a_plan_without_a_commander_has_the_commands_error_and_no_row_error() -> None:
    crew = [c for c in BASE["crew"] if c["role"] != "command"]
    report = check(crew=crew, plan=plan(*ONE_OF_EACH, helm=1, tactical=1, engineering=2))
    errors = [(f.code, f.path) for f in report.findings if f.severity == "error"]
    assert errors == [("role-unfilled", "crew")]
    assert all(a.allowed for a in report.derived.actions if a.id in {a["action"] for a in ONE_OF_EACH})


def _disabled_bay_no_engineering() -> dict[str, Any]:
    systems = copy.deepcopy(BASE["systems"])
    systems[3].update(core_damage=3, ephemeral_damage=3)  # the torpedo bay disabled: every box ticked
    return {"systems": [s for s in systems if s["kind"] != "engineering"]}


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"crew": [c for c in BASE["crew"] if c["role"] == "command"]}, 12),  # no one in any allocated role
        (_disabled_bay_no_engineering(), 4),  # Fire secondary, and the three Engineering actions
    ],
    ids=["no-one-in-the-roles", "disabled-bay-no-engineering"],
)
def test_every_action_the_report_refuses_is_an_error_on_its_plan_row(changes: dict[str, Any], expected: int) -> None:
    refused = {a.id: a.reason for a in check(**changes).derived.actions if not a.allowed}
    assert len(refused) == expected, refused
    targets = {"fire-primary": "Twin lasers", "fire-secondary": "Torpedo launcher", "careful-shot": "Twin lasers",
               "target-system": "Twin lasers", "modulate-shield": "Deflectors", "repair-system": "Engines",
               "augment-system": "Engines"}  # fmt: skip
    catalog = fp()
    for action_id, reason in refused.items():
        role = catalog.item("actions", action_id).role
        bought = plan(act(role, action_id, targets.get(action_id)), **{role: 6})
        report = check(catalog, plan=bought, **changes)
        at_row = [f for f in report.findings if f.severity == "error" and f.path == "plan.actions[0]"]
        assert at_row, (action_id, reason, report.findings)
        if reason.startswith("no one in"):  # the row's error gives the list's own reason
            unstaffed = [f for f in at_row if f.code == "action-unstaffed"]
            assert len(unstaffed) == 1 and reason in unstaffed[0].message


def test_each_shield_is_modulated_once_a_round() -> None:
    twice = [act("tactical", "modulate-shield", "Deflectors")] * 2
    f = finding(check(plan=plan(*twice, tactical=4)), "shield-modulated-twice")
    assert (f.actual, f.limit, f.path) == (2, 1, "plan.actions[1]")


def test_any_number_of_augments_each_on_one_system() -> None:
    two = [act("engineering", "augment-system", "Engines"), act("engineering", "augment-system", "Deflectors")]
    assert check(plan=plan(*two, engineering=8)).valid


# --- targets, roles, disabled systems --------------------------------------------------------------------


def test_an_action_is_bought_by_its_own_role() -> None:
    f = finding(check(plan=plan(act("helm", "restore-power"), helm=2)), "action-wrong-role")
    assert (f.actual, f.limit, f.path) == ("helm", "engineering", "plan.actions[0].role")


def test_fire_primary_needs_a_primary_weapon() -> None:
    f = finding(
        check(plan=plan(act("tactical", "fire-primary", "Torpedo launcher"), tactical=1)), "action-target-wrong-grade"
    )
    assert (f.actual, f.limit) == ("secondary", "primary")


def test_an_unknown_target_says_what_it_might_be() -> None:
    report = check(plan=plan(act("tactical", "fire-primary", "Twin laser"), tactical=1))
    f = finding(report, "action-target-unknown")
    assert f.path == "plan.actions[0].target" and "did you mean 'Twin lasers'" in f.message
    assert finding(check(plan=plan(act("tactical", "modulate-shield"), tactical=2)), "action-target-missing")
    f = finding(check(plan=plan(act("tactical", "modulate-shield", "Engines"), tactical=2)), "action-target-wrong-kind")
    assert (f.actual, f.limit) == ("helm", "shield")


def test_an_unknown_action_id_is_refused_with_a_suggestion() -> None:
    with pytest.raises(InputError) as exc:
        ship(plan=plan(act("helm", "evasive-manuevers"), helm=1))
    (problem,) = exc.value.problems
    assert problem.path == "plan.actions[0].action"
    assert "unknown action 'evasive-manuevers'; did you mean 'evasive-maneuvers'" in problem.message
    # names and aliases of the tables resolve to their ids
    named = ship(plan=plan(act("helm", "Evasive maneuvers"), act("tactical", "Fire primary", "Twin lasers")))
    assert [a.action for a in named.plan.actions] == ["evasive-maneuvers", "fire-primary"]


def _damaged(index: int, core: int, ephemeral: int) -> list[dict[str, Any]]:
    systems = copy.deepcopy(BASE["systems"])
    systems[index].update(core_damage=core, ephemeral_damage=ephemeral)
    return systems


def test_a_system_is_disabled_when_all_its_boxes_are_ticked() -> None:
    fire = plan(act("tactical", "fire-secondary", "Torpedo launcher"), tactical=2)
    assert check(systems=_damaged(3, 3, 2), plan=fire).valid
    report = check(systems=_damaged(3, 3, 3), plan=fire)
    f = finding(report, "disabled-system-used")
    assert f.path == "plan.actions[0]" and "Torpedo bay" in f.message
    assert rows(report, "systems")[3][5] == "disabled"
    fire_secondary = report.derived.action("fire-secondary")
    assert fire_secondary is not None and not fire_secondary.allowed


def test_a_warp_jump_fails_with_the_engines_disabled() -> None:
    report = check(systems=_damaged(1, 3, 3), plan=plan(act("helm", "jump-to-warp"), helm=6))
    assert "disabled-system-used" in codes(report)
    # the rule is the Helm table's ("If the ship's engines are disabled before then, the action fails")
    assert finding(report, "disabled-system-used").source == "Future Perfect, Movement and Maneuver: AP Costs"
    fired = check(
        systems=_damaged(3, 3, 3), plan=plan(act("tactical", "fire-secondary", "Torpedo launcher"), tactical=2)
    )
    assert finding(fired, "disabled-system-used").source == "Future Perfect, Offense"
    restore = check(systems=_damaged(5, 3, 3), plan=plan(act("engineering", "restore-power"), engineering=2))
    assert finding(restore, "disabled-system-used").source == "Future Perfect, Starship Record Sheet"
    jump = report.derived.action("jump-to-warp")
    assert jump is not None and (jump.allowed, jump.reason) == (False, "Engines disabled")


def test_either_track_full_is_a_house_rule_a_preset_can_choose(tmp_path: Path) -> None:
    strict = house(tmp_path, "strict", "system-tracks", "{disabled_when: either-track-full}")
    assert rows(check(strict, systems=_damaged(3, 3, 0)), "systems")[3][5] == "disabled"
    assert rows(check(systems=_damaged(3, 3, 0)), "systems")[3][5] == "damaged"


def test_damage_beyond_a_tracks_levels_is_an_error() -> None:
    f = finding(check(systems=_damaged(2, 0, 4)), "damage-over-track")
    assert (f.actual, f.limit, f.path) == (4, 3, "systems[2].ephemeral_damage")
    systems = _damaged(2, 0, 4)
    systems[2]["ephemeral_levels"] = 5
    assert check(systems=systems).valid


# --- target numbers --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("evasive", "tn"), [(0, 5), (1, 4), (2, 3), (3, 2)])
def test_defense_tn_5_falls_by_one_per_evasive_maneuver(evasive: int, tn: int) -> None:
    report = check(plan=plan(*[act("helm", "evasive-maneuvers")] * evasive, helm=evasive))
    assert fig(report, "defense_tn") == tn
    assert "evasive-wasted" not in report.codes()


def test_defense_tn_stops_at_2_and_further_evasion_is_wasted() -> None:
    report = check(plan=plan(*[act("helm", "evasive-maneuvers")] * 5, helm=5))
    assert fig(report, "defense_tn") == 2
    f = finding(report, "evasive-wasted")
    assert (f.severity, f.actual, f.limit, f.path) == ("warning", 5, 3, "plan.actions[3]")


def test_without_a_plan_the_defense_tn_is_the_texts_5() -> None:
    assert fig(check(), "defense_tn") == 5


def test_repair_tn_is_3_plus_2_per_damage_level() -> None:
    report = check(systems=_damaged(2, 1, 2))
    assert rows(report, "repair_tn") == [[1, 5], [2, 7], [3, 9]]
    assert rows(report, "systems")[2][6] == "7"  # its ephemeral damage level 2 (core damage cannot be repaired)
    systems = copy.deepcopy(BASE["systems"])
    systems[0]["ephemeral_levels"] = 5
    assert rows(check(systems=systems), "repair_tn")[-1] == [5, 13]


def test_repairing_a_system_without_ephemeral_damage_repairs_nothing() -> None:
    report = check(
        systems=_damaged(2, 2, 0), plan=plan(act("engineering", "repair-system", "Forward battery"), engineering=4)
    )
    f = finding(report, "repair-nothing-to-repair")
    assert f.severity == "warning" and "only core damage" in f.message


def test_the_other_target_numbers() -> None:
    report = check()
    assert (fig(report, "restore_power_tn"), fig(report, "augment_tn")) == (5, 5)
    assert fig(report, "modulation_tn.deflectors") == 4  # the Deflectors' Shield value
    # the reading: "TN = the shield's value", whatever the value
    for shield in (1, 0):
        systems = copy.deepcopy(BASE["systems"])
        systems[4]["shield"] = shield
        assert fig(check(systems=systems), "modulation_tn.deflectors") == shield
    assert fig(report, "base_defense_successes") == 2  # Size 2: each 2 successes add 1
    assert rows(report, "base_defense")[:3] == [[2, "+1"], [4, "+2"], [6, "+3"]]


# --- the crew in the four roles ----------------------------------------------------------------------------


def _crew(*roles: str) -> list[dict[str, Any]]:
    return [{"name": f"{r.capitalize()} {i}", "role": r, "rating": 2} for i, r in enumerate(roles)]


def test_command_is_always_a_single_character() -> None:
    two = check(crew=_crew("command", "command", "helm", "tactical", "engineering"))
    f = finding(two, "role-over-limit")
    assert (f.severity, f.actual, f.limit, f.path) == ("error", 2, 1, "crew[1].role")
    none = check(crew=_crew("helm", "tactical", "engineering"))
    f = finding(none, "role-unfilled")
    assert (f.severity, f.actual, f.limit) == ("error", 0, 1)
    assert "Command needs exactly one character" in f.message


def test_a_role_with_no_one_is_a_warning_and_others_take_any_number() -> None:
    report = check(crew=_crew("command", "helm", "helm", "tactical", "tactical", "tactical"))
    assert report.valid
    f = finding(report, "role-unfilled")
    assert f.severity == "warning" and "Engineering" in f.message


def test_the_helmsmans_acuity_breaks_initiative_ties() -> None:
    report = check(plan=plan(initiative=3))
    assert fig(report, "initiative_ties") == (
        "APs bid 3, then Speed 3, then Acuity 4, then an opposed draw (impulse value)"
    )
    crew = copy.deepcopy(BASE["crew"])
    del crew[1]["acuity"]
    without = check(crew=crew)
    assert finding(without, "helmsman-acuity-missing").severity == "advice"
    assert fig(without, "initiative_ties") == (
        "APs bid, then Speed 3, then the helmsman's Acuity, then an opposed draw (impulse value)"
    )


def test_a_skill_the_role_does_not_roll_is_advice() -> None:
    crew = copy.deepcopy(BASE["crew"])
    crew[1]["skill"] = "Gunnery"
    f = finding(check(crew=crew), "crew-skill-not-the-roles")
    assert f.severity == "advice" and f.path == "crew[1].skill" and f.limit == ["Piloting"]


# --- the record's values, shields and weapons ------------------------------------------------------------------


def test_ap_and_size_below_what_the_rules_need_are_errors() -> None:
    report = check(ap=0, size=0)
    found = {f.path: (f.code, f.actual) for f in report.findings if f.code == "stat-out-of-range"}
    assert found == {"ap": ("stat-out-of-range", 0), "size": ("stat-out-of-range", 0)}


def test_a_shield_system_has_a_shield_value() -> None:
    systems = copy.deepcopy(BASE["systems"])
    del systems[4]["shield"]
    f = finding(check(systems=systems), "shield-value-missing")
    assert f.path == "systems[4].shield"


def test_a_weapon_belongs_to_a_weapon_system_of_the_ship() -> None:
    weapons = copy.deepcopy(BASE["weapons"])
    weapons[0]["system"] = "Forward batery"
    f = finding(check(weapons=weapons), "weapon-system-unknown")
    assert f.path == "weapons[0].system" and "did you mean 'Forward battery'" in f.message
    weapons[0]["system"] = "Engines"
    assert finding(check(weapons=weapons), "weapon-system-not-weapon").actual == "helm"


def test_names_the_plan_uses_are_unique() -> None:
    systems = [*copy.deepcopy(BASE["systems"]), {"name": "engines", "kind": "helm"}]
    assert finding(check(systems=systems), "duplicate-system-name").path == "systems[6].name"


# --- the report's parts ---------------------------------------------------------------------------------


def test_tracks_tick_the_damage_taken_and_the_power_stored() -> None:
    report = check(systems=_damaged(1, 1, 2), power_bank=4)
    bank = report.derived.track("power.bank")
    assert bank is not None and [b.marked for b in bank.boxes] == [True] * 4 + [False] * 2
    core, eph = report.derived.track("systems.1.core"), report.derived.track("systems.1.ephemeral")
    assert core is not None and eph is not None
    assert (core.name, [b.marked for b in core.boxes]) == ("Engines: core", [True, False, False])
    assert (eph.path, [b.marked for b in eph.boxes]) == ("systems[1].ephemeral_damage", [True, True, False])


def test_the_priced_plan_per_role_and_the_power_used_with_its_parts() -> None:
    report = evaluate(
        *(lambda d: (d.design, d.catalog))(load_design(FP_EXAMPLES / "damaged-frigate.ship", use_user_folder=False))
    )
    assert rows(report, "plan") == [
        ["Helm", 3, 4, 1, 0, 3, 0],
        ["Tactical", 3, 4, 1, 0, 3, 0],
        ["Engineering", 4, 6, 1, 1, 4, 0],
    ]
    power = report.derived.figure("power_used")
    assert power is not None and power.value == 3
    assert [(p.label, p.path) for p in power.parts] == [
        ("Move 1 range band", "plan.actions[2].power"),
        ("Careful shot (Twin lasers)", "plan.actions[4].power"),
        ("Repair system (Forward battery)", "plan.actions[6].power"),
    ]
    assert (fig(report, "power_available"), fig(report, "power_left"), fig(report, "defense_tn")) == (4, 1, 3)


def test_every_role_has_its_ap_cost_table() -> None:
    report = check()
    assert rows(report, "ap_costs.helm") == [
        ["Move 1 range band", 2, "orthogonally on the tactical map"],
        ["Move 2 range bands", 3, "orthogonally on the tactical map"],
        ["Jump to warp speed", 6, "takes place in the auxiliary step; fails if the engines are disabled before then"],
        ["Evasive maneuvers", 1, "starship defense TN -1, minimum 2"],
    ]
    assert [r[:2] for r in rows(report, "ap_costs.tactical")] == [
        ["Fire primary weapon system", 1],
        ["Fire secondary weapon system", 2],
        ["Careful shot", "+1"],
        ["Target a specific system", 4],
        ["Modulate shield", 2],
    ]
    assert [r[:2] for r in rows(report, "ap_costs.engineering")] == [
        ["Restore power", 2],
        ["Repair system", 4],
        ["Augment system", 4],
    ]


# The section headings of the text (004_4b745747579cf24b.txt); "AP Costs" appears three times
# and is cited after the section it sits in ("Offense: AP Costs").
HEADINGS = {
    "Starship Roles", "Command", "Helm", "Tactical", "Engineering", "Starship Record Sheet",
    "Starship APs and Power", "Procedure", "Initiative", "Movement and Maneuver", "AP Costs",
    "Map Correction", "Starship Defense", "Offense", "Modulating Shields", "Auxiliary",
    "Restore Power", "Repair System", "Augment System",
}  # fmt: skip


def test_every_catalog_entry_cites_a_section_of_the_text() -> None:
    catalog = fp()
    sources = [(f"{kind} {i.id}", i.source) for kind in catalog.items for i in catalog.kind(kind).values()]
    sources += [(f"rule {r.definition.id}", r.params.source) for r in catalog.rules]
    sources += [(f"stat {s.id}", s.source) for s in catalog.meta.stats]
    sources += [(f"preset {p.id}", p.source) for p in catalog.presets.values()]
    for what, source in sources:
        assert source and all(part in HEADINGS for part in source.split(": ")), (what, source)


# --- samples and new ships -----------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["as-written", "bid-kept"])
@pytest.mark.parametrize("name", FP_SAMPLES)
def test_every_sample_passes_its_checks(name: str, preset: str) -> None:
    loaded = load_design(FP_EXAMPLES / f"{name}.ship", preset=preset, use_user_folder=False)
    report = evaluate(loaded.design, loaded.catalog)
    assert report.valid, report.findings
    assert [f for f in report.findings if f.severity != "advice"] == []
    assert "Written for Shipyard" in loaded.design.notes


def test_the_damaged_sample_has_a_legal_plan_that_uses_power_and_a_disabled_system() -> None:
    loaded = load_design(FP_EXAMPLES / "damaged-frigate.ship", use_user_folder=False)
    report = evaluate(loaded.design, loaded.catalog)
    assert loaded.design.plan is not None and report.valid
    assert fig(report, "power_used") > 0
    assert "disabled" in [r[5] for r in rows(report, "systems")]


def test_a_new_ship_has_one_system_of_each_kind_and_asks_for_its_crew() -> None:
    catalog = fp()
    design = catalog.module.new_design("ship", "Venture", catalog)
    assert (design.name, design.ap, design.power_rating, design.size, design.speed) == ("Venture", 10, 2, 2, 2)
    assert [(s.kind, s.core_levels, s.ephemeral_levels) for s in design.systems] == [
        ("command", 3, 3),
        ("helm", 3, 3),
        ("weapon", 3, 3),
        ("shield", 3, 3),
        ("engineering", 3, 3),
        ("sensors", 3, 3),
    ]
    assert design.systems[3].shield == 5
    report = evaluate(design, catalog)
    assert codes(report) == ["role-unfilled"] and codes(report, "warning").count("role-unfilled") == 3


def test_the_catalogs_system_kinds_are_the_design_files_kinds() -> None:
    from typing import get_args

    from shipyard.rulesets.future_perfect.items import SystemKindId

    assert list(fp().kind("system_kinds")) == list(get_args(SystemKindId))


def test_everything_the_report_says_cites_a_section_of_the_text() -> None:
    """Figures, tables, tracks, actions and findings (of the samples and the findings corpus)."""
    files = [FP_EXAMPLES / f"{n}.ship" for n in FP_SAMPLES]
    files += sorted((Path(__file__).parent / "corpus" / "findings").glob("future-perfect-*.ship"))
    for file in files:
        loaded = load_design(file, use_user_folder=False)
        report = evaluate(loaded.design, loaded.catalog)
        d = report.derived
        parts: list[Any] = [*d.figures, *d.tables, *d.tracks, *d.actions, *report.findings]
        parts += [p for f in d.figures for p in f.parts]
        for part in parts:
            source = part.source
            assert source.startswith("Future Perfect, "), (file.name, part)
            sections = source.removeprefix("Future Perfect, ").split("; ")
            assert all(p in HEADINGS for s in sections for p in s.split(": ")), (file.name, source)


def test_the_rules_page_gives_each_samples_verdict_as_the_engine_does() -> None:
    from shipyard.samples_summary import embed, summary

    doc = (ROOT / "docs" / "rules-future-perfect.md").read_text(encoding="utf-8")
    assert embed(doc, summary("future-perfect")) == doc, "run shipyard.samples_summary's summary('future-perfect')"


@pytest.mark.parametrize("name", FP_SAMPLES)
def test_a_sample_saved_again_reads_back_the_same_ship(name: str, tmp_path: Path) -> None:
    from shipyard.core.designfile import save_design

    loaded = load_design(FP_EXAMPLES / f"{name}.ship", use_user_folder=False)
    save_design(loaded, tmp_path / "again.ship")
    saved = (tmp_path / "again.ship").read_text(encoding="utf-8")
    assert '"class": ' in saved and "class_" not in saved  # the field as the file spells it
    assert load_design(tmp_path / "again.ship", use_user_folder=False).design == loaded.design


# --- system names are keys of paths ------------------------------------------------------------


@pytest.mark.parametrize("name", ["Main.drive", "Bay [2]", "Bay 2]"])
def test_a_system_name_with_a_path_separator_is_refused_saying_what_is_allowed(name: str, tmp_path: Path) -> None:
    """A system's name keys the round plan's augmented AP: plan.augmented.<name> is where the
    editor edits them and where a finding points. A '.' or a bracket would split that place
    (plan.augmented.Main.drive names nothing), so such a name is refused when read."""
    data = copy.deepcopy(BASE)
    data["systems"][1]["name"] = name
    file = tmp_path / "odd.ship"
    file.write_text(json.dumps({"format_version": 2, "ruleset": "future-perfect", "design": data}), encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load_design(file, use_user_folder=False)
    (problem,) = exc.value.problems
    assert problem.path == "design.systems[1].name"
    assert "may not contain '.', '[' or ']'" in problem.message
    assert "letters, digits, spaces, dashes and other punctuation are allowed" in problem.message


def test_a_systems_augmented_ap_are_reachable_by_its_name_and_a_dotted_rename_is_refused() -> None:
    catalog = fp()
    design = ship(catalog, plan=plan(helm=2) | {"augmented": {"Engines": 1, "Forward battery": 2}})
    # the places the editor's map rows edit and the findings name
    assert get_at(design, "plan.augmented.Forward battery") == 2
    again = set_at(design, "plan.augmented.Engines", 3, catalog)
    assert again.plan.augmented == {"Engines": 3, "Forward battery": 2}
    renamed = set_at(design, "systems[1].name", "Main drive", catalog)  # the AP follow the renamed system
    assert renamed.plan.augmented == {"Main drive": 1, "Forward battery": 2}
    gone = set_at(design, "plan.augmented", {"Engines": 1, "Warp core": 2, "Forward battery": 2}, catalog)
    [unknown] = [f for f in evaluate(gone, catalog).findings if f.code == "augmented-system-unknown"]
    assert unknown.path == "plan.augmented.Warp core" and get_at(gone, unknown.path) == 2
    # renamed with a '.', or given AP under such a key: refused, the design unchanged
    for path, value in (("systems[1].name", "Engines.aft"), ("plan.augmented", {"Engines.aft": 1})):
        with pytest.raises(InputError) as exc:
            set_at(design, path, value, catalog)
        assert "may not contain '.', '[' or ']'" in str(exc.value)


# --- the three AP Costs tables as the text prints them -------------------------------------------

# Each row as printed ("Careful shot +1 AP", "Target a specific system 4 AP"), table by table.
PRINTED = {
    "Movement and Maneuver": [("Move 1 range band", "2"), ("Move 2 range bands", "3"),
                              ("Jump to warp speed", "6"), ("Evasive maneuvers", "1")],
    "Offense": [("Fire primary weapon system", "1"), ("Fire secondary weapon system", "2"),
                ("Careful shot", "+1"), ("Target a specific system", "4"), ("Modulate shield", "2")],
    "Auxiliary": [("Restore power", "2"), ("Repair system", "4"), ("Augment system", "4")],
}  # fmt: skip


def test_the_printed_tables_are_the_source_texts() -> None:
    from .source_texts import source_text

    text = source_text("004_4b745747579cf24b.txt")
    tables = re.split(r"^AP Costs$", text, flags=re.M)[1:]
    read = [re.findall(r"^(.+?)\*? (\+?\d+) AP$", t.split("\n\n")[0], flags=re.M) for t in tables]
    assert read == list(PRINTED.values())


@pytest.mark.parametrize("step", list(PRINTED))
def test_every_priced_action_costs_what_its_table_prints(step: str) -> None:
    """The catalog, the sheet's AP cost tables and the plan's pricing, row by row."""
    catalog = fp()
    role = {"Movement and Maneuver": "helm", "Offense": "tactical", "Auxiliary": "engineering"}[step]
    table = rows(check(), f"ap_costs.{role}")
    assert [(name, str(ap)) for name, ap, _ in table] == PRINTED[step]
    for name, printed in PRINTED[step]:
        action = next(a for a in catalog.kind("actions").values() if a.name == name)
        assert (action.ap, action.plus) == (int(printed), printed.startswith("+"))
        # the reading: Careful shot and Target a specific system are added to a fire action
        assert action.adds_to_fire == (name in ("Careful shot", "Target a specific system"))
        assert f"{step}: AP Costs" == action.source
        # the plan pays exactly that: alone, or for an extra on top of a 1 AP Fire primary
        target = {"weapon": "Twin lasers", "shield": "Deflectors", "system": "Engines"}.get(action.target)
        bought = [act(role, action.id, target)]
        if action.adds_to_fire:
            bought.insert(0, act(role, "fire-primary", target))
        report = check(plan=plan(*bought, **{role: 6}))
        assert [r[3] for r in rows(report, "plan_actions")][-1] == int(printed), name
        assert fig(report, f"ap_left.{role}") == 6 - int(printed) - (1 if action.adds_to_fire else 0)
