"""The shape of a Wing Commander fighter record's ``design`` object.

The record holds what the house rules read from a fighter and its pilot; none of it is
bought from a budget. The house rules give no stat blocks, so every number is the
record's own; the ranges here only keep a file sane (the rules' ranges, DRV -5..+5 and
DEX 1..20, are catalog stats checked as findings, so a house rule can change them).

The model names carry a ``WC`` prefix: every ruleset's design joins one JSON Schema
(``shipyard schema``), where two models of the same name would be renamed.
"""

from typing import Annotated, Any

from pydantic import AfterValidator, Field, SerializerFunctionWrapHandler, model_serializer

from shipyard.core.designtypes import Presentation, Strict, not_blank

_Text = Annotated[str, Field(max_length=20_000)]
_Damage = Annotated[str, Field(max_length=80, description="damage as Alternity writes it, e.g. d4+1w/d4+3w/d4m")]
_Step = Annotated[int, Field(ge=-20, le=20, description="an Alternity step modifier: negative is a bonus")]
_Score = Annotated[int, Field(ge=0, le=40)]
_Name = Annotated[str, Field(min_length=1, max_length=120), AfterValidator(not_blank)]  # the core's Name, shorter


class WCRange(Strict):
    """A gun's range bands, in hexes."""

    short: int = Field(ge=0, le=1000)
    medium: int = Field(ge=0, le=1000)
    long: int = Field(ge=0, le=1000)


class WCGun(Strict):
    name: _Name
    count: int = Field(default=1, ge=0, le=20, description="guns of this kind; 0: listed but not fitted")
    accuracy: _Step = Field(default=0, description="accuracy step modifier: negative is better")
    range: WCRange
    damage: _Damage = ""
    link_group: Annotated[str, Field(min_length=1, max_length=40)] | None = Field(
        default=None, description="guns with the same link group fire together with one attack roll"
    )


class WCMissile(Strict):
    """One missile load; the list's order is the loadout order."""

    name: _Name
    # the file may hold a count below 0 (a typo, a tally run past empty): the rules' check
    # says so as an error finding at its place, not a file refused (missile-loadout)
    count: int = Field(default=1, ge=-100, le=100, description="missiles in this load")
    drv: _Step = Field(default=0, description="the missile's own DRV modifier")
    score: _Score = Field(default=0, description="the missile's inherent score, for its maneuvers after launch")
    lock_time: int | None = Field(default=None, ge=0, le=40, description="phases the target must stay in the arc")
    damage: _Damage = ""


class WCComponent(Strict):
    name: _Name
    space: int = Field(
        default=0, ge=-100, le=100, description="0 for internal systems that take no space; below 0 is a finding"
    )


class WCCompartment(Strict):
    name: _Name
    durability: int = Field(ge=0, le=100)
    components: list[WCComponent] = Field(default_factory=list, max_length=40)


class WCPilot(Strict):
    name: str = Field(default="", max_length=120)
    dex: int = Field(ge=0, le=99, description="Dexterity")
    action_check: int = Field(ge=0, le=99, description="the action check score")
    skills: dict[Annotated[str, Field(min_length=1, max_length=60)], _Score] = Field(
        default_factory=dict, max_length=50, description="skill scores by skill id (piloting, gunnery)"
    )


class WCFighter(Presentation):
    """A fighter as the house rules read it, with its pilot. The file key ``class`` is the
    ship's class; in Python it is ``ship_class`` (``class`` is a keyword)."""

    name: _Name
    ship_class: str = Field(
        default="", max_length=120, alias="class", description="the ship's class, e.g. Light fighter (Confederation)"
    )
    drv: _Step = Field(default=0, description="the ship's DRV modifier (a step modifier; negative is a bonus)")
    acceleration: int = Field(default=0, ge=0, le=100)
    afterburner: int = Field(default=0, ge=0, le=100, description="the afterburner maximum")
    slide_system: bool = False
    turrets: int = Field(default=0, ge=0, le=20, description="automated turrets")
    guns: list[WCGun] = Field(default_factory=list, max_length=40)
    missiles: list[WCMissile] = Field(default_factory=list, max_length=20, description="in loadout order")
    compartments: list[WCCompartment] = Field(default_factory=list, max_length=40)
    pilot: WCPilot
    notes: _Text = ""

    @model_serializer(mode="wrap")
    def _class_as_in_the_file(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """Write ``class`` (the file's key), not the Python name, in every dump."""
        data: dict[str, Any] = handler(self)
        return {("class" if k == "ship_class" else k): v for k, v in data.items()}
