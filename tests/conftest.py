"""Shared fixtures: the built-in catalog, the sample ships, and a design builder."""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shipyard.core.catalog import load_catalog
from shipyard.core.designfile import LoadedDesign, load_design
from shipyard.core.evaluate import evaluate
from shipyard.core.model import Catalog
from shipyard.core.report import Report
from shipyard.rulesets.space_fighter_alpha import Design

# Qt runs without a screen in tests; set before any QApplication exists.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "catalogs" / "space-fighter-alpha" / "examples"
FURY_EXAMPLES = ROOT / "catalogs" / "space-fury" / "examples"
STATBLOCKS = Path(__file__).resolve().parent / "data" / "statblocks"  # the rules' own stat-block text
SAMPLES = [
    "rebel-fighter",
    "rebel-frigate",
    "alien-disk-fighter",
    "alien-mothership",
    "federation-battlesat",
    "federation-space-station",
]


@pytest.fixture(autouse=True)
def _no_user_catalog(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Tests never read the developer's own house rules or catalog cache."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.getbasetemp() / "xdg-empty"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.getbasetemp() / "xdg-cache"))


@pytest.fixture(scope="module")
def workers() -> Iterator[list[Any]]:
    """Two render worker processes shared by a module's printing tests."""
    from shipyard.render.worker import RenderWorker

    pool = [RenderWorker(), RenderWorker()]
    yield pool
    for w in pool:
        w.close()


def sfa(preset: str = "as-written") -> Catalog:
    return load_catalog("space-fighter-alpha", preset=preset, use_user_folder=False)


def sample(name: str, preset: str = "as-written") -> LoadedDesign:
    return load_design(EXAMPLES / f"{name}.ship", preset=preset, use_user_folder=False)


def build(preset: str = "as-written", **fields: Any) -> tuple[Design, Report]:
    """A starfighter with ``fields`` changed, resolved and evaluated.

    The base costs no freebies: Handling 0, Soak 1 (all Armor), Move 2 match the free dots
    0/1/2 exactly, Structure is the standard 10, Power 0, and one forward Railgun spends
    exactly the 5 Weapon Points (unspent ones would turn into freebies).
    """
    catalog = sfa(preset)
    design = starfighter(catalog, **fields)
    return design, evaluate(design, catalog)


def starfighter(catalog: Catalog, **fields: Any) -> Design:
    """The base starfighter of :func:`build`, with ``fields`` changed, resolved against ``catalog``."""
    base: dict[str, Any] = {
        "name": "Test",
        "scale": "starfighter",
        "crew": 1,
        "handling": 0,
        "soak": 1,
        "armor": 1,
        "shields": 0,
        "move": 2,
        "power": 0,
        "structure": 10,
        "weapons": [{"weapon": "railgun"}],
    }
    base.update(fields)
    return catalog.module.resolve(Design.model_validate(base), catalog)  # type: ignore[no-any-return]


def run_shipyard(
    *args: str | Path,
    stdin: str | None = None,
    cwd: Path = ROOT,
    env: dict[str, str] | None = None,
    timeout: float = 120,
    **kw: Any,
) -> subprocess.CompletedProcess[str]:
    """`python -m shipyard ARGS` as a user runs it: its own process, without SHIPYARD_DEBUG (so no tracebacks)."""
    full_env = {k: v for k, v in os.environ.items() if k != "SHIPYARD_DEBUG"} | (env or {})
    return subprocess.run(
        [sys.executable, "-m", "shipyard", *map(str, args)],
        capture_output=True,
        text=True,
        input=stdin,
        cwd=cwd,
        env=full_env,
        timeout=timeout,
        check=False,
        **kw,
    )


def published(name: str) -> str:
    """A stat block as the rules print it (tests/data/statblocks/NAME.txt)."""
    return (STATBLOCKS / f"{name}.txt").read_text(encoding="utf-8")


def pool(report: Report, pool_id: str) -> tuple[int, int, int, int]:
    """(budget, gained, spent, remaining) of a pool."""
    p = report.pool(pool_id)
    assert p is not None, pool_id
    return p.budget, p.gained, p.spent, p.remaining


def finding(report: Report, code: str) -> Any:
    hits = [f for f in report.findings if f.code == code]
    assert hits, f"no {code!r} finding; got {report.codes()}"
    return hits[0]


RULESETS = Path(__file__).resolve().parent / "data" / "rulesets"  # small rulesets installed by tests


def house_preset(folder: Path, preset_id: str, name: str, overrides: str, ruleset: str = "space-fighter-alpha") -> Path:
    """A house-rule preset in a user catalog folder (returned), as a Storyteller writes one;
    ``overrides`` is the YAML under ``overrides:``, indented by four spaces."""
    presets = folder / ruleset / "presets"
    presets.mkdir(parents=True, exist_ok=True)
    (presets / f"{preset_id}.yaml").write_text(
        f"preset:\n  id: {preset_id}\n  name: {name}\n  source: house rules\n  overrides:\n{overrides}",
        encoding="utf-8",
    )
    return folder


def install_ruleset(monkeypatch: pytest.MonkeyPatch, where: Path, package_folder: Path, ruleset_id: str) -> None:
    """Install a ruleset package the way pip does: on sys.path, with a dist-info naming its entry point."""
    from shipyard.core import registry

    dist = where / f"{package_folder.name}-1.dist-info"
    dist.mkdir(parents=True, exist_ok=True)
    (dist / "entry_points.txt").write_text(
        f"[shipyard.rulesets]\n{ruleset_id} = {package_folder.name}:manifest.yaml\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(package_folder.parent))
    monkeypatch.syspath_prepend(str(where))
    # a registry of its own for the test: undoing the patch gives back the one without it
    monkeypatch.setattr(registry, "_registry", functools.cache(registry._registry.__wrapped__))
    monkeypatch.setattr(registry, "ruleset_module", functools.cache(registry.ruleset_module.__wrapped__))


@pytest.fixture
def dock_test(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> str:
    """The Dock Test ruleset (tests/data/rulesets/dock_test) installed for one test."""
    install_ruleset(monkeypatch, tmp_path / "site", RULESETS / "dock_test", "dock-test")
    return "dock-test"
