"""Every finding's cited source says what the check does: the section it names is a
heading of the ruleset's source text, and the words its message quotes are in that text,
after that heading.

The findings are those of every sample of every installed ruleset, of the findings corpus
(tests/corpus/findings), and of Future Perfect round plans that break each rule of the
round once (a role with no one in it, a weapon system fired twice ...).
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest

from shipyard.core.designfile import load_design
from shipyard.core.evaluate import evaluate
from shipyard.core.findings import Finding
from shipyard.core.registry import rulesets

from .source_texts import heading_at, quoted, source_text, squeezed
from .test_future_perfect import BASE, act, check, plan

CORPUS = Path(__file__).parent / "corpus" / "findings"


def _fp_plans() -> list[dict[str, Any]]:
    """Changes to the test frigate, each breaking one rule of the round plan."""
    battery = [{"name": n, "system": "Forward battery", "grade": "primary"} for n in ("Laser A", "Laser B")]
    return [
        *(
            {
                "crew": [c for c in BASE["crew"] if c["role"] != role],
                "plan": plan(act("helm", "move-1"), act("tactical", "fire-primary", "Twin lasers"),
                             act("engineering", "restore-power"), helm=2, tactical=1, engineering=2),
            }
            for role in ("command", "helm", "tactical", "engineering")
        ),
        {"weapons": battery, "plan": plan(act("tactical", "fire-primary", "Laser A"),
                                          act("tactical", "fire-primary", "Laser B"), tactical=2)},
        {"plan": plan(*[act("tactical", "modulate-shield", "Deflectors")] * 2, tactical=4)},
        {"plan": plan(act("tactical", "careful-shot", "Twin lasers"), tactical=1)},
        {"plan": plan(act("helm", "move-1", power=2), helm=2)},
        {"plan": plan(initiative=13)},
        {"plan": plan(initiative=2, helm=4, tactical=4, engineering=3)},
        {"plan": plan(act("helm", "move-1"), helm=1)},
        {"plan": plan(act("helm", "move-2", power=1), helm=2), "power_bank": 0, "power_rating": 0},
        {"plan": {**plan(), "augmented": {"Engines": 1}}},
        {"plan": plan(*[act("helm", "evasive-maneuvers")] * 4, helm=4)},
    ]  # fmt: skip


def _key(ruleset: str, f: Finding) -> tuple[Any, ...]:
    """One finding of each code for each section it cites and each set of words it quotes."""
    return (ruleset, f.code, f.source, tuple(quoted(f.message)))


def _findings() -> list[tuple[str, str, Finding]]:
    """(source file, source title, finding): each code of each ruleset, once a section and quote."""
    files = [ship for info in rulesets() for ship in sorted(info.samples.glob("*.ship"))]
    files += sorted(CORPUS.glob("*.ship"))
    texts = {info.id: (info.manifest.source.file, info.manifest.source.title) for info in rulesets()}
    out: dict[tuple[Any, ...], tuple[str, str, Finding]] = {}
    for file in files:
        loaded = load_design(file, use_user_folder=False)
        for f in evaluate(loaded.design, loaded.catalog).findings:
            out.setdefault(_key(loaded.catalog.meta.id, f), (*texts[loaded.catalog.meta.id], f))
    for changes in _fp_plans():
        for f in check(**copy.deepcopy(changes)).findings:
            out.setdefault(_key("future-perfect", f), (*texts["future-perfect"], f))
    return list(out.values())


FINDINGS = _findings()


def sections(source: str, title: str) -> list[str]:
    """A finding's cited sections: "Future Perfect, Offense: AP Costs; Starship Roles" ->
    ["Offense: AP Costs", "Starship Roles"]; a remark in brackets ("(crew paragraph)") is
    not part of a heading."""
    body = source[len(title) + 2 :] if source.startswith(title + ", ") else source
    return [part.strip() for part in re.sub(r"\s*\([^)]*\)", "", body).split(";") if part.strip()]


def section_at(text: str, section: str) -> int:
    """Where a cited section starts: a heading of that name ("SAMPLE FIGHTER DESCRIPTIONS:
    HUMAN DESIGNS"), else its nested headings one after another ("Offense: AP Costs" is the
    "AP Costs" after "Offense"; "Constructing a Spacecraft, Step Five"); -1 if the text has none."""
    whole = heading_at(text, section)
    if whole >= 0:
        return whole
    at = 0
    for heading in (p.strip() for p in re.split(r"[:,]", section) if p.strip()):
        at = heading_at(text, heading, at)
        if at < 0:
            return -1
    return at


def test_the_findings_checked_cover_every_rule_of_the_round_plan() -> None:
    fp_codes = {f.code for file, _, f in FINDINGS if file.startswith("004_")}
    assert {
        "action-unstaffed", "weapon-fired-twice", "shield-modulated-twice", "extra-without-fire",
        "power-over-one-per-action", "initiative-over-ap", "plan-over-budget", "role-over-allocation",
        "power-over-bank", "role-unfilled", "augmented-unused", "evasive-wasted",
    } <= fp_codes  # fmt: skip
    # and the other rulesets' findings of the samples: Space Fighter Alpha's and Space Fury's
    assert {"000_e97b8f394ca4157b.txt", "002_9290a3f0af73c00a.txt"} <= {file for file, _, _ in FINDINGS}


@pytest.mark.parametrize(
    ("file", "title", "finding"), FINDINGS, ids=[f"{t}/{f.code}/{i}" for i, (_, t, f) in enumerate(FINDINGS)]
)
def test_a_finding_cites_a_section_of_its_text_and_quotes_its_words(file: str, title: str, finding: Finding) -> None:
    text = source_text(file)
    if not finding.source:
        pytest.skip(f"{finding.code} cites no section")  # a rule of Shipyard's own (unique names), documented
    assert finding.source.startswith(title), (finding.code, finding.source)
    starts = [section_at(text, section) for section in sections(finding.source, title)]
    missing = [section for section, at in zip(sections(finding.source, title), starts, strict=True) if at < 0]
    assert not missing, f"{finding.code} cites {missing} ({finding.source}); {file} has no such heading"
    for words in quoted(finding.message):
        assert any(squeezed(words) in squeezed(text[at:]) for at in starts), (
            f"{finding.code} quotes {words!r}, which the cited section ({finding.source}) does not say"
        )
