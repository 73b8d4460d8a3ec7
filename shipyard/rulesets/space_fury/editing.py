"""What Space Fury's declared editor form (catalogs/space-fury/form.yaml) asks the ruleset.

Each function of :data:`FORM_CALLS` takes the form's view of one design
(:class:`shipyard.core.formview.FormContext`) and answers from the catalog, the engine or
the report, so the editor holds no rule: which gun may replace the basic Laser, what
buying an enhancement again adds, what a Turret may carry, where an entry is on the d10
tables, and the random builds (a fighter's enhancements, a pilot), the crews and the
force's members, each returning the design as it is afterwards (one undo step).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from shipyard.core.errors import InputError
from shipyard.core.formview import Browse, FormContext, Listing
from shipyard.core.model import Catalog
from shipyard.core.numberwords import count_of
from shipyard.core.paths import parse_path
from shipyard.core.pools import LineItem
from shipyard.rulesets.space_fury.catalog_lookup import items_of
from shipyard.rulesets.space_fury.design import (
    MAX_SEED,
    FighterData,
    FighterDesign,
    ForceDesign,
    PilotData,
    PilotDesign,
    SpaceFuryDesign,
)
from shipyard.rulesets.space_fury.fighter import may_replace_basic, mount_entries, mountable, one_more, weapons_owned
from shipyard.rulesets.space_fury.force import body
from shipyard.rulesets.space_fury.items import (
    Enhancement,
    EnhancementTable,
    ItemRow,
    MountEffect,
    PilotSkill,
    Quirk,
    SubtableRow,
)
from shipyard.rulesets.space_fury.params import CountCostParams, PilotQuirksParams
from shipyard.rulesets.space_fury.pilot import new_pilot as _new_pilot
from shipyard.rulesets.space_fury.rolls import roll_fighter as _roll_fighter
from shipyard.rulesets.space_fury.rolls import roll_pilot as _roll_pilot
from shipyard.rulesets.space_fury.skirmish import sample_fighters as _sample_fighters

DEFAULT_ROLLED = 5  # what the roll dialog offers for a fighter with no enhancements yet


def _root(ctx: FormContext) -> FighterDesign | PilotDesign | ForceDesign:
    design: SpaceFuryDesign = ctx.design
    return design.root


def _design(root: FighterDesign | PilotDesign | ForceDesign) -> SpaceFuryDesign:
    return SpaceFuryDesign(root=root)


def _index(base: str) -> int:
    """The entry's number in its list: ``enhancements[3]`` (or ``enhancements[3].weapons``) gives 3."""
    found = [p for p in parse_path(base) if isinstance(p, int)]
    if not found:
        raise InputError.single(f"{base!r} is not an entry of a list", path=base)
    return found[0]


def _figure_value(ctx: FormContext, fig_id: str) -> Any:
    fig = ctx.report.derived.figure(fig_id) if ctx.report is not None else None
    return fig.value if fig is not None else None


def _count_id(catalog: Catalog) -> str:
    """The counted figure the Fighter Cost rule looks the cost up by (the enhancements)."""
    rule = catalog.params(CountCostParams)
    return rule.of if rule is not None else "enhancements"


def _lines(items: list[LineItem]) -> str:
    return "\n".join(f"{'+' if i.kind == 'cost' else '-'}{i.exact or i.amount}  {i.label}" for i in items)


# --- a fighter ------------------------------------------------------------------------------


def published_now(ctx: FormContext, **_: Any) -> dict[str, Any]:
    """Published figures to compare with, starting at the enhancements the fighter counts now."""
    count = _figure_value(ctx, _count_id(ctx.catalog))
    return {"enhancements": count if isinstance(count, int) else 0, "systems": ""}


