"""Plain-text rendering of a Report for the terminal: the ledger, figures, findings.

Neutral: it prints whatever pools, figures and tables the ruleset produced; a counted
figure is followed by the parts it was counted from. Names and messages come from designs
and catalogs, so every line is escaped for the terminal (:mod:`shipyard.core.termtext`):
a name cannot start a line of its own or move the cursor.
"""

from __future__ import annotations

import shutil
import textwrap

from shipyard.core.findings import Severity
from shipyard.core.pools import LineItem
from shipyard.core.report import Cell, Report, Table
from shipyard.core.termtext import escape


def _width() -> int:
    return max(60, min(shutil.get_terminal_size((100, 24)).columns, 120))


def _cell(c: Cell) -> str:
    return "" if c is None else escape(str(c))


def _wrapped(text: str, width: int) -> list[str]:
    """``textwrap.wrap(text, width) or [""]``, without its work for a cell that fits.

    A large report (a force of 500 fighters and 500 pilots) has ~11,000 cells, nearly all
    short: wrapping splits each into chunks to give back the same one line. A cell fits as
    it is when it is no wider than the column and holds no white space that wrapping would
    change (tabs, newlines, runs, leading or trailing spaces)."""
    if len(text) <= width and "  " not in text and text == text.strip() and text.isprintable():
        return [text] if text else [""]
    return textwrap.wrap(text, width) or [""]


def table_lines(table: Table, indent: str = "  ") -> list[str]:
    if not table.rows:
        return [f"{indent}(none)"]
    cols = [[_cell(c) for c in row] for row in table.rows]
    widths = [max(len(h), *(len(r[i]) for r in cols)) for i, h in enumerate(table.columns)]
    # keep the table within the terminal: the last column wraps, at no fewer than 24 characters;
    # a last column narrower than that keeps its own width (its underline is as wide as it is)
    total = sum(widths[:-1]) + 2 * (len(widths) - 1) + len(indent)
    widths[-1] = min(widths[-1], max(24, _width() - total))
    out = [indent + "  ".join(escape(h).ljust(w) for h, w in zip(table.columns, widths, strict=True)).rstrip()]
    out.append(indent + "  ".join("-" * w for w in widths))
    for row in cols:
        last = _wrapped(row[-1], widths[-1])
        out.append(
            indent
            + "  ".join(c.ljust(w) for c, w in zip(row[:-1], widths, strict=False))
            + ("  " if len(row) > 1 else "")
            + last[0]
        )
        pad = indent + " " * (sum(widths[:-1]) + 2 * (len(widths) - 1))
        out += [pad + x for x in last[1:]]
    return [ln.rstrip() for ln in out]


def _item_lines(items: list[LineItem], cost_sign: str, gain_sign: str) -> list[str]:
    """Line items, one a line: a budget's costs are taken away, a counted figure's parts count up."""
    out = []
    for item in items:
        sign = cost_sign if item.kind == "cost" else gain_sign
        amount = item.exact or str(item.amount)
        where = f"  ({item.path})" if item.path else ""
        out.append(f"      {sign}{amount:>5}  {item.label}{where}")
    return out


def _parts_lines(report: Report) -> list[str]:
    """The report's tracks (boxes with their values), slots and actions, when it has any."""
    d = report.derived
    out: list[str] = []
    if d.tracks:
        out += ["", "Tracks"]
        width = max(len(t.name) for t in d.tracks)
        for t in d.tracks:
            boxes = " ".join(f"[{'x' if b.marked else (b.value if b.value is not None else ' ')}]" for b in t.boxes)
            out.append(f"  {t.name.ljust(width)}  {boxes}" + (f"  — {t.notes}" if t.notes else ""))
    if d.slots:
        out += ["", "Slots"]
        for s in d.slots:
            name = s.name + (f" {s.value}" if s.value is not None else "")
            if not s.available:  # what was written in it anyway is shown, or only Foundry kept it
                held = f"; written in it: {s.text}" + (f" ({s.track})" if s.track else "") if s.text else ""
                out.append(f"  {name}: not available — {s.reason}{held}")
            else:
                # a slot's text may run over lines (a design's notes): each on a line of its own, indented
                first, *rest = (s.text or "—").splitlines() or ["—"]
                out.append(f"  {name}: {first}" + (f" ({s.track})" if s.track and s.text else ""))
                out += [f"    {line}" if line else "" for line in rest]
    if d.actions:
        out += ["", "Actions"]
        wrap = textwrap.TextWrapper(width=_width(), initial_indent="          ", subsequent_indent="          ")
        for a in d.actions:
            out.append(f"  {'yes' if a.allowed else 'no ':<6}  {a.name}" + ("" if a.allowed else f" — {a.reason}"))
            if a.allowed:
                details = "; ".join(f"{k.replace('_', ' ')}: {v}" for k, v in a.details.items() if v not in (None, ""))
                out += wrap.wrap(details)
    return out


def render(report: Report, file: str = "") -> str:
    out: list[str] = []
    errors = report.by_severity(Severity.ERROR)
    warnings = report.by_severity(Severity.WARNING)
    advice = report.by_severity(Severity.ADVICE)
    title = report.name + (f"  ({file})" if file else "")
    out += [title, "=" * min(len(title), _width())]
    scale = f" · {report.scale} scale" if report.scale else ""
    out.append(f"{report.ruleset_name} · preset: {report.preset_name} ({report.preset}){scale}")
    verdict = "PASSES" if report.valid else "DOES NOT PASS"
    out.append(f"Result: {verdict} — {len(errors)} error(s), {len(warnings)} warning(s), {len(advice)} advice")
    if report.pools:  # a ruleset with nothing to spend has no budgets
        out += ["", "Budgets"]
    for pool in report.pools:
        status = f"{pool.remaining} left" if pool.remaining >= 0 else f"OVER BUDGET by {-pool.remaining}"
        gained = f" + {pool.gained} gained" if pool.gained else ""
        out.append(
            f"  {pool.name}: budget {pool.budget}{gained}, spent {pool.spent} → {status}"
            + (f"  [{pool.budget_note}]" if pool.budget_note else "")
        )
        out += _item_lines(pool.items, "-", "+")
    out += ["", "Figures"]
    label_w = max((len(f.label) for f in report.derived.figures), default=10)
    for fig in report.derived.figures:
        value = fig.with_unit()  # "1 point", "3 points"
        detail = f"  — {fig.detail}" if fig.detail else ""
        if isinstance(fig.value, dict | list):  # an object for JSON readers: its detail says it in words
            value, detail = fig.detail, ""
        out.append(f"  {fig.label.ljust(label_w)}  {value}{detail}")
        out += _item_lines(fig.parts, "+", "-")  # what a counted figure counted
    for table in report.derived.tables:
        out += ["", table.title]
        out += table_lines(table)
    out += _parts_lines(report)
    out += ["", "Findings" if report.findings else "Findings: none"]
    for f in report.findings:
        out.append(f"  {f.severity.value.upper():<7} {f.code}: {f.message}")
        meta = " · ".join(x for x in (f"at {f.path}" if f.path else "", f.source) if x)
        if meta:
            out.append(f"          {meta}")
    for form in report.forms:
        heading = f"{report.forms_label}: {form.name}"
        out += ["", heading, "-" * len(heading)]
        out += [f"  {ln}" if ln else "" for ln in render(form).splitlines()[4:]]
    if report.catalog_overrides:
        out += ["", "Catalog overrides in effect"]
        out += [f"  {o}" for o in report.catalog_overrides]
    return "\n".join(escape(line) for line in out) + "\n"
