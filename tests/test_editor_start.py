"""Starting the editor where the system lacks something Qt needs: one clear message, no abort.

Each test starts ``shipyard-gui`` as its own process, the way a user does, with the platform
Qt takes on a desktop (xcb, X11). A missing library is a real one: a copy of PySide6's own
xcb platform plugin whose dependency on ``libxcb-shape.so.0`` is renamed to a library no
system has, found by Qt through QT_QPA_PLATFORM_PLUGIN_PATH.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from shipyard._qt.window import syslibs

from .conftest import EXAMPLES

SAMPLE = EXAMPLES / "rebel-fighter.ship"


def start_editor(env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
    return subprocess.run(
        [sys.executable, "-m", "shipyard._qt.app", str(SAMPLE), "--no-preview"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=cwd,
        env={**base, "XDG_SESSION_TYPE": "x11", **env},
    )


def broken_xcb_plugin(folder: Path) -> Path:
    """PySide6's xcb plugin, copied with one of its libraries renamed to one that does not exist."""
    plugin = syslibs.plugin_file("xcb", env={})
    assert plugin is not None, "PySide6 has no xcb platform plugin"
    data = plugin.read_bytes()
    needed, gone = b"libxcb-shape.so.0\0", b"libxcb-gone.so.0\0\0"
    assert data.count(needed) == 1 and len(gone) == len(needed)
    platforms = folder / "plugins" / "platforms"
    platforms.mkdir(parents=True)
    (platforms / plugin.name).write_bytes(data.replace(needed, gone))
    # the plugin finds Qt's own libraries at $ORIGIN/../../lib, as beside the real one
    (folder / "lib").symlink_to(plugin.parents[2] / "lib")
    return platforms


def test_a_missing_library_names_the_package_to_install(tmp_path: Path) -> None:
    platforms = broken_xcb_plugin(tmp_path)
    proc = start_editor(
        {"QT_QPA_PLATFORM": "xcb", "DISPLAY": ":0", "QT_QPA_PLATFORM_PLUGIN_PATH": str(platforms)}, tmp_path
    )
    assert proc.returncode == 1, proc.stderr
    sudo = "" if os.geteuid() == 0 else "sudo "
    assert proc.stderr.splitlines() == [
        "shipyard-gui: error: the editor cannot open a window on X11 (Qt's xcb platform): the system library "
        f"libxcb-gone.so.0 is not installed. On Debian/Ubuntu: {sudo}apt-get install libxcb-gone0"
    ], proc.stderr
    assert proc.stdout == ""


def test_no_display_says_so_instead_of_aborting(tmp_path: Path) -> None:
    proc = start_editor({}, tmp_path)
    assert proc.returncode == 1, proc.stderr
    (line,) = proc.stderr.splitlines()
    assert line.startswith("shipyard-gui: error: the editor cannot open a window: there is no X11 display"), line


def test_a_display_that_is_not_there_says_which_and_why(tmp_path: Path) -> None:
    """Qt's own messages here name the wrong package (xcb-cursor0) and end in an abort."""
    if syslibs.missing_libraries(syslibs.editor_files("xcb")):
        pytest.fail(
            "Qt's xcb platform lacks system libraries: run scripts/system-deps (python -m shipyard._qt.window.syslibs)"
        )
    proc = start_editor({"DISPLAY": ":987", "XAUTHORITY": str(tmp_path / "none")}, tmp_path)
    assert proc.returncode == 1, proc.stderr  # not -6 (SIGABRT)
    (line,) = proc.stderr.splitlines()
    assert line.startswith("shipyard-gui: error: the editor cannot open a window on the X11 display :987: "), line
    assert "could not connect to display :987" in line and "xcb-cursor0" not in line, line


@pytest.mark.parametrize(
    ("soname", "package"),
    [
        ("libxcb-icccm.so.4", "libxcb-icccm4"),
        ("libxcb-render-util.so.0", "libxcb-render-util0"),
        ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0"),
        ("libX11-xcb.so.1", "libx11-xcb1"),
        ("libEGL.so.1", "libegl1"),
        ("libgssapi_krb5.so.2", "libgssapi-krb5-2"),
        ("libGLdispatch.so.0", "libglvnd0"),  # one Debian names otherwise
    ],
)
def test_library_names_map_to_debian_packages(soname: str, package: str) -> None:
    assert syslibs.debian_package(soname) == package


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_shipyard_gui_ends_on_sigterm_like_shipyard_gui(tmp_path: Path) -> None:
    """`kill` of `shipyard gui` printed a traceback from a Qt slot and left the editor open."""
    import signal
    import time

    from .test_printing import _children

    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "shipyard", "gui", str(SAMPLE)], env=env, cwd=tmp_path, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 90
        while not _children(proc.pid) and time.monotonic() < deadline:  # the preview's render worker: the window is up
            time.sleep(0.2)
        assert _children(proc.pid), "the editor started no render worker within 90 s"
        time.sleep(1)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
        assert proc.returncode == -signal.SIGTERM and "Traceback" not in err, err
    finally:
        proc.kill()
        proc.wait()
