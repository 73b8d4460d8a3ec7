"""User catalogs and presets: house rules layered on the built-in catalog.

Every folder is built in ``tmp_path``; a user catalog folder holds ``<ruleset-id>/*.yaml``.
The tests go through ``load_catalog``/``load_design``/``evaluate`` and through the
``shipyard`` command line, and check both what loads and what is refused (with the file,
line and column of the offending entry).
"""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import shipyard.core.catalog as catalog_module
from shipyard.core.catalog import load_catalog
from shipyard.core.designfile import load_design
from shipyard.core.errors import InputError
from shipyard.core.evaluate import evaluate

from .conftest import ROOT, call_shipyard, run_shipyard

RULESET = "space-fighter-alpha"
BUILTIN = ROOT / "catalogs" / RULESET
ALIEN_DISK = BUILTIN / "examples" / "alien-disk-fighter.ship"

# Line numbers below refer to these texts; keep them in step.
PLASMA = """\
weapons:
  - id: plasma-cannon
    name: Plasma Cannon
    aliases: [Plasma Cannons]
    speed: -1
    damage: 14
    damage_modifier: true
    range: 9
    cost: 3
    tags: [plasma]
    notes: Overheats on a botch.
    source: House rules
"""

FORCE_FIELD_4 = """\
technology:
  - id: force-field
    name: Force Field
    cost: 4
    speed: 1
    power_use: "1 per turn of use"
    description: A cheaper house-rule Force Field.
    system: The spacecraft is virtually invulnerable while it lasts.
    source: House rules
"""

CHEAP_PRESET = """\
preset:
  id: cheap
  name: Cheap force fields
  source: House rules
  overrides:
    technology:
      force-field: {cost: 1}
"""


@pytest.fixture(autouse=True)
def fresh_catalogs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """No cached catalog from another test, and no real user folder leaking in."""
    catalog_module._load_layers.cache_clear()
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-empty"))
    yield
    catalog_module._load_layers.cache_clear()


def write(folder: Path, rel: str, text: str) -> Path:
    """Write ``text`` to ``folder/<ruleset>/rel`` and return the file's path."""
    path = folder / RULESET / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def load(folder: Path, **kw):
    return load_catalog(RULESET, (folder,), use_user_folder=False, **kw)


def load_error(folder: Path, **kw) -> str:
    with pytest.raises(InputError) as info:
        load(folder, **kw)
    return str(info.value)


def builtin_line(file: str, needle: str) -> int:
    """1-based line of ``needle`` in a built-in catalog file."""
    lines = (BUILTIN / file).read_text(encoding="utf-8").splitlines()
    return next(i for i, ln in enumerate(lines, 1) if ln.strip() == needle)


def design_file(tmp_path: Path, weapons: list[dict[str, object]]) -> Path:
    path = tmp_path / "plasma-boat.ship"
    doc = {
        "format_version": 2,
        "ruleset": RULESET,
        "preset": "as-written",
        "design": {
            "name": "Plasma Boat",
            "scale": "starfighter",
            "crew": 1,
            "handling": 0,
            "soak": 2,
            "move": 1,
            "power": 0,
            "structure": 10,
            "weapons": weapons,
        },
    }
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    return path


def shipyard(*args: str | Path, xdg: Path) -> subprocess.CompletedProcess[str]:
    return call_shipyard(*args, env={"XDG_DATA_HOME": str(xdg)})


# --- (a) a new weapon ----------------------------------------------------------------------


def test_new_weapon_is_loadable(tmp_path: Path) -> None:
    house = tmp_path / "house"
    write(house, "extra.yaml", PLASMA)
    catalog = load(house)
    weapon = catalog.item("weapons", "plasma-cannon")
    assert weapon is not None
    assert (weapon.name, weapon.cost, weapon.damage, weapon.range, weapon.speed) == (
        "Plasma Cannon",
        3,
        14,
        9,
        -1,
    )
    assert weapon.tags == ["plasma"]
    # found by name and alias like the built-in ones, which are all still there
    assert catalog.resolve("weapons", "plasma cannons") == "plasma-cannon"
    assert catalog.item("weapons", "light-laser") is not None
    # adding is not overriding
    assert catalog.overrides == []
    # and without the folder it does not exist
    catalog_module._load_layers.cache_clear()
    plain = load_catalog(RULESET, (), use_user_folder=False)
    assert plain.item("weapons", "plasma-cannon") is None


