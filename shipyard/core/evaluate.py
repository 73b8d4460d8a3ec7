"""evaluate(design, catalog) -> Report: pure, deterministic, and it gathers everything.

The catalog's rules run in order over the ruleset's neutral view of the design; the
ruleset module then derives its figures. Nothing here raises for a design that loaded:
each broken rule becomes a finding with the numbers and the rule's source.
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from dataclasses import dataclass
from typing import Any

from shipyard.core.catalogcheck import BUDGET_WITHOUT_SCALES
from shipyard.core.findings import FindingSink, Severity
from shipyard.core.hookspec import held, optional
from shipyard.core.model import Catalog, Context, DesignView
from shipyard.core.poolchoice import choice_budget
from shipyard.core.pools import Ledger, PoolReport, PoolState, line_items
from shipyard.core.presets import with_preset
from shipyard.core.report import Derived, Report, count_figure


def _ledger(catalog: Catalog, design: Any, view: DesignView, findings: FindingSink) -> Ledger:
    """Each pool with its budget: by the design's choice, by its scale, or the one for every
    design; the Storyteller's setting (``view.budget_overrides``) where the pool allows it."""
    pools = []
    for pdef in catalog.pools:
        note = ""
        if pdef.budget_by is not None:
            base, note = choice_budget(pdef, design, catalog, findings)
        elif catalog.scales is not None and view.scale is not None:
            found = catalog.scales.lookup(pdef.budget, view.scale)
            base = found[0] if found else 0
        else:  # a ruleset without scales gives one budget for every design
            base = pdef.budget.get(BUDGET_WITHOUT_SCALES, 0)
        budget = base
        if pdef.id in view.budget_overrides and pdef.storyteller_editable:
            budget = view.budget_overrides[pdef.id]
            note = f"set by the Storyteller (rules give {base}{' ' + note if note else ''})"
        pools.append(PoolState(pdef.id, pdef.name, budget, note, catalog.cite(pdef.source)))
    return Ledger(pools)


def run_rules(design: Any, catalog: Catalog, notes: dict[str, Any] | None = None) -> Context:
    """Run every catalog rule, in order, over one design (or one form of it)."""
    view = held(catalog.meta.id, "view", catalog.module.view(design, catalog), DesignView)
    findings = FindingSink()
    ctx = Context(catalog, design, view, _ledger(catalog, design, view, findings), findings, notes=dict(notes or {}))
    for rule in catalog.rules:
        rule.run(ctx)
    return ctx


def _report(ctx: Context, design: Any, catalog: Catalog, forms: list[Report]) -> Report:
    findings = ctx.findings.sorted()
    preset = catalog.preset
    return Report(
        ruleset=catalog.meta.id,
        ruleset_name=catalog.meta.name,
        preset=preset.id if preset else "",
        preset_name=preset.name if preset else "",
        name=getattr(design, "name", ""),
        scale=ctx.view.scale.name if ctx.view.scale is not None else "",
        valid=not any(f.severity == Severity.ERROR for f in findings) and all(f.valid for f in forms),
        pools=[PoolReport.of(p) for p in ctx.ledger.pools.values()],
        derived=_with_counts(ctx, held(catalog.meta.id, "derive", catalog.module.derive(ctx), Derived)),
        findings=findings,
        catalog_overrides=catalog.overrides,
        forms=forms,
        forms_label=catalog.meta.variant_label,
    )


def _with_counts(ctx: Context, derived: Derived) -> Derived:
    """The figures the rules counted up (ahead of the ruleset's own), each with its parts."""
    counted = [
        count_figure(c.id, c.name, c.unit, c.source, c.total, line_items(c.lines))
        for c in ctx.counts.values()
        if derived.figure(c.id) is None
    ]
    if not counted:
        return derived
    return derived.model_copy(update={"figures": [*counted, *derived.figures]})


@dataclass
class _Form:
    """One variant's rules context and, once asked for, its report."""

    ctx: Context
    report: Report | None = None


# Variants a catalog remembers, the most recently used: the largest design's members (a
# force of 500 members and 500 reserve crew, the most a built-in ruleset allows) twice
# over, so a search or an editing session keeps the members it evaluates again, while an
# editor open for hours holds at most this many of those it left behind.
FORM_MEMO_LIMIT = 2048
_form_lock = threading.Lock()  # the editor evaluates in a background thread too


