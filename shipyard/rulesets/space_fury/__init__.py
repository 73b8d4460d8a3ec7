"""Space Fury: fighters built from enhancements, pilots bought by experience, forces.

Every number lives in ``catalogs/space-fury``; this module holds what the data cannot
say. A design is one of three kinds:

- a **fighter**: the enhancements bought from the three d10 tables (or rolled on them,
  with the seed and the roll log kept), optionally crewed by a pilot;
- a **pilot**: experience (XP), skills and quirks; the level follows from the XP;
- a **force**: fighters (each with its pilot) and reserve pilots. Its members are
  evaluated as the design's variants, the core's way of evaluating parts alongside a
  design, so each member gets its own report and the force adds up their costs.

Counting uses the core's pools as tallies: every enhancement is a line in the
"enhancements" tally, the fighter's cost (looked up in the Fighter Cost table) and the
pilot's XP are lines in the "points" tally.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, RootModel, ValidationError, model_validator

from shipyard.core.errors import InputError, Problem
from shipyard.core.findings import Severity
from shipyard.core.items import DEFERRED, ID_PATTERN, CatalogItem, Chart
from shipyard.core.model import Catalog, Context, DesignView, Selection
from shipyard.core.report import Derived, Figure, Table
from shipyard.core.rules import Params, RuleType, cite, flag
from shipyard.core.suggest import did_you_mean

# --- catalog item kinds ------------------------------------------------------------------


class _Data(BaseModel):
    model_config = DEFERRED


_Id = Annotated[str, Field(pattern=ID_PATTERN)]


class CostRow(_Data):
    count: int = Field(ge=0)
    cost: int = Field(ge=0)


class AddCountBeyond(_Data):
    """Beyond the last row each step adds its own count: cost(n) = cost(n - 1) + n."""

    type: Literal["add-count"]
    text: str = ""


class NothingBeyond(_Data):
    """The table stops at its last row."""

    type: Literal["none"]
    text: str = ""


class CostTable(CatalogItem):
    """A cost looked up from a count, as printed, with the rule that continues it."""

    counts: str = Field(description="what the rows count, e.g. enhancements")
    unit: str = "points"
    rows: list[CostRow] = Field(min_length=1)
    beyond: Annotated[AddCountBeyond | NothingBeyond, Field(discriminator="type")]

    @model_validator(mode="after")
    def _consecutive(self) -> CostTable:
        counts = [r.count for r in self.rows]
        if counts != list(range(counts[0], counts[0] + len(counts))):
            raise ValueError("rows must give consecutive counts, smallest first")
        return self

    def cost(self, n: int) -> int | None:
        """The cost of ``n``, or None where the table (and its continuation) gives none."""
        first, last = self.rows[0], self.rows[-1]
        if n < first.count:
            return None
        if n <= last.count:
            return self.rows[n - first.count].cost
        if isinstance(self.beyond, AddCountBeyond):
            # cost(last) + (last + 1) + (last + 2) + ... + n
            return last.cost + (n * (n + 1) - last.count * (last.count + 1)) // 2
        return None


FighterStat = Literal[
    "speed",
    "maneuver",
    "armor",
    "tohit",
    "detection",
    "detection-range",
    "seats",
    "fuel-days",
    "oxygen-days",
    "targets",
]
PilotTrait = Literal[
    "accuracy", "speed", "evasion", "stunts", "tactics", "taunt", "taunt-save", "cool", "luck", "leadership"
]


class StatEffect(_Data):
    """Adds to one of the fighter's figures (the basic systems give the base values)."""

    type: Literal["stat"]
    stat: FighterStat
    amount: int
    condition: str = Field(default="", description="when the modifier applies, as the text says it")


class WeaponEffect(_Data):
    """Gives the fighter one weapon of the catalog's weapons per unit bought."""

    type: Literal["weapon"]
    weapon: _Id


class MountEffect(_Data):
    """A mount (the Turret): how many weapons it carries and which kinds of weapon."""

    type: Literal["mount"]
    weapons: int = Field(ge=1)
    tags: list[str] = Field(min_length=1)


class ShieldEffect(_Data):
    type: Literal["shield"]
    hits: int = Field(ge=1, description="hits absorbed before the shield is blown")


class BoostEffect(_Data):
    """A one-shot modifier (the Afterburner), with what it costs to replace."""

    type: Literal["boost"]
    stat: FighterStat
    amount: int
    uses: int = Field(ge=1)
    replace_cost: int = Field(ge=0)


class AbilityEffect(_Data):
    """Something the craft or pilot can do that has no number (jump, cloak, ...)."""

    type: Literal["ability"]
    ability: _Id


class TraitEffect(_Data):
    """A pilot modifier from a skill or quirk."""

    type: Literal["trait"]
    trait: PilotTrait
    amount: int
    condition: str = ""
    who: Literal["self", "wingmen"] = "self"


FighterEffect = Annotated[
    StatEffect | WeaponEffect | MountEffect | ShieldEffect | BoostEffect | AbilityEffect,
    Field(discriminator="type"),
]
PilotEffect = Annotated[TraitEffect | AbilityEffect, Field(discriminator="type")]


class BasicSystem(CatalogItem):
    notes: str = ""
    effects: list[FighterEffect] = Field(default_factory=list)


class Enhancement(CatalogItem):
    cost: int = Field(ge=1, description="enhancements per purchase")
    units: int = Field(default=1, ge=1, description="units (missiles) one purchase gives")
    unit: str = Field(default="", description="what a unit is, when bought in units")
    notes: str = ""
    effects: list[FighterEffect] = Field(default_factory=list)


class ItemRow(_Data):
    roll: int = Field(ge=1)
    type: Literal["item"]
    item: _Id
    notes: str = ""


class SubtableRow(_Data):
    roll: int = Field(ge=1)
    type: Literal["table"]
    table: _Id
    notes: str = ""


class PickRow(_Data):
    roll: int = Field(ge=1)
    type: Literal["pick"]
    notes: str = ""


TableRow = Annotated[ItemRow | SubtableRow | PickRow, Field(discriminator="type")]


class EnhancementTable(CatalogItem):
    die: int = Field(ge=2, le=100)
    notes: str = ""
    rows: list[TableRow]

    @model_validator(mode="after")
    def _every_face_once(self) -> EnhancementTable:
        if sorted(r.roll for r in self.rows) != list(range(1, self.die + 1)):
            raise ValueError(f"rows must give each roll 1 to {self.die} exactly once")
        return self

    def row(self, roll: int) -> ItemRow | SubtableRow | PickRow:
        return next(r for r in self.rows if r.roll == roll)


class Weapon(CatalogItem):
    range: int | None = Field(default=None, ge=0, description="hexes; none for missiles, which move")
    damage: str = Field(pattern=r"^[+-](\d+|X)$", description="as printed: +0, +3, +X")
    tohit: int
    speed: int | None = None
    maneuver: int | None = None
    tags: list[str] = Field(default_factory=list)
    ammo: str = ""
    notes: str = ""


class PilotLevel(CatalogItem):
    level: int = Field(ge=1)
    xp: int = Field(ge=0)
    skills: int = Field(ge=0)
    reputation: str
    cool: int


class PilotSkill(CatalogItem):
    roll: int | None = Field(default=None, ge=1, description="its d10 roll; none for the first level's skill")
    notes: str = ""
    effects: list[PilotEffect] = Field(default_factory=list)


class Quirk(CatalogItem):
    low: int = Field(ge=1)
    high: int = Field(ge=1)
    description: str
    requires_reputation: str | None = None
    effects: list[TraitEffect] = Field(default_factory=list)


class Dice(_Data):
    dice: int = Field(default=1, ge=1, le=20)
    die: int = Field(ge=2, le=100)

    def roll(self, rng: random.Random) -> list[int]:
        return [rng.randint(1, self.die) for _ in range(self.dice)]

    def __str__(self) -> str:
        return f"{self.dice}D{self.die}"


class LevelDice(Dice):
    plus: Literal["total-fighters", "side-fighters"]


class SquadronEntry(_Data):
    count: int = Field(ge=1, le=50)
    fighter: _Id = Field(description="a sample fighter: the name of a design file in examples/")


class Squadron(_Data):
    fighters: list[SquadronEntry] = Field(min_length=1)
    extra_levels: Dice | None = None


class ScenarioRow(_Data):
    roll: int = Field(ge=1)
    side_a: Squadron
    side_b: Squadron


class ScenarioTable(CatalogItem):
    die: int = Field(ge=2, le=100)
    levels: LevelDice
    rows: list[ScenarioRow]

    @model_validator(mode="after")
    def _every_face_once(self) -> ScenarioTable:
        if sorted(r.roll for r in self.rows) != list(range(1, self.die + 1)):
            raise ValueError(f"rows must give each roll 1 to {self.die} exactly once")
        return self


ITEM_KINDS: dict[str, type[CatalogItem]] = {
    "cost_tables": CostTable,
    "basic_systems": BasicSystem,
    "enhancements": Enhancement,
    "enhancement_tables": EnhancementTable,
    "weapons": Weapon,
    "pilot_levels": PilotLevel,
    "pilot_skills": PilotSkill,
    "quirks": Quirk,
    "scenario_tables": ScenarioTable,
    "charts": Chart,
}

# --- the design ----------------------------------------------------------------------------

_Name = Annotated[str, Field(min_length=1, max_length=200)]
_Text = Annotated[str, Field(max_length=20_000)]
MAX_SEED = 2**63 - 1  # what a design file records; larger seeds would not round-trip
_Seed = Annotated[int, Field(ge=0, le=MAX_SEED)]
MAX_COUNT = 10_000  # a bound on what one design file may hold, not a rule
MAX_ROLLED = 1_000


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class EnhancementChoice(_Strict):
    id: _Name = Field(description="enhancement id, name or alias from the tables")
    count: int = Field(default=1, ge=1, le=MAX_COUNT, description="how many; for missiles, how many missiles")
    weapons: list[_Name] = Field(
        default_factory=list, max_length=20, description="for a Turret: the weapon it carries (one per Turret)"
    )
    replaces_basic: bool = Field(
        default=False, description="this special gun replaces the basic Laser (as the sample fighters count it)"
    )


class RollEntry(_Strict):
    """One die roll of a random build: the table, the roll, what it gave."""

    table: _Name
    roll: int = Field(ge=1, le=1000)
    result: str = Field(default="", max_length=200, description="the id it gave; empty when rolled again")
    note: str = Field(default="", max_length=500)


class Published(_Strict):
    enhancements: int = Field(ge=0, le=1000, description="the enhancement count the source prints")
    systems: _Text = Field(default="", description="the systems as the source prints them")


