"""Designs side by side: every figure, pool, item, recorded state and finding, with the differences signed.

Neutral: what is compared is what every report and every ruleset's neutral view carry —
figures by id, pools (budget, spent, left), the catalog items a design chose (by kind and
id, with their count and level), the state recorded on the design (section ``state``),
and findings (by code and place; shown in words, the place named as the user sees it,
:func:`shipyard.core.places.finding_text`). The first design is the reference: each other
design's differences are signed against it (+2, -1).

The recorded state is what the design's table carries (:mod:`shipyard.core.shown`) and
its report's item tables say of each row: each track's ticked boxes ("Track: Hull",
"2 of 4 ticked (boxes 1, 3)", its difference the boxes ticked more or fewer, "changed"
when as many but others), each write-in slot's text with the track it was taken on
("Write-in: Moderate 4", "Reactor leak (hull)"; "" for an empty one) and, for a report
table that names its ``state_column``, each row's state there ("Systems: Sensors",
"disabled"), the row named by its first cell. A damaged ship and the same ship
undamaged differ.

A ruleset may give numbers that belong to a *pair* of ships — one ship's edge over the
other — with ``pair_figures(first, other, catalog)`` in its module: a list of
``(first's figure, other's figure)``, the same number seen from each ship, each figure
with its ``detail`` (how it comes about) and ``source``. They appear in the comparison
only, as rows of the section ``pair``: the first design's value and the other's (a
percent signed: +40%, -40%), their details as the row's ``notes`` and the figure's
source as its ``source``; a row for each other design, "—" for the designs not in it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from shipyard.core.errors import InputError
from shipyard.core.hookspec import optional
from shipyard.core.model import Catalog
from shipyard.core.places import finding_text
from shipyard.core.placewords import words
from shipyard.core.report import Figure, Report
from shipyard.core.shown import State, table
from shipyard.core.termtext import escape

Value = str | int | float | None

# How a comparison's rows are headed, section by section, and a pool's three rows read
# ("Hull Points budget", "Hull Points spent", "Hull Points left").
SECTION_HEADINGS = {
    "figures": "Figures",
    "pools": "Budgets",
    "items": "Chosen from the catalog",
    "state": "Recorded state",
    "findings": "Findings",
    "pair": "Between the ships",
}
POOL_WORDS = {"budget": "budget", "spent": "spent", "remaining": "left"}


@dataclass(frozen=True)
class Row:
    """One line of the comparison: a value per design, and each one's difference from the first."""

    section: str  # figures | pools | items | state | findings | pair
    key: str
    label: str
    values: tuple[Value, ...]
    deltas: tuple[str, ...]  # "" for the first design and where nothing differs
    unit: str = ""  # a pair row's unit ("%"): its values are signed edges
    source: str = ""  # the section of the rules text a pair row's numbers come from
    notes: tuple[str, ...] = ()  # how each design's value of a pair row comes about ("" for none)

    @property
    def differs(self) -> bool:
        return any(self.deltas)

    def shown(self, i: int) -> str:
        """Design ``i``'s value as every output writes it: "—" for none, 1,200, "+40%"."""
        v = self.values[i]
        if v is None:
            return "—"
        if self.unit and _number(v) is not None:
            return f"{v:+g}{self.unit}" if v else f"0{self.unit}"
        return f"{v:,}" if isinstance(v, int) and not isinstance(v, bool) else str(v)

    def explained(self, names: list[str]) -> list[str]:
        """A pair row's notes in words, each with its design's name and value."""
        if not self.notes:
            return []
        return [
            f"{n}: {self.shown(i)} ({note})" for i, (n, note) in enumerate(zip(names, self.notes, strict=True)) if note
        ]


@dataclass
class Comparison:
    ruleset: str
    ruleset_name: str
    names: list[str]
    rows: list[Row] = field(default_factory=list)

    @property
    def differences(self) -> list[Row]:
        return [r for r in self.rows if r.differs]

    def section(self, name: str) -> list[Row]:
        return [r for r in self.rows if r.section == name]

    def as_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "designs": self.names,
            "differences": len(self.differences),
            "sections": [{"id": k, "heading": v} for k, v in SECTION_HEADINGS.items()],
            "rows": [
                {
                    "section": r.section,
                    "key": r.key,
                    "label": r.label,
                    "values": list(r.values),
                    "shown": [r.shown(i) for i in range(len(r.values))],
                    "deltas": list(r.deltas),
                    "differs": r.differs,
                    "unit": r.unit,
                    "source": r.source,
                    "notes": list(r.notes),
                    "explained": r.explained(self.names),
                }
                for r in self.rows
            ],
        }


