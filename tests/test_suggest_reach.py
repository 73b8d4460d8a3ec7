"""``check --suggest``, ``fix`` and Fix... find a fix of one value that lies more than a step away.

The search tried each number only a step down (or up): a cure further off was invisible.
The Alien Disk-Fighter with its Handling, Soak, Move and Medium Laser kept got "none
found", though lowering its Power or its Structure alone makes it pass; with only Handling
kept it was offered two changes (Structure a step down and a turret off) where one would
do, against the guide's promise of the fewest changes first. The same held in every
ruleset: a Future Perfect system damaged past its track, a Wing Commander missile's DRV
beyond its range. A number is now carried past its step to the nearest value that cures,
and a combination of numbers is brought back to the nearest values that still cure.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from shipyard.core.designfile import LoadedDesign, design_from_document
from shipyard.core.evaluate import evaluate
from shipyard.core.fixes import Edit, Proposal, apply, propose

from .conftest import EXAMPLES, ROOT, call_shipyard

DISK = EXAMPLES / "alien-disk-fighter.ship"
KEPT = ("handling", "soak", "move", "weapons[Medium Laser]")


def _keep(*places: str) -> list[str]:
    return [word for place in places for word in ("--keep", place)]


def _suggestions(*args: str | Path) -> list[dict[str, Any]]:
    proc = call_shipyard("check", *args, "--suggest", "--json")
    assert proc.returncode == 1, proc.stderr
    (report,) = json.loads(proc.stdout)
    return report["suggestions"]  # type: ignore[no-any-return]


def _fewest_first(listed: list[tuple[bool, int]]) -> None:
    """Of the proposals listed, (passes, changes): those that pass first, and among them
    and among the others every fix of one value before any of two, of two before three."""
    order = [(not passes, size) for passes, size in listed]
    assert order == sorted(order), listed


def _nearest(loaded: LoadedDesign, proposals: list[Proposal]) -> None:
    """Each number a proposal that passes moves by more than a step is the nearest value
    that passes: a step back toward where it was, the others' changes kept, does not."""
    for p in proposals:
        if not p.passes:
            continue
        for i, e in enumerate(p.edits):
            if (
                e.op != "set"
                or isinstance(e.value, bool)
                or not isinstance(e.value, int)
                or abs(e.value - e.before) < 2
            ):
                continue
            back = e.value + (1 if e.value < e.before else -1)
            nearer = [*p.edits[:i], Edit("set", e.path, back, e.before), *p.edits[i + 1 :]]
            assert not evaluate(apply(loaded.design, nearer, loaded.catalog), loaded.catalog).valid, (p.text, back)


def _loaded(doc: dict[str, Any]) -> LoadedDesign:
    return design_from_document(doc, use_user_folder=False)


