"""Space Fury: fighters built from enhancements, pilots bought by experience, forces.

Every number lives in ``catalogs/space-fury``; this package holds what the data cannot
say. A design is one of three kinds:

- a **fighter**: the enhancements bought from the three d10 tables (or rolled on them,
  with the seed and the roll log kept), optionally crewed by a pilot;
- a **pilot**: experience (XP), skills and quirks; the level follows from the XP;
- a **force**: fighters (each with its pilot) and reserve pilots. Its members are
  evaluated as the design's variants, so each member gets its own report and the force
  adds up their costs.

The package is split by concern: ``items`` (catalog item kinds), ``design`` (the design
file's shape), ``catalog_lookup`` (the Pilot Level Table and other shared lookups),
``resolve`` (names to ids, the neutral view, new designs), ``fighter`` and ``pilot``
(what a fighter or pilot has), ``params`` and ``mechanisms`` (the rule types),
``force`` (a force's members, crews), ``derive`` and ``tables`` (the report's figures and
tables), ``rolls`` (random builds), ``skirmish`` (the Skirmishes table), ``editing``
(what the editor's declared form asks: ``FORM_CALLS``) and ``commands`` (``shipyard
fury``). Below is the contract the core relies on (see ``shipyard.core.model.RulesetModule``)
and what the editor, the commands and the tests use.
"""

from shipyard.core.lazy import lazy_attributes
from shipyard.rulesets.space_fury.catalog_lookup import level_for_xp, level_row, levels, pilot_level
from shipyard.rulesets.space_fury.derive import derive
from shipyard.rulesets.space_fury.design import (
    MAX_COUNT,
    MAX_ROLLED,
    MAX_SEED,
    Design,
    FighterDesign,
    ForceDesign,
    PilotData,
    PilotDesign,
    SpaceFuryDesign,
)
from shipyard.rulesets.space_fury.fighter import may_replace_basic, mount_entries, mountable, one_more, weapons_owned
from shipyard.rulesets.space_fury.force import as_fighter, as_pilot, compare_variants, crew, force, variants
from shipyard.rulesets.space_fury.items import (
    ITEM_KINDS,
    CostTable,
    Enhancement,
    EnhancementTable,
    ItemRow,
    PickRow,
    PilotSkill,
    Quirk,
    SubtableRow,
    Weapon,
    WeaponEffect,
)
from shipyard.rulesets.space_fury.mechanisms import RULE_TYPES
from shipyard.rulesets.space_fury.pilot import new_pilot
from shipyard.rulesets.space_fury.resolve import new_design, resolve, view
from shipyard.rulesets.space_fury.rolls import roll_fighter, roll_pilot
from shipyard.rulesets.space_fury.skirmish import sample_fighters, skirmish

# The functions the editor's declared form calls: imported when the editor asks for them.
__getattr__ = lazy_attributes(__name__, FORM_CALLS=".editing")

__all__ = [
    "FORM_CALLS",
    "ITEM_KINDS",
    "MAX_COUNT",
    "MAX_ROLLED",
    "MAX_SEED",
    "RULE_TYPES",
    "CostTable",
    "Design",
    "Enhancement",
    "EnhancementTable",
    "FighterDesign",
    "ForceDesign",
    "ItemRow",
    "PickRow",
    "PilotData",
    "PilotDesign",
    "PilotSkill",
    "Quirk",
    "SpaceFuryDesign",
    "SubtableRow",
    "Weapon",
    "WeaponEffect",
    "as_fighter",
    "as_pilot",
    "compare_variants",
    "crew",
    "derive",
    "force",
    "level_for_xp",
    "level_row",
    "levels",
    "may_replace_basic",
    "mount_entries",
    "mountable",
    "new_design",
    "new_pilot",
    "one_more",
    "pilot_level",
    "resolve",
    "roll_fighter",
    "roll_pilot",
    "sample_fighters",
    "skirmish",
    "variants",
    "view",
    "weapons_owned",
]