def test_new_weapon_is_usable_and_paid_from_weapon_points(tmp_path: Path) -> None:
    house = tmp_path / "house"
    write(house, "extra.yaml", PLASMA)
    path = design_file(tmp_path, [{"weapon": "Plasma Cannon", "count": 1}])
    loaded = load_design(path, catalog_folders=(house,), use_user_folder=False)
    assert loaded.design.weapons[0].weapon == "plasma-cannon"
    report = evaluate(loaded.design, loaded.catalog)
    wp = report.pool("weapon-points")
    assert wp is not None
    costs = [(i.label, i.amount, i.path) for i in wp.items if i.kind == "cost" and i.path]
    assert costs == [("1 x Plasma Cannon", 3, "weapons[0]")]
    # 5 Weapon Points, 3 for the cannon: the 2 left over become 4 freebies
    assert wp.budget == 5
    freebies = report.pool("freebies")
    assert freebies is not None
    assert [(i.label, i.amount) for i in freebies.items if i.kind == "gain"] == [("2 unspent Weapon Points x 2", 4)]
    table = report.derived.table("weapons")
    assert table is not None
    assert table.rows[0][:7] == ["Plasma Cannon", 1, "forward", "Starfighter", "-1", "+14", 9]


def test_new_weapon_counts_per_weapon(tmp_path: Path) -> None:
    house = tmp_path / "house"
    write(house, "extra.yaml", PLASMA)
    path = design_file(tmp_path, [{"weapon": "plasma-cannon", "count": 2}])
    loaded = load_design(path, catalog_folders=(house,), use_user_folder=False)
    report = evaluate(loaded.design, loaded.catalog)
    wp = report.pool("weapon-points")
    assert wp is not None
    assert [(i.label, i.amount) for i in wp.items if i.path == "weapons[0]"] == [("2 x Plasma Cannon", 6)]


def test_design_using_user_weapon_fails_without_the_folder(tmp_path: Path) -> None:
    path = design_file(tmp_path, [{"weapon": "Plasma Cannon"}])
    with pytest.raises(InputError) as info:
        load_design(path, use_user_folder=False)
    (problem,) = info.value.problems
    assert problem.path == "design.weapons[0].weapon"
    assert problem.message.startswith("unknown weapon 'Plasma Cannon'")


# --- (b) replacing an existing entry by id ---------------------------------------------------


def test_override_replaces_technology_and_is_reported(tmp_path: Path) -> None:
    house = tmp_path / "house"
    user_file = write(house, "force-field.yaml", FORCE_FIELD_4)
    catalog = load(house)
    item = catalog.item("technology", "force-field")
    assert item is not None
    assert item.cost == 4
    # replaced whole: the built-in text is gone
    assert item.description == "A cheaper house-rule Force Field."
    line = builtin_line("technology.yaml", "- id: force-field")
    assert catalog.overrides == [
        f"technology 'force-field': {user_file}:2 replaces {BUILTIN / 'technology.yaml'}:{line}"
    ]


def test_override_changes_the_power_points_spent(tmp_path: Path) -> None:
    house = tmp_path / "house"
    write(house, "force-field.yaml", FORCE_FIELD_4)
    # as written: the sample-ships preset the sample is saved with sets Force Field to 3 itself
    builtin = load_design(ALIEN_DISK, preset="as-written", use_user_folder=False)
    housed = load_design(ALIEN_DISK, preset="as-written", catalog_folders=(house,), use_user_folder=False)
    before = evaluate(builtin.design, builtin.catalog).pool("power-points")
    after = evaluate(housed.design, housed.catalog).pool("power-points")
    assert before is not None and after is not None
    assert (before.spent, after.spent) == (7, 6)  # Force Field 5 -> 4, Auto-Turrets 2


def test_check_command_prints_the_override(tmp_path: Path) -> None:
    house = tmp_path / "house"
    user_file = write(house, "force-field.yaml", FORCE_FIELD_4)
    proc = shipyard(
        "check", ALIEN_DISK, "--preset", "as-written", "--catalog", house, "--no-user-catalog", xdg=tmp_path / "xdg"
    )
    assert "Traceback" not in proc.stderr
    assert proc.returncode == 1, proc.stderr  # 6 Power Points of 5: over budget
    line = builtin_line("technology.yaml", "- id: force-field")
    assert "Catalog overrides in effect" in proc.stdout
    assert f"technology 'force-field': {user_file}:2 replaces {BUILTIN / 'technology.yaml'}:{line}" in proc.stdout
    assert "Power Points: budget 5, spent 6" in proc.stdout
    assert re.search(r"-\s+4\s+Force Field\s+\(technology\[0\]\)", proc.stdout)


