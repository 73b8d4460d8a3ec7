"""Space Fighter Alpha: the design shape and the mechanisms its catalog cannot express.

Every number lives in ``catalogs/space-fighter-alpha``; this module holds the shape of
a spacecraft design, how it maps onto the neutral view, and the mechanisms particular to
these rules (weapon mounts, gunners, crew guidelines, the AI's virtual pilot,
transformation forms) plus the derived figures a record sheet needs.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from shipyard.core.catalog import Catalog
from shipyard.core.context import Context, DesignView, Selection
from shipyard.core.errors import InputError, Problem
from shipyard.core.findings import Severity
from shipyard.core.items import CatalogItem, PricedItem
from shipyard.core.report import Derived, Figure, Table
from shipyard.core.rules import Params, RuleType, scale_factor
from shipyard.core.scales import Scale
from shipyard.core.suggest import did_you_mean

# --- catalog item kinds ------------------------------------------------------------------


class MissileStats(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    move: int
    soak: int
    structure: int
    attack_pool: int
    self_destruct_after: int


class Weapon(PricedItem):
    speed: int
    damage: int
    damage_modifier: bool = True
    range: int
    tags: list[str] = Field(default_factory=list)
    notes: str = ""
    missile: MissileStats | None = None
    damage_checks: int | None = None


class Mount(PricedItem):
    notes: str = ""


class _Effect(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class CapacityEffect(_Effect):
    type: Literal["capacity"]
    capacity: str
    per_level: dict[str, int]
    included: dict[str, int] = Field(default_factory=dict)
    unit: dict[str, str]


class WeaponBonusEffect(_Effect):
    type: Literal["weapon-bonus"]
    tag: str
    damage: int = 0
    range: int = 0


class VirtualPilotEffect(_Effect):
    type: Literal["virtual-pilot"]
    points_per_level: int
    traits: list[str]


class AutoTurretsEffect(_Effect):
    type: Literal["auto-turrets"]


class TransformationEffect(_Effect):
    type: Literal["transformation"]


Effect = Annotated[
    CapacityEffect | WeaponBonusEffect | VirtualPilotEffect | AutoTurretsEffect | TransformationEffect,
    Field(discriminator="type"),
]


class Technology(PricedItem):
    speed: int | None = None
    power_use: str | None = None
    description: str
    system: str
    effects: list[Effect] = Field(default_factory=list)


class Accessory(PricedItem):
    notes: str = ""
    effects: list[Effect] = Field(default_factory=list)


class Maneuver(CatalogItem):
    soak: int
    handling: int
    notes: str = ""
    description: str = ""


class Chart(CatalogItem):
    columns: list[str]
    rows: list[list[str]]
    notes: str = ""


class MoveSpeed(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    move: int
    kmh: int
    mach: float


class MoveSpeedTable(CatalogItem):
    scale: str
    speeds: list[MoveSpeed]


class Interscale(CatalogItem):
    """Successes added or removed per scale step between attacker and target."""

    successes_per_step: int
    span: int = Field(ge=1, description="how many steps up and down a sheet lists")


# --- the stat-block text format (read by shipyard.convert.statblock) -----------------------


class _FormatPart(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class StatBlockPart(_FormatPart):
    """A named part of a value, e.g. "Armor 2" in "Soak: 3 (Armor 2, Energy Shields 1)"."""

    name: str
    aliases: list[str] = Field(default_factory=list)
    field: str
    source: str


class StatBlockLabel(_FormatPart):
    """One label of the block ("Soak:") and the design field its value fills."""

    id: str
    name: str
    aliases: list[str] = Field(default_factory=list)
    value: Literal["text", "scale", "number", "list"]
    field: str | None = Field(default=None, description="design field (text, scale, number)")
    kinds: list[str] = Field(default_factory=list, description="list: catalog kinds a name is looked up in, in order")
    custom: str | None = Field(default=None, description="list: the custom kind '(custom ...)' entries become")
    required: bool = False
    starts_block: bool = False
    assume: dict[str, int] = Field(default_factory=dict, description="value by scale family when the label is missing")
    parts: list[StatBlockPart] = Field(default_factory=list)
    source: str


class StatBlockWord(_FormatPart):
    """A word of a list entry: a mount ("Turreted"), "None", "additional", "custom", "-scale"."""

    id: str
    name: str
    aliases: list[str] = Field(default_factory=list)
    role: Literal["flag", "group", "none", "filler", "custom", "scale-suffix"]
    field: str | None = Field(default=None, description="flag/group: the entry field it sets")
    kinds: list[str] = Field(default_factory=list, description="flag/group: the catalog kinds it applies to")
    source: str


class StatBlockList(_FormatPart):
    """Where entries of one catalog kind go in the design, and how the text prints them."""

    kind: str
    noun: str = Field(description="one entry of the kind, for messages ('accessory')")
    field: str
    id_key: str
    count_key: str | None = None
    level_key: str | None = None
    scale_key: str | None = None
    print_cost: bool = Field(default=False, description="print '(cost)' after items without levels")
    source: str


class StatBlockCustom(_FormatPart):
    """Entries the catalog does not have, written 'Name (custom, Cost 2)'."""

    kind: str
    field: str
    name_key: str
    count_key: str | None = None
    scale_key: str | None = None
    number_key: str = Field(description="the key a lone number sets")
    keys: list[StatBlockPart] = Field(default_factory=list)
    source: str


class StatBlockCapacity(_FormatPart):
    """A published capacity before an item name ("250 cubic-meter Cargo Bay(2)")."""

    kind: str
    item: str
    figure: str = Field(description="id of the derived figure that holds the capacity")
    units: list[str] = Field(default_factory=list)
    source: str


class StatBlockPlural(_FormatPart):
    singular: str
    plural: str
    source: str


class StatBlockName(_FormatPart):
    """How the text prints one catalog item, singular and plural ("1 Missile", "3 Missiles")."""

    kind: str
    id: str
    one: str
    many: str
    source: str


class StatBlockScaleName(_FormatPart):
    name: str
    scale: str
    source: str


class StatBlockFormat(CatalogItem):
    """A ruleset's stat-block text: labels, list words, plurals; see docs/conversion.md."""

    labels: list[StatBlockLabel] = Field(min_length=1)
    words: list[StatBlockWord] = Field(default_factory=list)
    lists: list[StatBlockList] = Field(default_factory=list)
    custom: list[StatBlockCustom] = Field(default_factory=list)
    capacities: list[StatBlockCapacity] = Field(default_factory=list)
    plurals: list[StatBlockPlural] = Field(default_factory=list)
    names: list[StatBlockName] = Field(default_factory=list)
    scale_names: list[StatBlockScaleName] = Field(default_factory=list)


