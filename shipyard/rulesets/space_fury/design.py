"""The shape of a Space Fury design file: a fighter, a pilot or a force, told apart by ``kind``.

The bounds here (``MAX_COUNT``, ``MAX_SEED``, list lengths) keep a runaway file from
running away with the program; they are not rules. The accessors at the end let the
other modules ask "which pilots does this design's own rules check?" in one place.
"""

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, RootModel, model_validator

from shipyard.core.designtypes import Presentation, Strict

_Name = Annotated[str, Field(min_length=1, max_length=200)]
_Text = Annotated[str, Field(max_length=20_000)]
MAX_SEED = 2**63 - 1  # what a design file records; larger seeds would not round-trip
_Seed = Annotated[int, Field(ge=0, le=MAX_SEED)]
MAX_COUNT = 10_000  # a bound on what one design file may hold, not a rule
MAX_ROLLED = 1_000


class EnhancementChoice(Strict):
    id: _Name = Field(description="enhancement id, name or alias from the tables")
    count: int = Field(default=1, ge=1, le=MAX_COUNT, description="how many; for missiles, how many missiles")
    weapons: list[_Name] = Field(
        default_factory=list, max_length=20, description="for a Turret: the weapon it carries (one per Turret)"
    )
    replaces_basic: bool = Field(
        default=False, description="this special gun replaces the basic Laser (as the sample fighters count it)"
    )


class RollEntry(Strict):
    """One die roll of a random build: the table, the roll, what it gave."""

    table: _Name
    roll: int = Field(ge=1, le=1000)
    result: str = Field(default="", max_length=200, description="the id it gave; empty when rolled again")
    note: str = Field(default="", max_length=500)


class Published(Strict):
    enhancements: int = Field(ge=0, le=1000, description="the enhancement count the source prints")
    systems: _Text = Field(default="", description="the systems as the source prints them")


class PilotData(Strict):
    name: str = Field(default="", max_length=200)
    xp: int = Field(ge=0, le=100_000, description="experience points; the pilot costs this many points")
    level: int | None = Field(default=None, ge=1, le=1000, description="the level claimed (default: from the XP)")
    skills: list[_Name] = Field(default_factory=list, max_length=1000, description="first Basic Combat Pilot")
    quirks: list[_Name] = Field(default_factory=list, max_length=1000)
    seed: _Seed | None = Field(default=None, description="the seed it was rolled with")
    rolls: list[RollEntry] = Field(default_factory=list, max_length=5000)
    notes: _Text = ""


class FighterData(Strict):
    name: _Name
    notes: _Text = ""
    published: Published | None = None
    enhancements: list[EnhancementChoice] = Field(default_factory=list, max_length=200)
    seed: _Seed | None = Field(default=None, description="the seed it was rolled with")
    rolls: list[RollEntry] = Field(default_factory=list, max_length=5000)
    pilot: PilotData | None = None


class ForceData(Strict):
    name: _Name
    notes: _Text = ""
    fighters: list[FighterData] = Field(default_factory=list, max_length=500)
    pilots: list[PilotData] = Field(default_factory=list, max_length=500, description="reserve pilots")
    pilot_levels: int | None = Field(
        default=None, ge=0, le=100_000, description="levels worth of pilots the side has (Skirmishes)"
    )
    seed: _Seed | None = None
    rolls: list[RollEntry] = Field(default_factory=list, max_length=5000)


class FighterDesign(FighterData, Presentation):
    kind: Literal["fighter"]


class PilotDesign(PilotData, Presentation):
    name: _Name
    kind: Literal["pilot"]


class ForceDesign(ForceData, Presentation):
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


# Which part of a design the rules look at: every rule runs for every kind of design, and
# asks these rather than testing the kind itself.


def fighter_of(design: Any) -> FighterData | None:
    """The design's fighter, when it is a fighter (a force's fighters are its members')."""
    root = getattr(design, "root", None)
    return root if isinstance(root, FighterDesign) else None


def force_of(design: Any) -> ForceDesign | None:
    """The design's force, when it is one."""
    root = getattr(design, "root", None)
    return root if isinstance(root, ForceDesign) else None


def pilots_of(design: Any) -> list[tuple[PilotData, str]]:
    """The pilot(s) a design's own rules check, with the path prefix of each."""
    root = getattr(design, "root", None)
    if isinstance(root, PilotDesign):
        return [(root, "")]
    if isinstance(root, FighterDesign) and root.pilot is not None:
        return [(root.pilot, "pilot.")]
    return []


def force_pilots(force: ForceData) -> list[PilotData]:
    """Every pilot of a force: those at the fighters' controls, then the reserves."""
    return [f.pilot for f in force.fighters if f.pilot is not None] + list(force.pilots)
