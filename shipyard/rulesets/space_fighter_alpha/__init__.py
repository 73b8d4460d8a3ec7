"""Space Fighter Alpha: the design shape and the mechanisms its catalog cannot express.

Every number lives in ``catalogs/space-fighter-alpha``. This package is the ruleset's one
Python module, split by concern: ``items`` (catalog item kinds), ``design`` (the design
file's shape), ``resolve`` (names to ids, the neutral view), ``mechanisms`` (its own
rule types: weapon mounts, gunners, crew, the AI's virtual pilot, transformation),
``forms`` (alternate forms), ``derive`` (the figures a record sheet needs) and
``editing`` (what the editor's declared form asks: ``FORM_CALLS``). Below
is the contract the core relies on (see ``shipyard.core.model.RulesetModule``).
"""

from shipyard.core.lazy import lazy_attributes
from shipyard.rulesets.space_fighter_alpha.derive import derive
from shipyard.rulesets.space_fighter_alpha.design import (
    Conversion,
    ConversionNote,
    CustomTechnology,
    CustomWeapon,
    Design,
    Form,
    ItemChoice,
    Pilot,
    WeaponChoice,
)
from shipyard.rulesets.space_fighter_alpha.forms import compare_variants, variants
from shipyard.rulesets.space_fighter_alpha.items import ITEM_KINDS
from shipyard.rulesets.space_fighter_alpha.mechanisms import RULE_TYPES, capacities
from shipyard.rulesets.space_fighter_alpha.resolve import new_design, resolve, view

# Places a fix proposal must not change: the Storyteller's budget settings (raising a
# budget is not making the design legal) -- see shipyard.core.fixes.
FIX_NEVER = ("budgets",)

# The functions the editor's declared form calls: imported when the editor asks for them.
__getattr__ = lazy_attributes(__name__, FORM_CALLS=".editing")

__all__ = [
    "FIX_NEVER",
    "FORM_CALLS",
    "ITEM_KINDS",
    "RULE_TYPES",
    "Conversion",
    "ConversionNote",
    "CustomTechnology",
    "CustomWeapon",
    "Design",
    "Form",
    "ItemChoice",
    "Pilot",
    "WeaponChoice",
    "capacities",
    "compare_variants",
    "derive",
    "new_design",
    "resolve",
    "variants",
    "view",
]
