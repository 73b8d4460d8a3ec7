"""The shape of a Future Perfect design file's ``design`` object: a starship record.

The ranges here are input limits (what a file may hold at all). The rules' own limits
(a ship needs APs, a commander, damage within its tracks ...) are checks that give
findings, so a record that breaks one still opens and says why.
"""

from typing import Annotated, Literal

from pydantic import ConfigDict, Field

from shipyard.core.designtypes import KeyName, MapKey, Name, Presentation, Strict
from shipyard.rulesets.future_perfect.items import PlanRole, RoleId, SystemKindId

_Text = Annotated[str, Field(max_length=20_000)]
_Points = Annotated[int, Field(ge=0, le=100)]
_Levels = Annotated[int, Field(ge=1, le=20)]
_Damage = Annotated[int, Field(ge=0, le=40)]
_Rating = Annotated[int, Field(ge=0, le=20)]


class FuturePerfectSystem(Strict):
    """A ship system with its two damage tracks (core and ephemeral). Its name keys the
    round plan's augmented AP (plan.augmented.NAME), so it may not hold '.', '[' or ']'."""

    name: KeyName
    kind: SystemKindId
    shield: _Rating | None = Field(default=None, description="the Shield value (shield systems)")
    core_levels: _Levels | None = Field(default=None, description="boxes of the core damage track; default: catalog")
    ephemeral_levels: _Levels | None = Field(
        default=None, description="boxes of the ephemeral damage track; default: catalog"
    )
    core_damage: _Damage = Field(default=0, description="core damage taken: cannot be repaired in combat")
    ephemeral_damage: _Damage = Field(default=0, description="ephemeral damage taken: can be repaired in combat")


class FuturePerfectWeapon(Strict):
    name: Name
    system: str = Field(default="", max_length=200, description="the name of the weapon system it belongs to")
    grade: Literal["primary", "secondary"] = "primary"


class FuturePerfectCrewMember(Strict):
    name: Name
    role: RoleId
    skill: str = Field(default="", max_length=80, description="the skill the role rolls (Command: Tactics ...)")
    rating: _Rating = Field(default=0, description="the character's rating in that skill")
    acuity: _Rating | None = Field(default=None, description="Acuity: the helmsman's breaks initiative ties")


class FuturePerfectAction(Strict):
    """One action a role buys this round from its allocation, with the power paid towards it."""

    role: PlanRole
    action: Name = Field(description="an action id (or name) of the catalog's AP cost tables")
    target: str | None = Field(default=None, max_length=200, description="the weapon or system it acts on")
    power: int = Field(default=0, ge=0, le=99, description="points of its AP cost paid from the power bank")


class FuturePerfectPlan(Strict):
    """The round plan: the initiative bid, each role's AP allocation, what each role buys."""

    initiative: _Points = Field(default=0, description="APs bid for initiative")
    helm: _Points = 0
    tactical: _Points = 0
    engineering: _Points = 0
    augmented: dict[MapKey, _Points] = Field(
        default_factory=dict, max_length=100, description="AP by system name, from last round's Augment"
    )
    actions: list[FuturePerfectAction] = Field(default_factory=list, max_length=200)


class FuturePerfectShip(Presentation):
    """A Future Perfect starship as its record sheet holds it, with an optional round plan."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, validate_by_name=True, validate_by_alias=True, serialize_by_alias=True
    )

    name: Name
    class_: str = Field(default="", alias="class", max_length=200, description="the ship's class")
    ap: _Points = Field(description="action points the ship can spend each round")
    power_rating: _Points = Field(description="power the ship generates each round")
    power_bank: _Points = Field(default=0, description="power stored in the bank now")
    bank_capacity: _Points | None = Field(default=None, description="what the bank holds; default: catalog")
    size: _Points = Field(description="Size value: successes per +1 base defense")
    speed: _Points = Field(description="Speed value: an initiative tie-break")
    systems: list[FuturePerfectSystem] = Field(default_factory=list, max_length=100)
    weapons: list[FuturePerfectWeapon] = Field(default_factory=list, max_length=100)
    crew: list[FuturePerfectCrewMember] = Field(default_factory=list, max_length=200)
    plan: FuturePerfectPlan | None = None
    notes: _Text = ""


Design = FuturePerfectShip  # the name the core asks a ruleset module for
