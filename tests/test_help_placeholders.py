"""Help-text placeholders into a table-valued field: ``{pool:ID.budget.KEY}`` is one number of
the pool's budget (docs/rulesets.md, "Help text and catalog numbers"); ``{pool:ID.budget}``
would have shown a Python dict and is refused by the catalog check, naming an entry to write."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from shipyard.core.catalog import load_catalog
from shipyard.core.errors import InputError
from shipyard.core.formview import help_text

from .conftest import RULESETS, install_ruleset, sfa


def test_a_dotted_field_reads_one_entry_of_a_pools_budget() -> None:
    catalog = sfa()
    text = (
        "Weapon Points: {pool:weapon-points.budget.starfighter} a fighter, {pool:weapon-points.budget.starship} a ship"
    )
    assert help_text(text, catalog) == "Weapon Points: 5 a fighter, 15 a ship"  # pools.yaml, Step Three


def _dock_with_help(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, help_: str) -> Path:
    """A copy of the Dock Test ruleset with a pool and one field whose help is ``help_``."""
    package = tmp_path / "pkgs" / name
    shutil.copytree(RULESETS / "dock_test", package)
    manifest = package / "manifest.yaml"
    manifest.write_text(manifest.read_text().replace("id: dock-test", f"id: {name.replace('_', '-')}"))
    (package / "catalog" / "pools.yaml").write_text(
        "pools:\n  - id: crane-points\n    name: Crane Points\n    budget: {all: 12}\n"
        "    source: Dock Test Rules, Cranes\n",
        encoding="utf-8",
    )
    form = package / "catalog" / "form.yaml"
    form.write_text(
        form.read_text().replace(
            '- {path: name, label: "&Name"}', f'- {{path: name, label: "&Name", help: "{help_}"}}', 1
        ),
        encoding="utf-8",
    )
    install_ruleset(monkeypatch, tmp_path / "site", package, name.replace("_", "-"))
    return form


def test_a_budget_entry_in_help_passes_the_check_and_shows_its_number(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _dock_with_help(tmp_path, monkeypatch, "dock_pool_entry", "{pool:crane-points.budget.all} crane points")
    catalog = load_catalog("dock-pool-entry", use_user_folder=False)
    field = catalog.form.pages[0].sections[0].fields[0]  # type: ignore[union-attr]
    assert help_text(field.help, catalog) == "12 crane points"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("ref", "message"),
    [
        (
            "{pool:crane-points.budget}",
            "{pool:crane-points.budget} is a table of values (all), not one number: name an entry, "
            "e.g. {pool:crane-points.budget.all}",
        ),
        ("{pool:crane-points.budget.sloop}", "pool:crane-points.budget has no entry 'sloop' (it has all)"),
    ],
)
def test_a_whole_table_or_a_missing_entry_stops_the_catalog_with_the_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ref: str, message: str
) -> None:
    name = "dock_pool_" + ("whole" if ref.endswith("budget}") else "missing")
    form = _dock_with_help(tmp_path, monkeypatch, name, f"{ref} crane points")
    with pytest.raises(InputError) as caught:
        load_catalog(name.replace("_", "-"), use_user_folder=False)
    [problem] = caught.value.problems
    line = next(i for i, t in enumerate(form.read_text().splitlines(), 1) if "crane points" in t)
    assert (problem.file, problem.line) == (str(form), line)
    assert message in str(caught.value)