def _sample(ruleset: str, name: str) -> dict[str, Any]:
    return json.loads((ROOT / "catalogs" / ruleset / "examples" / f"{name}.ship").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_a_fix_of_one_value_beyond_a_step_is_proposed_where_none_was_found(tmp_path: Path) -> None:
    """The audit's case: Power or Structure lowered alone cures the disk fighter, each one
    change, and ``fix --apply`` writes the one ``check`` numbered."""
    suggestions = _suggestions(DISK, *_keep(*KEPT))
    texts = [s["text"] for s in suggestions]
    for text in ("lower Power from 10 to 6", "lower Structure from 7 to 5"):
        assert text in texts, texts
        assert suggestions[texts.index(text)]["passes"] and len(suggestions[texts.index(text)]["changes"]) == 1
    _fewest_first([(s["passes"], len(s["changes"])) for s in suggestions])
    shown = call_shipyard("check", DISK, "--suggest", *_keep(*KEPT))
    assert "none found" not in shown.stdout and "1. lower Structure from 7 to 5 — passes" in shown.stdout
    out = tmp_path / "fixed.ship"
    n = texts.index("lower Power from 10 to 6") + 1
    fixed = call_shipyard("fix", DISK, *_keep(*KEPT), "--apply", str(n), "-o", out)
    assert fixed.returncode == 0, fixed.stderr
    assert f"wrote {out}: lower Power from 10 to 6; it passes" in fixed.stdout
    assert call_shipyard("check", out).returncode == 0


def test_a_fix_of_one_value_comes_before_one_of_two() -> None:
    """With Handling kept, Structure lowered to where it cures is one change, listed before
    any two (it was offered as a step down and a turret off)."""
    suggestions = _suggestions(DISK, *_keep("handling"))
    texts = [s["text"] for s in suggestions]
    assert "lower Structure from 7 to 5" in texts, texts
    assert not any(t.startswith("lower Structure from 7 to 6;") for t in texts)
    _fewest_first([(s["passes"], len(s["changes"])) for s in suggestions])
    assert all(s["passes"] for s in suggestions)


def test_the_value_proposed_is_the_nearest_that_cures() -> None:
    loaded = _loaded(json.loads(DISK.read_text(encoding="utf-8")))
    keep = {"handling", "soak", "move", "weapons[0]"}
    proposals = propose(loaded.design, loaded.catalog, keep=keep)
    assert [p.text for p in proposals if len(p.edits) == 1] == [
        "lower Structure from 7 to 5",
        "lower Power from 10 to 6",
    ]
    _nearest(loaded, proposals)


def test_numbers_combined_are_brought_back_to_the_nearest_values_that_cure() -> None:
    """A budget so small that neither number alone reaches a cure: each is carried as far as
    it helps, and the pair that cures is brought back, each number to the nearest value
    with which the other still makes the design pass (not Power all the way down)."""
    doc = json.loads(DISK.read_text(encoding="utf-8"))
    doc["design"]["budgets"] = {"freebies": 5}
    loaded = _loaded(doc)
    proposals = propose(loaded.design, loaded.catalog, keep={"handling", "soak", "move", "weapons[0]"})
    assert [p.text for p in proposals] == ["lower Power from 10 to 8; lower Structure from 7 to 1"]
    assert proposals[0].passes
    _nearest(loaded, proposals)


def test_future_perfect_damage_past_its_track_is_lowered_back_to_it(tmp_path: Path) -> None:
    """A system's core damage more than a step past its track: "none found" before; the cure
    is one value, and ``check --suggest`` lists it first."""
    doc = _sample("future-perfect", "damaged-frigate")
    doc["design"]["systems"][3]["core_damage"] = 5
    path = tmp_path / "frigate.ship"
    path.write_text(json.dumps(doc), encoding="utf-8")
    shown = call_shipyard("check", path, "--suggest")
    assert shown.returncode == 1, shown.stderr
    assert "  1. lower Systems, Torpedo bay: core damage from 5 to 3 — passes" in shown.stdout
    loaded = _loaded(doc)
    _nearest(loaded, propose(loaded.design, loaded.catalog))


def test_future_perfect_a_bid_lowered_by_two_comes_before_pairs() -> None:
    """An initiative bid raised more than a step past what the plan allows: lowering the bid
    alone is one change and comes first; the pairs of a step each come after it."""
    doc = _sample("future-perfect", "damaged-frigate")
    doc["design"]["plan"]["initiative"] = 4
    loaded = _loaded(doc)
    proposals = propose(loaded.design, loaded.catalog)
    assert proposals[0].text == "lower Initiative bid from 4 to 2" and proposals[0].passes
    _fewest_first([(p.passes, len(p.edits)) for p in proposals])
    _nearest(loaded, proposals)


@pytest.mark.parametrize("ship", ["broadsword", "thunderbolt"])
def test_wing_commander_a_missiles_drv_beyond_its_range_is_lowered_into_it(ship: str) -> None:
    """A torpedo's DRV above the rules' range: lowering it to the range's end is one change
    (only dropping the torpedo was offered)."""
    doc = _sample("wing-commander", ship)
    doc["design"]["missiles"][0]["drv"] = 7
    loaded = _loaded(doc)
    proposals = propose(loaded.design, loaded.catalog)
    texts = [p.text for p in proposals]
    assert "lower Missile loadout, Torpedo: DRV from 7 to 5" in texts, texts
    assert all(p.passes and len(p.edits) == 1 for p in proposals)
    _nearest(loaded, proposals)
