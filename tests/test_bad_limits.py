"""Size limits of the hostile corpus: every list and map of a design is bounded, errors are
capped, and the search for fixes is bounded in work whatever the design's size.

Issue 28: Wing Commander's ``pilot.skills`` had no limit (100,000 keys printed 100,000
error lines); ``check --suggest`` and ``fix`` grew with the square of the design (a
64 KB Wing Commander design took 25 s and 3.3 GB). Times are measured in
bench/bench_suggest.py; here the work is counted: designs the search judges.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from shipyard.core import fixes
from shipyard.core.designfile import design_from_document
from shipyard.core.errors import MAX_LISTED_PROBLEMS, InputError, Problem
from shipyard.core.evaluate import evaluate, verdict, verdict_of
from shipyard.core.registry import ids, ruleset_module

from .conftest import ROOT, run_shipyard
from .largest import (
    CATALOG_KEYS,
    FAILING_SEEDS,
    collections,
    largest_failing,
    largest_failing_force,
    list_limits,
    map_limits,
)


@pytest.mark.parametrize("ruleset", ids())
def test_every_list_and_map_of_every_design_has_a_size_limit(ruleset: str) -> None:
    found = collections(ruleset_module(ruleset).Design)
    assert found and [f"{kind} {path}" for kind, path, limit in found if limit is None] == []


def test_a_hundred_thousand_pilot_skills_are_one_error(tmp_path: Path) -> None:
    doc = json.loads((ROOT / "catalogs" / "wing-commander" / "examples" / "arrow.ship").read_text())
    doc["design"]["pilot"]["skills"] = {f"skill-{i}": 5 for i in range(100_000)}
    path = tmp_path / "skills.ship"
    path.write_text(json.dumps(doc))
    proc = run_shipyard("check", path, "--no-user-catalog")
    assert "Traceback" not in proc.stderr and proc.returncode == 2, proc.stderr
    [line] = proc.stderr.splitlines()
    assert "at design.pilot.skills:" in line and "at most 50 items" in line


def test_errors_are_capped_with_how_many_more(tmp_path: Path) -> None:
    """200 turrets named alike: 199 problems and more, shown as 50 and '... and N more'."""
    doc = json.loads((ROOT / "catalogs" / "cluster-falk" / "examples" / "dominion-carrier.ship").read_text())
    doc["design"]["turrets"] = [dict(doc["design"]["turrets"][0]) for _ in range(200)]
    path = tmp_path / "turrets.ship"
    path.write_text(json.dumps(doc))
    proc = run_shipyard("check", path, "--no-user-catalog")
    assert "Traceback" not in proc.stderr and proc.returncode == 2, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == MAX_LISTED_PROBLEMS + 1
    assert "two turrets are named" in lines[0]
    last = rf"shipyard: error: {re.escape(str(path))} at design: \.\.\. and (\d+) more problems"
    more = re.fullmatch(last, lines[-1])
    assert more is not None and int(more.group(1)) >= 199 - MAX_LISTED_PROBLEMS, lines[-1]


def test_an_input_error_keeps_fifty_problems_and_counts_the_rest() -> None:
    error = InputError([Problem(f"problem {i}", "f.ship") for i in range(51)])
    assert [p.message for p in error.problems[-2:]] == ["problem 49", "... and 1 more problem"]
    assert len(InputError([Problem("one")] * 50).problems) == 50


def counted_search(doc: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> tuple[list[fixes.Proposal], int, int]:
    """The proposals for ``doc``, how many designs the search judged, and its budget."""
    loaded = design_from_document(doc, use_user_folder=False)
    judged = 0
    real = fixes.verdict

    def counting(design: Any, catalog: Any) -> Any:
        nonlocal judged
        judged += 1
        return real(design, catalog)

    monkeypatch.setattr(fixes, "verdict", counting)
    proposals = fixes.propose(loaded.design, loaded.catalog)
    size = len(json.dumps(loaded.design.model_dump(mode="json")))
    return proposals, judged, max(fixes.MIN_TRIES, fixes.WORK_BUDGET // size)


# What the budget still finds on the largest design of each ruleset (the first proposal).
FIRST_FOUND = {"cluster-falk": "lower Guns from 9 to 8"}


@pytest.mark.parametrize("ruleset", sorted(FAILING_SEEDS))
def test_the_search_on_the_largest_legal_design_stays_in_its_budget(
    ruleset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = largest_failing(ruleset)
    limits = list_limits(ruleset_module(ruleset).Design)
    lists = [v for v in _lists(doc["design"], "") if v[0] in limits]
    assert lists and all(len(items) == limits[path] for path, items in lists if isinstance(items[0], dict))
    proposals, judged, budget = counted_search(doc, monkeypatch)
    assert judged <= budget + 1  # the design itself, then at most the budget of tries
    assert budget < 60  # far fewer than the ~1,000-3,000 single changes such a design offers
    assert isinstance(proposals, fixes.Proposals) and proposals.exhausted  # and says so (check --suggest does)
    if ruleset in FIRST_FOUND:
        assert proposals and proposals[0].text == FIRST_FOUND[ruleset]


def _maps(node: Any, path: str, maps: dict[str, int]) -> list[tuple[str, dict[str, Any]]]:
    """Every map of a design body at a path of ``maps``, by its field path (``crew[].skills``)."""
    if isinstance(node, dict) and path in maps:
        return [(path, node)]
    if isinstance(node, dict):
        return [x for k, v in node.items() for x in _maps(v, f"{path}.{k}" if path else k, maps)]
    if isinstance(node, list):
        return [x for v in node for x in _maps(v, path + "[]", maps)]
    return []


@pytest.mark.parametrize("ruleset", sorted(FAILING_SEEDS))
def test_the_largest_design_fills_its_maps_as_far_as_the_rules_allow(ruleset: str) -> None:
    """A ruleset whose size lives in maps is as large as it may be: a map of catalog ids holds
    every id of its kind (the design still loads: none unknown, none twice), any other map is
    filled to its limit."""
    from shipyard.core.catalog import load_catalog

    doc = largest_failing(ruleset)
    loaded = design_from_document(doc, use_user_folder=False)  # legal: it loads
    limits = map_limits(ruleset_module(ruleset).Design)
    found = [m for m in _maps(doc["design"], "", limits) if m[1]]
    keyed = CATALOG_KEYS.get(ruleset, {})
    for path, items in found:
        if path in keyed:
            assert sorted(items) == sorted(load_catalog(ruleset, use_user_folder=False).kind(keyed[path])), path
        else:
            assert len(items) == limits[path], path
    assert loaded.design is not None
    if ruleset in ("cluster-falk", "wing-commander", "future-perfect"):
        assert found  # these seeds give maps to fill


def test_the_search_on_the_largest_space_fury_force_stays_in_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Space Fury's largest design is a force (500 fighters, each piloted, and 500 reserve
    pilots; one fighter the grown failing seed): the search tries what its budget allows and
    still proposes the cure, in words."""
    doc = largest_failing_force()
    design = doc["design"]
    assert len(design["fighters"]) == 500 and len(design["pilots"]) == 500
    proposals, judged, budget = counted_search(doc, monkeypatch)
    assert judged <= budget and proposals.exhausted
    assert proposals and proposals[0].text == "drop Gunship from Fighters"


