"""The shape of a Cluster Falk ship record (the design file's ``design`` object).

The ranges here only keep a file sane (no ten-digit ratings); what the rules allow (a
rating from +0 to +8, a skill from 0 to 100%, 1 to 10 stress boxes) is catalog data,
checked by the rules, so a finding with the rule's source says what is wrong and a
preset can change it.
"""

from typing import Annotated, ClassVar, Literal, Self

from pydantic import Field, field_validator, model_validator

from shipyard.core.designtypes import Presentation, Strict

_Name = Annotated[str, Field(min_length=1, max_length=200)]
_Text = Annotated[str, Field(max_length=20_000)]
_Line = Annotated[str, Field(max_length=2_000)]
_Rating = Annotated[int, Field(ge=-20, le=20, description="on the Fate ladder: +0 Mediocre .. +8 Legendary")]
_Percent = Annotated[int, Field(ge=-999, le=999, description="a percentage skill")]
_Ref = Annotated[str, Field(min_length=1, max_length=100, description="catalog id or name")]
_Skills = Annotated[dict[_Ref, _Percent], Field(max_length=50)]


class Ratings(Strict):
    """The ship's base ratings on the Fate ladder (play degrades them; the sheet has boxes for that)."""

    drives: _Rating
    guns: _Rating
    shields: _Rating
    systems: _Rating


_Box = Annotated[int, Field(ge=1, le=100, description="a stress box by its number (box n absorbs n shifts)")]
_TICKED = "the boxes ticked in play, by their number; none: the track is clear"


class Stress(Strict):
    """How many boxes each stress track has (box n absorbs n shifts), and which are ticked.

    The ticks are kept box by box, not as a count: a hit ticks the box its shifts name,
    leaving smaller boxes clear, and Repair clears one box by its value, so which boxes are
    ticked is what the next hit and the next repair read. A file written before ticks were
    recorded has none: its tracks read as clear."""

    hull: int = Field(ge=0, le=100)
    systems: int = Field(ge=0, le=100)
    hull_ticked: list[_Box] = Field(default_factory=list, max_length=100, description=_TICKED)
    systems_ticked: list[_Box] = Field(default_factory=list, max_length=100, description=_TICKED)

    def ticked(self, track: str) -> list[int]:
        """The ticked boxes of the track ``track`` (``hull`` or ``systems``)."""
        ticks: list[int] = getattr(self, f"{track}_ticked")
        return ticks

    @field_validator("hull_ticked", "systems_ticked")
    @classmethod
    def _each_box_once(cls, ticks: list[int]) -> list[int]:
        twice = sorted({n for n in ticks if ticks.count(n) > 1})
        if twice:
            raise ValueError(f"box {twice[0]} is ticked twice: a box is ticked or clear")
        return ticks


class _CatalogOrCustom(Strict):
    """An entry from the catalog (``id``) or the record's own (``name`` and ``text``)."""

    noun: ClassVar[str] = "entry"
    id: _Ref | None = Field(default=None, description="catalog id or name")
    name: _Name | None = Field(default=None, description="a custom entry's name")
    text: _Line = Field(default="", description="a custom entry's rule text")

    @model_validator(mode="after")
    def _catalog_or_custom(self) -> Self:
        if (self.id is None) == (self.name is None):
            raise ValueError(f"give a catalog {self.noun}'s id, or a custom {self.noun}'s name and text")
        if self.id is not None and self.text:
            raise ValueError(f"a catalog {self.noun} takes its text from the catalog; leave text out")
        return self


class StuntChoice(_CatalogOrCustom):
    """A stunt from the catalog (``id``) or the record's own (``name`` and ``text``)."""

    noun: ClassVar[str] = "stunt"
    damaged: bool = Field(default=False, description="damaged by a Systems consequence")


class SpecialWeaponChoice(_CatalogOrCustom):
    """A special weapon installed: from the catalog (``id``) or custom (``name`` and ``text``)."""

    noun: ClassVar[str] = "special weapon"


class Turret(Strict):
    name: _Name = Field(description="a name crew members' stations refer to (Dorsal turret)")
    crewed: bool = Field(default=False, description="a gunner mans it; unmanned it fires at the AI's skill")


class CrewMember(Strict):
    name: _Name
    station: _Ref | None = Field(
        default=None,
        description="one of the ship's stations (cockpit, engineering ...) or a turret's name; "
        "none: aboard at no station (skills used from anywhere, like Engineering, still count)",
    )
    skills: _Skills = Field(default_factory=dict, description="crew skill percentages by crew skill id")


class Craft(Strict):
    name: _Name
    count: int = Field(default=1, ge=1, le=10_000)


class Hangar(Strict):
    craft: list[Craft] = Field(default_factory=list, max_length=100, description="the craft the hangar carries")


class TorpedoLoad(Strict):
    id: _Ref = Field(description="catalog torpedo id or name")
    count: int = Field(ge=1, le=1000)


class Consequence(Strict):
    """A consequence taken: its aspect and the stress track it was taken on."""

    aspect: _Name
    track: Literal["hull", "systems"]


class Consequences(Strict):
    mild: Consequence | None = None
    moderate: Consequence | None = None
    serious: Consequence | None = None
    extreme: Consequence | None = None


class Design(Presentation):
    """A Cluster Falk starship as its record describes it."""

    name: _Name
    concept: _Text = ""
    aspects: list[_Name] = Field(default_factory=list, max_length=20, description="high concept first")
    size: int = Field(ge=-999, le=999, description="for the size contest and handling")
    scale: int = Field(ge=-99, le=99, description="what the ship may do; 0 is a torpedo")
    speed: _Rating
    tech_level: int = Field(ge=-99, le=99)
    sensors: Literal["military", "civilian"]
    ratings: Ratings
    hyperdrive: bool = False
    skills: _Skills = Field(default_factory=dict, description="ship skill percentages; missing = the AI's default")
    crew: list[CrewMember] = Field(default_factory=list, max_length=200)
    stunts: list[StuntChoice] = Field(default_factory=list, max_length=50)
    stations: list[_Ref] = Field(default_factory=list, max_length=50, description="catalog station ids")
    turrets: list[Turret] = Field(default_factory=list, max_length=200)
    hangar: Hangar | None = None
    special_weapons: list[SpecialWeaponChoice] = Field(default_factory=list, max_length=50)
    torpedoes: list[TorpedoLoad] = Field(default_factory=list, max_length=50)
    stress: Stress
    consequences: Consequences = Field(default_factory=Consequences, description="consequences taken, if any")
    notes: _Text = ""

    @field_validator("name")
    @classmethod
    def _not_blank(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("name must not be blank")
        return v
