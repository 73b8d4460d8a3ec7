"""Rules on pilots: what a pilot costs, the level its XP reaches, the skills and quirks a
level allows.
"""

from __future__ import annotations

from shipyard.core.findings import Severity
from shipyard.core.model import Context
from shipyard.core.numberwords import count_of
from shipyard.core.rules import cite
from shipyard.rulesets.space_fury.catalog_lookup import (
    items_of,
    level_for_xp,
    level_row,
    levels,
    pilot_level,
    playing_row,
    reputation_rank,
)
from shipyard.rulesets.space_fury.counts import count
from shipyard.rulesets.space_fury.design import pilots_of
from shipyard.rulesets.space_fury.items import PilotSkill, Quirk
from shipyard.rulesets.space_fury.params import (
    CountParams,
    PilotLevelParams,
    PilotQuirksParams,
    PilotSkillsParams,
)
from shipyard.rulesets.space_fury.pilot import skills_allowed


def apply_pilot_cost(ctx: Context, p: CountParams) -> None:
    """A pilot costs its experience points."""
    for pilot, base in pilots_of(ctx.design):
        who = pilot.name if pilot.name.startswith("Pilot") else f"Pilot {pilot.name}".rstrip()
        count(ctx, p.count).add(f"{who}: {pilot.xp} XP", pilot.xp, source=cite(ctx, p), path=f"{base}xp", rule=p.id)


def apply_pilot_level(ctx: Context, p: PilotLevelParams) -> None:
    """The level claimed must be on the table, and the pilot must have its XP."""
    table = levels(ctx.catalog)
    if not table:
        return
    top, first = table[-1], table[0]
    for pilot, base in pilots_of(ctx.design):
        reached = level_for_xp(ctx.catalog, pilot.xp)
        claimed = pilot.level
        if claimed is not None and claimed > top.level:
            ctx.findings.add(
                Severity.ERROR,
                "level-not-in-table",
                f"level {claimed} is not on the {ctx.catalog.meta.name} Pilot Level Table "
                f"({first.level} to {top.level})",
                path=f"{base}level",
                actual=claimed,
                limit=top.level,
                rule=p.id,
                source=ctx.catalog.cite(p.source),
            )
            continue
        want = level_row(ctx.catalog, claimed) if claimed is not None else first
        if want is not None and pilot.xp < want.xp:
            ctx.findings.add(
                Severity.ERROR,
                "xp-below-level",
                f"XP {pilot.xp} is below the {want.xp} XP of level {want.level}",
                path=f"{base}xp",
                actual=pilot.xp,
                limit=want.xp,
                rule=p.id,
                source=ctx.catalog.cite(p.source),
            )
        elif claimed is not None and reached > claimed:
            ctx.findings.add(
                Severity.ADVICE,
                "level-behind-xp",
                f"XP {pilot.xp} reaches level {reached}; level {claimed} is claimed",
                path=f"{base}level",
                actual=claimed,
                limit=reached,
                rule=p.id,
                source=ctx.catalog.cite(p.source),
            )


def apply_pilot_skills(ctx: Context, p: PilotSkillsParams) -> None:
    """Skills = level (from the table); the first is Basic Combat Pilot, the rest from the d10 table."""
    first = ctx.catalog.item("pilot_skills", p.first_skill)
    first_name = first.name if first else p.first_skill
    for pilot, base in pilots_of(ctx.design):
        level = pilot_level(ctx.catalog, pilot)
        if level_row(ctx.catalog, level) is None:
            continue  # no such level: the level rule's error says so (a second error here said "has 0")
        allowed = skills_allowed(ctx.catalog, level)
        n = len(pilot.skills)
        if n > allowed:
            ctx.findings.add(
                Severity.ERROR,
                "too-many-skills",
                f"{count_of(n, 'skill')}; a level {level} pilot has {allowed}",
                path=f"{base}skills",
                actual=n,
                limit=allowed,
                rule=p.id,
                source=ctx.catalog.cite(p.source),
            )
        elif n < allowed:
            ctx.findings.add(
                Severity.WARNING,
                "skills-unassigned",
                f"{n} of a level {level} pilot's {count_of(allowed, 'skill')} chosen; {allowed - n} to choose or roll",
                path=f"{base}skills",
                actual=n,
                limit=allowed,
                rule=p.id,
                source=ctx.catalog.cite(p.source),
            )
        if pilot.skills and pilot.skills[0] != p.first_skill:
            skill = ctx.catalog.item("pilot_skills", pilot.skills[0])
            ctx.findings.add(
                Severity.ERROR,
                "first-skill-not-basic",
                f"the first skill is {skill.name if skill else pilot.skills[0]}; it is always {first_name}",
                path=f"{base}skills[0]",
                actual=pilot.skills[0],
                limit=p.first_skill,
                rule=p.id,
                source=ctx.catalog.cite(p.source),
            )
        for i, sid in enumerate(pilot.skills[1:], 1):
            skill = ctx.catalog.item("pilot_skills", sid)
            if not isinstance(skill, PilotSkill) or skill.roll is None:
                ctx.findings.add(
                    Severity.ERROR,
                    "skill-not-on-table",
                    f"{skill.name if skill else sid} is not on the Pilot Skills table; "
                    f"only the first skill is {first_name}",
                    path=f"{base}skills[{i}]",
                    actual=sid,
                    limit=sorted(s.id for s in items_of(ctx.catalog, "pilot_skills", PilotSkill) if s.roll),
                    rule=p.id,
                    source=ctx.catalog.cite(p.source),
                )


def apply_pilot_quirks(ctx: Context, p: PilotQuirksParams) -> None:
    """At most one quirk a level, and a quirk's requirement ("Must be a veteran")."""
    for pilot, base in pilots_of(ctx.design):
        level = pilot_level(ctx.catalog, pilot)
        if level_row(ctx.catalog, level) is None:
            continue  # no such level: the level rule's error says so
        limit = level * p.per_level
        if len(pilot.quirks) > limit:
            ctx.findings.add(
                Severity.WARNING,
                "too-many-quirks",
                f"{len(pilot.quirks)} quirks; a level {level} pilot rolls for {limit}",
                path=f"{base}quirks",
                actual=len(pilot.quirks),
                limit=limit,
                rule=p.id,
                source=ctx.catalog.cite(p.source),
            )
        row = playing_row(ctx.catalog, level)
        have = reputation_rank(ctx.catalog, row.reputation) if row else -1
        for i, qid in enumerate(pilot.quirks):
            quirk = ctx.catalog.item("quirks", qid)
            if not isinstance(quirk, Quirk) or quirk.requires_reputation is None:
                continue
            need = reputation_rank(ctx.catalog, quirk.requires_reputation)
            if need is not None and (have is None or have < need):
                ctx.findings.add(
                    Severity.ERROR,
                    "quirk-requirement",
                    f"{quirk.name} needs a {quirk.requires_reputation} pilot; a level {level} pilot is "
                    f"{row.reputation if row else 'below the table'}",
                    path=f"{base}quirks[{i}]",
                    actual=row.reputation if row else None,
                    limit=quirk.requires_reputation,
                    rule=p.id,
                    source=ctx.catalog.cite(quirk.source),
                )
