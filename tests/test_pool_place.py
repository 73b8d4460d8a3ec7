"""Where a pool's over-budget finding points: the design's own budget setting where it has one
(Space Fighter Alpha's ``budgets.<pool>``), else the design as a whole — never a field the
design does not have (docs/rulesets.md, "Capabilities: point-buy is one of them")."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from shipyard.core.catalog import load_catalog
from shipyard.core.designfile import load_design
from shipyard.core.evaluate import evaluate
from shipyard.core.places import finding_text

from .conftest import build, finding, install_ruleset

DEMO = Path(__file__).resolve().parent / "data" / "plugin-demo" / "shipyard_tiny_gunboats"


# A copy of Tiny Gunboats installed by a test has the installed one's id (conftest.fresh_catalogs).
pytestmark = pytest.mark.usefixtures("fresh_catalogs")


def test_a_fixed_budget_points_at_the_design_not_at_a_budgets_field(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tiny Gunboats with a gun budget of 2 the rules fix (its design has no ``budgets``):
    the Sea Wasp's 3 guns are 1 over, and the finding names no place the design lacks."""
    pkg = tmp_path / "pkgs" / "tiny_pool_place"
    shutil.copytree(DEMO, pkg)
    manifest = pkg / "manifest.yaml"
    manifest.write_text(manifest.read_text() + "capabilities: [point-buy]\n", encoding="utf-8")
    catalog_dir = pkg / "catalog"
    (catalog_dir / "pools.yaml").write_text(
        "pools:\n  - {id: gun-points, name: Gun Points, budget: {all: 2}, source: Guns}\n", encoding="utf-8"
    )
    rules = catalog_dir / "rules.yaml"
    rules.write_text(
        rules.read_text()
        + "  - {id: gun-cost, type: stat-cost, stat: guns, pool: gun-points, base: 0, cost_above: 1, source: Guns}\n"
        "  - {id: gun-limit, type: pool-limit, pools: [gun-points], source: Guns}\n",
        encoding="utf-8",
    )
    install_ruleset(monkeypatch, tmp_path / "site", pkg, "tiny-gunboats")
    loaded = load_design(catalog_dir / "examples" / "sea-wasp.ship", use_user_folder=False)
    report = evaluate(loaded.design, loaded.catalog)
    over = finding(report, "pool-over-budget")
    assert over.message == "Gun Points over budget by 1: spent 3 of 2"
    assert over.path == ""
    assert finding_text("error", over.message, over.path, loaded.catalog, {}) == (
        "ERROR: Gun Points over budget by 1: spent 3 of 2"
    )
    assert load_catalog("tiny-gunboats", use_user_folder=False).pool("gun-points") is not None


def test_a_budget_the_design_sets_is_where_the_finding_points() -> None:
    """Space Fighter Alpha's design keeps the Storyteller's budgets: three railguns on a
    starfighter spend its Weapon Points, the rest is bought with Freebie Points, and those
    are over; the finding points at the design's setting of that budget."""
    _, report = build(weapons=[{"weapon": "railgun"}, {"weapon": "railgun"}, {"weapon": "railgun"}])
    over = finding(report, "pool-over-budget")
    assert (over.message, over.path) == ("Freebie Points over budget by 5: spent 20 of 15", "budgets.freebies")
