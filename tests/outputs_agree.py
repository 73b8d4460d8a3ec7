"""Every output of a design held against its record sheet, figure by figure.

The record sheet is what Shipyard gets most right, so it is the reference: each figure and
recorded state of the design's table (:mod:`shipyard.core.shown`) must be on the sheet
(read with pdftotext), and each other output must carry what it shows of it the same:

- ``sheet``: the record sheet's text: the name, every figure (summaries of parts the
  sheet shows as tables aside), every budget line, every track's name and every filled
  slot's text (a consequence's aspect); and its fillable form: each track's boxes and the
  ones ticked (a check box a box, ticked where the design records it: the same boxes, not
  only as many), each slot's text;
- ``fleet``: the design's page of its ruleset's fleet book, as for the sheet;
- ``card``: the stat card's text: the name and every figure the ruleset's card prints;
- ``token``: the token's text: its name (on one line or two) and its key figure;
- ``foundry``: the actor JSON: every figure (a Number the same number, a text the same
  text), every track with its ticked boxes and its boxes (its label naming which are
  ticked when they are not the first ones), every slot's text, the health
  and power bars (none where the table has none);
- ``statblock``: the stat-block text where the ruleset writes one: the card's figures.

A check counts one figure or state in one output; :func:`check_design` gives, per output,
how many were checked and the ones that differ or are missing. ``bench/output_figures.py``
prints the counts; ``tests/test_outputs_agree.py`` fails on any miss.
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pypdf import PdfReader

from shipyard.core.designfile import LoadedDesign
from shipyard.core.designreport import design_report
from shipyard.core.foundry import ticked_words
from shipyard.core.registry import get
from shipyard.core.report import Report
from shipyard.core.shown import Shown, Table, design_table

OUTPUTS = ("sheet", "fleet", "card", "token", "foundry", "statblock")
_LADDER = re.compile(r"^(?P<word>.+) \((?P<n>[+-]?\d+)\)$")


@dataclass
class Tally:
    """One output's checks: how many, and what differed or was missing."""

    checked: int = 0
    misses: list[str] = field(default_factory=list)

    @property
    def matched(self) -> int:
        return self.checked - len(self.misses)

    def check(self, ok: bool, what: str) -> None:
        self.checked += 1
        if not ok:
            self.misses.append(what)


def norm(text: str) -> str:
    """Text as compared: lower case, one kind of minus, single spaces, no soft hyphens."""
    text = text.replace("\u2212", "-").replace("\u2013", "-").replace("\u00ad", "").replace("\u00a0", " ")
    return " ".join(text.lower().split())


def has(text: str, value: str) -> bool:
    """Whether ``value`` stands in ``text`` as a whole (not the 1 of 15)."""
    v = norm(value)
    return not v or re.search(r"(?<![\w.])" + re.escape(v) + r"(?![\w])", text) is not None


def shows(text: str, fig: Shown) -> bool:
    """Whether ``text`` shows the figure as the sheet prints it: its text, or a ladder
    value's word and number ("Good (+3)" printed "+3 Good"), or a number signed (+1)."""
    if has(text, fig.value):
        return True
    ladder = _LADDER.match(fig.value)
    if ladder:
        return has(text, ladder["word"]) and has(text, ladder["n"])
    n = fig.number
    return isinstance(n, int) and not isinstance(n, bool) and has(text, f"{n:+d}")


def pdf_text(pdf: Path) -> str:
    """The text of the whole PDF, as compared."""
    return " ".join(pages_text(pdf))


def pages_text(pdf: Path) -> list[str]:
    """The text of each page, as compared: read with one pdftotext for the whole PDF (it ends
    each page with a form feed), not one for each page."""
    out = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True)
    return [norm(page) for page in out.stdout.split("\f")[:-1]]


def check_fields(fields: dict[str, Any], prefix: str, table: Table) -> Tally:
    """The fillable record sheet's form against the table's recorded state: each track's
    boxes (a check box each, ``TRACK.N``) and how many are ticked, each slot's text."""
    tally = Tally()
    for state in table.states:
        if state.kind == "track":
            boxes = [fields.get(f"{prefix}{state.id}.{n}") for n in range(1, state.boxes + 1)]
            marks = tuple(n for n, b in enumerate(boxes, 1) if b is not None and b.get("/V") not in (None, "/Off"))
            drawn = all(b is not None for b in boxes) and f"{prefix}{state.id}.{state.boxes + 1}" not in fields
            ok = drawn and marks == state.marks and len(marks) == state.ticked
            tally.check(ok, f"track {state.name} {state.ticked}/{state.boxes}")
        elif state.available:
            slot = fields.get(prefix + state.id)
            tally.check(slot is not None and (slot.get("/V") or "") == state.text, f"{state.name} {state.text!r}")
    return tally


