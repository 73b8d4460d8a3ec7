"""Hostile plug-ins, distributions and caches: each is named and skipped, nothing stops Shipyard.

The reproductions of issue 28's probe, each run as a user meets it: a real ``shipyard``
process with the plug-in installed on its ``PYTHONPATH`` (an ``entry_points.txt`` in a
``*.dist-info`` folder, as pip leaves it), checked for its exit status, its notes, and
that everything else still works.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from shipyard.core import manifestreader
from shipyard.core.errors import InputError
from shipyard.core.manifest import DesignKind, check_kind_pattern

from .conftest import ROOT, run_editor_smoke, run_shipyard
from .test_registry import _site

ARROW = ROOT / "catalogs" / "wing-commander" / "examples" / "arrow.ship"
FRIGATE = ROOT / "catalogs" / "future-perfect" / "examples" / "frigate.ship"
MANIFEST = (
    "id: {id}\nname: {name}\nversion: '1'\nsource: {{title: Homebrew}}\n"
    "kinds:\n  - {{id: skiff, name: Skiff{matches}}}\n"
)


def shipyard(site: Path, *args: str | Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``shipyard ARGS`` with ``site`` on its path, as if the plug-in were pip-installed there."""
    return run_shipyard(*args, env={"PYTHONPATH": str(site)}, timeout=timeout)


def package(site: Path, name: str, init: str = "", manifest: str | None = None) -> Path:
    folder = site / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "__init__.py").write_text(init, encoding="utf-8")
    if manifest is not None:
        (folder / "manifest.yaml").write_text(manifest, encoding="utf-8")
    return folder


def notes(proc: subprocess.CompletedProcess[str]) -> list[str]:
    return [ln for ln in proc.stderr.splitlines() if ln.startswith("shipyard: note: ")]


def assert_clean(proc: subprocess.CompletedProcess[str], status: int = 0) -> None:
    assert "Traceback" not in proc.stderr, proc.stderr
    assert "internal error" not in proc.stderr, proc.stderr
    assert proc.returncode == status, (proc.returncode, proc.stderr)


RAISES = {
    "RuntimeError": "raise RuntimeError('plug-in parent is broken')",
    "SystemExit": "raise SystemExit(5)",
    "KeyboardInterrupt": "raise KeyboardInterrupt",
}


@pytest.mark.parametrize("raised", sorted(RAISES))
def test_a_plugin_whose_parent_package_raises_is_named_and_skipped(raised: str, tmp_path: Path) -> None:
    """``pkg.sub:manifest.yaml`` whose ``pkg`` raises on import: --help printed a traceback,
    check exited 70; SystemExit and KeyboardInterrupt ended Shipyard silently (5, 130)."""
    site = _site(tmp_path / "site", {"broken": "brokenpkg.sub:manifest.yaml"}, dist="broken_rules-1.0.dist-info")
    package(site, "brokenpkg", RAISES[raised])
    help_ = shipyard(site, "--help")
    assert_clean(help_)
    assert "check" in help_.stdout
    [note] = notes(help_)
    assert "entry point 'broken' of broken-rules 1.0" in note and raised in note
    check = shipyard(site, "check", ARROW, "--no-user-catalog")
    assert_clean(check)
    assert "Result: PASSES" in check.stdout
    listing = shipyard(site, "rulesets", "--json")
    assert_clean(listing)
    data = json.loads(listing.stdout)
    assert {r["id"] for r in data["rulesets"]} >= {"wing-commander", "future-perfect", "cluster-falk"}
    assert any(raised in p and "'broken'" in p for p in data["problems"])


@pytest.mark.parametrize("raised", sorted(RAISES))
def test_a_plugin_raising_when_its_code_is_imported_is_an_input_error(raised: str, tmp_path: Path) -> None:
    """Its manifest is fine, so it is listed; making a design of it imports it, and that fails
    with a message naming it (exit 2), never a silent end of the process."""
    site = _site(tmp_path / "site", {"homebrew": "homebrew_rules:manifest.yaml"})
    manifest = MANIFEST.format(id="homebrew", name="Homebrew", matches="")
    folder = package(site, "homebrew_rules", RAISES[raised], manifest)
    (folder / "catalog").mkdir()
    (folder / "catalog" / "ruleset.yaml").write_text("ruleset: {}\n", encoding="utf-8")
    proc = shipyard(site, "new", "--kind", "skiff", "X", "-o", tmp_path / "x.ship")
    assert_clean(proc, 2)
    assert "the ruleset package 'homebrew_rules' cannot be imported" in proc.stderr and raised in proc.stderr
    assert not (tmp_path / "x.ship").exists()


