"""Point-buy is a capability a ruleset opts into, not the neutral core's (issue 30).

The core's own rule types are the neutral ones; the point-buy rule types come from the
capability a manifest declares (``capabilities: [point-buy]``), found through the
``shipyard.capabilities`` entry point. A plug-in written before that names a point-buy
type and is told the line to add. A budget that follows a choice of the design is a pool
feature (``budget_by``), checked against the design's model when the catalog loads.
"""

from __future__ import annotations

import itertools
import json
import shutil
from pathlib import Path

import pytest

from shipyard.cli import main
from shipyard.core.capability import installed, load
from shipyard.core.catalog import load_catalog
from shipyard.core.designfile import design_from_document
from shipyard.core.errors import InputError, Problem
from shipyard.core.evaluate import evaluate
from shipyard.core.registry import rulesets
from shipyard.core.report import REPORT_FORMAT, Report
from shipyard.core.rules import CORE_RULE_TYPES
from shipyard.core.rulesetcheck import check_folder

from .conftest import EXAMPLES, finding, install_ruleset

_PACKAGES = itertools.count()
DEMO = Path(__file__).resolve().parent / "data" / "plugin-demo" / "shipyard_tiny_gunboats"

pytestmark = pytest.mark.usefixtures("fresh_catalogs")  # copies of Tiny Gunboats share its id

POINT_BUY_TYPES = {
    "priority",
    "stat-cost",
    "item-cost",
    "item-levels",
    "scale-restricted",
    "recommended-items",
    "exchange",
    "pool-limit",
}
GUN_RULES = (
    "  - {id: gun-cost, type: stat-cost, stat: guns, pool: gun-points, base: 0, cost_above: 1, source: Guns}\n"
    "  - {id: gun-limit, type: pool-limit, pools: [gun-points], source: Guns}\n"
)


def gunboats(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    *,
    pools: str,
    capabilities: str = "capabilities: [point-buy]\n",
    size_field: bool = False,
) -> Path:
    """A copy of Tiny Gunboats that pays for its guns from a pool, installed for one test;
    ``size_field`` gives its design a ``size`` choice (small or large)."""
    # a package name of its own: an imported package stays in sys.modules after its test
    pkg = tmp_path / "pkgs" / f"tiny_capability_{next(_PACKAGES)}"
    shutil.copytree(DEMO, pkg)
    manifest = pkg / "manifest.yaml"
    manifest.write_text(manifest.read_text() + capabilities, encoding="utf-8")
    if size_field:
        module = pkg / "__init__.py"
        text = module.read_text().replace("from typing import Any\n", "from typing import Any, Literal\n", 1)
        text = text.replace(
            "    hull: int = Field(default=3, ge=0, le=99)\n",
            '    size: Literal["small", "large"] = "small"\n    hull: int = Field(default=3, ge=0, le=99)\n',
            1,
        )
        module.write_text(text, encoding="utf-8")
    (pkg / "catalog" / "pools.yaml").write_text(pools, encoding="utf-8")
    rules = pkg / "catalog" / "rules.yaml"
    rules.write_text(rules.read_text() + GUN_RULES, encoding="utf-8")
    install_ruleset(monkeypatch, tmp_path / "site", pkg, "tiny-gunboats")
    return pkg


def refused() -> list[Problem]:
    """The problems that stop the installed copy's catalog from loading (it must not load)."""
    with pytest.raises(InputError) as caught:
        load_catalog("tiny-gunboats", use_user_folder=False)
    return caught.value.problems


def gunboat(**design: object) -> Report:
    doc = {"format_version": 2, "ruleset": "tiny-gunboats", "design": {"name": "Test", **design}}
    loaded = design_from_document(doc, use_user_folder=False)
    return evaluate(loaded.design, loaded.catalog)


# --- the capability and the core ---------------------------------------------------------


def test_the_core_keeps_the_neutral_rule_types_and_point_buy_is_an_installed_capability() -> None:
    assert set(CORE_RULE_TYPES) == {"stat-range", "sum-equals"}
    assert installed()["point-buy"] == "shipyard.pointbuy:CAPABILITY"
    capability = load("point-buy")
    assert set(capability.rule_types) == POINT_BUY_TYPES
    declared = {info.id: info.manifest.capabilities for info in rulesets() if info.distribution == "shipyard"}
    assert declared["space-fighter-alpha"] == ["point-buy"]
    assert [ruleset for ruleset, caps in declared.items() if caps] == ["space-fighter-alpha"]


