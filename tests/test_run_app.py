"""``scripts/run-app`` as a user runs it: from a folder of their own, with paths relative to it.

These start the script itself, which sets up (here: finds) the project's ``.venv``; they run
when the tests run from that environment, as ``scripts/run-tests`` runs them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import EXAMPLES, ROOT
from .test_editor_start import broken_xcb_plugin

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        Path(sys.prefix).resolve() != (ROOT / ".venv").resolve(),
        reason="scripts/run-app uses the project's .venv, and these tests run from another environment",
    ),
]
RUN_APP = ROOT / "scripts" / "run-app"
XVFB = ["xvfb-run", "--auto-servernum", "--server-args=-screen 0 1600x1000x24"]


def run_app(*args: str, cwd: Path, wrap: tuple[str, ...] = (), **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    return subprocess.run(
        [*wrap, str(RUN_APP), *args],
        cwd=cwd,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def as_non_root() -> tuple[str, ...]:
    """A user namespace in which the script's `id -u` is not 0 (its files still readable)."""
    if shutil.which("unshare") is None or subprocess.run(["unshare", "-U", "true"], check=False).returncode != 0:
        pytest.skip("unshare -U is not allowed here")
    return ("unshare", "-U")


def test_paths_are_the_users_own(tmp_path: Path) -> None:
    (tmp_path / "my ships").mkdir()
    shutil.copy(EXAMPLES / "rebel-fighter.ship", tmp_path / "my ships")
    proc = run_app("check", "my ships/rebel-fighter.ship", "--summary", "--no-user-catalog", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "1 design: 1 passes, 0 do not pass"


def test_without_a_display_it_checks_the_samples_one_line_each_and_sums_up(tmp_path: Path) -> None:
    """The first command a newcomer runs: a line a sample, exit 0 because each behaves as published."""
    proc = run_app(cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "no display: checking the sample ships instead of opening the editor" in proc.stderr
    lines = proc.stdout.splitlines()
    samples = sorted(ROOT.glob("catalogs/*/examples/*.ship"))
    assert len(lines) == len(samples) + 1 == 32
    assert lines[-1] == "31 designs: 30 pass, 1 does not pass — every sample as published"
    disk = next(ln for ln in lines if ln.startswith("space-fighter-alpha/alien-disk-fighter.ship:"))
    assert "does not pass — as published: the published ship does not add up: 4 freebies over" in disk
    assert "space-fighter-alpha/rebel-fighter.ship: Rebel Fighter passes" in lines


def test_a_sample_that_stops_behaving_as_published_fails_the_check(tmp_path: Path) -> None:
    """The verdicts file is what the check holds the samples to: a pass where it says none is a failure."""
    from shipyard.samples_summary import check_lines, expected

    examples = ROOT / "catalogs" / "space-fighter-alpha" / "examples"
    assert expected(examples)["alien-disk-fighter"][0] is False
    (tmp_path / "verdicts.yaml").write_text(
        "rebel-fighter:\n  passes: false\n  why: a test says so\n", encoding="utf-8"
    )
    assert expected(tmp_path) == {"rebel-fighter": (False, "a test says so")}
    lines, as_published = check_lines(lambda folder: expected(tmp_path if folder == examples else folder))
    assert not as_published
    assert "space-fighter-alpha/rebel-fighter.ship: Rebel Fighter passes — NOT as published" in "\n".join(lines)
    assert "should not pass: a test says so" in "\n".join(lines)
    # the Alien Disk-Fighter, no longer named as failing on purpose, is a surprise too
    assert lines[-1] == "31 designs: 30 pass, 1 does not pass — 2 NOT as published"


def test_it_opens_the_editor_on_x11_for_anyone(tmp_path: Path) -> None:
    """As root and not: with every library there, nothing is installed and nothing stops it."""
    sample = os.path.relpath(EXAMPLES / "rebel-fighter.ship", tmp_path)
    for wrap in ((), as_non_root()):
        proc = run_app("gui", sample, "--smoke", cwd=tmp_path, wrap=(*XVFB, *wrap), QT_QPA_PLATFORM="xcb")
        assert proc.returncode == 0, f"{wrap}: {proc.stderr}"
        assert proc.stdout.startswith("shown: True designs: 1 title: 'Rebel Fighter[*] — Shipyard'"), (
            proc.stdout
        )  # a sample: a copy
        assert "run-app:" not in proc.stderr, proc.stderr


def test_a_user_without_root_gets_the_apt_get_line_and_nothing_starts(tmp_path: Path) -> None:
    platforms = broken_xcb_plugin(tmp_path)
    proc = run_app(
        "gui",
        str(EXAMPLES / "rebel-fighter.ship"),
        "--smoke",
        cwd=tmp_path,
        wrap=as_non_root(),
        DISPLAY=":0",
        QT_QPA_PLATFORM="xcb",
        QT_QPA_PLATFORM_PLUGIN_PATH=str(platforms),
    )
    assert proc.returncode == 1 and proc.stdout == "", proc.stdout
    assert proc.stderr.splitlines()[-3:] == [
        "run-app: the editor needs system packages that are not installed: libxcb-gone0",
        "run-app: install them with: sudo apt-get install libxcb-gone0",
        "run-app: then run scripts/run-app again",
    ], proc.stderr
