"""Future Perfect: a starship's record sheet and its round plan.

Every number lives in ``catalogs/future-perfect`` (the AP cost tables, the target
numbers, the default track levels, the bank capacity); this package holds the shapes and
the mechanisms, split by concern: ``items`` (catalog item kinds), ``design`` (the design
file's shape), ``record`` (the record read with the catalog's defaults), ``resolve``
(action names to ids, a new ship, the neutral view), ``mechanisms`` (the record's rule
types and the target numbers), ``plan`` (the round plan priced from the AP cost tables),
``derive`` (figures, tracks, tables, actions), ``fixing`` (what Fix... may try for an
over-spent role) and ``editing`` (the form's functions).
How the rules are read: docs/rules-future-perfect.md.
"""

from shipyard.core.lazy import lazy_attributes
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
from shipyard.rulesets.future_perfect.fixing import fix_hints
from shipyard.rulesets.future_perfect.items import ITEM_KINDS
from shipyard.rulesets.future_perfect.mechanisms import RULE_TYPES
from shipyard.rulesets.future_perfect.resolve import new_design, resolve, view

# The functions the editor's declared form calls: imported when the editor asks for them.
__getattr__ = lazy_attributes(__name__, FORM_CALLS=".editing")

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
    "fix_hints",
    "new_design",
    "resolve",
    "view",
]