def _number(v: Value) -> float | None:
    return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else None


def signed(delta: float) -> str:
    """A difference as the comparison writes it: +2, -1, +0.5 ("" when there is none)."""
    if delta == 0:
        return ""
    return f"{int(delta):+d}" if float(delta).is_integer() else f"{delta:+g}"


def _row(section: str, key: str, label: str, values: list[Value], counts: list[int | None] | None = None) -> Row:
    """A row of ``values``; ``counts``: the numbers its differences are signed by where the
    values are words (a track's ticked boxes: "+2"; "changed" when as many but others)."""
    first = values[0]
    deltas = [""]
    for i, v in enumerate(values[1:], 1):
        a, b = _number(first), _number(v)
        if counts is not None and v != first and first is not None and v is not None:
            a, b = counts[0], counts[i]
            deltas.append(signed(b - a) if a is not None and b is not None and a != b else "changed")
        elif a is not None and b is not None:
            deltas.append(signed(b - a))
        elif v != first:
            deltas.append("added" if first is None else ("removed" if v is None else "changed"))
        else:
            deltas.append("")
    return Row(section, key, label, tuple(values), tuple(deltas))


def _figure_value(f: Figure | None) -> Value:
    if f is None:
        return None
    return f.value if isinstance(f.value, int | float | str) and not isinstance(f.value, bool) else f.shown()


def _items(design: Any, catalog: Catalog) -> dict[tuple[str, str], tuple[int, int]]:
    """The catalog items a design chose: (kind, id) -> (count, highest level)."""
    out: dict[tuple[str, str], tuple[int, int]] = {}
    for sel in catalog.module.view(design, catalog).selections:
        count, level = out.get((sel.kind, sel.id), (0, 0))
        out[(sel.kind, sel.id)] = (count + sel.count, max(level, sel.level))
    return out


def ticked_text(state: State) -> str:
    """A track's recorded state in words: "0 of 4 ticked", "2 of 4 ticked (boxes 1, 3)" when
    the ticked boxes are not the first ones, "no boxes" for a track without any."""
    if not state.boxes:
        return "no boxes"
    text = f"{state.ticked} of {state.boxes} ticked"
    if state.marks != tuple(range(1, state.ticked + 1)):
        text += f" ({'box' if len(state.marks) == 1 else 'boxes'} {', '.join(map(str, state.marks))})"
    return text


def slot_text(state: State) -> str:
    """A write-in slot's recorded state: its text and the track it was taken on ("Reactor
    leak (hull)"), "" when empty, "not available" when the design may not take it."""
    if not state.text:
        return "" if state.available else "not available"
    return f"{state.text} ({state.track})" if state.track else state.text


def _state_rows(reports: list[Report]) -> list[Row]:
    """The recorded state of each design, a row a track, a slot and an item table's row."""
    states = [{s.id: s for s in table(r, None).states} for r in reports]
    rows = []
    for sid in dict.fromkeys(k for found in states for k in found):
        each = [found.get(sid) for found in states]
        one = next(s for s in each if s is not None)
        if one.kind == "track":
            values: list[Value] = [ticked_text(s) if s is not None else None for s in each]
            counts = [s.ticked if s is not None else None for s in each]
            rows.append(_row("state", f"track:{sid}", f"Track: {one.name}", values, counts))
        else:
            label = f"Write-in: {one.name}" + (f" {one.value}" if one.value is not None else "")
            rows.append(_row("state", f"slot:{sid}", label, [slot_text(s) if s is not None else None for s in each]))
    items = [_item_states(r) for r in reports]
    for key in dict.fromkeys(k for found in items for k in found):
        label = next(found[key][0] for found in items if key in found)
        rows.append(_row("state", key, label, [found[key][1] if key in found else None for found in items]))
    return rows