def test_later_catalog_folder_wins(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    a = write(first, "ff.yaml", FORCE_FIELD_4)
    b = write(second, "ff.yaml", FORCE_FIELD_4.replace("cost: 4", "cost: 2"))
    catalog = load_catalog(RULESET, (first, second), use_user_folder=False)
    item = catalog.item("technology", "force-field")
    assert item is not None
    assert item.cost == 2
    assert len(catalog.overrides) == 2
    assert catalog.overrides[1] == f"technology 'force-field': {b}:2 replaces {a}:2"


# --- (c) the same id twice in one folder ------------------------------------------------------


def test_same_id_in_two_files_of_one_folder_is_an_error(tmp_path: Path) -> None:
    house = tmp_path / "house"
    one = write(house, "one.yaml", PLASMA)
    two = write(house, "two.yaml", PLASMA)
    message = load_error(house)
    assert "'plasma-cannon' is defined twice in one catalog folder" in message
    assert f"{two}:2:5" in message
    assert f"first at {one}:2" in message


def test_same_id_in_two_different_folders_is_not_an_error(tmp_path: Path) -> None:
    write(tmp_path / "a", "one.yaml", PLASMA)
    write(tmp_path / "b", "one.yaml", PLASMA.replace("cost: 3", "cost: 1"))
    catalog = load_catalog(RULESET, (tmp_path / "a", tmp_path / "b"), use_user_folder=False)
    item = catalog.item("weapons", "plasma-cannon")
    assert item is not None
    assert item.cost == 1


# --- (d) unknown key in a user item -------------------------------------------------------------


def test_unknown_key_in_user_item(tmp_path: Path) -> None:
    house = tmp_path / "house"
    path = write(house, "extra.yaml", PLASMA.replace("    cost: 3\n", "    cost: 3\n    cots: 3\n"))
    with pytest.raises(InputError) as info:
        load(house)
    (problem,) = info.value.problems
    assert (problem.file, problem.line, problem.column) == (str(path), 10, 5)
    assert problem.message == "unknown key 'cots'"
    assert problem.path == "weapons[0].cots"
    assert problem.allowed is not None
    assert "cost" in problem.allowed.split(", ")
    assert str(problem).startswith(f"{path}:10:5 at weapons[0].cots: unknown key 'cots'")


def test_bad_value_in_user_item_has_position(tmp_path: Path) -> None:
    house = tmp_path / "house"
    path = write(house, "extra.yaml", PLASMA.replace("cost: 3", "cost: -3"))
    message = load_error(house)
    assert f"{path}:9:5 at weapons[0].cost" in message
    assert "greater than or equal to 0" in message


# --- (e) unknown section --------------------------------------------------------------------------


def test_unknown_section_suggests_the_right_one(tmp_path: Path) -> None:
    house = tmp_path / "house"
    path = write(house, "extra.yaml", PLASMA.replace("weapons:", "weapon:", 1))
    with pytest.raises(InputError) as info:
        load(house)
    (problem,) = info.value.problems
    assert (problem.file, problem.line, problem.column) == (str(path), 1, 1)
    assert problem.message == "unknown section 'weapon'; did you mean 'weapons'?"
    assert problem.allowed is not None
    assert {"weapons", "technology", "accessories"} <= set(problem.allowed.split(", "))


# --- (f) rules and pools belong to the ruleset ------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "rules:\n  - id: cheap-weapons\n    type: stat-range\n    source: House\n",
        "pools:\n  - id: extra\n    name: Extra\n    budget: {starfighter: 3}\n    source: House\n",
        "scales:\n  ladder: []\n",
    ],
    ids=["rules", "pools", "scales"],
)
def test_user_file_may_not_change_rules_or_pools(tmp_path: Path, text: str) -> None:
    house = tmp_path / "house"
    path = write(house, "house-rules.yaml", text)
    section = text.split(":", 1)[0]
    message = load_error(house)
    assert message.startswith(f"{path}:1:1 at {section}: section '{section}' belongs to")
    assert "use a preset" in message


def test_user_ruleset_yaml_is_refused(tmp_path: Path) -> None:
    house = tmp_path / "house"
    (house / RULESET).mkdir(parents=True)
    target = house / RULESET / "ruleset.yaml"
    shutil.copy(BUILTIN / "ruleset.yaml", target)
    message = load_error(house)
    assert f"{target}:3:1 at ruleset: section 'ruleset' belongs to the ruleset itself" in message


# --- (g) a user preset ---------------------------------------------------------------------------------


def test_user_preset_can_be_selected(tmp_path: Path) -> None:
    house = tmp_path / "house"
    write(house, "presets/cheap.yaml", CHEAP_PRESET)
    catalog = load(house, preset="cheap")
    assert catalog.preset is not None
    assert catalog.preset.id == "cheap"
    assert set(catalog.presets) == {"as-written", "sample-ships", "cheap"}
    item = catalog.item("technology", "force-field")
    assert item is not None
    assert item.cost == 1
    # the default preset is untouched
    catalog_module._load_layers.cache_clear()
    default = load(house)
    assert default.preset is not None
    assert default.preset.id == "as-written"
    ff = default.item("technology", "force-field")
    assert ff is not None
    assert ff.cost == 5


