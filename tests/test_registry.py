"""Rulesets as plug-ins: found through entry points, described by manifests, imported late."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from shipyard.core import cachefile, entrypoints, manifestreader, registry
from shipyard.core.errors import InputError

from .conftest import ROOT, call_shipyard, run_shipyard

DEMO = Path(__file__).resolve().parent / "data" / "plugin-demo"


def _site(tmp_path: Path, entries: dict[str, str], dist: str = "homebrew_rules-1.2.dist-info") -> Path:
    """A folder laid out like site-packages with one distribution declaring ``entries``."""
    info = tmp_path / dist
    info.mkdir(parents=True)
    lines = ["[console_scripts]", "x = y:z", "", "[shipyard.rulesets]"] + [f"{k} = {v}" for k, v in entries.items()]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return tmp_path


def test_the_installed_rulesets_register_through_entry_points() -> None:
    found = {ep.name: ep for ep in entrypoints.entry_points()}
    assert found["space-fighter-alpha"].package == "shipyard.rulesets.space_fighter_alpha"
    assert found["space-fury"].manifest == "manifest.yaml"
    assert found["space-fighter-alpha"].distribution == "shipyard"
    ids = [i.id for i in registry.rulesets()]
    assert {"space-fighter-alpha", "space-fury", "cluster-falk", "future-perfect", "wing-commander"} <= set(ids)
    names = [i.name for i in registry.rulesets()]
    assert names == sorted(names, key=str.lower)  # listed by name


def test_entry_points_are_read_from_each_distribution_once(tmp_path: Path) -> None:
    first = _site(tmp_path / "a", {"homebrew": "homebrew_rules:rules.yaml"})
    second = _site(tmp_path / "b", {"homebrew": "other:manifest.yaml"})  # the same distribution, later on the path
    eps = entrypoints.entry_points([str(first), str(second)])
    assert [(e.name, e.package, e.manifest, e.distribution, e.version) for e in eps] == [
        ("homebrew", "homebrew_rules", "rules.yaml", "homebrew-rules", "1.2")
    ]


def test_discovery_imports_no_ruleset() -> None:
    code = (
        "import sys\n"
        "from shipyard.core import registry\n"
        "names = [i.name for i in registry.rulesets()]\n"
        "print(json.dumps([names, sorted(m for m in sys.modules if m.startswith('shipyard.rulesets.'))]))\n"
    )
    out = subprocess.run([sys.executable, "-c", "import json\n" + code], capture_output=True, text=True, timeout=60)
    names, imported = json.loads(out.stdout)
    assert {"Space Fighter Alpha", "Space Fury"} <= set(names) and names == sorted(names, key=str.lower)
    assert imported == [], out.stderr


def test_a_broken_manifest_is_reported_and_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pkg = tmp_path / "broken_rules"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "manifest.yaml").write_text("id: broken\nname: Broken\nversion: '1'\nsource: {title: X}\nkinds: []\n")
    site = _site(tmp_path / "site", {"broken": "broken_rules:manifest.yaml", "missing": "no_such_package"})
    monkeypatch.setattr(sys, "path", [str(tmp_path), str(site), *sys.path])
    registry.forget()
    try:
        assert "broken" not in registry.ids() and "space-fighter-alpha" in registry.ids()
        problems = [str(p) for p in registry.problems()]
        manifest = next(p for p in problems if "broken" in p)
        assert f"{pkg / 'manifest.yaml'}:5:" in manifest and "kinds" in manifest
        assert any("package 'no_such_package' cannot be found" in p for p in problems)
    finally:
        monkeypatch.undo()
        registry.forget()


def test_a_manifest_read_once_comes_from_the_cache_until_it_changes(tmp_path: Path) -> None:
    """The validated manifest is kept in the user's cache folder; an edit, or a cache that
    cannot be read, means the file is read again, never a stale or failed start."""
    file = tmp_path / "manifest.yaml"
    text = "id: homebrew\nname: Homebrew\nversion: '1'\nsource: {title: X}\nkinds: [{id: ship, name: Ship}]\n"
    file.write_text(text, encoding="utf-8")
    assert manifestreader.read_manifest(file).name == "Homebrew"
    cache = cachefile.root() / manifestreader.CACHE_FILE
    assert cache.is_file()
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from shipyard.core import manifestreader\n"
        f"print(manifestreader.read_manifest(Path({str(file)!r})).name, 'ruamel' in ' '.join(sys.modules))\n"
    )
    again = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert again.stdout.split() == ["Homebrew", "False"], again.stderr  # from the cache: no YAML read
    file.write_text(text.replace("Homebrew", "Homebrew Two"), encoding="utf-8")
    assert manifestreader.read_manifest(file).name == "Homebrew Two"
    cache.write_bytes(b"not the cache's JSON")
    assert manifestreader.read_manifest(file).name == "Homebrew Two"
    file.write_text(text.replace("kinds: [{id: ship, name: Ship}]", "kinds: []"), encoding="utf-8")
    with pytest.raises(InputError) as caught:
        manifestreader.read_manifest(file)  # a broken edit is reported with its line, not answered from the cache
    assert f"{file}:5:" in str(caught.value.problems[0])


def test_an_unknown_ruleset_names_the_installed_ones() -> None:
    with pytest.raises(InputError) as exc:
        registry.get("space-fighter")
    text = str(exc.value)
    assert "unknown ruleset 'space-fighter'; did you mean 'space-fighter-alpha'" in text
    assert "space-fighter-alpha" in text.split("allowed: ")[1] and "space-fury" in text.split("allowed: ")[1]


def test_shipyard_rulesets_lists_what_is_installed() -> None:
    proc = call_shipyard("rulesets", "--json")
    assert proc.returncode == 0, proc.stderr
    rows = {r["id"]: r for r in json.loads(proc.stdout)["rulesets"]}
    assert json.loads(proc.stdout)["problems"] == []
    sfa, fury = rows["space-fighter-alpha"], rows["space-fury"]
    assert [k["id"] for k in sfa["kinds"]] == ["starfighter", "starship"]
    assert set(sfa["presets"]) == {"as-written", "sample-ships"} and sfa["default_preset"] == "as-written"
    assert sfa["formats"] == ["statblock"] and sfa["conversions"] == ["trinity"]
    assert fury["commands"] == ["fury"] and [k["id"] for k in fury["kinds"]] == ["fighter", "pilot", "force"]
    assert sfa["distribution"].startswith("shipyard ")
    text = call_shipyard("rulesets").stdout
    assert "space-fury  Space Fury 1" in text and "presets: as-written (default), sample-fighters" in text


def test_rulesets_check_reads_a_folder_before_it_is_installed(tmp_path: Path) -> None:
    pkg = tmp_path / "shipyard_tiny_gunboats"
    shutil.copytree(DEMO / "shipyard_tiny_gunboats", pkg)
    ok = run_shipyard("rulesets", "--check", pkg)
    assert ok.returncode == 0, ok.stderr
    assert "tiny-gunboats: Tiny Gunboats 0.3: manifest and catalog read without problems" in ok.stdout
    form = pkg / "catalog" / "form.yaml"
    form.write_text(form.read_text().replace("{path: guns,", "{path: gunz,"), encoding="utf-8")
    bad = run_shipyard("rulesets", "--check", pkg)
    assert bad.returncode == 2
    assert f"{form}:" in bad.stderr and "the design has no field 'gunz'" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_new_takes_the_ruleset_from_the_kind(tmp_path: Path) -> None:
    out = tmp_path / "big.ship"
    proc = call_shipyard("new", "Leviathan", "--kind", "starship+2", "-o", out)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(out.read_text())
    assert doc["ruleset"] == "space-fighter-alpha" and doc["design"]["scale"] == "starship+2"
    assert doc["design"]["crew"] == 250  # the crew guideline two scales up: 10 x 5 x 5
    pilot = call_shipyard("new", "Red 5", "--kind", "pilot", "-o", tmp_path / "f.ship")
    assert pilot.returncode == 0 and json.loads((tmp_path / "f.ship").read_text())["ruleset"] == "space-fury"
    both = call_shipyard("new", "Red 6", "--kind", "fighter", "-o", tmp_path / "g.ship")  # two rulesets have fighters
    assert both.returncode == 2 and "say which with --ruleset" in both.stderr and not (tmp_path / "g.ship").exists()
    unknown = call_shipyard("new", "X", "--kind", "dreadnought", "-o", tmp_path / "x.ship")
    assert unknown.returncode == 2 and "no installed ruleset offers designs of kind 'dreadnought'" in unknown.stderr
    assert not (tmp_path / "x.ship").exists()
    wrong = call_shipyard("new", "X", "--kind", "starship", "--ruleset", "space-fury", "-o", tmp_path / "y.ship")
    assert wrong.returncode == 2 and "Space Fury has no kind of design 'starship'" in wrong.stderr
    assert "allowed: fighter, pilot, force" in wrong.stderr


def test_catalog_list_covers_every_ruleset_with_the_kind() -> None:
    weapons = call_shipyard("catalog", "list", "weapons")
    assert weapons.returncode == 0, weapons.stderr
    assert not weapons.stdout.startswith("\n")
    assert "Space Fighter Alpha (space-fighter-alpha)" in weapons.stdout and "Space Fury (space-fury)" in weapons.stdout
    tech = call_shipyard("catalog", "list", "technology")
    assert tech.stdout.startswith("technology (") and "force-field" in tech.stdout


def test_nothing_outside_the_rulesets_names_them() -> None:
    """The ids and names of the built-in rulesets appear only where a ruleset lives."""
    names = (
        "space-fighter-alpha",
        "space_fighter_alpha",
        "Space Fighter Alpha",
        "space-fury",
        "space_fury",
        "Space Fury",
    )
    allowed = {ROOT / "shipyard" / "rulesets"}
    offenders = []
    for path in sorted((ROOT / "shipyard").rglob("*.py")):
        if any(path.is_relative_to(a) for a in allowed):
            continue
        text = path.read_text(encoding="utf-8")
        offenders += [f"{path.relative_to(ROOT)}: {n}" for n in names if n in text]
    assert offenders == []
