"""The system libraries the editor needs, asked of Qt itself rather than kept as a list.

PySide6's wheels carry Qt but not the libraries Qt links from the system (OpenGL, EGL,
fontconfig, xkbcommon and, for X11, a dozen xcb libraries). When one is missing, Qt's xcb
platform aborts with a message that names the wrong package ("xcb-cursor0 ... is needed")
or none. So:

* :func:`missing_libraries` runs ``ldd`` on the Qt modules the editor imports and on the
  platform plugin (``libqxcb.so``) and collects what it reports "not found";
* :func:`debian_packages` turns those library names into Debian/Ubuntu packages by the
  Debian Policy's naming rule (``libxcb-icccm.so.4`` -> ``libxcb-icccm4``), checked against
  the package lists when ``apt-cache`` is there (Ubuntu's ``t64`` renames), with the few
  libraries whose packages are named otherwise listed in :data:`PACKAGE_EXCEPTIONS`;
* :func:`check_editor_libraries` runs before the QApplication is built: on the normal path
  it costs one ``QLibrary.load()`` of the plugin Qt loads a moment later anyway (the same
  handle), and only after a failure does it run ``ldd`` and name every missing package.

``python -m shipyard._qt.window.syslibs`` prints the same report for scripts (``scripts/check-system``,
``scripts/system-deps``, ``scripts/run-app``): ``--packages`` prints only the package names.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import shutil
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

# The PySide6 modules the editor imports; ldd on them lists what QtCore/QtGui/QtPdf link.
EDITOR_MODULES = ("QtCore", "QtGui", "QtWidgets", "QtPdf", "QtPdfWidgets")
PLATFORM_PLUGINS = {"xcb": "libqxcb.so", "offscreen": "libqoffscreen.so"}

# Libraries whose Debian packages do not follow the soname rule (Debian Policy 8.1).
PACKAGE_EXCEPTIONS = {
    "libGLdispatch.so.0": "libglvnd0",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libgobject-2.0.so.0": "libglib2.0-0",
    "libgio-2.0.so.0": "libglib2.0-0",
    "libgmodule-2.0.so.0": "libglib2.0-0",
    "libz.so.1": "zlib1g",
    "libgcc_s.so.1": "libgcc-s1",
    "libc.so.6": "libc6",
    "libm.so.6": "libc6",
    "libdl.so.2": "libc6",
    "libpthread.so.0": "libc6",
    "libresolv.so.2": "libc6",
    "libbrotlidec.so.1": "libbrotli1",
    "libbrotlicommon.so.1": "libbrotli1",
}

# subprocess is imported only where ldd or apt-cache runs: never on the editor's normal start.

_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found\s*$")
_DLERROR = re.compile(r"([\w.+-]+\.so(?:\.\d+)*): cannot open shared object file")


class CannotStart(Exception):
    """The editor cannot start for a reason the user can mend; ``str()`` is the whole message."""


class NoDisplay(CannotStart):
    def __init__(self) -> None:
        super().__init__(
            "the editor cannot open a window: there is no X11 display (DISPLAY is not set). Start it "
            "from a desktop session, or use the command line (shipyard check FILE, shipyard print FILE)"
        )


class MissingLibraries(CannotStart):
    """System libraries Qt links are not installed."""

    def __init__(self, libraries: Sequence[str], what: str) -> None:
        self.libraries = list(libraries)
        self.packages = debian_packages(self.libraries)
        names = _join(self.libraries)
        install = f" On Debian/Ubuntu: {apt_line(self.packages)}" if shutil.which("apt-get") else ""
        super().__init__(
            f"the editor cannot {what}: the system librar{'y' if len(self.libraries) == 1 else 'ies'} "
            f"{names} {'is' if len(self.libraries) == 1 else 'are'} not installed.{install}"
        )


def _join(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def pyside_folder() -> Path | None:
    """PySide6's package folder, found without importing it (importing loads Qt)."""
    try:
        spec = importlib.util.find_spec("PySide6")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def plugin_file(platform: str, plugins: Path | None = None, env: Mapping[str, str] = os.environ) -> Path | None:
    """The platform plugin Qt loads for ``platform`` (QT_QPA_PLATFORM_PLUGIN_PATH first, as Qt does)."""
    name = PLATFORM_PLUGINS.get(platform)
    if name is None:
        return None
    folders = [Path(env["QT_QPA_PLATFORM_PLUGIN_PATH"])] if env.get("QT_QPA_PLATFORM_PLUGIN_PATH") else []
    if plugins is None:
        pyside = pyside_folder()
        plugins = pyside / "Qt" / "plugins" if pyside else None
    if plugins is not None:
        folders.append(plugins / "platforms")
    return next((f / name for f in folders if (f / name).is_file()), None)


