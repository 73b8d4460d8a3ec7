#!/usr/bin/env python3
"""Write docs/reference/*.md, the plug-in author's reference, from Shipyard's own models.

    .venv/bin/python scripts/reference.py          write the pages
    .venv/bin/python scripts/reference.py --check  exit 1 naming each page that is out of date

Every table of fields is made from the pydantic model that reads the file (its field
names, types, defaults and descriptions), and every rule type's parameters from the
``Params`` model the catalog validates them with, so a field added to a model is in the
reference the next time this runs; tests/test_reference.py makes the pages in memory and
compares them with the files. The prose between the tables is here, beside what it
describes. The rule API page holds an example that tests/test_reference.py runs.
"""

import argparse
import sys
import types
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "reference"
HEAD = "<!-- Written by scripts/reference.py from Shipyard's models: edit that script, not this page. -->\n\n"


# --- a model as a table ---------------------------------------------------------------------


def type_name(t: Any) -> str:
    """A field's type as a reader of YAML needs it: ``list of text``, ``whole number``, ``one of: a, b``."""
    origin, args = get_origin(t), get_args(t)
    if origin is typing.Annotated:
        return type_name(args[0])
    if origin is Literal:
        return "one of: " + ", ".join(f"`{a}`" for a in args)
    if origin in (typing.Union, types.UnionType):
        named = [type_name(a) for a in args if a is not type(None)]
        return " or ".join(named) + (" or null" if type(None) in args else "")
    if origin in (list, tuple, set, frozenset):
        return f"list of {type_name(args[0])}" if args else "list"
    if origin is dict:
        return f"map of {type_name(args[0])} to {type_name(args[1])}" if args else "map"
    names = {str: "text", int: "whole number", float: "number", bool: "yes/no", Any: "any value"}
    if t in names:
        return names[t]
    if isinstance(t, type) and issubclass(t, BaseModel):
        return f"[{t.__name__}](#{t.__name__.lower()})"
    if isinstance(t, type) and hasattr(t, "__members__"):  # an enum
        return "one of: " + ", ".join(f"`{m.value}`" for m in t.__members__.values())
    return getattr(t, "__name__", str(t)).replace("typing.", "")


def _default(info: Any) -> str:
    if info.is_required():
        return "**required**"
    if info.default_factory is not None:
        value = info.default_factory()
    elif info.default is PydanticUndefined:
        return ""
    else:
        value = info.default
    if value in ("", [], {}, None) or value == frozenset():
        return {"": '`""`', None: "unset"}.get(value, "empty") if not isinstance(value, list | dict) else "empty"
    return f"`{getattr(value, 'value', value)}`"


def _limits(info: Any) -> str:
    said = []
    for m in info.metadata:
        for attr, word in (("ge", "≥"), ("gt", ">"), ("le", "≤"), ("lt", "<"), ("max_length", "at most"),
                           ("min_length", "at least"), ("pattern", "matches")):  # fmt: skip
            value = getattr(m, attr, None)
            if value is not None:
                said.append(f"{word} `{value}`")
    return ", ".join(said)


def fields_table(model: type[BaseModel], skip: tuple[str, ...] = (), said: dict[str, str] | None = None) -> str:
    """The model's fields: key, type, default (or required), what it is (``said``: for fields without a description)."""
    rows = ["| key | type | default | what |", "| --- | --- | --- | --- |"]
    for name, info in model.model_fields.items():
        if name in skip:
            continue
        key = info.alias or name
        what = " ".join((info.description or (said or {}).get(name, "")).split())
        limits = _limits(info)
        what = "; ".join(x for x in (what, limits) if x)
        rows.append(f"| `{key}` | {type_name(info.annotation)} | {_default(info)} | {what} |")
    return "\n".join(rows) + "\n"


def section(model: type[BaseModel], intro: str = "", skip: tuple[str, ...] = ()) -> str:
    doc = " ".join((model.__doc__ or "").split()) if model.__doc__ and "Usage docs" not in model.__doc__ else ""
    text = f"### {model.__name__}\n\n"
    text += "".join(f"{x}\n\n" for x in (intro, doc) if x)
    return text + fields_table(model, skip)


def models_below(root: type[BaseModel]) -> list[type[BaseModel]]:
    """``root`` and every model its fields hold, each once, in the order a reader meets them."""
    seen: list[type[BaseModel]] = []

    def visit(t: Any) -> None:
        if isinstance(t, type) and issubclass(t, BaseModel):
            if t in seen:
                return
            seen.append(t)
            for info in t.model_fields.values():
                visit(info.annotation)
        for a in get_args(t):
            visit(a)

    visit(root)
    return seen