def _form_key(name: str, form: Any) -> tuple[str, ...] | None:
    """What a variant's evaluation follows from besides the catalog: its name (the rules'
    ``form`` note) and its content, exactly (its model's type and its JSON); None for a
    variant that is no model (it is evaluated every time)."""
    dump = getattr(form, "model_dump_json", None)
    if dump is None:
        return None
    return (name, type(form).__module__, type(form).__qualname__, dump())


def _form(name: str, form: Any, catalog: Catalog) -> _Form:
    """The rules over one variant, remembered by the catalog by the variant's content.

    A force's members, a transformation's forms, are evaluated on their own, and a search
    (check --suggest) evaluates the design again after each change it tries: all but the
    changed member are as they were. The same content gives the same context and report
    (evaluate is pure, a catalog does not change, ``compare_variants`` only reads a form's
    context), so each distinct member is evaluated once; an edited member has other
    content, so it is evaluated anew.
    """
    key = _form_key(name, form)
    memo: OrderedDict[tuple[str, ...], _Form] = catalog.memo("evaluate.forms", OrderedDict)
    if key is not None:
        with _form_lock:
            found = memo.get(key)
            if found is not None:
                memo.move_to_end(key)
                return found
    made = _Form(run_rules(form, catalog, {"form": name}))
    if key is not None:
        with _form_lock:
            memo[key] = made
            while len(memo) > FORM_MEMO_LIMIT:
                memo.popitem(last=False)
    return made


def _form_report(entry: _Form, form: Any, catalog: Catalog) -> Report:
    if entry.report is None:
        entry.report = context_report(entry.ctx)
    return entry.report


def context_report(ctx: Context) -> Report:
    """The report of one variant (a force's member) from its rules' context, made once and
    kept with it: a ruleset's ``compare_variants`` judging a group by its members' reports
    and :func:`evaluate` listing them share it."""
    made = ctx.notes.get(_REPORT_NOTE)
    if not isinstance(made, Report):
        made = ctx.notes[_REPORT_NOTE] = _report(ctx, ctx.design, ctx.catalog, [])
    return made


_REPORT_NOTE = "shipyard.report"


def _run_all(design: Any, catalog: Catalog) -> tuple[Context, list[tuple[str, _Form]], list[tuple[str, Any]]]:
    """The rules over the design and over each of its variants, then the checks between them."""
    ctx = run_rules(design, catalog)
    variants = optional(catalog.module, "variants")(design)
    forms = [(name, _form(name, form, catalog)) for name, form in variants]
    optional(catalog.module, "compare_variants")(ctx, [(name, f.ctx) for name, f in forms])
    return ctx, forms, variants


def evaluate(design: Any, catalog: Catalog, preset: str | None = None) -> Report:
    """Evaluate ``design`` against ``catalog`` (with ``preset`` applied when given)."""
    if preset is not None and (catalog.preset is None or catalog.preset.id != preset):
        catalog = with_preset(catalog, preset)
    ctx, forms, variants = _run_all(design, catalog)
    reports = [_form_report(f, form, catalog) for (_, f), (_, form) in zip(forms, variants, strict=True)]
    return _report(ctx, design, catalog, reports)


@dataclass(frozen=True)
class Verdict:
    """What the rules say of a design, without the figures: its errors (codes, the design's and
    its variants'), and what each pool has left. For searches that try many designs."""

    errors: Counter[str]
    remaining: dict[str, int]

    @property
    def valid(self) -> bool:
        return not self.errors


def verdict_of(report: Report) -> Verdict:
    """The verdict :func:`verdict` gives, read off the design's :func:`evaluate` report (its
    errors and its forms', its pools' remainders): a search that has the report already
    need not run the rules over the design again."""
    errors: Counter[str] = Counter()
    for r in [report, *report.forms]:
        errors.update(f.code for f in r.findings if f.severity == Severity.ERROR)
    return Verdict(errors, {p.id: p.remaining for p in report.pools})


def verdict(design: Any, catalog: Catalog) -> Verdict:
    """The rules' verdict on ``design``: the same errors and pools as :func:`evaluate`, but no
    figures are derived (a third of the work)."""
    ctx, forms, _ = _run_all(design, catalog)
    errors: Counter[str] = Counter()
    for c in [ctx, *(f.ctx for _, f in forms)]:
        errors.update(f.code for f in c.findings.items if f.severity == Severity.ERROR)
    return Verdict(errors, {p.id: p.remaining for p in ctx.ledger.pools.values()})