@pytest.mark.parametrize("ruleset", sorted(FAILING_SEEDS))
def test_the_search_reads_its_starting_verdict_off_the_report(ruleset: str) -> None:
    """The verdict the search starts from is taken from the check's report, not judged again:
    it must be the rules' own verdict (errors of the design and its forms, pools' remainders),
    on the largest design and on every sample of the ruleset."""
    docs = [largest_failing(ruleset), largest_failing(ruleset, 10)]
    docs += [json.loads(p.read_text()) for p in sorted((ROOT / "catalogs" / ruleset / "examples").glob("*.ship"))]
    if ruleset == "space-fury":
        docs.append(largest_failing_force(20))
    for doc in docs:
        loaded = design_from_document(doc, use_user_folder=False)
        assert verdict_of(evaluate(loaded.design, loaded.catalog)) == verdict(loaded.design, loaded.catalog)


def test_proposals_say_their_changes_as_the_candidates_do() -> None:
    """Changes are put in words only when proposed: the words are those every candidate has
    when worded at once ("lower Handling from 1 to 0", "drop Twin lasers from Weapons")."""
    for ruleset in ("space-fighter-alpha", "future-perfect", "wing-commander"):
        loaded = design_from_document(largest_failing(ruleset, 1), use_user_folder=False)
        report = evaluate(loaded.design, loaded.catalog)
        said = {e.key: e.text for e in fixes.candidates(loaded.design, report, loaded.catalog, set())}
        assert all(said.values())
        proposals = fixes.propose(loaded.design, loaded.catalog)
        edits = [e for p in proposals for e in p.edits if e.key in said]
        assert edits and all(e.text == said[e.key] and e.wording is None for e in edits)


def test_a_bigger_design_is_judged_no_more_often(monkeypatch: pytest.MonkeyPatch) -> None:
    """Growth from 10 to 200 entries a list: the tries fall as each costs more, so the work
    (tries x size) stays within one budget: at most linear in the design's size."""
    small_doc, large_doc = largest_failing("future-perfect", 10), largest_failing("future-perfect", 200)
    small, large = counted_search(small_doc, monkeypatch), counted_search(large_doc, monkeypatch)
    assert large[1] <= small[1]
    large_size = len(json.dumps(design_from_document(large_doc, use_user_folder=False).design.model_dump(mode="json")))
    assert (large[1] - 1) * large_size <= max(fixes.WORK_BUDGET, fixes.MIN_TRIES * large_size)


def _lists(node: Any, path: str) -> list[tuple[str, list[Any]]]:
    if isinstance(node, dict):
        return [x for k, v in node.items() for x in _lists(v, f"{path}.{k}" if path else k)]
    if isinstance(node, list) and node:
        return [(path, node)]
    return []


def test_check_suggest_says_when_its_budget_ran_out(tmp_path: Path) -> None:
    path = tmp_path / "largest.ship"
    path.write_text(json.dumps(largest_failing("cluster-falk")))
    proc = run_shipyard("check", path, "--suggest", "--no-user-catalog")
    assert proc.returncode == 1, proc.stderr
    assert "Suggested fixes, the best found within the search's budget" in proc.stdout
    assert "  1. lower Guns from 9 to 8 — passes" in proc.stdout
