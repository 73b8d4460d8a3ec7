"""Design edits as data: the editor's only way to change a design."""

from __future__ import annotations

import pytest

from shipyard.core.edits import get_at, insert_at, parse_path, remove_at, set_at
from shipyard.core.errors import InputError
from shipyard.core.evaluate import evaluate

from .conftest import sample


def test_paths_match_finding_paths() -> None:
    assert parse_path("weapons[1].count") == ["weapons", 1, "count"]
    assert parse_path("budgets.power-points") == ["budgets", "power-points"]


def test_set_insert_remove_change_the_budget() -> None:
    ld = sample("rebel-fighter")
    d = set_at(ld.design, "structure", 10, ld.catalog)
    assert d.structure == 10 and ld.design.structure == 15
    assert evaluate(d, ld.catalog).pool("freebies").remaining == 8  # -2 + the 10 no longer spent
    d = insert_at(d, "weapons", {"weapon": "Heavy Laser"}, ld.catalog)
    assert d.weapons[-1].weapon == "heavy-laser"  # names resolve through the catalog
    d = set_at(d, "weapons[2].count", 2, ld.catalog)
    assert get_at(d, "weapons[2].count") == 2
    d = remove_at(d, "weapons", 0, ld.catalog)
    assert [w.weapon for w in d.weapons] == ["missile", "heavy-laser"]
    d = set_at(d, "budgets.power-points", 7, ld.catalog)
    assert evaluate(d, ld.catalog).pool("power-points").budget == 7
    d = set_at(d, "budgets.power-points", None, ld.catalog)
    assert d.budgets == {}


@pytest.mark.parametrize(
    ("path", "value", "says"),
    [
        ("crew", -1, "greater than or equal to 0"),
        ("weapons[0].weapon", "Light Lazer", "did you mean"),
        ("weapons[9].count", 1, "no such place"),
        ("scale", "battlestar", "not a scale"),
    ],
)
def test_bad_edits_are_refused_with_the_path(path: str, value: object, says: str) -> None:
    ld = sample("rebel-fighter")
    with pytest.raises(InputError) as exc:
        set_at(ld.design, path, value, ld.catalog)
    assert says in str(exc.value)


# --- a rename carries what holds the renamed thing by name (issue 46) --------------------------


def test_renaming_a_crewed_turret_moves_its_gunner_with_it() -> None:
    from shipyard.core.designfile import load_design

    from .conftest import ROOT

    ld = load_design(ROOT / "catalogs" / "cluster-falk" / "examples" / "dominion-carrier.ship")
    turret = next(i for i, t in enumerate(ld.design.turrets) if t.name == "Turret 1")
    gunner = next(i for i, c in enumerate(ld.design.crew) if c.station == "Turret 1")
    d = set_at(ld.design, f"turrets[{turret}].name", "Port battery", ld.catalog)
    assert d.turrets[turret].name == "Port battery" and d.crew[gunner].station == "Port battery"
    others = [c.station for i, c in enumerate(d.crew) if i != gunner]
    assert others == [c.station for i, c in enumerate(ld.design.crew) if i != gunner]  # nobody else moved


def test_renaming_a_system_rewrites_its_weapons_targets_and_augmented_ap() -> None:
    from shipyard.core.designfile import load_design

    from .conftest import ROOT

    ld = load_design(ROOT / "catalogs" / "future-perfect" / "examples" / "damaged-frigate.ship")
    design = ld.design
    battery = next(i for i, s in enumerate(design.systems) if s.name == "Forward battery")
    d = set_at(design, f"systems[{battery}].name", "Bow guns", ld.catalog)
    assert [w.system for w in d.weapons] == [
        "Bow guns" if w.system == "Forward battery" else w.system for w in design.weapons
    ]
    assert [a.target for a in d.plan.actions] == [
        "Bow guns" if a.target == "Forward battery" else a.target for a in design.plan.actions
    ]
    engineering = next(i for i, s in enumerate(design.systems) if s.name == "Engineering")
    d = set_at(d, f"systems[{engineering}].name", "Power plant", ld.catalog)
    assert d.plan.augmented == {"Power plant": 1}  # a map keyed by the name: its key follows
    lasers = next(i for i, w in enumerate(design.weapons) if w.name == "Twin lasers")
    d = set_at(d, f"weapons[{lasers}].name", "Pulse lasers", ld.catalog)
    assert "Pulse lasers" in [a.target for a in d.plan.actions] and "Twin lasers" not in [
        a.target for a in d.plan.actions
    ]


def test_a_refused_rename_changes_nothing_and_says_why_in_a_players_words() -> None:
    from shipyard.core.designfile import load_design
    from shipyard.core.places import refusal_text

    from .conftest import ROOT

    ld = load_design(ROOT / "catalogs" / "cluster-falk" / "examples" / "dominion-carrier.ship")
    gunner = next(i for i, c in enumerate(ld.design.crew) if c.station == "Turret 1")
    with pytest.raises(InputError) as info:
        set_at(ld.design, f"crew[{gunner}].name", None, ld.catalog)
    said = refusal_text(info.value.problems, ld.catalog, ld.design.model_dump(mode="json"))
    assert said == f"Crew, {ld.design.crew[gunner].name}: name cannot be left empty"
    assert "crew[" not in said and "Field required" not in said
