"""Base shapes of catalog entries that the neutral mechanisms can work with.

A ruleset's module subclasses these for its own item kinds (weapons, technology ...);
the core rules (item costs, levels, scale limits, recommendations) only rely on the
fields declared here.
"""

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

ID_PATTERN = r"^[a-z0-9][a-z0-9-]*$"


@dataclass(frozen=True)
class ItemRef:
    """Marks a field that holds ids of catalog items of ``kind``: ``Annotated[list[str], ItemRef("accessories")]``.

    The catalog checks every marked id against the items it has (:func:`item_refs`), so a
    misspelt id is an error at load, not a rule that silently never applies.
    """

    kind: str


def item_refs(value: Any, path: str = "") -> Iterator[tuple[str, str, str]]:
    """``(kind, id, path)`` of every id in fields marked :class:`ItemRef`, nested models included."""
    if isinstance(value, BaseModel):
        for name, info in type(value).model_fields.items():
            here = f"{path}.{name}" if path else name
            field_value = getattr(value, name)
            ref = next((m for m in info.metadata if isinstance(m, ItemRef)), None)
            if ref is not None:
                ids = [field_value] if isinstance(field_value, str) else list(field_value or [])
                yield from ((ref.kind, i, here) for i in ids)
            else:
                yield from item_refs(field_value, here)
    elif isinstance(value, list | tuple):
        for i, v in enumerate(value):
            yield from item_refs(v, f"{path}[{i}]")


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


_NOT_FACTS = frozenset({"id", "name", "aliases", "source", "cost", "per_level", "max_level", "pool"})
LONG_TEXT = 30  # characters: a text of words longer than this is a paragraph, not a fact


def _fact_text(value: Any) -> str | None:
    """A field's value in words, or None where it says nothing (unset, empty, no, nested data)."""
    if value is None or value is False or value == "" or value == [] or value == {}:
        return None
    if value is True:
        return "yes"
    if isinstance(value, int | float | str):
        return str(value)
    if isinstance(value, list | tuple) and all(isinstance(v, int | float | str) for v in value):
        return ", ".join(str(v) for v in value)
    if isinstance(value, BaseModel):
        parts = [(n.replace("_", " "), _fact_text(getattr(value, n))) for n in type(value).model_fields]
        shown = [f"{n} {t}" for n, t in parts if t is not None and "," not in t]
        return ", ".join(shown) or None
    return None  # lists of rules data (an item's effects) are the engine's, not a reader's


def facts(item: CatalogItem) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """What a user needs to choose ``item``, from its own fields: short facts
    (("Speed", "1"), ("Damage", "5"), ("Cost", "2")) and longer texts (("Notes", "...")).

    Generic over every ruleset's item kinds: each field of the item's model in order, by
    its title or its name in words; a price as "2", "1 per level, up to 5"."""
    short: list[tuple[str, str]] = []
    long: list[tuple[str, str]] = []
    if isinstance(item, PricedItem):
        price = f"{item.cost}" + (" per level" if item.per_level else "")
        short.append(("Cost", price + (f", up to {item.max_level}" if item.max_level else "")))
    for name, info in type(item).model_fields.items():
        if name in _NOT_FACTS:
            continue
        text = _fact_text(getattr(item, name))
        if text is None:
            continue
        label = info.title or name.replace("_", " ").capitalize()
        paragraph = isinstance(getattr(item, name), str) and len(text) > LONG_TEXT and " " in text
        (long if paragraph else short).append((label, text))
    return short, long


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


class RulesetSection(BaseModel):
    """The ``ruleset`` section of a catalog: what the rules data says about itself.

    Who the ruleset is (id, name, version, source) is its manifest's to say
    (:mod:`shipyard.core.manifest`); :class:`RulesetMeta` joins the two.
    """

    model_config = DEFERRED

    default_preset: str
    stats: list[StatDef] = Field(default_factory=list)
    sheet_reference: list[str] = Field(
        default_factory=list, description="item kinds that sheets print as reference tables"
    )
    variant_label: str = Field(
        default="Form",
        min_length=1,
        description="what reports call a design's variants (a form of a transforming craft, a member of a force)",
    )


class RulesetMeta(RulesetSection):
    """A loaded ruleset's identity (from its manifest) and its catalog's ``ruleset`` section."""

    id: str = Field(pattern=ID_PATTERN)
    name: str
    version: str
    description: str = ""
    source_file: str = ""
    source_title: str
    samples_note: str = ""


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