# --- the pages --------------------------------------------------------------------------------


def manifest_page() -> str:
    from shipyard.core.manifest import Manifest

    text = (
        "# manifest.yaml\n\n"
        "The file beside a ruleset's package that says who it is and what it contributes; Shipyard reads\n"
        "it without importing the package (docs/rulesets.md, *The manifest*). Unknown keys are errors with\n"
        "their line and column. Below, each model is one mapping of the file, the first the whole file.\n\n"
    )
    return text + "\n".join(section(m) for m in models_below(Manifest))


def form_page() -> str:
    from shipyard.core.form import Form, Section

    # The form's models resolve their forward references when the first form is validated;
    # resolve them now, so the page reads the same whether or not a form was built before.
    for model in models_below(Form) + models_below(Section):
        model.model_rebuild()

    text = (
        "# form.yaml: the declared editor form\n\n"
        "The catalog's `form` section (by convention `catalog/form.yaml`): the editor's pages as data\n"
        "(docs/rulesets.md, *The editor form*, explains each element with examples). Each element of a\n"
        "section's `fields` is recognised by its first key: `path` a field, `toggle`, `list`, `map`,\n"
        "`figure`, `table`, `action`, `preset`, `budgets`.\n\n"
    )
    return text + "\n".join(section(m) for m in models_below(Form))


def catalog_page() -> str:
    from shipyard.core.catalogbuild import CORE_SECTIONS
    from shipyard.core.catalogcheck import BUDGET_WITHOUT_SCALES
    from shipyard.core.items import CatalogItem, Preset, PricedItem, RulesetSection
    from shipyard.core.pools import PoolDef
    from shipyard.pointbuy.scales import ScalesSection

    out = [
        "# Catalog files\n\n"
        "A catalog folder holds YAML files, each a mapping of sections; a section is named by its key, not\n"
        f"by the file (the shared sections are {', '.join(f'`{s}`' for s in CORE_SECTIONS)}; a capability the\n"
        "manifest declares adds its own (point-buy: `scales`); every other\n"
        "key is an item kind the ruleset's `ITEM_KINDS` declares). docs/catalog-format.md describes the\n"
        "built-in rulesets' item kinds; rules.md here lists every rule type.\n",
        "## ruleset.yaml: `ruleset`\n\n" + "\n".join(section(m) for m in models_below(RulesetSection)),
        "## scales.yaml: `scales` (optional; the point-buy capability)\n\n"
        "A ladder of named steps: a design is at one of them (`DesignView.scale`), and values given per\n"
        "scale in a catalog (a pool's budget) apply to that step and every step above it until another\n"
        "value is given. Without a `scales` section the ruleset has no scale (`Catalog.scales` is None).\n"
        "The section is the point-buy capability's (`shipyard/pointbuy/scales.py`): a catalog may have it\n"
        "when its ruleset's manifest says `capabilities: [point-buy]`, and is told the line to add when it\n"
        "does not. The core reads the ladder only through `shipyard.core.ladder`'s protocols (`Ladder`:\n"
        "`parse`, `ids`, `lookup`, `allows`, `offered`, `multiplier`; `Step`: `index`, `id`, `name`,\n"
        "`family`); a ruleset's code reaches the whole ladder with `shipyard.pointbuy.scales.ladder(catalog)`.\n\n"
        + "\n".join(section(m) for m in models_below(ScalesSection)),
        "## pools.yaml: `pools` (optional)\n\n"
        "A list of budgets. A pool's `budget` is picked in one of three ways:\n\n"
        "- `budget_by: FIELD`: by the value of one of the design's choices (a hull class, a kind):\n"
        "  `budget` maps each value to its points ([recipes.md](recipes.md#a-budget-per-choice)). Where the\n"
        "  design's model lists the values (a `Literal` or an `Enum`), the catalog must give a budget for\n"
        "  each and for nothing else; a design whose value has no budget gets the error\n"
        "  `pool-budget-not-given` at that field.\n"
        "- by scale, in a ruleset with a `scales` section: `budget` maps a scale id to the points a design\n"
        "  at that scale (and the scales above it, until another is given) has;\n"
        f"- otherwise `{{{BUDGET_WITHOUT_SCALES}: N}}`, one budget for every design.\n\n"
        'A pool\'s report says which (`budget_note`: "for hull class frigate"). The rule types that\n'
        "spend pools are the point-buy capability's (rules.md).\n\n" + section(PoolDef),
        "## Item kinds\n\n"
        "Every catalog item has the fields of `CatalogItem`; items bought from a pool (the `item-cost`\n"
        "rule) subclass `PricedItem`.\n\n"
        + section(CatalogItem)
        + "\n"
        + section(PricedItem, skip=tuple(CatalogItem.model_fields)),
        "## presets/*.yaml: `preset`\n\n"
        "A named set of house rules: `overrides` change catalog entries by section and id.\n\n"
        + "\n".join(section(m) for m in models_below(Preset)),
    ]
    return "\n".join(out)


