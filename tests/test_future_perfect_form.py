"""The declared editor form of Future Perfect (catalogs/future-perfect/form.yaml): it loads
with the catalog, its pages, choices, ranges and help come out of formview as the Qt
layer will ask for them, and every path a finding names is a field of the form."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from shipyard.core.designfile import load_design
from shipyard.core.edits import insert_at, set_at
from shipyard.core.evaluate import evaluate
from shipyard.core.form import FieldDecl, Form, ListDecl, MapDecl, Section
from shipyard.core.formview import (
    FormContext,
    check_form,
    choices,
    enum_choices,
    field_help,
    field_range,
    holds,
    new_entry,
    pages,
    widget_for,
)
from shipyard.core.paths import parse_path

from .test_future_perfect import FP_EXAMPLES, fp, house
from .test_future_perfect_cli import FINDINGS


def context(name: str = "damaged-frigate") -> FormContext:
    loaded = load_design(FP_EXAMPLES / f"{name}.ship", use_user_folder=False)
    return FormContext(loaded.catalog, loaded.design, evaluate(loaded.design, loaded.catalog))


def form() -> Form:
    f = fp().form
    assert f is not None
    return f


def elements(sections: list[Section]) -> list[Any]:
    return [el for s in sections for el in s.fields]


def element(path_or_list: str) -> Any:
    for page in form().pages:
        for el in elements(page.sections):
            if getattr(el, "path", None) == path_or_list or getattr(el, "list_", None) == path_or_list:
                return el
            if getattr(el, "map", None) == path_or_list:
                return el
    raise AssertionError(f"no form element for {path_or_list}")


def test_the_form_loads_with_the_catalog_and_names_only_what_exists() -> None:
    catalog = fp()
    assert catalog.form is not None and check_form(catalog) == []


def test_four_pages_for_every_ship_the_plan_page_too() -> None:
    for ship in ("scout", "damaged-frigate"):
        assert [p.id for p in pages(form(), context(ship))] == ["record", "systems", "crew", "plan"]
    plan_page = form().pages[3]
    optional = plan_page.sections[0].optional
    assert optional is not None and optional.path == "plan"
    assert optional.default == {"initiative": 0, "helm": 0, "tactical": 0, "engineering": 0}


def test_the_summary_is_live_figures_of_the_report() -> None:
    ctx = context()
    assert ctx.report is not None
    values = {fid: ctx.report.derived.figure(fid) for fid in form().summary}
    assert {k: v.value for k, v in values.items() if v is not None} == {
        "ap_left.helm": 0,
        "ap_left.tactical": 0,
        "ap_left.engineering": 0,
        "defense_tn": 3,
        "power_used": 3,
        "power_left": 1,
    }


def test_choices_come_from_the_catalog_and_the_records_own_names() -> None:
    ctx = context()
    actions = element("plan.actions")
    assert isinstance(actions, ListDecl)
    column = {c.path: c for c in actions.columns}
    assert choices(column["action"].choices, ctx)[:2] == [
        ("Move 1 range band (Helm, 2 AP)", "move-1"),
        ("Move 2 range bands (Helm, 3 AP)", "move-2"),
    ]
    offered = {v: t for t, v in choices(column["action"].choices, ctx)}
    assert offered["careful-shot"] == "Careful shot (Tactical, +1 AP on a fire action)"
    assert offered["jump-to-warp"] == "Jump to warp speed (Helm, 6 AP)"
    assert len(choices(column["action"].choices, ctx)) == 12
    targets = choices(column["target"].choices, ctx)
    assert targets[:3] == [
        ("—", None),
        ("Twin lasers (primary weapon)", "Twin lasers"),
        ("Torpedo launcher (secondary weapon)", "Torpedo launcher"),
    ]
    assert ("Deflectors (shield system)", "Deflectors") in targets
    assert enum_choices(ctx, "plan.actions[0].role") == [
        ("Helm", "helm"),
        ("Tactical", "tactical"),
        ("Engineering", "engineering"),
    ]
    weapons = element("weapons")
    system = next(c for c in weapons.columns if c.path == "system")
    assert choices(system.choices, ctx) == [
        ("—", None),
        ("Forward battery", "Forward battery"),
        ("Torpedo bay", "Torpedo bay"),
    ]
    augmented = element("plan.augmented")
    assert isinstance(augmented, MapDecl)
    assert [v for _, v in choices(augmented.keys, ctx)][:3] == ["Bridge", "Engines", "Forward battery"]


def test_the_shield_column_is_for_shield_systems_and_acuity_for_the_helm() -> None:
    ctx = context()
    shield = next(c for c in element("systems").columns if c.path == "shield")
    assert [holds(shield.enabled, ctx, f"systems[{i}]") for i in range(7)] == [False] * 4 + [True, False, False]
    acuity = next(c for c in element("crew").columns if c.path == "acuity")
    assert [holds(acuity.enabled, ctx, f"crew[{i}]") for i in range(4)] == [False, True, False, False]


def test_ranges_widgets_and_help_with_the_catalogs_numbers(tmp_path: Path) -> None:
    ctx = context()
    ap = element("ap")
    assert isinstance(ap, FieldDecl)
    assert field_range(ap, ctx, "ap") == (1, 100)  # the rules' minimum (a stat), the file's limit
    assert widget_for(ap, ctx, "ap") == "spin"
    power = next(c for c in element("plan.actions").columns if c.path == "power")
    assert field_range(power, ctx, "plan.actions[0].power") == (0, 99)
    bank = element("power_bank")
    assert "Up to 1 point of any action's cost may be paid from it." in field_help(bank, ctx, "power_bank")
    grade = next(c for c in element("weapons").columns if c.path == "grade")
    assert field_help(grade, ctx, "weapons[0].grade") == "Firing a primary weapon costs 1 AP, a secondary 2 AP."
    # a house rule changes the help with its number
    generous = house(tmp_path, "two-power", "round-plan", "{power_per_action: 2}")
    loaded = load_design(FP_EXAMPLES / "scout.ship", use_user_folder=False)
    other = FormContext(generous, loaded.design, None)
    assert "Up to 2 point of any action's cost" in field_help(bank, other, "power_bank")


def test_a_new_action_row_is_a_legal_entry_of_the_plan() -> None:
    loaded = load_design(FP_EXAMPLES / "frigate.ship", use_user_folder=False)
    catalog = loaded.catalog
    design = set_at(loaded.design, "plan", form().pages[3].sections[0].optional.default, catalog)  # type: ignore[union-attr]
    entry = new_entry(element("plan.actions"), None)
    assert entry == {"role": "helm", "action": "evasive-maneuvers", "power": 0}
    design = insert_at(design, "plan.actions", entry, catalog)
    design = set_at(design, "plan.helm", 1, catalog)
    report = evaluate(design, catalog)
    assert report.valid and report.derived.figure("defense_tn").value == 4  # type: ignore[union-attr]


def _form_paths() -> list[tuple[str, str]]:
    """(kind, path) of every place the form edits: fields, list columns, maps, optional sections."""
    out: list[tuple[str, str]] = []
    for page in form().pages:
        for section in page.sections:
            if section.optional is not None:
                out.append(("section", section.optional.path))
            for el in section.fields:
                if isinstance(el, FieldDecl):
                    out.append(("field", el.path))
                elif isinstance(el, ListDecl):
                    out.append(("list", el.list_))
                    out += [("column", f"{el.list_}[].{c.path}") for c in el.columns]
                elif isinstance(el, MapDecl):
                    out.append(("map", el.map))
    return out


def focus(path: str) -> str:
    """The form place a finding at ``path`` focuses: the exact field, a list row's column, a
    map, a list, or the optional section it lies in."""
    places = {p for _, p in _form_paths()}
    parts = parse_path(path)
    for n in range(len(parts), 0, -1):
        head = parts[:n]
        name = ".".join(str(p) if isinstance(p, str) else "[]" for p in head).replace(".[]", "[]")
        if name in places:
            return name
    raise AssertionError(f"no form place for {path}")


def test_every_finding_of_the_corpus_focuses_a_field_of_the_form() -> None:
    found = {}
    for file in sorted(FINDINGS.glob("future-perfect-*.ship")):
        loaded = load_design(file, use_user_folder=False)
        for f in evaluate(loaded.design, loaded.catalog).findings:
            found[f.path] = focus(f.path)
    assert found == {
        "plan": "plan",
        "plan.helm": "plan.helm",
        "plan.tactical": "plan.tactical",
        "plan.engineering": "plan.engineering",
        "plan.actions[1]": "plan.actions",
        "plan.actions[0].power": "plan.actions[].power",
        "crew[5].role": "crew[].role",
        "systems[1].core_damage": "systems[].core_damage",
    }


def test_each_action_bought_shows_its_ap_cost_and_how_it_is_paid() -> None:
    """The damaged frigate's plan as the AP cost tables price it (the AP column, its tooltip)."""
    from shipyard.core.formview import cell_text

    ctx = context()
    actions = element("plan.actions")
    (cost,) = [c for c in actions.columns if c.show is not None]
    assert cost.label == "AP" and cost.show == "action_cost"
    shown = [cell_text(cost.show, ctx, f"plan.actions[{i}]") for i in range(len(ctx.design.plan.actions))]
    assert [text for text, _ in shown] == ["1 AP", "1 AP", "2 AP", "1 AP", "1 AP", "2 AP", "4 AP", "2 AP"]
    assert shown[2][1] == "Move 1 range band: 2 AP on the Helm table; paid 1 from the power bank, 1 from the allocation"
    assert shown[4][1] == (
        "Careful shot: +1 AP on a fire action on the Tactical table; paid 1 from the power bank, 0 from the allocation"
    )
    # Repair system, 4 AP: 1 from power, the 1 augmented AP Engineering got last round, 2 from its allocation
    assert shown[6][1] == (
        "Repair system: 4 AP on the Engineering table; "
        "paid 1 from the power bank, 1 from augmented AP, 2 from the allocation"
    )
