"""evaluate(design, catalog) -> Report: pure, deterministic, and it gathers everything.

The catalog's rules run in order over the ruleset's neutral view of the design; the
ruleset module then derives its figures. Nothing here raises for a design that loaded:
each broken rule becomes a finding with the numbers and the rule's source.
"""

from __future__ import annotations

from typing import Any

from shipyard.core.catalog import Catalog
from shipyard.core.context import Context
from shipyard.core.findings import FindingSink, Severity
from shipyard.core.pools import Ledger, PoolReport, PoolState
from shipyard.core.report import Report


def _ledger(catalog: Catalog, ctx_scale: Any, overrides: dict[str, int]) -> Ledger:
    pools = []
    for pdef in catalog.pools:
        found = catalog.scales.lookup(pdef.budget, ctx_scale)
        base = found[0] if found else 0
        budget, note = base, ""
        if pdef.id in overrides and pdef.storyteller_editable:
            budget = overrides[pdef.id]
            note = f"set by the Storyteller (rules give {base})"
        pools.append(PoolState(pdef.id, pdef.name, budget, note, catalog.cite(pdef.source), tally=pdef.tally))
    return Ledger(pools)


def run_rules(design: Any, catalog: Catalog, notes: dict[str, Any] | None = None) -> Context:
    """Run every catalog rule, in order, over one design (or one form of it)."""
    view = catalog.module.view(design, catalog)
    ctx = Context(
        catalog,
        design,
        view,
        _ledger(catalog, view.scale, view.budget_overrides),
        FindingSink(),
        notes=dict(notes or {}),
    )
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
        scale=ctx.scale.name,
        valid=not any(f.severity == Severity.ERROR for f in findings) and all(f.valid for f in forms),
        pools=[PoolReport.of(p) for p in ctx.ledger.pools.values()],
        priorities=ctx.priorities,
        derived=catalog.module.derive(ctx),
        findings=findings,
        catalog_overrides=catalog.overrides,
        forms=forms,
        forms_label=catalog.meta.variant_label,
    )


def evaluate(design: Any, catalog: Catalog, preset: str | None = None) -> Report:
    """Evaluate ``design`` against ``catalog`` (with ``preset`` applied when given)."""
    if preset is not None and (catalog.preset is None or catalog.preset.id != preset):
        catalog = catalog.with_preset(preset)
    ctx = run_rules(design, catalog)
    variants = catalog.module.variants(design)
    form_ctx = [(name, run_rules(form, catalog, {"form": name})) for name, form in variants]
    catalog.module.compare_variants(ctx, form_ctx)
    forms = [_report(fctx, form, catalog, []) for (_, fctx), (_, form) in zip(form_ctx, variants, strict=True)]
    return _report(ctx, design, catalog, forms)
