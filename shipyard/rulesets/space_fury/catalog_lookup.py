"""Lookups in a Space Fury catalog that several modules share.

The Pilot Level Table (sorted once per catalog), the level a pilot plays at, reputations
in the table's order and which tables list each enhancement: read by the rules, the
figures and the random builds alike, so they live once, here.
"""

from __future__ import annotations

from typing import TypeVar

from shipyard.core.items import CatalogItem
from shipyard.core.model import Catalog
from shipyard.rulesets.space_fury.design import PilotData
from shipyard.rulesets.space_fury.items import EnhancementTable, ItemRow, PilotLevel

T = TypeVar("T", bound=CatalogItem)


def items_of(catalog: Catalog, kind: str, model: type[T]) -> list[T]:
    """The entries of ``kind`` as their model (for the type checker: a kind holds one model)."""
    return [i for i in catalog.kind(kind).values() if isinstance(i, model)]


def levels(catalog: Catalog) -> list[PilotLevel]:
    """The Pilot Level Table, lowest level first (sorted once per catalog)."""
    return catalog.memo(
        "pilot-levels", lambda: sorted(items_of(catalog, "pilot_levels", PilotLevel), key=lambda r: r.level)
    )


def level_for_xp(catalog: Catalog, xp: int) -> int:
    """The highest level whose experience the pilot has; 0 below the first level."""
    return max((r.level for r in levels(catalog) if r.xp <= xp), default=0)


def level_row(catalog: Catalog, level: int) -> PilotLevel | None:
    """The table's row for ``level``; None beyond the table."""
    return next((r for r in levels(catalog) if r.level == level), None)


def playing_row(catalog: Catalog, level: int) -> PilotLevel | None:
    """The table row a pilot of ``level`` plays by: beyond the table, its top row; none for 0
    (or a house-rule catalog without the table)."""
    table = levels(catalog)
    return level_row(catalog, min(level, table[-1].level)) if level and table else None


def pilot_level(catalog: Catalog, pilot: PilotData) -> int:
    """The level a pilot plays at: the one claimed, else the one its XP reaches."""
    return pilot.level if pilot.level is not None else level_for_xp(catalog, pilot.xp)


def reputation_rank(catalog: Catalog, reputation: str) -> int | None:
    """How far up the table a reputation comes (a quirk that "must be a veteran" compares them)."""
    order: list[str] = []
    for r in levels(catalog):
        if r.reputation not in order:
            order.append(r.reputation)
    return order.index(reputation) if reputation in order else None


def listed_in(catalog: Catalog) -> dict[str, list[EnhancementTable]]:
    """Which tables list each enhancement."""
    out: dict[str, list[EnhancementTable]] = {}
    for table in items_of(catalog, "enhancement_tables", EnhancementTable):
        for row in table.rows:
            if isinstance(row, ItemRow):
                out.setdefault(row.item, []).append(table)
    return out