class PilotData(_Strict):
    name: str = Field(default="", max_length=200)
    xp: int = Field(ge=0, le=100_000, description="experience points; the pilot costs this many points")
    level: int | None = Field(default=None, ge=1, le=1000, description="the level claimed (default: from the XP)")
    skills: list[_Name] = Field(default_factory=list, max_length=1000, description="first Basic Combat Pilot")
    quirks: list[_Name] = Field(default_factory=list, max_length=1000)
    seed: _Seed | None = Field(default=None, description="the seed it was rolled with")
    rolls: list[RollEntry] = Field(default_factory=list, max_length=5000)
    notes: _Text = ""


class FighterData(_Strict):
    name: _Name
    notes: _Text = ""
    published: Published | None = None
    enhancements: list[EnhancementChoice] = Field(default_factory=list, max_length=200)
    seed: _Seed | None = Field(default=None, description="the seed it was rolled with")
    rolls: list[RollEntry] = Field(default_factory=list, max_length=5000)
    pilot: PilotData | None = None


class ForceData(_Strict):
    name: _Name
    notes: _Text = ""
    fighters: list[FighterData] = Field(default_factory=list, max_length=500)
    pilots: list[PilotData] = Field(default_factory=list, max_length=500, description="reserve pilots")
    pilot_levels: int | None = Field(
        default=None, ge=0, le=100_000, description="levels worth of pilots the side has (Skirmishes)"
    )
    seed: _Seed | None = None
    rolls: list[RollEntry] = Field(default_factory=list, max_length=5000)


class FighterDesign(FighterData):
    kind: Literal["fighter"]


class PilotDesign(PilotData):
    name: _Name
    kind: Literal["pilot"]


class ForceDesign(ForceData):
    kind: Literal["force"]


_KINDS: dict[str, type[FighterDesign | PilotDesign | ForceDesign]] = {
    "fighter": FighterDesign,
    "pilot": PilotDesign,
    "force": ForceDesign,
}


class SpaceFuryDesign(RootModel[Annotated[FighterDesign | PilotDesign | ForceDesign, Field(discriminator="kind")]]):
    """A Space Fury design file's body: a fighter, a pilot or a force, told apart by ``kind``."""

    model_config = ConfigDict(frozen=True)

    @model_validator(mode="wrap")
    @classmethod
    def _by_kind(cls, data: Any, handler: Any) -> Any:
        # Validate with the kind's own model, so error paths name the design's fields
        # ("enhancements[0].count") rather than pydantic's union tag.
        if isinstance(data, dict):
            kind = data.get("kind")
            if kind not in _KINDS:
                raise ValueError(f"'kind' must be one of {', '.join(_KINDS)}; got {kind!r}")
            return handler(_KINDS[kind].model_validate(data))
        return handler(data)

    @property
    def name(self) -> str:
        return self.root.name

    @property
    def kind(self) -> str:
        return self.root.kind


Design = SpaceFuryDesign

# --- catalog helpers ----------------------------------------------------------------------

T = TypeVar("T", bound=CatalogItem)


def _items(catalog: Catalog, kind: str, model: type[T]) -> list[T]:
    return [i for i in catalog.kind(kind).values() if isinstance(i, model)]


def levels(catalog: Catalog) -> list[PilotLevel]:
    """The Pilot Level Table, lowest level first (sorted once per catalog)."""
    return catalog.memo(
        "pilot-levels", lambda: sorted(_items(catalog, "pilot_levels", PilotLevel), key=lambda r: r.level)
    )


def level_for_xp(catalog: Catalog, xp: int) -> int:
    """The highest level whose experience the pilot has; 0 below the first level."""
    return max((r.level for r in levels(catalog) if r.xp <= xp), default=0)


def level_row(catalog: Catalog, level: int) -> PilotLevel | None:
    return next((r for r in levels(catalog) if r.level == level), None)


def playing_row(catalog: Catalog, level: int) -> PilotLevel | None:
    """The table row a pilot of ``level`` plays by: beyond the table, its top row; none for 0
    (or a house-rule catalog without the table)."""
    table = levels(catalog)
    return level_row(catalog, min(level, table[-1].level)) if level and table else None


def pilot_level(catalog: Catalog, pilot: PilotData) -> int:
    """The level a pilot plays at: the one claimed, else the one its XP reaches."""
    return pilot.level if pilot.level is not None else level_for_xp(catalog, pilot.xp)


def _reputation_rank(catalog: Catalog, reputation: str) -> int | None:
    order: list[str] = []
    for r in levels(catalog):
        if r.reputation not in order:
            order.append(r.reputation)
    return order.index(reputation) if reputation in order else None


def _listed_in(catalog: Catalog) -> dict[str, list[EnhancementTable]]:
    """Which tables list each enhancement."""
    out: dict[str, list[EnhancementTable]] = {}
    for table in _items(catalog, "enhancement_tables", EnhancementTable):
        for row in table.rows:
            if isinstance(row, ItemRow):
                out.setdefault(row.item, []).append(table)
    return out


def _names(catalog: Catalog, kind: str) -> str:
    return ", ".join(i.name for i in catalog.kind(kind).values())


# --- resolving references ---------------------------------------------------------------

_NOUN = {
    "enhancements": "enhancement",
    "weapons": "weapon",
    "pilot_skills": "pilot skill",
    "quirks": "quirk",
}


def _lookup(catalog: Catalog, kind: str, name: str, path: str, problems: list[Problem]) -> str:
    found = catalog.resolve(kind, name)
    if found is None:
        # names before ids, so the hint reads as the rules print it
        hint = did_you_mean(name, [n for i in catalog.kind(kind).values() for n in (i.name, *i.aliases, i.id)])
        problems.append(
            Problem(
                f"unknown {_NOUN.get(kind, kind)} {name!r}" + (f"; {hint}" if hint else ""),
                path=path,
                allowed=_names(catalog, kind),
            )
        )
        return name
    return found


def _resolve_pilot(pilot: PilotData, catalog: Catalog, base: str, problems: list[Problem]) -> dict[str, Any]:
    return {
        "skills": [
            _lookup(catalog, "pilot_skills", s, f"{base}skills[{i}]", problems) for i, s in enumerate(pilot.skills)
        ],
        "quirks": [_lookup(catalog, "quirks", q, f"{base}quirks[{i}]", problems) for i, q in enumerate(pilot.quirks)],
    }


def _resolve_fighter(fighter: FighterData, catalog: Catalog, base: str, problems: list[Problem]) -> dict[str, Any]:
    choices = []
    for i, c in enumerate(fighter.enhancements):
        weapons = [
            _lookup(catalog, "weapons", w, f"{base}enhancements[{i}].weapons[{j}]", problems)
            for j, w in enumerate(c.weapons)
        ]
        item_id = _lookup(catalog, "enhancements", c.id, f"{base}enhancements[{i}].id", problems)
        choices.append(c.model_copy(update={"id": item_id, "weapons": weapons}))
    update: dict[str, Any] = {"enhancements": choices}
    if fighter.pilot is not None:
        update["pilot"] = fighter.pilot.model_copy(
            update=_resolve_pilot(fighter.pilot, catalog, f"{base}pilot.", problems)
        )
    return update


def resolve(design: SpaceFuryDesign, catalog: Catalog) -> SpaceFuryDesign:
    """Resolve names and aliases to catalog ids; report every unknown name at once."""
    problems: list[Problem] = []
    root = design.root
    if isinstance(root, FighterDesign):
        new: FighterDesign | PilotDesign | ForceDesign = root.model_copy(
            update=_resolve_fighter(root, catalog, "", problems)
        )
    elif isinstance(root, PilotDesign):
        new = root.model_copy(update=_resolve_pilot(root, catalog, "", problems))
    else:
        fighters = [
            f.model_copy(update=_resolve_fighter(f, catalog, f"fighters[{i}].", problems))
            for i, f in enumerate(root.fighters)
        ]
        pilots = [
            p.model_copy(update=_resolve_pilot(p, catalog, f"pilots[{i}].", problems))
            for i, p in enumerate(root.pilots)
        ]
        new = root.model_copy(update={"fighters": fighters, "pilots": pilots})
    if problems:
        raise InputError(problems)
    return SpaceFuryDesign(root=new)


# --- what a fighter has ---------------------------------------------------------------------


@dataclass(frozen=True)
class Purchase:
    """One enhancement entry of a fighter with what it counts."""

    index: int
    choice: EnhancementChoice
    item: Enhancement | None
    purchases: int  # racks for items bought in units, else the count

    @property
    def enhancements(self) -> int:
        return self.purchases * self.item.cost if self.item else 0


@dataclass(frozen=True)
class Armament:
    """Weapons of one kind the fighter carries, and where they come from."""

    weapon: Weapon | None
    weapon_id: str
    count: int
    source: str  # "basic" or the enhancement's name


def _fighter(design: Any) -> FighterData | None:
    root = getattr(design, "root", None)
    return root if isinstance(root, FighterDesign) else None


def _force(design: Any) -> ForceDesign | None:
    root = getattr(design, "root", None)
    return root if isinstance(root, ForceDesign) else None


def _pilots(design: Any) -> list[tuple[PilotData, str]]:
    """The pilot(s) a design's own rules check, with the path prefix of each."""
    root = getattr(design, "root", None)
    if isinstance(root, PilotDesign):
        return [(root, "")]
    if isinstance(root, FighterDesign) and root.pilot is not None:
        return [(root.pilot, "pilot.")]
    return []


def one_more(fighter: FighterData, item: Enhancement) -> tuple[int | None, int]:
    """Buying ``item`` once more: the entry it adds to (None: a new entry) and that entry's count.

    Items bought in units (a Missile Rack holds 2 missiles) add a full purchase's units.
    """
    units = item.units if item.unit else 1
    for i, choice in enumerate(fighter.enhancements):
        if choice.id == item.id:
            return i, choice.count + units
    return None, units


def purchases(fighter: FighterData, catalog: Catalog) -> list[Purchase]:
    out = []
    for i, c in enumerate(fighter.enhancements):
        item = catalog.item("enhancements", c.id)
        if isinstance(item, Enhancement):
            out.append(Purchase(i, c, item, math.ceil(c.count / item.units)))
        else:
            out.append(Purchase(i, c, None, c.count))
    return out


def _basic_weapon(catalog: Catalog) -> WeaponEffect | None:
    """The weapon every fighter has (BASIC SYSTEMS: "one Laser")."""
    for system in _items(catalog, "basic_systems", BasicSystem):
        for eff in system.effects:
            if isinstance(eff, WeaponEffect):
                return eff
    return None


def _is_special_gun(item: Enhancement | None, p: BasicWeaponParams, catalog: Catalog) -> bool:
    if item is None or p.replace_table not in [t.id for t in _listed_in(catalog).get(item.id, [])]:
        return False
    for eff in item.effects:
        if isinstance(eff, WeaponEffect):
            weapon = catalog.item("weapons", eff.weapon)
            if isinstance(weapon, Weapon) and p.replace_tag in weapon.tags:
                return True
    return False