ITEM_KINDS: dict[str, type[CatalogItem]] = {
    "statblock": StatBlockFormat,
    "interscale": Interscale,
    "weapons": Weapon,
    "mounts": Mount,
    "technology": Technology,
    "accessories": Accessory,
    "maneuvers": Maneuver,
    "charts": Chart,
    "move_speeds": MoveSpeedTable,
}

# --- the design ----------------------------------------------------------------------------

_Name = Annotated[str, Field(min_length=1, max_length=200)]
_Text = Annotated[str, Field(max_length=20_000)]
_Stat = Annotated[int, Field(ge=-99, le=99)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class WeaponChoice(_Strict):
    weapon: _Name = Field(description="weapon id, name or alias from the catalog")
    count: int = Field(default=1, ge=1, le=1000)
    turret: bool = False
    fire_link: str | None = Field(default=None, max_length=50, description="fire-link group name")
    scale: str | None = Field(default=None, max_length=40, description="component scale for out-of-scale weapons")


class ItemChoice(_Strict):
    id: _Name = Field(description="catalog id, name or alias")
    level: int = Field(default=1, ge=1, le=1000)
    scale: str | None = Field(default=None, max_length=40, description="component scale for out-of-scale items")
    options: dict[str, Annotated[int, Field(ge=0, le=100)]] = Field(
        default_factory=dict, description="e.g. the AI's dexterity/piloting/gunnery spread"
    )


class CustomTechnology(_Strict):
    """A component bought as advanced technology: larger-scale weapons, house inventions."""

    name: _Name
    cost: int = Field(ge=0, le=1000, description="Power Points the Storyteller assigns")
    scale: str | None = Field(default=None, max_length=40)
    description: _Text = ""


class CustomWeapon(_Strict):
    """A weapon not on the chart (e.g. converted from another system); the Storyteller prices it."""

    name: _Name
    count: int = Field(default=1, ge=1, le=1000)
    speed: _Stat = 0
    damage: _Stat = Field(description="damage modifier added to the attack pool")
    range: int | None = Field(default=None, ge=0, le=1000)
    cost: int = Field(default=0, ge=0, le=1000, description="Weapon Points per weapon the Storyteller assigns")
    scale: str | None = Field(default=None, max_length=40, description="component scale for out-of-scale weapons")
    notes: _Text = ""


class ConversionNote(_Strict):
    """One line of a conversion report: what became of one field of the original."""

    field: str = Field(max_length=200)
    status: Literal["converted", "note", "assumed", "conflict"]
    original: str = Field(default="", max_length=2000)
    value: str = Field(default="", max_length=2000)
    message: str = Field(default="", max_length=2000)
    source: str = Field(default="", max_length=500)


class Conversion(_Strict):
    """Marks a design converted from another game: its budgets are shown for information."""

    system: _Name
    source: dict[str, Any] = Field(default_factory=dict, description="the original record, as read")
    report: list[ConversionNote] = Field(default_factory=list, max_length=1000)


class Pilot(_Strict):
    name: str = Field(default="", max_length=200)
    dexterity: int = Field(ge=0, le=20)
    piloting: int = Field(ge=0, le=20)
    gunnery: int = Field(default=0, ge=0, le=20)
    willpower: int = Field(default=0, ge=0, le=20)


class Form(_Strict):
    """An alternate transformation form: what differs from the primary form."""

    name: _Name
    concept: _Text | None = None
    handling: _Stat | None = None
    soak: _Stat | None = None
    armor: _Stat | None = None
    shields: _Stat | None = None
    move: _Stat | None = None
    power: _Stat | None = None
    structure: _Stat | None = None
    weapons: list[WeaponChoice] | None = Field(default=None, max_length=200)
    technology: list[ItemChoice] | None = Field(default=None, max_length=200)
    accessories: list[ItemChoice] | None = Field(default=None, max_length=200)


class Design(_Strict):
    """A Space Fighter Alpha spacecraft as the stat block prints it, plus its build choices."""

    name: _Name
    concept: _Text = ""
    scale: str = Field(default="starfighter", max_length=40)
    crew: int = Field(ge=0, le=10_000_000)
    handling: _Stat
    soak: _Stat
    armor: _Stat | None = Field(default=None, description="Soak as armor; leave out until Soak is divided")
    shields: _Stat | None = Field(default=None, description="Soak as energy shields")
    move: _Stat
    power: _Stat
    structure: _Stat
    priority: list[str] | None = Field(default=None, description="pinned attribute priority, highest first")
    weapons: list[WeaponChoice] = Field(default_factory=list, max_length=200)
    technology: list[ItemChoice] = Field(default_factory=list, max_length=200)
    custom_technology: list[CustomTechnology] = Field(default_factory=list, max_length=200)
    custom_weapons: list[CustomWeapon] = Field(default_factory=list, max_length=200)
    accessories: list[ItemChoice] = Field(default_factory=list, max_length=200)
    budgets: dict[str, Annotated[int, Field(ge=0, le=10_000)]] = Field(
        default_factory=dict, description="Storyteller budget settings by pool id"
    )
    pilot: Pilot | None = None
    forms: list[Form] = Field(default_factory=list, max_length=20)
    notes: _Text = ""
    converted: Conversion | None = Field(default=None, description="set when converted from another game")

    @field_validator("name")
    @classmethod
    def _strip(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("name must not be blank")
        return v


# --- resolving references ---------------------------------------------------------------


def _priority_rule(catalog: Catalog) -> Params | None:
    return next((r.params for r in catalog.rules if r.definition.type == "priority"), None)


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
    s = catalog.scales.parse(text)
    if s is None:
        problems.append(Problem(f"unknown scale {text!r}", path=path, allowed=", ".join(catalog.scales.ids())))
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
    scale = catalog.scales.parse(design.scale)
    if scale is None or not scale.designable:
        problems.append(
            Problem(
                f"{design.scale!r} is not a scale a spacecraft can be designed at",
                path="scale",
                allowed=", ".join(i for i in catalog.scales.ids() if i != "street-fighter"),
            )
        )
    prio = _priority_rule(catalog)
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


def new_design(name: str, scale: str, catalog: Catalog) -> Design:
    """A fresh design at the rules' base values: every attribute 0, Structure 10."""
    s = catalog.scales.parse(scale)
    crew = 1 if s is None or s.family != "starship" else 10
    base = {st.id: st.base or 0 for st in catalog.meta.stats}
    return Design(
        name=name,
        scale=scale,
        crew=crew,
        handling=base.get("handling", 0),
        soak=base.get("soak", 0),
        move=base.get("move", 0),
        power=base.get("power", 0),
        structure=base.get("structure", 10),
    )


# --- the neutral view ---------------------------------------------------------------------


def _design_scale(design: Design, catalog: Catalog) -> Scale:
    s = catalog.scales.parse(design.scale)
    if s is None:  # a design built in code, not loaded: evaluate must still not raise
        s = catalog.scales.parse(catalog.scales.designable_ids()[0])
    assert s is not None
    return s


def view(design: Design, catalog: Catalog) -> DesignView:
    def comp(text: str | None) -> Scale | None:
        return catalog.scales.parse(text) if text else None

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
    prio = next((r for r in catalog.rules if r.definition.type == "priority"), None)
    pinned = {prio.definition.id: list(design.priority)} if prio and design.priority else {}
    marks = frozenset({"converted"}) if design.converted is not None else frozenset()
    return DesignView(_design_scale(design, catalog), stats, selections, pinned, dict(design.budgets), marks)


# --- helpers over the selected items ------------------------------------------------------


def _selected_items(
    ctx: Context, kinds: tuple[str, ...] = ("technology", "accessories")
) -> list[tuple[Selection, PricedItem]]:
    out = []
    for sel in ctx.view.selections:
        if sel.kind in kinds:
            item = ctx.catalog.item(sel.kind, sel.id)
            if isinstance(item, PricedItem):
                out.append((sel, item))
    return out


def _effects(ctx: Context, effect_type: type[_Effect]) -> list[tuple[Selection, PricedItem, Any]]:
    out = []
    for sel, item in _selected_items(ctx):
        for eff in getattr(item, "effects", []):
            if isinstance(eff, effect_type):
                out.append((sel, item, eff))
    return out


def _scaled(ctx: Context, per_scale: dict[str, int]) -> int:
    found = ctx.catalog.scales.lookup_family(per_scale, ctx.scale)
    if found is None:
        return 0
    value, steps = found
    return int(value * ctx.catalog.scales.multiplier**steps)


def capacities(ctx: Context) -> dict[str, tuple[int, str, str]]:
    """Capacity totals (value, unit, how) from every capacity effect, x multiplier per scale step."""
    cached = ctx.notes.get("capacities")
    if cached is None:
        cached = ctx.notes["capacities"] = _capacities(ctx)
    return dict(cached)


def _capacities(ctx: Context) -> dict[str, tuple[int, str, str]]:
    out: dict[str, tuple[int, str, str]] = {}
    effects: list[tuple[int, CapacityEffect, str]] = []
    for kind in ("technology", "accessories"):
        for item in ctx.catalog.kind(kind).values():
            for eff in getattr(item, "effects", []):
                if isinstance(eff, CapacityEffect):
                    level = sum(s.level for s in ctx.view.selected(kind) if s.id == item.id)
                    effects.append((level, eff, item.name))
    for level, eff, name in effects:
        included = _scaled(ctx, eff.included) if eff.included else 0
        per = _scaled(ctx, eff.per_level)
        if not included and not (level and per):
            continue
        unit_found = ctx.catalog.scales.lookup_family(eff.unit, ctx.scale)
        unit = unit_found[0] if unit_found else ""
        total = included + level * per
        how = " + ".join(
            x for x in (f"{included} included" if included else "", f"{name} {level} x {per}" if level else "") if x
        )
        prev = out.get(eff.capacity)
        if prev:
            total += prev[0]
            how = f"{prev[2]} + {how}"
        out[eff.capacity] = (total, unit, how)
    return out


def _virtual_pilot(ctx: Context) -> tuple[Selection, PricedItem, VirtualPilotEffect] | None:
    found = _effects(ctx, VirtualPilotEffect)
    return found[0] if found else None


def _technology_choice(ctx: Context, sel: Selection) -> ItemChoice | None:
    design: Design = ctx.design
    idx = int(sel.path.split("[")[1].rstrip("]"))
    return design.technology[idx] if idx < len(design.technology) else None


# --- mechanisms particular to Space Fighter Alpha -----------------------------------------


class WeaponCostParams(Params):
    pool: str
    turret: str = Field(description="mount id whose cost a turreted weapon adds")
    fire_link: str = Field(description="mount id whose cost a fire-linked weapon adds")
    smaller_scale_divisor: int = Field(ge=2)


def apply_weapon_cost(ctx: Context, p: WeaponCostParams) -> None:
    """Weapon Points: each weapon's cost, +turret, +fire-link, /5 per scale step down."""
    design: Design = ctx.design
    turret = ctx.catalog.item("mounts", p.turret)
    link = ctx.catalog.item("mounts", p.fire_link)
    t_cost = turret.cost if isinstance(turret, PricedItem) else 0
    l_cost = link.cost if isinstance(link, PricedItem) else 0
    pool = ctx.ledger[p.pool]
    for i, (w, sel) in enumerate(zip(design.weapons, ctx.view.selected("weapons"), strict=True)):
        weapon = ctx.catalog.item("weapons", w.weapon)
        if not isinstance(weapon, Weapon):
            ctx.findings.add(
                "error",
                "unknown-item",
                f"weapon {w.weapon!r} is not in the catalog",
                path=f"weapons[{i}].weapon",
                actual=w.weapon,
                rule=p.id,
                source=ctx.catalog.cite(p.source),
            )
            continue
        comp = sel.component_scale
        if comp is not None and comp.index > ctx.scale.index:
            ctx.findings.add(
                "error",
                "component-scale-larger",
                f"{weapon.name} at {comp.name} scale is larger than this {ctx.scale.name}-scale design; "
                "buy larger-scale components as advanced technology (custom technology)",
                path=f"weapons[{i}].scale",
                actual=comp.name,
                limit=ctx.scale.name,
                rule=p.id,
                source=ctx.catalog.cite("Out-of-Scale Designs"),
            )
        parts = [str(weapon.cost)]
        each = weapon.cost
        if w.turret:
            each += t_cost
            parts.append(f"{t_cost} turret")
        if w.fire_link:
            each += l_cost
            parts.append(f"{l_cost} fire-linked")
        factor = scale_factor(ctx, sel, p.smaller_scale_divisor)
        label = f"{w.count} x {weapon.name}"
        if len(parts) > 1:
            label += f" ({' + '.join(parts)} each)"
        if factor != 1 and comp is not None:
            label += f", {comp.name} scale x {factor}"
        pool.cost(
            label,
            Fraction(each * w.count) * factor,
            source=ctx.catalog.cite(weapon.source),
            path=f"weapons[{i}]",
            rule=p.id,
        )
    for i, c in enumerate(design.custom_weapons):
        _custom_weapon_cost(ctx, p, i, c)


def _custom_weapon_cost(ctx: Context, p: WeaponCostParams, i: int, c: CustomWeapon) -> None:
    """A custom weapon costs what the Storyteller assigns, /5 per scale step down."""
    comp = ctx.catalog.scales.parse(c.scale) if c.scale else None
    if comp is not None and comp.index > ctx.scale.index:
        ctx.findings.add(
            "error",
            "component-scale-larger",
            f"{c.name} at {comp.name} scale is larger than this {ctx.scale.name}-scale design; "
            "buy larger-scale components as advanced technology (custom technology)",
            path=f"custom_weapons[{i}].scale",
            actual=comp.name,
            limit=ctx.scale.name,
            rule=p.id,
            source=ctx.catalog.cite("Out-of-Scale Designs"),
        )
    sel = Selection("custom_weapons", c.name, f"custom_weapons[{i}]", 1, c.count, comp)
    factor = scale_factor(ctx, sel, p.smaller_scale_divisor)
    label = f"{c.count} x {c.name} (custom, {c.cost} each)"
    if factor != 1 and comp is not None:
        label += f", {comp.name} scale x {factor}"
    ctx.ledger[p.pool].cost(
        label, Fraction(c.cost * c.count) * factor, source=ctx.catalog.cite(p.source), path=sel.path, rule=p.id
    )


class FireLinkParams(Params):
    min_size: int = Field(ge=2)


def apply_fire_link_groups(ctx: Context, p: FireLinkParams) -> None:
    """ "Allows two or more weapons to be fired at the same time": a group needs two."""
    design: Design = ctx.design
    groups: dict[str, tuple[int, int]] = {}
    for i, w in enumerate(design.weapons):
        if w.fire_link:
            n, first = groups.get(w.fire_link, (0, i))
            groups[w.fire_link] = (n + w.count, first)
    for name, (n, first) in groups.items():
        if n < p.min_size:
            ctx.findings.add(
                "error",
                "fire-link-group-too-small",
                f"fire-link group {name!r} has {n} weapon; a linked group needs {p.min_size} or more",
                path=f"weapons[{first}].fire_link",
                actual=n,
                limit=p.min_size,
                rule=p.id,
                source=ctx.catalog.cite(p.source),
            )


class CustomTechParams(Params):
    pool: str


def apply_custom_technology(ctx: Context, p: CustomTechParams) -> None:
    """Larger-scale components "simply purchase the appropriate Advanced Technology"."""
    design: Design = ctx.design
    for i, c in enumerate(design.custom_technology):
        label = f"{c.name} (custom" + (f", {c.scale} scale" if c.scale else "") + ")"
        ctx.ledger[p.pool].cost(
            label, c.cost, source=ctx.catalog.cite(p.source), path=f"custom_technology[{i}]", rule=p.id
        )


class GunnerParams(Params):
    pilots: int = Field(ge=0, description="crew members who fly and cannot man a turret")
    virtual_pilot_gunners: int = Field(ge=0)
    severity: Severity = Severity.WARNING


def apply_gunners(ctx: Context, p: GunnerParams) -> None:
    """Each turreted weapon needs a gunner other than the pilot, unless Auto-Turrets."""
    design: Design = ctx.design
    turreted = sum(w.count for w in design.weapons if w.turret)
    if not turreted or _effects(ctx, AutoTurretsEffect):
        return
    ai = _virtual_pilot(ctx) is not None
    gunners = max(design.crew - p.pilots, 0) + (p.virtual_pilot_gunners if ai else 0)
    if gunners < turreted:
        first = next(i for i, w in enumerate(design.weapons) if w.turret)
        ctx.findings.add(
            p.severity,
            "gunner-shortage",
            f"{turreted} turreted weapons need {turreted} gunners besides the pilot; this crew of {design.crew}"
            + (" with its AI" if ai else "")
            + f" has {gunners}",
            path=f"weapons[{first}].turret",
            actual=gunners,
            limit=turreted,
            rule=p.id,
            source=ctx.catalog.cite(p.source),
        )


class SpreadParams(Params):
    unassigned_severity: Severity = Severity.WARNING
    mismatch_severity: Severity = Severity.ERROR


def apply_virtual_pilot_spread(ctx: Context, p: SpreadParams) -> None:
    """AI: points per level spread over the virtual pilot's traits; the spread must add up."""
    found = _virtual_pilot(ctx)
    if found is None:
        return
    sel, item, eff = found
    choice = _technology_choice(ctx, sel)
    points = eff.points_per_level * sel.level
    spread = dict(choice.options) if choice else {}
    unknown = set(spread) - set(eff.traits)
    src = ctx.catalog.cite(item.source)
    if unknown:
        ctx.findings.add(
            p.mismatch_severity,
            "ai-spread-mismatch",
            f"{item.name} spread names {', '.join(sorted(unknown))}; it may use {', '.join(eff.traits)}",
            path=f"{sel.path}.options",
            actual=sorted(unknown),
            limit=eff.traits,
            rule=p.id,
            source=src,
        )
    elif not spread:
        ctx.findings.add(
            p.unassigned_severity,
            "ai-spread-unassigned",
            f"{item.name} ({sel.level}) has {points} points for {', '.join(eff.traits)} not yet assigned",
            path=f"{sel.path}.options",
            actual=0,
            limit=points,
            rule=p.id,
            source=src,
        )
    elif sum(spread.values()) != points:
        ctx.findings.add(
            p.mismatch_severity,
            "ai-spread-mismatch",
            f"{item.name} ({sel.level}) spread adds up to {sum(spread.values())}, not {points}",
            path=f"{sel.path}.options",
            actual=sum(spread.values()),
            limit=points,
            rule=p.id,
            source=src,
        )


class CrewParams(Params):
    scale: str = Field(description="the scale family these guidelines are for")
    min_per_structure: int = Field(ge=0)
    max_per_structure: int = Field(ge=1)
    quarters: str = Field(description="capacity id that houses the crew")
    severity: Severity = Severity.WARNING


def apply_crew_guidelines(ctx: Context, p: CrewParams) -> None:
    """Starship crews: at least Structure, at most 10 x Structure, x5 per step; quarters."""
    if ctx.scale.family != p.scale:
        return
    design: Design = ctx.design
    mult = ctx.catalog.scales.multiplier**ctx.scale.steps_above_family
    low = design.structure * p.min_per_structure * mult
    high = design.structure * p.max_per_structure * mult
    src = ctx.catalog.cite(p.source)
    x = f" x {mult}" if mult > 1 else ""
    if design.crew < low:
        ctx.findings.add(
            p.severity,
            "crew-below-minimum",
            f"crew {design.crew} is below the guideline minimum {low} (Structure {design.structure}{x})",
            path="crew",
            actual=design.crew,
            limit=low,
            rule=p.id,
            source=src,
        )
    if design.crew > high:
        ctx.findings.add(
            p.severity,
            "crew-above-maximum",
            f"crew {design.crew} is above the guideline maximum {high} "
            f"({p.max_per_structure} x Structure {design.structure}{x})",
            path="crew",
            actual=design.crew,
            limit=high,
            rule=p.id,
            source=src,
        )
    quarters = capacities(ctx).get(p.quarters)
    if quarters is not None and design.crew > quarters[0]:
        ctx.findings.add(
            p.severity,
            "crew-above-quarters",
            f"crew {design.crew} does not fit the quarters for {quarters[0]} ({quarters[2]})",
            path="accessories",
            actual=design.crew,
            limit=quarters[0],
            rule=p.id,
            source=src,
        )


class SeatsParams(Params):
    scale: str
    seats: str = Field(description="capacity id of the seats")
    severity: Severity = Severity.WARNING


def apply_seats(ctx: Context, p: SeatsParams) -> None:
    """Starfighters: the pilot plus one seat per Co-Pilot or Crew Station; someone must fly."""
    design: Design = ctx.design
    src = ctx.catalog.cite(p.source)
    if design.crew == 0 and _virtual_pilot(ctx) is None:
        ctx.findings.add(
            p.severity,
            "no-pilot",
            "crew 0 and no Artificial Intelligence: nobody flies this craft",
            path="crew",
            actual=0,
            limit=1,
            rule=p.id,
            source=src,
        )
    if ctx.scale.family != p.scale:
        return
    seats = capacities(ctx).get(p.seats)
    if seats is not None and design.crew > seats[0]:
        ctx.findings.add(
            p.severity,
            "crew-above-seats",
            f"crew {design.crew} but only {seats[0]} seat{'s' if seats[0] != 1 else ''} ({seats[2]})",
            path="crew",
            actual=design.crew,
            limit=seats[0],
            rule=p.id,
            source=src,
        )


class TransformationParams(Params):
    severity: Severity = Severity.ERROR


def apply_transformation_forms(ctx: Context, p: TransformationParams) -> None:
    """Transformation buys one extra form per level; forms need the technology."""
    if ctx.notes.get("form"):
        return
    design: Design = ctx.design
    found = _effects(ctx, TransformationEffect)
    levels = sum(sel.level for sel, _, _ in found)
    if levels != len(design.forms):
        ctx.findings.add(
            p.severity,
            "transformation-forms-mismatch",
            f"{len(design.forms)} alternate forms given; Transformation level {levels} pays for {levels}",
            path="forms",
            actual=len(design.forms),
            limit=levels,
            rule=p.id,
            source=ctx.catalog.cite(p.source),
        )


RULE_TYPES: dict[str, RuleType] = {
    "weapon-cost": RuleType(WeaponCostParams, apply_weapon_cost),
    "fire-link-groups": RuleType(FireLinkParams, apply_fire_link_groups),
    "custom-technology-cost": RuleType(CustomTechParams, apply_custom_technology),
    "gunners": RuleType(GunnerParams, apply_gunners),
    "virtual-pilot-spread": RuleType(SpreadParams, apply_virtual_pilot_spread),
    "crew-guidelines": RuleType(CrewParams, apply_crew_guidelines),
    "seats": RuleType(SeatsParams, apply_seats),
    "transformation-forms": RuleType(TransformationParams, apply_transformation_forms),
}

# --- transformation forms -----------------------------------------------------------------

_FORM_FIELDS = (
    "concept",
    "handling",
    "soak",
    "armor",
    "shields",
    "move",
    "power",
    "structure",
    "weapons",
    "technology",
    "accessories",
)


def variants(design: Design) -> list[tuple[str, Design]]:
    """Each alternate form as a whole design: the primary with the form's changes."""
    out = []
    for form in design.forms:
        changes = {f: getattr(form, f) for f in _FORM_FIELDS if getattr(form, f) is not None}
        out.append(
            (form.name, design.model_copy(update={**changes, "name": f"{design.name}: {form.name}", "forms": []}))
        )
    return out


def compare_variants(ctx: Context, forms: list[tuple[str, Context]]) -> None:
    """ "The total point value of each spacecraft design must equal the original", per pool."""
    rule = next((r for r in ctx.catalog.rules if r.definition.type == "transformation-forms"), None)
    source = ctx.catalog.cite(rule.params.source) if rule else ""
    for i, (name, fctx) in enumerate(forms):
        for pool_id, pool in ctx.ledger.pools.items():
            primary = _pool_value(pool.lines)
            other = _pool_value(fctx.ledger[pool_id].lines)
            if primary != other:
                ctx.findings.add(
                    "error",
                    "form-value-mismatch",
                    f"form {name!r} spends {_num(other)} {pool.name}; the primary form spends {_num(primary)}",
                    path=f"forms[{i}]",
                    actual=_num(other),
                    limit=_num(primary),
                    rule=rule.definition.id if rule else "",
                    source=source,
                )


def _pool_value(lines: list[Any]) -> Fraction:
    """Net points a form puts into a pool: costs minus gains, exchanges excluded."""
    total = Fraction(0)
    for ln in lines:
        if ln.rule and "exchange" in ln.rule:
            continue
        total += ln.amount if ln.kind == "cost" else -ln.amount
    return total


def _num(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else float(x)


# --- derived figures ------------------------------------------------------------------------


def _signed(n: int) -> str:
    return f"{n:+d}"


def _move_speed(ctx: Context, move: int) -> tuple[int, float] | None:
    tables = {t.scale: t for t in ctx.catalog.kind("move_speeds").values() if isinstance(t, MoveSpeedTable)}
    found = ctx.catalog.scales.lookup(tables, ctx.scale)
    if found is None:
        return None
    row = next((r for r in found[0].speeds if r.move == move), None)
    return (row.kmh, row.mach) if row else None


def _weapon_bonus(ctx: Context, weapon: Weapon) -> tuple[int, int, list[str]]:
    dmg = rng = 0
    names = []
    for _, item, eff in _effects(ctx, WeaponBonusEffect):
        if eff.tag in weapon.tags:
            dmg += eff.damage
            rng += eff.range
            names.append(item.name)
    return dmg, rng, names


def _attack_text(design: Design, weapon: Weapon | None, damage: int, turret: bool) -> str:
    """The attack pool: a turret's gunner uses Gunnery, the pilot Piloting (Auto-Turrets too)."""
    if weapon is not None and weapon.missile is not None:
        return f"{weapon.missile.attack_pool}{damage:+d} = {weapon.missile.attack_pool + damage}"
    h = design.handling
    p = design.pilot
    if p is not None and not turret:
        return str(p.dexterity + p.piloting + h + damage)
    skill = "Gunnery" if turret else "Piloting"
    return f"Dex+{skill}{h:+d}{damage:+d}"


def _component_scale_name(ctx: Context, scale: str | None) -> str:
    parsed = ctx.catalog.scales.parse(scale) if scale else None
    return parsed.name if parsed is not None else ctx.scale.name


def _weapons_table(ctx: Context) -> Table:
    design: Design = ctx.design
    auto = bool(_effects(ctx, AutoTurretsEffect))
    rows: list[list[Any]] = []
    for w in design.weapons:
        weapon = ctx.catalog.item("weapons", w.weapon)
        if not isinstance(weapon, Weapon):
            continue
        dmg_bonus, rng_bonus, by = _weapon_bonus(ctx, weapon)
        damage = weapon.damage + dmg_bonus
        mount = ", ".join(
            x for x in ("turret" if w.turret else "forward", f"fire-linked {w.fire_link}" if w.fire_link else "") if x
        )
        notes = [weapon.notes] if weapon.notes else []
        if by:
            notes.append(f"with {', '.join(by)}")
        rows.append(
            [
                weapon.name,
                w.count,
                mount,
                _component_scale_name(ctx, w.scale),
                _signed(weapon.speed),
                _signed(damage) if weapon.damage_modifier else str(damage),
                weapon.range + rng_bonus,
                _attack_text(design, weapon, damage, w.turret and not auto),
                "; ".join(notes),
            ]
        )
    for c in design.custom_weapons:
        rows.append(
            [
                f"{c.name} (custom)",
                c.count,
                "forward",
                _component_scale_name(ctx, c.scale),
                _signed(c.speed),
                _signed(c.damage),
                "" if c.range is None else c.range,
                _attack_text(design, None, c.damage, False),
                c.notes,
            ]
        )
    return Table(
        id="weapons",
        title="Weapons",
        columns=["Weapon", "Count", "Mount", "Scale", "Speed", "Damage", "Range", "Attack pool", "Notes"],
        rows=rows,
        notes="Attack pool before the target's Soak is subtracted.",
        source=ctx.catalog.cite("Attacking"),
    )


def _interscale_table(ctx: Context) -> Table | None:
    rule = next((i for i in ctx.catalog.kind("interscale").values() if isinstance(i, Interscale)), None)
    if rule is None:
        return None
    rows: list[list[Any]] = []
    for step in range(-rule.span, rule.span + 1):
        other = ctx.catalog.scales.at_index(ctx.scale.index + step)
        if other is None or step == 0:
            continue
        n = abs(step) * rule.successes_per_step
        # attacking a larger scale loses successes; attacking a smaller one gains them
        attacking, attacked = (f"-{n}", f"+{n}") if step > 0 else (f"+{n}", f"-{n}")
        rows.append([other.name, f"{step:+d}", attacking, attacked])
    return Table(
        id="interscale",
        title="Interscale combat",
        columns=["Other scale", "Steps", "This craft attacks it", "It attacks this craft"],
        rows=rows,
        notes="Successes removed from (-) or added to (+) a damage roll; added successes need a successful roll.",
        source=ctx.catalog.cite(rule.source),
    )


def _technology_table(ctx: Context) -> Table:
    design: Design = ctx.design
    rows: list[list[Any]] = []
    for sel, item in _selected_items(ctx, ("technology",)):
        if not isinstance(item, Technology):
            continue
        levels = sel.level if item.per_level else 1
        choice = _technology_choice(ctx, sel)
        spread = ", ".join(f"{k} {v}" for k, v in choice.options.items()) if choice and choice.options else ""
        rows.append(
            [
                item.name,
                sel.level if item.per_level else "",
                item.cost * levels,
                _signed(item.speed) if item.speed is not None else "",
                item.power_use or "",
                item.system + (f" Spread: {spread}." if spread else ""),
            ]
        )
    for c in design.custom_technology:
        rows.append([c.name + " (custom)", "", c.cost, "", "", c.description])
    pool_cost = {sel.id: item for sel, item in _selected_items(ctx, ("technology",))}
    del pool_cost
    return Table(
        id="technology",
        title="Advanced Technology",
        columns=["Technology", "Level", "Power Points", "Speed", "Power use", "System"],
        rows=rows,
        source=ctx.catalog.cite("Advanced Technology"),
    )


def _accessories_table(ctx: Context) -> Table:
    rows: list[list[Any]] = []
    for sel, item in _selected_items(ctx, ("accessories",)):
        rows.append([item.name, sel.level if item.per_level else "", getattr(item, "notes", "")])
    return Table(
        id="accessories",
        title="Accessories",
        columns=["Accessory", "Level", "Notes"],
        rows=rows,
        source=ctx.catalog.cite("Accessories"),
    )


def derive(ctx: Context) -> Derived:
    design: Design = ctx.design
    figs: list[Figure] = []
    cite = ctx.catalog.cite

    figs.append(Figure(id="scale", label="Scale", value=ctx.scale.name, source=cite("Scale")))
    figs.append(
        Figure(
            id="handling",
            label="Handling",
            value=design.handling,
            detail="modifies the pilot's Dexterity + Piloting",
            source=cite("Handling"),
        )
    )
    split = (
        f"Armor {design.armor or 0} + Energy Shields {design.shields or 0}"
        if design.armor is not None or design.shields is not None
        else "not yet divided into Armor and Energy Shields"
    )
    figs.append(Figure(id="soak", label="Soak", value=design.soak, detail=split, source=cite("Soak")))
    speed = _move_speed(ctx, design.move)
    figs.append(
        Figure(
            id="move",
            label="Move",
            value=design.move,
            unit="hexes",
            detail=(f"{speed[0]:,.0f} km/h, Mach {speed[1]}" if speed else ("stationary" if design.move == 0 else "")),
            source=cite("Real-World Figures"),
        )
    )
    if speed:
        figs.append(
            Figure(id="move-kmh", label="Speed", value=speed[0], unit="km/h", source=cite("Real-World Figures"))
        )
        figs.append(
            Figure(id="move-mach", label="Mach", value=speed[1], unit="Mach", source=cite("Real-World Figures"))
        )
    figs.append(
        Figure(id="power", label="Power", value=design.power, detail="pool for special maneuvers", source=cite("Power"))
    )
    figs.append(
        Figure(
            id="structure-track",
            label="Structure track",
            value=design.structure * 2 + 1,
            unit="boxes",
            detail=f"{design.structure} down to 0 (scrapped) and to -{design.structure} (destroyed)",
            source=cite("Structure"),
        )
    )

    caps = capacities(ctx)
    for cap_id, (value, unit, how) in caps.items():
        label = cap_id.replace("-", " ").capitalize()
        figs.append(
            Figure(
                id=f"capacity-{cap_id}",
                label=label,
                value=value,
                unit="" if unit.lower() == label.lower() else unit,
                detail=how,
                source=cite("Advanced Technology"),
            )
        )
    mult = ctx.catalog.scales.multiplier**ctx.scale.steps_above_family
    crew_rule = next((r.params for r in ctx.catalog.rules if isinstance(r.params, CrewParams)), None)
    if crew_rule is not None and ctx.scale.family == crew_rule.scale:
        figs.append(
            Figure(
                id="crew-minimum",
                label="Crew minimum",
                value=design.structure * crew_rule.min_per_structure * mult,
                detail="guideline",
                source=cite(crew_rule.source),
            )
        )
        figs.append(
            Figure(
                id="crew-maximum",
                label="Crew maximum",
                value=design.structure * crew_rule.max_per_structure * mult,
                detail="guideline",
                source=cite(crew_rule.source),
            )
        )
    figs.append(Figure(id="crew", label="Crew", value=design.crew))

    gunner_needed = sum(w.count for w in design.weapons if w.turret)
    auto = bool(_effects(ctx, AutoTurretsEffect))
    figs.append(
        Figure(
            id="gunners-needed",
            label="Gunners needed",
            value=0 if auto else gunner_needed,
            detail="Auto-Turrets: the pilot fires them" if auto and gunner_needed else "",
            source=cite("Weapons"),
        )
    )

    vp = _virtual_pilot(ctx)
    if vp is not None:
        sel, item, eff = vp
        choice = _technology_choice(ctx, sel)
        spread = choice.options if choice else {}
        figs.append(
            Figure(
                id="virtual-pilot",
                label=item.name,
                value=eff.points_per_level * sel.level,
                unit="points",
                detail=", ".join(f"{t.capitalize()} {spread.get(t, 0)}" for t in eff.traits)
                if spread
                else "not assigned",
                source=cite(item.source),
            )
        )

    h = design.handling
    p = design.pilot
    if p is not None:
        figs.append(
            Figure(
                id="attack-pool",
                label="Pilot attack pool",
                value=p.dexterity + p.piloting + h,
                detail=f"Dexterity {p.dexterity} + Piloting {p.piloting} + Handling {h:+d}"
                " + weapon Damage - target Soak",
                source=cite("Attacking"),
            )
        )
        figs.append(
            Figure(
                id="soak-pool",
                label="Soak pool",
                value=p.dexterity + p.piloting + design.soak + h,
                detail=f"Dexterity {p.dexterity} + Piloting {p.piloting} + Soak {design.soak} + Handling {h:+d}"
                " + maneuver modifiers",
                source=cite("Soak"),
            )
        )
        figs.append(
            Figure(
                id="speed-base",
                label="Base Speed",
                value=p.dexterity + p.piloting,
                detail="Dexterity + Piloting + the weapon's or system's Speed modifier",
                source=cite("Turn Order"),
            )
        )
    else:
        figs.append(
            Figure(
                id="attack-pool",
                label="Pilot attack pool",
                value=f"Dex + Piloting {h:+d} + Damage",
                detail="minus the target's Soak",
                source=cite("Attacking"),
            )
        )
        figs.append(
            Figure(
                id="soak-pool",
                label="Soak pool",
                value=f"Dex + Piloting + {design.soak} {h:+d}",
                detail="plus maneuver modifiers",
                source=cite("Soak"),
            )
        )
    figs.append(
        Figure(
            id="gunner-attack-pool",
            label="Gunner attack pool",
            value=f"Dex + Gunnery {h:+d} + Damage",
            detail="minus the target's Soak",
            source=cite("Attacking"),
        )
    )

    robot_parts = {"legs", "manipulator-arms"}
    if design.forms:
        forms = ", ".join(
            f.name
            + (
                " (robot)"
                if robot_parts <= {a.id for a in (f.accessories if f.accessories is not None else design.accessories)}
                else ""
            )
            for f in design.forms
        )
        figs.append(
            Figure(
                id="forms",
                label="Transformation forms",
                value=len(design.forms),
                detail=forms,
                source=cite("Advanced Technology: Transformation"),
            )
        )

    tables = [_weapons_table(ctx), _technology_table(ctx), _accessories_table(ctx)]
    interscale = _interscale_table(ctx)
    if interscale is not None:
        tables.append(interscale)
    return Derived(figures=figs, tables=tables)