def test_an_entry_points_file_that_is_not_utf8_is_noted_and_skipped(tmp_path: Path) -> None:
    site = tmp_path / "site"
    dist = site / "latin_one-2.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "entry_points.txt").write_bytes(b"[shipyard.rulesets]\nx = caf\xe9:manifest.yaml\n")
    check = shipyard(site, "check", ARROW, "--no-user-catalog")
    assert_clean(check)
    assert "Result: PASSES" in check.stdout
    help_ = shipyard(site, "--help")
    assert_clean(help_)
    [note] = notes(help_)
    assert "distribution latin-one 2.0" in note and "not UTF-8 text" in note and "skipped" in note
    listing = shipyard(site, "rulesets")
    assert_clean(listing)
    assert "wing-commander" in listing.stdout


def test_an_entry_points_file_that_is_a_pipe_is_not_waited_for(tmp_path: Path) -> None:
    site = tmp_path / "site"
    dist = site / "piped-1.0.dist-info"
    dist.mkdir(parents=True)
    os.mkfifo(dist / "entry_points.txt")
    proc = shipyard(site, "--help", timeout=30)  # hung forever before
    assert_clean(proc)
    [note] = notes(proc)
    assert "distribution piped 1.0" in note and "named pipe (FIFO)" in note


def test_a_plugin_cannot_replace_a_builtin_ruleset(tmp_path: Path) -> None:
    """A plug-in declaring ``wing-commander`` was used instead of the built-in when found first."""
    site = _site(tmp_path / "site", {"wing-commander": "impostor:manifest.yaml"}, dist="aaa_impostor-6.6.dist-info")
    marker = tmp_path / "imported"
    package(
        site,
        "impostor",
        f"open({str(marker)!r}, 'w').close()",
        MANIFEST.format(id="wing-commander", name="Impostor", matches=""),
    )
    proc = shipyard(site, "rulesets", "--json")
    assert_clean(proc)
    data = json.loads(proc.stdout)
    [wc] = [r for r in data["rulesets"] if r["id"] == "wing-commander"]
    assert wc["name"] == "Wing Commander (Alternity)" and wc["distribution"].startswith("shipyard ")
    [problem] = data["problems"]
    assert "aaa-impostor 6.6" in problem and "built into Shipyard" in problem and "impostor" in problem
    check = shipyard(site, "check", ARROW, "--no-user-catalog")
    assert_clean(check)
    assert "Result: PASSES" in check.stdout
    assert any("built into Shipyard" in n for n in notes(shipyard(site, "--help")))
    assert not marker.exists()  # none of its code ran


@pytest.mark.parametrize("pattern", ["(unclosed", "(a|aa)+", "(a+)+"])
def test_a_kind_pattern_that_could_not_run_is_refused_when_the_manifest_is_read(pattern: str, tmp_path: Path) -> None:
    """``(unclosed`` passed the manifest and ``rulesets --check``, then ``new --kind`` exited 70;
    ``(a|aa)+`` took 4 s against a 39-character kind, 1.7 times more per character."""
    site = _site(tmp_path / "site", {"homebrew": "homebrew_rules:manifest.yaml"})
    matches = f", matches: '{pattern}'"
    folder = package(site, "homebrew_rules", "", MANIFEST.format(id="homebrew", name="Homebrew", matches=matches))
    checked = shipyard(site, "rulesets", "--check", folder)
    assert_clean(checked, 2)
    assert f"{folder / 'manifest.yaml'}:6:" in checked.stderr and "matches" in checked.stderr
    start = time.perf_counter()
    made = shipyard(site, "new", "--kind", "a" * 39 + "b", "X", "-o", tmp_path / "x.ship")
    assert time.perf_counter() - start < 30
    assert_clean(made, 2)
    assert "no installed ruleset offers designs of kind" in made.stderr, made.stderr
    assert not (tmp_path / "x.ship").exists()
    assert any("'homebrew'" in n and "matches" in n for n in notes(shipyard(site, "--help")))


def test_kind_patterns_allow_what_rulesets_need_and_refuse_backtracking() -> None:
    assert check_kind_pattern(r"starship\+[0-9]+") == r"starship\+[0-9]+"
    assert check_kind_pattern(r"big(\+[0-9]+)?") == r"big(\+[0-9]+)?"
    for bad, says in [
        ("(unclosed", "not a regular expression"),
        ("(a|aa)+", "alternation"),
        ("(a+)+", "repetition inside a repetition"),
        ("a*a*a*a*b", "at most 3"),
        (r"(a)\1+", "back-reference"),
    ]:
        with pytest.raises(ValueError, match=says):
            check_kind_pattern(bad)
    kind = DesignKind(id="big", name="Big", matches=r"big\+[0-9]+")
    assert kind.accepts("big+2") and not kind.accepts("big+" + "9" * 60)  # longer than any kind id


