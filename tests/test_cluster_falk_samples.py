"""The five Cluster Falk sample ships: written for Shipyard across the Scale thresholds, each passing."""

from __future__ import annotations

from pathlib import Path

import pytest

from shipyard.core.designfile import load_design
from shipyard.core.evaluate import evaluate
from shipyard.core.report import Report

EXAMPLES = Path(__file__).resolve().parents[1] / "catalogs" / "cluster-falk" / "examples"


def sample(name: str) -> tuple[object, Report]:
    loaded = load_design(EXAMPLES / f"{name}.ship", use_user_folder=False)
    return loaded.design, evaluate(loaded.design, loaded.catalog)


def allowed(report: Report) -> set[str]:
    return {a.id for a in report.derived.actions if a.allowed}


def value(report: Report, figure_id: str) -> object:
    f = report.derived.figure(figure_id)
    assert f is not None, figure_id
    return f.value


# (scale, size, jump range, pilot %, handling, consequence slots, actions it may take that others may not)
EXPECTED = {
    "standard-torpedo": (0, 0, 0, 30, 0, "Mild 2, Moderate 4, Serious 6", {"desperate-attack", "full-defense"}),
    "kestrel-fighter": (
        2,
        2,
        4,
        65,
        0,
        "Mild 2, Moderate 4, Serious 6",
        {"desperate-attack", "full-defense", "jump-to-lightspeed"},
    ),
    "brigand-gunboat": (
        3,
        5,
        3,
        60,
        0,
        "Mild 2, Moderate 4, Serious 6",
        {"desperate-attack", "full-defense", "return-fire", "fire-decoys", "jump-to-lightspeed"},
    ),
    "sentinel-corvette": (
        4,
        8,
        3,
        55,
        0,
        "Mild 2, Moderate 4, Serious 6",
        {"return-fire", "fire-decoys", "point-defense", "special-weapon", "launch", "jump-to-lightspeed"},
    ),
    "dominion-carrier": (
        6,
        14,
        2,
        75,
        -2,
        "Mild 2, Moderate 4, Serious 6, Extreme 8",
        {"return-fire", "fire-decoys", "point-defense", "special-weapon", "launch", "jump-to-lightspeed"},
    ),
}
CONDITIONAL = {
    "desperate-attack",
    "full-defense",
    "return-fire",
    "fire-decoys",
    "point-defense",
    "special-weapon",
    "launch",
    "jump-to-lightspeed",
}


def test_the_samples_span_the_scale_thresholds() -> None:
    assert sorted(p.stem for p in EXAMPLES.glob("*.ship")) == sorted(EXPECTED)
    scales = sorted(e[0] for e in EXPECTED.values())
    assert scales == [0, 2, 3, 4, 6]
    assert any(scale >= 6 and size >= 10 for scale, size, *_ in EXPECTED.values())


@pytest.mark.parametrize("name", list(EXPECTED))
def test_each_sample_passes_with_no_finding(name: str) -> None:
    design, report = sample(name)
    assert report.valid and report.findings == []
    assert str(getattr(design, "notes", "")).startswith("Written for Shipyard: the rules text has no sample ships.")


@pytest.mark.parametrize("name", list(EXPECTED))
def test_each_sample_derives_what_its_scale_and_size_give(name: str) -> None:
    scale, size, jump, pilot, handling, slots, conditional = EXPECTED[name]
    _design, report = sample(name)
    assert (value(report, "scale"), value(report, "size")) == (scale, size)
    assert value(report, "jump-range") == jump
    assert value(report, "skill.pilot") == pilot
    assert value(report, "handling-penalty") == handling
    assert value(report, "consequence-slots") == slots
    assert allowed(report) & CONDITIONAL == conditional


def test_the_corvette_jumps_in_half_a_turn_and_the_carrier_fires_decoys_six_times() -> None:
    _, corvette = sample("sentinel-corvette")
    jump = corvette.derived.action("jump-to-lightspeed")
    assert jump is not None and jump.details["turn"] == "half turn"
    slot = corvette.derived.slot("consequences.mild")
    assert slot is not None and (slot.text, slot.track) == ("Scorched dorsal plating", "hull")
    _, carrier = sample("dominion-carrier")
    decoys = carrier.derived.action("fire-decoys")
    assert decoys is not None and decoys.details["notes"] == "6 a turn (once per gunner or turret)"
    torpedoes = carrier.derived.track("torpedoes.0")
    assert torpedoes is not None and len(torpedoes.boxes) == 12