def _rule_type_section(name: str, rule_type: Any) -> str:
    from shipyard.core.model import Params

    params = rule_type.params
    needs = f" Needs the catalog's {', '.join(sorted(rule_type.needs))}." if rule_type.needs else ""
    doc = " ".join((getattr(rule_type, "judge", rule_type.apply).__doc__ or "").split())
    text = f"### `{name}`\n\n{doc}{needs}\n\nParameters (`{params.__name__}`):\n\n"
    return text + fields_table(params, skip=tuple(Params.model_fields))


RULE_KEYS = {
    "id": "the rule's id, unique in the catalog: a preset overrides the rule by it, help text quotes its "
    "parameters as `{rule:ID.FIELD}`, findings name it",
    "type": "the rule type (a heading below)",
    "name": "a name for people, where the rule is listed",
    "source": "the section of the rules text it applies: findings cite it",
}


def rules_page() -> str:
    from shipyard.core.capability import installed, load
    from shipyard.core.composition import (
        COMPOSITION_RULE_TYPES,
        FigureRange,
        FromAllowance,
        PerLimit,
        Selector,
        ShareOfLimit,
    )
    from shipyard.core.model import Params
    from shipyard.core.registry import ruleset_module, rulesets
    from shipyard.core.rules import CORE_RULE_TYPES

    out = [
        "# rules.yaml: the rule types and their parameters\n\n"
        "`rules` is a list run in order. Every rule has these keys, and then the parameters of its type:\n\n"
        + fields_table(Params, said=RULE_KEYS)
        + "\nA key the type does not take, a missing one, or a type whose catalog sections (`scales`,\n"
        "`pools`) the catalog lacks stops the catalog from loading, with the file, line and column. A type\n"
        "a capability gives, named by a ruleset whose manifest does not declare that capability, is refused\n"
        "with the line to add (`capabilities: [point-buy]`).\n",
        "## Neutral rule types (`shipyard/core/rules.py`)\n\n"
        "Every catalog may use these.\n\n" + "\n".join(_rule_type_section(n, t) for n, t in CORE_RULE_TYPES.items()),
        "## Composition rule types (`shipyard/core/composition.py`)\n\n"
        "What a group of designs may hold: a roster's members of this ruleset, or a force a ruleset keeps\n"
        "inside one design. Evaluating one design passes them by; `shipyard roster check` (and a ruleset's\n"
        "own force) judges them over the members, each counted as many times as its count. A bound (`min`,\n"
        "`max`) is a number; `{count: 1, per: 1000}` (1 per full 1000 points of the limit; `round: up`\n"
        "counts a part too); `{share: 0.25}` (a quarter of the limit); or `{allowance: ID}` (a number the\n"
        "group's file sets). docs/rulesets.md shows them at work.\n\n"
        + "\n".join(_rule_type_section(n, t) for n, t in COMPOSITION_RULE_TYPES.items())
        + "\n"
        + "\n".join(section(m) for m in (Selector, FigureRange, PerLimit, ShareOfLimit, FromAllowance)),
    ]
    for cap_id, where in sorted(installed().items()):
        if not where.startswith("shipyard."):  # an installed plug-in is not Shipyard's reference
            continue
        cap = load(cap_id)
        out.append(
            f"## Capability `{cap.id}`: {cap.name}\n\n"
            f"Rule types a catalog may use when its ruleset's manifest says `capabilities: [{cap.id}]`: "
            f"{cap.description}.\n\n" + "\n".join(_rule_type_section(n, t) for n, t in cap.rule_types.items())
        )
    for info in sorted(rulesets(), key=lambda i: i.id):
        if info.distribution != "shipyard":  # an installed plug-in is not Shipyard's reference
            continue
        own = getattr(ruleset_module(info.id), "RULE_TYPES", {})
        if own:
            out.append(
                f"## {info.name} (`{info.id}`)\n\n"
                + "\n".join(_rule_type_section(n, t) for n, t in sorted(own.items()))
            )
    return "\n".join(out)


