"""Catalog item kinds of Space Fighter Alpha, and the shape of its stat-block text."""

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from shipyard.core.items import CatalogItem, Chart, ItemRef, PricedItem

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
    robot_with: Annotated[list[str], ItemRef("accessories")] = Field(
        default_factory=list, description="ids of accessories that together make a form an anthropomorphic robot"
    )


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

    @property
    def virtual_pilot(self) -> bool:
        """An AI: its virtual pilot has points to spread over the pilot's traits."""
        return any(isinstance(e, VirtualPilotEffect) for e in self.effects)


class Accessory(PricedItem):
    notes: str = ""
    effects: list[Effect] = Field(default_factory=list)


class Maneuver(CatalogItem):
    soak: int
    handling: int
    notes: str = ""
    description: str = ""


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


# --- the stat-block text format (read by the statblock package beside this module) ---------


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