def may_replace_basic(item_id: str, catalog: Catalog) -> bool:
    """Whether the enhancement ``item_id`` is a special gun that may replace the basic weapon.

    The editor asks this to enable its "replaces the basic Laser" box, so the rule lives
    here only; the preset in effect says what a replacement counts.
    """
    p: BasicWeaponParams | None = catalog.params(BasicWeaponParams)
    item = catalog.item("enhancements", item_id)
    return p is not None and isinstance(item, Enhancement) and _is_special_gun(item, p, catalog)


def replacement(fighter: FighterData, catalog: Catalog) -> Purchase | None:
    """The special gun that replaces the basic weapon, when the rules in effect allow it."""
    p: BasicWeaponParams | None = catalog.params(BasicWeaponParams)
    if p is None or p.replace_credit is None or p.max_replacements < 1:
        return None
    return next(
        (pu for pu in purchases(fighter, catalog) if pu.choice.replaces_basic and _is_special_gun(pu.item, p, catalog)),
        None,
    )


def armament(fighter: FighterData, catalog: Catalog) -> list[Armament]:
    """Every weapon the fighter carries: the basic one (unless replaced), then its enhancements'."""
    out: list[Armament] = []
    basic = _basic_weapon(catalog)
    if basic is not None and replacement(fighter, catalog) is None:
        w = catalog.item("weapons", basic.weapon)
        out.append(Armament(w if isinstance(w, Weapon) else None, basic.weapon, 1, "basic"))
    for pu in purchases(fighter, catalog):
        if pu.item is None:
            continue
        for eff in pu.item.effects:
            if isinstance(eff, WeaponEffect):
                w = catalog.item("weapons", eff.weapon)
                count = pu.choice.count if pu.item.units > 1 else pu.purchases
                out.append(Armament(w if isinstance(w, Weapon) else None, eff.weapon, count, pu.item.name))
    return out


@dataclass(frozen=True)
class Applied:
    """One effect of a basic system or bought enhancement, and how many times it applies."""

    item: BasicSystem | Enhancement
    times: int
    effect: Any


def _effects(fighter: FighterData, catalog: Catalog) -> list[Applied]:
    out: list[Applied] = []
    for system in _items(catalog, "basic_systems", BasicSystem):
        out += [Applied(system, 1, eff) for eff in system.effects]
    for pu in purchases(fighter, catalog):
        if pu.item is not None:
            out += [Applied(pu.item, pu.purchases, eff) for eff in pu.item.effects]
    return out


@dataclass(frozen=True)
class StatTotal:
    value: int
    parts: list[str]
    conditions: list[str]


def fighter_stats(fighter: FighterData, catalog: Catalog) -> dict[str, StatTotal]:
    """Each figure the stat effects give: total, the parts that make it, and conditions."""
    totals: dict[str, tuple[int, list[str], list[str]]] = {}
    for applied in _effects(fighter, catalog):
        eff, source = applied.effect, applied.item.name
        if not isinstance(eff, StatEffect):
            continue
        value, parts, conditions = totals.get(eff.stat, (0, [], []))
        amount = eff.amount * applied.times
        value += amount
        if amount or not parts:
            parts = [*parts, f"{source} {amount:+d}" if parts else f"{source} {amount}"]
        if eff.condition:
            conditions = [*conditions, f"{source} {eff.condition}"]
        totals[eff.stat] = (value, parts, conditions)
    return {k: StatTotal(v, p, c) for k, (v, p, c) in totals.items()}


def pilot_traits(pilot: PilotData, catalog: Catalog) -> list[tuple[str, TraitEffect]]:
    """(source name, effect) for every trait modifier of a pilot's skills and quirks."""
    out: list[tuple[str, TraitEffect]] = []
    for sid in pilot.skills:
        skill = catalog.item("pilot_skills", sid)
        if isinstance(skill, PilotSkill):
            out += [(skill.name, e) for e in skill.effects if isinstance(e, TraitEffect)]
    for qid in pilot.quirks:
        quirk = catalog.item("quirks", qid)
        if isinstance(quirk, Quirk):
            out += [(quirk.name, e) for e in quirk.effects]
    return out


def pilot_cool(pilot: PilotData, catalog: Catalog) -> tuple[int, str]:
    """The pilot's Cool: the level's, plus every unconditional Cool modifier of its own."""
    level = pilot_level(catalog, pilot)
    row = playing_row(catalog, level)
    base = row.cool if row else 0
    parts = [f"level {level}: {base}"]
    total = base
    for source, eff in pilot_traits(pilot, catalog):
        if eff.trait == "cool" and eff.who == "self" and not eff.condition:
            total += eff.amount
            parts.append(f"{source} {eff.amount:+d}")
    return total, ", ".join(parts)


# --- the neutral view ---------------------------------------------------------------------


def view(design: SpaceFuryDesign, catalog: Catalog) -> DesignView:
    stats: dict[str, int] = {}
    selections: list[Selection] = []
    fighter = _fighter(design)
    if fighter is not None:
        stats.update({k: v.value for k, v in fighter_stats(fighter, catalog).items()})
        selections += [
            Selection("enhancements", c.id, f"enhancements[{i}]", 1, c.count)
            for i, c in enumerate(fighter.enhancements)
        ]
    for pilot, base in _pilots(design):
        stats["xp"] = pilot.xp
        if pilot.level is not None:
            stats["level"] = pilot.level
        selections += [Selection("pilot_skills", s, f"{base}skills[{i}]") for i, s in enumerate(pilot.skills)]
        selections += [Selection("quirks", q, f"{base}quirks[{i}]") for i, q in enumerate(pilot.quirks)]
    return DesignView(None, stats, selections)


# --- rule mechanisms -------------------------------------------------------------------------


class PoolParams(Params):
    pool: str


def apply_enhancement_count(ctx: Context, p: PoolParams) -> None:
    """Each entry counts its cost; items bought in units count whole purchases (racks)."""
    fighter = _fighter(ctx.design)
    if fighter is None:
        return
    pool = ctx.ledger[p.pool]
    for pu in purchases(fighter, ctx.catalog):
        item = pu.item
        if item is None:
            continue
        path = f"enhancements[{pu.index}]"
        pool.cost(_count_label(item, pu), pu.enhancements, source=ctx.catalog.cite(item.source), path=path, rule=p.id)
        spare = pu.purchases * item.units - pu.choice.count
        if spare:
            flag(
                ctx,
                p,
                Severity.ADVICE,
                "rack-not-full",
                f"{pu.choice.count} {_plural(item.unit, pu.choice.count)} fill {pu.purchases} "
                f"{_plural('rack', pu.purchases)} of {item.units}: {spare} more fit at no cost",
                path=f"{path}.count",
                actual=pu.choice.count,
                limit=pu.purchases * item.units,
                source=ctx.catalog.cite(item.source),
            )


def _count_label(item: Enhancement, pu: Purchase) -> str:
    """How an entry counts: "2 x Armor", "Rail Gun (costs 2)", "Missile Rack: 4 missiles in 2 racks of 2"."""
    if item.unit:
        n = pu.choice.count
        label = f"{item.name}: {n} {_plural(item.unit, n)}"
        if item.units > 1:
            label += f" in {pu.purchases} {_plural('rack', pu.purchases)} of {item.units}"
            return label + (f", {item.cost} a rack" if item.cost != 1 else "")
        return label + (f", {item.cost} each" if item.cost != 1 else "")
    if pu.purchases > 1:
        return f"{pu.purchases} x {item.name}" + (f", {item.cost} each" if item.cost != 1 else "")
    return item.name + (f" (costs {item.cost})" if item.cost != 1 else "")


def _plural(word: str, n: int) -> str:
    return word if n == 1 or not word else f"{word}s"


class TablesParams(Params):
    primary: str = Field(description="the table a fighter buys from; its table rows open the sub-tables")


def apply_enhancement_tables(ctx: Context, p: TablesParams) -> None:
    """Enhancements come from the tables; a sub-table is bought through the row that opens it."""
    fighter = _fighter(ctx.design)
    if fighter is None:
        return
    listed = _listed_in(ctx.catalog)
    tables = {t.id: t for t in _items(ctx.catalog, "enhancement_tables", EnhancementTable)}
    primary = tables.get(p.primary)
    opened = {p.primary} | {r.table for r in (primary.rows if primary else []) if isinstance(r, SubtableRow)}
    for pu in purchases(fighter, ctx.catalog):
        path = f"enhancements[{pu.index}].id"
        on = listed.get(pu.item.id, []) if pu.item else []
        name = pu.item.name if pu.item else pu.choice.id
        if not on:
            flag(
                ctx,
                p,
                Severity.ERROR,
                "enhancement-not-in-tables",
                f"{name} is on none of the enhancement tables ({', '.join(t.name for t in tables.values())})",
                path=path,
                actual=pu.choice.id,
                limit=sorted(tables),
            )
        elif not any(t.id in opened for t in on):
            flag(
                ctx,
                p,
                Severity.ERROR,
                "subtable-without-table",
                f"{name} is on the {on[0].name}, which no row of the {primary.name if primary else p.primary} opens",
                path=path,
                actual=on[0].id,
                limit=sorted(opened),
                source=ctx.catalog.cite(on[0].source),
            )


class BasicWeaponParams(Params):
    pool: str
    replace_table: str = Field(description="the table a replacing gun comes from")
    replace_tag: str = Field(description="the weapon tag a replacing weapon has")
    replace_credit: int | None = Field(ge=0, description="enhancements credited; null: no replacement")
    max_replacements: int = Field(default=1, ge=0)


def apply_basic_weapon(ctx: Context, p: BasicWeaponParams) -> None:
    """A special gun may replace the basic weapon and be credited (when the preset says so)."""
    fighter = _fighter(ctx.design)
    basic = _basic_weapon(ctx.catalog)
    if fighter is None or basic is None:
        return
    basic_item = ctx.catalog.item("weapons", basic.weapon)
    laser = basic_item.name if basic_item else basic.weapon
    flagged = [pu for pu in purchases(fighter, ctx.catalog) if pu.choice.replaces_basic]
    guns = [pu for pu in flagged if _is_special_gun(pu.item, p, ctx.catalog)]
    src = cite(ctx, p)
    for pu in flagged:
        if pu not in guns:
            flag(
                ctx,
                p,
                Severity.ERROR,
                "basic-weapon-replacement-not-a-gun",
                f"{pu.item.name if pu.item else pu.choice.id} cannot replace the basic {laser}: "
                f"only a {p.replace_tag} from the {p.replace_table} table can",
                path=f"enhancements[{pu.index}].replaces_basic",
                actual=pu.choice.id,
                limit=p.replace_tag,
            )
    if len(guns) > p.max_replacements:
        flag(
            ctx,
            p,
            Severity.ERROR,
            "basic-weapon-replaced-twice",
            f"{len(guns)} special guns replace the basic {laser}; there is only {p.max_replacements} to replace",
            path=f"enhancements[{guns[p.max_replacements].index}].replaces_basic",
            actual=len(guns),
            limit=p.max_replacements,
        )
    if not guns:
        return
    gun = guns[0]
    gun_name = gun.item.name if gun.item else gun.choice.id
    if p.replace_credit is None or p.max_replacements < 1:
        flag(
            ctx,
            p,
            Severity.ADVICE,
            "basic-weapon-kept",
            f"as written a special gun is added on top of the basic {laser}: {gun_name} does not replace it "
            "and credits nothing (the sample-fighters preset counts the replacement)",
            path=f"enhancements[{gun.index}].replaces_basic",
            actual=0,
            limit=0,
        )
        return
    ctx.ledger[p.pool].gain(
        f"{gun_name} replaces the basic {laser}",
        p.replace_credit,
        source=src,
        path=f"enhancements[{gun.index}].replaces_basic",
        rule=p.id,
    )


