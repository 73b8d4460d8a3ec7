"""The plug-in contract as promised (issue 47): an API-1 plug-in keeps working unchanged,
``rulesets --check`` without a path checks every installed ruleset, and a rule type of a
plug-in's own never takes the name of Shipyard's or a capability's.

tests/data/api1-hulls is the package ``shipyard ruleset new hulls --point-buy`` wrote
before capabilities existed (Shipyard at 962dd4d^, plug-in API 1), kept exactly as it was
written: it names the point-buy rule types without declaring the capability.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import ROOT, run_shipyard, scratch_venv
from .test_registry import _site

API1 = ROOT / "tests" / "data" / "api1-hulls" / "shipyard_hulls"
DEMO = ROOT / "tests" / "data" / "plugin-demo" / "shipyard_tiny_gunboats"
# The recipe "A budget per choice" of docs/reference/recipes.md as published with API 1
# (962dd4d^): its scale ladder, as a catalog file of its own.
RECIPE_SCALES = """\
scales:
  ladder:
    - {id: sloop, name: Sloop, source: Hull classes}
    - {id: frigate, name: Frigate, source: Hull classes}
  capacity_multiplier: 1            # required; meaningless here: nothing is multiplied
  capacity_multiplier_source: Hull classes
"""


def installed(tmp_path: Path, package: Path, ruleset: str) -> tuple[Path, Path]:
    """``package`` copied into a scratch site with its entry point; (the site, the copy)."""
    site = _site(tmp_path / "site", {ruleset: f"{package.name}:manifest.yaml"})
    copy = site / package.name
    shutil.copytree(package, copy)
    return site, copy


def shipyard(site: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    return run_shipyard(*args, env={"PYTHONPATH": str(site)})


def test_the_published_api1_point_buy_plugin_works_unchanged(tmp_path: Path) -> None:
    """It failed with "rule type 'stat-cost' is given by the capability 'point-buy' ... add
    'capabilities: [point-buy]'", though docs/rulesets.md promised it keeps working."""
    site, copy = installed(tmp_path, API1, "hulls")
    assert "capabilities" not in (copy / "manifest.yaml").read_text(encoding="utf-8")
    checked = shipyard(site, "rulesets", "--check", copy)
    assert checked.returncode == 0, checked.stderr
    assert "hulls: Hulls 0.1: manifest and catalog read without problems" in checked.stdout
    [note] = [ln for ln in checked.stderr.splitlines() if "point-buy" in ln]
    assert note.startswith(f"shipyard: note: {copy / 'manifest.yaml'}: the catalog uses the capability 'point-buy'")
    assert "rule type 'stat-cost'" in note and "plug-in API 1" in note
    assert "Add 'capabilities: [point-buy]' to manifest.yaml" in note
    check = shipyard(site, "check", copy / "catalog" / "examples" / "sample.ship")
    assert check.returncode == 0, check.stderr
    assert "Result: PASSES" in check.stdout and "Build points" in check.stdout


def test_an_api1_plugin_with_the_published_scales_recipe_works_unchanged(tmp_path: Path) -> None:
    """A ``scales.yaml`` in an API-1 plug-in failed until the capability was declared."""
    site, copy = installed(tmp_path, API1, "hulls")
    (copy / "catalog" / "scales.yaml").write_text(RECIPE_SCALES, encoding="utf-8")
    pools = copy / "catalog" / "pools.yaml"  # the recipe's budget by class
    pools.write_text(pools.read_text().replace("budget: {all: 20}", "budget: {sloop: 20, frigate: 35}"))
    checked = shipyard(site, "rulesets", "--check", copy)
    assert checked.returncode == 0, checked.stderr
    assert "section 'scales'" in checked.stderr and "capabilities: [point-buy]" in checked.stderr
    check = shipyard(site, "check", copy / "catalog" / "examples" / "sample.ship")
    assert check.returncode in (0, 1) and "Build points" in check.stdout, check.stderr  # read and evaluated


def test_a_manifest_that_declares_the_capability_gets_no_note(tmp_path: Path) -> None:
    """Declaring the capability, as the note says, stops the note."""
    site, copy = installed(tmp_path, API1, "hulls")
    manifest = copy / "manifest.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + "capabilities: [point-buy]\n", encoding="utf-8")
    checked = shipyard(site, "rulesets", "--check", copy)
    assert checked.returncode == 0, checked.stderr
    assert "taken as declared" not in checked.stderr