def _item_states(report: Report) -> dict[str, tuple[str, str]]:
    """Each row of the report's tables that name a ``state_column``: key -> (label, state)."""
    out: dict[str, tuple[str, str]] = {}
    for t in report.derived.tables:
        if not t.state_column or t.state_column not in t.columns:
            continue
        at = t.columns.index(t.state_column)
        seen: Counter[str] = Counter()
        for row in t.rows:
            if not row:
                continue
            name = "" if row[0] is None else str(row[0])
            seen[name] += 1
            n = seen[name]
            cell = row[at] if at < len(row) else None
            label = f"{t.title}: {name}" + (f" #{n}" if n > 1 else "")
            out[f"item:{t.id}:{name}#{n}"] = (label, "" if cell is None else str(cell))
    return out


def _findings(report: Report) -> Counter[tuple[str, str, str]]:
    return Counter((f.severity.value, f.code, f.path) for f in report.findings)


def compare(designs: list[tuple[str, Any, Catalog, Report]]) -> Comparison:
    """Compare ``(name, design, catalog, report)`` tuples; the first is the reference.

    Designs of different rulesets are refused: their figures do not mean the same.
    """
    if len(designs) < 2:
        raise InputError.single("give two designs or more to compare")
    rulesets = {c.meta.id for _, _, c, _ in designs}
    if len(rulesets) > 1:
        listed = ", ".join(f"{name} is {c.meta.name}" for name, _, c, _ in designs)
        raise InputError.single(f"designs of different rulesets cannot be compared ({listed})")
    catalog = designs[0][2]
    reports = [r for *_, r in designs]
    cmp = Comparison(catalog.meta.id, catalog.meta.name, [n for n, *_ in designs])

    figure_ids = list(dict.fromkeys(f.id for r in reports for f in r.derived.figures))
    for fid in figure_ids:
        found = [r.derived.figure(fid) for r in reports]
        label = next(f.label for f in found if f is not None)
        cmp.rows.append(_row("figures", fid, label, [_figure_value(f) for f in found]))

    pool_ids = list(dict.fromkeys(p.id for r in reports for p in r.pools))
    for pid in pool_ids:
        pools = [r.pool(pid) for r in reports]
        name = next(p.name for p in pools if p is not None)
        for part in ("budget", "spent", "remaining"):
            values: list[Value] = [getattr(p, part) if p is not None else None for p in pools]
            cmp.rows.append(_row("pools", f"{pid}.{part}", f"{name} {POOL_WORDS[part]}", values))

    chosen = [_items(d, c) for _, d, c, _ in designs]
    for kind, item_id in dict.fromkeys(k for items in chosen for k in items):
        item = catalog.item(kind, item_id)
        label = f"{words(kind).capitalize()}: {item.name if item else item_id}"
        counts: list[Value] = [items[(kind, item_id)][0] if (kind, item_id) in items else None for items in chosen]
        cmp.rows.append(_row("items", f"{kind}.{item_id}", label, counts))
        levels = [items[(kind, item_id)][1] if (kind, item_id) in items else None for items in chosen]
        if any(lv is not None and lv > 1 for lv in levels):
            cmp.rows.append(_row("items", f"{kind}.{item_id}.level", f"{label}, level", list(levels)))

    cmp.rows += _state_rows(reports)

    seen = [_findings(r) for r in reports]
    # each finding in words, its place named in the first design that has it
    said: dict[tuple[str, str, str], tuple[str, int]] = {}
    for i, r in enumerate(reports):
        for f in r.findings:
            said.setdefault((f.severity.value, f.code, f.path), (f.message, i))
    data: dict[int, Any] = {}
    for key in dict.fromkeys(k for s in seen for k in s):
        severity, code, path = key
        present: list[Value] = [severity if s[key] else None for s in seen]
        message, i = said[key]
        if "[" in path and i not in data:
            data[i] = designs[i][1].model_dump(mode="json")
        label = finding_text(severity, message, path, catalog, data.get(i, {}))
        cmp.rows.append(_row("findings", f"{code}@{path}", label, present))

    cmp.rows += _pair_rows(designs, cmp.names, catalog)
    return cmp