def entry_counts(ctx: FormContext, base: str = "", **_: Any) -> tuple[str, str]:
    """What one enhancement entry counts ("1", "1 − 1" for a gun replacing the basic Laser),
    and the report's parts it is made of."""
    counted = ctx.report.derived.figure(_count_id(ctx.catalog)) if ctx.report is not None else None
    lines = counted.parts_at(base) if counted is not None else []
    cost = sum(i.amount for i in lines if i.kind == "cost")
    gain = sum(i.amount for i in lines if i.kind == "gain")
    return f"{cost:g}" + (f" − {gain:g}" if gain else ""), _lines(lines)


def may_replace(ctx: FormContext, base: str = "", **_: Any) -> bool:
    """Whether the entry's "replaces the basic Laser" box may be ticked: a special gun the
    engine says may replace it (or one marked so already, to be cleared)."""
    entry = ctx.value(base)
    if not isinstance(entry, dict):
        return False
    return bool(entry.get("replaces_basic")) or may_replace_basic(str(entry.get("id", "")), ctx.catalog)


def add_enhancement(ctx: FormContext, base: str = "enhancements", item: str = "", **_: Any) -> list[dict[str, Any]]:
    """The enhancements after buying ``item`` once more: an entry the fighter has counts one
    more purchase (a Missile Rack a rack's missiles more), else a new entry."""
    root = _root(ctx)
    found = ctx.catalog.item("enhancements", item)
    if not isinstance(root, FighterDesign) or not isinstance(found, Enhancement):
        raise InputError.single(f"no enhancement {item!r} to add", path=base)
    entries: list[dict[str, Any]] = [e.model_dump(mode="json") for e in root.enhancements]
    index, count = one_more(root, found)
    if index is not None:
        entries[index]["count"] = count
    else:
        entries.append({"id": found.id, "count": count} if count != 1 else {"id": found.id})
    return entries


def _mount(ctx: FormContext, base: str) -> tuple[FighterDesign, MountEffect] | None:
    root = _root(ctx)
    if not isinstance(root, FighterDesign):
        return None
    index = _index(base)
    entry = next((e for e in mount_entries(root, ctx.catalog) if e.purchase.index == index), None)
    return (root, entry.mount) if entry is not None else None


def is_mount(ctx: FormContext, base: str = "", **_: Any) -> bool:
    """Whether the entry mounts weapons (a Turret), or carries some it should not."""
    entry = ctx.value(base)
    return _mount(ctx, base) is not None or (isinstance(entry, dict) and bool(entry.get("weapons")))


def mount_weapons(ctx: FormContext, **_: Any) -> list[tuple[str, str]]:
    """The weapons the fighter's mounts can carry, each with how many the fighter has."""
    root = _root(ctx)
    if not isinstance(root, FighterDesign):
        return []
    owned = weapons_owned(root, ctx.catalog)
    seen: dict[str, str] = {}
    for entry in mount_entries(root, ctx.catalog):
        for weapon in mountable(entry.mount, ctx.catalog):
            seen.setdefault(weapon.id, f"{weapon.name} (the fighter has {owned.get(weapon.id, 0)})")
    return [(label, wid) for wid, label in seen.items()]


def free_weapon(ctx: FormContext, base: str = "", **_: Any) -> str:
    """The weapon a mount takes next: the first it can carry that the fighter has and no
    mount carries yet (as a rolled fighter's Turrets are armed), else the first it can carry."""
    found = _mount(ctx, base)
    if found is None:
        raise InputError.single("only a mount (a Turret) carries weapons", path=base)
    root, mount = found
    can = [w.id for w in mountable(mount, ctx.catalog)]
    if not can:
        raise InputError.single("no weapon of the catalog fits this mount", path=base)
    free = [wid for wid, n in weapons_owned(root, ctx.catalog).items() for _ in range(n)]
    for entry in root.enhancements:
        for carried in entry.weapons:
            if carried in free:
                free.remove(carried)
    return next((wid for wid in free if wid in can), can[0])


def _short_cost(item: Enhancement) -> str:
    """The cost as the browser lists it: "2", "1 per 2 missiles"."""
    if item.unit and item.units != 1:
        return f"{item.cost} per {count_of(item.units, item.unit)}"
    return f"{item.cost}" + (f" per {item.unit}" if item.unit else "")


