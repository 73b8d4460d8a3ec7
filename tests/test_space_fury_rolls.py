"""Space Fury random builds: seeded fighter rolls, pilot rolls and skirmishes.

A seed reproduces a build exactly; over many seeds every table entry comes up; what is
rolled always passes the rules it was rolled under.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from shipyard.core.errors import InputError
from shipyard.core.evaluate import evaluate
from shipyard.rulesets import space_fury as sf

from .test_space_fury import FURY, PRESETS, fury

SEEDS = range(300)


def test_a_seed_reproduces_a_fighter_exactly() -> None:
    catalog = fury()
    a = sf.roll_fighter(catalog, 7, 42)
    b = sf.roll_fighter(catalog, 7, 42)
    assert a == b and a.model_dump_json() == b.model_dump_json()
    assert a.root.seed == 42 and a.root.rolls
    assert any(sf.roll_fighter(catalog, 7, s) != a for s in range(43, 48))


def test_seed_42_with_five_enhancements() -> None:
    design = sf.roll_fighter(fury(), 5, 42)
    root = design.root
    assert isinstance(root, sf.FighterDesign)
    assert [(c.id, c.count) for c in root.enhancements] == [
        ("engines", 1),
        ("targeter", 1),
        ("extra-laser", 1),
        ("missile-rack", 4),
    ]
    assert [(r.table, r.roll, r.result) for r in root.rolls] == [
        ("primary", 2, "engines"),
        ("primary", 1, "targeter"),
        ("primary", 5, "extra-laser"),
        ("primary", 4, "missile-rack"),
        ("primary", 4, "missile-rack"),
    ]


@pytest.mark.parametrize("preset", PRESETS)
def test_a_rolled_fighter_has_the_enhancements_asked_for_and_passes(preset: str) -> None:
    catalog = fury(preset)
    for n in range(16):
        for seed in range(12):
            design = sf.roll_fighter(catalog, n, seed)
            report = evaluate(design, catalog)
            assert report.derived.figure("enhancements").value == n, (n, seed)
            assert report.derived.figure("cost").value == 20 + n * (n + 1) // 2
            assert report.valid and not [f for f in report.findings if f.severity != "advice"], (
                n,
                seed,
                report.findings,
            )


def test_over_many_seeds_every_table_entry_comes_up() -> None:
    catalog = fury()
    results: dict[str, set[int]] = {}
    items: Counter[str] = Counter()
    notes: Counter[str] = Counter()
    for seed in SEEDS:
        for entry in sf.roll_fighter(catalog, 10, seed).root.rolls:
            results.setdefault(entry.table, set()).add(entry.roll)
            items[entry.result] += 1
            notes[re.sub(r"\d+", "N", entry.note)] += 1
    assert results == {t: set(range(1, 11)) for t in ("primary", "special-weapon", "special-system")}
    assert set(catalog.kind("enhancements")) <= set(items)
    assert notes["pick N result: unattended, rolled again"] > 0
    assert notes["costs N, N left: rolled again"] > 0


def test_a_pick_takes_the_next_choice_on_a_ten() -> None:
    catalog = fury()
    seed = next(s for s in SEEDS if sf.roll_fighter(catalog, 1, s).root.rolls[0].roll == 10)
    picked = sf.roll_fighter(catalog, 1, seed, picks=["Armor"]).root
    assert isinstance(picked, sf.FighterDesign)
    assert [(r.table, r.roll, r.result, r.note) for r in picked.rolls] == [("primary", 10, "armor", "picked")]
    assert [c.id for c in picked.enhancements] == ["armor"]
    sub = sf.roll_fighter(catalog, 1, seed, picks=["Turbo Laser"]).root
    assert [(r.table, r.result) for r in sub.rolls] == [
        ("primary", "special-weapon"),
        ("special-weapon", "turbo-laser"),
    ]
    with pytest.raises(InputError) as exc:
        sf.roll_fighter(catalog, 1, seed, picks=["Warp Core"])
    assert "pick 'Warp Core' is not a result of the Primary Enhancements Table" in str(exc.value)
    assert "allowed: Targeter, Engines" in str(exc.value)


def test_a_pick_that_costs_more_than_is_left_is_refused_not_rolled_over() -> None:
    """A pick of a two-enhancement entry with one left was used up without a word and the
    die rolled again: the person's choice was lost. It is refused, saying why."""
    catalog = fury()
    seed = next(s for s in SEEDS if sf.roll_fighter(catalog, 1, s).root.rolls[0].roll == 10)
    with pytest.raises(InputError) as exc:
        sf.roll_fighter(catalog, 1, seed, picks=["Rail Gun"])
    said = str(exc.value)
    assert "pick 'Rail Gun' costs 2 enhancements, and 1 enhancement is left when its Pick 1 Result comes up" in said
    assert "at --pick" in said and "allowed: a pick of at most 1 enhancement there" in said
    assert [c.id for c in sf.roll_fighter(catalog, 2, seed, picks=["Rail Gun"]).root.enhancements] == ["rail-gun"]