class MountsParams(Params):
    empty_severity: Severity = Severity.WARNING


@dataclass(frozen=True)
class MountEntry:
    """An enhancement entry that mounts weapons (Turrets): what it carries and how many."""

    purchase: Purchase
    mount: MountEffect
    capacity: int  # weapons it carries: purchases x weapons each

    @property
    def carried(self) -> list[str]:
        return list(self.purchase.choice.weapons)


def mount_entries(fighter: FighterData, catalog: Catalog) -> list[MountEntry]:
    """Every entry of the fighter that mounts weapons, in the order of its enhancements."""
    out = []
    for pu in purchases(fighter, catalog):
        mounts = [e for e in pu.item.effects if isinstance(e, MountEffect)] if pu.item else []
        if mounts:
            out.append(MountEntry(pu, mounts[0], pu.purchases * mounts[0].weapons))
    return out


def mountable(mount: MountEffect, catalog: Catalog) -> list[Weapon]:
    """The catalog's weapons a mount can carry (a tag in common)."""
    return [w for w in _items(catalog, "weapons", Weapon) if set(w.tags) & set(mount.tags)]


def weapons_owned(fighter: FighterData, catalog: Catalog) -> dict[str, int]:
    """How many of each weapon the fighter has (its basic gun and its enhancements')."""
    owned: dict[str, int] = {}
    for arm in armament(fighter, catalog):
        owned[arm.weapon_id] = owned.get(arm.weapon_id, 0) + arm.count
    return owned


def apply_weapon_mounts(ctx: Context, p: MountsParams) -> None:
    """A Turret carries one weapon the fighter has, of a kind it can carry."""
    fighter = _fighter(ctx.design)
    if fighter is None:
        return
    owned = weapons_owned(fighter, ctx.catalog)
    carried: dict[str, tuple[int, str]] = {}
    for entry in mount_entries(fighter, ctx.catalog):
        pu, eff, capacity = entry.purchase, entry.mount, entry.capacity
        assert pu.item is not None
        path = f"enhancements[{pu.index}].weapons"
        n = len(pu.choice.weapons)
        what = f"{pu.purchases} {_plural(pu.item.name, pu.purchases)}"
        if n > capacity:
            flag(
                ctx,
                p,
                Severity.ERROR,
                "turret-overloaded",
                f"{what} carry {n} weapons; each {pu.item.name} carries {eff.weapons}",
                path=path,
                actual=n,
                limit=capacity,
            )
        elif n < capacity:
            flag(
                ctx,
                p,
                p.empty_severity,
                "turret-empty",
                f"{what} carry {n} weapon{'s' if n != 1 else ''}; name the weapon each {pu.item.name} carries",
                path=path,
                actual=n,
                limit=capacity,
            )
        for j, wid in enumerate(pu.choice.weapons):
            weapon = ctx.catalog.item("weapons", wid)
            if isinstance(weapon, Weapon) and not set(weapon.tags) & set(eff.tags):
                flag(
                    ctx,
                    p,
                    Severity.ERROR,
                    "turret-weapon-not-mountable",
                    f"a {pu.item.name} cannot carry a {weapon.name}; it carries a {' or '.join(eff.tags)}",
                    path=f"{path}[{j}]",
                    actual=wid,
                    limit=eff.tags,
                )
            count, first = carried.get(wid, (0, f"{path}[{j}]"))
            carried[wid] = (count + 1, first)
    for wid, (count, first) in carried.items():
        if count > owned.get(wid, 0):
            weapon = ctx.catalog.item("weapons", wid)
            name = weapon.name if weapon else wid
            flag(
                ctx,
                p,
                Severity.ERROR,
                "turret-weapon-missing",
                f"{count} {_plural('turret', count)} carry a {name}; the fighter has {owned.get(wid, 0)}",
                path=first,
                actual=count,
                limit=owned.get(wid, 0),
            )


class CountCostParams(Params):
    table: str = Field(description="the cost table (cost_tables id)")
    count: str = Field(description="the tally whose total is looked up")
    pool: str = Field(description="the tally the cost is counted in")


def cost_detail(table: CostTable, n: int) -> str:
    """How a cost comes out of the table: a row, or the last row and the steps beyond it."""
    last = table.rows[-1]
    if n <= last.count or not isinstance(table.beyond, AddCountBeyond):
        return f"{table.name} table, {n} {table.counts}"
    steps = " + ".join(str(k) for k in range(last.count + 1, n + 1))
    return f"{table.name} table: {last.cost} for {last.count}, + {steps} beyond it"


def apply_count_cost(ctx: Context, p: CountCostParams) -> None:
    """A fighter's cost is the Fighter Cost table's entry for its count of enhancements."""
    if _fighter(ctx.design) is None:
        return
    table = ctx.catalog.item("cost_tables", p.table)
    if not isinstance(table, CostTable):
        return
    n = ctx.ledger[p.count].total
    cost = table.cost(n)
    if cost is None:
        flag(
            ctx,
            p,
            Severity.ERROR,
            "count-beyond-table",
            f"the {table.name} table gives no cost for {n} {table.counts}",
            path="enhancements",
            actual=n,
            limit=[table.rows[0].count, None if isinstance(table.beyond, AddCountBeyond) else table.rows[-1].count],
            source=ctx.catalog.cite(table.source),
        )
        return
    ctx.ledger[p.pool].cost(
        f"Fighter: {cost_detail(table, n)}", cost, source=ctx.catalog.cite(table.source), path="enhancements", rule=p.id
    )


def apply_pilot_cost(ctx: Context, p: PoolParams) -> None:
    """A pilot costs its experience points."""
    for pilot, base in _pilots(ctx.design):
        who = pilot.name if pilot.name.startswith("Pilot") else f"Pilot {pilot.name}".rstrip()
        ctx.ledger[p.pool].cost(f"{who}: {pilot.xp} XP", pilot.xp, source=cite(ctx, p), path=f"{base}xp", rule=p.id)


class PilotLevelParams(Params):
    pass


def apply_pilot_level(ctx: Context, p: PilotLevelParams) -> None:
    """The level claimed must be on the table, and the pilot must have its XP."""
    table = levels(ctx.catalog)
    if not table:
        return
    top, first = table[-1], table[0]
    for pilot, base in _pilots(ctx.design):
        reached = level_for_xp(ctx.catalog, pilot.xp)
        claimed = pilot.level
        if claimed is not None and claimed > top.level:
            flag(
                ctx,
                p,
                Severity.ERROR,
                "level-not-in-table",
                f"level {claimed} is not on the {ctx.catalog.meta.name} Pilot Level Table "
                f"({first.level} to {top.level})",
                path=f"{base}level",
                actual=claimed,
                limit=top.level,
            )
            continue
        want = level_row(ctx.catalog, claimed) if claimed is not None else first
        if want is not None and pilot.xp < want.xp:
            flag(
                ctx,
                p,
                Severity.ERROR,
                "xp-below-level",
                f"XP {pilot.xp} is below the {want.xp} XP of level {want.level}",
                path=f"{base}xp",
                actual=pilot.xp,
                limit=want.xp,
            )
        elif claimed is not None and reached > claimed:
            flag(
                ctx,
                p,
                Severity.ADVICE,
                "level-behind-xp",
                f"XP {pilot.xp} reaches level {reached}; level {claimed} is claimed",
                path=f"{base}level",
                actual=claimed,
                limit=reached,
            )


class PilotSkillsParams(Params):
    first_skill: str = Field(description="the skill every pilot has first")
    on_fighter: dict[str, str] = Field(
        default_factory=dict, description="pilot trait -> the fighter figure it acts on in play"
    )


def first_skill(catalog: Catalog) -> str | None:
    """The skill every pilot has first (Basic Combat Pilot), as the rules say."""
    p = catalog.params(PilotSkillsParams)
    return p.first_skill if p is not None else None


def new_pilot(catalog: Catalog, name: str = "") -> PilotData:
    """A level 1 pilot: the XP the first level needs, and the first skill."""
    table = levels(catalog)
    first = first_skill(catalog)
    return PilotData(name=name, xp=table[0].xp if table else 0, skills=[first] if first else [])


def new_design(kind: str, name: str, catalog: Catalog) -> SpaceFuryDesign:
    """A new design of ``kind``: a fighter with only its basic systems (0 enhancements), a
    level 1 pilot, an empty force."""
    if kind == "fighter":
        design = SpaceFuryDesign(root=FighterDesign(kind="fighter", name=name or "New fighter"))
    elif kind == "pilot":
        pilot = new_pilot(catalog, name or "New pilot").model_dump(mode="json")
        design = SpaceFuryDesign.model_validate({**pilot, "kind": "pilot"})
    elif kind == "force":
        design = SpaceFuryDesign.model_validate({"kind": "force", "name": name or "New force"})
    else:
        raise InputError.single(
            f"a {catalog.meta.name} design is a fighter, a pilot or a force, not a {kind!r}",
            allowed="fighter, pilot, force",
        )
    return resolve(design, catalog)


def skills_allowed(catalog: Catalog, level: int) -> int:
    row = level_row(catalog, level)
    return row.skills if row else 0


def apply_pilot_skills(ctx: Context, p: PilotSkillsParams) -> None:
    """Skills = level (from the table); the first is Basic Combat Pilot, the rest from the d10 table."""
    first = ctx.catalog.item("pilot_skills", p.first_skill)
    first_name = first.name if first else p.first_skill
    for pilot, base in _pilots(ctx.design):
        level = pilot_level(ctx.catalog, pilot)
        allowed = skills_allowed(ctx.catalog, level)
        n = len(pilot.skills)
        if n > allowed:
            flag(
                ctx,
                p,
                Severity.ERROR,
                "too-many-skills",
                f"{n} skills; a level {level} pilot has {allowed}",
                path=f"{base}skills",
                actual=n,
                limit=allowed,
            )
        elif n < allowed:
            flag(
                ctx,
                p,
                Severity.WARNING,
                "skills-unassigned",
                f"{n} of a level {level} pilot's {allowed} skills chosen; {allowed - n} to choose or roll",
                path=f"{base}skills",
                actual=n,
                limit=allowed,
            )
        if pilot.skills and pilot.skills[0] != p.first_skill:
            skill = ctx.catalog.item("pilot_skills", pilot.skills[0])
            flag(
                ctx,
                p,
                Severity.ERROR,
                "first-skill-not-basic",
                f"the first skill is {skill.name if skill else pilot.skills[0]}; it is always {first_name}",
                path=f"{base}skills[0]",
                actual=pilot.skills[0],
                limit=p.first_skill,
            )
        for i, sid in enumerate(pilot.skills[1:], 1):
            skill = ctx.catalog.item("pilot_skills", sid)
            if not isinstance(skill, PilotSkill) or skill.roll is None:
                flag(
                    ctx,
                    p,
                    Severity.ERROR,
                    "skill-not-on-table",
                    f"{skill.name if skill else sid} is not on the Pilot Skills table; "
                    f"only the first skill is {first_name}",
                    path=f"{base}skills[{i}]",
                    actual=sid,
                    limit=sorted(s.id for s in _items(ctx.catalog, "pilot_skills", PilotSkill) if s.roll),
                )