def test_rulesets_check_without_a_path_checks_every_installed_ruleset(tmp_path: Path) -> None:
    site, copy = installed(tmp_path, API1, "hulls")
    proc = shipyard(site, "rulesets", "--check")
    assert proc.returncode == 0, proc.stderr
    checked = [ln.split(":")[0] for ln in proc.stdout.splitlines()]
    assert set(checked) >= {"hulls", "wing-commander", "future-perfect", "cluster-falk", "space-fury"}
    assert "taken as declared" in proc.stderr  # the plug-in's note, as with its path
    (copy / "catalog" / "rules.yaml").write_text("rules:\n  - {id: x, type: no-such-type, source: X}\n")
    broken = shipyard(site, "rulesets", "--check")
    assert broken.returncode == 2, broken.stderr
    assert f"{copy / 'catalog' / 'rules.yaml'}:2" in broken.stderr and "no-such-type" in broken.stderr
    assert "wing-commander: Wing Commander" in broken.stdout  # the others are still checked


@pytest.mark.parametrize(
    ("name", "owner"), [("stat-range", "Shipyard's core"), ("member-count", "Shipyard's composition rules")]
)
def test_a_plugin_rule_type_named_like_a_core_one_is_refused_naming_both(tmp_path: Path, name: str, owner: str) -> None:
    """A plug-in's ``stat-range`` replaced Shipyard's silently; so would a composition rule type."""
    site, copy = installed(tmp_path, DEMO, "tiny-gunboats")
    init = copy / "__init__.py"
    init.write_text(
        init.read_text(encoding="utf-8")
        + f"\nRULE_TYPES = {{**RULE_TYPES, {name!r}: RuleType(GunsParams, apply_guns_within_hull)}}\n",
        encoding="utf-8",
    )
    checked = shipyard(site, "rulesets", "--check", copy)
    assert checked.returncode == 2, checked.stderr
    assert (
        "the ruleset package 'shipyard_tiny_gunboats'" in checked.stderr
        and f"rule type {name!r}" in checked.stderr
        and owner in checked.stderr
    )
    check = shipyard(site, "check", copy / "catalog" / "examples" / "sea-wasp.ship")
    assert check.returncode == 2 and owner in check.stderr, check.stderr


def test_a_plugin_rule_type_named_like_a_capabilitys_is_refused_naming_both(tmp_path: Path) -> None:
    site, copy = installed(tmp_path, API1, "hulls")
    init = copy / "__init__.py"
    init.write_text(
        init.read_text(encoding="utf-8").replace('{"systems-within-hull":', '{"stat-cost":'), encoding="utf-8"
    )
    checked = shipyard(site, "rulesets", "--check", copy)
    assert checked.returncode == 2, checked.stderr
    assert "rule type 'stat-cost'" in checked.stderr and "the capability 'point-buy'" in checked.stderr
    assert "'shipyard_hulls'" in checked.stderr


# --- what docs/rulesets.md and the reference now say, run ----------------------------------


