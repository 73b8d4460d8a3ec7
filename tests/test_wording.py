"""Everything Shipyard shows a person reads as a player's words, not as code.

For every sample of every ruleset this gathers what the engine and the editor's texts
say: each finding in words (its place named as the form names it), the Fix proposals for
every sample that breaks a rule and for deliberate mistakes of each ruleset (a number
above its range, the Cluster Falk's Extreme consequence below its Scale, an over-spent
Future Perfect role), every compare row of the samples side by side, every help text,
label and title of the declared form, the Getting started guide and the rules reading,
and the record sheet's text (its HTML, tags stripped). None may hold what reads like code:
``->``, ``errors:``, ``Pool:``, ``Figure:``, a list index (``[0]``), a catalog id with a
hyphen where the item has a name, a file path or a source file's hash.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from shipyard.core.compare import compare
from shipyard.core.designfile import LoadedDesign, load_design, sample_files
from shipyard.core.evaluate import evaluate
from shipyard.core.fixes import propose
from shipyard.core.form import FieldDecl, ListDecl, MapDecl, Section, Toggle
from shipyard.core.formview import help_text
from shipyard.core.model import Catalog
from shipyard.core.places import finding_text
from shipyard.core.reading import user_reading
from shipyard.core.registry import rulesets

from .sheets import sheet_html

RULESETS = [info.id for info in rulesets()]

CODE_LIKE = [
    ("an arrow", re.compile(r"->")),
    ("a count of errors", re.compile(r"\berrors:")),
    ("a section prefix", re.compile(r"\b(?:Pool|Figure|Item|Finding):")),
    ("a list index", re.compile(r"\[\d+\]")),
    ("a file path", re.compile(r"\b(?:docs|catalogs|shipyard|templates|tests)/|\.(?:md|py|yaml|json)\b")),
    ("a source file's hash", re.compile(r"\b[0-9a-f]{16}\b")),
]
# A compare row named by a catalog kind's id ("weapons: Medium Laser").
KIND_PREFIX = re.compile(r"^[a-z]+(?:_[a-z]+)*: ")


def offences(text: str, catalog: Catalog) -> list[str]:
    """What in ``text`` reads like code: the patterns above, and catalog ids with a hyphen
    (``evasive-maneuvers``) where the item has a name of its own."""
    found = [f"{what}: {m.group(0)!r}" for what, pattern in CODE_LIKE for m in pattern.finditer(text)]
    for item_id in hyphenated_ids(catalog):
        if re.search(rf"(?<![\w-]){re.escape(item_id)}(?![\w-])", text):
            found.append(f"an id where a name exists: {item_id!r}")
    return found


@cache
def _ids(ruleset: str) -> frozenset[str]:
    catalog = load_design(sample_files(_info(ruleset).samples)[0], use_user_folder=False).catalog
    return frozenset(
        item.id
        for kind in catalog.items
        for item in catalog.kind(kind).values()
        if "-" in item.id and item.name.lower() != item.id  # "fire-linked" is also the word for it
    )


def hyphenated_ids(catalog: Catalog) -> frozenset[str]:
    return _ids(catalog.meta.id)


def _info(ruleset: str) -> Any:
    return next(i for i in rulesets() if i.id == ruleset)


def samples(ruleset: str) -> list[tuple[Path, LoadedDesign]]:
    return [(f, load_design(f, use_user_folder=False)) for f in sample_files(_info(ruleset).samples)]


def resolved(loaded: LoadedDesign, data: dict[str, Any]) -> Any:
    return loaded.catalog.module.resolve(type(loaded.design).model_validate(data), loaded.catalog)


def mistakes(ruleset: str, loaded: LoadedDesign) -> Iterator[Any]:
    """Designs that break a rule, from a sample: its first ranged stat one above its range,
    and the ruleset's forbidden choices the issue names."""
    data = loaded.design.model_dump(mode="json")
    for stat in loaded.catalog.meta.stats:
        path = getattr(stat, "path", None)
        if path and "." not in path and isinstance(data.get(path), int) and stat.max is not None:
            yield resolved(loaded, {**data, path: int(stat.max) + 1})
            break
    if ruleset == "cluster-falk" and data.get("scale", 99) < 6:
        yield resolved(
            loaded, {**data, "consequences": {**data["consequences"], "extreme": {"aspect": "Breach", "track": "hull"}}}
        )
    turrets = [e for e in data.get("enhancements", []) if isinstance(e, dict) and e.get("weapons")]
    guns = [e["id"] for e in data.get("enhancements", []) if turrets and e["id"] == "rail-gun"]
    if ruleset == "space-fury" and guns:  # the Rail Gun on the one Turret too: more weapons than Turrets
        more = [{**e, "weapons": [*e["weapons"], guns[0]]} if e is turrets[0] else e for e in data["enhancements"]]
        yield resolved(loaded, {**data, "enhancements": more})
    if ruleset == "future-perfect" and data.get("plan"):
        plan = {**data["plan"], "actions": [*data["plan"]["actions"], {"role": "helm", "action": "move-1"}]}
        yield resolved(loaded, {**data, "plan": plan})