class PilotQuirksParams(Params):
    check_die: int = Field(ge=2, description="the die rolled at each level for a quirk")
    check_on: int = Field(ge=1, description="the roll on it that gives a quirk")
    table_die: int = Field(ge=2, description="the die of the Quirk Table")
    per_level: int = Field(default=1, ge=0)


def apply_pilot_quirks(ctx: Context, p: PilotQuirksParams) -> None:
    """At most one quirk a level, and a quirk's requirement ("Must be a veteran")."""
    for pilot, base in _pilots(ctx.design):
        level = pilot_level(ctx.catalog, pilot)
        limit = level * p.per_level
        if len(pilot.quirks) > limit:
            flag(
                ctx,
                p,
                Severity.WARNING,
                "too-many-quirks",
                f"{len(pilot.quirks)} quirks; a level {level} pilot rolls for {limit}",
                path=f"{base}quirks",
                actual=len(pilot.quirks),
                limit=limit,
            )
        row = playing_row(ctx.catalog, level)
        have = _reputation_rank(ctx.catalog, row.reputation) if row else -1
        for i, qid in enumerate(pilot.quirks):
            quirk = ctx.catalog.item("quirks", qid)
            if not isinstance(quirk, Quirk) or quirk.requires_reputation is None:
                continue
            need = _reputation_rank(ctx.catalog, quirk.requires_reputation)
            if need is not None and (have is None or have < need):
                flag(
                    ctx,
                    p,
                    Severity.ERROR,
                    "quirk-requirement",
                    f"{quirk.name} needs a {quirk.requires_reputation} pilot; a level {level} pilot is "
                    f"{row.reputation if row else 'below the table'}",
                    path=f"{base}quirks[{i}]",
                    actual=row.reputation if row else None,
                    limit=quirk.requires_reputation,
                    source=ctx.catalog.cite(quirk.source),
                )


def apply_published_count(ctx: Context, p: PoolParams) -> None:
    """A sample fighter's computed count beside the count its source publishes."""
    fighter = _fighter(ctx.design)
    if fighter is None or fighter.published is None:
        return
    n = ctx.ledger[p.pool].total
    if n != fighter.published.enhancements:
        flag(
            ctx,
            p,
            Severity.WARNING,
            "published-count-differs",
            f"{n} enhancements counted; the source publishes {fighter.published.enhancements}",
            path="published.enhancements",
            actual=n,
            limit=fighter.published.enhancements,
        )


class ForcePilotsParams(Params):
    pass


def apply_force_pilots(ctx: Context, p: ForcePilotsParams) -> None:
    """Every fighter of a force needs a pilot; a side's pilot levels add up to its allowance."""
    force = _force(ctx.design)
    if force is None:
        return
    for i, f in enumerate(force.fighters):
        if f.pilot is None:
            flag(
                ctx,
                p,
                Severity.WARNING,
                "fighter-without-pilot",
                f"{f.name} has no pilot",
                path=f"fighters[{i}].pilot",
                actual=0,
                limit=1,
            )
    if force.pilot_levels is None:
        return
    total = sum(pilot_level(ctx.catalog, pilot) for pilot in _force_pilots(force))
    if total > force.pilot_levels:
        flag(
            ctx,
            p,
            Severity.ERROR,
            "pilot-levels-over",
            f"the pilots have {total} levels; this side has {force.pilot_levels} levels worth of pilots",
            path="pilot_levels",
            actual=total,
            limit=force.pilot_levels,
        )
    elif total < force.pilot_levels:
        flag(
            ctx,
            p,
            Severity.WARNING,
            "pilot-levels-unused",
            f"the pilots have {total} levels of the side's {force.pilot_levels}",
            path="pilot_levels",
            actual=total,
            limit=force.pilot_levels,
        )


def _force_pilots(force: ForceData) -> list[PilotData]:
    return [f.pilot for f in force.fighters if f.pilot is not None] + list(force.pilots)


RULE_TYPES: dict[str, RuleType] = {
    "enhancement-count": RuleType(PoolParams, apply_enhancement_count),
    "enhancement-tables": RuleType(TablesParams, apply_enhancement_tables),
    "basic-weapon": RuleType(BasicWeaponParams, apply_basic_weapon),
    "weapon-mounts": RuleType(MountsParams, apply_weapon_mounts),
    "count-cost": RuleType(CountCostParams, apply_count_cost),
    "pilot-cost": RuleType(PoolParams, apply_pilot_cost),
    "pilot-level": RuleType(PilotLevelParams, apply_pilot_level),
    "pilot-skills": RuleType(PilotSkillsParams, apply_pilot_skills),
    "pilot-quirks": RuleType(PilotQuirksParams, apply_pilot_quirks),
    "published-count": RuleType(PoolParams, apply_published_count),
    "force-pilots": RuleType(ForcePilotsParams, apply_force_pilots),
}

# --- a force's members --------------------------------------------------------------------


def as_fighter(fighter: FighterData) -> SpaceFuryDesign:
    return SpaceFuryDesign(root=FighterDesign(kind="fighter", **dict(fighter)))


def as_pilot(pilot: PilotData, name: str) -> SpaceFuryDesign:
    return SpaceFuryDesign(root=PilotDesign(kind="pilot", **{**dict(pilot), "name": pilot.name or name}))


def _member_paths(force: ForceData) -> list[str]:
    return [f"fighters[{i}]" for i in range(len(force.fighters))] + [f"pilots[{i}]" for i in range(len(force.pilots))]


def variants(design: SpaceFuryDesign) -> list[tuple[str, SpaceFuryDesign]]:
    """A force's fighters and reserve pilots, each evaluated as a design of its own."""
    force = _force(design)
    if force is None:
        return []
    out = [(f.name, as_fighter(f)) for f in force.fighters]
    for i, p in enumerate(force.pilots):
        member = as_pilot(p, f"Reserve pilot {i + 1}")
        out.append((member.name, member))
    return out


def compare_variants(ctx: Context, forms: list[tuple[str, Context]]) -> None:
    """A force's tallies are its members' totals (a force costs its fighters + its pilots)."""
    force = _force(ctx.design)
    if force is None:
        return
    ctx.notes["members"] = forms
    for (name, fctx), path in zip(forms, _member_paths(force), strict=True):
        for pool_id, pool in ctx.ledger.pools.items():
            member = fctx.ledger.pools.get(pool_id)
            if member is not None and member.lines:
                pool.cost(name, member.total, source=pool.source, path=path, rule="")


# --- derived figures ------------------------------------------------------------------------


def _signed(n: int) -> str:
    return f"{n:+d}"


def _pool_total(ctx: Context, params: type[Any], attr: str) -> int:
    p = ctx.catalog.params(params)
    pool_id = getattr(p, attr, None) if p is not None else None
    return ctx.ledger[pool_id].total if isinstance(pool_id, str) and pool_id in ctx.ledger else 0


def _enhancement_pool(ctx: Context) -> int:
    return _pool_total(ctx, CountCostParams, "count")


def _points_pool(ctx: Context) -> int:
    return _pool_total(ctx, CountCostParams, "pool")


def _fighter_figures(ctx: Context, fighter: FighterData) -> list[Figure]:
    cite = ctx.catalog.cite
    figs: list[Figure] = []
    n = _enhancement_pool(ctx)
    pub = fighter.published
    figs.append(
        Figure(
            id="enhancements",
            label="Enhancements",
            value=n,
            detail=f"published {pub.enhancements}" if pub else "",
            source=cite("FIGHTER CONSTRUCTION"),
        )
    )
    if pub is not None:
        figs.append(
            Figure(
                id="published",
                label="Published enhancements",
                value=pub.enhancements,
                detail=pub.systems,
                source=cite("SAMPLE FIGHTER DESCRIPTIONS: HUMAN DESIGNS"),
            )
        )
    rule: CountCostParams | None = ctx.catalog.params(CountCostParams)
    table = ctx.catalog.item("cost_tables", rule.table) if rule else None
    if isinstance(table, CostTable):
        cost = table.cost(n)
        figs.append(
            Figure(
                id="cost",
                label="Cost",
                value=cost if cost is not None else "—",
                unit=table.unit,
                detail=cost_detail(table, n) if cost is not None else "beyond the table",
                source=cite(table.source),
            )
        )
    stats = fighter_stats(fighter, ctx.catalog)
    names = {s.id: s.name for s in ctx.catalog.meta.stats}
    pilot_mods = _pilot_fighter_mods(ctx, fighter)
    for stat in ("speed", "maneuver", "armor", "tohit"):
        total = stats.get(stat, StatTotal(0, [], []))
        detail = ", ".join(total.parts)
        if total.conditions:
            detail += " (" + "; ".join(total.conditions) + ")"
        if stat in pilot_mods:
            detail += f"; {pilot_mods[stat]}"
        figs.append(
            Figure(
                id=stat,
                label=names.get(stat, stat),
                value=total.value,
                detail=detail,
                source=cite("BASIC SYSTEMS"),
            )
        )
    det, rng = stats.get("detection"), stats.get("detection-range")
    if det is not None:
        figs.append(
            Figure(
                id="detection",
                label="Detection",
                value=f"1-{det.value}" if det.value > 0 else "none",
                unit="on D10",
                detail=f"cloaked fighters within {rng.value if rng else 0} hexes; " + ", ".join(det.parts),
                source=cite("2. DETECTION PHASE"),
            )
        )
    if rng is not None:
        figs.append(
            Figure(
                id="detection-range",
                label="Detection range",
                value=rng.value,
                unit="hexes",
                source=cite("2. DETECTION PHASE"),
            )
        )
    for stat, fig_id, label, unit in (
        ("seats", "seats", "Seats", ""),
        ("targets", "targets", "Targets", "per turn"),
        ("fuel-days", "fuel", "Fuel", "days"),
        ("oxygen-days", "oxygen", "Oxygen", "days"),
    ):
        if stat in stats:
            figs.append(
                Figure(
                    id=fig_id,
                    label=label,
                    value=stats[stat].value,
                    unit=unit,
                    detail=", ".join(stats[stat].parts) if len(stats[stat].parts) > 1 else "",
                    source=cite("BASIC SYSTEMS"),
                )
            )
    applied = _effects(fighter, ctx.catalog)
    shields = sum(a.times * a.effect.hits for a in applied if isinstance(a.effect, ShieldEffect))
    figs.append(
        Figure(
            id="shields",
            label="Deflector shields",
            value=shields,
            unit=_plural("hit", shields),
            detail="each absorbs 1 hit, then is blown" if shields else "",
            source=cite("PRIMARY ENHANCEMENTS TABLE"),
        )
    )
    for a in applied:
        eff = a.effect
        if isinstance(eff, BoostEffect):
            figs.append(
                Figure(
                    id=f"boost-{a.item.id}",
                    label=a.item.name,
                    value=a.times * eff.uses,
                    unit="uses",
                    detail=f"{names.get(eff.stat, eff.stat)} {eff.amount:+d} once a use; {eff.replace_cost} to replace",
                    source=cite("SPECIAL SYSTEMS TABLE"),
                )
            )
    if fighter.seed is not None or fighter.rolls:
        figs.append(
            Figure(
                id="rolled",
                label="Rolled",
                value=f"seed {fighter.seed}" if fighter.seed is not None else "by hand",
                detail=f"{len(fighter.rolls)} rolls on the tables",
                source=cite("FIGHTER CONSTRUCTION"),
            )
        )
    return figs


