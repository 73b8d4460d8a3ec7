"""Wing Commander house rules for Alternity: a fighter record, checked and derived.

The house rules ("Dogfighting") sit on Alternity's space vehicle rules: they derive
values and give play rules rather than a construction system. Every number lives in
``catalogs/wing-commander``; this package holds the mechanisms, split by concern:
``items`` (catalog item kinds: the resistance modifier table, skills, the maneuver,
altitude and play reference), ``design`` (the record's shape), ``resolve`` (skill names
to ids, a new fighter, the neutral view), ``mechanisms`` (the rule types: resistance
modifier, free decoys, decoys per action, linked guns, the DRV as a step modifier,
missile loadout, numbered components) and ``derive`` (figures, link groups, numbered
components, tracks and actions), ``editing`` (what the editor form asks: the components'
numbers). Below is the contract the core relies on (see
``shipyard.core.model.RulesetModule``).
"""

from __future__ import annotations

from shipyard.core.lazy import lazy_attributes
from shipyard.rulesets.wing_commander.derive import derive
from shipyard.rulesets.wing_commander.design import (
    WCCompartment,
    WCComponent,
    WCFighter,
    WCGun,
    WCMissile,
    WCPilot,
    WCRange,
)
from shipyard.rulesets.wing_commander.items import ITEM_KINDS
from shipyard.rulesets.wing_commander.mechanisms import (
    RULE_TYPES,
    failing_component,
    link_groups,
    linked_fire,
    next_load,
    numbered_components,
    resistance_modifier,
)
from shipyard.rulesets.wing_commander.resolve import new_design, resolve, view

Design = WCFighter


# The functions the editor's declared form calls: imported when the editor asks for them.
__getattr__ = lazy_attributes(__name__, FORM_CALLS=".editing")

__all__ = [
    "FORM_CALLS",
    "ITEM_KINDS",
    "RULE_TYPES",
    "Design",
    "WCCompartment",
    "WCComponent",
    "WCFighter",
    "WCGun",
    "WCMissile",
    "WCPilot",
    "WCRange",
    "derive",
    "failing_component",
    "link_groups",
    "linked_fire",
    "new_design",
    "next_load",
    "numbered_components",
    "resistance_modifier",
    "resolve",
    "view",
]
