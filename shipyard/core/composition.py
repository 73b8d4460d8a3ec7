"""Composition rules: what a group of designs (a roster, or a force a ruleset keeps inside
one design) may hold, judged by one function over its members.

A composition rule is an entry of the catalog's ``rules`` list like any other, of a type
declared here (``member-count``, ``figure-total``, ``each-member``), so it is validated
when the catalog loads (an unknown type or key stops loading, with the file, line and the
types allowed), cites its section of the rules text, and a preset overrides its numbers by
its id like any other rule's. It says nothing of one design: evaluating a design passes it
by; :func:`judge` applies the catalog's composition rules to a group's members.

A bound (``min``, ``max``) is a number, or follows the group's points limit
(``{count: 1, per: 1000}``: one per full 1000 points; ``round: up`` counts a part of 1000
too; ``{share: 0.25}``: a quarter of the limit), or an allowance the group sets itself
(``{allowance: ID}``: a number the group's own file gives, such as the pilot levels a side
may have). A bound that follows a limit the group does not set cannot be checked, and says
so (advice); a bound of an allowance the group does not set is not checked.

Members are what their designs report (:func:`member_of_report`): their kind, tags and
numeric figures, with a count. :func:`judge` is pure and never raises: every finding has
its severity, its numbers (actual and limit), the path of the member or of the group's
setting to change, and the rule's source.
"""

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from shipyard.core.findings import Finding, FindingSink, Severity
from shipyard.core.model import BoundRule, Context, Params, RuleType

if TYPE_CHECKING:
    from shipyard.core.model import Catalog
    from shipyard.core.report import Report

# --- a group and its members ----------------------------------------------------------------


@dataclass(frozen=True)
class Member:
    """One entry of a group as the rules see it: what its design reports, and how many."""

    name: str
    kind: str = ""
    count: Any = 1  # checked by judge: a whole number from 1
    figures: Mapping[str, float] = field(default_factory=dict)  # figure id -> value
    tags: tuple[str, ...] = ()
    path: str = ""  # where the entry is in the group's file: members[2], fighters[0]
    fields: str | None = None  # the prefix of its own fields, when they are in the group's file too


@dataclass(frozen=True)
class Allowance:
    """A number the group's own file sets for a rule to count against (``{allowance: ID}``)."""

    value: float
    path: str  # where the group's file sets it
    name: str = ""  # what it is, in words: "levels worth of pilots"


@dataclass(frozen=True)
class Group:
    """What a group sets for its rules: its points limit and its allowances."""

    limit: float | None = None
    unit: str = "points"
    limit_path: str = "limit"
    allowances: Mapping[str, Allowance] = field(default_factory=dict)
    path: str = "members"  # where its members are listed


def design_kind(report: "Report", design: Any) -> str:
    """What the design is (a fighter, a frigate): the report's scale, else the design's ``kind``."""
    if report.scale:
        return report.scale
    data = design.model_dump(mode="json") if hasattr(design, "model_dump") else {}
    for name in ("kind", "scale", "type"):
        if isinstance(data.get(name), str):
            return str(data[name])
    figure = report.derived.figure("kind")
    return figure.shown() if figure is not None else ""


def report_figures(report: "Report") -> dict[str, float]:
    """The report's numeric figures by id (a yes/no or a text is no number)."""
    out: dict[str, float] = {}
    for f in report.derived.figures:
        if isinstance(f.value, int | float) and not isinstance(f.value, bool):
            out[f.id] = float(f.value)
    return out


def member_of_report(
    report: "Report",
    design: Any,
    *,
    count: Any = 1,
    tags: Iterable[str] = (),
    path: str = "",
    fields: str | None = None,
    name: str = "",
) -> Member:
    """A member from its design's report: kind, numeric figures, tags and count."""
    return Member(
        name=name or report.name,
        kind=design_kind(report, design),
        count=count,
        figures=report_figures(report),
        tags=tuple(tags),
        path=path,
        fields=fields,
    )


def members_of_forms(forms: Sequence[tuple[str, Context]], paths: Sequence[str]) -> list[Member]:
    """The members of a design that holds a group (a ruleset's ``compare_variants`` gets its
    variants' contexts): each from its own report, at its path in the design."""
    from shipyard.core.evaluate import context_report

    return [
        member_of_report(context_report(fctx), fctx.design, name=name, path=path, fields=f"{path}.")
        for (name, fctx), path in zip(forms, paths, strict=True)
    ]


# --- the rules' shapes -----------------------------------------------------------------------


