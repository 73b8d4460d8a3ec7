"""The declared editor form, without a display: help text with catalog numbers, what a
toggle writes, choices, ranges, the design's schema, and the errors of a broken form."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from shipyard.core.catalog import load_catalog
from shipyard.core.errors import InputError
from shipyard.core.evaluate import evaluate
from shipyard.core.formview import (
    FormContext,
    choices,
    field_range,
    help_text,
    holds,
    new_entry,
    toggle_changes,
)
from shipyard.core.presets import with_preset
from shipyard.core.schema import spec_at

from .conftest import RULESETS, house_preset, install_ruleset, sample, sfa


def _element(catalog, page_id: str, key: str, value: str):  # type: ignore[no-untyped-def]
    """The form element of a page whose ``key`` attribute is ``value`` (a field's path, a toggle's label)."""
    page = next(p for p in catalog.form.pages if p.id == page_id)
    for section in page.sections:
        for el in section.fields:
            if getattr(el, key, None) == value:
                return el
    raise LookupError(value)


def test_help_quotes_the_catalog_numbers_and_a_house_rule_changes_them(tmp_path: Path) -> None:
    catalog = sfa()
    weapons = next(p for p in catalog.form.pages if p.id == "weapons").sections[0].help
    assert help_text(weapons, catalog) == (
        "Step Three: Weapons. Turret +1 and Fire-Linked +1 per weapon; a linked group needs 2 or more. "
        "A smaller-scale weapon costs 1/5 per scale step down."
    )
    overrides = "    mounts:\n      turret: {cost: 2}\n    technology:\n      transformation: {cost: 3}\n"
    folder = house_preset(tmp_path / "house", "dear-turrets", "Dear turrets", overrides)
    house = load_catalog("space-fighter-alpha", (folder,), use_user_folder=False)
    dear = with_preset(house, "dear-turrets")
    assert help_text(weapons, dear).startswith("Step Three: Weapons. Turret +2 and Fire-Linked +1 per weapon")
    forms = next(p for p in catalog.form.pages if p.id == "forms").sections[0].help
    assert help_text(forms, catalog).startswith("Transformation: each extra form costs 2 Power Points")
    assert help_text(forms, dear).startswith("Transformation: each extra form costs 3 Power Points")
    assert help_text("{{literal}} {scales.capacity_multiplier}", catalog) == "{literal} 5"


def test_the_priority_pin_writes_the_order_the_engine_chose_and_the_orders_come_from_the_rule() -> None:
    loaded = sample("rebel-frigate")
    report = evaluate(loaded.design, loaded.catalog)
    ctx = FormContext(loaded.catalog, loaded.design, report)
    pin = _element(loaded.catalog, "attributes", "toggle", "&Pin the priority")
    assert not holds(pin.checked, ctx)
    assert toggle_changes(pin, ctx, True) == {"priority": ["soak", "move", "handling"]}
    assert toggle_changes(pin, ctx, False) == {"priority": None}
    order = _element(loaded.catalog, "attributes", "path", "priority")
    assert choices(order.choices, ctx) == [
        ("chosen automatically", None),  # choosing it unpins
        ("Handling > Soak > Move", ["handling", "soak", "move"]),
        ("Handling > Move > Soak", ["handling", "move", "soak"]),
        ("Soak > Handling > Move", ["soak", "handling", "move"]),
        ("Soak > Move > Handling", ["soak", "move", "handling"]),
        ("Move > Handling > Soak", ["move", "handling", "soak"]),
        ("Move > Soak > Handling", ["move", "soak", "handling"]),
    ]
    # the explanation the editor shows is a figure of the engine, with the pool's catalog name
    figure = report.derived.figure("priority")
    assert figure is not None and figure.kind == "text"
    assert figure.shown() == "Free dots: Soak 2, Move 1, Handling 0 (chosen automatically: wastes least). " + (
        "Net cost 10 Freebie Points."
    )
    assert isinstance(figure.value, dict)
    assert (figure.value["order"], figure.value["cost"], figure.value["pinned"]) == (
        {"handling": 0, "soak": 2, "move": 1},
        10,
        False,
    )


def test_dividing_soak_copies_it_into_armor_in_one_change() -> None:
    loaded = sample("rebel-fighter")
    ctx = FormContext(loaded.catalog, loaded.design, evaluate(loaded.design, loaded.catalog))
    divide = _element(loaded.catalog, "attributes", "toggle", "Soak is divided into Armor and Energy Shields")
    assert not holds(divide.checked, ctx)
    assert toggle_changes(divide, ctx, True) == {"armor": 2, "shields": 0}
    armor = _element(loaded.catalog, "attributes", "path", "armor")
    assert not holds(armor.enabled, ctx)
    divided = loaded.design.model_copy(update={"shields": 1})
    assert holds(armor.enabled, FormContext(loaded.catalog, divided, None))  # any of the two set


def test_ranges_come_from_the_form_then_the_stat_then_the_design_model() -> None:
    catalog = sfa()
    ctx = FormContext(catalog, sample("rebel-fighter").design, None)
    handling = _element(catalog, "attributes", "path", "handling")
    assert field_range(handling, ctx, "handling") == (-5, 5)  # the catalog's stat
    crew = _element(catalog, "finishing", "path", "crew")
    assert field_range(crew, ctx, "crew") == (0, 10_000_000)  # the design model
    schema = catalog.form_schema
    assert schema is not None
    count = spec_at(schema, "weapons[3].count")
    assert count is not None and (count.type, count.minimum, count.maximum) == ("integer", 1, 1000)
    armor = spec_at(schema, "armor")
    assert armor is not None and armor.nullable
    budget = spec_at(schema, "budgets.freebies")
    assert budget is not None and (budget.type, budget.maximum) == ("integer", 10_000)
    assert spec_at(schema, "pilot.dexterity") is not None and spec_at(schema, "pilot.nickname") is None
    forms = next(el for s in catalog.form.pages[5].sections for el in s.fields)
    assert new_entry(forms, None, 3) == {"name": "Form 3"}


BROKEN = [
    # (what the form says, the message, the line of form.yaml it points at)
    ("- {path: grade, label: G}\n            - {path: grde, label: Oops}", "the design has no field 'grde'", 11),
    (
        "- {path: name, label: N, choices: {catalog: gizmos}}",
        "unknown item kind 'gizmos' (allowed: grades, parts, skills)",
        10,
    ),
    (
        "- {path: name, label: N, enabled: {call: shiny}}",
        "no form function 'shiny' in the ruleset (allowed: fresh_dock, strip_parts)",
        10,
    ),
    ("- {path: name, label: N, help: 'A crane costs {parts:crane.price}'}", "has no field 'price'", 10),
    ("- {path: name, label: N, help: 'See {parts:hoist.cost}'}", "no parts 'hoist'", 10),
    ("- {action: launch}", "no action 'launch' in the form (allowed: none)", 10),
    (
        "- {list: bays, label: B, add: A, columns: [{path: name, label: N, show: tally}]}",
        "no form function 'tally' in the ruleset",
        10,
    ),
    (
        "- {list: bays, label: B, add: A, new: {call: fresh_bay}, columns: [{path: name, label: N}]}",
        "no form function 'fresh_bay' in the ruleset",
        10,
    ),
    (
        "- {list: bays, label: B, add: A, browse: fresh_dock, columns: [{path: name, label: N}]}",
        "'adding' and 'browse' are about a catalog's items",
        10,
    ),
    (
        "- {path: name, label: N, choices: {options: [{value: a, label: A}], unset: not yet}}",
        "unset is for a list's columns (what a row shows while its value is not set)",
        10,
    ),
    (
        "- {list: bays, label: B, add: A, columns: [{path: name, label: N, "
        "choices: {catalog: parts, none: x, unset: y}}]}",
        "give none (a choice of 'not set') or unset (shown only where not set), not both",
        10,
    ),
]


def _copy_dock(tmp_path: Path, name: str) -> Path:
    """A copy of the Dock Test ruleset under another package name and id (imports are cached by name)."""
    package = tmp_path / "pkgs" / name
    shutil.copytree(RULESETS / "dock_test", package)
    manifest = package / "manifest.yaml"
    manifest.write_text(manifest.read_text().replace("id: dock-test", f"id: {name.replace('_', '-')}"))
    return package


@pytest.mark.parametrize(("n", "element", "message", "line"), [(n, *case) for n, case in enumerate(BROKEN)])
def test_a_broken_form_stops_the_catalog_with_file_line_and_what_is_wrong(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, n: int, element: str, message: str, line: int
) -> None:
    package = _copy_dock(tmp_path, f"dock_broken_{n}")
    form = package / "catalog" / "form.yaml"
    form.write_text(
        "form:\n  pages:\n    - id: dock\n      title: '&1 Dock'\n      sections:\n"
        "        # a broken element\n        - title: The dock\n          fields:\n"
        f"            - {{path: name, label: Name}}\n            {element}\n",
        encoding="utf-8",
    )
    install_ruleset(monkeypatch, tmp_path / "site", package, f"dock-broken-{n}")
    with pytest.raises(InputError) as caught:
        load_catalog(f"dock-broken-{n}", use_user_folder=False)
    [problem] = caught.value.problems
    assert (problem.file, problem.line) == (str(form), line)
    shown = str(caught.value)  # what the user reads
    assert shown.startswith(f"{form}:{line}:") and message in shown


def test_an_item_condition_must_name_an_attribute_of_the_lists_items(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    package = _copy_dock(tmp_path, "dock_items")
    form = package / "catalog" / "form.yaml"
    form.write_text(form.read_text().replace("enabled: {item: per_level}", "enabled: {item: per_levels}"))
    install_ruleset(monkeypatch, tmp_path / "site", package, "dock-items")
    with pytest.raises(InputError) as caught:
        load_catalog("dock-items", use_user_folder=False)
    [problem] = caught.value.problems
    assert problem.message.startswith("parts items have no attribute 'per_levels'")
    assert problem.allowed is not None and "per_level" in problem.allowed.split(", ")
    assert problem.file == str(form) and problem.line is not None
