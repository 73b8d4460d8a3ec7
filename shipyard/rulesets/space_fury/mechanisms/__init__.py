"""Space Fury's rule types: the mechanism each ``type`` in ``rules.yaml`` names.

Split by what they check: ``enhancements`` (counting, the tables, the cost, the
published count), ``weapons`` (the basic Laser, Turrets) and ``pilots`` (cost, level,
skills, quirks). A force's own rules (every fighter crewed, the side's pilot levels) are
composition rules of the catalog, judged by the core (``force.compare_variants``).
"""

from __future__ import annotations

from shipyard.core.rules import RuleType
from shipyard.rulesets.space_fury.mechanisms.enhancements import (
    apply_count_cost,
    apply_enhancement_count,
    apply_enhancement_tables,
    apply_published_count,
)
from shipyard.rulesets.space_fury.mechanisms.pilots import (
    apply_pilot_cost,
    apply_pilot_level,
    apply_pilot_quirks,
    apply_pilot_skills,
)
from shipyard.rulesets.space_fury.mechanisms.weapons import apply_basic_weapon, apply_weapon_mounts
from shipyard.rulesets.space_fury.params import (
    BasicWeaponParams,
    CountCostParams,
    CountParams,
    MountsParams,
    PilotLevelParams,
    PilotQuirksParams,
    PilotSkillsParams,
    TablesParams,
)

RULE_TYPES: dict[str, RuleType] = {
    "enhancement-count": RuleType(CountParams, apply_enhancement_count),
    "enhancement-tables": RuleType(TablesParams, apply_enhancement_tables),
    "basic-weapon": RuleType(BasicWeaponParams, apply_basic_weapon),
    "weapon-mounts": RuleType(MountsParams, apply_weapon_mounts),
    "count-cost": RuleType(CountCostParams, apply_count_cost),
    "pilot-cost": RuleType(CountParams, apply_pilot_cost),
    "pilot-level": RuleType(PilotLevelParams, apply_pilot_level),
    "pilot-skills": RuleType(PilotSkillsParams, apply_pilot_skills),
    "pilot-quirks": RuleType(PilotQuirksParams, apply_pilot_quirks),
    "published-count": RuleType(CountParams, apply_published_count),
}