def editor_files(platform: str = "xcb") -> list[Path]:
    """The Qt modules the editor imports and the platform plugin, as installed."""
    pyside = pyside_folder()
    if pyside is None:
        return []
    files = [f for m in EDITOR_MODULES for f in sorted(pyside.glob(f"{m}.*.so"))[:1]]
    plugin = plugin_file(platform, pyside / "Qt" / "plugins")
    return [*files, *([plugin] if plugin else [])]


def missing_libraries(files: Iterable[Path]) -> list[str]:
    """Library names ``ldd`` reports "not found" for any of ``files``, in the order found."""
    import subprocess

    ldd = shutil.which("ldd")
    if ldd is None:
        return []
    found: dict[str, None] = {}
    for f in files:
        try:
            out = subprocess.run([ldd, str(f)], capture_output=True, text=True, timeout=60, check=False).stdout
        except (OSError, subprocess.SubprocessError):
            continue
        for line in out.splitlines():
            m = _NOT_FOUND.match(line)
            if m:
                found.setdefault(m.group(1))
    return list(found)


def debian_package(soname: str) -> str:
    """The package name Debian Policy gives the library ``soname`` (``libxcb-icccm.so.4`` -> ``libxcb-icccm4``)."""
    if soname in PACKAGE_EXCEPTIONS:
        return PACKAGE_EXCEPTIONS[soname]
    stem, _, version = soname.partition(".so")
    version = version.lstrip(".").split(".")[0]
    stem = stem.lower().replace("_", "-")
    if not version:
        return stem
    return f"{stem}-{version}" if stem[-1].isdigit() else f"{stem}{version}"


def _apt_known(names: Sequence[str]) -> set[str] | None:
    """Which of ``names`` apt can install; None when apt-cache is missing or knows no packages at all."""
    import subprocess

    apt = shutil.which("apt-cache")
    if apt is None or not names:
        return None
    try:
        out = subprocess.run([apt, "policy", *names], capture_output=True, text=True, timeout=60, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    known: set[str] = set()
    current = None
    for line in out.splitlines():
        if line and not line[0].isspace() and line.endswith(":"):
            current = line[:-1]
        elif current and line.strip().startswith("Candidate:") and "(none)" not in line:
            known.add(current)
    return known


def debian_packages(sonames: Iterable[str]) -> list[str]:
    """The packages that provide ``sonames``, once each, checked against apt's lists when it has them."""
    base = list(dict.fromkeys(debian_package(s) for s in sonames))
    known = _apt_known([*base, *(f"{p}t64" for p in base)])
    if not known:  # no apt, or its lists are empty (run apt-get update): the Policy name
        return base
    return list(dict.fromkeys(p if p in known or f"{p}t64" not in known else f"{p}t64" for p in base))


def apt_line(packages: Sequence[str]) -> str:
    sudo = "" if os.geteuid() == 0 else "sudo "
    return f"{sudo}apt-get install {' '.join(packages)}"


def wanted_platform(env: Mapping[str, str] = os.environ) -> str:
    """The platform Qt will try first: QT_QPA_PLATFORM, else Wayland in a Wayland session, else xcb."""
    name = env.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip()
    if name:
        return name
    if env.get("XDG_SESSION_TYPE") == "wayland" and env.get("WAYLAND_DISPLAY"):
        return "wayland"
    return "xcb"


_loaded: list[object] = []  # the probed plugin stays loaded: Qt loads the same file next


def check_editor_libraries(env: Mapping[str, str] = os.environ) -> None:
    """Raise :class:`CannotStart` if Qt or its platform plugin cannot load; call before QApplication.

    The live preview's QtPdf is imported after the window shows and is not checked here
    (``python -m shipyard._qt.window.syslibs`` checks it with the rest).
    """
    try:
        from PySide6.QtCore import QLibrary, QLibraryInfo
        from PySide6.QtWidgets import QApplication  # noqa: F401  (QtGui with it)
    except ImportError as exc:
        missing = missing_libraries(editor_files()) or _DLERROR.findall(str(exc))
        if not missing:
            raise
        raise MissingLibraries(missing, "start") from None
    platform = wanted_platform(env)
    if platform != "xcb":
        return
    if not env.get("DISPLAY"):
        raise NoDisplay()
    plugin = plugin_file(platform, Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)), env)
    if plugin is None:
        return  # no xcb plugin at all: Qt says so itself
    lib = QLibrary(str(plugin))
    if lib.load():
        _loaded.append(lib)
        return
    missing = missing_libraries([plugin]) or _DLERROR.findall(lib.errorString())
    if missing:
        raise MissingLibraries(missing, "open a window on X11 (Qt's xcb platform)")


