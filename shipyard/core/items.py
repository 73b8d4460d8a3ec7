"""Base shapes of catalog entries that the neutral mechanisms can work with.

A ruleset's module subclasses these for its own item kinds (weapons, technology ...);
the core rules (item costs, levels, scale limits, recommendations) only rely on the
fields declared here.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

ID_PATTERN = r"^[a-z0-9][a-z0-9-]*$"


# Catalog entries are validated once and then come from the catalog cache by unpickling,
# which needs no validator: building their schemas lazily keeps start-up short.
DEFERRED = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class CatalogItem(BaseModel):
    model_config = DEFERRED

    id: str = Field(pattern=ID_PATTERN)
    name: str = Field(min_length=1)
    aliases: list[str] = Field(default_factory=list)
    source: str = Field(min_length=1)


class PricedItem(CatalogItem):
    """An item bought from a pool, possibly in levels, possibly limited by scale."""

    cost: int = Field(ge=0)
    per_level: bool = False
    max_level: int | None = Field(default=None, ge=1)
    pool: str | None = Field(default=None, description="pool that pays; default from the cost rule")
    scales: list[str] | None = None
    recommended_for: list[str] = Field(default_factory=list)


class Chart(CatalogItem):
    """A reference table printed on sheets as the text prints it (columns and rows of text)."""

    columns: list[str] = Field(min_length=1)
    rows: list[list[str]]
    notes: str = ""


class StatDef(BaseModel):
    """A design statistic with its legal range, as the rules print the stat block."""

    model_config = DEFERRED

    id: str = Field(pattern=ID_PATTERN)
    name: str
    min: int | None = None
    max: int | None = None
    base: int | None = None
    path: str
    description: str = ""
    source: str


class RulesetMeta(BaseModel):
    model_config = DEFERRED

    id: str = Field(pattern=ID_PATTERN)
    name: str
    version: str
    description: str = ""
    source_file: str
    source_title: str
    module: str = Field(pattern=r"^[a-z_][a-z0-9_]*$")
    default_preset: str
    stats: list[StatDef]
    sheet_reference: list[str] = Field(
        default_factory=list, description="item kinds that sheets print as reference tables"
    )
    variant_label: str = Field(
        default="Form",
        min_length=1,
        description="what reports call a design's variants (a form of a transforming craft, a member of a force)",
    )
    samples_note: str = Field(
        default="",
        max_length=400,
        description="one sentence: why a published sample can fail as written (README, welcome page, fleet-book cover)",
    )


class Preset(BaseModel):
    model_config = DEFERRED

    id: str = Field(pattern=ID_PATTERN)
    name: str
    description: str = ""
    source: str
    overrides: dict[str, dict[str, dict[str, Any]]] = Field(default_factory=dict)


class RuleDef(BaseModel):
    """The common head of every rule entry; the rest is the rule type's parameters."""

    model_config = ConfigDict(extra="allow", frozen=True, defer_build=True)

    id: str = Field(pattern=ID_PATTERN)
    type: str
    name: str = ""
    source: str = Field(min_length=1)
