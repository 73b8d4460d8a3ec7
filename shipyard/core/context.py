"""What a rule sees while evaluating one design: a neutral view plus the ledger.

A ruleset module turns its own design model into a :class:`DesignView` (stats by id,
item selections by kind); the neutral rules work on that view only, so they can be
reused by any rule system that has stats, items and budgets.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict

from shipyard.core.catalog import Catalog
from shipyard.core.findings import FindingSink
from shipyard.core.pools import Ledger
from shipyard.core.scales import Scale


@dataclass(frozen=True)
class Selection:
    """One chosen catalog item: how many, at what level, and where it sits in the design."""

    kind: str
    id: str
    path: str
    level: int = 1
    count: int = 1
    component_scale: Scale | None = None


@dataclass
class DesignView:
    scale: Scale
    stats: dict[str, int]
    selections: list[Selection]
    pinned: dict[str, list[str]] = field(default_factory=dict)
    budget_overrides: dict[str, int] = field(default_factory=dict)
    # Marks the ruleset puts on a design (e.g. "converted" from another system); rules
    # may take a different severity for marked designs, as their catalog entry says.
    marks: frozenset[str] = frozenset()

    def selected(self, kind: str) -> list[Selection]:
        return [s for s in self.selections if s.kind == kind]

    def has(self, kind: str, item_id: str) -> bool:
        return any(s.kind == kind and s.id == item_id for s in self.selections)


class PriorityReport(BaseModel):
    """The outcome of a priority allocation (which attribute got which free dots)."""

    model_config = ConfigDict(frozen=True)

    rule: str
    order: dict[str, int]
    pinned: bool
    cost: int
    wasted: int
    best_cost: int
    source: str


@dataclass
class Context:
    catalog: Catalog
    design: Any
    view: DesignView
    ledger: Ledger
    findings: FindingSink
    priorities: list[PriorityReport] = field(default_factory=list)
    notes: dict[str, Any] = field(default_factory=dict)

    @property
    def scale(self) -> Scale:
        return self.view.scale

    def stat_path(self, stat_id: str) -> str:
        for s in self.catalog.meta.stats:
            if s.id == stat_id:
                return s.path
        return stat_id

    def stat_name(self, stat_id: str) -> str:
        for s in self.catalog.meta.stats:
            if s.id == stat_id:
                return s.name
        return stat_id