def _cost_text(item: Enhancement) -> str:
    """What one purchase costs: "2 enhancements", "1 enhancement per 2 missiles"."""
    cost = count_of(item.cost, "enhancement")
    if item.unit:
        per = count_of(item.units, item.unit) if item.units != 1 else item.unit
        return f"{cost} per {per}"
    return cost


def _table_name(table: EnhancementTable) -> str:
    """ "Primary", "Special Weapon": a table's short name (its first alias)."""
    return table.aliases[0] if table.aliases else table.name


def enhancement_listing(ctx: FormContext, **_: Any) -> Browse:
    """Each enhancement with its cost and its places on the d10 tables, filtered by table."""
    tables = items_of(ctx.catalog, "enhancement_tables", EnhancementTable)
    places: dict[str, list[tuple[EnhancementTable, int]]] = {}
    opened: dict[str, tuple[EnhancementTable, int]] = {}
    for table in tables:
        for row in table.rows:
            if isinstance(row, ItemRow):
                places.setdefault(row.item, []).append((table, row.roll))
            elif isinstance(row, SubtableRow):
                opened.setdefault(row.table, (table, row.roll))
    items: dict[str, Listing] = {}
    for item in items_of(ctx.catalog, "enhancements", Enhancement):
        where = places.get(item.id, [])
        text = f"{item.name}   {_short_cost(item)}"
        if where:
            text += "   · " + ", ".join(f"{_table_name(t)} {roll}" for t, roll in where)
        detail = [f"Costs {_cost_text(item)}."]
        for table, roll in where:
            how = f"{table.name}: roll {roll}"
            if table.id in opened:
                parent, parent_roll = opened[table.id]
                how += f" (reached by a {parent_roll} on the {parent.name})"
            detail.append(how)
        if item.notes:
            detail.append(f"Notes: {item.notes}")
        items[item.id] = Listing(text, tuple(detail), tuple(t.id for t, _ in where))
    return Browse(items, [(t.name, t.id) for t in tables], "All tables")


def roll_fighter(
    ctx: FormContext, enhancements: int = DEFAULT_ROLLED, picks: str | None = None, seed: str | None = None, **_: Any
) -> SpaceFuryDesign:
    """The fighter with its enhancements rolled on the tables: the enhancements, the seed and
    the roll log change; its name, pilot, published figures and notes stay."""
    root = _root(ctx)
    if not isinstance(root, FighterDesign):
        raise InputError.single("only a fighter rolls enhancements")
    chosen = [p.strip() for p in (picks or "").split(",") if p.strip()]
    number = _seed(seed)
    rolled = _roll_fighter(ctx.catalog, enhancements, number, name=root.name, picks=chosen).root
    assert isinstance(rolled, FighterDesign)
    update = {"enhancements": rolled.enhancements, "seed": number, "rolls": rolled.rolls}
    return _design(root.model_copy(update=update))


def enhancements_now(ctx: FormContext, **_: Any) -> int:
    """How many enhancements a roll offers: as many as the fighter counts now, or a few."""
    count = _figure_value(ctx, _count_id(ctx.catalog))
    return count if isinstance(count, int) and count > 0 else DEFAULT_ROLLED


def _seed(text: str | None) -> int:
    """A seed as typed; none given: a fresh one (kept in the design, so it rolls again)."""
    if text is None or not text.strip():
        return random.SystemRandom().randrange(2**32)
    t = text.strip()
    if not t.isdigit() or int(t) > MAX_SEED:
        raise InputError.single(f"the seed {t!r} is not a whole number", path="seed", allowed=f"0 to {MAX_SEED}")
    return int(t)


def clear_rolls(ctx: FormContext, **_: Any) -> SpaceFuryDesign:
    """The design without its seed and roll log (what they gave stays)."""
    root = _root(ctx)
    return _design(root.model_copy(update={"seed": None, "rolls": []}))


