"""The shape of a Space Fighter Alpha design file's ``design`` object."""

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator

from shipyard.core.designtypes import Presentation, Strict

# --- the design ----------------------------------------------------------------------------

_Name = Annotated[str, Field(min_length=1, max_length=200)]
_Text = Annotated[str, Field(max_length=20_000)]
_Stat = Annotated[int, Field(ge=-99, le=99)]


class WeaponChoice(Strict):
    weapon: _Name = Field(description="weapon id, name or alias from the catalog")
    count: int = Field(default=1, ge=1, le=1000)
    turret: bool = False
    fire_link: str | None = Field(default=None, max_length=50, description="fire-link group name")
    scale: str | None = Field(default=None, max_length=40, description="component scale for out-of-scale weapons")


class ItemChoice(Strict):
    id: _Name = Field(description="catalog id, name or alias")
    level: int = Field(default=1, ge=1, le=1000)
    scale: str | None = Field(default=None, max_length=40, description="component scale for out-of-scale items")
    options: dict[Annotated[str, Field(max_length=60)], Annotated[int, Field(ge=0, le=100)]] = Field(
        default_factory=dict, max_length=20, description="e.g. the AI's dexterity/piloting/gunnery spread"
    )


class CustomTechnology(Strict):
    """A component bought as advanced technology: larger-scale weapons, house inventions."""

    name: _Name
    cost: int = Field(ge=0, le=1000, description="Power Points the Storyteller assigns")
    scale: str | None = Field(default=None, max_length=40)
    description: _Text = ""


class CustomWeapon(Strict):
    """A weapon not on the chart (e.g. converted from another system); the Storyteller prices it."""

    name: _Name
    count: int = Field(default=1, ge=1, le=1000)
    speed: _Stat = 0
    damage: _Stat = Field(description="damage modifier added to the attack pool")
    range: int | None = Field(default=None, ge=0, le=1000)
    cost: int = Field(default=0, ge=0, le=1000, description="Weapon Points per weapon the Storyteller assigns")
    scale: str | None = Field(default=None, max_length=40, description="component scale for out-of-scale weapons")
    notes: _Text = ""


class ConversionNote(Strict):
    """One line of a conversion report: what became of one field of the original."""

    field: str = Field(max_length=200)
    status: Literal["converted", "note", "assumed", "conflict"]
    original: str = Field(default="", max_length=2000)
    value: str = Field(default="", max_length=2000)
    message: str = Field(default="", max_length=2000)
    source: str = Field(default="", max_length=500)


class Conversion(Strict):
    """Marks a design converted from another game: its budgets are shown for information."""

    system: _Name
    source: dict[str, Any] = Field(default_factory=dict, description="the original record, as read")
    report: list[ConversionNote] = Field(default_factory=list, max_length=1000)


class Pilot(Strict):
    name: str = Field(default="", max_length=200)
    dexterity: int = Field(ge=0, le=20)
    piloting: int = Field(ge=0, le=20)
    gunnery: int = Field(default=0, ge=0, le=20)
    willpower: int = Field(default=0, ge=0, le=20)


class Form(Strict):
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


class Design(Presentation):
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
    priority: list[Annotated[str, Field(max_length=60)]] | None = Field(
        default=None, max_length=20, description="pinned attribute priority, highest first"
    )
    weapons: list[WeaponChoice] = Field(default_factory=list, max_length=200)
    technology: list[ItemChoice] = Field(default_factory=list, max_length=200)
    custom_technology: list[CustomTechnology] = Field(default_factory=list, max_length=200)
    custom_weapons: list[CustomWeapon] = Field(default_factory=list, max_length=200)
    accessories: list[ItemChoice] = Field(default_factory=list, max_length=200)
    budgets: dict[Annotated[str, Field(max_length=60)], Annotated[int, Field(ge=0, le=10_000)]] = Field(
        default_factory=dict, max_length=50, description="Storyteller budget settings by pool id"
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