def test_check_json_carries_the_priority_as_a_figure_under_report_format_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The Rebel Fighter (H-1 S2 M1): the cheapest order gives Soak 2, Move 1, Handling 0, and
    Handling one below its 0 free dots pays back 5: net -5 Freebie Points."""
    main(["check", str(EXAMPLES / "rebel-fighter.ship"), "--json", "--no-user-catalog"])
    (data,) = json.loads(capsys.readouterr().out)
    assert data["format"] == REPORT_FORMAT == 2
    assert "priorities" not in data
    (fig,) = [f for f in data["derived"]["figures"] if f["id"] == "priority"]
    assert fig["value"] == {
        "rule": "attribute-priority",
        "order": {"handling": 0, "soak": 2, "move": 1},
        "pinned": False,
        "cost": -5,
        "wasted": 0,
        "best_cost": -5,
    }
    assert fig["detail"] == (
        "Free dots: Soak 2, Move 1, Handling 0 (chosen automatically: wastes least). Net cost -5 Freebie Points."
    )


def test_the_text_report_prints_the_priority_in_words_not_as_data(capsys: pytest.CaptureFixture[str]) -> None:
    main(["check", str(EXAMPLES / "rebel-fighter.ship"), "--no-user-catalog"])
    out = capsys.readouterr().out
    (line,) = [ln for ln in out.splitlines() if "Attribute priority" in ln]
    assert "Free dots: Soak 2, Move 1, Handling 0" in line and "{" not in line


# --- a plug-in and the capability --------------------------------------------------------


def test_a_plugin_using_point_buy_rule_types_without_declaring_them_gets_the_capability_inferred(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plug-in written against API 1 before the capability existed: its catalog names
    stat-cost and pool-limit, its manifest no capability. docs/rulesets.md promises such a
    manifest keeps working unchanged: the capability is taken as declared, and ``rulesets
    --check`` says so with the line to add (tests/test_plugin_contract.py)."""
    pkg = gunboats(
        tmp_path,
        monkeypatch,
        pools="pools:\n  - {id: gun-points, name: Gun Points, budget: {all: 2}, source: Guns}\n",
        capabilities="",
    )
    report = gunboat(hull=4, guns=3)
    (pool,) = report.pools
    assert (pool.budget, pool.spent, pool.remaining) == (2, 3, -1)
    notes: list[str] = []
    check_folder(pkg, notes)
    assert [n.split(" (")[0] for n in notes] == ["the catalog uses the capability 'point-buy'"]
    assert "rule type 'stat-cost'" in notes[0] and "Add 'capabilities: [point-buy]'" in notes[0]


def test_declaring_the_capability_makes_the_rule_types_work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gunboats(
        tmp_path, monkeypatch, pools="pools:\n  - {id: gun-points, name: Gun Points, budget: {all: 2}, source: Guns}\n"
    )
    report = gunboat(hull=4, guns=3)
    (pool,) = report.pools
    assert (pool.budget, pool.spent, pool.remaining) == (2, 3, -1)
    assert finding(report, "pool-over-budget").message == "Gun Points over budget by 1: spent 3 of 2"


def test_an_unknown_capability_is_refused_naming_the_installed_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pkg = gunboats(
        tmp_path,
        monkeypatch,
        pools="pools:\n  - {id: gun-points, name: Gun Points, budget: {all: 2}, source: Guns}\n",
        capabilities="capabilities: [point-bye]\n",
    )
    (problem,) = refused()
    assert problem.message == "unknown capability 'point-bye'; did you mean 'point-buy'?"
    assert (problem.file, problem.path, problem.allowed) == (str(pkg / "manifest.yaml"), "capabilities", "point-buy")


# --- a budget per choice -----------------------------------------------------------------

SIZE_POOL = (
    "pools:\n  - {id: gun-points, name: Gun Points, budget_by: size, budget: {small: 2, large: 4}, source: Guns}\n"
)


def test_a_budget_follows_the_designs_choice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three guns: over a small gunboat's 2 gun points by 1; within a large one's 4."""
    gunboats(tmp_path, monkeypatch, pools=SIZE_POOL, size_field=True)
    small = gunboat(hull=4, guns=3)
    (pool,) = small.pools
    assert (pool.budget, pool.budget_note, pool.remaining) == (2, "for size small", -1)
    assert not small.valid and finding(small, "pool-over-budget").limit == 2
    large = gunboat(size="large", hull=4, guns=3)
    (pool,) = large.pools
    assert large.valid and (pool.budget, pool.budget_note, pool.remaining) == (4, "for size large", 1)
    assert large.scale == ""  # a choice, not a scale: nothing says "Large scale"


def test_the_storytellers_budget_still_wins_and_says_what_the_choice_gave(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tiny Gunboats' design has no ``budgets``: the view gives the Storyteller's setting."""
    pkg = gunboats(tmp_path, monkeypatch, pools=SIZE_POOL, size_field=True)
    module = pkg / "__init__.py"
    module.write_text(
        module.read_text().replace(
            'return DesignView(None, {"hull": design.hull, "guns": design.guns}, [])',
            'return DesignView(None, {"hull": design.hull, "guns": design.guns}, [], '
            'budget_overrides={"gun-points": 3})',
        ),
        encoding="utf-8",
    )
    (pool,) = gunboat(size="large", hull=4, guns=3).pools
    assert (pool.budget, pool.budget_note) == (3, "set by the Storyteller (rules give 4 for size large)")