def test_a_rolled_turret_carries_a_weapon() -> None:
    catalog = fury()
    rolled = [sf.roll_fighter(catalog, 10, s) for s in SEEDS]
    with_turret = [d for d in rolled if any(c.id == "turret" for c in d.root.enhancements)]
    assert with_turret
    for design in with_turret:
        turret = next(c for c in design.root.enhancements if c.id == "turret")
        assert turret.weapons and len(turret.weapons) <= turret.count
        report = evaluate(design, catalog)
        assert not {"turret-overloaded", "turret-weapon-missing", "turret-weapon-not-mountable"} & set(report.codes())


def test_zero_enhancements_and_a_negative_count() -> None:
    design = sf.roll_fighter(fury(), 0, 1)
    assert design.root.enhancements == [] and design.root.rolls == []
    for n in (-1, 1001):
        with pytest.raises(InputError) as exc:
            sf.roll_fighter(fury(), n, 1)
        assert "(allowed: 0 to 1000)" in str(exc.value)
    big = sf.roll_fighter(fury(), 1000, 1)
    assert evaluate(big, fury()).derived.figure("cost").value == 20 + 1000 * 1001 // 2


# --- pilots ------------------------------------------------------------------------------


def test_a_seed_reproduces_a_pilot_exactly() -> None:
    catalog = fury()
    assert sf.roll_pilot(catalog, 7, level=6) == sf.roll_pilot(catalog, 7, level=6)
    root = sf.roll_pilot(catalog, 7, xp=20, name="Kim").root
    assert isinstance(root, sf.PilotDesign)
    assert (root.name, root.xp, root.seed) == ("Kim", 20, 7)
    assert root.skills == ["basic-combat-pilot", "evasion", "accuracy", "engineering", "accuracy"]
    assert root.quirks == ["focused"]
    assert [(r.table, r.roll, r.result) for r in root.rolls[4:7]] == [
        ("quirk-check", 1, "quirk"),
        ("quirks", 69, "intimidating"),  # needs a Veteran: rolled again
        ("quirks", 13, "focused"),
    ]


@pytest.mark.parametrize("level", range(1, 11))
def test_a_rolled_pilot_has_its_levels_skills_and_passes(level: int) -> None:
    catalog = fury()
    need = sf.level_row(catalog, level)
    assert need is not None
    for seed in range(20):
        design = sf.roll_pilot(catalog, seed, level=level)
        root = design.root
        assert isinstance(root, sf.PilotDesign)
        assert (root.xp, len(root.skills), root.skills[0]) == (need.xp, level, "basic-combat-pilot")
        assert len(root.quirks) <= level and len(set(root.quirks)) == len(root.quirks)
        checks = [r for r in root.rolls if r.table == "quirk-check"]
        assert len(checks) == level and sum(r.roll == 1 for r in checks) == len(root.quirks)
        report = evaluate(design, catalog)
        assert report.valid and not report.findings, report.findings


def test_over_many_seeds_every_skill_and_quirk_comes_up() -> None:
    catalog = fury()
    skills: Counter[str] = Counter()
    quirks: Counter[str] = Counter()
    for seed in range(400):
        root = sf.roll_pilot(catalog, seed, level=10).root
        skills.update(root.skills)
        quirks.update(root.quirks)
    assert set(skills) == set(catalog.kind("pilot_skills")) and skills["basic-combat-pilot"] == 400
    assert set(quirks) == set(catalog.kind("quirks"))


def test_intimidating_is_never_rolled_below_veteran() -> None:
    catalog = fury()
    for seed in range(400):
        root = sf.roll_pilot(catalog, seed, level=6).root
        assert "intimidating" not in root.quirks


@pytest.mark.parametrize(
    ("kwargs", "says"),
    [
        ({"xp": 0}, "0 XP is below level 1 (1 XP)"),
        ({"level": 11}, "level 11 is not on the Pilot Level Table"),
        ({"level": 2, "xp": 3}, "give the XP or the level, not both"),
        ({"xp": -4}, "XP cannot be negative"),
    ],
)
def test_bad_pilot_requests(kwargs: dict[str, int], says: str) -> None:
    with pytest.raises(InputError) as exc:
        sf.roll_pilot(fury(), 1, **kwargs)
    assert says in str(exc.value)