def test_plugin_notes_are_escaped_like_all_terminal_output(tmp_path: Path) -> None:
    """ESC and U+202E in a dist-info folder name reached the terminal in the notes."""
    site = _site(tmp_path / "site", {"evil": "no_such_pkg"}, dist="evil\x1b[2J\u202e-1.0.dist-info")
    proc = shipyard(site, "--help")
    assert_clean(proc)
    [note] = notes(proc)
    assert "\x1b" not in proc.stderr and "\u202e" not in proc.stderr
    assert "\\u001b[2j\\u202e" in note  # shown, as \uXXXX (the distribution name is lower-cased)


def test_a_huge_invalid_manifest_is_refused_unread(tmp_path: Path) -> None:
    """A 5 MB manifest cost 34 s and 0.8 GB on every command, even --help."""
    site = _site(tmp_path / "site", {"huge": "huge_rules:manifest.yaml"})
    package(site, "huge_rules", "", "id: huge\n" + "# padding\n" * 500_000)
    proc = shipyard(site, "--help")
    assert_clean(proc)
    [note] = notes(proc)
    assert "a ruleset manifest is limited to 65,536" in note


def test_an_invalid_manifest_is_remembered_until_it_changes(tmp_path: Path) -> None:
    file = tmp_path / "manifest.yaml"
    file.write_text("id: homebrew\nname: Homebrew\nversion: '1'\nsource: {title: X}\nkinds: []\n", encoding="utf-8")
    with pytest.raises(InputError) as first:
        manifestreader.read_manifest(file)
    code = (
        "import sys\nfrom pathlib import Path\nfrom shipyard.core import manifestreader\n"
        "from shipyard.core.errors import InputError\n"
        f"try:\n    manifestreader.read_manifest(Path({str(file)!r}))\n"
        "except InputError as exc:\n    print(exc.problems[0], '|', 'ruamel' in ' '.join(sys.modules))\n"
    )
    again = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    message, _, parsed = again.stdout.rpartition("|")
    assert message.strip() == str(first.value.problems[0]) and parsed.strip() == "False", again.stderr  # not parsed
    file.write_text(file.read_text().replace("kinds: []", "kinds: [{id: ship, name: Ship}]"), encoding="utf-8")
    assert manifestreader.read_manifest(file).kinds[0].id == "ship"  # changed: read again


# --- caches: only regular files, and only an entry proving its key ---------------------------


def cache_env(tmp_path: Path) -> dict[str, str]:
    return {"XDG_CACHE_HOME": str(tmp_path / "cache")}


def test_a_pipe_in_place_of_a_cache_file_is_not_waited_for(tmp_path: Path) -> None:
    env = cache_env(tmp_path)
    first = run_shipyard("check", FRIGATE, "--no-user-catalog", env=env)
    assert_clean(first, first.returncode)
    cache = tmp_path / "cache" / "shipyard"
    entries = [*sorted(cache.glob("catalog-future-perfect-*.json")), cache / "manifests.json"]
    assert len(entries) == 2
    for p in entries:
        p.unlink()
        os.mkfifo(p)
    again = run_shipyard("check", FRIGATE, "--no-user-catalog", env=env, timeout=60)  # hung before
    assert (again.returncode, again.stdout) == (first.returncode, first.stdout), again.stderr


def test_another_rulesets_catalog_under_a_cache_name_is_refused(tmp_path: Path) -> None:
    """Wing Commander's cached catalog copied under Future Perfect's cache name was used as is."""
    env = cache_env(tmp_path)
    first = run_shipyard("check", FRIGATE, "--no-user-catalog", env=env)
    assert_clean(first, first.returncode)
    assert_clean(run_shipyard("check", ARROW, "--no-user-catalog", env=env))
    cache = tmp_path / "cache" / "shipyard"
    [fp] = cache.glob("catalog-future-perfect-*.json")
    [wc] = cache.glob("catalog-wing-commander-*.json")
    shutil.copyfile(wc, fp)
    again = run_shipyard("check", FRIGATE, "--no-user-catalog", env=env)
    assert (again.returncode, again.stdout) == (first.returncode, first.stdout), again.stderr


def test_the_editor_starts_beside_a_broken_plugin(tmp_path: Path) -> None:
    """``shipyard-gui`` printed a traceback when a plug-in's parent package raised."""
    site = _site(tmp_path / "site", {"broken": "brokenpkg.sub:manifest.yaml"}, dist="broken_rules-1.0.dist-info")
    package(site, "brokenpkg", RAISES["SystemExit"])
    proc = run_editor_smoke(ARROW, env={"PYTHONPATH": str(site)})
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and "designs: 1" in proc.stdout
