"""What a Space Fury fighter has: its purchases, its armament, its mounts and its figures'
parts, worked out from its enhancements and the catalog.

The rules, the figures, the random builds and the editor all ask these questions; the
answers come from here only, so the editor never works a rule out by itself.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from shipyard.core.model import Catalog
from shipyard.rulesets.space_fury.catalog_lookup import items_of, listed_in
from shipyard.rulesets.space_fury.design import EnhancementChoice, FighterData
from shipyard.rulesets.space_fury.items import (
    BasicSystem,
    Enhancement,
    MountEffect,
    StatEffect,
    Weapon,
    WeaponEffect,
)
from shipyard.rulesets.space_fury.params import BasicWeaponParams


@dataclass(frozen=True)
class Purchase:
    """One enhancement entry of a fighter with what it counts."""

    index: int
    choice: EnhancementChoice
    item: Enhancement | None
    purchases: int  # racks for items bought in units, else the count

    @property
    def enhancements(self) -> int:
        return self.purchases * self.item.cost if self.item else 0


@dataclass(frozen=True)
class Armament:
    """Weapons of one kind the fighter carries, and where they come from."""

    weapon: Weapon | None
    weapon_id: str
    count: int
    source: str  # "basic" or the enhancement's name


def one_more(fighter: FighterData, item: Enhancement) -> tuple[int | None, int]:
    """Buying ``item`` once more: the entry it adds to (None: a new entry) and that entry's count.

    Items bought in units (a Missile Rack holds 2 missiles) add a full purchase's units.
    """
    units = item.units if item.unit else 1
    for i, choice in enumerate(fighter.enhancements):
        if choice.id == item.id:
            return i, choice.count + units
    return None, units


def purchases(fighter: FighterData, catalog: Catalog) -> list[Purchase]:
    out = []
    for i, c in enumerate(fighter.enhancements):
        item = catalog.item("enhancements", c.id)
        if isinstance(item, Enhancement):
            out.append(Purchase(i, c, item, math.ceil(c.count / item.units)))
        else:
            out.append(Purchase(i, c, None, c.count))
    return out


def basic_weapon(catalog: Catalog) -> WeaponEffect | None:
    """The weapon every fighter has (BASIC SYSTEMS: "one Laser")."""
    for system in items_of(catalog, "basic_systems", BasicSystem):
        for eff in system.effects:
            if isinstance(eff, WeaponEffect):
                return eff
    return None


def is_special_gun(item: Enhancement | None, p: BasicWeaponParams, catalog: Catalog) -> bool:
    if item is None or p.replace_table not in [t.id for t in listed_in(catalog).get(item.id, [])]:
        return False
    for eff in item.effects:
        if isinstance(eff, WeaponEffect):
            weapon = catalog.item("weapons", eff.weapon)
            if isinstance(weapon, Weapon) and p.replace_tag in weapon.tags:
                return True
    return False


def may_replace_basic(item_id: str, catalog: Catalog) -> bool:
    """Whether the enhancement ``item_id`` is a special gun that may replace the basic weapon.

    The editor asks this to enable its "replaces the basic Laser" box, so the rule lives
    here only; the preset in effect says what a replacement counts.
    """
    p: BasicWeaponParams | None = catalog.params(BasicWeaponParams)
    item = catalog.item("enhancements", item_id)
    return p is not None and isinstance(item, Enhancement) and is_special_gun(item, p, catalog)


def replacement(fighter: FighterData, catalog: Catalog) -> Purchase | None:
    """The special gun that replaces the basic weapon, when the rules in effect allow it."""
    p: BasicWeaponParams | None = catalog.params(BasicWeaponParams)
    if p is None or p.replace_credit is None or p.max_replacements < 1:
        return None
    return next(
        (pu for pu in purchases(fighter, catalog) if pu.choice.replaces_basic and is_special_gun(pu.item, p, catalog)),
        None,
    )


def armament(fighter: FighterData, catalog: Catalog) -> list[Armament]:
    """Every weapon the fighter carries: the basic one (unless replaced), then its enhancements'."""
    out: list[Armament] = []
    basic = basic_weapon(catalog)
    if basic is not None and replacement(fighter, catalog) is None:
        w = catalog.item("weapons", basic.weapon)
        out.append(Armament(w if isinstance(w, Weapon) else None, basic.weapon, 1, "basic"))
    for pu in purchases(fighter, catalog):
        if pu.item is None:
            continue
        for eff in pu.item.effects:
            if isinstance(eff, WeaponEffect):
                w = catalog.item("weapons", eff.weapon)
                count = pu.choice.count if pu.item.units > 1 else pu.purchases
                out.append(Armament(w if isinstance(w, Weapon) else None, eff.weapon, count, pu.item.name))
    return out