def test_no_level_or_xp_means_a_level_one_pilot() -> None:
    root = sf.roll_pilot(fury(), 3).root
    assert (root.xp, root.skills) == (1, ["basic-combat-pilot"])


# --- skirmishes ----------------------------------------------------------------------------

ROWS = {
    1: ({"Fighter Bomber": 2}, {"Interceptor": 4}, False),
    2: ({"Defense Fighter": 3}, {"Light Fighter": 3}, False),
    3: ({"Assault Fighter": 4}, {"Escort Fighter": 2, "Gunship": 1}, False),
    4: ({"Assault Fighter": 3}, {"Light Fighter": 5}, False),
    5: ({"Scout": 2}, {"Heavy Bomber": 1}, False),
    6: ({"Interceptor": 2}, {"Symbiote Fighter": 2}, True),
}


def test_skirmishes_follow_the_table() -> None:
    catalog = fury()
    seen = set()
    for seed in range(60):
        result = sf.skirmish(catalog, seed)
        seen.add(result.roll)
        side_a, side_b = (s.root for s in result.sides)
        assert isinstance(side_a, sf.ForceDesign) and isinstance(side_b, sf.ForceDesign)
        want_a, want_b, extra = ROWS[result.roll]
        for side, want, letter in ((side_a, want_a, "A"), (side_b, want_b, "B")):
            kinds = Counter(f.name.rsplit(" ", 1)[0] for f in side.fighters)
            assert kinds == Counter(want)
            assert [f.name.rsplit(" ", 1)[1] for f in side.fighters] == [
                f"{letter}{k}" for k in range(1, len(side.fighters) + 1)
            ]
            assert all(f.pilot is not None for f in side.fighters)
        # "Roll 1D6 + The total number of fighters. Each side has this many levels worth of pilots."
        rolls = side_a.rolls
        assert rolls == side_b.rolls and rolls[0].roll == result.roll
        levels_roll = rolls[1].roll
        total = len(side_a.fighters) + len(side_b.fighters)
        extra_roll = rolls[2].roll if extra else 0
        assert 1 <= levels_roll <= 6 and (len(rolls) == 3) == extra
        assert side_a.pilot_levels == levels_roll + total
        assert side_b.pilot_levels == levels_roll + total + extra_roll
        for side in (side_a, side_b):
            levels = [sf.pilot_level(catalog, f.pilot) for f in side.fighters if f.pilot]
            assert sum(levels) == side.pilot_levels and max(levels) - min(levels) <= 1
            assert all(f.pilot.xp == sf.level_row(catalog, lv).xp for f, lv in zip(side.fighters, levels, strict=True))
        for side_design in result.sides:
            report = evaluate(side_design, catalog)
            assert (
                report.valid
                and "pilot-levels-over" not in report.codes()
                and "pilot-levels-unused" not in report.codes()
            )
    assert seen == set(ROWS)


def test_a_seed_reproduces_a_skirmish() -> None:
    catalog = fury()
    a, b = sf.skirmish(catalog, 5), sf.skirmish(catalog, 5)
    assert a.sides == b.sides and a.summary == b.summary
    assert a.summary.splitlines()[0].startswith(f"Skirmishes roll {a.roll}: ")


def test_each_skirmish_pilot_reproduces_from_its_own_seed() -> None:
    catalog = fury()
    side = sf.skirmish(catalog, 9).sides[0].root
    for f in side.fighters:
        p = f.pilot
        again = sf.roll_pilot(catalog, p.seed, level=sf.pilot_level(catalog, p), name=p.name).root
        assert (again.skills, again.quirks, again.xp) == (p.skills, p.quirks, p.xp)


def test_levels_per_side_as_a_house_rule(tmp_path: Path) -> None:
    text = (FURY / "skirmishes.yaml").read_text(encoding="utf-8").replace("plus: total-fighters", "plus: side-fighters")
    folder = tmp_path / "house" / "space-fury"
    folder.mkdir(parents=True)
    (folder / "skirmishes.yaml").write_text(text, encoding="utf-8")
    catalog = fury(folders=(tmp_path / "house",))
    for seed in range(12):
        result = sf.skirmish(catalog, seed)
        side_a, side_b = (s.root for s in result.sides)
        levels_roll = side_a.rolls[1].roll
        assert side_a.pilot_levels == levels_roll + len(side_a.fighters)
        extra = side_a.rolls[2].roll if len(side_a.rolls) == 3 else 0
        assert side_b.pilot_levels == levels_roll + len(side_b.fighters) + extra
