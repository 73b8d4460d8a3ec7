"""The tests never touch the user's own settings, house rules, autosaves or caches.

``tests/conftest.py`` moves the session into a sandbox before anything starts: HOME and the
XDG folders point into a temporary folder. These tests check that Shipyard, Qt and the
processes the tests start all follow it, and - after every other test - that nothing was
written under HOME, where the user's real ``~/.config/Shipyard``, ``~/.local/share/shipyard``
and ``~/.cache/shipyard`` would be.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from shipyard.core.resources import user_cache_folder, user_data_folder

from .conftest import LAST, SANDBOX, XDG_HOMES, written_under_home

PROBE = """
import json, os
from pathlib import Path
from PySide6.QtCore import QCoreApplication, QSettings, QStandardPaths
from shipyard.core.resources import user_cache_folder, user_data_folder
QCoreApplication.setOrganizationName("Shipyard")
QCoreApplication.setApplicationName("Shipyard")
app = QCoreApplication([])
L = QStandardPaths.StandardLocation
print(json.dumps({
    "home": str(Path.home()),
    "settings": QSettings().fileName(),
    "qt": [QStandardPaths.writableLocation(loc) for loc in (L.AppConfigLocation, L.AppDataLocation,
           L.CacheLocation, L.GenericStateLocation, L.RuntimeLocation)],
    "shipyard": [str(user_data_folder()), str(user_cache_folder())],
}))
"""


def _inside_sandbox(path: str | Path) -> bool:
    return Path(path).resolve().is_relative_to(SANDBOX.resolve())


def test_every_user_folder_points_into_the_sandbox() -> None:
    assert _inside_sandbox(Path.home()), Path.home()
    for var in [*XDG_HOMES, "XDG_RUNTIME_DIR"]:
        assert _inside_sandbox(os.environ[var]), f"{var}={os.environ[var]}"
    for folder in (user_data_folder(), user_cache_folder()):
        assert _inside_sandbox(folder), folder


def test_a_process_the_tests_start_keeps_its_settings_in_the_sandbox() -> None:
    """What the installed editor or the command line would use, started the way the tests start them."""
    proc = subprocess.run(
        [sys.executable, "-c", PROBE],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert proc.returncode == 0, proc.stderr
    places = json.loads(proc.stdout)
    assert places["settings"].endswith("/Shipyard/Shipyard.conf"), places["settings"]
    for where in [places["home"], places["settings"], *places["qt"], *places["shipyard"]]:
        assert _inside_sandbox(where), f"{where} is outside the test sandbox {SANDBOX}"


def test_the_suite_wrote_nothing_under_home() -> None:
    """Runs last (conftest orders it): whatever ignored the XDG folders for HOME's would have written here.
    Under pytest-xdist it checks its worker's HOME; the starting process checks every worker's at the end."""
    assert LAST.endswith(test_the_suite_wrote_nothing_under_home.__name__)
    written = written_under_home(SANDBOX)
    assert not written, f"tests wrote under HOME, where the user's own files live: {written}"