API_EXAMPLE = '''\
from pydantic import Field

from shipyard.core.designfile import load_design
from shipyard.core.evaluate import run_rules
from shipyard.core.model import Context, DesignView, Params, RuleType, Selection
from shipyard.core.resources import builtin_catalog_root


class HangarFeeParams(Params):  # the rule's numbers: the keys of its entry in rules.yaml
    pool: str
    per_point: int = Field(ge=1)
    largest: int = Field(ge=0)


def apply_hangar_fee(ctx: Context, p: HangarFeeParams) -> None:
    """Each point of Structure costs a fee from a pool; a ship too large for the hangar is warned."""
    structure = ctx.view.stats["structure"]
    name, path = ctx.stat_name("structure"), ctx.stat_path("structure")
    source = ctx.catalog.cite(p.source)  # "<the manifest's source title>, <section>"
    fee = structure * p.per_point
    ctx.ledger[p.pool].cost(f"{name} {structure} x {p.per_point}", fee, path=path, rule=p.id, source=source)
    if structure > p.largest:
        ctx.findings.add(
            "warning", "too-big-for-the-hangar", f"{name} {structure}: the hangar takes at most {p.largest}",
            path=path, actual=structure, limit=p.largest, rule=p.id, source=source,
        )


RULE_TYPES = {"hangar-fee": RuleType(HangarFeeParams, apply_hangar_fee, needs=frozenset({"pools"}))}

# Run it on a built-in sample, after the catalog's own rules, as evaluate() runs each rule:
sample = builtin_catalog_root() / "space-fighter-alpha" / "examples" / "alien-disk-fighter.ship"
loaded = load_design(sample, use_user_folder=False)
ctx = run_rules(loaded.design, loaded.catalog)
before = ctx.ledger["freebies"].spent
fee = HangarFeeParams(id="hangar-fee", type="hangar-fee", source="Hangars", pool="freebies", per_point=1, largest=2)
apply_hangar_fee(ctx, fee)
print("scale:", ctx.scale.name)
print("freebies spent:", before, "->", ctx.ledger["freebies"].spent, "of", ctx.ledger["freebies"].budget)
print("finding:", ctx.findings.items[-1].message, "at", ctx.findings.items[-1].path)
# params() finds a rule's numbers by its parameters model; None when the catalog has no such rule:
print("hangar fee rule:", loaded.catalog.params(HangarFeeParams))

# The view a ruleset's view() returns, positionally: scale, stats by id, selections.
starship = loaded.catalog.ladder.parse("Starship")
view = DesignView(starship, {"structure": 12}, [Selection("weapons", "light-laser", "weapons[0]")])
print("view:", view.scale.name if view.scale else None, dict(view.stats), [s.id for s in view.selected("weapons")])
'''


