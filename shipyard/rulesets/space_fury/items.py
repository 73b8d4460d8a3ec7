"""Space Fury's catalog item kinds: what each section of ``catalogs/space-fury`` holds.

The shapes are strict (an unknown key stops loading) so a house rule cannot misspell a
field and be ignored; what the entries mean in play is for the rules (:mod:`.mechanisms`)
and the figures (:mod:`.derive`).
"""

import random
from typing import Annotated, Literal, Self

from pydantic import BaseModel, Field, model_validator

from shipyard.core.items import DEFERRED, ID_PATTERN, CatalogItem, Chart


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
    def _consecutive(self) -> Self:
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
    def _every_face_once(self) -> Self:
        _each_face_once([r.roll for r in self.rows], self.die)
        return self

    def row(self, roll: int) -> ItemRow | SubtableRow | PickRow:
        return next(r for r in self.rows if r.roll == roll)


def _each_face_once(rolls: list[int], die: int) -> None:
    """A table rolled on gives each face of its die exactly one row, or a roll finds nothing."""
    if sorted(rolls) != list(range(1, die + 1)):
        raise ValueError(f"rows must give each roll 1 to {die} exactly once")


class Weapon(CatalogItem):
    range: int | None = Field(default=None, ge=0, description="hexes; none for missiles, which move")
    damage: str = Field(pattern=r"^[+-](\d+|X)$", description="as printed: +0, +3, +X")
    tohit: int
    speed: int | None = None
    maneuver: int | None = None
    tags: list[str] = Field(default_factory=list)
    ammo: str = ""
    notes: str = ""


class CountDef(CatalogItem):
    """A figure the rules count up while they run (a fighter's enhancements, what a design
    costs): the name and unit reports print it with. The rules name it by its id."""

    unit: str = Field(default="", description="what is counted, when the name does not say it (points)")


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
    def _every_face_once(self) -> Self:
        _each_face_once([r.roll for r in self.rows], self.die)
        return self


ITEM_KINDS: dict[str, type[CatalogItem]] = {
    "counts": CountDef,
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


def cost_detail(table: CostTable, n: int) -> str:
    """How a cost comes out of the table: a row, or the last row and the steps beyond it."""
    last = table.rows[-1]
    if n <= last.count or not isinstance(table.beyond, AddCountBeyond):
        return f"{table.name} table, {n} {table.counts}"
    steps = " + ".join(str(k) for k in range(last.count + 1, n + 1))
    return f"{table.name} table: {last.cost} for {last.count}, + {steps} beyond it"
