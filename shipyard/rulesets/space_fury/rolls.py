"""Random builds: a fighter rolled on the enhancement tables, a pilot rolled level by level.

Every roll comes from one seeded generator and is kept in the design's roll log, so a
build can be checked against the tables and reproduced from its seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from shipyard.core.errors import InputError
from shipyard.core.model import Catalog
from shipyard.core.numberwords import count_of
from shipyard.core.suggest import did_you_mean
from shipyard.rulesets.space_fury.catalog_lookup import items_of, level_for_xp, level_row, levels, reputation_rank
from shipyard.rulesets.space_fury.design import (
    MAX_ROLLED,
    EnhancementChoice,
    FighterDesign,
    PilotDesign,
    RollEntry,
    SpaceFuryDesign,
)
from shipyard.rulesets.space_fury.fighter import armament, mount_entries, mountable, purchases
from shipyard.rulesets.space_fury.items import Enhancement, EnhancementTable, ItemRow, PilotSkill, Quirk, SubtableRow
from shipyard.rulesets.space_fury.params import PilotQuirksParams, PilotSkillsParams, TablesParams


class RollLog:
    def __init__(self) -> None:
        self.entries: list[RollEntry] = []

    def add(self, table: str, roll: int, result: str = "", note: str = "") -> None:
        self.entries.append(RollEntry(table=table, roll=roll, result=result, note=note))


def _tables(catalog: Catalog) -> dict[str, EnhancementTable]:
    return {t.id: t for t in items_of(catalog, "enhancement_tables", EnhancementTable)}


def _pickable(table: EnhancementTable, tables: dict[str, EnhancementTable]) -> list[tuple[str, str | None]]:
    """(item id, sub-table id it sits on or None) a player may pick on ``table``."""
    out: list[tuple[str, str | None]] = []
    for row in table.rows:
        if isinstance(row, ItemRow):
            out.append((row.item, None))
        elif isinstance(row, SubtableRow) and row.table in tables:
            out += [(r.item, row.table) for r in tables[row.table].rows if isinstance(r, ItemRow)]
    return out


class _FighterRoller:
    def __init__(self, catalog: Catalog, rng: random.Random, picks: Sequence[str]) -> None:
        self.catalog = catalog
        self.rng = rng
        self.picks = list(picks)
        self.picked = ""
        self.log = RollLog()
        self.tables = _tables(catalog)

    def roll(self, table: EnhancementTable, depth: int = 0) -> Enhancement:
        self.picked = ""  # the --pick this roll took, if it took one
        if depth > 20:
            raise InputError.single(f"the enhancement tables open each other without end ({table.name})")
        while True:
            r = self.rng.randint(1, table.die)
            row = table.row(r)
            if isinstance(row, ItemRow):
                self.log.add(table.id, r, row.item)
                return self._item(row.item)
            if isinstance(row, SubtableRow):
                sub = self.tables.get(row.table)
                if sub is None:
                    raise InputError.single(f"{table.name} roll {r} opens unknown table {row.table!r}")
                self.log.add(table.id, r, sub.id, f"roll on the {sub.name}")
                return self.roll(sub, depth + 1)
            if not self.picks:
                self.log.add(table.id, r, "", "pick 1 result: unattended, rolled again")
                continue
            return self._pick(table, r, self.picks.pop(0))

    def _pick(self, table: EnhancementTable, roll: int, name: str) -> Enhancement:
        wanted = self.catalog.resolve("enhancements", name)
        options = _pickable(table, self.tables)
        found = next(((i, via) for i, via in options if i == wanted), None)
        if found is None:
            names = [getattr(self.catalog.item("enhancements", i), "name", i) for i, _ in options]
            raise InputError.single(
                f"pick {name!r} is not a result of the {table.name}"
                + (f"; {did_you_mean(name, names)}" if names else ""),
                path="--pick",
                allowed=", ".join(names),
            )
        item_id, via = found
        self.picked = name
        if via is None:
            self.log.add(table.id, roll, item_id, "picked")
        else:
            self.log.add(table.id, roll, via, "picked this sub-table")
            self.log.add(via, roll, item_id, "picked")
        return self._item(item_id)

    def _item(self, item_id: str) -> Enhancement:
        item = self.catalog.item("enhancements", item_id)
        if not isinstance(item, Enhancement):
            raise InputError.single(f"the tables name enhancement {item_id!r}, which the catalog does not have")
        return item


def roll_fighter(
    catalog: Catalog, enhancements: int, seed: int, *, name: str = "", picks: Sequence[str] = ()
) -> SpaceFuryDesign:
    """A fighter with ``enhancements`` enhancements rolled on the tables with ``seed``.

    Each enhancement is a d10 on the Primary table (and a d10 on a sub-table where it
    says so). A "Pick 1 Result" takes the next of ``picks``; with none left it is rolled
    again. An entry that costs more than is left is rolled again. Turrets take the first
    weapons they can carry that no Turret carries yet.
    """
    if not 0 <= enhancements <= MAX_ROLLED:
        raise InputError.single(
            "the number of enhancements to roll is out of range", path="--enhancements", allowed=f"0 to {MAX_ROLLED}"
        )
    p: TablesParams | None = catalog.params(TablesParams)
    tables = _tables(catalog)
    primary = tables.get(p.primary) if p else None
    if primary is None:
        raise InputError.single("the catalog has no Primary enhancement table to roll on")
    roller = _FighterRoller(catalog, random.Random(seed), picks)
    bought: dict[str, int] = {}
    left = enhancements
    attempts = 0
    while left > 0:
        attempts += 1
        if attempts > 1000 + 100 * enhancements:
            raise InputError.single(f"no entry of the tables fits the {left} enhancement(s) left")
        item = roller.roll(primary)
        if item.cost > left and roller.picked:  # a person's choice is not rolled over unsaid
            raise InputError.single(
                f"pick {roller.picked!r} costs {count_of(item.cost, 'enhancement')}, and "
                f"{count_of(left, 'enhancement')} {'is' if left == 1 else 'are'} left when its Pick 1 Result comes up",
                path="--pick",
                allowed=f"a pick of at most {count_of(left, 'enhancement')} there",
            )
        if item.cost > left:
            roller.log.entries[-1] = roller.log.entries[-1].model_copy(
                update={"note": f"costs {item.cost}, {left} left: rolled again"}
            )
            continue
        left -= item.cost
        bought[item.id] = bought.get(item.id, 0) + item.units
    choices = [EnhancementChoice(id=i, count=n) for i, n in bought.items()]
    fighter = FighterDesign(
        kind="fighter", name=name or f"Rolled fighter {seed}", enhancements=choices, seed=seed, rolls=roller.log.entries
    )
    return SpaceFuryDesign(root=_mount_weapons(fighter, catalog))


def _mount_weapons(fighter: FighterDesign, catalog: Catalog) -> FighterDesign:
    """Give each mount the first weapons it can carry that no mount carries yet."""
    free: list[str] = [arm.weapon_id for arm in armament(fighter, catalog) for _ in range(arm.count)]
    for c in fighter.enhancements:
        free = _without(free, c.weapons)
    choices = [pu.choice for pu in purchases(fighter, catalog)]
    for entry in mount_entries(fighter, catalog):
        can = {w.id for w in mountable(entry.mount, catalog)}
        want = entry.capacity - len(entry.carried)
        picked = [wid for wid in free if wid in can][: max(0, want)]
        free = _without(free, picked)
        i = entry.purchase.index
        choices[i] = choices[i].model_copy(update={"weapons": [*entry.carried, *picked]})
    return fighter.model_copy(update={"enhancements": choices})


def _without(pool: list[str], taken: Iterable[str]) -> list[str]:
    out = list(pool)
    for t in taken:
        if t in out:
            out.remove(t)
    return out


def roll_pilot(
    catalog: Catalog, seed: int, *, xp: int | None = None, level: int | None = None, name: str = ""
) -> SpaceFuryDesign:
    """A pilot rolled with ``seed``: its skills on the d10 table and a quirk check each level.

    Give the XP (the level follows) or the level (the XP is that level's least); neither
    means a level 1 pilot. The first skill is always the table's first-level skill. At
    each level a quirk appears on the check die's number; a quirk the pilot already has,
    or one it is not yet qualified for, is rolled again.
    """
    table = levels(catalog)
    if not table:
        raise InputError.single("the catalog has no Pilot Level Table")
    if xp is not None and level is not None:
        raise InputError.single("give the XP or the level, not both", path="--xp/--level")
    if level is not None:
        row = level_row(catalog, level)
        if row is None:
            raise InputError.single(
                f"level {level} is not on the Pilot Level Table",
                path="--level",
                allowed=f"{table[0].level} to {table[-1].level}",
            )
        xp = row.xp
    elif xp is not None:
        if xp < 0:
            raise InputError.single("XP cannot be negative", path="--xp")
        level = level_for_xp(catalog, xp)
        if level == 0:
            raise InputError.single(
                f"{xp} XP is below level {table[0].level} ({table[0].xp} XP)",
                path="--xp",
                allowed=f"{table[0].xp} or more",
            )
    else:
        level, xp = table[0].level, table[0].xp
    skills_rule: PilotSkillsParams | None = catalog.params(PilotSkillsParams)
    quirk_rule: PilotQuirksParams | None = catalog.params(PilotQuirksParams)
    on_table = sorted(
        (s for s in items_of(catalog, "pilot_skills", PilotSkill) if s.roll is not None), key=lambda s: s.roll or 0
    )
    if skills_rule is None or not on_table:
        raise InputError.single("the catalog has no Pilot Skills table to roll on")
    by_roll = {s.roll: s for s in on_table}
    die = max(r for r in by_roll if r is not None)
    quirks_by_roll = items_of(catalog, "quirks", Quirk)
    rng = random.Random(seed)
    log = RollLog()
    skills = [skills_rule.first_skill]
    quirks: list[str] = []
    for lv in range(1, level + 1):
        if lv > 1:
            r = rng.randint(1, die)
            skill = by_roll.get(r)
            log.add("pilot-skills", r, skill.id if skill else "", f"level {lv}")
            if skill is not None:
                skills.append(skill.id)
        if quirk_rule is None or not quirks_by_roll:
            continue
        r = rng.randint(1, quirk_rule.check_die)
        got = r == quirk_rule.check_on
        log.add("quirk-check", r, "quirk" if got else "", f"level {lv}: a quirk on {quirk_rule.check_on}")
        if got:
            quirks.append(_roll_quirk(catalog, rng, log, quirk_rule.table_die, quirks, lv))
    pilot = PilotDesign(
        kind="pilot",
        name=name or f"Rolled pilot {seed}",
        xp=xp,
        skills=skills,
        quirks=quirks,
        seed=seed,
        rolls=log.entries,
    )
    return SpaceFuryDesign(root=pilot)


def _roll_quirk(catalog: Catalog, rng: random.Random, log: RollLog, die: int, have: list[str], level: int) -> str:
    row = level_row(catalog, level)
    rank = reputation_rank(catalog, row.reputation) if row else None
    for _ in range(1000):
        r = rng.randint(1, die)
        quirk = next((q for q in items_of(catalog, "quirks", Quirk) if q.low <= r <= q.high), None)
        if quirk is None:
            log.add("quirks", r, "", "no quirk has this roll: rolled again")
            continue
        if quirk.id in have:
            log.add("quirks", r, quirk.id, "already has it: rolled again")
            continue
        need = reputation_rank(catalog, quirk.requires_reputation) if quirk.requires_reputation else None
        if need is not None and (rank is None or rank < need):
            log.add("quirks", r, quirk.id, f"needs {quirk.requires_reputation}: rolled again")
            continue
        log.add("quirks", r, quirk.id, f"level {level}")
        return quirk.id
    raise InputError.single("the Quirk Table has no quirk left to roll")
