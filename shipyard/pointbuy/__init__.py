"""Point-buy: a capability a ruleset opts into, not an assumption of the core.

A point-buy system buys a design from budgets: an attribute priority, costs charged to
pools (a stat above a base, items by level and count), exchanges between pools, limits
per scale. The neutral core knows pools as a catalog section and a scale ladder only by
its protocol (:mod:`shipyard.core.ladder`); the rule types that spend pools and the
ladder itself (the ``scales`` section: its model, parsing and lookups) live here, and a
ruleset takes them by naming the capability in its manifest (``capabilities:
[point-buy]``). Shipyard finds a capability, like a ruleset, through an entry point
(group ``shipyard.capabilities``), so the core never imports it.

One of the built-in rulesets uses it (``shipyard rulesets`` shows which); ``shipyard
ruleset new ID --point-buy`` writes a package that does (docs/rulesets.md, "Capabilities").
"""

from shipyard.core.capability import Capability, Section
from shipyard.core.model import RuleType
from shipyard.pointbuy.budgets import ExchangeParams, PoolLimitParams, apply_exchange, apply_pool_limit
from shipyard.pointbuy.costs import ItemCostParams, StatCostParams, apply_item_cost, apply_item_levels, apply_stat_cost
from shipyard.pointbuy.priority import PriorityParams, apply_priority
from shipyard.pointbuy.scalelimits import KindsParams, RecommendedParams, apply_recommended, apply_scale_restricted
from shipyard.pointbuy.scales import ScaleLadder, ScalesSection

_POOLS = frozenset({"pools"})
_SCALES = frozenset({"scales"})

RULE_TYPES: dict[str, RuleType] = {
    "priority": RuleType(PriorityParams, apply_priority, _POOLS),
    "stat-cost": RuleType(StatCostParams, apply_stat_cost, _POOLS),
    "item-cost": RuleType(ItemCostParams, apply_item_cost, _POOLS),
    "item-levels": RuleType(KindsParams, apply_item_levels),
    "scale-restricted": RuleType(KindsParams, apply_scale_restricted, _SCALES),
    "recommended-items": RuleType(RecommendedParams, apply_recommended, _SCALES),
    "exchange": RuleType(ExchangeParams, apply_exchange, _POOLS),
    "pool-limit": RuleType(PoolLimitParams, apply_pool_limit, _POOLS),
}

CAPABILITY = Capability(
    id="point-buy",
    name="Point-buy",
    description="budgets spent on a design: attribute priority, stat and item costs, exchanges between pools, "
    "pool limits, scale limits",
    rule_types=RULE_TYPES,
    sections={"scales": Section(ScalesSection, ScaleLadder)},
)
