"""Catalog item kinds of The Cluster Falk: the ladder, skills, stations, stunts, weapons,
torpedoes, the consequence ladder, the Hull effects, engagement actions, and the numbers
that compare two ships (Size advantage, detection)."""

from typing import Literal

from pydantic import Field

from shipyard.core.items import CatalogItem, Chart

# What a ship has or has not, that an action, a station or a stunt may need.
Equipment = Literal["hyperdrive", "special-weapon", "hangar", "craft"]
EQUIPMENT_NAMES: dict[str, str] = {
    "hyperdrive": "a hyperdrive",
    "special-weapon": "a special weapon installed",
    "hangar": "a hangar",
    "craft": "craft in the hangar",
}


class LadderStep(CatalogItem):
    """One step of the Fate ladder: +4 is Great."""

    value: int = Field(ge=-10, le=20)


class ShipSkill(CatalogItem):
    """A function the ship's AI automates (Pilot, Sensors ...), and who may take it over."""

    crew_skills: list[str] = Field(min_length=1, description="crew skills that take this function over")
    anywhere: bool = Field(default=False, description="crew use it from anywhere aboard (Engineering)")
    crew_always_counts: bool = Field(
        default=False, description="a crew member in position counts even when worse than the ship (Pilot)"
    )
    from_turrets: bool = Field(default=False, description="a gunner at a turret uses it (Military Training)")
    description: str = ""


class CrewSkill(CatalogItem):
    description: str = ""


class Station(CatalogItem):
    """A place aboard: the ship functions a crew member seated there may take over."""

    serves: list[str] = Field(default_factory=list, description="ship skill ids")
    requires: Equipment | None = None
    description: str = ""


class Stunt(CatalogItem):
    text: str
    requires: Equipment | None = None
    half_turn: list[str] = Field(default_factory=list, description="actions this stunt cuts to half a turn")


class SpecialWeapon(CatalogItem):
    text: str


class Torpedo(CatalogItem):
    """A torpedo: a Scale 0 craft with its own Pilot and Drives, stunts and payload."""

    scale: int = Field(ge=0, le=99)
    pilot: int = Field(ge=-10, le=20, description="Pilot on the ladder")
    drives: int = Field(ge=-10, le=20, description="Drives on the ladder")
    stunts: list[str] = Field(default_factory=list)
    damage: int = Field(ge=0, le=99)
    text: str = ""


class ConsequenceSlot(CatalogItem):
    """Mild 2, Moderate 4, Serious 6, Extreme 8: a slot and the shifts it absorbs."""

    value: int = Field(ge=1, le=99)
    min_scale: int | None = Field(default=None, ge=0, description="only ships of this Scale or above have it")


class HullEffect(CatalogItem):
    """One row of the Hull consequence effects, by the 4dF result."""

    roll: int = Field(ge=-10, le=10)
    effect: str


class EngagementAction(CatalogItem):
    """A standard engagement action: its skill, turn part, effect and who may take it."""

    group: Literal["attack", "non-attack"]
    skill: str = Field(description="as the text names it: Pilot/Guns, Engineering, Any")
    modified_by: str = Field(default="", description="skills the text says modify the roll")
    uses: list[str] = Field(default_factory=list, description="the figures its roll is made from")
    turn: str = Field(description="full turn, half turn, second half, either half")
    effect: str
    scale_min: int | None = Field(default=None, ge=0)
    scale_max: int | None = Field(default=None, ge=0)
    requires: list[Equipment] = Field(default_factory=list)
    target: str = Field(default="", description="what the target must be (target Scale 4+)")
    needs: str = Field(default="", description="what the situation must be (no tail, 2+ levels apart)")
    per_turn: Literal["gunner-or-turret"] | None = Field(
        default=None, description="how often a turn it may be taken, when the text limits it"
    )


class SizeAdvantage(CatalogItem):
    """How much bigger one ship must be for its Size to count, and what each level gives."""

    free_levels: int = Field(ge=0, le=100)
    percent_per_level: int = Field(ge=0, le=100)
    applies_to: str
    evasion: str


class DetectionModifier(CatalogItem):
    """Sensors vs Sensors: military sensors over civilian, and Tech Level differences."""

    military_over_civilian: int = Field(ge=0, le=100)
    percent_per_tech_level: int = Field(ge=0, le=100)


ITEM_KINDS: dict[str, type[CatalogItem]] = {
    "ladder": LadderStep,
    "ship_skills": ShipSkill,
    "crew_skills": CrewSkill,
    "stations": Station,
    "stunts": Stunt,
    "special_weapons": SpecialWeapon,
    "torpedoes": Torpedo,
    "consequences": ConsequenceSlot,
    "hull_effects": HullEffect,
    "actions": EngagementAction,
    "size_advantage": SizeAdvantage,
    "detection": DetectionModifier,
    "charts": Chart,
}
