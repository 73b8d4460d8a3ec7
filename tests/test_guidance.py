"""Choices the rules forbid come with a Fix that changes their cause, said as a player says it.

The Cluster Falk's Extreme consequence ticked below the Scale that has the slot, a Future
Perfect role whose actions cost more than its allocation: the engine's proposals name the
cure in words ("raise Scale from 3 to 6", "untick Extreme consequence taken", "raise
Helm's allocation from 3 to 5; lower Initiative bid from 2 to 0", "drop Move 1 range band
from Actions bought"), with the numbers from the catalogs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from shipyard.core.designfile import LoadedDesign, load_design
from shipyard.core.evaluate import evaluate
from shipyard.core.fixes import apply, propose
from shipyard.core.places import finding_text

from .conftest import ROOT

CF = ROOT / "catalogs" / "cluster-falk" / "examples"
FP = ROOT / "catalogs" / "future-perfect" / "examples"


def changed(file: Path, change: Any) -> tuple[LoadedDesign, Any]:
    """A sample with ``change(data)`` made to its JSON, resolved as the editor resolves it."""
    loaded = load_design(file, use_user_folder=False)
    data = loaded.design.model_dump(mode="json")
    change(data)
    design = loaded.catalog.module.resolve(type(loaded.design).model_validate(data), loaded.catalog)
    return loaded, design


def _extreme(data: dict[str, Any]) -> None:
    data["consequences"]["extreme"] = {"aspect": "Hull breached", "track": "hull"}


def test_an_extreme_consequence_at_scale_3_offers_scale_6_or_leaving_it_out() -> None:
    loaded, design = changed(CF / "brigand-gunboat.ship", _extreme)
    extreme = loaded.catalog.item("consequences", "extreme")
    assert design.scale == 3 and extreme is not None and extreme.min_scale == 6 and extreme.value == 8
    report = evaluate(design, loaded.catalog)
    (error,) = [f for f in report.findings if f.severity.value == "error"]
    assert (error.code, error.path, error.actual, error.limit) == (
        "consequence-not-available",
        "consequences.extreme",
        3,
        6,
    )
    proposals = propose(design, loaded.catalog)
    assert [p.text for p in proposals] == ["raise Scale from 3 to 6", "untick Extreme consequence taken"]
    assert all(p.passes and p.effects == ["no errors left (was 1)"] for p in proposals)
    raised = apply(design, proposals[0].edits, loaded.catalog)
    assert raised.scale == 6 and raised.consequences.extreme is not None and evaluate(raised, loaded.catalog).valid
    left_out = apply(design, proposals[1].edits, loaded.catalog)
    assert left_out.scale == 3 and left_out.consequences.extreme is None


def _second_move(data: dict[str, Any]) -> None:
    data["plan"]["actions"].append({"role": "helm", "action": "move-1"})


def test_an_over_spent_helm_offers_dropping_an_action_or_raising_its_allocation() -> None:
    # The damaged frigate: 12 AP, 2 bid, Helm 3 / Tactical 3 / Engineering 4 (all 10
    # allocated); Helm's two Evasive maneuvers (1 AP each) and Move 1 (2 AP, 1 from power)
    # take its 3. A second Move 1 range band (2 AP) makes 6 AP, 5 from the allocation.
    loaded, design = changed(FP / "damaged-frigate.ship", _second_move)
    move = loaded.catalog.item("actions", "move-1")
    assert move is not None and move.ap == 2
    report = evaluate(design, loaded.catalog)
    (error,) = [f for f in report.findings if f.severity.value == "error"]
    assert (error.code, error.path, error.actual, error.limit) == ("role-over-allocation", "plan.helm", 5, 3)
    data = design.model_dump(mode="json")
    assert finding_text("error", error.message, error.path, loaded.catalog, data) == (
        "ERROR: Helm's actions cost 6 AP, 1 paid from power: the other 5 AP are 2 more than the 3 AP "
        "allocated to Helm — at Helm's allocation"
    )
    proposals = propose(design, loaded.catalog)
    assert [p.text for p in proposals] == [
        "drop Move 1 range band from Actions bought",
        "raise Helm's allocation from 3 to 5; lower Initiative bid from 2 to 0",
    ]
    assert all(p.passes for p in proposals)
    raised = apply(design, proposals[1].edits, loaded.catalog)
    plan = raised.plan
    assert (plan.initiative, plan.helm, plan.tactical, plan.engineering) == (0, 5, 3, 4)  # 12 AP, all allocated
    assert evaluate(raised, loaded.catalog).valid


def test_a_raised_allocation_takes_the_ap_not_allocated_first() -> None:
    def spare(data: dict[str, Any]) -> None:
        _second_move(data)
        data["plan"]["engineering"] = 2  # 2 of the 10 AP left unallocated ... and Engineering short
        data["plan"]["actions"] = [a for a in data["plan"]["actions"] if a["role"] != "engineering"]

    loaded, design = changed(FP / "damaged-frigate.ship", spare)
    report = evaluate(design, loaded.catalog)
    assert {f.code: f.actual for f in report.findings if f.code in ("ap-unallocated", "role-over-allocation")} == {
        "ap-unallocated": 2,
        "role-over-allocation": 5,
    }
    texts = [p.text for p in propose(design, loaded.catalog)]
    assert "raise Helm's allocation from 3 to 5" in texts  # the 2 spare AP: nothing else changes
