"""Future Perfect: a starship's record sheet and its round plan.

Every number lives in ``catalogs/future-perfect`` (the AP cost tables, the target
numbers, the default track levels, the bank capacity); this package holds the shapes and
the mechanisms, split by concern: ``items`` (catalog item kinds), ``design`` (the design
file's shape), ``record`` (the record read with the catalog's defaults), ``resolve``
(action names to ids, a new ship, the neutral view), ``mechanisms`` (the record's rule
types and the target numbers), ``plan`` (the round plan priced from the AP cost tables),
``derive`` (figures, tracks, tables, actions) and ``editing`` (the form's functions).
How the rules are read: docs/rules-future-perfect.md.
"""

from shipyard.rulesets.future_perfect.derive import derive
from shipyard.rulesets.future_perfect.design import (
    Design,
    FuturePerfectAction,
    FuturePerfectCrewMember,
    FuturePerfectPlan,
    FuturePerfectShip,
    FuturePerfectSystem,
    FuturePerfectWeapon,
)
from shipyard.rulesets.future_perfect.editing import FORM_CALLS
from shipyard.rulesets.future_perfect.items import ITEM_KINDS
from shipyard.rulesets.future_perfect.mechanisms import RULE_TYPES
from shipyard.rulesets.future_perfect.resolve import new_design, resolve, view

__all__ = [
    "FORM_CALLS",
    "ITEM_KINDS",
    "RULE_TYPES",
    "Design",
    "FuturePerfectAction",
    "FuturePerfectCrewMember",
    "FuturePerfectPlan",
    "FuturePerfectShip",
    "FuturePerfectSystem",
    "FuturePerfectWeapon",
    "derive",
    "new_design",
    "resolve",
    "view",
]