@pytest.mark.slow
def test_the_documented_offline_install_works(tmp_path: Path) -> None:
    """Issue 47: an offline install needs hatchling and editables, said nowhere. The line
    docs/rulesets.md gives is run as written, in a scratch environment that sees this one
    (Shipyard, hatchling) and has no index to download from."""
    text = (ROOT / "docs" / "rulesets.md").read_text(encoding="utf-8")
    offline = text.split("**Installing without a network.**", 1)[1]
    assert "`hatchling`" in offline.split("```", 1)[0] and "`editables`" in offline.split("```", 1)[0]
    (line,) = re.findall(r"```sh\n(pip install [^\n]*)\n```", offline)[:1]
    venv = tmp_path / "venv"
    python = scratch_venv(venv)
    package = tmp_path / "shipyard-hulls"
    package.mkdir()
    shutil.copytree(API1, package / API1.name)
    shutil.copyfile(API1.parent / "pyproject.toml", package / "pyproject.toml")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "SHIPYARD_DEBUG")} | {
        "PIP_INDEX_URL": "http://127.0.0.1:9/nowhere"  # nothing can be downloaded
    }
    pip = subprocess.run(
        [str(python), "-m", *shlex.split(line)], cwd=package, env=env, capture_output=True, text=True, timeout=600
    )
    assert pip.returncode == 0, pip.stdout[-3000:] + pip.stderr[-3000:]
    listed = subprocess.run(
        [str(python), "-m", "shipyard", "rulesets"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert listed.returncode == 0 and "hulls  Hulls 0.1" in listed.stdout, listed.stderr


def test_a_text_tables_underline_is_as_wide_as_its_last_column() -> None:
    """Issue 47: the BP column's underline was 24 characters wide whatever the column."""
    from shipyard.core.report import Table
    from shipyard.core.textreport import table_lines

    lines = table_lines(Table(id="costs", title="Costs", columns=["Part", "BP"], rows=[["Hull", 3], ["Armour", 12]]))
    assert lines == ["  Part    BP", "  ------  --", "  Hull    3", "  Armour  12"]
    long = "a description long enough to wrap " * 6
    wrapped = table_lines(Table(id="t", title="T", columns=["Part", "What"], rows=[["Hull", long]]))
    assert len(wrapped) > 3 and all(len(ln) <= 120 for ln in wrapped)  # a long last column still wraps


def test_the_editor_smoke_line_names_each_budget_of_the_design() -> None:
    """Issue 47: the smoke output said "freebies" for every ruleset, with or without such a pool."""
    from .conftest import run_editor_smoke
    from .test_bad_plugins import ARROW

    pooled = run_editor_smoke(ROOT / "catalogs" / "space-fighter-alpha" / "examples" / "rebel-fighter.ship")
    assert pooled.returncode == 0, pooled.stderr
    assert "'Freebie Points': '0 left'" in pooled.stdout and "freebies:" not in pooled.stdout
    plain = run_editor_smoke(ARROW)  # a ruleset without pools
    assert plain.returncode == 0 and "budgets: {}" in plain.stdout, plain.stderr


PAGES = (
    "class Pages:\n"
    "    def __init__(self, doc, binder, report_error):\n"
    "        self.pages = []\n\n"
    "    def refresh(self):\n"
    "        pass\n"
)


@pytest.mark.parametrize(
    ("pages", "said"),
    [
        (PAGES, None),
        (
            PAGES.replace("doc, binder, report_error", "doc"),
            "Shipyard calls editor_pages(document, binder, report_error)",
        ),
        ("raise RuntimeError('the pages broke')\n", "RuntimeError: the pages broke"),
        ("class Other:\n    pass\n", "defines no 'Pages'"),
    ],
)
def test_rulesets_check_holds_hand_written_editor_pages_to_their_contract(
    pages: str, said: str | None, tmp_path: Path
) -> None:
    """``editor_pages`` was not checked: a wrong class failed only when a design opened in the editor."""
    site, copy = installed(tmp_path, DEMO, "tiny-gunboats")
    (copy / "pages.py").write_text(pages, encoding="utf-8")
    manifest = copy / "manifest.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + "editor_pages: shipyard_tiny_gunboats.pages:Pages\n")
    checked = shipyard(site, "rulesets", "--check", copy)
    if said is None:
        assert checked.returncode == 0, checked.stderr
        return
    assert checked.returncode == 2, checked.stderr
    assert "ruleset 'tiny-gunboats': editor pages 'shipyard_tiny_gunboats.pages:Pages'" in checked.stderr
    assert said in checked.stderr and "Traceback" not in checked.stderr


def test_the_ruleset_module_protocol_is_the_hook_tables_required_part() -> None:
    """The Protocol the type checker reads says what the hook table says: the same required
    names, and each function hook with the parameters Shipyard passes, by the same names."""
    import inspect
    import typing

    from shipyard.core import hookspec
    from shipyard.core.model import RulesetModule

    annotated = set(typing.get_type_hints(RulesetModule))
    methods = {n for n in dir(RulesetModule) if not n.startswith("_")}
    assert annotated | methods == set(hookspec.REQUIRED)
    for hook in hookspec.HOOKS:
        if hook.required and hook.shape == "function":
            assert hook.name in methods and hook.name not in annotated, hook.name
            params = inspect.signature(getattr(RulesetModule, hook.name)).parameters
            positional = [n for n, p in params.items() if p.kind is not inspect.Parameter.KEYWORD_ONLY]
            keywords = [n for n, p in params.items() if p.kind is inspect.Parameter.KEYWORD_ONLY]
            assert (positional, keywords) == (["self", *hook.params], list(hook.keywords)), hook.name
        elif hook.required:
            assert hook.name in annotated and hook.name not in methods, hook.name
