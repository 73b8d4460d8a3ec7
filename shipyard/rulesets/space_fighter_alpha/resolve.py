"""Names to catalog ids, a fresh design, and the neutral view the core rules work on."""

from __future__ import annotations

from typing import Any

from shipyard.core.errors import InputError, Problem
from shipyard.core.ladder import Step
from shipyard.core.model import Catalog, DesignView, Selection
from shipyard.core.suggest import did_you_mean
from shipyard.pointbuy.priority import PriorityParams
from shipyard.pointbuy.scales import ladder
from shipyard.rulesets.space_fighter_alpha.design import Design, ItemChoice, WeaponChoice

# --- resolving references ---------------------------------------------------------------


_SINGULAR = {"technology": "technology", "accessories": "accessory", "weapons": "weapon"}


def _resolve_items(
    items: list[ItemChoice], kind: str, catalog: Catalog, base: str, problems: list[Problem]
) -> list[ItemChoice]:
    out = []
    for i, choice in enumerate(items):
        item_id = catalog.resolve(kind, choice.id)
        if item_id is None:
            problems.append(
                Problem(
                    f"unknown {_SINGULAR.get(kind, kind)} {choice.id!r}; "
                    f"{did_you_mean(choice.id, catalog.names(kind))}".rstrip("; "),
                    path=f"{base}[{i}].id",
                    allowed=", ".join(item.name for item in catalog.kind(kind).values()),
                )
            )
            continue
        out.append(
            choice.model_copy(
                update={"id": item_id, "scale": _scale_id(choice.scale, catalog, f"{base}[{i}].scale", problems)}
            )
        )
    return out


def _scale_id(text: str | None, catalog: Catalog, path: str, problems: list[Problem]) -> str | None:
    if text is None:
        return None
    s = ladder(catalog).parse(text)
    if s is None:
        problems.append(Problem(f"unknown scale {text!r}", path=path, allowed=", ".join(ladder(catalog).ids())))
        return text
    return s.id


def _resolve_weapons(
    weapons: list[WeaponChoice], catalog: Catalog, base: str, problems: list[Problem]
) -> list[WeaponChoice]:
    out = []
    for i, w in enumerate(weapons):
        wid = catalog.resolve("weapons", w.weapon)
        if wid is None:
            problems.append(
                Problem(
                    f"unknown weapon {w.weapon!r}; {did_you_mean(w.weapon, catalog.names('weapons'))}".rstrip("; "),
                    path=f"{base}[{i}].weapon",
                    allowed=", ".join(item.name for item in catalog.kind("weapons").values()),
                )
            )
            continue
        out.append(
            w.model_copy(update={"weapon": wid, "scale": _scale_id(w.scale, catalog, f"{base}[{i}].scale", problems)})
        )
    return out


def resolve(design: Design, catalog: Catalog) -> Design:
    """Resolve names and aliases to catalog ids; report every unknown name at once."""
    problems: list[Problem] = []
    scale = ladder(catalog).parse(design.scale)
    if scale is None or not scale.designable:
        problems.append(
            Problem(
                f"{design.scale!r} is not a scale a spacecraft can be designed at",
                path="scale",
                allowed=ladder(catalog).designable_allowed(),
            )
        )
    prio = catalog.params(PriorityParams)
    attrs = list(getattr(prio, "attributes", []))
    if design.priority is not None and sorted(design.priority) != sorted(attrs):
        problems.append(
            Problem(
                f"priority must list each of {', '.join(attrs)} once, highest first",
                path="priority",
                allowed=", ".join(attrs),
            )
        )
    pool_ids = {p.id for p in catalog.pools}
    for key in design.budgets:
        if key not in pool_ids:
            problems.append(
                Problem(
                    f"unknown budget {key!r}; {did_you_mean(key, pool_ids)}".rstrip("; "),
                    path=f"budgets.{key}",
                    allowed=", ".join(sorted(pool_ids)),
                )
            )
    update: dict[str, Any] = {
        "scale": scale.id if scale else design.scale,
        "weapons": _resolve_weapons(design.weapons, catalog, "weapons", problems),
        "technology": _resolve_items(design.technology, "technology", catalog, "technology", problems),
        "accessories": _resolve_items(design.accessories, "accessories", catalog, "accessories", problems),
        "custom_technology": [
            c.model_copy(update={"scale": _scale_id(c.scale, catalog, f"custom_technology[{i}].scale", problems)})
            for i, c in enumerate(design.custom_technology)
        ],
        "custom_weapons": [
            c.model_copy(update={"scale": _scale_id(c.scale, catalog, f"custom_weapons[{i}].scale", problems)})
            for i, c in enumerate(design.custom_weapons)
        ],
    }
    forms = []
    for i, form in enumerate(design.forms):
        fu: dict[str, Any] = {}
        if form.weapons is not None:
            fu["weapons"] = _resolve_weapons(form.weapons, catalog, f"forms[{i}].weapons", problems)
        if form.technology is not None:
            fu["technology"] = _resolve_items(
                form.technology, "technology", catalog, f"forms[{i}].technology", problems
            )
        if form.accessories is not None:
            fu["accessories"] = _resolve_items(
                form.accessories, "accessories", catalog, f"forms[{i}].accessories", problems
            )
        forms.append(form.model_copy(update=fu))
    update["forms"] = forms
    if problems:
        raise InputError(problems)
    return design.model_copy(update=update)


