"""Typed rules: each catalog rule entry names a mechanism and gives its numbers.

The catalog's ``rules`` list is run in order for every evaluation. A rule's ``type``
selects a mechanism (a function named after the rule it applies) and its remaining keys
are validated against that mechanism's parameter model. An unknown type, or a key the
mechanism does not take, stops catalog loading: a rule we cannot apply must never be
silently skipped. The mechanisms here are neutral (stat ranges, sums), and so are the
composition rules of :mod:`shipyard.core.composition` (what a group of designs may hold); a capability the
ruleset declares adds its own (:mod:`shipyard.core.capability`: point-buy), and so does
the ruleset's module.
"""

from collections.abc import Mapping
from typing import TYPE_CHECKING

from pydantic import Field, ValidationError

from shipyard.core.errors import InputError, Problem, format_path
from shipyard.core.findings import Severity
from shipyard.core.items import RuleDef
from shipyard.core.model import BoundRule, Context, Params, RulesetModule, RuleType
from shipyard.core.suggest import did_you_mean
from shipyard.core.usertext import validate_strictly

if TYPE_CHECKING:
    from shipyard.core.yamlio import YamlDocument

__all__ = ["BoundRule", "Params", "RuleType"]  # the rule types' shapes, for the rulesets' mechanisms


def bind_rules(
    entries: "list[tuple[YamlDocument, int, RuleDef]]",
    module: RulesetModule,
    sections: frozenset[str],
    capability_types: Mapping[str, RuleType] | None = None,
) -> list[BoundRule]:
    """Each rule entry bound to its mechanism: the core's, the declared capabilities'
    (``capability_types``), then the ruleset's own. An unknown type, a key the mechanism does
    not take, or a mechanism whose catalog sections (``sections``: scales, pools) the catalog
    lacks stops loading."""
    types = {**CORE_RULE_TYPES, **(capability_types or {}), **module.RULE_TYPES}
    bound: list[BoundRule] = []
    problems: list[Problem] = []
    ids: set[str] = set()
    for doc, index, definition in entries:
        loc: tuple[object, ...] = ("rules", index)
        rule_type = types.get(definition.type)
        if rule_type is None and definition.type in COMPOSITION_TYPE_NAMES:
            # a composition rule (of a force or a roster): its module loads only for a catalog that has one
            from shipyard.core.composition import COMPOSITION_RULE_TYPES

            types = {**CORE_RULE_TYPES, **COMPOSITION_RULE_TYPES, **(capability_types or {}), **module.RULE_TYPES}
            rule_type = types.get(definition.type)
        if rule_type is None:
            line, col = doc.position((*loc, "type"))
            problems.append(
                Problem(
                    _unknown_type(definition.type, types),
                    str(doc.file),
                    line,
                    col,
                    format_path((*loc, "type")),
                    allowed=", ".join(sorted(types)),
                )
            )
            continue
        lacking = sorted(rule_type.needs - sections)
        if lacking:
            line, col = doc.position((*loc, "type"))
            problems.append(
                Problem(
                    f"rule type {definition.type!r} needs the ruleset's {' and '.join(lacking)}, "
                    f"which this catalog does not define (a {', '.join(lacking)} section)",
                    str(doc.file),
                    line,
                    col,
                    format_path((*loc, "type")),
                )
            )
            continue
        if definition.id in ids:
            line, col = doc.position((*loc, "id"))
            problems.append(Problem(f"rule id {definition.id!r} is used twice", str(doc.file), line, col))
        ids.add(definition.id)
        try:
            params = validate_strictly(rule_type.params, definition.model_dump())
        except ValidationError as exc:
            for err in exc.errors():
                full = (*loc, *err["loc"])
                line, col = doc.position(full)
                msg = (
                    f"unknown key {err['loc'][-1]!r} for rule type {definition.type!r}"
                    if err["type"] == "extra_forbidden"
                    else err["msg"]
                )
                allowed = ", ".join(rule_type.params.model_fields) if err["type"] == "extra_forbidden" else None
                problems.append(Problem(msg, str(doc.file), line, col, format_path(full), allowed=allowed))
            continue
        bound.append(BoundRule(definition, params, rule_type))
    if problems:
        raise InputError(problems)
    return bound