def new_application(cls: Any, argv: list[str]) -> Any:
    """``cls(argv)`` (the QApplication), with one clear message if its platform cannot start.

    :func:`check_editor_libraries` catches what is known before; this catches the rest (an
    X server that is not there or refuses us, a plugin that fails for another reason): Qt
    says what went wrong in warnings, then a fatal "no Qt platform plugin could be
    initialized" and aborts. Qt's messages while the application is built are held back;
    on that fatal message the reason Qt gave is printed as one line and the process ends
    with status 1 (Qt would abort with a core dump), otherwise they are printed as Qt would.
    """
    from PySide6.QtCore import QtMsgType, qInstallMessageHandler

    held: list[str] = []

    def handler(kind: Any, context: Any, message: str) -> None:
        text = f"{context.category}: {message}" if context.category and context.category != "default" else message
        if kind != QtMsgType.QtFatalMsg:
            held.append(text)
            return
        reasons = [m for m in held if m.startswith("qt.qpa.") and "is needed to load the Qt xcb" not in m]
        reason = reasons[0].split(": ", 1)[1] if reasons else message.splitlines()[0]
        shown = f" on the X11 display {os.environ['DISPLAY']}" if os.environ.get("DISPLAY") else ""
        sys.stderr.write(
            f"shipyard-gui: error: the editor cannot open a window{shown}: {reason}. Check that the display is "
            "running and yours (DISPLAY, XAUTHORITY); the command line needs none (shipyard check FILE)\n"
        )
        sys.stderr.flush()
        os._exit(1)

    previous = qInstallMessageHandler(handler)
    try:
        return cls(argv)
    finally:
        qInstallMessageHandler(previous)
        for text in held:
            print(text, file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m shipyard._qt.window.syslibs",
        description="Which system libraries the editor's Qt needs and lacks, asked of Qt's own files with ldd.",
    )
    parser.add_argument(
        "--platform",
        default="xcb",
        choices=[*sorted(PLATFORM_PLUGINS), "auto"],
        help="default: xcb (X11); auto: the one Qt will use here (nothing to check for Wayland)",
    )
    parser.add_argument("--packages", action="store_true", help="print only the Debian packages to install")
    args = parser.parse_args(argv)
    if args.platform == "auto":
        args.platform = wanted_platform()
        if args.platform not in PLATFORM_PLUGINS:
            return 0
    files = editor_files(args.platform)
    if not files:
        print("syslibs: PySide6 is not installed here", file=sys.stderr)
        return 2
    missing = missing_libraries(files)
    packages = debian_packages(missing)
    if args.packages:
        for package in packages:  # one a line, nothing at all when nothing is missing
            print(package)
    elif missing:
        print(f"the editor ({args.platform}) lacks {_join(missing)}; on Debian/Ubuntu: {apt_line(packages)}")
    else:
        print(f"the editor ({args.platform}): every library Qt links is installed")
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