def check_page(text: str, table: Table) -> Tally:
    """The sheet's (or a fleet book page's) text against the table."""
    tally = Tally()
    tally.check(has(text, table.name), f"name {table.name!r}")
    for fig in table.figures:
        if not fig.summary:
            tally.check(shows(text, fig), f"{fig.label} {fig.value!r}")
    for state in table.states:
        if state.kind == "track":
            tally.check(has(text, state.name.split(":")[0]), f"track {state.name!r}")
        elif state.text:
            tally.check(has(text, state.text[:60]), f"{state.name} {state.text!r}")
    return tally


def check_card(text: str, table: Table) -> Tally:
    tally = Tally()
    tally.check(has(text, table.name[:40]), f"name {table.name!r}")
    for fig in table.figures:
        if fig.card:
            tally.check(shows(text, fig), f"{fig.label} {fig.value!r}")
    return tally


def check_token(svg: str, table: Table) -> Tally:
    text = norm(re.sub(r"<[^>]+>", " ", svg))
    tally = Tally()
    tally.check(has(text, table.name), f"name {table.name!r}")
    if table.key is not None:
        tally.check(has(text, f"{table.key.value} {table.key.label}"), f"key {table.key.value} {table.key.label}")
    return tally


def _attributes(actor: dict[str, Any]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for group in actor["system"]["attributes"].values():
        out.update(group)
    return out


def check_actor(actor: dict[str, Any], table: Table) -> Tally:
    """The Foundry actor against the table: exact values, every state, the bars."""
    tally = Tally()
    tally.check(actor["name"] == table.name == actor["prototypeToken"]["name"], f"name {table.name!r}")
    attrs = list(_attributes(actor).values())
    figures = [a for a in attrs if a["group"] in ("figures", "budgets")]
    tracks = [a for a in attrs if a["group"] == "tracks"]
    slots = [a for a in attrs if a["group"] == "slots"]
    for fig, attr in zip(table.figures, figures + [None] * len(table.figures), strict=False):
        ok = attr is not None and (
            attr["value"] == fig.number if attr["dtype"] in ("Number", "Boolean") else attr["value"] == fig.value
        )
        tally.check(ok and attr is not None and attr["label"].startswith(fig.label), f"{fig.label} {fig.value!r}")
    states = [s for s in table.states if s.kind == "track"]
    for state, attr in zip(states, tracks + [None] * len(states), strict=False):
        ok = attr is not None and (attr["value"], attr["max"]) == (state.ticked, state.boxes)
        ok = ok and attr is not None and attr["label"].endswith(f"({ticked_words(state)})")
        tally.check(ok, f"track {state.name} {state.ticked}/{state.boxes}")
    written = [s for s in table.states if s.kind == "slot"]
    for state, attr in zip(written, slots + [None] * len(written), strict=False):
        tally.check(attr is not None and attr["value"] == state.text, f"{state.name} {state.text!r}")
    for bar, got, token in (
        (table.health, actor["system"]["health"], actor["prototypeToken"]["bar1"]),
        (table.power, actor["system"]["power"], actor["prototypeToken"]["bar2"]),
    ):
        want = (bar.value, bar.max, bar.id) if bar else (0, 0, None)
        tally.check((got["value"], got["max"], token["attribute"]) == want, f"bar {want}")
    return tally


def check_statblock(text: str, table: Table) -> Tally:
    tally = Tally()
    tally.check(has(text, table.name), f"name {table.name!r}")
    for fig in table.figures:
        if fig.card:
            line = re.search(r"(?m)^" + re.escape(norm(fig.label)) + r": (.*)$", text.replace(" \n", "\n"))
            tally.check(line is not None and shows(line.group(1), fig), f"{fig.label} {fig.value!r}")
    return tally


def _texts(lines: str) -> str:
    return "\n".join(norm(line) for line in lines.splitlines())


@dataclass
class Outputs:
    """Every output of a group of designs of one ruleset, each made once."""

    loaded: Sequence[LoadedDesign]
    reports: list[Report]
    tables: list[Table]
    sheets: list[str]
    fleet: list[str]
    cards: list[str]
    tokens: list[str]
    actors: list[dict[str, Any]]
    statblocks: list[str | None]
    fields: dict[str, Any]
    prefixes: list[str]


def make_outputs(loaded: Sequence[LoadedDesign], workers: list[Any], outputs: Collection[str] = OUTPUTS) -> Outputs:
    """Print each design's sheet and card, its ruleset's fleet book once, draw the tokens'
    SVGs and write the actors and stat blocks: all designs of one ruleset. Of ``outputs``
    only: without ``card`` or ``fleet``, no card or fleet book is printed (their lists are
    empty), for a check that holds only the others."""
    from shipyard.core.textformats import text_format
    from shipyard.exports import foundry_files
    from shipyard.render.art import page_art_problem
    from shipyard.render.context import field_prefixes, fleet_layout
    from shipyard.render.printing import print_loaded
    from shipyard.render.tokenimages import token_svgs
    from shipyard.render.tokens import TokenSpec

    reports = [design_report(ld.design, ld.catalog, ld.file, picture_problem=page_art_problem) for ld in loaded]
    tables = [design_table(r) for r in reports]
    sheets: list[str] = []
    cards: list[str] = []
    fleet: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "out.pdf"
        print_loaded(loaded, pdf, sheet="record", workers=workers, reports=reports, fillable=True)
        fields = PdfReader(pdf).get_fields() or {}
        prefixes = field_prefixes([r.name for r in reports])
        print_loaded(loaded, pdf, sheet="record", workers=workers, reports=reports)  # a page a design
        sheets = pages_text(pdf)
        if len(sheets) != len(loaded):  # a sheet ran over a page: each on its own
            sheets = []
            for ld, report in zip(loaded, reports, strict=True):
                print_loaded([ld], pdf, sheet="record", workers=workers, reports=[report])
                sheets.append(pdf_text(pdf))
        if "card" in outputs:
            for ld, report in zip(loaded, reports, strict=True):  # a design may have several cards
                print_loaded([ld], pdf, sheet="cards", workers=workers, reports=[report])
                cards.append(pdf_text(pdf))
        if "fleet" in outputs:
            print_loaded(loaded, pdf, sheet="fleet", workers=workers, reports=reports)
            first = fleet_layout(len(loaded))["first_sheet"]
            fleet = pages_text(pdf)[first - 1 : first - 1 + len(loaded)]
    tokens = token_svgs(loaded, reports, TokenSpec(25.4))
    files = dict(foundry_files(list(loaded)))
    actors = [json.loads(data) for name, data in files.items() if name.endswith(".json")]
    ruleset = get(loaded[0].ruleset)
    writes = [f for f in ruleset.manifest.formats if f.writes]
    statblocks: list[str | None] = [None] * len(loaded)
    if writes:
        module = text_format(ruleset, writes[0])
        statblocks = [_texts(module.write(ld.design, ld.catalog)) for ld in loaded]
    return Outputs(loaded, reports, tables, sheets, fleet, cards, tokens, actors, statblocks, fields, prefixes)


def check_design(out: Outputs, n: int) -> dict[str, Tally]:
    """Each output of the ``n``-th design against its table (``statblock`` only where written)."""
    table = out.tables[n]
    sheet = check_page(out.sheets[n], table)
    form = check_fields(out.fields, out.prefixes[n], table)
    sheet.checked += form.checked
    sheet.misses += form.misses
    tallies = {
        "sheet": sheet,
        "fleet": check_page(out.fleet[n], table),
        "card": check_card(out.cards[n], table),
        "token": check_token(out.tokens[n], table),
        "foundry": check_actor(out.actors[n], table),
    }
    text = out.statblocks[n]
    if text is not None:
        tallies["statblock"] = check_statblock(text, table)
    return tallies


def misses(tallies: Iterable[tuple[str, dict[str, Tally]]]) -> list[str]:
    """Every miss of every design, as 'design: output: what'."""
    return [f"{name}: {output}: {m}" for name, by in tallies for output, t in by.items() for m in t.misses]


__all__ = ["OUTPUTS", "Outputs", "Tally", "check_design", "make_outputs", "misses"]
