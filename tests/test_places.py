"""Places named as a user sees them: the form's labels, the catalog's item names, no paths."""

from __future__ import annotations

import re

from shipyard.core.designfile import load_design
from shipyard.core.evaluate import evaluate
from shipyard.core.places import place
from shipyard.core.registry import rulesets

from .conftest import sample

INTERNAL = re.compile(r"\[\d+\]|\b[a-z]+_[a-z_]+\b|\w\.\w")


def test_a_list_entrys_field_is_named_by_the_list_the_item_and_the_column() -> None:
    loaded = sample("rebel-frigate")
    data = loaded.design.model_dump(mode="json")
    assert place("weapons[0].fire_link", loaded.catalog, data) == "Weapons, Light Laser: fire-link group"
    assert place("weapons[1]", loaded.catalog, data) == "Weapons, Missile/Torpedo"
    assert place("accessories[14].level", loaded.catalog, data) == "Accessories, Crew Quarters: level"
    assert place("technology[1].options.dexterity", loaded.catalog, data) == "Technology, Enhanced Lasers: AI Dex"


def test_a_field_is_named_by_its_label_and_a_budget_by_its_pool() -> None:
    loaded = sample("rebel-frigate")
    data = loaded.design.model_dump(mode="json")
    assert [place(p, loaded.catalog, data) for p in ("armor", "crew", "pilot.name", "accessories")] == [
        "Armor",
        "Crew",
        "Pilot name",
        "Accessories",
    ]
    assert place("budgets.freebies", loaded.catalog, data) == "Storyteller budget: Freebie Points"
    # a column labelled with a catalog reference keeps the pool's name as it is
    assert place("custom_technology[0].cost", loaded.catalog, data) == "Custom technology, #1: Power Points"


def test_no_sample_finding_of_any_ruleset_is_placed_by_a_path() -> None:
    placed = []
    for info in rulesets():
        for file in sorted(info.samples.glob("*.ship")):
            loaded = load_design(file, use_user_folder=False)
            data = loaded.design.model_dump(mode="json")
            for f in evaluate(loaded.design, loaded.catalog).findings:
                if f.path:
                    placed.append(place(f.path, loaded.catalog, data))
    assert placed and [p for p in placed if INTERNAL.search(p)] == []


def test_a_place_the_form_does_not_show_reads_in_words() -> None:
    catalog = sample("rebel-frigate").catalog
    data = {"spares": [{"weapon": "heavy-laser", "fire_link": "A"}]}
    assert place("spares[0].fire_link", catalog, data) == "Spares, Heavy Laser: fire link"
    assert place("spares[3]", catalog, data) == "Spares, #4"