def _pilot_fighter_mods(ctx: Context, fighter: FighterData) -> dict[str, str]:
    """What the fighter's pilot adds to the fighter's figures in play, as a note."""
    if fighter.pilot is None:
        return {}
    out: dict[str, str] = {}
    traits = pilot_traits(fighter.pilot, ctx.catalog)
    skills_rule = ctx.catalog.params(PilotSkillsParams)
    for trait, stat in (skills_rule.on_fighter if skills_rule else {}).items():
        parts = [(e.amount, e.condition) for _, e in traits if e.trait == trait and e.who == "self"]
        amount = sum(a for a, _ in parts)
        if amount:
            when = "; ".join(sorted({c for _, c in parts if c}))
            out[stat] = f"pilot {trait.capitalize()} {amount:+d}" + (f" {when}" if when else "")
    return out


def _weapons_table(ctx: Context, fighter: FighterData) -> Table:
    carried: dict[str, int] = {}
    for pu in purchases(fighter, ctx.catalog):
        if pu.item is not None and any(isinstance(e, MountEffect) for e in pu.item.effects):
            for wid in pu.choice.weapons:
                carried[wid] = carried.get(wid, 0) + 1
    # one row per weapon and mount: (weapon id, mount) -> (weapon, count, where from)
    grouped: dict[tuple[str, str], tuple[Weapon | None, int, list[str]]] = {}
    for arm in armament(fighter, ctx.catalog):
        turreted = min(carried.get(arm.weapon_id, 0), arm.count)
        carried[arm.weapon_id] = carried.get(arm.weapon_id, 0) - turreted
        launched = arm.weapon is not None and arm.weapon.range is None
        for mount, count in (("Launched" if launched else "Fixed", arm.count - turreted), ("Turret", turreted)):
            if count > 0:
                _, n, sources = grouped.get((arm.weapon_id, mount), (arm.weapon, 0, []))
                grouped[(arm.weapon_id, mount)] = (arm.weapon, n + count, [*sources, arm.source])
    rows: list[list[Any]] = []
    for (wid, mount), (w, count, sources) in grouped.items():
        notes = []
        move = f"Speed {w.speed}, Maneuver {_signed(w.maneuver or 0)}" if w is not None and w.speed is not None else ""
        if w is not None and w.ammo:
            notes.append(w.ammo)
        if w is not None and w.notes:
            notes.append(w.notes)
        rows.append(
            [
                w.name if w else wid,
                count,
                mount,
                w.range if w is not None and w.range is not None else "—",
                w.damage if w else "",
                _signed(w.tohit) if w else "",
                move,
                ", ".join(dict.fromkeys(sources)),
                "; ".join(notes),
            ]
        )
    return Table(
        id="weapons",
        title="Weapons",
        columns=["Weapon", "Count", "Mount", "Range", "Damage", "ToHit", "Move", "From", "Notes"],
        rows=rows,
        notes="Fixed guns fire into the 60-degree front arc; a Turret's weapon fires in all arcs.",
        source=ctx.catalog.cite("7. GUN DECLARATION PHASE"),
    )


def _systems_table(ctx: Context, fighter: FighterData) -> Table:
    listed = _listed_in(ctx.catalog)
    rows: list[list[Any]] = [[s.name, 1, "Basic", s.notes] for s in _items(ctx.catalog, "basic_systems", BasicSystem)]
    for pu in purchases(fighter, ctx.catalog):
        item = pu.item
        if item is None or any(isinstance(e, WeaponEffect) for e in item.effects):
            continue
        on = listed.get(item.id, [])
        notes = item.notes
        if pu.choice.weapons:
            names = [getattr(ctx.catalog.item("weapons", w), "name", w) for w in pu.choice.weapons]
            notes = f"carries {', '.join(names)}. {notes}"
        rows.append([item.name, pu.purchases, on[0].name.replace(" Table", "") if on else "", notes])
    return Table(
        id="systems",
        title="Systems",
        columns=["System", "Count", "Table", "Notes"],
        rows=rows,
        source=ctx.catalog.cite("BASIC SYSTEMS"),
    )


# The tables a pilot is rolled on, as the roll log names them.
_LOG_TABLES = {"pilot-skills": "Pilot Skills", "quirk-check": "Quirk check", "quirks": "Quirk Table"}


def _rolls_table(ctx: Context, rolls: Sequence[RollEntry]) -> Table:
    names: dict[str, str] = dict(_LOG_TABLES)
    for kind in ("enhancement_tables", "enhancements", "pilot_skills", "quirks", "scenario_tables"):
        names.update({i.id: i.name for i in ctx.catalog.kind(kind).values()})
    rows: list[list[Any]] = [
        [i + 1, names.get(r.table, r.table), r.roll, names.get(r.result, r.result), r.note] for i, r in enumerate(rolls)
    ]
    return Table(
        id="rolls",
        title="Roll log",
        columns=["#", "Table", "Roll", "Result", "Note"],
        rows=rows,
        source=ctx.catalog.cite("FIGHTER CONSTRUCTION"),
    )


def _pilot_figures(ctx: Context, pilot: PilotData) -> list[Figure]:
    cite = ctx.catalog.cite
    level = pilot_level(ctx.catalog, pilot)
    reached = level_for_xp(ctx.catalog, pilot.xp)
    row = playing_row(ctx.catalog, level)
    nxt = level_row(ctx.catalog, reached + 1)
    how = f"from {pilot.xp} XP" if pilot.level is None else f"claimed; {pilot.xp} XP reaches level {reached}"
    cool, cool_how = pilot_cool(pilot, ctx.catalog)
    figs = [
        Figure(id="pilot", label="Pilot", value=pilot.name or "unnamed", source=cite("PILOT LEVEL TABLE")),
        Figure(id="level", label="Level", value=level, detail=how, source=cite("PILOT LEVEL TABLE")),
        Figure(
            id="xp",
            label="Experience",
            value=pilot.xp,
            unit="XP",
            detail=f"level {nxt.level} at {nxt.xp} XP" if nxt else "top of the table",
            source=cite("PILOT LEVEL TABLE"),
        ),
        Figure(
            id="reputation",
            label="Reputation",
            value=row.reputation if row else "—",
            source=cite("PILOT LEVEL TABLE"),
        ),
        Figure(id="cool", label="Cool", value=cool, detail=cool_how, source=cite("PILOT LEVEL TABLE")),
        Figure(
            id="skills-allowed",
            label="Skills",
            value=f"{len(pilot.skills)} of {skills_allowed(ctx.catalog, level)}",
            source=cite("PILOT LEVEL TABLE"),
        ),
        Figure(
            id="skill-list",
            label="Skill list",
            value=", ".join(
                f"{name} x{n}" if n > 1 else name for name, n in _counted(ctx, "pilot_skills", pilot.skills)
            ),
            source=cite("PILOT SKILLS"),
        ),
        Figure(
            id="quirk-list",
            label="Quirks",
            value=", ".join(name for name, _ in _counted(ctx, "quirks", pilot.quirks)) or "none",
            source=cite("QUIRK TABLE"),
        ),
        Figure(id="pilot-cost", label="Pilot cost", value=pilot.xp, unit="points", source=cite("FIGHTER CONSTRUCTION")),
    ]
    if pilot.seed is not None:
        figs.append(
            Figure(
                id="pilot-rolled",
                label="Pilot rolled",
                value=f"seed {pilot.seed}",
                detail=f"{len(pilot.rolls)} rolls",
                source=cite("PILOT SKILLS"),
            )
        )
    return figs


def _counted(ctx: Context, kind: str, ids: Sequence[str]) -> list[tuple[str, int]]:
    """(name, how many times) of each id, in first-seen order."""
    counts: dict[str, int] = {}
    for i in ids:
        counts[i] = counts.get(i, 0) + 1
    return [(getattr(ctx.catalog.item(kind, i), "name", i), n) for i, n in counts.items()]


def _pilot_tables(ctx: Context, pilot: PilotData) -> list[Table]:
    counts: dict[str, int] = {}
    for sid in pilot.skills:
        counts[sid] = counts.get(sid, 0) + 1
    skills: list[list[Any]] = []
    for sid, n in counts.items():
        skill = ctx.catalog.item("pilot_skills", sid)
        skills.append([skill.name if skill else sid, n, getattr(skill, "notes", "")])
    quirks: list[list[Any]] = []
    for qid in pilot.quirks:
        quirk = ctx.catalog.item("quirks", qid)
        if isinstance(quirk, Quirk):
            quirks.append([quirk.name, f"{quirk.low}-{quirk.high}", quirk.description])
        else:
            quirks.append([qid, "", ""])
    totals: dict[tuple[str, str, str], tuple[int, list[str]]] = {}
    for source, eff in pilot_traits(pilot, ctx.catalog):
        key = (eff.trait, eff.condition, eff.who)
        value, parts = totals.get(key, (0, []))
        totals[key] = (value + eff.amount, [*parts, f"{source} {eff.amount:+d}"])
    modifiers: list[list[Any]] = []
    for (trait, condition, who), (value, parts) in totals.items():
        label = trait.replace("-", " ").capitalize()
        when = ", ".join(x for x in ("wingmen" if who == "wingmen" else "", condition) if x)
        modifiers.append([label, _signed(value), when, ", ".join(parts)])
    return [
        Table(
            id="skills",
            title="Skills",
            columns=["Skill", "Levels", "Notes"],
            rows=skills,
            source=ctx.catalog.cite("PILOT SKILLS"),
        ),
        Table(
            id="quirks",
            title="Quirks",
            columns=["Quirk", "D100", "Description"],
            rows=quirks,
            source=ctx.catalog.cite("QUIRK TABLE"),
        ),
        Table(
            id="modifiers",
            title="Skill and quirk modifiers",
            columns=["Modifier", "Total", "When", "From"],
            rows=modifiers,
            source=ctx.catalog.cite("PILOT SKILLS; QUIRK TABLE"),
        ),
    ]