def test_user_preset_changes_power_points_of_alien_disk_fighter(tmp_path: Path) -> None:
    house = tmp_path / "house"
    write(house, "presets/cheap.yaml", CHEAP_PRESET)
    spent = {}
    for preset in ("as-written", "sample-ships", "cheap"):
        loaded = load_design(ALIEN_DISK, preset=preset, catalog_folders=(house,), use_user_folder=False)
        pool = evaluate(loaded.design, loaded.catalog).pool("power-points")
        assert pool is not None
        spent[preset] = pool.spent
    # Force Field 5 / 3 / 1, plus Auto-Turrets 2
    assert spent == {"as-written": 7, "sample-ships": 5, "cheap": 3}


def test_user_preset_on_the_command_line(tmp_path: Path) -> None:
    house = tmp_path / "house"
    write(house, "presets/cheap.yaml", CHEAP_PRESET)
    proc = shipyard(
        "check",
        ALIEN_DISK,
        "--catalog",
        house,
        "--preset",
        "cheap",
        "--no-user-catalog",
        "--json",
        xdg=tmp_path / "xdg",
    )
    assert "Traceback" not in proc.stderr
    (report,) = json.loads(proc.stdout)
    assert report["preset"] == "cheap"
    assert report["preset_name"] == "Cheap force fields"
    pools = {p["id"]: p for p in report["pools"]}
    assert pools["power-points"]["spent"] == 3
    assert [(i["label"], i["amount"]) for i in pools["power-points"]["items"]] == [
        ("Force Field", 1),
        ("Auto-Turrets", 2),
    ]


# --- (h) bad preset overrides -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("override", "says"),
    [
        ("force-fild: {cost: 1}", "technology has no entry 'force-fild'"),
        ("force-field: {price: 1}", "technology 'force-field' has no field price"),
        ("force-field: {cost: -1}", "greater than or equal to 0"),
    ],
    ids=["unknown-item", "unknown-field", "bad-value"],
)
def test_bad_preset_override_names_the_preset_file(tmp_path: Path, override: str, says: str) -> None:
    house = tmp_path / "house"
    path = write(house, "presets/cheap.yaml", CHEAP_PRESET.replace("force-field: {cost: 1}", override))
    message = load_error(house, preset="cheap")
    assert str(path) in message
    assert "preset.overrides.technology." in message
    assert says in message
    # a broken preset stops the catalog even when another preset is chosen: fail closed
    catalog_module._load_layers.cache_clear()
    assert says in load_error(house, preset="as-written")


def test_preset_override_in_unknown_section(tmp_path: Path) -> None:
    house = tmp_path / "house"
    path = write(house, "presets/cheap.yaml", CHEAP_PRESET.replace("technology:", "technolgy:"))
    message = load_error(house)
    assert str(path) in message
    assert "unknown section 'technolgy'; did you mean 'technology'?" in message


@pytest.mark.parametrize(
    ("override", "section"),
    [
        ("force-fild: {cost: 1}", "technology"),
        ("force-field: {price: 1}", "technology"),
        ("force-field: {cost: -1}", "technology"),
        ("ftl-drive: {pool: nowhere}", "accessories"),
    ],
    ids=["unknown-item", "unknown-field", "bad-value", "unknown-pool"],
)
def test_bad_preset_override_points_at_its_line(tmp_path: Path, override: str, section: str) -> None:
    """docs/catalog-format.md: "every error names file, line and column" -- line 7 here."""
    text = CHEAP_PRESET.replace("technology:", f"{section}:").replace("force-field: {cost: 1}", override)
    assert text.splitlines()[6].strip() == override
    house = tmp_path / "house"
    path = write(house, "presets/cheap.yaml", text)
    message = load_error(house)
    assert re.search(rf"{re.escape(str(path))}:7:\d+", message), message


@pytest.mark.parametrize(
    ("override", "says"),
    [
        # renaming the id would leave the design's "Force Field" pointing at nothing
        (
            "force-field: {id: medium-laser}",
            ":7:21 at preset.overrides.technology.force-field: cannot apply override: an override may not change "
            "an entry's id (add a new item in a user catalog instead)",
        ),
        # a name another entry already has is ambiguous (refused in catalog files)
        (
            "force-field: {name: Auto-Turrets}",
            ":7:7 at preset.overrides.technology.force-field: with preset 'cheap' applied: technology name "
            "'Auto-Turrets' of 'force-field' is also a name of 'auto-turrets'; names must be unambiguous",
        ),
    ],
    ids=["changes-id", "ambiguous-name"],
)
def test_preset_override_may_not_break_the_catalog(tmp_path: Path, override: str, says: str) -> None:
    house = tmp_path / "house"
    path = write(house, "presets/odd.yaml", CHEAP_PRESET.replace("force-field: {cost: 1}", override))
    assert load_error(house, preset="cheap") == f"{path}{says}"


