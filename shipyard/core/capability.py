"""Capabilities: shared rule mechanisms a ruleset opts into by naming them in its manifest.

Some mechanisms serve a family of systems, not one ruleset and not every one: point-buy
(an attribute priority, costs charged to pools, exchanges, pool limits) is the example.
They are not the neutral core's, and copying them into each ruleset that needs them
would be worse. A capability is a package of its own that gives rule types; a ruleset
takes them by listing the capability in its manifest (``capabilities: [point-buy]``), and
only then may its catalog name those rule types.

Capabilities are found like rulesets, through an entry point (group
``shipyard.capabilities``, the value ``package:ATTRIBUTE`` naming a :class:`Capability`),
so the core never imports one by name and an outsider can publish another. A capability
is imported when a catalog that declares it is loaded, or when a catalog names a rule
type it lacks (to say which capability would give it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from shipyard.core.errors import InputError

if TYPE_CHECKING:
    from pydantic import BaseModel

    from shipyard.core.model import RuleType

GROUP = "shipyard.capabilities"


@dataclass(frozen=True)
class Section:
    """A catalog section a capability reads: the model its body is validated with, and what
    the catalog keeps of it (``build`` of the validated body). The core reads the section
    ``scales`` as a :class:`shipyard.core.ladder.Ladder` (``Catalog.scales``)."""

    model: type[BaseModel]
    build: Callable[[Any], Any]


@dataclass(frozen=True)
class Capability:
    """What a capability gives: its rule types and catalog sections, under an id a manifest names."""

    id: str
    name: str
    description: str
    rule_types: Mapping[str, RuleType]
    sections: Mapping[str, Section] = field(default_factory=dict)


@cache
def installed() -> dict[str, str]:
    """Every installed capability's id and the ``package:ATTRIBUTE`` it is found at (no import)."""
    from shipyard.core.entrypoints import entry_points

    return {ep.name: f"{ep.package}:{ep.manifest}" for ep in entry_points(group=GROUP)}


@cache
def load(capability_id: str) -> Capability:
    """The capability ``capability_id``, imported now; an input error naming the installed ones if
    there is none or its entry point does not name a :class:`Capability`."""
    import importlib

    from shipyard.core.rulesetimport import plugin_guard
    from shipyard.core.suggest import did_you_mean

    where = installed().get(capability_id)
    if where is None:
        known = sorted(installed())
        hint = did_you_mean(capability_id, known)
        raise InputError.single(
            f"unknown capability {capability_id!r}" + (f"; {hint}" if hint else ""),
            path="capabilities",
            allowed=", ".join(known) or "none is installed",
        )
    package, _, attribute = where.partition(":")
    with plugin_guard(f"capability {capability_id!r} ({where}) cannot be imported"):
        found = getattr(importlib.import_module(package), attribute, None)
    if not isinstance(found, Capability) or found.id != capability_id:
        raise InputError.single(
            f"capability {capability_id!r}: {where} is not a shipyard.core.capability.Capability "
            f"with id {capability_id!r}"
        )
    return found


def sections(capability_ids: list[str]) -> dict[str, Section]:
    """The catalog sections the listed capabilities read, in the order listed."""
    found: dict[str, Section] = {}
    for capability_id in capability_ids:
        found.update(load(capability_id).sections)
    return found


def rule_types(capability_ids: list[str]) -> dict[str, RuleType]:
    """The rule types the listed capabilities give, in the order listed."""
    types: dict[str, RuleType] = {}
    owner: dict[str, str] = {}
    for capability_id in capability_ids:
        for name, rule_type in load(capability_id).rule_types.items():
            if name in owner and owner[name] != capability_id:  # never one shadowing the other silently
                raise InputError.single(
                    f"the capabilities {owner[name]!r} and {capability_id!r} both give rule type {name!r}; "
                    "a ruleset may declare only one of them",
                    path="capabilities",
                )
            types[name], owner[name] = rule_type, capability_id
    return types


def offering(rule_type: str = "", section: str = "") -> list[Capability]:
    """The installed capabilities that give ``rule_type`` or read ``section`` (for the message on
    an unknown type or section); a capability that cannot be loaded gives none."""
    found = []
    for capability_id in sorted(installed()):
        try:
            capability = load(capability_id)
        except InputError:
            continue
        if rule_type in capability.rule_types or section in capability.sections:
            found.append(capability)
    return found


def undeclared(what: str, givers: list[Capability]) -> str:
    """What to add for ``what`` ("rule type 'stat-cost'", "section 'scales'") that a capability
    the manifest does not declare gives."""
    ids = ", ".join(c.id for c in givers)
    return (
        f"{what} is given by the capability {ids!r} ({givers[0].name}), which the ruleset's manifest "
        f"does not declare: add 'capabilities: [{givers[0].id}]' to its manifest.yaml"
    )


def forget() -> None:
    """Find the capabilities again (tests that install one use this)."""
    installed.cache_clear()
    load.cache_clear()