def _pair_rows(designs: list[tuple[str, Any, Catalog, Report]], names: list[str], catalog: Catalog) -> list[Row]:
    """The numbers the ruleset gives each pair (the first design, another): see the module's
    docstring. A ruleset without ``pair_figures`` gives none."""
    pair = optional(catalog.module, "pair_figures")
    rows = []
    first = designs[0][1]
    for j, (_, design, _, _) in enumerate(designs[1:], 1):
        for mine, theirs in _pairs(pair(first, design, catalog), catalog):
            values: list[Value] = [None] * len(designs)
            notes = [""] * len(designs)
            values[0], values[j] = _figure_value(mine), _figure_value(theirs)
            notes[0], notes[j] = mine.detail, theirs.detail
            rows.append(
                Row(
                    "pair",
                    f"{mine.id}:{names[j]}",
                    f"{mine.label} ({names[0]} vs {names[j]})",
                    tuple(values),
                    ("",) * len(designs),
                    unit="%" if mine.kind == "percent" else "",
                    source=mine.source,
                    notes=tuple(notes),
                )
            )
    return rows


def _pairs(given: Any, catalog: Catalog) -> list[tuple[Figure, Figure]]:
    """What ``pair_figures`` returned, held to the hook specification: a list of pairs of
    figures. Anything else is an input error naming the hook, not a traceback mid-table."""
    if isinstance(given, list | tuple) and all(
        isinstance(p, list | tuple) and len(p) == 2 and all(isinstance(f, Figure) for f in p) for p in given
    ):
        return [(p[0], p[1]) for p in given]
    raise InputError.single(
        f"ruleset {catalog.meta.id!r}: hook 'pair_figures' returned {type(given).__name__} "
        f"{escape(repr(given)[:80])}, not a list of (first's Figure, other's Figure)"
    )


def pair_lines(cmp: Comparison, bullet: str = "  ") -> list[str]:
    """How each pair row's numbers come about and the section they come from, a line each."""
    out = []
    for r in cmp.section("pair"):
        out.append(f"{bullet}{r.label}: " + "; ".join(r.explained(cmp.names)) + (f" — {r.source}" if r.source else ""))
    return out


def render_text(cmp: Comparison, *, markdown: bool = False, all_rows: bool = True, width: int | None = None) -> str:
    """The comparison as a table: a row a value, a column a design with its difference.

    A row that differs is marked in words (its signed difference, "added", "removed") and
    with a leading ``*`` — never by colour alone. The table fits ``width`` (None: as wide
    as it needs): its cells wrap, or its rows stack (:mod:`shipyard.core.termtable`).
    Every cell is one line: names, labels and values are a stranger's text, and a newline
    in a design's name printed a line of its own (a fake "Result: PASSES");
    :func:`~shipyard.core.termtext.escape` shows it as ``\\u000a``.
    Below the table, "Between the ships:" says how each pair row's numbers come about and
    their source (with ``all_rows`` off too: they are not differences, but they hold only
    between these ships).
    """
    head = ["", "What", *map(escape, cmp.names)]
    body: list[list[str]] = []
    for r in cmp.rows if all_rows else cmp.differences:
        cells = []
        for i, d in enumerate(r.deltas):
            shown = r.shown(i)
            cells.append(
                f"{shown} ({d})" if d and d not in ("added", "removed") else (f"{shown} [{d}]" if d else shown)
            )
        body.append(["*" if r.differs else "", escape(r.label), *map(escape, cells)])
    if markdown:
        lines = ["| What | " + " | ".join(_md(n) for n in head[2:]) + " |", "|" + " --- |" * (len(cmp.names) + 1)]
        for row in body:
            label = f"**{_md(row[1])}**" if row[0] else _md(row[1])
            lines.append("| " + " | ".join([label, *map(_md, row[2:])]) + " |")
        if pairs := pair_lines(cmp, "- "):
            lines += ["", "Between the ships:", "", *map(_md, pairs)]
        return "\n".join(lines) + "\n"
    from shipyard.core.termtable import fit

    out = [f"{escape(cmp.ruleset_name)}: {len(cmp.differences)} difference(s)", *fit(head, body, width)]
    if pairs := pair_lines(cmp):
        import textwrap

        out += ["", "Between the ships:"]
        for line in map(escape, pairs):  # the prose under the table fits the same width
            out += textwrap.wrap(line, width, subsequent_indent="    ") if width else [line]
    return "\n".join(out) + "\n"


def _md(text: str) -> str:
    """Text safe in a Markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")
