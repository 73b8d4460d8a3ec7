"""The Cluster Falk editor form (catalogs/cluster-falk/form.yaml), at the core level.

No Qt: what the generated pages will show comes from shipyard.core.formview, so these tests
ask it what the editor asks — the pages, each field's widget, range and choices, the help
with the catalog's numbers in it — and check that every finding a ship record can raise
lands on a field of the form.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from shipyard.core.catalog import load_catalog
from shipyard.core.designfile import load_design
from shipyard.core.errors import InputError
from shipyard.core.evaluate import evaluate
from shipyard.core.form import FieldDecl, ListDecl, MapDecl, Section
from shipyard.core.formview import (
    FormContext,
    check_form,
    choices,
    custom_entry,
    enum_choices,
    field_help,
    field_range,
    holds,
    joined,
    new_entry,
    pages,
    widget_for,
)
from shipyard.core.paths import parse_path

from .test_cluster_falk_rules import BASE, RULESET, builtin_copy, cf, check, record  # noqa: F401

EXAMPLES = Path(__file__).resolve().parents[1] / "catalogs" / RULESET / "examples"


def ctx_for(preset: str = "as-read", **fields: Any) -> FormContext:
    catalog = cf(preset)
    design = record(catalog, **fields)
    return FormContext(catalog, design, evaluate(design, catalog))


def elements(sections: list[Section]) -> list[Any]:
    return [el for s in sections for el in s.fields]


def field(ctx: FormContext, path: str) -> Any:
    assert ctx.catalog.form is not None
    for page in ctx.catalog.form.pages:
        for el in elements(page.sections):
            if (
                getattr(el, "path", None) == path
                or getattr(el, "list_", None) == path
                or getattr(el, "map", None) == path
            ):
                return el
    raise AssertionError(f"no form element for {path!r}")


def test_the_form_is_checked_and_loads_with_the_catalog() -> None:
    catalog = cf()
    assert catalog.form is not None and catalog.form_schema is not None
    assert check_form(catalog) == []


def test_six_pages_in_order() -> None:
    ctx = ctx_for()
    assert ctx.catalog.form is not None
    assert [(p.id, p.title) for p in pages(ctx.catalog.form, ctx)] == [
        ("ship", "&1 Ship"),
        ("ratings", "&2 Ratings and skills"),
        ("crew", "&3 Crew and stations"),
        ("equipment", "&4 Stunts and equipment"),
        ("damage", "&5 Damage"),
        ("notes", "&6 Notes"),
    ]


@pytest.mark.parametrize(
    ("path", "widget", "low", "high"),
    [
        ("ratings.drives", "ladder", 0, 8),
        ("ratings.shields", "ladder", 0, 8),
        ("speed", "ladder", 0, 8),
        ("size", "spin", 0, 999),
        ("scale", "spin", 0, 99),
        ("tech_level", "spin", 0, 99),
        ("stress.hull", "spin", 1, 10),
        ("stress.systems", "spin", 1, 10),
        ("hyperdrive", "check", None, None),
        ("sensors", "choice", None, None),
    ],
)
def test_each_field_gets_its_widget_and_the_rules_range(path: str, widget: str, low: Any, high: Any) -> None:
    ctx = ctx_for()
    decl = field(ctx, path)
    assert widget_for(decl, ctx, path) == widget
    assert field_range(decl, ctx, path) == (low, high)


def test_ratings_show_the_ladder_words_and_sensors_their_two_kinds() -> None:
    from shipyard.core.formview import ladder_words

    ctx = ctx_for()
    assert ladder_words("ladder", ctx.catalog) == {
        0: "Mediocre",
        1: "Average",
        2: "Fair",
        3: "Good",
        4: "Great",
        5: "Superb",
        6: "Fantastic",
        7: "Epic",
        8: "Legendary",
    }
    assert enum_choices(ctx, "sensors") == [("Military", "military"), ("Civilian", "civilian")]


def test_skills_are_percentages_keyed_by_the_catalogs_ship_and_crew_skills() -> None:
    ctx = ctx_for()
    ship = field(ctx, "skills")
    assert isinstance(ship, MapDecl) and (ship.widget, ship.min, ship.max) == ("percent", 0, 100)
    assert choices(ship.keys, ctx) == [
        ("Pilot", "pilot"),
        ("Sensors", "sensors"),
        ("Navigate", "navigate"),
        ("Engineering", "engineering"),
        ("Computing", "computing"),
        ("Military Training (Navy)", "military-training"),
    ]
    crew = field(ctx, "crew")
    assert isinstance(crew, ListDecl)
    (crew_skills,) = elements(crew.detail)
    assert isinstance(crew_skills, MapDecl)
    assert [v for _, v in choices(crew_skills.keys, ctx)] == [
        "pilot",
        "military-training",
        "science-comms",
        "craft-engineering",
        "navigate",
        "computing",
    ]


def test_a_crew_member_sits_at_one_of_the_ships_stations_or_turrets() -> None:
    loaded = load_design(EXAMPLES / "sentinel-corvette.ship", use_user_folder=False)
    ctx = FormContext(loaded.catalog, loaded.design, evaluate(loaded.design, loaded.catalog))
    crew = field(ctx, "crew")
    station = next(c for c in crew.columns if c.path == "station")
    assert station.choices is not None
    assert choices(station.choices, ctx) == [
        ("aboard, at no station", None),
        ("Command deck", "command-deck"),
        ("Sensors and comms", "sensors"),
        ("Astrogation (hyperdrive control)", "astrogation"),
        ("Engineering", "engineering"),
        ("Special weapons console", "special-weapons"),
        ("Forward turret", "Forward turret"),
        ("Port turret", "Port turret"),
        ("Starboard turret", "Starboard turret"),
    ]


def test_help_quotes_the_catalogs_numbers_and_a_preset_changes_them() -> None:
    ctx = ctx_for()
    scale = field(ctx, "scale")
    assert field_help(scale, ctx, "scale") == (
        "0 is a torpedo. Desperate attack and Full defense up to Scale 3; Return fire and Fire decoys from "
        "Scale 3; Point defense from Scale 4; the Extreme consequence from Scale 6."
    )
    assert field_help(field(ctx, "size"), ctx, "size") == (
        "for the Size contest and handling: Size 10 or above is large (-2 to Handling tests on engagement)"
    )
    skills = field(ctx, "skills")
    assert field_help(skills, ctx, "skills").startswith("Percentages; a function left unrated is the AI's 50%.")
    bare = ctx_for("crewed-ships")
    assert field_help(field(bare, "skills"), bare, "skills").startswith(
        "Percentages; a function left unrated is the AI's 0%."
    )
    hyper = field(ctx, "hyperdrive")
    assert field_help(hyper, ctx, "hyperdrive") == "Jump range is 1 parsec a Drives point; a jump uses 50% of the fuel."


def test_the_extreme_consequence_is_enabled_only_at_scale_6() -> None:
    assert ctx_for().catalog.form is not None
    for scale, enabled in ((4, False), (5, False), (6, True)):
        ctx = ctx_for(scale=scale)
        aspect = field(ctx, "consequences.extreme.aspect")
        assert holds(aspect.enabled, ctx) is enabled


def test_new_entries_custom_stunts_and_plain_lists() -> None:
    ctx = ctx_for()
    stunts = field(ctx, "stunts")
    assert new_entry(stunts, "fast-ship") == {"id": "fast-ship"}
    assert custom_entry(stunts) == {"name": "New stunt", "text": ""}
    assert stunts.add == "Add c&ustom stunt"
    # the custom stunt's name and text are editable, the catalog stunt's are not
    name = next(c for c in stunts.columns if c.path == "name")
    assert holds(name.enabled, ctx, "stunts[0]") is True  # no stunt yet: no id at stunts[0]
    with_stunt = ctx_for(stunts=[{"id": "fast-ship"}])
    assert holds(name.enabled, with_stunt, "stunts[0]") is False
    aspects = field(ctx, "aspects")
    assert new_entry(aspects, None) == "New aspect"
    assert joined("aspects[1]", ".") == "aspects[1]"
    stations = field(ctx, "stations")
    assert new_entry(stations, "engineering") == "engineering"
    assert stations.key == "."


def test_the_form_language_refuses_a_custom_entry_without_a_catalog() -> None:
    with pytest.raises(ValidationError, match="'custom' is what the 'add' button"):
        ListDecl.model_validate(
            {"list": "x", "label": "X", "add": "Add", "custom": {}, "columns": [{"path": ".", "label": "X"}]}
        )


def test_every_summary_figure_is_in_every_samples_report() -> None:
    catalog = cf()
    assert catalog.form is not None
    assert catalog.form.summary == [
        "consequence-slots",
        "handling-penalty",
        "jump-range",
        "jumps-per-tank",
        "chase",
        "skill.pilot",
        "stunts-to-damage",
    ]
    for file in sorted(EXAMPLES.glob("*.ship")):
        loaded = load_design(file, use_user_folder=False)
        report = evaluate(loaded.design, loaded.catalog)
        have = {f.id for f in report.derived.figures}
        wanted = set(catalog.form.summary) - ({"jumps-per-tank"} if not loaded.design.hyperdrive else set())
        assert wanted <= have, (file.name, wanted - have)


# --- a finding focuses its field ---------------------------------------------------------------------------------


def form_places(ctx: FormContext) -> list[str]:
    """Every place the form edits, as a pattern over finding paths (``crew[*].station``)."""
    assert ctx.catalog.form is not None
    out: list[str] = []

    def walk(sections: list[Section], base: str) -> None:
        for section in sections:
            if section.optional is not None:
                out.append(joined(base, section.optional.path))
            for el in section.fields:
                if isinstance(el, FieldDecl):
                    out.append(joined(base, el.path))
                elif isinstance(el, MapDecl):
                    out.append(joined(base, el.map) + ".*")
                elif isinstance(el, ListDecl):
                    entry = joined(base, el.list_) + "[*]"
                    out.append(joined(base, el.list_))
                    out.extend(joined(entry, c.path) for c in el.columns)
                    walk(el.detail, entry)

    for page in ctx.catalog.form.pages:
        walk(page.sections, "")
    return out


def focused(path: str, places: list[str]) -> bool:
    for place in places:
        pattern = re.escape(place).replace(r"\[\*\]", r"\[\d+\]").replace(r"\*", r"[a-z0-9-]+")
        if re.fullmatch(pattern, path):
            return True
    return False


BROKEN: list[dict[str, Any]] = [
    {"ratings": {**BASE["ratings"], "guns": 9}},
    {"size": -1},
    {"scale": -2},
    {"speed": 9},
    {"tech_level": -1},
    {"skills": {"pilot": 120}},
    {"crew": [{"name": "Ace", "station": "cockpit", "skills": {"pilot": -5}}]},
    {"stress": {"hull": 0, "systems": 11}},
    {"scale": 4, "consequences": {"extreme": {"aspect": "Breach", "track": "hull"}}},
    {"stations": ["cockpit", "special-weapons"]},
    {"stations": ["cockpit", "flight-deck"]},
    {"stunts": [{"id": "advanced-astrogation"}]},
    {"turrets": [{"name": "Dorsal"}], "crew": [{"name": "A", "station": "Dorsal"}, {"name": "B", "station": "Dorsal"}]},
    {"stations": ["cockpit", "engineering"], "skills": {"engineering": 0}},
    {"stunts": [{"id": "fast-ship"}], "consequences": {"mild": {"aspect": "Shorted", "track": "systems"}}},
]


@pytest.mark.parametrize("fields", BROKEN, ids=[",".join(sorted(b)) for b in BROKEN])
def test_every_finding_lands_on_a_field_of_the_form(fields: dict[str, Any]) -> None:
    ctx = ctx_for(**fields)
    assert ctx.report is not None and ctx.report.findings, fields
    places = form_places(ctx)
    for f in ctx.report.findings:
        assert focused(f.path, places), (f.code, f.path)
        assert parse_path(f.path)  # a real path, not empty


def test_a_form_naming_a_field_the_record_lacks_stops_loading(builtin_copy: Path) -> None:  # noqa: F811
    form = builtin_copy / "form.yaml"
    form.write_text(form.read_text().replace("{path: tech_level,", "{path: tech_levle,"))
    with pytest.raises(InputError) as info:
        load_catalog(RULESET, use_user_folder=False)
    (problem,) = info.value.problems
    assert problem.message == "the design has no field 'tech_levle'"
    assert problem.file == str(form) and problem.line is not None
