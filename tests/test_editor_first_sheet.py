"""The editor's first sheet (issue 25), as ``shipyard-gui FILE`` starts: its render worker is
started before anything else (the engine, Qt), so WeasyPrint's import runs while the
window is built; that worker then draws the sheet the preview shows, and the editor itself
never imports WeasyPrint. ``--no-preview`` starts no worker. Each test starts the editor as its
own process, as a user does. Behaviour only, never timings.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from .conftest import EXAMPLES

SAMPLE = EXAMPLES / "rebel-frigate.ship"

# Starts the editor as shipyard-gui does, noting what was imported when the worker started,
# then prints what the preview shows once its first sheet is there.
FIRST_SHEET = """
import os, sys
from shipyard._qt import sharedworker
seen = {}
early = sharedworker.start_early
def noted():
    seen["engine"] = "shipyard.core.designfile" in sys.modules
    seen["qt"] = "PySide6.QtCore" in sys.modules
    early()
    seen["pid"] = sharedworker._early[0]
sharedworker.start_early = noted
from shipyard._qt.app import start
app, window = start(sys.argv[1:])
from PySide6.QtCore import QTimer
def poll():
    view = window.current()
    if "--no-preview" in sys.argv or (view.preview is not None and view.preview.renders >= 1):
        worker = sharedworker._worker  # the one that drew the sheet
        early = worker is not None and worker._proc.pid == seen.pop("pid", None)
        print("worker:", "none" if worker is None else "early" if early else "later", seen, flush=True)
        text = "" if view.preview is None else view.preview.pdf.getAllText(0).text()[:13]
        print("sheet:", repr(text), "weasyprint" in sys.modules, flush=True)
        window.ask_unsaved = lambda _doc: "discard"
        app.quit()
        return
    QTimer.singleShot(20, poll)
QTimer.singleShot(0, poll)
app.exec()
"""


def first_sheet(tmp_path: Path, *args: str) -> list[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path / "config")}
    out = subprocess.run(
        [sys.executable, "-c", FIRST_SHEET, str(SAMPLE), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=tmp_path,
        env=env,
    )
    assert out.returncode == 0, out.stderr
    return [line for line in out.stdout.splitlines() if line.startswith(("worker:", "sheet:"))]


def test_the_render_worker_starts_first_and_the_first_sheet_shows(tmp_path: Path) -> None:
    worker, sheet = first_sheet(tmp_path)
    assert worker == "worker: early {'engine': False, 'qt': False}"  # started before the engine and Qt
    assert sheet == "sheet: 'Rebel Frigate' False"  # the ship's sheet, drawn by the worker, not in the editor


def test_no_preview_starts_no_render_worker(tmp_path: Path) -> None:
    worker, sheet = first_sheet(tmp_path, "--no-preview")
    assert worker == "worker: none {}"
    assert sheet == "sheet: '' False"