def _unknown_type(name: str, types: Mapping[str, RuleType]) -> str:
    """Why a rule type is unknown: a capability the manifest does not declare gives it (what to
    add), or it is misspelt (the closest known type)."""
    from shipyard.core.capability import offering, undeclared

    givers = offering(rule_type=name)
    if givers:
        return undeclared(f"rule type {name!r}", givers)
    return f"unknown rule type {name!r}; {did_you_mean(name, types)}".rstrip("; ")


def cite(ctx: Context, p: Params) -> str:
    return ctx.catalog.cite(p.source)


# --- stat ranges -------------------------------------------------------------------------


class StatRangeParams(Params):
    code: str = "stat-out-of-range"
    severity: Severity = Severity.ERROR


def apply_stat_ranges(ctx: Context, p: StatRangeParams) -> None:
    """Every stat stays within the range the stat block prints for it."""
    for stat in ctx.catalog.meta.stats:
        value = ctx.view.stats.get(stat.id)
        if value is None:
            continue
        low = stat.min if stat.min is not None and value < stat.min else None
        high = stat.max if stat.max is not None and value > stat.max else None
        if low is None and high is None:
            continue
        rng = f"{stat.min if stat.min is not None else '…'} to {stat.max if stat.max is not None else '…'}"
        ctx.findings.add(
            p.severity,
            p.code,
            f"{stat.name} {value} is outside {rng}",
            path=stat.path,
            actual=value,
            limit=[stat.min, stat.max],
            rule=p.id,
            source=ctx.catalog.cite(stat.source),
        )


# --- sums --------------------------------------------------------------------------------


class SumEqualsParams(Params):
    total: str
    parts: list[str] = Field(min_length=2)
    code: str
    severity: Severity = Severity.ERROR
    unassigned_code: str
    unassigned_severity: Severity = Severity.WARNING


def apply_sum_equals(ctx: Context, p: SumEqualsParams) -> None:
    """A stat is split into parts that must add up to it (Soak = Armor + Shields).

    A design that has not split the stat yet (no part given) gets its own finding, so a
    published stat block that never states the split can still be entered as printed.
    """
    total = ctx.view.stats.get(p.total, 0)
    if not any(s in ctx.view.stats for s in p.parts):
        if total:
            names = " and ".join(ctx.stat_name(s) for s in p.parts)
            ctx.findings.add(
                p.unassigned_severity,
                p.unassigned_code,
                f"{ctx.stat_name(p.total)} {total} is not yet divided into {names}",
                path=ctx.stat_path(p.parts[0]),
                actual=None,
                limit=total,
                rule=p.id,
                source=cite(ctx, p),
            )
        return
    parts = {s: ctx.view.stats.get(s, 0) for s in p.parts}
    got = sum(parts.values())
    if got != total:
        names = " + ".join(f"{ctx.stat_name(s)} {v}" for s, v in parts.items())
        ctx.findings.add(
            p.severity,
            p.code,
            f"{names} = {got}, but {ctx.stat_name(p.total)} is {total}",
            path=ctx.stat_path(p.parts[0]),
            actual=got,
            limit=total,
            rule=p.id,
            source=cite(ctx, p),
        )


# The names of the composition rule types (:data:`shipyard.core.composition.COMPOSITION_RULE_TYPES`),
# known without importing that module: most catalogs have no composition rule, and a catalog is
# bound at every start. A test holds the two equal.
COMPOSITION_TYPE_NAMES = frozenset({"member-count", "figure-total", "each-member"})

CORE_RULE_TYPES: dict[str, RuleType] = {
    "stat-range": RuleType(StatRangeParams, apply_stat_ranges),
    "sum-equals": RuleType(SumEqualsParams, apply_sum_equals),
}
