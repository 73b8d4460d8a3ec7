"""Every output of every sample (and of designs with recorded state) against its record sheet.

For each ruleset, every sample and the designs of tests/state_designs.py (damage on a
ship's systems, an empty and a charged power bank, consequences with their aspects) are
made into every output once (record sheet, stat card, fleet book, token, Foundry actor,
stat-block text where the ruleset writes one: tests/outputs_agree.py), and each output
is held against the design's table, which the sheet's text must show too. Any figure or
state that differs or is missing fails, named with its design and output.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from shipyard.core import registry
from shipyard.core.designfile import load_design, sample_files

from .outputs_agree import check_actor, check_design, check_fields, check_page, check_token, make_outputs, misses
from .state_designs import state_designs


@pytest.mark.parametrize("ruleset", [r.id for r in registry.rulesets()])
def test_every_output_shows_what_the_sheet_shows(ruleset: str, workers: list[Any], tmp_path: Path) -> None:
    info = registry.get(ruleset)
    files = sample_files(info.samples) + [f for f in state_designs(tmp_path) if f.parent.name == ruleset]
    loaded = [load_design(f, use_user_folder=False) for f in files]
    out = make_outputs(loaded, workers)
    results = [(f.name, check_design(out, n)) for n, f in enumerate(files)]
    assert misses(results) == []
    for n, (name, by) in enumerate(results):  # each output checked something of each design
        assert all(t.checked > 0 for t in by.values()), name
        table = out.tables[n]  # the actor carries every figure and state of the table
        assert by["foundry"].checked >= len(table.figures) + len(table.states), name
    states = [s for n in range(len(files)) for s in out.tables[n].states]
    if ruleset in ("future-perfect", "cluster-falk"):  # the recorded state was there to be checked
        assert any(s.ticked for s in states) or any(s.text and s.kind == "slot" for s in states)


def test_the_check_fails_on_a_figure_that_differs(workers: list[Any]) -> None:
    """The checks can fail: a Structure of 31 instead of the sheet's 15, a consequence lost."""
    rebel = registry.get("space-fighter-alpha").samples / "rebel-fighter.ship"
    out = make_outputs([load_design(rebel, use_user_folder=False)], workers, ("sheet", "token", "foundry"))
    table = out.tables[0]
    wrong = table.model_copy(
        update={
            "figures": [
                f.model_copy(update={"value": "31", "number": 31}) if f.id == "structure" else f for f in table.figures
            ],
            "key": table.key.model_copy(update={"value": "31"}) if table.key else None,
        }
    )
    assert any("Structure '31'" in m for m in check_page(out.sheets[0], wrong).misses)
    assert any("Structure '31'" in m for m in check_actor(out.actors[0], wrong).misses)
    assert check_token(out.tokens[0], wrong).misses == ["key 31 Structure"]
    hurt = table.model_copy(
        update={"states": [s.model_copy(update={"ticked": 3}) if s.id == "structure" else s for s in table.states]}
    )
    assert check_fields(out.fields, out.prefixes[0], hurt).misses == ["track Structure 3/31"]
    assert any(m.startswith("track Structure") for m in check_actor(out.actors[0], hurt).misses)
    actor = {**out.actors[0], "system": {**out.actors[0]["system"], "power": {"value": 5, "min": 0, "max": 5}}}
    assert any(m.startswith("bar") for m in check_actor(actor, table).misses)
