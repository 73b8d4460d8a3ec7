"""Catalog integrity: sources, aliases, presets, and completeness against the text."""

from __future__ import annotations

import re

import pytest

from shipyard.core.catalog import load_catalog
from shipyard.core.items import PricedItem
from shipyard.core.presets import with_preset

from .conftest import ROOT, sfa, source_text

SEED, needs_seed = source_text("000_e97b8f394ca4157b.txt", "Space Fighter Alpha")


def test_every_entry_cites_a_source_section() -> None:
    cat = sfa()
    for kind, items in cat.items.items():
        for item in items.values():
            assert item.source.strip(), f"{kind} {item.id} has no source"
    assert all(r.definition.source.strip() for r in cat.rules)
    assert all(p.source.strip() for p in cat.pools)
    assert all(s.source.strip() for s in cat.meta.stats)
    assert all(p.source.strip() for p in cat.presets.values())


def test_every_name_and_alias_resolves_to_its_item() -> None:
    cat = sfa()
    for kind, items in cat.items.items():
        for item in items.values():
            for name in (item.id, item.name, *item.aliases):
                assert cat.resolve(kind, name) == item.id, (kind, name)


@pytest.mark.parametrize("preset", ["as-written", "sample-ships"])
def test_every_preset_applies(preset: str) -> None:
    cat = load_catalog("space-fighter-alpha", preset=preset, use_user_folder=False)
    assert cat.preset is not None and cat.preset.id == preset


def test_sample_ships_preset_changes_exactly_two_entries() -> None:
    base, sample = sfa(), sfa("sample-ships")
    changed = [
        (kind, item_id)
        for kind, items in base.items.items()
        for item_id, item in items.items()
        if sample.item(kind, item_id) != item
    ]
    assert sorted(changed) == [("accessories", "ftl-drive"), ("technology", "force-field")]
    ff = sample.item("technology", "force-field")
    assert isinstance(ff, PricedItem) and ff.cost == 3


def test_switching_presets_replaces_the_overrides_instead_of_adding_to_them() -> None:
    back = with_preset(sfa("sample-ships"), "as-written")
    ff, ftl = back.item("technology", "force-field"), back.item("accessories", "ftl-drive")
    assert isinstance(ff, PricedItem) and ff.cost == 5  # the text's price again, not the sample ships' 3
    assert isinstance(ftl, PricedItem) and ftl.pool is None  # paid from accessory points again
    assert back.preset is not None and back.preset.id == "as-written"
    again = with_preset(back, "sample-ships").item("technology", "force-field")
    assert isinstance(again, PricedItem) and again.cost == 3


@needs_seed
def test_every_advanced_technology_of_the_text_is_in_the_catalog() -> None:
    text = SEED.read_text(encoding="utf-8", errors="replace")
    headings = re.findall(r"^([A-Z][A-Z -]+(?:\(EMP\))?)\nPower Points:", text, flags=re.M)
    assert len(headings) == 30
    cat = sfa()
    for heading in headings:
        assert cat.resolve("technology", heading.strip()) is not None, heading


def test_accessories_match_the_text_list() -> None:
    cat = sfa()
    assert len(cat.kind("accessories")) == 25
    ftl = cat.item("accessories", "ftl-drive")
    assert isinstance(ftl, PricedItem) and (ftl.per_level, ftl.max_level) == (True, 5)
    scoped = {i.id: i.scales for i in cat.kind("accessories").values() if isinstance(i, PricedItem) and i.scales}
    assert scoped["medical-panel"] == ["starfighter"] and scoped["medical-bay"] == ["starship"]
    assert len(scoped) == 12


def test_weapon_chart_numbers() -> None:
    cat = sfa()
    chart = {w.id: (w.speed, w.damage, w.range, w.cost) for w in cat.kind("weapons").values()}  # type: ignore[attr-defined]
    assert chart == {
        "light-laser": (1, 5, 5, 2),
        "medium-laser": (0, 10, 7, 4),
        "heavy-laser": (-2, 15, 10, 6),
        "railgun": (-1, 12, 8, 5),
        "missile": (-1, 20, 20, 4),
        "rocket-salvo": (1, 8, 5, 3),
    }


def test_a_cached_catalog_gives_its_form_only_when_asked() -> None:
    """``shipyard check`` reads the catalog from the cache and never imports the editor's form
    language; the editor, asking the same cached catalog for its form, gets all its pages."""
    import json
    import subprocess
    import sys

    code = (
        "import contextlib, io, json, sys\n"
        "from shipyard.cli import main\n"
        "from shipyard.core.catalog import load_catalog\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    rc = main(['check', {str(ROOT / 'catalogs/space-fighter-alpha/examples/rebel-fighter.ship')!r},"
        " '--no-user-catalog'])\n"
        "before = sorted(m for m in sys.modules if m in ('shipyard.core.form', 'shipyard.core.formview'))\n"
        "form = load_catalog('space-fighter-alpha', use_user_folder=False).form\n"
        "print(json.dumps([rc, before, [p.title for p in form.pages]]))\n"
    )
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120) for _ in "12"]
    first, second = (json.loads(r.stdout or "null") for r in runs)
    assert second is not None, runs[1].stderr
    rc, imported, pages = second  # the second run reads the catalog the first one cached
    assert rc == 0 and imported == []
    assert pages == first[2] and len(pages) >= 6
