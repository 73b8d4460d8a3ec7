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
from .sheets import is_notes_page
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


def test_a_transforming_design_s_other_form_and_a_weapon_of_another_scale_reach_the_table(
    workers: list[Any], tmp_path: Path
) -> None:
    """A transforming fighter's other form (its own Handling, Soak, Move and Structure, its own
    Structure track) was shown only as a name on the sheet and not at all on the card or the
    Foundry actor; a weapon built for another scale than the ship's looked like the ship's own
    on the sheet and the card. Each output now carries both, as the report has them."""
    import json

    from shipyard.core.evaluate import evaluate
    from shipyard.core.shown import design_table
    from shipyard.render.printing import print_designs

    from .conftest import call_shipyard
    from .test_printing import pages_text

    samples = registry.get("space-fighter-alpha").samples
    robot, frigate = tmp_path / "robot.ship", tmp_path / "frigate.ship"
    forms = 'forms=[{"name": "Robot", "handling": -3, "soak": 4, "move": 0, "structure": 13}]'
    tech = 'technology=[{"id": "High Powered Lasers"}, {"id": "transformation", "level": 1}]'
    assert call_shipyard("set", samples / "rebel-fighter.ship", tech, forms, "-o", robot).returncode in (0, 1)
    assert call_shipyard(
        "set", samples / "rebel-frigate.ship", "weapons[0].scale=Starfighter", "-o", frigate
    ).returncode in (0, 1)
    loaded = load_design(robot, use_user_folder=False)
    form = design_table(evaluate(loaded.design, loaded.catalog).forms[0])
    fig = {f.id: f.value for f in form.figures}
    sheet, cards = tmp_path / "sheet.pdf", tmp_path / "cards.pdf"
    print_designs([robot, frigate], sheet, workers=workers, use_user_folder=False)
    print_designs([robot, frigate], cards, sheet="cards", workers=workers, use_user_folder=False)
    # the robot's sheet, with its Forms box, has no room for notes: they follow it on a page
    (robot_sheet, frigate_sheet) = [t for t in pages_text(sheet) if not is_notes_page(t)]
    (card_text,) = pages_text(cards)
    stats = f"Handling {fig['handling']} · Soak {fig['soak']} · Move {fig['move']} · Power {fig['power']}"
    assert f"FORMS Robot: {stats} · Structure {fig['structure']}" in robot_sheet
    track = next(s for s in form.states if s.id == "structure")
    assert robot_sheet.count(" -13 ") >= 2 and track.boxes == 27  # its own track of boxes beside the ship's
    assert f"Form Robot: Hndl {fig['handling']} · Soak {fig['soak']} · Move {fig['move']} · Struct 13" in card_text
    assert "Transformation (1) Spd -2" in card_text  # a technology's Speed says it is one
    assert "Light Laser 2 turret Starfighter +1" in frigate_sheet  # the Scale column, shown for it
    assert "Light Laser turret Starfighter scale" in card_text
    proc = call_shipyard("export", "foundry", robot, "-o", tmp_path / "vtt", "--no-user-catalog")
    assert proc.returncode == 0, proc.stderr
    actor = json.loads((tmp_path / "vtt" / "robot.json").read_text(encoding="utf-8"))
    held = actor["system"]["attributes"]["forms"]
    assert held["Rebel_Fighter_Robot-structure"] == {
        "dtype": "Number", "value": 13, "label": "Rebel Fighter: Robot: Structure", "group": "forms"
    }  # fmt: skip
    assert held["Rebel_Fighter_Robot-structure-ticked"]["max"] == 27
    assert actor["system"]["groups"]["forms"]["label"] == "Forms and members"


def test_stress_ticked_in_play_reaches_every_output_that_shows_the_tracks(workers: list[Any], tmp_path: Path) -> None:
    """The guide said the sheet, the card and the Foundry actor carry the stress ticked on the
    Damage page, but the record kept no tick, so none did. The gunboat's Hull box 2 and
    Systems boxes 1 and 3 are ticked: the sheet's and the card's boxes are those, not the
    first ones; the actor's tracks count them and name which, its health bar is the Hull
    boxes left; `shipyard check` prints them [x]."""
    import json

    from pypdf import PdfReader

    from shipyard.render.printing import print_loaded

    from .conftest import call_shipyard

    [gunboat] = [f for f in state_designs(tmp_path) if f.name == "scarred-gunboat.ship"]
    loaded = load_design(gunboat, use_user_folder=False)
    out = make_outputs([loaded], workers, ("sheet", "token", "foundry"))
    table = out.tables[0]
    hull, systems = table.state("stress.hull"), table.state("stress.systems")
    assert hull is not None and systems is not None
    assert (hull.marks, hull.ticked, systems.marks, systems.ticked) == ((2,), 1, (1, 3), 2)
    stress = [s for s in table.states if s.id.startswith("stress.")]
    stressed = table.model_copy(update={"states": stress})
    assert check_fields(out.fields, out.prefixes[0], stressed).misses == []
    assert check_actor(out.actors[0], table).misses == []
    card = tmp_path / "card.pdf"
    print_loaded([loaded], card, sheet="cards", workers=workers, fillable=True)
    assert check_fields(PdfReader(card).get_fields() or {}, "", stressed).misses == []
    # the same ticks counted from the first box would be a different record: the checks see it
    first = [s.model_copy(update={"marks": tuple(range(1, s.ticked + 1))}) for s in stress]
    wrong = table.model_copy(update={"states": first})
    assert len(check_fields(out.fields, out.prefixes[0], wrong).misses) == 2
    assert len(check_actor(out.actors[0], wrong).misses) == 2
    tracks = out.actors[0]["system"]["attributes"]["tracks"]
    assert tracks["stress_hull-ticked"]["label"] == "Hull (ticked: box 2)"
    assert tracks["stress_systems-ticked"]["label"] == "Systems (ticked: boxes 1, 3)"
    assert (tracks["stress_systems-ticked"]["value"], tracks["stress_systems-ticked"]["max"]) == (2, 3)
    assert out.actors[0]["system"]["health"]["value"] == 2 and out.actors[0]["system"]["health"]["max"] == 3
    check = call_shipyard("check", gunboat, "--no-user-catalog")
    assert check.returncode == 0, check.stderr
    assert "  Hull     [1] [x] [3]\n" in check.stdout and "  Systems  [x] [2] [x]\n" in check.stdout
    (report,) = json.loads(call_shipyard("check", gunboat, "--json", "--no-user-catalog").stdout)
    track = next(t for t in report["derived"]["tracks"] if t["id"] == "stress.systems")
    assert [b["marked"] for b in track["boxes"]] == [True, False, True]