def shown_by_the_engine(ruleset: str) -> list[tuple[str, str]]:
    """(where, text) of every finding, proposal and compare row the samples give."""
    out: list[tuple[str, str]] = []
    loaded_all = samples(ruleset)
    for file, loaded in loaded_all:
        designs = [loaded.design]
        if file == loaded_all[0][0] or ruleset in ("future-perfect", "space-fury"):
            designs += list(mistakes(ruleset, loaded))
        for design in designs:
            data = design.model_dump(mode="json")
            report = evaluate(design, loaded.catalog)
            for f in report.findings:
                out.append(
                    (f"{file.name} finding", finding_text(f.severity.value, f.message, f.path, loaded.catalog, data))
                )
            if not report.valid:
                for p in propose(design, loaded.catalog, limit=3):
                    out.append((f"{file.name} proposal", p.text))
                    out += [(f"{file.name} proposal effect", e) for e in p.effects]
    first = loaded_all[0]
    for file, loaded in loaded_all[1:]:
        # named as `shipyard compare` and the editor name them: by the design's name
        rows = [
            (str(ld.design.name or f.stem), ld.design, ld.catalog, evaluate(ld.design, ld.catalog))
            for f, ld in (first, (file, loaded))
        ]
        for row in compare(rows).rows:
            assert not KIND_PREFIX.match(row.label), row.label
            out.append((f"compare {first[0].stem} {file.stem}", row.label))
    return out


def form_texts(catalog: Catalog) -> list[tuple[str, str]]:
    """Every title, help text and label of the declared form, as the editor shows them."""
    form = catalog.form
    assert form is not None
    out: list[tuple[str, str]] = []

    def text(where: str, raw: str | None) -> None:
        if raw:
            out.append((where, help_text(raw, catalog)))

    def sections(where: str, found: list[Section]) -> None:
        for s in found:
            text(where, s.title)
            text(where, s.help)
            if s.optional is not None:
                text(where, s.optional.label)
            for el in s.fields:
                text(where, getattr(el, "label", None))
                text(where, getattr(el, "help", None))
                if isinstance(el, Toggle):
                    text(where, el.toggle)
                if isinstance(el, FieldDecl | MapDecl):
                    text(where, el.none)
                if isinstance(el, ListDecl):
                    for col in el.columns:
                        text(where, col.label)
                        text(where, col.help)
                    sections(where, el.detail)

    for page in form.pages:
        text(page.id, page.title)
        text(page.id, page.help)
        sections(page.id, page.sections)
    return out


def sheet_text(file: Path) -> str:
    """What the record sheet prints: its HTML without the style sheet, comments and tags."""
    page = re.sub(r"<style.*?</style>|<!--.*?-->", " ", sheet_html(file), flags=re.S)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_findings_proposals_and_compare_rows_read_as_words(ruleset: str) -> None:
    catalog = samples(ruleset)[0][1].catalog
    shown = shown_by_the_engine(ruleset)
    assert any(where.startswith("compare") for where, _ in shown) and any("proposal" in w for w, _ in shown)
    bad = [(where, text, offences(text, catalog)) for where, text in shown if offences(text, catalog)]
    assert bad == []


def test_the_deliberate_mistakes_are_said_in_words() -> None:
    """What the gathering above holds for the two forbidden choices the issue names."""
    cf = dict(shown_by_the_engine("cluster-falk"))
    texts = {text for _, text in shown_by_the_engine("cluster-falk")}
    assert "raise Scale from 3 to 6" in texts or any(t.startswith("raise Scale from ") for t in texts), cf
    assert "untick Extreme consequence taken" in texts
    fp = {text for _, text in shown_by_the_engine("future-perfect")}
    assert "drop Move 1 range band from Actions bought" in fp
    assert any(t.startswith("raise Helm's allocation from 3 to 5") for t in fp)
    assert any(t.startswith("ERROR: Helm's actions cost 6 AP") for t in fp)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_help_texts_the_guide_and_the_rules_reading_read_as_words(ruleset: str) -> None:
    from shipyard._qt.window.helpmenu import guide  # the text only: no window is opened

    catalog = samples(ruleset)[0][1].catalog
    texts = [*form_texts(catalog), ("guide", guide(ruleset))]
    reading = _info(ruleset).reading
    assert reading is not None
    texts += [("reading", line) for line in user_reading(reading.read_text(encoding="utf-8")).splitlines()]
    bad = [(where, text, o) for where, text in texts if (o := offences(text, catalog))]
    assert bad == []
    shown = user_reading(reading.read_text(encoding="utf-8"))
    assert "```" not in shown and "shipyard check" not in shown and "--json" not in shown  # no commands, no JSON


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_samples_record_sheet_reads_as_words(ruleset: str) -> None:
    catalog = samples(ruleset)[0][1].catalog
    bad = [(file.name, o) for file, _ in samples(ruleset) if (o := offences(sheet_text(file), catalog))]
    assert bad == []
