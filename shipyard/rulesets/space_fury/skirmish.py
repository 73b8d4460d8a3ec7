"""Skirmishes: two squadrons of sample fighters from the Skirmishes table, each with
pilots whose levels add up to the side's allowance.

The sample fighters are the design files of the catalog folders' ``examples/``, so a
house-rule folder may add its own.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from pydantic import ValidationError

from shipyard.core.errors import InputError
from shipyard.core.model import Catalog
from shipyard.core.numberwords import count_of
from shipyard.rulesets.space_fury.catalog_lookup import levels
from shipyard.rulesets.space_fury.design import FighterData, FighterDesign, ForceDesign, PilotData, SpaceFuryDesign
from shipyard.rulesets.space_fury.force import body
from shipyard.rulesets.space_fury.items import ScenarioTable, Squadron
from shipyard.rulesets.space_fury.resolve import resolve
from shipyard.rulesets.space_fury.rolls import RollLog, roll_pilot


def sample_fighters(catalog: Catalog) -> dict[str, FighterData]:
    """The sample fighters of every catalog folder's examples/, by file name (later folders win)."""
    from shipyard.core.designfile import migrate, parse_document, read_text, validation_problems

    out: dict[str, FighterData] = {}
    for folder in catalog.folders:
        for file in sorted((folder / "examples").glob("*.ship")):
            doc = migrate(parse_document(read_text(file), str(file)), str(file))
            try:
                design = SpaceFuryDesign.model_validate(doc.get("design"))
            except ValidationError as exc:
                raise InputError(validation_problems(exc, str(file), ("design",))) from None
            root = resolve(design, catalog).root
            if isinstance(root, FighterDesign):
                out[file.stem] = body(FighterData, root)
    return out


@dataclass(frozen=True)
class Skirmish:
    roll: int
    sides: tuple[SpaceFuryDesign, SpaceFuryDesign]
    summary: str


def _spread(total: int, n: int, top: int) -> list[int]:
    """``total`` levels over ``n`` pilots as evenly as they go (the first get the odd ones)."""
    if n == 0:
        return []
    return [min(max(total // n + (1 if i < total % n else 0), 1), top) for i in range(n)]


def _describe(squadron: Squadron, fighters: dict[str, FighterData]) -> str:
    return " & ".join(f"{e.count} {fighters[e.fighter].name}{'s' if e.count != 1 else ''}" for e in squadron.fighters)


def skirmish(catalog: Catalog, seed: int, table_id: str = "skirmishes") -> Skirmish:
    """Two squadrons from the Skirmishes table with ``seed``, with pilots whose levels follow it.

    One roll picks the row; "Roll 1D6 + the total number of fighters: each side has this
    many levels worth of pilots" (plus a side's extra dice where the row gives them). A
    side's levels are spread over its pilots as evenly as they go, and each pilot is
    rolled (skills and quirks) with its own seed, drawn from this one.
    """
    table = catalog.item("scenario_tables", table_id)
    if not isinstance(table, ScenarioTable):
        raise InputError.single(
            f"unknown scenario table {table_id!r}", allowed=", ".join(catalog.kind("scenario_tables"))
        )
    samples = sample_fighters(catalog)
    rng = random.Random(seed)
    log = RollLog()
    r = rng.randint(1, table.die)
    row = next(x for x in table.rows if x.roll == r)
    missing = [e.fighter for s in (row.side_a, row.side_b) for e in s.fighters if e.fighter not in samples]
    if missing:
        raise InputError.single(
            f"the {table.name} table names sample fighters that no examples/ folder has: {', '.join(missing)}",
            allowed=", ".join(sorted(samples)),
        )
    matchup = f"{_describe(row.side_a, samples)} vs {_describe(row.side_b, samples)}"
    log.add(table.id, r, f"row {r}", matchup)
    level_dice = table.levels.roll(rng)
    log.add(table.id, sum(level_dice), "", f"pilot levels: {table.levels} = {sum(level_dice)}")
    total_fighters = sum(e.count for s in (row.side_a, row.side_b) for e in s.fighters)
    plan: list[tuple[str, Squadron, int, str]] = []
    for letter, squadron in (("A", row.side_a), ("B", row.side_b)):
        plus = total_fighters if table.levels.plus == "total-fighters" else sum(e.count for e in squadron.fighters)
        allowance = sum(level_dice) + plus
        how = f"{table.levels} ({sum(level_dice)}) + {count_of(plus, 'fighter')}"
        if squadron.extra_levels is not None:
            extra = squadron.extra_levels.roll(rng)
            log.add(
                table.id, sum(extra), "", f"side {letter} extra pilot levels: {squadron.extra_levels} = {sum(extra)}"
            )
            allowance += sum(extra)
            how += f" + {squadron.extra_levels} extra ({sum(extra)})"
        plan.append((letter, squadron, allowance, how))
    top = levels(catalog)[-1].level
    headline = f"{table.name} roll {r}: {matchup}"
    lines = [headline]
    sides: list[SpaceFuryDesign] = []
    for letter, squadron, allowance, how in plan:
        kinds = [samples[e.fighter] for e in squadron.fighters for _ in range(e.count)]
        spread = _spread(allowance, len(kinds), top)
        crewed: list[FighterData] = []
        for k, (sample, lv) in enumerate(zip(kinds, spread, strict=True), 1):
            pilot = roll_pilot(catalog, rng.randrange(2**32), level=lv, name=f"Pilot {letter}{k}").root
            data = body(PilotData, pilot)
            crewed.append(sample.model_copy(update={"name": f"{sample.name} {letter}{k}", "pilot": data}))
        lines.append(f"side {letter}: {allowance} pilot levels ({how}), spread {', '.join(map(str, spread))}")
        sides.append(
            SpaceFuryDesign(
                root=ForceDesign(
                    kind="force",
                    name=f"Skirmish {r}, side {letter}",
                    notes=f"{headline}. Side {letter} has {count_of(allowance, 'level')} worth of pilots: {how}.",
                    fighters=crewed,
                    pilot_levels=allowance,
                    seed=seed,
                    rolls=log.entries,
                )
            )
        )
    return Skirmish(r, (sides[0], sides[1]), "\n".join(lines))
