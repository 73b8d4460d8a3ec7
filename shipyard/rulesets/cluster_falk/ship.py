"""A ship record as the rules read it: who sits where, each function's effective skill, the
equipment aboard, the ladder's words, and the report parts the rules have worked out.

Nothing here is a rule's number: the AI's default skill and the percent a ladder step is
worth come in as arguments, from the ``ship-skills`` rule of the catalog.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shipyard.core.model import Catalog, Context
from shipyard.core.report import Action, Figure, Slot, Table, Track
from shipyard.rulesets.cluster_falk.design import CrewMember, Design
from shipyard.rulesets.cluster_falk.items import LadderStep, ShipSkill, Station

# --- the report parts the rules add -------------------------------------------------------------


@dataclass
class Parts:
    """The report parts the rules work out, in the order the rules ran."""

    figures: list[Figure] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    tracks: list[Track] = field(default_factory=list)
    slots: list[Slot] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)


def parts(ctx: Context) -> Parts:
    """This evaluation's parts (started the first time a rule adds one)."""
    found = ctx.notes.get("parts")
    if not isinstance(found, Parts):
        found = ctx.notes["parts"] = Parts()
    return found


# --- the ladder ----------------------------------------------------------------------------------


def signed(n: int) -> str:
    """A ladder value or modifier as the text writes it: +3, -2, 0."""
    return f"{n:+d}" if n else "0"


def ladder_word(catalog: Catalog, value: int) -> str:
    """The ladder's word for a value (+4: Great); "" off the ladder."""
    words = catalog.memo(
        "ladder-words",
        lambda: {i.value: i.name for i in catalog.kind("ladder").values() if isinstance(i, LadderStep)},
    )
    return words.get(value, "")


def rated(catalog: Catalog, value: int) -> str:
    """A ladder value as a sheet says it: "Good (+3)"."""
    word = ladder_word(catalog, value)
    return f"{word} ({value:+d})" if word else f"{value:+d}"


# --- stations and seats ----------------------------------------------------------------------------


def station_item(catalog: Catalog, station_id: str) -> Station | None:
    item = catalog.item("stations", station_id)
    return item if isinstance(item, Station) else None


def ship_skill_items(catalog: Catalog) -> list[ShipSkill]:
    return [i for i in catalog.kind("ship_skills").values() if isinstance(i, ShipSkill)]


@dataclass(frozen=True)
class Seat:
    """Where a crew member sits: a station the ship has, or one of its turrets."""

    member: int
    station: str = ""  # catalog station id; "" at a turret
    turret: int | None = None


def seats(design: Design) -> list[Seat]:
    """Each crew member's seat (a resolved design names a turret or one of its stations)."""
    turrets = {t.name: i for i, t in enumerate(design.turrets)}
    out = []
    for i, member in enumerate(design.crew):
        if member.station is None:
            out.append(Seat(i))  # aboard at no station
        elif member.station in turrets:
            out.append(Seat(i, turret=turrets[member.station]))
        elif member.station in design.stations:
            out.append(Seat(i, member.station))
    return out


def seat_name(catalog: Catalog, design: Design, seat: Seat) -> str:
    if seat.turret is not None:
        return design.turrets[seat.turret].name
    if not seat.station:
        return "aboard"
    station = station_item(catalog, seat.station)
    return station.name if station is not None else seat.station


def crew_value(member: CrewMember, skill: ShipSkill) -> int | None:
    """The best of a crew member's skills that take ``skill`` over, or None if they have none."""
    values = [member.skills[s] for s in skill.crew_skills if s in member.skills]
    return max(values) if values else None


def in_position(catalog: Catalog, seat: Seat, skill: ShipSkill) -> bool:
    """Whether a crew member in ``seat`` may use their skill for ``skill`` ("a pilot can't use
    their Pilot Skill unless they're actually in the cockpit or on the command deck")."""
    if skill.anywhere:
        return True
    if seat.turret is not None:
        return skill.from_turrets
    if not seat.station:
        return False
    station = station_item(catalog, seat.station)
    return station is not None and skill.id in station.serves