@dataclass(frozen=True)
class Applied:
    """One effect of a basic system or bought enhancement, and how many times it applies."""

    item: BasicSystem | Enhancement
    times: int
    effect: Any


def applied_effects(fighter: FighterData, catalog: Catalog) -> list[Applied]:
    out: list[Applied] = []
    for system in items_of(catalog, "basic_systems", BasicSystem):
        out += [Applied(system, 1, eff) for eff in system.effects]
    for pu in purchases(fighter, catalog):
        if pu.item is not None:
            out += [Applied(pu.item, pu.purchases, eff) for eff in pu.item.effects]
    return out


@dataclass(frozen=True)
class StatTotal:
    value: int
    parts: list[str]
    conditions: list[str]


def fighter_stats(fighter: FighterData, catalog: Catalog) -> dict[str, StatTotal]:
    """Each figure the stat effects give: total, the parts that make it, and conditions."""
    totals: dict[str, tuple[int, list[str], list[str]]] = {}
    for applied in applied_effects(fighter, catalog):
        eff, source = applied.effect, applied.item.name
        if not isinstance(eff, StatEffect):
            continue
        value, parts, conditions = totals.get(eff.stat, (0, [], []))
        amount = eff.amount * applied.times
        value += amount
        if amount or not parts:
            parts = [*parts, f"{source} {amount:+d}" if parts else f"{source} {amount}"]
        if eff.condition:
            conditions = [*conditions, f"{source} {eff.condition}"]
        totals[eff.stat] = (value, parts, conditions)
    return {k: StatTotal(v, p, c) for k, (v, p, c) in totals.items()}


@dataclass(frozen=True)
class MountEntry:
    """An enhancement entry that mounts weapons (Turrets): what it carries and how many."""

    purchase: Purchase
    mount: MountEffect
    capacity: int  # weapons it carries: purchases x weapons each

    @property
    def carried(self) -> list[str]:
        return list(self.purchase.choice.weapons)


def mount_entries(fighter: FighterData, catalog: Catalog) -> list[MountEntry]:
    """Every entry of the fighter that mounts weapons, in the order of its enhancements."""
    out = []
    for pu in purchases(fighter, catalog):
        mounts = [e for e in pu.item.effects if isinstance(e, MountEffect)] if pu.item else []
        if mounts:
            out.append(MountEntry(pu, mounts[0], pu.purchases * mounts[0].weapons))
    return out


def mountable(mount: MountEffect, catalog: Catalog) -> list[Weapon]:
    """The catalog's weapons a mount can carry (a tag in common)."""
    return [w for w in items_of(catalog, "weapons", Weapon) if set(w.tags) & set(mount.tags)]


def weapons_owned(fighter: FighterData, catalog: Catalog) -> dict[str, int]:
    """How many of each weapon the fighter has (its basic gun and its enhancements')."""
    owned: dict[str, int] = {}
    for arm in armament(fighter, catalog):
        owned[arm.weapon_id] = owned.get(arm.weapon_id, 0) + arm.count
    return owned