def test_preset_override_naming_unknown_scale_is_refused(tmp_path: Path) -> None:
    house = tmp_path / "house"
    text = CHEAP_PRESET.replace("technology:", "accessories:").replace(
        "force-field: {cost: 1}", "ftl-drive: {scales: [battlestar]}"
    )
    path = write(house, "presets/cheap.yaml", text)
    assert load_error(house, preset="cheap") == (
        f"{path}:7:7 at preset.overrides.accessories.ftl-drive: with preset 'cheap' applied: accessories "
        "'ftl-drive' names unknown scale 'battlestar' (allowed: street-fighter, starfighter, starship, starship+N)"
    )


def test_preset_changing_an_item_id_is_refused_when_a_design_is_loaded(tmp_path: Path) -> None:
    """Such a preset would make Force Field silently vanish from the bill: loading refuses it."""
    house = tmp_path / "house"
    path = write(
        house,
        "presets/cheap.yaml",
        CHEAP_PRESET.replace("force-field: {cost: 1}", "force-field: {id: medium-laser}"),
    )
    with pytest.raises(InputError) as exc:
        load_design(ALIEN_DISK, preset="cheap", catalog_folders=(house,), use_user_folder=False)
    assert str(exc.value) == (
        f"{path}:7:21 at preset.overrides.technology.force-field: cannot apply override: an override may not "
        "change an entry's id (add a new item in a user catalog instead)"
    )


def test_user_preset_replacing_a_builtin_preset_is_reported(tmp_path: Path) -> None:
    """A user preset with the default preset's id silently re-prices every design."""
    house = tmp_path / "house"
    path = write(house, "presets/mine.yaml", CHEAP_PRESET.replace("id: cheap", "id: as-written"))
    catalog = load(house)
    ff = catalog.item("technology", "force-field")
    assert ff is not None
    assert ff.cost == 1  # the replacement is in effect ...
    # ... and, like any replaced entry, it is reported
    notes = [o for o in catalog.overrides if "as-written" in o]
    assert len(notes) == 1, catalog.overrides
    assert str(path) in notes[0]
    assert str(BUILTIN / "presets" / "as-written.yaml") in notes[0]


# --- (i) malformed YAML ----------------------------------------------------------------------------


def test_malformed_yaml_user_file(tmp_path: Path) -> None:
    house = tmp_path / "house"
    path = write(house, "extra.yaml", PLASMA.replace("tags: [plasma]", "tags: [plasma"))
    with pytest.raises(InputError) as info:
        load(house)
    (problem,) = info.value.problems
    assert problem.file == str(path)
    assert problem.message.startswith("malformed YAML")
    assert (problem.line, problem.column) == (11, 10)
    assert str(problem).startswith(f"{path}:11:10: malformed YAML")


def test_duplicate_key_in_user_file(tmp_path: Path) -> None:
    house = tmp_path / "house"
    path = write(house, "extra.yaml", PLASMA.replace("    range: 9\n", "    range: 9\n    range: 7\n"))
    message = load_error(house)
    assert f'{path}:9:5: malformed YAML: found duplicate key "range"' in message


def test_malformed_yaml_through_the_command_line(tmp_path: Path) -> None:
    house = tmp_path / "house"
    path = write(house, "extra.yaml", "weapons:\n\t- id: tabbed\n")
    proc = shipyard("check", ALIEN_DISK, "--catalog", house, "--no-user-catalog", xdg=tmp_path / "xdg")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert f"shipyard: error: {path}:2:1: malformed YAML" in proc.stderr
    assert proc.stdout.strip() == ""


def test_deeply_nested_yaml_is_an_input_error(tmp_path: Path) -> None:
    house = tmp_path / "house"
    path = write(house, "deep.yaml", "weapons: " + "[" * 1000 + "]" * 1000 + "\n")
    assert load_error(house) == f"{path}: malformed YAML: nested too deeply"
    # refused as its brackets are read: a reading that compared each bracket with all those
    # before it would not end in a test's lifetime
    write(house, "deep.yaml", "weapons: " + "[" * 100_000 + "]" * 100_000 + "\n")
    assert load_error(house) == f"{path}: malformed YAML: nested too deeply"