# --- effective skills ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Effective:
    """One function's effective skill and how it came about."""

    skill: str
    name: str
    ship: int  # the ship's own (the AI's default when the record does not rate it)
    rated: bool  # whether the record rates it
    crew: int | None  # the best crew member in position, if any has a skill for it
    who: str  # that crew member and their station
    member: str  # that crew member's name
    value: int  # what is rolled
    step: int  # the value on the ladder
    trumps: bool = False  # a crew member in position counts even when worse (Pilot)

    @property
    def by_crew(self) -> bool:
        return self.crew is not None and self.value == self.crew and (self.crew > self.ship or self.trumps)

    def rolled_by(self) -> str:
        """Who rolls it, in a word or a name: the crew member, the ship's AI, the ship."""
        if self.by_crew:
            return self.member
        return "ship" if self.rated else "AI"

    def how(self) -> str:
        """Who the value is, in words, for a sheet."""
        if self.by_crew:
            if self.crew is not None and self.crew <= self.ship:
                return f"{self.who}: the pilot always counts (ship {self.ship}%)"
            return f"{self.who}, over the ship's {self.ship}%"
        return "the record's rating" if self.rated else "the ship's AI"


def effective_skill(
    catalog: Catalog, design: Design, skill: ShipSkill, ai_default: int, percent_per_step: int
) -> Effective:
    """The ship's skill (the AI's default if the record does not rate it), or the skill of the
    crew member in position if higher; for Pilot, the pilot in position always counts."""
    rated_here = skill.id in design.skills
    ship = design.skills.get(skill.id, ai_default)
    best: tuple[int, str, str] | None = None
    for seat in seats(design):
        if not in_position(catalog, seat, skill):
            continue
        member = design.crew[seat.member]
        value = crew_value(member, skill)
        if value is not None and (best is None or value > best[0]):
            best = (value, f"{member.name} ({seat_name(catalog, design, seat)})", member.name)
    crew, who, name = best if best is not None else (None, "", "")
    takes_over = crew is not None and (skill.crew_always_counts or crew > ship)
    value = crew if takes_over and crew is not None else ship
    return Effective(
        skill.id,
        skill.name,
        ship,
        rated_here,
        crew,
        who,
        name,
        value,
        value // percent_per_step,
        trumps=skill.crew_always_counts and crew is not None,
    )


def turret_gunnery(
    catalog: Catalog,
    design: Design,
    index: int,
    ship_value: int,
    skill: ShipSkill | None,
    gunners: list[Seat] | None = None,
) -> tuple[int, str]:
    """What a turret fires at and who fires it: the gunner's skill for ``skill`` when higher
    than the ship's, else the ship's ("an unmanned turret ... will fire at a standard AI
    rating"). ``gunners``: the seats at this turret, when the caller has them (finding them
    again for each of 200 turrets made a check quadratic in the crew)."""
    turret = design.turrets[index]
    if gunners is None:
        gunners = [s for s in seats(design) if s.turret == index]
    best: tuple[int, str] | None = None
    for seat in gunners if skill is not None else []:
        member = design.crew[seat.member]
        value = crew_value(member, skill) if skill is not None else None
        if value is not None and (best is None or value > best[0]):
            best = (value, member.name)
    if best is not None and best[0] > ship_value:
        return best
    if gunners:
        return ship_value, f"{design.crew[gunners[0].member].name} (the ship's skill)"
    return ship_value, "a gunner, not named" if turret.crewed else "unmanned: the AI"


# --- equipment ------------------------------------------------------------------------------------


def equipment(design: Design) -> set[str]:
    """What the ship has of the equipment actions, stations and stunts may need."""
    have: set[str] = set()
    if design.hyperdrive:
        have.add("hyperdrive")
    if design.special_weapons:
        have.add("special-weapon")
    if design.hangar is not None:
        have.add("hangar")
        if sum(c.count for c in design.hangar.craft) > 0:
            have.add("craft")
    return have
