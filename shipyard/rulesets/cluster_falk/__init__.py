"""The Cluster Falk: Fate-based starship records, checked, with what the rules derive.

Every number lives in ``catalogs/cluster-falk``. The package is split by concern:
``items`` (catalog item kinds), ``design`` (the ship record's shape), ``resolve`` (names
to ids, a new record, the neutral view), ``ship`` (the record as the rules read it: seats,
effective skills, equipment), ``mechanisms`` (the rule types, and the numbers of a pair
of ships), ``derive`` (figures, tables, tracks, slots and actions), ``pair`` (the numbers
of a pair of ships a comparison shows), ``fixing`` (what Fix... may try for a consequence
the Scale lacks), ``editing`` (what the declared form calls). Below is the contract the
core relies on (see
``shipyard.core.model.RulesetModule``).
"""

from shipyard.core.lazy import lazy_attributes
from shipyard.rulesets.cluster_falk.derive import derive
from shipyard.rulesets.cluster_falk.design import Design
from shipyard.rulesets.cluster_falk.fixing import fix_hints
from shipyard.rulesets.cluster_falk.items import ITEM_KINDS
from shipyard.rulesets.cluster_falk.mechanisms import RULE_TYPES, detection_modifier, size_advantage
from shipyard.rulesets.cluster_falk.pair import pair_figures
from shipyard.rulesets.cluster_falk.resolve import new_design, resolve, view

# The functions the editor's declared form calls: imported when the editor asks for them.
__getattr__ = lazy_attributes(__name__, FORM_CALLS=".editing")

__all__ = [
    "FORM_CALLS",
    "ITEM_KINDS",
    "RULE_TYPES",
    "Design",
    "derive",
    "detection_modifier",
    "fix_hints",
    "new_design",
    "pair_figures",
    "resolve",
    "size_advantage",
    "view",
]
