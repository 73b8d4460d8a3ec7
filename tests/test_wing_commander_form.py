"""The Wing Commander editor form as declared (catalogs/wing-commander/form.yaml), through the
pure helpers the Qt layer uses (shipyard.core.formview): pages, ranges, help with the
catalog's numbers, new entries, and that every finding's path lands on a declared field."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from shipyard.core.designfile import load_design, new_design
from shipyard.core.evaluate import evaluate
from shipyard.core.form import Column, FieldDecl, FigureRef, Form, ListDecl, MapDecl, Section
from shipyard.core.formview import (
    FormContext,
    choices,
    field_help,
    field_range,
    help_text,
    new_entry,
    pages,
    widget_for,
)
from shipyard.rulesets import wing_commander as wc

from .test_bad_input import FINDING_CASES, FindingCase
from .test_wing_commander import CORPUS, EXAMPLES, SAMPLES, catalog, house_rule


def form_of(cat: Any) -> Form:
    assert cat.form is not None
    return cat.form  # type: ignore[no-any-return]


def context(name: str = "rapier") -> FormContext:
    loaded = load_design(EXAMPLES / f"{name}.ship", use_user_folder=False)
    return FormContext(loaded.catalog, loaded.design, evaluate(loaded.design, loaded.catalog))


def elements(sections: list[Section], base: str = "") -> list[tuple[str, Any]]:
    """Every element with its path template (list entries as ``[]``), details included."""
    out: list[tuple[str, Any]] = []
    for section in sections:
        for el in section.fields:
            if isinstance(el, FieldDecl):
                out.append((base + el.path, el))
            elif isinstance(el, ListDecl):
                entry = f"{base}{el.list_}[]"
                out.append((base + el.list_, el))
                out += [(f"{entry}.{c.path}", c) for c in el.columns]
                out += elements(el.detail, entry + ".")
            elif isinstance(el, MapDecl):
                out.append((base + el.map, el))
            elif isinstance(el, FigureRef):
                out.append((f"figure:{el.figure}", el))
    return out


def declared() -> dict[str, Any]:
    form = form_of(catalog())
    return {path: el for page in form.pages for path, el in elements(page.sections)}


def test_the_form_has_five_pages_for_every_fighter() -> None:
    ctx = context()
    assert [(p.id, p.title) for p in pages(form_of(ctx.catalog), ctx)] == [
        ("fighter", "&1 Fighter"),
        ("guns", "&2 Guns"),
        ("missiles", "&3 Missiles"),
        ("compartments", "&4 Compartments"),
        ("pilot", "&5 Pilot"),
    ]
    assert form_of(ctx.catalog).summary == ["free_decoys", "decoys_per_action", "link_groups"]


def test_every_field_of_the_record_has_a_place_on_the_form() -> None:
    paths = set(declared())
    fields = {"name", "class", "drv", "acceleration", "afterburner", "slide_system", "turrets", "notes"}
    fields |= {"pilot.name", "pilot.dex", "pilot.action_check", "pilot.skills"}
    fields |= {f"guns[].{c}" for c in ("name", "count", "accuracy", "range.short", "range.medium", "range.long")}
    fields |= {"guns[].damage", "guns[].link_group"}
    fields |= {f"missiles[].{c}" for c in ("name", "count", "drv", "score", "lock_time", "damage")}
    fields |= {"compartments[].name", "compartments[].durability"}
    fields |= {"compartments[].components[].name", "compartments[].components[].space"}
    assert fields <= paths, fields - paths


def test_ranges_come_from_the_catalog_stats_and_the_model() -> None:
    ctx = context()
    items = declared()
    assert field_range(items["drv"], ctx, "drv") == (-5, 5)
    assert field_range(items["pilot.dex"], ctx, "pilot.dex") == (1, 20)
    assert field_range(items["guns[].count"], ctx, "guns[0].count") == (0, 20)
    # the file's range: a space below 0 is the rules' error finding, shown at its field, not refused
    assert field_range(items["compartments[].components[].space"], ctx, "compartments[0].components[0].space") == (
        -100,
        100,
    )
    assert widget_for(items["slide_system"], ctx, "slide_system") == "check"
    assert widget_for(items["drv"], ctx, "drv") == "spin"
    assert widget_for(items["notes"], ctx, "notes") == "multiline"
    assert widget_for(items["guns[].link_group"], ctx, "guns[0].link_group") == "line"
    assert items["guns[].link_group"].none == "not linked"


def test_help_quotes_the_catalogs_numbers() -> None:
    ctx = context()
    form = form_of(ctx.catalog)
    texts = [help_text(p.help, ctx.catalog) for p in form.pages]
    texts += [field_help(el, ctx, path) for path, el in declared().items() if hasattr(el, "help")]
    assert not [t for t in texts if re.search(r"[{}]", t)]
    joined = " ".join(texts)
    for said in (
        "a step modifier from -5 to 5",
        "divided by 2 and rounded down",
        "a group needs 2 or more guns",
        "launched with the pilot's gunnery skill",
        "a component of space 0 counts as 1",
        "In phases: how long",
        "Dexterity, 1 to 20",
        "(at least 1)",
    ):
        assert said in joined, said


def test_a_house_rule_changes_the_help(tmp_path: Path) -> None:
    cat = house_rule(tmp_path, "free-missile-decoys", "{drv_bonus_divisor: 3}")
    assert "divided by 3 and rounded down" in help_text(declared()["drv"].help, cat)


@pytest.mark.parametrize(
    ("path", "model"),
    [
        ("guns", wc.WCGun),
        ("missiles", wc.WCMissile),
        ("compartments", wc.WCCompartment),
        ("compartments[].components", wc.WCComponent),
    ],
)
def test_each_list_adds_an_entry_the_record_accepts(path: str, model: type[Any]) -> None:
    decl = declared()[path]
    assert isinstance(decl, ListDecl) and decl.add
    entry = model.model_validate(new_entry(decl, None))
    assert entry.name.startswith("New ")


def test_skills_are_chosen_from_the_catalog() -> None:
    ctx = context()
    skills = declared()["pilot.skills"]
    assert isinstance(skills, MapDecl)
    assert choices(skills.keys, ctx) == [("Piloting", "piloting"), ("Gunnery", "gunnery")]


@pytest.mark.parametrize("name", SAMPLES)
def test_every_figure_the_form_shows_is_in_the_report(name: str) -> None:
    ctx = context(name)
    assert ctx.report is not None
    ids = {f.id for f in ctx.report.derived.figures}
    shown = [p.removeprefix("figure:") for p in declared() if p.startswith("figure:")]
    assert set(form_of(ctx.catalog).summary) | {f for f in shown if not f.endswith("*")} <= ids
    # a group of figures (each compartment's): one or more of the sample's
    assert all(any(i.startswith(f[:-1]) for i in ids) for f in shown if f.endswith("*"))


def test_a_new_fighter_shows_the_summary_figures() -> None:
    loaded = new_design("wing-commander", "Blue Two", "fighter")
    report = evaluate(loaded.design, loaded.catalog)
    assert [report.derived.figure(f).value for f in form_of(loaded.catalog).summary] == [1, 1, "none"]  # type: ignore[union-attr]


def test_the_record_as_the_form_sees_it_uses_the_file_keys() -> None:
    ctx = context()
    assert ctx.value("class") == "Medium fighter (Confederation)"
    assert ctx.value("guns[2].link_group") == "B"
    assert ctx.value("compartments[2].components[5].name") == "Decoy dispenser"


def _template(path: str) -> str:
    return re.sub(r"\[\d+\]", "[]", path)


@pytest.mark.parametrize("case", FINDING_CASES, ids=[c.file.removesuffix(".ship") for c in FINDING_CASES])
def test_every_finding_lands_on_a_declared_field(case: FindingCase) -> None:
    """What the editor focuses: each finding's path is a field or a list column the form declares."""
    loaded = load_design(CORPUS / case.file, use_user_folder=False)
    findings = evaluate(loaded.design, loaded.catalog).findings
    assert case.path in [f.path for f in findings]
    assert {_template(f.path) for f in findings} <= set(declared())


def test_columns_are_columns() -> None:
    assert all(isinstance(declared()[f"guns[].{c}"], Column) for c in ("count", "link_group"))