def test_deeply_nested_yaml_through_the_command_line(tmp_path: Path) -> None:
    house = tmp_path / "house"
    path = write(house, "deep.yaml", "weapons: " + "[" * 1000 + "]" * 1000 + "\n")
    proc = shipyard("check", ALIEN_DISK, "--catalog", house, "--no-user-catalog", xdg=tmp_path / "xdg")
    assert "internal error" not in proc.stderr, proc.stderr
    assert proc.returncode == 2, proc.stderr
    assert f"shipyard: error: {path}: malformed YAML: nested too deeply" in proc.stderr


def _limit_memory() -> None:  # pragma: no cover - runs in the child
    limit = 1536 * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


@pytest.mark.skipif(sys.platform != "linux", reason="uses RLIMIT_AS")
def test_yaml_alias_bomb_is_refused_without_expanding(tmp_path: Path) -> None:
    """A few hundred bytes of nested aliases must not expand into 10**10 list items (memory capped at 1.5 GiB)."""
    lines = ["weapons: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"k{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 10)]
    house = tmp_path / "house"
    path = write(house, "bomb.yaml", "\n".join(lines) + "\n")
    assert path.stat().st_size < 1000
    proc = run_shipyard(  # its own process: the memory limit is the process's
        "check",
        ALIEN_DISK,
        "--catalog",
        house,
        "--no-user-catalog",
        env={"XDG_DATA_HOME": str(tmp_path / "xdg")},
        preexec_fn=_limit_memory,
    )
    assert "internal error" not in proc.stderr, proc.stderr
    assert proc.returncode == 2, proc.stderr
    assert (
        f"shipyard: error: {path}:2:10: YAML anchors and aliases (&name / *name) are not supported in a catalog file; "
        "write entries out"
    ) in proc.stderr