def api_page() -> str:
    return f"""# The rule API

A rule type is a parameters model and a function (`RuleType(ParamsModel, apply, needs=...)`), named
in the package's `RULE_TYPES`; `rules.yaml` names it by `type` and gives its parameters
([rules.md](rules.md)). `evaluate(design, catalog)` runs the catalog's rules in order on one
`Context`, then the package's `derive(ctx)`. What a rule works with:

| name | what |
| --- | --- |
| `ctx.design` | the design, as the package's `Design` model after `resolve` |
| `ctx.view` | the `DesignView` the package's `view(design, catalog)` returned |
| `ctx.view.stats[ID]`, `ctx.view.selected(KIND)`, `ctx.view.has(KIND, ID)` | stats by id; the selections of an item kind (`Selection(kind, id, path, level=1, count=1, component_scale=None)`) |
| `ctx.catalog` | the catalog with the design's preset applied: `item(kind, id)`, `kind(kind)`, `pool(id)`, `stat(id)`, `params(ParamsModel)` (the parameters of the first rule whose parameters are a `ParamsModel`; **None** when no rule of the catalog has them — it never raises, so test for None), `cite(section)` ("<source title>, <section>") |
| `ctx.scale` | the design's scale (`Scale`: `index`, `id`, `name`, `family`); raises in a ruleset without scales — use `ctx.view.scale`, which is None there |
| `catalog.ladder.parse(TEXT)` | a scale from its id, its name or an extension ("Starship + 2"); None if not a scale |
| `ctx.stat_name(ID)`, `ctx.stat_path(ID)` | a stat's name as the catalog has it, and its place in the design |
| `ctx.ledger[POOL].cost(label, amount, path=, rule=, source=)` | charge a pool a line item (`gain(...)` gives back); amounts are whole numbers or `Fraction`s, the total rounded up when read (`spent`, `gained`, `remaining`, `budget`) |
| `ctx.findings.add(severity, code, message, path=, actual=, limit=, rule=, source=)` | a finding: `error` (the design does not pass), `warning` or `advice`; `path` is where the user fixes it, `rule` the rule's id (`p.id`), `source` its section (`ctx.catalog.cite(p.source)`); the one way a rule makes a finding, Shipyard's own rules too |
| `ctx.count(ID, name, unit, source).add(label, amount, path=)` | a figure counted up from parts (not a budget) |
| `ctx.notes` | a dictionary for what a rule leaves for `derive` (the scaffold's `action` rule leaves its actions) |

`DesignView(scale, stats, selections, *, budget_overrides={{}}, marks=frozenset())`:
positionally the scale (None without scales), the stats by id and the selections; by keyword
`budget_overrides`, the Storyteller's budgets by pool id (a design's `budgets`), and `marks`, what
the ruleset marks the design as (`converted`), for rules that take another severity then. (API 1
before the point-buy capability had a fourth positional `pinned`, the priority's pinned order: the
`priority` rule now reads the design's field its `field` parameter names.)

The point-buy capability's rule types (`priority`, `stat-cost`, `item-cost`, `exchange`,
`pool-limit` ...) are `shipyard.pointbuy`'s; a ruleset takes them with `capabilities: [point-buy]`
in its manifest. Their helpers are there too: `shipyard.pointbuy.scalelimits.scale_factor`
(what an out-of-scale part costs), `shipyard.pointbuy.priority.priority_figure(ctx)` (the
priority's outcome as a figure).

A rule never raises on a design the package's model accepted: whatever is wrong is a finding.

## A runnable example

tests/test_reference.py runs this block:

```python
{API_EXAMPLE}```
"""


def templates_page() -> str:
    from shipyard.core.pools import LineItem, PoolReport
    from shipyard.core.report import Action, Box, Figure, Slot, Table, Track

    parts = "\n".join(section(m) for m in (PoolReport, LineItem, Figure, Table, Track, Box, Slot, Action))
    return f"""# The template context

What a sheet template sees (docs/templates.md has the files, the macros and the rules for
fillable sheets). Each entry `e` of `designs` is plain data:

| key | what |
| --- | --- |
| `e.design` | the design's fields as in the design file |
| `e.report` | the report: `name`, `scale`, `valid`, `pools`, `findings`, `derived` (`figures`, `tables`, `tracks`, `slots`, `actions`), `forms` |
| `e.figures`, `e.tables`, `e.tracks`, `e.slots`, `e.actions` | the report's parts by id (`e.figures.firepower.value`) |
| `e.shown`, `e.shown_figures` | the table of what the design shows, the figures every output prints (`e.shown_figures.speed.value`; each report and form carries its own as `shown`): see docs/templates.md |
| `e.file`, `e.art`, `e.story`, `e.field_prefix` | the file's name, the picture, the history, what this design's form field names start with |

**`sheet_head(e, ruleset, preset, date, tag, concept="")` already prints the rules the design
breaks** (the findings banner, `findings_banner` in macros.html), its name, picture and story and
the page footer: a record sheet that prints the errors again prints them twice.

In a template a pool is a mapping: write `p["items"]` for its line items (`p.items` is the
mapping's own method).

## The report's parts

`e.report.pools` (each a PoolReport with its LineItems), and in `e.report.derived` the figures,
tables, tracks (each of Boxes), slots and actions. The "default" column says what a part has
when the ruleset's `derive` does not set it.

{parts}"""