def new_design(kind: str, name: str, catalog: Catalog) -> Design:
    """A fresh design at the stats' base values (ruleset.yaml). Its kind is the scale it is
    designed at (the manifest offers starfighter and starship; ``starship+2`` works too).
    On a scale with a crew guideline, the crew is its minimum (a Structure 10 starship: 10;
    one scale up: 50)."""
    from shipyard.rulesets.space_fighter_alpha.mechanisms import CrewParams, crew_range

    scale = kind
    s = ladder(catalog).parse(scale)
    if s is None or not s.designable:
        raise InputError.single(
            f"{scale!r} is not a scale a spacecraft can be designed at",
            path="scale",
            allowed=ladder(catalog).designable_allowed(),
        )
    base = {st.id: st.base or 0 for st in catalog.meta.stats}
    crew = base.get("crew", 0)
    crew_rule = catalog.params(CrewParams)
    guideline = crew_range(catalog, s, base.get("structure", 0), crew_rule) if s and crew_rule else None
    if guideline is not None:
        crew = guideline[0]
    return Design(
        name=name or f"New {s.name.lower()}",
        scale=s.id,
        crew=crew,
        handling=base.get("handling", 0),
        soak=base.get("soak", 0),
        move=base.get("move", 0),
        power=base.get("power", 0),
        structure=base.get("structure", 0),
    )


# --- the neutral view ---------------------------------------------------------------------


def _design_scale(design: Design, catalog: Catalog) -> Step:
    s = ladder(catalog).parse(design.scale)
    if s is None:  # a design built in code, not loaded: evaluate must still not raise
        s = ladder(catalog).parse(ladder(catalog).designable_ids()[0])
    assert s is not None
    return s


def view(design: Design, catalog: Catalog) -> DesignView:
    def comp(text: str | None) -> Step | None:
        return ladder(catalog).parse(text) if text else None

    selections = [
        Selection("weapons", w.weapon, f"weapons[{i}]", 1, w.count, comp(w.scale)) for i, w in enumerate(design.weapons)
    ]
    selections += [
        Selection("technology", t.id, f"technology[{i}]", t.level, 1, comp(t.scale))
        for i, t in enumerate(design.technology)
    ]
    selections += [
        Selection("accessories", a.id, f"accessories[{i}]", a.level, 1, comp(a.scale))
        for i, a in enumerate(design.accessories)
    ]
    stats = {
        "handling": design.handling,
        "soak": design.soak,
        "move": design.move,
        "power": design.power,
        "structure": design.structure,
        "crew": design.crew,
    }
    if design.armor is not None or design.shields is not None:
        stats["armor"] = design.armor or 0
        stats["shields"] = design.shields or 0
    marks = frozenset({"converted"}) if design.converted is not None else frozenset()
    return DesignView(
        _design_scale(design, catalog), stats, selections, budget_overrides=dict(design.budgets), marks=marks
    )
