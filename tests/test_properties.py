"""Properties over generated designs: evaluate never raises; save -> load is identity."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shipyard.core.designfile import LoadedDesign, load_design, save_design
from shipyard.core.evaluate import evaluate
from shipyard.core.findings import Severity
from shipyard.rulesets.space_fighter_alpha import Design

from .conftest import sfa

CAT = sfa()
CAT_SAMPLE = sfa("sample-ships")
WEAPONS = sorted(CAT.kind("weapons"))
TECH = sorted(CAT.kind("technology"))
ACCESSORIES = sorted(CAT.kind("accessories"))
SCALES = ["starfighter", "starship", "starship+1", "starship+3"]
COMPONENT_SCALES = [None, "street-fighter", "starfighter", "starship", "starship+2"]

stat = st.integers(-99, 99)
small = st.integers(-8, 25)

weapon = st.fixed_dictionaries(
    {"weapon": st.sampled_from(WEAPONS)},
    optional={
        "count": st.integers(1, 6),
        "turret": st.booleans(),
        "fire_link": st.sampled_from(["A", "B"]),
        "scale": st.sampled_from(COMPONENT_SCALES[1:]),
    },
)
tech = st.fixed_dictionaries(
    {"id": st.sampled_from(TECH)},
    optional={
        "level": st.integers(1, 7),
        "options": st.dictionaries(
            st.sampled_from(["dexterity", "piloting", "gunnery", "luck"]), st.integers(0, 12), max_size=4
        ),
    },
)
accessory = st.fixed_dictionaries({"id": st.sampled_from(ACCESSORIES)}, optional={"level": st.integers(1, 7)})
form = st.fixed_dictionaries(
    {"name": st.text(min_size=1, max_size=12).filter(str.strip)},
    optional={
        "handling": small,
        "soak": small,
        "move": small,
        "weapons": st.lists(weapon, max_size=3),
        "accessories": st.lists(accessory, max_size=3),
    },
)

design_dict = st.fixed_dictionaries(
    {
        "name": st.text(min_size=1, max_size=40).filter(str.strip),
        "scale": st.sampled_from(SCALES),
        "crew": st.integers(0, 5000),
        "handling": st.one_of(small, stat),
        "soak": small,
        "move": small,
        "power": small,
        "structure": small,
    },
    optional={
        "armor": small,
        "shields": small,
        "concept": st.text(max_size=60),
        "priority": st.permutations(["handling", "soak", "move"]),
        "weapons": st.lists(weapon, max_size=6),
        "technology": st.lists(tech, max_size=6),
        "custom_technology": st.lists(
            st.fixed_dictionaries({"name": st.just("Super-Laser"), "cost": st.integers(0, 20)}), max_size=2
        ),
        "accessories": st.lists(accessory, max_size=10),
        "budgets": st.dictionaries(
            st.sampled_from(["weapon-points", "power-points", "freebies", "accessory-points"]),
            st.integers(0, 60),
            max_size=4,
        ),
        "pilot": st.fixed_dictionaries({"dexterity": st.integers(0, 8), "piloting": st.integers(0, 8)}),
        "forms": st.lists(form, max_size=3),
        "notes": st.text(max_size=100),
    },
)


def _resolved(data: dict[str, Any], preset: str) -> LoadedDesign:
    catalog = CAT if preset == "as-written" else CAT_SAMPLE
    design = catalog.module.resolve(Design.model_validate(data), catalog)
    return LoadedDesign(None, "space-fighter-alpha", preset, design, catalog)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(design_dict, st.sampled_from(["as-written", "sample-ships"]))
def test_evaluate_never_raises_and_reports_consistently(data: dict[str, Any], preset: str) -> None:
    loaded = _resolved(data, preset)
    report = evaluate(loaded.design, loaded.catalog)
    json.dumps(report.model_dump(mode="json"))  # plain data all the way down
    assert report.valid == (
        not any(f.severity == Severity.ERROR for f in report.findings) and all(f.valid for f in report.forms)
    )
    for p in report.pools:
        assert p.remaining == p.budget + p.gained - p.spent
    # Exchanges leave Weapon Points exactly used up; freebies carry every surplus and deficit.
    assert report.pool("weapon-points").remaining == 0  # type: ignore[union-attr]
    over = {f.path for f in report.findings if f.code == "pool-over-budget"}
    assert ("budgets.freebies" in over) == (report.pool("freebies").remaining < 0)  # type: ignore[union-attr]
    assert len(report.forms) == len(loaded.design.forms)


@settings(max_examples=150, deadline=None)
@given(design_dict)
def test_save_then_load_gives_an_equal_design(data: dict[str, Any]) -> None:
    loaded = _resolved(data, "as-written")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "d.ship"
        save_design(loaded, path)
        again = load_design(path, use_user_folder=False)
    assert again.design == loaded.design