def recipes_page() -> str:
    return """# Recipes

## A budget per choice

A budget that depends on a choice of the design (a hull class with its own points) is a pool
that says which of the design's fields picks it, `budget_by`, and gives the points for each
value the field may take:

```python
class Design(Presentation):
    hull_class: Literal["cutter", "sloop", "frigate"] = Field(default="cutter", title="hull class")
```

```yaml
pools:
  - id: build-points
    name: Build points
    budget_by: hull_class
    budget: {cutter: 20, sloop: 30, frigate: 45}
    source: Hull classes
```

A sloop then has 30 build points, and its pool's report says why (`budget_note`: "for hull
class sloop"; `check` prints `[for hull class sloop]` beside the budget). The catalog is
checked when it loads: `budget_by` must name a field of the design (a dotted path reaches into
an object), and where the field lists its values (a `Literal` or an `Enum`) the budget must
give each of them and nothing else. A design whose value has no budget gets the error
`pool-budget-not-given` at that field. The Storyteller's setting (`budgets`) still wins where
the pool allows it. Help text quotes one class's points as `{pool:build-points.budget.sloop}`.
`shipyard ruleset new ID --point-buy` writes this pool.

## A number per class or size

A number the rules give per hull class or per size (crew by class, a speed by scale) is a rule's
parameter: a mapping from the class (a field of the design) or the scale (`ctx.view.scale.id`) to
the number, given in `rules.yaml`, read by the rule and left in `ctx.notes` for `derive` (or turned
into a finding when the design's class has none). `derive`, a sheet or a form call that wants the
table itself reads the rule's parameters with `ctx.catalog.params(ParamsModel)`, which gives None
when the catalog has no such rule. tests/test_reference.py runs this block:

```python
from pydantic import Field

from shipyard.core.designfile import load_design
from shipyard.core.evaluate import run_rules
from shipyard.core.model import Context, Params, RuleType
from shipyard.core.resources import builtin_catalog_root


class CrewParams(Params):  # rules.yaml: {id: crew, type: crew-by-size, crew: {starfighter: 1}, source: Crew}
    crew: dict[str, int] = Field(min_length=1, description="crew needed, by scale id or class")


def apply_crew(ctx: Context, p: CrewParams) -> None:
    # the crew the design's size needs; a size the table does not give is an error at the scale
    size = ctx.view.scale.id if ctx.view.scale is not None else ""  # a class: getattr(ctx.design, "hull_class")
    if size in p.crew:
        ctx.notes["crew"] = p.crew[size]
    else:
        ctx.findings.add(
            "error", "no-crew-for-size", f"the rules give no crew for {size or 'a design without a size'}",
            path="scale", actual=size, limit=", ".join(p.crew), rule=p.id, source=ctx.catalog.cite(p.source),
        )


RULE_TYPES = {"crew-by-size": RuleType(CrewParams, apply_crew)}

sample = builtin_catalog_root() / "space-fighter-alpha" / "examples" / "alien-disk-fighter.ship"
loaded = load_design(sample, use_user_folder=False)
ctx = run_rules(loaded.design, loaded.catalog)
apply_crew(ctx, CrewParams(id="crew", type="crew-by-size", source="Crew", crew={"starfighter": 1, "starship": 12}))
print("crew:", ctx.notes["crew"], "at", ctx.view.scale.name)
apply_crew(ctx, CrewParams(id="crew", type="crew-by-size", source="Crew", crew={"starship": 12}))
print("finding:", ctx.findings.items[-1].code, "at", ctx.findings.items[-1].path)
print("params of a rule the catalog lacks:", loaded.catalog.params(CrewParams))
```

## A track

A row of tick boxes a player marks (damage, stress): a `Track` in `derive`, its `id` the place
in the design it stands for, one `Box` per box. The record sheet draws it with `tracks()` or
`track()` of parts.html, and a fillable sheet has a form field per box (`hull.1`, `hull.2`, ...):

```python
Track(id="hull", name="Hull", boxes=[Box(value=i + 1) for i in range(d.hull)], path="hull")
```

## A table

Rows the sheet and the editor show read-only (a weapon list, a cost table): a `Table` in
`derive`, shown by `{{ table(e.tables.weapons) }}` (macros.html) and by a form's
`{table: weapons, label: ..., empty: "None."}`:

```python
Table(id="weapons", title="Weapons", columns=["Weapon", "Damage"], rows=[[w.name, w.damage] for w in d.weapons])
```

## A pair figure

A number that holds between two ships (one's edge over the other) is the package's optional
`pair_figures(first, other, catalog)`: it returns a list of `(first's Figure, other's Figure)`,
each with its `detail` and `source`, and every comparison (`shipyard compare`, `--json`,
`--markdown`, `print --sheet compare`, the editor's Compare with...) shows each as a row of the
section `pair`, under "Between the ships":

```python
def pair_figures(first, other, catalog):
    edge = first.hull - other.hull
    source = catalog.cite("Ramming")
    return [
        (
            Figure(id="hull-edge", label="Hull edge", value=edge, detail="its hull less the other's", source=source),
            Figure(id="hull-edge", label="Hull edge", value=-edge, detail="its hull less the other's", source=source),
        )
    ]
```

## Starting a package

`shipyard ruleset new ID --point-buy` (a budget, purchases, a budget check) or `--record` (a
described ship: figures, a track, actions) writes a package that installs with `pip install -e`
and passes `shipyard rulesets --check`, `check` and `print` of its sample.
"""


