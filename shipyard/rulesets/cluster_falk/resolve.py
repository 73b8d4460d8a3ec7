"""Names to catalog ids, a fresh record, and the neutral view the core rules work on."""

from __future__ import annotations

from typing import Any

from shipyard.core.errors import InputError, Problem
from shipyard.core.model import Catalog, DesignView, Selection
from shipyard.core.suggest import did_you_mean, normalise
from shipyard.rulesets.cluster_falk.design import Design, Ratings, Stress

_NOUNS = {
    "ship_skills": "ship skill",
    "crew_skills": "crew skill",
    "stations": "station",
    "stunts": "stunt",
    "special_weapons": "special weapon",
    "torpedoes": "torpedo",
}


class _Resolver:
    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.problems: list[Problem] = []

    def ref(self, kind: str, text: str, path: str) -> str | None:
        """The catalog id ``text`` names (an id, name or alias), or a problem with the closest names."""
        found = self.catalog.resolve(kind, text)
        if found is None:
            hint = did_you_mean(text, self.catalog.names(kind))
            self.problems.append(
                Problem(
                    f"unknown {_NOUNS[kind]} {text!r}" + (f"; {hint}" if hint else ""),
                    path=path,
                    allowed=", ".join(self.catalog.kind(kind)),
                )
            )
        return found

    def skills(self, kind: str, given: dict[str, int], base: str) -> dict[str, int]:
        out: dict[str, int] = {}
        for key, value in given.items():
            found = self.ref(kind, key, f"{base}.{key}")
            if found is None:
                if kind == "ship_skills" and self.catalog.resolve("crew_skills", key):
                    self.problems[-1].message += " (a crew skill: give it to a crew member at a station)"
                continue
            if found in out:
                self.problems.append(Problem(f"{_NOUNS[kind]} {found!r} is given twice", path=f"{base}.{key}"))
            out[found] = value
        return out


def resolve(design: Design, catalog: Catalog) -> Design:
    """Resolve every name to its catalog id (crew stations to a station or a turret of the
    ship); report every unknown name at once, with the closest ones."""
    r = _Resolver(catalog)
    stations: list[str] = []
    for i, text in enumerate(design.stations):
        found = r.ref("stations", text, f"stations[{i}]")
        if found in stations:
            r.problems.append(Problem(f"station {found!r} is listed twice", path=f"stations[{i}]"))
        elif found is not None:
            stations.append(found)
    turrets: dict[str, str] = {}
    for i, turret in enumerate(design.turrets):
        key = normalise(turret.name)
        if key in turrets:
            r.problems.append(Problem(f"two turrets are named {turret.name!r}", path=f"turrets[{i}].name"))
        elif catalog.resolve("stations", turret.name):
            r.problems.append(
                Problem(f"a turret may not be named {turret.name!r}, a station's name", path=f"turrets[{i}].name")
            )
        turrets.setdefault(key, turret.name)
    crew = []
    for i, member in enumerate(design.crew):
        if member.station is None:
            skills = r.skills("crew_skills", member.skills, f"crew[{i}].skills")
            crew.append(member.model_copy(update={"skills": skills}))
            continue
        station = turrets.get(normalise(member.station)) or catalog.resolve("stations", member.station)
        if station is None or (station not in stations and station not in turrets.values()):
            seats = [*stations, *turrets.values()]
            hint = did_you_mean(member.station, seats)
            r.problems.append(
                Problem(
                    f"{member.station!r} is not one of this ship's stations or turrets" + (f"; {hint}" if hint else ""),
                    path=f"crew[{i}].station",
                    allowed=", ".join(seats) or "none: the ship lists no stations or turrets",
                )
            )
            station = member.station
        skills = r.skills("crew_skills", member.skills, f"crew[{i}].skills")
        crew.append(member.model_copy(update={"station": station, "skills": skills}))
    stunts = []
    for i, stunt in enumerate(design.stunts):
        if stunt.id is not None:
            stunt = stunt.model_copy(update={"id": r.ref("stunts", stunt.id, f"stunts[{i}].id") or stunt.id})
        stunts.append(stunt)
    weapons = []
    for i, weapon in enumerate(design.special_weapons):
        if weapon.id is not None:
            found = r.ref("special_weapons", weapon.id, f"special_weapons[{i}].id")
            weapon = weapon.model_copy(update={"id": found or weapon.id})
        weapons.append(weapon)
    torpedoes = [
        t.model_copy(update={"id": r.ref("torpedoes", t.id, f"torpedoes[{i}].id") or t.id})
        for i, t in enumerate(design.torpedoes)
    ]
    update: dict[str, Any] = {
        "skills": r.skills("ship_skills", design.skills, "skills"),
        "stations": stations,
        "crew": crew,
        "stunts": stunts,
        "special_weapons": weapons,
        "torpedoes": torpedoes,
    }
    if r.problems:
        raise InputError(r.problems)
    return design.model_copy(update=update)


def new_design(kind: str, name: str, catalog: Catalog) -> Design:
    """A fresh ship record at the stats' base values (ruleset.yaml), with a cockpit."""
    if kind != "ship":
        raise InputError.single(f"The Cluster Falk has no kind of design {kind!r}", path="--kind", allowed="ship")
    base = {s.id: s.base or 0 for s in catalog.meta.stats}
    return Design(
        name=name or "New ship",
        size=base.get("size", 0),
        scale=base.get("scale", 0),
        speed=base.get("speed", 0),
        tech_level=base.get("tech-level", 0),
        sensors="civilian",
        ratings=Ratings(
            drives=base.get("drives", 0),
            guns=base.get("guns", 0),
            shields=base.get("shields", 0),
            systems=base.get("systems", 0),
        ),
        stations=[s for s in ("cockpit",) if catalog.item("stations", s) is not None],
        stress=Stress(hull=base.get("stress-hull", 0), systems=base.get("stress-systems", 0)),
    )


def view(design: Design, catalog: Catalog) -> DesignView:
    """The record's numbers by stat id, and its catalog choices by kind."""
    stats: dict[str, int | float] = {
        "size": design.size,
        "scale": design.scale,
        "speed": design.speed,
        "tech-level": design.tech_level,
        "drives": design.ratings.drives,
        "guns": design.ratings.guns,
        "shields": design.ratings.shields,
        "systems": design.ratings.systems,
        "stress-hull": design.stress.hull,
        "stress-systems": design.stress.systems,
    }
    selections = [Selection("stations", s, f"stations[{i}]") for i, s in enumerate(design.stations)]
    selections += [Selection("stunts", s.id, f"stunts[{i}]") for i, s in enumerate(design.stunts) if s.id]
    selections += [
        Selection("special_weapons", w.id, f"special_weapons[{i}]")
        for i, w in enumerate(design.special_weapons)
        if w.id
    ]
    selections += [
        Selection("torpedoes", t.id, f"torpedoes[{i}]", count=t.count) for i, t in enumerate(design.torpedoes)
    ]
    return DesignView(None, stats, selections)