def clear_pilot_rolls(ctx: FormContext, **_: Any) -> SpaceFuryDesign:
    """The fighter with its pilot's seed and roll log forgotten."""
    root = _root(ctx)
    if not isinstance(root, FighterDesign) or root.pilot is None:
        raise InputError.single("the fighter has no pilot", path="pilot")
    pilot = root.pilot.model_copy(update={"seed": None, "rolls": []})
    return _design(root.model_copy(update={"pilot": pilot}))


# --- pilots ---------------------------------------------------------------------------------


def new_pilot(ctx: FormContext, **_: Any) -> dict[str, Any]:
    """A level 1 pilot as the Pilot Level Table has it (a fighter's pilot at its controls)."""
    return _new_pilot(ctx.catalog).model_dump(mode="json")


def new_reserve_pilot(ctx: FormContext, base: str = "pilots", **_: Any) -> dict[str, Any]:
    """A level 1 reserve pilot, named by its place in the force ("Pilot 2")."""
    pilots = ctx.value(base)
    number = (len(pilots) if isinstance(pilots, list) else 0) + 1
    return _new_pilot(ctx.catalog, f"Pilot {number}").model_dump(mode="json")


def level_now(ctx: FormContext, **_: Any) -> int:
    """The level a pilot roll offers: the pilot's level now (a level 1 pilot otherwise)."""
    level = _figure_value(ctx, "level")
    return level if isinstance(level, int) else 1


def roll_pilot(
    ctx: FormContext, seed: str | None = None, level: int | None = None, xp: int | None = None, **_: Any
) -> SpaceFuryDesign:
    """A pilot rolled for a level (or an XP, which then decides the level): a pilot design's
    XP, skills, quirks and roll log change, a fighter's pilot is rolled (keeping its name
    and notes), and a force gains a rolled reserve pilot."""
    root = _root(ctx)
    number = _seed(seed)
    if xp is not None:
        level = None
    current: PilotData | None = root if isinstance(root, PilotDesign) else None
    if isinstance(root, FighterDesign):
        current = root.pilot
    name = current.name if current is not None else ""
    rolled = _roll_pilot(ctx.catalog, number, xp=xp, level=level, name=name).root
    assert isinstance(rolled, PilotDesign)
    fields = {k: getattr(rolled, k) for k in ("xp", "level", "skills", "quirks", "seed", "rolls")}
    if isinstance(root, ForceDesign):
        return _design(root.model_copy(update={"pilots": [*root.pilots, body(PilotData, rolled)]}))
    if isinstance(root, FighterDesign):
        pilot = (current or PilotData(name=rolled.name, xp=0)).model_copy(update=fields)
        return _design(root.model_copy(update={"pilot": pilot}))
    return _design(root.model_copy(update=fields))


def _skill_die(catalog: Catalog) -> int:
    rolls = [s.roll for s in items_of(catalog, "pilot_skills", PilotSkill) if s.roll is not None]
    return max(rolls, default=0)


def skill_listing(ctx: FormContext, **_: Any) -> Browse:
    """Each pilot skill with its roll on the Pilot Skills table (the first level's on none)."""
    die = _skill_die(ctx.catalog)
    items: dict[str, Listing] = {}
    for skill in items_of(ctx.catalog, "pilot_skills", PilotSkill):
        where = f"d{die}: {skill.roll}" if skill.roll is not None else "every pilot's first"
        detail = [
            f"Pilot Skills table, d{die}: {skill.roll}" if skill.roll is not None else "Every pilot's first skill"
        ]
        items[skill.id] = Listing(f"{skill.name}   {where}", (*detail, *([skill.notes] if skill.notes else [])))
    return Browse(items)