def _force_derived(ctx: Context, force: ForceDesign) -> Derived:
    cite = ctx.catalog.cite
    members: list[tuple[str, Context]] = ctx.notes.get("members", [])
    rows: list[list[Any]] = []
    reserves: list[list[Any]] = []
    for name, mctx in members:
        fighter = _fighter(mctx.design)
        if fighter is not None:
            stats = fighter_stats(fighter, ctx.catalog)
            pilot = fighter.pilot
            rows.append(
                [
                    name,
                    _enhancement_pool(mctx),
                    _points_pool(mctx) - (pilot.xp if pilot else 0),
                    stats["speed"].value if "speed" in stats else "",
                    _signed(stats["maneuver"].value) if "maneuver" in stats else "",
                    _signed(stats["armor"].value) if "armor" in stats else "",
                    _signed(stats["tohit"].value) if "tohit" in stats else "",
                    (pilot.name or "unnamed") if pilot else "—",
                    pilot_level(ctx.catalog, pilot) if pilot else "",
                    pilot_cool(pilot, ctx.catalog)[0] if pilot else "",
                    pilot.xp if pilot else "",
                    _points_pool(mctx),
                ]
            )
        root = getattr(mctx.design, "root", None)
        if isinstance(root, PilotDesign):
            reserves.append(
                [name, pilot_level(ctx.catalog, root), pilot_cool(root, ctx.catalog)[0], root.xp, _points_pool(mctx)]
            )
    levels_total = sum(pilot_level(ctx.catalog, p) for p in _force_pilots(force))
    figs = [
        Figure(id="kind", label="Design", value="Force"),
        Figure(id="fighters", label="Fighters", value=len(force.fighters), source=cite("FIGHTER CONSTRUCTION")),
        Figure(id="pilots", label="Pilots", value=len(_force_pilots(force)), source=cite("FIGHTER CONSTRUCTION")),
        Figure(
            id="pilot-levels",
            label="Pilot levels",
            value=levels_total,
            detail=f"of {force.pilot_levels} levels worth of pilots" if force.pilot_levels is not None else "",
            source=cite("SAMPLE SCENARIOS: Skirmishes"),
        ),
        Figure(
            id="total-cost",
            label="Total cost",
            value=_points_pool(ctx),
            unit="points",
            detail="fighters + pilots",
            source=cite("FIGHTER CONSTRUCTION"),
        ),
    ]
    tables = [
        Table(
            id="roster",
            title="Roster",
            columns=[
                "Fighter",
                "Enh.",
                "Cost",
                "Speed",
                "Man.",
                "Armor",
                "ToHit",
                "Pilot",
                "Level",
                "Cool",
                "XP",
                "Total",
            ],
            rows=rows,
            source=cite("FIGHTER CONSTRUCTION"),
        ),
        Table(
            id="reserves",
            title="Reserve pilots",
            columns=["Pilot", "Level", "Cool", "XP", "Cost"],
            rows=reserves,
            source=cite("FIGHTER CONSTRUCTION"),
        ),
    ]
    if force.rolls:
        tables.append(_rolls_table(ctx, force.rolls))
    return Derived(figures=figs, tables=tables)


def derive(ctx: Context) -> Derived:
    """Figures and tables; the first figure is always ``kind`` (sheets tell a force's members apart by it)."""
    design: SpaceFuryDesign = ctx.design
    root = design.root
    if isinstance(root, ForceDesign):
        return _force_derived(ctx, root)
    figs: list[Figure] = []
    tables: list[Table] = []
    cite = ctx.catalog.cite
    if isinstance(root, FighterDesign):
        figs.append(Figure(id="kind", label="Design", value="Fighter"))
        figs += _fighter_figures(ctx, root)
        tables += [_weapons_table(ctx, root), _systems_table(ctx, root)]
        if root.rolls:
            tables.append(_rolls_table(ctx, root.rolls))
    else:
        figs.append(Figure(id="kind", label="Design", value="Pilot"))
    pilots = _pilots(design)
    for pilot, _ in pilots:
        figs += _pilot_figures(ctx, pilot)
        tables += _pilot_tables(ctx, pilot)
        if pilot.rolls:
            log = _rolls_table(ctx, pilot.rolls)
            tables.append(log.model_copy(update={"id": "pilot-rolls", "title": "Pilot roll log"}))
    if pilots or isinstance(root, FighterDesign):
        figs.append(
            Figure(
                id="total-cost",
                label="Total cost",
                value=_points_pool(ctx),
                unit="points",
                detail="fighter + pilot" if pilots and isinstance(root, FighterDesign) else "",
                source=cite("FIGHTER CONSTRUCTION"),
            )
        )
    return Derived(figures=figs, tables=tables)


# --- random builds -------------------------------------------------------------------------


class _Log:
    def __init__(self) -> None:
        self.entries: list[RollEntry] = []

    def add(self, table: str, roll: int, result: str = "", note: str = "") -> None:
        self.entries.append(RollEntry(table=table, roll=roll, result=result, note=note))


def _tables(catalog: Catalog) -> dict[str, EnhancementTable]:
    return {t.id: t for t in _items(catalog, "enhancement_tables", EnhancementTable)}


def _pickable(table: EnhancementTable, tables: dict[str, EnhancementTable]) -> list[tuple[str, str | None]]:
    """(item id, sub-table id it sits on or None) a player may pick on ``table``."""
    out: list[tuple[str, str | None]] = []
    for row in table.rows:
        if isinstance(row, ItemRow):
            out.append((row.item, None))
        elif isinstance(row, SubtableRow) and row.table in tables:
            out += [(r.item, row.table) for r in tables[row.table].rows if isinstance(r, ItemRow)]
    return out


class _FighterRoller:
    def __init__(self, catalog: Catalog, rng: random.Random, picks: Sequence[str]) -> None:
        self.catalog = catalog
        self.rng = rng
        self.picks = list(picks)
        self.log = _Log()
        self.tables = _tables(catalog)

    def roll(self, table: EnhancementTable, depth: int = 0) -> Enhancement:
        if depth > 20:
            raise InputError.single(f"the enhancement tables open each other without end ({table.name})")
        while True:
            r = self.rng.randint(1, table.die)
            row = table.row(r)
            if isinstance(row, ItemRow):
                self.log.add(table.id, r, row.item)
                return self._item(row.item)
            if isinstance(row, SubtableRow):
                sub = self.tables.get(row.table)
                if sub is None:
                    raise InputError.single(f"{table.name} roll {r} opens unknown table {row.table!r}")
                self.log.add(table.id, r, sub.id, f"roll on the {sub.name}")
                return self.roll(sub, depth + 1)
            if not self.picks:
                self.log.add(table.id, r, "", "pick 1 result: unattended, rolled again")
                continue
            return self._pick(table, r, self.picks.pop(0))

    def _pick(self, table: EnhancementTable, roll: int, name: str) -> Enhancement:
        wanted = self.catalog.resolve("enhancements", name)
        options = _pickable(table, self.tables)
        found = next(((i, via) for i, via in options if i == wanted), None)
        if found is None:
            names = [getattr(self.catalog.item("enhancements", i), "name", i) for i, _ in options]
            raise InputError.single(
                f"pick {name!r} is not a result of the {table.name}"
                + (f"; {did_you_mean(name, names)}" if names else ""),
                path="--pick",
                allowed=", ".join(names),
            )
        item_id, via = found
        if via is None:
            self.log.add(table.id, roll, item_id, "picked")
        else:
            self.log.add(table.id, roll, via, "picked this sub-table")
            self.log.add(via, roll, item_id, "picked")
        return self._item(item_id)

    def _item(self, item_id: str) -> Enhancement:
        item = self.catalog.item("enhancements", item_id)
        if not isinstance(item, Enhancement):
            raise InputError.single(f"the tables name enhancement {item_id!r}, which the catalog does not have")
        return item


def roll_fighter(
    catalog: Catalog, enhancements: int, seed: int, *, name: str = "", picks: Sequence[str] = ()
) -> SpaceFuryDesign:
    """A fighter with ``enhancements`` enhancements rolled on the tables with ``seed``.

    Each enhancement is a d10 on the Primary table (and a d10 on a sub-table where it
    says so). A "Pick 1 Result" takes the next of ``picks``; with none left it is rolled
    again. An entry that costs more than is left is rolled again. Turrets take the first
    weapons they can carry that no Turret carries yet.
    """
    if not 0 <= enhancements <= MAX_ROLLED:
        raise InputError.single(
            "the number of enhancements to roll is out of range", path="--enhancements", allowed=f"0 to {MAX_ROLLED}"
        )
    p: TablesParams | None = catalog.params(TablesParams)
    tables = _tables(catalog)
    primary = tables.get(p.primary) if p else None
    if primary is None:
        raise InputError.single("the catalog has no Primary enhancement table to roll on")
    roller = _FighterRoller(catalog, random.Random(seed), picks)
    bought: dict[str, int] = {}
    left = enhancements
    attempts = 0
    while left > 0:
        attempts += 1
        if attempts > 1000 + 100 * enhancements:
            raise InputError.single(f"no entry of the tables fits the {left} enhancement(s) left")
        item = roller.roll(primary)
        if item.cost > left:
            roller.log.entries[-1] = roller.log.entries[-1].model_copy(
                update={"note": f"costs {item.cost}, {left} left: rolled again"}
            )
            continue
        left -= item.cost
        bought[item.id] = bought.get(item.id, 0) + item.units
    choices = [EnhancementChoice(id=i, count=n) for i, n in bought.items()]
    fighter = FighterDesign(
        kind="fighter", name=name or f"Rolled fighter {seed}", enhancements=choices, seed=seed, rolls=roller.log.entries
    )
    return SpaceFuryDesign(root=_mount_weapons(fighter, catalog))


def _mount_weapons(fighter: FighterDesign, catalog: Catalog) -> FighterDesign:
    """Give each mount the first weapons it can carry that no mount carries yet."""
    free: list[str] = [arm.weapon_id for arm in armament(fighter, catalog) for _ in range(arm.count)]
    for c in fighter.enhancements:
        free = _without(free, c.weapons)
    choices = [pu.choice for pu in purchases(fighter, catalog)]
    for entry in mount_entries(fighter, catalog):
        can = {w.id for w in mountable(entry.mount, catalog)}
        want = entry.capacity - len(entry.carried)
        picked = [wid for wid in free if wid in can][: max(0, want)]
        free = _without(free, picked)
        i = entry.purchase.index
        choices[i] = choices[i].model_copy(update={"weapons": [*entry.carried, *picked]})
    return fighter.model_copy(update={"enhancements": choices})