def test_budgets_for_values_the_choice_cannot_take_or_missing_ones_are_catalog_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pkg = gunboats(
        tmp_path,
        monkeypatch,
        pools=SIZE_POOL.replace("large: 4", "huge: 9"),
        size_field=True,
    )
    got = [(p.message, p.file, p.line, p.path, p.allowed) for p in refused()]
    pools = str(pkg / "catalog" / "pools.yaml")
    assert got == [
        (
            "pool 'gun-points': a budget for 'huge', which size cannot be",
            pools,
            2,
            "pools.gun-points.budget.huge",
            "small, large",
        ),
        ("pool 'gun-points': no budget for 'large', which size can be", pools, 2, "pools.gun-points.budget", None),
    ]


def test_a_budget_by_that_names_no_field_is_a_catalog_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gunboats(
        tmp_path,
        monkeypatch,
        pools="pools:\n  - {id: gun-points, name: Gun Points, budget_by: colour, budget: {red: 2}, source: Guns}\n",
    )
    (problem,) = refused()
    assert problem.message == "pool 'gun-points': budget_by 'colour' is no field of the design"
    assert problem.allowed == "name, hull, guns, notes"


def test_a_value_without_a_budget_is_a_finding_at_the_choice_not_an_exception(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A choice whose values the model does not list (the hull, a number): hull 4 has no budget."""
    gunboats(
        tmp_path,
        monkeypatch,
        pools=SIZE_POOL.replace("size", "hull").replace("{small: 2, large: 4}", "{'3': 2, '5': 4}"),
    )
    assert gunboat(hull=3, guns=2).valid
    report = gunboat(hull=4, guns=2)
    missing = finding(report, "pool-budget-not-given")
    assert (missing.severity, missing.path, missing.actual, missing.limit) == ("error", "hull", "4", ["3", "5"])
    assert missing.message == "Gun Points: no budget for hull '4'; the catalog gives one for 3, 5"
    (pool,) = report.pools
    assert (pool.budget, pool.budget_note) == (0, "hull 4 has no budget")


SCALED_POOLS = (
    "pools:\n  - {id: gun-points, name: Gun Points, budget: {boat: 2, ship: 6}, source: Guns}\n"
    "scales:\n  ladder:\n    - {id: boat, name: Boat, source: Sizes}\n    - {id: ship, name: Ship, source: Sizes}\n"
    "  capacity_multiplier: 2\n  capacity_multiplier_source: Sizes\n"
)


def test_the_scale_ladder_is_the_capabilitys_section(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A ``scales`` section of an API-1 catalog whose manifest declares no capability is read
    as the point-buy capability's (inferred, as above), the note naming the section."""
    pkg = gunboats(tmp_path, monkeypatch, pools=SCALED_POOLS, capabilities="")
    catalog = load_catalog("tiny-gunboats", use_user_folder=False)
    assert catalog.scales is not None and catalog.scales.ids() == ["boat", "ship"]
    notes: list[str] = []
    check_folder(pkg, notes)
    assert len(notes) == 1 and "section 'scales'" in notes[0] and str(pkg / "catalog" / "pools.yaml") in notes[0]


def test_declared_the_scale_ladder_is_read_into_the_catalog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gunboats(tmp_path, monkeypatch, pools=SCALED_POOLS)
    catalog = load_catalog("tiny-gunboats", use_user_folder=False)
    assert catalog.scales is not None and catalog.scales.ids() == ["boat", "ship"]
    assert catalog.scales.offered("designable") == [("Boat", "boat"), ("Ship", "ship")]
    ship = catalog.scales.parse("Ship")
    assert ship is not None and catalog.scales.lookup({"boat": 2, "ship": 6}, ship) == (6, 0)


def test_shipyard_rulesets_says_which_ruleset_uses_a_capability(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rulesets"]) == 0
    blocks = {b.split()[0]: b for b in capsys.readouterr().out.split("\n\n")}
    assert "  capabilities: point-buy; formats: statblock; conversions: trinity\n" in blocks["space-fighter-alpha"]
    assert "capabilities" not in blocks["cluster-falk"]
    assert main(["rulesets", "--json"]) == 0
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)["rulesets"]}
    assert rows["space-fighter-alpha"]["capabilities"] == ["point-buy"] and rows["space-fury"]["capabilities"] == []
