"""The editor's first sheet (issue 25), as ``shipyard-gui FILE`` starts: where a core is free,
its render worker is started before anything else (the engine, Qt), so WeasyPrint's import
runs while the window is built, and that worker draws the sheet the preview shows; where
every core is taken, no worker is started before the window (its start would share the
window's core) and the sheet is drawn by one started after it. The worker is started before
even argparse is imported. The editor itself never imports WeasyPrint; ``--no-preview``
starts no worker. Each test starts the editor as its
own process, as a user does. Behaviour only, never timings.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from .conftest import EXAMPLES

SAMPLE = EXAMPLES / "rebel-frigate.ship"

# Starts the editor as shipyard-gui does, noting what was imported when the worker was to
# start and which worker it started, then prints what the preview shows once its first
# sheet is there and which worker drew it. With "one-core-taken", the editor may use one
# core, and a process that spins on that core runs from before the start until the sheet.
FIRST_SHEET = """
import os, subprocess, sys
if "one-core-taken" in sys.argv:
    sys.argv.remove("one-core-taken")
    core = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"], **quiet)
    while open(f"/proc/{spinner.pid}/stat").read().rsplit(")", 1)[1].split()[0] != "R":
        pass  # until it runs
from shipyard._qt.preview import sharedworker
seen = {}
early = sharedworker.start_early
def noted():
    seen["engine"] = "shipyard.core.designfile" in sys.modules
    seen["qt"] = "PySide6.QtCore" in sys.modules
    seen["argparse"] = "argparse" in sys.modules
    early()
    seen["pid"] = sharedworker._early[0] if sharedworker._early else None
sharedworker.start_early = noted
from shipyard._qt.app import start
app, window = start(sys.argv[1:])
from PySide6.QtCore import QTimer
def poll():
    view = window.current()
    if any(a.startswith("--no") for a in sys.argv) or (view.preview is not None and view.preview.renders >= 1):
        worker = sharedworker._worker  # the one that drew the sheet
        started = seen.pop("pid", None)
        drew = "none" if worker is None else "the early one" if worker._proc.pid == started else "another"
        print("worker:", "started early" if started else "none early", seen, "drew:", drew, flush=True)
        text = "" if view.preview is None else view.preview.pdf.getAllText(0).text()[:13]
        print("sheet:", repr(text), "weasyprint" in sys.modules, flush=True)
        window.ask_unsaved = lambda _doc: "discard"
        app.quit()
        return
    QTimer.singleShot(20, poll)
QTimer.singleShot(0, poll)
app.exec()
if "spinner" in globals():
    spinner.kill()
"""


def first_sheet(tmp_path: Path, *args: str) -> list[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path / "config")}
    proc = subprocess.Popen(
        [sys.executable, "-c", FIRST_SHEET, str(SAMPLE), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env=env,
        start_new_session=True,  # the spinner goes with it
    )
    try:
        out, err = proc.communicate(timeout=120)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 0, err
    return [line for line in out.splitlines() if line.startswith(("worker:", "sheet:"))]


@pytest.mark.speedups
def test_the_first_sheet_is_drawn_by_the_worker_started_first_where_a_core_is_free(tmp_path: Path) -> None:
    worker, sheet = first_sheet(tmp_path)
    assert worker in (  # whether a core was free as it started is the machine's
        "worker: started early {'engine': False, 'qt': False, 'argparse': False} drew: the early one",
        "worker: none early {'engine': False, 'qt': False, 'argparse': False} drew: another",
    )
    assert sheet == "sheet: 'Rebel Frigate' False"  # the ship's sheet, drawn by the worker, not in the editor


def test_with_its_core_taken_the_editor_starts_its_worker_after_the_window(tmp_path: Path) -> None:
    worker, sheet = first_sheet(tmp_path, "one-core-taken")
    assert worker == "worker: none early {'engine': False, 'qt': False, 'argparse': False} drew: another"
    assert sheet == "sheet: 'Rebel Frigate' False"


@pytest.mark.parametrize("option", ["--no-preview", "--no-prev"])  # argparse takes a prefix too
def test_no_preview_starts_no_render_worker(tmp_path: Path, option: str) -> None:
    worker, sheet = first_sheet(tmp_path, option)
    assert worker == "worker: none early {} drew: none"
    assert sheet == "sheet: '' False"


def test_the_worker_is_started_before_the_options_are_parsed_only_where_they_ask_for_a_preview() -> None:
    from shipyard._qt.app import _preview_wanted

    assert _preview_wanted([str(SAMPLE), "--dark", "--smoke"]) and _preview_wanted([])
    assert _preview_wanted(["--", "--no-preview"])  # a file of that name
    assert not any(_preview_wanted([str(SAMPLE), o]) for o in ("--no-preview", "--no", "--help", "--he", "-h"))