def quirk_listing(ctx: FormContext, **_: Any) -> Browse:
    """Each quirk with its rolls on the Quirk Table and the reputation it needs."""
    rule = ctx.catalog.params(PilotQuirksParams)
    die = rule.table_die if rule is not None else 100
    items: dict[str, Listing] = {}
    for quirk in items_of(ctx.catalog, "quirks", Quirk):
        need = f", {quirk.requires_reputation} only" if quirk.requires_reputation else ""
        where = f"D{die}: {quirk.low}-{quirk.high}{need}"
        items[quirk.id] = Listing(f"{quirk.name}   {where}", (f"Quirk Table, {where}", quirk.description))
    return Browse(items)


def reserve_level(ctx: FormContext, base: str = "", **_: Any) -> tuple[str, str]:
    """A reserve pilot's level as the force's report has it, with its Cool."""
    table = ctx.report.derived.table("reserves") if ctx.report is not None else None
    index = _index(base)
    if table is None or index >= len(table.rows):
        return "", ""
    return str(table.rows[index][1]), f"Cool {table.rows[index][2]}"


def reserve_skills(ctx: FormContext, base: str = "", **_: Any) -> tuple[str, str]:
    """How many skills a reserve pilot has, and which."""
    skills = ctx.value(f"{base}.skills")
    ids = [str(s) for s in skills] if isinstance(skills, list) else []
    names = [getattr(ctx.catalog.item("pilot_skills", s), "name", s) for s in ids]
    return str(len(ids)), ", ".join(names)


# --- a force --------------------------------------------------------------------------------


def _force(ctx: FormContext) -> ForceDesign:
    root = _root(ctx)
    if not isinstance(root, ForceDesign):
        raise InputError.single("only a force has fighters and reserve pilots")
    return root


def sample_fighters(ctx: FormContext, **_: Any) -> list[tuple[str, str]]:
    """The sample fighters of the catalog's folders (house rules' too), by name; a sample
    that cannot be read is one choice saying so."""
    try:
        samples = _sample_fighters(ctx.catalog)
    except InputError as exc:  # a broken sample in a user's catalog folder
        return [(f"Cannot read the sample fighters: {exc}", "")]
    return [(f.name, stem) for stem, f in sorted(samples.items(), key=lambda kv: kv[1].name)]


def add_sample(ctx: FormContext, sample: str = "", **_: Any) -> SpaceFuryDesign:
    """The force with one more fighter: a sample fighter, as its file has it."""
    force = _force(ctx)
    found = _sample_fighters(ctx.catalog).get(sample)
    if found is None:
        raise InputError.single(f"no sample fighter {sample!r}", path="fighters")
    return _design(force.model_copy(update={"fighters": [*force.fighters, found]}))


def add_file(ctx: FormContext, file: str | None = None, **_: Any) -> SpaceFuryDesign:
    """The force with a design file's fighter or pilot added (a force file: all of its
    fighters and pilots), read against the force's own catalog layers (its house rules)."""
    from shipyard.core.designfile import load_design

    force = _force(ctx)
    if not file:
        raise InputError.single("choose a design file to add", path="fighters")
    layers = tuple(folder.parent for folder in ctx.catalog.folders[1:])
    loaded = load_design(Path(file), catalog_folders=layers, use_user_folder=False)
    if loaded.ruleset != ctx.catalog.meta.id:
        raise InputError.single(f"{Path(file).name} is a {loaded.ruleset} design, not a {ctx.catalog.meta.name} one")
    root = loaded.design.root
    if isinstance(root, FighterDesign):
        return _design(force.model_copy(update={"fighters": [*force.fighters, body(FighterData, root)]}))
    if isinstance(root, PilotDesign):
        return _design(force.model_copy(update={"pilots": [*force.pilots, body(PilotData, root)]}))
    fighters, pilots = [*force.fighters, *root.fighters], [*force.pilots, *root.pilots]
    return _design(force.model_copy(update={"fighters": fighters, "pilots": pilots}))


def force_fighters(ctx: FormContext, **_: Any) -> list[tuple[str, int]]:
    """The force's fighters, each with who flies it."""
    root = _root(ctx)
    if not isinstance(root, ForceDesign):
        return []
    return [
        (f"{f.name}: " + (f"flown by {f.pilot.name or 'a pilot'}" if f.pilot else "no pilot"), i)
        for i, f in enumerate(root.fighters)
    ]