def test_missing_catalog_folder_on_the_command_line(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-folder"
    proc = shipyard("check", ALIEN_DISK, "--catalog", missing, "--no-user-catalog", xdg=tmp_path / "xdg")
    assert proc.returncode == 2
    assert f"shipyard: error: {missing}: catalog folder does not exist" in proc.stderr
    assert "Traceback" not in proc.stderr


# --- (j) the XDG user folder ---------------------------------------------------------------------------


def test_xdg_user_folder_is_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    xdg = tmp_path / "xdg"
    monkeypatch.setenv("XDG_DATA_HOME", str(xdg))
    path = write(xdg / "shipyard" / "catalogs", "extra.yaml", PLASMA)
    assert catalog_module.user_catalog_folder() == xdg / "shipyard" / "catalogs"
    catalog = load_catalog(RULESET, use_user_folder=True)
    assert catalog.item("weapons", "plasma-cannon") is not None
    assert catalog.folders[1:] == (path.parent,)
    catalog_module._load_layers.cache_clear()
    without = load_catalog(RULESET, use_user_folder=False)
    assert without.item("weapons", "plasma-cannon") is None


def test_xdg_folder_comes_before_catalog_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    xdg = tmp_path / "xdg"
    monkeypatch.setenv("XDG_DATA_HOME", str(xdg))
    user = write(xdg / "shipyard" / "catalogs", "ff.yaml", FORCE_FIELD_4)
    house = tmp_path / "house"
    extra = write(house, "ff.yaml", FORCE_FIELD_4.replace("cost: 4", "cost: 2"))
    catalog = load_catalog(RULESET, (house,), use_user_folder=True)
    item = catalog.item("technology", "force-field")
    assert item is not None
    assert item.cost == 2
    line = builtin_line("technology.yaml", "- id: force-field")
    assert catalog.overrides == [
        f"technology 'force-field': {user}:2 replaces {BUILTIN / 'technology.yaml'}:{line}",
        f"technology 'force-field': {extra}:2 replaces {user}:2",
    ]


def test_xdg_folder_through_the_command_line(tmp_path: Path) -> None:
    xdg = tmp_path / "xdg"
    write(xdg / "shipyard" / "catalogs", "extra.yaml", PLASMA)
    path = design_file(tmp_path, [{"weapon": "Plasma Cannon"}])
    seen = shipyard("check", path, "--json", xdg=xdg)
    assert seen.returncode == 0, seen.stderr  # the design passes: 3 of its 5 Weapon Points spent
    (report,) = json.loads(seen.stdout)
    wp = {p["id"]: p for p in report["pools"]}["weapon-points"]
    assert ("1 x Plasma Cannon", 3) in [(i["label"], i["amount"]) for i in wp["items"]]
    ignored = shipyard("check", path, "--no-user-catalog", xdg=xdg)
    assert ignored.returncode == 2
    assert "at design.weapons[0].weapon: unknown weapon 'Plasma Cannon'" in ignored.stderr


# --- fail closed: unknown rule and effect types --------------------------------------------------------


@pytest.fixture
def builtin_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the built-in ruleset folder, loaded in place of the real one."""
    import dataclasses

    from shipyard.core import registry

    root = tmp_path / "builtin"
    shutil.copytree(BUILTIN, root / RULESET)
    installed = registry.get(RULESET)
    copy = dataclasses.replace(
        installed, manifest=installed.manifest.model_copy(update={"catalog": str(root / RULESET)})
    )
    real_get = registry.get
    monkeypatch.setattr(registry, "get", lambda rid, **kw: copy if rid == RULESET else real_get(rid, **kw))
    catalog_module._load_layers.cache_clear()
    return root / RULESET


def test_builtin_copy_loads_unchanged(builtin_copy: Path) -> None:
    catalog = load_catalog(RULESET, use_user_folder=False)
    assert catalog.root == builtin_copy
    assert catalog.item("technology", "force-field") is not None


def test_unknown_rule_type_fails_closed(builtin_copy: Path) -> None:
    rules = builtin_copy / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    if not text.endswith("\n"):
        text += "\n"
    type_line = len(text.splitlines()) + 3
    text += "\n  - id: house-rule\n    type: made-up-rule\n    source: House rules\n"
    rules.write_text(text, encoding="utf-8")
    assert text.splitlines()[type_line - 1].strip() == "type: made-up-rule"
    with pytest.raises(InputError) as info:
        load_catalog(RULESET, use_user_folder=False)
    (problem,) = info.value.problems
    assert problem.file == str(rules)
    assert (problem.line, problem.column) == (type_line, 5)
    assert problem.message.startswith("unknown rule type 'made-up-rule'")
    assert problem.allowed is not None
    allowed = problem.allowed.split(", ")
    assert {"item-cost", "weapon-cost", "priority", "exchange", "stat-range"} <= set(allowed)
    assert "made-up-rule" not in allowed
    assert str(problem).startswith(f"{rules}:{type_line}:5 at rules[")


def test_unknown_effect_type_in_builtin_technology(builtin_copy: Path) -> None:
    tech = builtin_copy / "technology.yaml"
    text = tech.read_text(encoding="utf-8")
    assert text.count("- {type: auto-turrets}") == 1
    lines = text.splitlines()
    line = next(i for i, ln in enumerate(lines, 1) if ln.strip() == "- {type: auto-turrets}")
    tech.write_text(text.replace("{type: auto-turrets}", "{type: auto-turret}"), encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_catalog(RULESET, use_user_folder=False)
    (problem,) = info.value.problems
    assert problem.file == str(tech)
    assert problem.line == line
    assert problem.column == 9
    assert "'auto-turret'" in problem.message
    assert "'auto-turrets'" in problem.message  # what would have been accepted


def test_unknown_effect_type_in_user_technology(tmp_path: Path) -> None:
    house = tmp_path / "house"
    text = FORCE_FIELD_4 + "    effects:\n      - {type: warp-field, strength: 3}\n"
    path = write(house, "ff.yaml", text)
    with pytest.raises(InputError) as info:
        load(house)
    (problem,) = info.value.problems
    assert (problem.file, problem.line, problem.column) == (str(path), 11, 9)
    assert problem.path == "technology[0].effects[0]"
    assert "'warp-field'" in problem.message
    for known in ("capacity", "weapon-bonus", "virtual-pilot", "auto-turrets", "transformation"):
        assert f"'{known}'" in problem.message


def test_an_edited_house_rule_is_read_again_and_the_old_cache_entry_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The validated-catalog cache on disk: a change to a catalog file is seen, and the cache does not grow."""
    from shipyard.core import catalog_cache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("SHIPYARD_NO_CACHE", raising=False)
    house = tmp_path / "house"
    path = write(house, "presets/cheap.yaml", CHEAP_PRESET)
    assert load(house, preset="cheap").item("technology", "force-field").cost == 1  # type: ignore[union-attr]
    entries = sorted(catalog_cache.folder().glob(f"catalog-{RULESET}-*.json"))
    assert len(entries) == 1
    catalog_module._load_layers.cache_clear()  # as a new process would start
    assert load(house, preset="cheap").item("technology", "force-field").cost == 1  # type: ignore[union-attr]
    assert sorted(catalog_cache.folder().glob(f"catalog-{RULESET}-*.json")) == entries  # read, not rewritten
    path.write_text(CHEAP_PRESET.replace("{cost: 1}", "{cost: 2}"), encoding="utf-8")
    os.utime(path, ns=(path.stat().st_mtime_ns + 10**9,) * 2)
    catalog_module._load_layers.cache_clear()
    assert load(house, preset="cheap").item("technology", "force-field").cost == 2  # type: ignore[union-attr]
    [entry] = catalog_cache.folder().glob(f"catalog-{RULESET}-*.json")
    assert entry != entries[0]
    catalog_module._load_layers.cache_clear()
    load_catalog(RULESET, (), use_user_folder=False)  # the built-in catalog alone is another entry
    assert len(list(catalog_cache.folder().glob(f"catalog-{RULESET}-*.json"))) == 2


def test_a_changed_house_rule_reads_only_the_house_rules_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each change to a house-rule file builds the catalog anew; the ruleset's own files,
    unchanged, are not read again (every build read all of them, the slow part of a
    build), and what is built is what a first read of every file builds. A ruleset file
    that changed is read again."""
    from shipyard.core import yamlio

    monkeypatch.setenv("SHIPYARD_NO_CACHE", "1")  # no catalog from the cache on disk: every load builds
    read: list[Path] = []
    real = yamlio.load_yaml

    def counted(file: Path, *args: object, **kwargs: object) -> yamlio.YamlDocument:
        read.append(Path(file))
        return real(file, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(yamlio, "load_yaml", counted)
    house = tmp_path / "house"
    path = write(house, "house.yaml", FORCE_FIELD_4)
    assert load(house).item("technology", "force-field").cost == 4  # type: ignore[union-attr]
    for cost in (5, 6):
        path.write_text(FORCE_FIELD_4.replace("cost: 4", f"cost: {cost}"), encoding="utf-8")
        read.clear()
        catalog_module._load_layers.cache_clear()  # as after the file changed: another key
        again = load(house)
        assert again.item("technology", "force-field").cost == cost  # type: ignore[union-attr]
        assert read == [path], read  # the house rules only
    # what it built from the documents kept is what reading every file again builds
    from shipyard.core import catalogbuild

    monkeypatch.setattr(catalogbuild, "_builtin_read", {})
    catalog_module._load_layers.cache_clear()
    read.clear()
    fresh = load(house)
    assert len(read) > 1 and path in read
    for part in ("meta", "items", "pools", "presets", "origins", "overrides", "override_positions"):
        assert getattr(fresh, part) == getattr(again, part), part
    assert [r.definition for r in fresh.rules] == [r.definition for r in again.rules]
    # a ruleset's own file that changed is read again (a copy of the ruleset's folder, as a plug-in's)
    copy = tmp_path / "own"
    shutil.copytree(BUILTIN, copy)
    weapons = copy / "weapons.yaml"
    first = catalogbuild._read_builtin(weapons, copy)
    assert catalogbuild._read_builtin(weapons, copy) is first
    weapons.write_text(weapons.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert catalogbuild._read_builtin(weapons, copy) is not first


def test_a_preset_read_from_the_catalog_cache_prices_as_when_read_from_yaml(tmp_path: Path) -> None:
    """The catalog cache holds every preset applied; a second start reads it from there
    (no YAML is parsed) and the preset re-prices the design the same way."""
    import subprocess
    import sys

    house = tmp_path / "house"
    write(house, "presets/cheap.yaml", CHEAP_PRESET)
    code = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from shipyard.core.designfile import load_design\n"
        "from shipyard.core.evaluate import evaluate\n"
        f"loaded = load_design(Path({str(ALIEN_DISK)!r}), preset='cheap', catalog_folders=[Path(sys.argv[1])],"
        " use_user_folder=False)\n"
        "report = evaluate(loaded.design, loaded.catalog)\n"
        "print(json.dumps([loaded.catalog.item('technology', 'force-field').cost,"
        " report.pool('power-points').spent, 'ruamel' in ' '.join(sys.modules)]))\n"
    )
    runs = [
        subprocess.run([sys.executable, "-c", code, str(house)], capture_output=True, text=True, timeout=120)
        for _ in "12"
    ]
    first, second = (json.loads(r.stdout or "null") for r in runs)  # YAML, then the cache
    assert first is not None and second is not None, runs[0].stderr + runs[1].stderr
    assert first[:2] == second[:2] == [1, 3]  # Force Field 1 instead of 3, plus Auto-Turrets 2
    assert (first[2], second[2]) == (True, False)


def test_a_catalog_file_saved_as_utf16_is_named_so(tmp_path: Path) -> None:
    """A house-rule file saved as UTF-16 was called "not UTF-8 text (byte 0 is 0xff); is this a
    binary file?"; it is text saved in another encoding, and the message says which to use."""
    house = tmp_path / "house"
    path = write(house, "extra.yaml", "")
    path.write_bytes(PLASMA.encode("utf-16"))  # with its byte-order mark, as Windows' editors save it
    message = load_error(house)
    assert f"{path}: saved as UTF-16 (it starts with a UTF-16 byte-order mark); save it as UTF-8" in message
    assert "binary" not in message