def hooks_page() -> str:
    """The hook table, made from shipyard.core.hookspec: the one declaration every check reads."""
    from shipyard.core import hookspec

    def rows(hooks: tuple[Any, ...]) -> str:
        out = ["| hook | needed | Shipyard calls or reads | it returns (checked each call) | what reads it |",
               "| --- | --- | --- | --- | --- |"]
        for h in hooks:
            result = h.result.replace("{Design}", "design of the package's `Design`") if h.result else ""
            out.append(
                f"| `{h.name}` | {'required' if h.required else 'optional'} | `{h.signature}` | "
                f"{h.returns}{f' (checked: {result})' if result else ''} | {h.used_by} |"
            )
        return "\n".join(out)

    return f"""# Hooks

What a ruleset's package (and each module its manifest names) provides, made from
`shipyard.core.hookspec`, the one declaration the import check, `shipyard rulesets --check`,
the check of each call's result and this page all read. A function hook is called with the
positional arguments shown and the keyword arguments after `*`, by those names; its
signature must take them (defaults and `*args`/`**kwargs` are fine, annotations are not
compared). What a function hook returns is checked each time Shipyard calls it: anything
else stops the command with "ruleset 'x': hook 'view' returned dict ..., not a DesignView;
it should return ...", at the hook's file and line.

A plug-in's hooks, rule types and form calls run under the plug-in guard
(`shipyard.core.plugincode`): whatever they raise, `SystemExit` included, is an error naming
the ruleset, the hook and the plug-in's file and line (exit status 2), what they print goes
to stderr (so `check --json` and `schema` print only JSON), and a call or an import that
takes longer than `SHIPYARD_PLUGIN_TIMEOUT` seconds ({hookspec_timeout()} by default) is stopped
with a message naming it.

## The ruleset's package

{rows(hookspec.HOOKS)}

## A command's module (`commands:`)

{rows(hookspec.COMMAND_HOOKS)}

## A text format's module (`formats:`)

{rows(hookspec.READ_HOOKS + hookspec.WRITE_HOOKS)}

## A conversion's module (`conversions:`)

{rows(hookspec.CONVERSION_HOOKS)}
"""


def hookspec_timeout() -> str:
    from shipyard.core.plugincode import DEFAULT_TIMEOUT

    return f"{DEFAULT_TIMEOUT:g}"


PAGES: dict[str, Callable[[], str]] = {
    "manifest.md": manifest_page,
    "form.md": form_page,
    "catalog.md": catalog_page,
    "rules.md": rules_page,
    "api.md": api_page,
    "templates.md": templates_page,
    "recipes.md": recipes_page,
    "hooks.md": hooks_page,
}


def pages() -> dict[str, str]:
    """Every page of the reference, by file name, made now."""
    index = (
        "# Plug-in reference\n\n"
        + "".join(f"- [{name}]({name})\n" for name in PAGES)
        + "\nStart with docs/rulesets.md; these pages list every field.\n"
    )
    made = {"README.md": index} | {name: make() for name, make in PAGES.items()}
    return {name: HEAD + text.rstrip() + "\n" for name, text in made.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="compare with docs/reference; write nothing")
    args = parser.parse_args(argv)
    made = pages()
    if args.check:
        stale = [n for n, t in made.items() if not (OUT / n).is_file() or (OUT / n).read_text(encoding="utf-8") != t]
        for name in stale:
            print(f"docs/reference/{name} is out of date: run scripts/reference.py", file=sys.stderr)
        return 1 if stale else 0
    OUT.mkdir(parents=True, exist_ok=True)
    for name, text in made.items():
        (OUT / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(made)} pages to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