def _without(pool: list[str], taken: Iterable[str]) -> list[str]:
    out = list(pool)
    for t in taken:
        if t in out:
            out.remove(t)
    return out


def roll_pilot(
    catalog: Catalog, seed: int, *, xp: int | None = None, level: int | None = None, name: str = ""
) -> SpaceFuryDesign:
    """A pilot rolled with ``seed``: its skills on the d10 table and a quirk check each level.

    Give the XP (the level follows) or the level (the XP is that level's least); neither
    means a level 1 pilot. The first skill is always the table's first-level skill. At
    each level a quirk appears on the check die's number; a quirk the pilot already has,
    or one it is not yet qualified for, is rolled again.
    """
    table = levels(catalog)
    if not table:
        raise InputError.single("the catalog has no Pilot Level Table")
    if xp is not None and level is not None:
        raise InputError.single("give the XP or the level, not both", path="--xp/--level")
    if level is not None:
        row = level_row(catalog, level)
        if row is None:
            raise InputError.single(
                f"level {level} is not on the Pilot Level Table",
                path="--level",
                allowed=f"{table[0].level} to {table[-1].level}",
            )
        xp = row.xp
    elif xp is not None:
        if xp < 0:
            raise InputError.single("XP cannot be negative", path="--xp")
        level = level_for_xp(catalog, xp)
        if level == 0:
            raise InputError.single(
                f"{xp} XP is below level {table[0].level} ({table[0].xp} XP)",
                path="--xp",
                allowed=f"{table[0].xp} or more",
            )
    else:
        level, xp = table[0].level, table[0].xp
    skills_rule: PilotSkillsParams | None = catalog.params(PilotSkillsParams)
    quirk_rule: PilotQuirksParams | None = catalog.params(PilotQuirksParams)
    on_table = sorted(
        (s for s in _items(catalog, "pilot_skills", PilotSkill) if s.roll is not None), key=lambda s: s.roll or 0
    )
    if skills_rule is None or not on_table:
        raise InputError.single("the catalog has no Pilot Skills table to roll on")
    by_roll = {s.roll: s for s in on_table}
    die = max(r for r in by_roll if r is not None)
    quirks_by_roll = _items(catalog, "quirks", Quirk)
    rng = random.Random(seed)
    log = _Log()
    skills = [skills_rule.first_skill]
    quirks: list[str] = []
    for lv in range(1, level + 1):
        if lv > 1:
            r = rng.randint(1, die)
            skill = by_roll.get(r)
            log.add("pilot-skills", r, skill.id if skill else "", f"level {lv}")
            if skill is not None:
                skills.append(skill.id)
        if quirk_rule is None or not quirks_by_roll:
            continue
        r = rng.randint(1, quirk_rule.check_die)
        got = r == quirk_rule.check_on
        log.add("quirk-check", r, "quirk" if got else "", f"level {lv}: a quirk on {quirk_rule.check_on}")
        if got:
            quirks.append(_roll_quirk(catalog, rng, log, quirk_rule.table_die, quirks, lv))
    pilot = PilotDesign(
        kind="pilot",
        name=name or f"Rolled pilot {seed}",
        xp=xp,
        skills=skills,
        quirks=quirks,
        seed=seed,
        rolls=log.entries,
    )
    return SpaceFuryDesign(root=pilot)


def _roll_quirk(catalog: Catalog, rng: random.Random, log: _Log, die: int, have: list[str], level: int) -> str:
    row = level_row(catalog, level)
    rank = _reputation_rank(catalog, row.reputation) if row else None
    for _ in range(1000):
        r = rng.randint(1, die)
        quirk = next((q for q in _items(catalog, "quirks", Quirk) if q.low <= r <= q.high), None)
        if quirk is None:
            log.add("quirks", r, "", "no quirk has this roll: rolled again")
            continue
        if quirk.id in have:
            log.add("quirks", r, quirk.id, "already has it: rolled again")
            continue
        need = _reputation_rank(catalog, quirk.requires_reputation) if quirk.requires_reputation else None
        if need is not None and (rank is None or rank < need):
            log.add("quirks", r, quirk.id, f"needs {quirk.requires_reputation}: rolled again")
            continue
        log.add("quirks", r, quirk.id, f"level {level}")
        return quirk.id
    raise InputError.single("the Quirk Table has no quirk left to roll")


B = TypeVar("B", bound=BaseModel)


def _body(model: type[B], design: BaseModel) -> B:
    """A design's fields without its ``kind``, as a part of another design (a force's fighter)."""
    return model(**{k: v for k, v in dict(design).items() if k != "kind"})


def crew(fighter: SpaceFuryDesign, pilot: SpaceFuryDesign) -> SpaceFuryDesign:
    """The fighter with the pilot at its controls."""
    f, p = fighter.root, pilot.root
    if not isinstance(f, FighterDesign):
        raise InputError.single(f"{fighter.name!r} is a {f.kind}, not a fighter")
    if not isinstance(p, PilotDesign):
        raise InputError.single(f"{pilot.name!r} is a {p.kind}, not a pilot")
    data = _body(PilotData, p)
    return SpaceFuryDesign(root=f.model_copy(update={"pilot": data}))


def force(name: str, members: Sequence[SpaceFuryDesign], pilot_levels: int | None = None) -> SpaceFuryDesign:
    """A force of fighters and reserve pilots (forces given are merged in)."""
    fighters: list[FighterData] = []
    pilots: list[PilotData] = []
    for m in members:
        root = m.root
        if isinstance(root, FighterDesign):
            fighters.append(_body(FighterData, root))
        elif isinstance(root, PilotDesign):
            pilots.append(_body(PilotData, root))
        else:
            fighters += root.fighters
            pilots += root.pilots
    return SpaceFuryDesign(
        root=ForceDesign(kind="force", name=name, fighters=fighters, pilots=pilots, pilot_levels=pilot_levels)
    )


# --- skirmishes ---------------------------------------------------------------------------


def sample_fighters(catalog: Catalog) -> dict[str, FighterData]:
    """The sample fighters of every catalog folder's examples/, by file name (later folders win)."""
    from shipyard.core.designfile import migrate, parse_document, read_text, validation_problems

    out: dict[str, FighterData] = {}
    for folder in catalog.folders:
        for file in sorted((folder / "examples").glob("*.ship")):
            doc = migrate(parse_document(read_text(file), str(file)), str(file))
            try:
                design = SpaceFuryDesign.model_validate(doc.get("design"))
            except ValidationError as exc:
                raise InputError(validation_problems(exc, str(file), ("design",))) from None
            root = resolve(design, catalog).root
            if isinstance(root, FighterDesign):
                out[file.stem] = _body(FighterData, root)
    return out


@dataclass(frozen=True)
class Skirmish:
    roll: int
    sides: tuple[SpaceFuryDesign, SpaceFuryDesign]
    summary: str


def _spread(total: int, n: int, top: int) -> list[int]:
    """``total`` levels over ``n`` pilots as evenly as they go (the first get the odd ones)."""
    if n == 0:
        return []
    return [min(max(total // n + (1 if i < total % n else 0), 1), top) for i in range(n)]


def _describe(squadron: Squadron, fighters: dict[str, FighterData]) -> str:
    return " & ".join(f"{e.count} {fighters[e.fighter].name}{'s' if e.count != 1 else ''}" for e in squadron.fighters)


def skirmish(catalog: Catalog, seed: int, table_id: str = "skirmishes") -> Skirmish:
    """Two squadrons from the Skirmishes table with ``seed``, with pilots whose levels follow it.

    One roll picks the row; "Roll 1D6 + the total number of fighters: each side has this
    many levels worth of pilots" (plus a side's extra dice where the row gives them). A
    side's levels are spread over its pilots as evenly as they go, and each pilot is
    rolled (skills and quirks) with its own seed, drawn from this one.
    """
    table = catalog.item("scenario_tables", table_id)
    if not isinstance(table, ScenarioTable):
        raise InputError.single(
            f"unknown scenario table {table_id!r}", allowed=", ".join(catalog.kind("scenario_tables"))
        )
    samples = sample_fighters(catalog)
    rng = random.Random(seed)
    log = _Log()
    r = rng.randint(1, table.die)
    row = next(x for x in table.rows if x.roll == r)
    missing = [e.fighter for s in (row.side_a, row.side_b) for e in s.fighters if e.fighter not in samples]
    if missing:
        raise InputError.single(
            f"the {table.name} table names sample fighters that no examples/ folder has: {', '.join(missing)}",
            allowed=", ".join(sorted(samples)),
        )
    matchup = f"{_describe(row.side_a, samples)} vs {_describe(row.side_b, samples)}"
    log.add(table.id, r, f"row {r}", matchup)
    level_dice = table.levels.roll(rng)
    log.add(table.id, sum(level_dice), "", f"pilot levels: {table.levels} = {sum(level_dice)}")
    total_fighters = sum(e.count for s in (row.side_a, row.side_b) for e in s.fighters)
    plan: list[tuple[str, Squadron, int, str]] = []
    for letter, squadron in (("A", row.side_a), ("B", row.side_b)):
        plus = total_fighters if table.levels.plus == "total-fighters" else sum(e.count for e in squadron.fighters)
        allowance = sum(level_dice) + plus
        how = f"{table.levels} ({sum(level_dice)}) + {plus} fighters"
        if squadron.extra_levels is not None:
            extra = squadron.extra_levels.roll(rng)
            log.add(
                table.id, sum(extra), "", f"side {letter} extra pilot levels: {squadron.extra_levels} = {sum(extra)}"
            )
            allowance += sum(extra)
            how += f" + {squadron.extra_levels} extra ({sum(extra)})"
        plan.append((letter, squadron, allowance, how))
    top = levels(catalog)[-1].level
    headline = f"{table.name} roll {r}: {matchup}"
    lines = [headline]
    sides: list[SpaceFuryDesign] = []
    for letter, squadron, allowance, how in plan:
        kinds = [samples[e.fighter] for e in squadron.fighters for _ in range(e.count)]
        spread = _spread(allowance, len(kinds), top)
        crewed: list[FighterData] = []
        for k, (sample, lv) in enumerate(zip(kinds, spread, strict=True), 1):
            pilot = roll_pilot(catalog, rng.randrange(2**32), level=lv, name=f"Pilot {letter}{k}").root
            data = _body(PilotData, pilot)
            crewed.append(sample.model_copy(update={"name": f"{sample.name} {letter}{k}", "pilot": data}))
        lines.append(f"side {letter}: {allowance} pilot levels ({how}), spread {', '.join(map(str, spread))}")
        sides.append(
            SpaceFuryDesign(
                root=ForceDesign(
                    kind="force",
                    name=f"Skirmish {r}, side {letter}",
                    notes=f"{headline}. Side {letter} has {allowance} levels worth of pilots: {how}.",
                    fighters=crewed,
                    pilot_levels=allowance,
                    seed=seed,
                    rolls=log.entries,
                )
            )
        )
    return Skirmish(r, (sides[0], sides[1]), "\n".join(lines))