def crewed_fighters(ctx: FormContext, **_: Any) -> list[tuple[str, int]]:
    """The force's fighters that have a pilot at their controls."""
    root = _root(ctx)
    if not isinstance(root, ForceDesign):
        return []
    return [(label, i) for label, i in force_fighters(ctx) if root.fighters[i].pilot is not None]


def any_crewed(ctx: FormContext, **_: Any) -> bool:
    """Whether a fighter of the force has a pilot to move to the reserves."""
    return bool(crewed_fighters(ctx))


def reserve_pilots(ctx: FormContext, **_: Any) -> list[tuple[str, int]]:
    """The force's reserve pilots."""
    root = _root(ctx)
    if not isinstance(root, ForceDesign):
        return []
    return [(p.name or f"Reserve pilot {j + 1}", j) for j, p in enumerate(root.pilots)]


def crew_fighter(ctx: FormContext, fighter: int | None = None, pilot: int | None = None, **_: Any) -> SpaceFuryDesign:
    """The force with a reserve pilot at a fighter's controls; a pilot already there goes
    to the reserves."""
    force = _force(ctx)
    if fighter is None or not 0 <= fighter < len(force.fighters):
        raise InputError.single("choose a fighter to crew", path="fighters")
    if pilot is None or not 0 <= pilot < len(force.pilots):
        raise InputError.single("the force has no reserve pilot to crew it with: add one on the Reserve pilots page")
    reserves = list(force.pilots)
    seated = reserves.pop(pilot)
    crewed = force.fighters[fighter]
    if crewed.pilot is not None:
        reserves.append(crewed.pilot)
    fighters = list(force.fighters)
    fighters[fighter] = crewed.model_copy(update={"pilot": seated})
    return _design(force.model_copy(update={"fighters": fighters, "pilots": reserves}))


def unseat(ctx: FormContext, fighter: int | None = None, **_: Any) -> SpaceFuryDesign:
    """The force with a fighter's pilot moved to the reserves."""
    force = _force(ctx)
    if fighter is None or not 0 <= fighter < len(force.fighters) or force.fighters[fighter].pilot is None:
        raise InputError.single("choose a fighter with a pilot", path="fighters")
    crewed = force.fighters[fighter]
    fighters = list(force.fighters)
    fighters[fighter] = crewed.model_copy(update={"pilot": None})
    pilots = [*force.pilots, crewed.pilot] if crewed.pilot is not None else list(force.pilots)
    return _design(force.model_copy(update={"fighters": fighters, "pilots": pilots}))


FORM_CALLS: dict[str, Callable[..., Any]] = {
    "published_now": published_now,
    "entry_counts": entry_counts,
    "may_replace": may_replace,
    "add_enhancement": add_enhancement,
    "is_mount": is_mount,
    "mount_weapons": mount_weapons,
    "free_weapon": free_weapon,
    "enhancement_listing": enhancement_listing,
    "roll_fighter": roll_fighter,
    "enhancements_now": enhancements_now,
    "clear_rolls": clear_rolls,
    "clear_pilot_rolls": clear_pilot_rolls,
    "new_pilot": new_pilot,
    "new_reserve_pilot": new_reserve_pilot,
    "level_now": level_now,
    "roll_pilot": roll_pilot,
    "skill_listing": skill_listing,
    "quirk_listing": quirk_listing,
    "reserve_level": reserve_level,
    "reserve_skills": reserve_skills,
    "sample_fighters": sample_fighters,
    "add_sample": add_sample,
    "add_file": add_file,
    "force_fighters": force_fighters,
    "crewed_fighters": crewed_fighters,
    "any_crewed": any_crewed,
    "reserve_pilots": reserve_pilots,
    "crew_fighter": crew_fighter,
    "unseat": unseat,
}
