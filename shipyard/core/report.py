"""The Report: everything evaluation found, as plain data.

The command line prints it, ``--json`` dumps it, the editor shows it and the sheet
templates format it; none of them computes a rule themselves.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from shipyard.core.context import PriorityReport
from shipyard.core.findings import Finding, Severity
from shipyard.core.pools import PoolReport

Cell = str | int | float | None


class Figure(BaseModel):
    """A derived number with its label, unit and how it came about."""

    model_config = ConfigDict(frozen=True)

    id: str
    label: str
    value: Any
    unit: str = ""
    detail: str = ""
    source: str = ""


class Table(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    title: str
    columns: list[str]
    rows: list[list[Cell]]
    notes: str = ""
    source: str = ""


class Derived(BaseModel):
    model_config = ConfigDict(frozen=True)

    figures: list[Figure] = Field(default_factory=list)
    tables: list[Table] = Field(default_factory=list)

    def figure(self, fig_id: str) -> Figure | None:
        return next((f for f in self.figures if f.id == fig_id), None)

    def table(self, table_id: str) -> Table | None:
        return next((t for t in self.tables if t.id == table_id), None)


class Report(BaseModel):
    model_config = ConfigDict(frozen=True)

    ruleset: str
    ruleset_name: str
    preset: str
    preset_name: str
    name: str
    scale: str
    valid: bool
    pools: list[PoolReport]
    priorities: list[PriorityReport] = Field(default_factory=list)
    derived: Derived
    findings: list[Finding]
    catalog_overrides: list[str] = Field(default_factory=list)
    forms: list[Report] = Field(default_factory=list)
    forms_label: str = "Form"  # the ruleset's word for a variant (RulesetMeta.variant_label)

    def pool(self, pool_id: str) -> PoolReport | None:
        return next((p for p in self.pools if p.id == pool_id), None)

    def by_severity(self, severity: Severity | str) -> list[Finding]:
        return [f for f in self.findings if f.severity == Severity(severity)]

    def codes(self) -> list[str]:
        return [f.code for f in self.findings]
