"""A pytest-xdist worker starts with the caches the starting process made
(``tests/conftest.py``, :func:`_take_warm_caches`), and reads them: a worker that rebuilt
them spent its first seconds parsing every built-in catalog's YAML, once in each worker."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from shipyard.core import catalog as catalog_module
from shipyard.core import catalog_cache
from shipyard.core.catalog import load_catalog
from shipyard.core.registry import rulesets

from .conftest import _take_warm_caches


@pytest.fixture
def forgotten_catalogs() -> Iterator[None]:
    """The catalogs this process holds are forgotten before and after, so each load reads its cache folder."""
    catalog_module._load_layers.cache_clear()
    yield
    catalog_module._load_layers.cache_clear()


def test_a_worker_reads_the_catalogs_the_starting_process_cached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forgotten_catalogs: None
) -> None:
    ruleset = rulesets()[0].id
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "starting" / "cache"))
    made = load_catalog(ruleset, use_user_folder=False)  # the starting process: from YAML, then cached
    _take_warm_caches(tmp_path / "starting" / "cache" / "shipyard", tmp_path / "worker" / "cache" / "shipyard")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "worker" / "cache"))
    catalog_module._load_layers.cache_clear()
    written: list[object] = []
    monkeypatch.setattr(catalog_cache, "write", lambda *args: written.append(args))  # only a rebuilt catalog is written
    read = load_catalog(ruleset, use_user_folder=False)
    assert written == []  # read from the copied cache, not built again
    assert (read.meta, read.items, read.rules, read.presets) == (made.meta, made.items, made.rules, made.presets)


def test_the_copy_kept_between_runs_holds_only_what_the_last_run_made(tmp_path: Path) -> None:
    """The starting process keeps its warm caches in pytest's cache folder for the next run
    (conftest's ``pytest_sessionstart``): a catalog's cache of an older content goes, the
    seal and the current ones are there, and what is not a warm cache is left alone."""
    run, kept = tmp_path / "run", tmp_path / "kept"
    run.mkdir()
    kept.mkdir()
    (run / "seal.key").write_bytes(b"k" * 32)
    (run / "catalog-a-1-new.json").write_text("new")
    (kept / "catalog-a-1-old.json").write_text("old")
    (kept / "README").write_text("pytest's own")
    _take_warm_caches(run, kept, replace=True)
    assert sorted(p.name for p in kept.iterdir()) == ["README", "catalog-a-1-new.json", "seal.key"]
    assert (kept / "seal.key").stat().st_mode & 0o777 == 0o600
