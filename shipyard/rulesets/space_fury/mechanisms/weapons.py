"""Rules on a fighter's weapons: the basic Laser a special gun may replace (as the preset
in effect counts it) and what each Turret carries.
"""

from __future__ import annotations

from shipyard.core.findings import Severity
from shipyard.core.model import Context
from shipyard.core.numberwords import count_of
from shipyard.core.rules import cite
from shipyard.rulesets.space_fury.counts import count
from shipyard.rulesets.space_fury.design import fighter_of
from shipyard.rulesets.space_fury.fighter import basic_weapon, is_special_gun, mount_entries, purchases, weapons_owned
from shipyard.rulesets.space_fury.items import Weapon
from shipyard.rulesets.space_fury.params import BasicWeaponParams, MountsParams
from shipyard.rulesets.space_fury.wording import plural


def apply_basic_weapon(ctx: Context, p: BasicWeaponParams) -> None:
    """A special gun may replace the basic weapon and be credited (when the preset says so)."""
    fighter = fighter_of(ctx.design)
    basic = basic_weapon(ctx.catalog)
    if fighter is None or basic is None:
        return
    basic_item = ctx.catalog.item("weapons", basic.weapon)
    laser = basic_item.name if basic_item else basic.weapon
    flagged = [pu for pu in purchases(fighter, ctx.catalog) if pu.choice.replaces_basic]
    guns = [pu for pu in flagged if is_special_gun(pu.item, p, ctx.catalog)]
    src = cite(ctx, p)
    for pu in flagged:
        if pu not in guns:
            ctx.findings.add(
                Severity.ERROR,
                "basic-weapon-replacement-not-a-gun",
                f"{pu.item.name if pu.item else pu.choice.id} cannot replace the basic {laser}: "
                f"only a {p.replace_tag} from the {p.replace_table} table can",
                path=f"enhancements[{pu.index}].replaces_basic",
                actual=pu.choice.id,
                limit=p.replace_tag,
                rule=p.id,
                source=ctx.catalog.cite(p.source),
            )
    if len(guns) > p.max_replacements:
        ctx.findings.add(
            Severity.ERROR,
            "basic-weapon-replaced-twice",
            f"{len(guns)} special guns replace the basic {laser}; there is only {p.max_replacements} to replace",
            path=f"enhancements[{guns[p.max_replacements].index}].replaces_basic",
            actual=len(guns),
            limit=p.max_replacements,
            rule=p.id,
            source=ctx.catalog.cite(p.source),
        )
    if not guns:
        return
    gun = guns[0]
    gun_name = gun.item.name if gun.item else gun.choice.id
    if p.replace_credit is None or p.max_replacements < 1:
        ctx.findings.add(
            Severity.ADVICE,
            "basic-weapon-kept",
            f"as written a special gun is added on top of the basic {laser}: {gun_name} does not replace it "
            "and credits nothing (the sample-fighters preset counts the replacement)",
            path=f"enhancements[{gun.index}].replaces_basic",
            actual=0,
            limit=0,
            rule=p.id,
            source=ctx.catalog.cite(p.source),
        )
        return
    count(ctx, p.count).take(
        f"{gun_name} replaces the basic {laser}",
        p.replace_credit,
        source=src,
        path=f"enhancements[{gun.index}].replaces_basic",
        rule=p.id,
    )


def apply_weapon_mounts(ctx: Context, p: MountsParams) -> None:
    """A Turret carries one weapon the fighter has, of a kind it can carry."""
    fighter = fighter_of(ctx.design)
    if fighter is None:
        return
    owned = weapons_owned(fighter, ctx.catalog)
    carried: dict[str, tuple[int, str]] = {}
    for entry in mount_entries(fighter, ctx.catalog):
        pu, eff, capacity = entry.purchase, entry.mount, entry.capacity
        assert pu.item is not None
        path = f"enhancements[{pu.index}].weapons"
        n = len(pu.choice.weapons)
        what = f"{pu.purchases} {plural(pu.item.name, pu.purchases)}"
        if n > capacity:
            ctx.findings.add(
                Severity.ERROR,
                "turret-overloaded",
                f"{what} carry {count_of(n, 'weapon')}; each {pu.item.name} carries {eff.weapons}",
                path=path,
                actual=n,
                limit=capacity,
                rule=p.id,
                source=ctx.catalog.cite(p.source),
            )
        elif n < capacity:
            ctx.findings.add(
                p.empty_severity,
                "turret-empty",
                f"{what} carry {count_of(n, 'weapon')}; name the weapon each {pu.item.name} carries",
                path=path,
                actual=n,
                limit=capacity,
                rule=p.id,
                source=ctx.catalog.cite(p.source),
            )
        for j, wid in enumerate(pu.choice.weapons):
            weapon = ctx.catalog.item("weapons", wid)
            if isinstance(weapon, Weapon) and not set(weapon.tags) & set(eff.tags):
                ctx.findings.add(
                    Severity.ERROR,
                    "turret-weapon-not-mountable",
                    f"a {pu.item.name} cannot carry a {weapon.name}; it carries a {' or '.join(eff.tags)}",
                    path=f"{path}[{j}]",
                    actual=wid,
                    limit=eff.tags,
                    rule=p.id,
                    source=ctx.catalog.cite(p.source),
                )
            count, first = carried.get(wid, (0, f"{path}[{j}]"))
            carried[wid] = (count + 1, first)
    for wid, (count, first) in carried.items():
        if count > owned.get(wid, 0):
            weapon = ctx.catalog.item("weapons", wid)
            name = weapon.name if weapon else wid
            ctx.findings.add(
                Severity.ERROR,
                "turret-weapon-missing",
                f"{count} {plural('turret', count)} carry a {name}; the fighter has {owned.get(wid, 0)}",
                path=first,
                actual=count,
                limit=owned.get(wid, 0),
                rule=p.id,
                source=ctx.catalog.cite(p.source),
            )
