"""Names to catalog ids, a fresh fighter, and the neutral view the core rules work on."""

from __future__ import annotations

from shipyard.core.errors import InputError, Problem
from shipyard.core.model import Catalog, DesignView
from shipyard.core.suggest import did_you_mean
from shipyard.rulesets.wing_commander.design import WCFighter


def resolve(design: WCFighter, catalog: Catalog) -> WCFighter:
    """The pilot's skills by catalog id (a name or alias works too); every unknown one at once."""
    problems: list[Problem] = []
    skills: dict[str, int] = {}
    for key, score in design.pilot.skills.items():
        skill_id = catalog.resolve("skills", key)
        if skill_id is None:
            problems.append(
                Problem(
                    f"unknown skill {key!r}; {did_you_mean(key, catalog.names('skills'))}".rstrip("; "),
                    path=f"pilot.skills.{key}",
                    allowed=", ".join(sorted(catalog.kind("skills"))),
                )
            )
        elif skill_id in skills:
            problems.append(Problem(f"skill {skill_id!r} is given twice", path=f"pilot.skills.{key}"))
        else:
            skills[skill_id] = score
    if problems:
        raise InputError(problems)
    return design.model_copy(update={"pilot": design.pilot.model_copy(update={"skills": skills})})


def new_design(kind: str, name: str, catalog: Catalog) -> WCFighter:
    """A fresh fighter at the stats' base values (ruleset.yaml), with a pilot and no guns,
    missiles or compartments yet. The manifest offers one kind, ``fighter``."""
    base = {st.id: st.base for st in catalog.meta.stats if st.base is not None}
    return WCFighter.model_validate(
        {
            "name": name or "New fighter",
            "drv": base.get("drv", 0),
            "acceleration": base.get("acceleration", 0),
            "afterburner": base.get("afterburner", 0),
            "pilot": {"dex": base.get("dex", 0), "action_check": base.get("action-check", 0)},
        }
    )


def view(design: WCFighter, catalog: Catalog) -> DesignView:
    """The numbers the catalog's stats name, for the core's range checks."""
    stats = {
        "drv": design.drv,
        "acceleration": design.acceleration,
        "afterburner": design.afterburner,
        "turrets": design.turrets,
        "dex": design.pilot.dex,
        "action-check": design.pilot.action_check,
    }
    return DesignView(scale=None, stats=stats, selections=[])