class _Shape(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FigureRange(_Shape):
    """A figure between two numbers (either may be left out)."""

    min: float | None = None
    max: float | None = None


def _listed(value: Any) -> Any:
    return [value] if isinstance(value, str) else value


Names = Annotated[list[Annotated[str, Field(min_length=1, max_length=80)]], BeforeValidator(_listed)]


class Selector(_Shape):
    """Which members a rule is about; every key given must hold (none given: every member)."""

    kind: Names = Field(default_factory=list, description="its kind is one of these")
    tag: Names = Field(default_factory=list, description="it has one of these tags")
    has: Names = Field(default_factory=list, description="it reports each of these figures")
    lacks: Names = Field(default_factory=list, description="it reports none of these figures")
    figures: dict[str, FigureRange] = Field(default_factory=dict, description="figure id -> its range")

    def matches(self, m: Member) -> bool:
        kind = m.kind.lower()
        tags = {t.lower() for t in m.tags}
        return (
            (not self.kind or kind in {k.lower() for k in self.kind})
            and (not self.tag or bool(tags & {t.lower() for t in self.tag}))
            and all(f in m.figures for f in self.has)
            and not any(f in m.figures for f in self.lacks)
            and all(_within(m.figures.get(f), r) for f, r in self.figures.items())
        )

    def said(self) -> str:
        """The selector in words, for a message: "of kind fighter, tagged elite"."""
        parts = []
        if self.kind:
            parts.append("of kind " + " or ".join(self.kind))
        if self.tag:
            parts.append("tagged " + " or ".join(self.tag))
        parts += [f"with {f}" for f in self.has] + [f"without {f}" for f in self.lacks]
        for f, r in self.figures.items():
            low = f"{_shown(r.min)} <= " if r.min is not None else ""
            high = f" <= {_shown(r.max)}" if r.max is not None else ""
            parts.append(f"with {low}{f}{high}")
        return ", ".join(parts)


def _within(value: float | None, r: FigureRange) -> bool:
    return value is not None and (r.min is None or value >= r.min) and (r.max is None or value <= r.max)


class PerLimit(_Shape):
    """``count`` for each ``per`` points of the limit: ``{count: 1, per: 1000}`` is "1 per 1000
    points"; ``round: down`` counts full steps only (999 of 1000 allows 0), ``up`` a part too."""

    count: float = Field(ge=0, le=1_000_000)
    per: float = Field(gt=0, le=1_000_000_000)
    round: Literal["down", "up"] = "down"


class ShareOfLimit(_Shape):
    """A share of the points limit: ``{share: 0.25}`` is a quarter of it."""

    share: float = Field(ge=0, le=1000)


class FromAllowance(_Shape):
    """A number the group's own file sets (a force's pilot levels): ``{allowance: ID}``."""

    allowance: str = Field(min_length=1, max_length=80)


Bound = float | PerLimit | ShareOfLimit | FromAllowance


class _Judged(Params):
    """What every composition rule says when it is broken."""

    over_code: str = Field(default="", description="the finding's code over a maximum (default: ID-over)")
    under_code: str = Field(default="", description="the finding's code under a minimum (default: ID-under)")
    over_severity: Severity = Severity.ERROR
    under_severity: Severity = Severity.ERROR

    def code(self, side: str) -> str:
        given = self.over_code if side == "over" else self.under_code
        return given or f"{self.id}-{side}"

    def severity(self, side: str) -> Severity:
        return self.over_severity if side == "over" else self.under_severity

    def codes(self) -> list[str]:
        """The codes of the findings this rule can give (documented with the ruleset's rules)."""
        return [self.code("over"), self.code("under")]


class MemberCountParams(_Judged):
    """How many members of a kind (tag, figure) a group may hold."""

    select: Selector = Field(default_factory=Selector, description="the members counted (default: all)")
    min: Bound | None = Field(default=None, description="at least this many (a number, or a bound)")
    max: Bound | None = Field(default=None, description="at most this many (a number, or a bound)")


class FigureTotalParams(_Judged):
    """A figure added up over the members (each times its count)."""

    figure: str = Field(description="the figure id each member reports (a member without it adds 0)")
    select: Selector = Field(default_factory=Selector, description="the members counted (default: all)")
    min: Bound | None = None
    max: Bound | None = None


class EachMemberParams(Params):
    """Something every member of a kind must be."""

    select: Selector = Field(default_factory=Selector, description="the members it is about")
    require: Selector = Field(description="what each of them must match")
    message: str = Field(min_length=1, description="what a member that does not is told, after its name")
    at: str = Field(default="", description="the field of the member to fix, where its fields are in the group's file")
    code: str
    severity: Severity = Severity.ERROR

    def codes(self) -> list[str]:
        """The code of the findings this rule can give."""
        return [self.code]


# --- judging ---------------------------------------------------------------------------------


@dataclass
class Judging:
    """One group being judged: its members, its settings, and the findings so far."""

    members: Sequence[Member]
    group: Group
    cite: Callable[[str], str]
    findings: FindingSink = field(default_factory=FindingSink)


def _passes(ctx: Context, p: Params) -> None:
    """A composition rule says nothing of one design: evaluating a design passes it by."""


@dataclass(frozen=True)
class CompositionType(RuleType):
    """A composition rule type: ``judge`` applies it to a group (``apply``, for one design, does nothing)."""

    apply: Callable[[Context, Any], None] = _passes
    judge: Callable[[Judging, Any], None] = lambda j, p: None


def _bound(j: Judging, p: Params, bound: Bound) -> tuple[float, str, str] | str | None:
    """(the number, how it was reached, the path that sets it); a text when it needs a limit
    the group does not set; None when it needs an allowance the group does not set."""
    g = j.group
    if isinstance(bound, int | float):
        return float(bound), "", g.path
    if isinstance(bound, FromAllowance):
        a = g.allowances.get(bound.allowance)
        if a is None:
            return None
        return float(a.value), f"the {a.name} it has" if a.name else f"its allowance {bound.allowance}", a.path
    if g.limit is None:
        need = (
            f"{_shown(bound.count)} per {_shown(bound.per)} {g.unit}"
            if isinstance(bound, PerLimit)
            else f"{_shown(bound.share * 100)}% of the limit"
        )
        return f"{need} needs a points limit, and this group has none"
    limit = float(g.limit)
    if isinstance(bound, PerLimit):
        steps = limit / bound.per
        steps = math.ceil(steps) if bound.round == "up" else math.floor(steps)
        how = f"{_shown(bound.count)} per {'' if bound.round == 'down' else 'part of '}{_shown(bound.per)} {g.unit}"
        return bound.count * steps, f"{how} of the limit of {_shown(limit)}", g.limit_path
    return limit * bound.share, f"{_shown(bound.share * 100)}% of the limit of {_shown(limit)}", g.limit_path


def _against(j: Judging, p: _Judged, actual: float, what: str, last_path: str, under_path: str = "") -> None:
    """``actual`` against the rule's ``min`` and ``max``: a finding for each it breaks, at
    ``last_path`` over a maximum (the member to take out) and ``under_path`` under a minimum
    when given, else where the bound is set (the allowance, the limit)."""
    for side, bound in (("under", getattr(p, "min", None)), ("over", getattr(p, "max", None))):
        if bound is None:
            continue
        found = _bound(j, p, bound)
        if found is None:
            continue
        if isinstance(found, str):
            j.findings.add(
                Severity.ADVICE,
                f"{p.id}-no-limit",
                f"{p.name or p.id} not checked: {found}",
                path=j.group.limit_path,
                actual=None,  # no limit to count against
                limit=None,
                rule=p.id,
                source=j.cite(p.source),
            )
            return  # said once for the rule, whichever of its bounds needs the limit
        value, how, path = found
        broken = actual < value if side == "under" else actual > value
        if not broken:
            continue
        word = "at least" if side == "under" else "at most"
        j.findings.add(
            p.severity(side),
            p.code(side),
            f"{what}: {_shown(actual)}; {word} {_shown(value)}" + (f" ({how})" if how else ""),
            path=(last_path if side == "over" else under_path) or path,
            actual=_whole(actual),
            limit=_whole(value),
            rule=p.id,
            source=j.cite(p.source),
        )


def judge_member_count(j: Judging, p: MemberCountParams) -> None:
    """Members matching the selector, each as many times as its count, between the bounds."""
    chosen = [m for m in j.members if p.select.matches(m)]
    said = p.select.said()
    what = p.name or (f"members {said}" if said else "members")
    _against(j, p, float(sum(m.count for m in chosen)), what, chosen[-1].path if chosen else "", j.group.path)


def judge_figure_total(j: Judging, p: FigureTotalParams) -> None:
    """A figure added up over the matching members (each times its count), between the bounds."""
    chosen = [m for m in j.members if p.select.matches(m)]
    total = sum(m.figures.get(p.figure, 0.0) * m.count for m in chosen)
    said = p.select.said()
    what = p.name or f"{p.figure} of the members" + (f" {said}" if said else "")
    _against(j, p, float(total), what, "")


def judge_each_member(j: Judging, p: EachMemberParams) -> None:
    """Every matching member matches ``require`` too; one finding for each that does not."""
    for m in j.members:
        if p.select.matches(m) and not p.require.matches(m):
            path = f"{m.fields}{p.at}" if m.fields is not None and p.at else m.path
            j.findings.add(
                p.severity,
                p.code,
                f"{m.name} {p.message}",
                path=path,
                actual=0,  # of the one thing required
                limit=1,
                rule=p.id,
                source=j.cite(p.source),
            )


COMPOSITION_RULE_TYPES: dict[str, RuleType] = {
    "member-count": CompositionType(MemberCountParams, _passes, judge=judge_member_count),
    "figure-total": CompositionType(FigureTotalParams, _passes, judge=judge_figure_total),
    "each-member": CompositionType(EachMemberParams, _passes, judge=judge_each_member),
}


def composition_rule(entry: Mapping[str, Any]) -> BoundRule:
    """One composition rule entry (as a catalog's ``rules`` list writes it) bound to its type
    and validated as strictly as the catalog validates it, for a script or a test that judges
    a group without a catalog. An unknown type is a ValueError naming the types there are."""
    from shipyard.core.items import RuleDef
    from shipyard.core.usertext import validate_strictly

    rule_type = COMPOSITION_RULE_TYPES.get(str(entry.get("type")))
    if rule_type is None:
        raise ValueError(
            f"unknown composition rule type {entry.get('type')!r}; one of {', '.join(COMPOSITION_RULE_TYPES)}"
        )
    return BoundRule(RuleDef(**entry), validate_strictly(rule_type.params, dict(entry)), rule_type)


def composition_rules(catalog: "Catalog") -> list[BoundRule]:
    """The catalog's composition rules, in their order (its preset's numbers applied)."""
    return [r for r in catalog.rules if isinstance(r.rule_type, CompositionType)]


def _counts_ok(j: Judging) -> list[Member]:
    """The members whose count is a whole number from 1; a finding for each other one."""
    good = []
    for m in j.members:
        if isinstance(m.count, int) and not isinstance(m.count, bool) and m.count >= 1:
            good.append(m)
            continue
        j.findings.add(
            Severity.ERROR,
            "member-count-invalid",
            f"{m.name}: the count {m.count!r} is not a whole number from 1; it is not counted",
            path=f"{m.path}.count" if m.path else "count",
            actual=m.count if isinstance(m.count, int | float | str) else repr(m.count),
            limit=1,
            rule="",  # the group's own entry, before any rule
            source="",
        )
    return good


def judge(
    rules: Sequence[BoundRule], members: Sequence[Member], group: Group, cite: Callable[[str], str]
) -> list[Finding]:
    """Every composition rule of ``rules`` over ``members``: every finding, most severe first.

    Pure and total: a rule that fails on what it is given is a finding naming the rule, never
    an exception, so a group always gets its whole verdict."""
    j = Judging(members, group, cite)
    j.members = _counts_ok(j)
    for rule in rules:
        if not isinstance(rule.rule_type, CompositionType):
            continue
        try:
            rule.rule_type.judge(j, rule.params)
        except Exception as exc:  # a group's verdict is never cut short by one rule
            j.findings.add(
                Severity.ERROR,
                "composition-rule-failed",
                f"rule {rule.params.id!r} could not be applied to this group: {exc}",
                path=group.path,
                actual=None,
                limit=None,
                rule=rule.params.id,
                source=_safe_cite(cite, rule.params.source),
            )
    return j.findings.sorted()


def _safe_cite(cite: Callable[[str], str], section: str) -> str:
    try:
        return cite(section)
    except Exception:
        return section


def allowances_counted(rules: Sequence[BoundRule]) -> set[str]:
    """The allowance ids the rules count against (``{allowance: ID}`` bounds)."""
    return {
        bound.allowance
        for r in rules
        for name in ("min", "max")
        if isinstance(bound := getattr(r.params, name, None), FromAllowance)
    }


def judge_catalog(catalog: "Catalog", members: Sequence[Member], group: Group) -> list[Finding]:
    """:func:`judge` with ``catalog``'s composition rules and its way of citing its sources."""
    return judge(composition_rules(catalog), members, group, catalog.cite)


def add_findings(findings: FindingSink, found: Iterable[Finding]) -> None:
    """Findings of a group's rules added to a design's own (a force judged as it is evaluated)."""
    for f in found:
        findings.add(
            f.severity,
            f.code,
            f.message,
            path=f.path,
            actual=f.actual,
            limit=f.limit,
            rule=f.rule,
            source=f.source,
        )


def _whole(value: float) -> float | int:
    """A whole number as an int (a finding's numbers read 3, not 3.0, in JSON)."""
    return int(value) if float(value).is_integer() else value


def _shown(value: float | None) -> str:
    if value is None:
        return ""
    return f"{value:g}" if value != int(value) else f"{int(value):,}"
