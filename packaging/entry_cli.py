"""The bundle's ``shipyard`` executable: the command line, and the render worker mode.

A frozen app has no ``python -m shipyard.render.worker``: when a render worker is started
as a subprocess (the editor, or ``shipyard gui``, whose Qt threads rule out fork), it runs
``[sys.executable, "--render-worker", FD]`` (``--patient`` after it for the worker the
editor starts with itself: :mod:`shipyard.render.earlyworker`), and ``sys.executable`` is
this program. A plain
``shipyard print`` forks its workers on Linux and never comes here with that flag.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from pathlib import Path


def _frozen_qt_paths() -> None:
    """What PyInstaller's PySide6 runtime hook would set; the spec leaves that hook out of
    this executable (it imports QtCore at every start), so `shipyard gui` finds its plugins."""
    base = getattr(sys, "_MEIPASS", None)
    if base is not None:
        os.environ["QT_PLUGIN_PATH"] = str(Path(base) / "PySide6" / "Qt" / "plugins")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--render-worker"]:
        from shipyard.render.earlyworker import PATIENT, serve

        if len(argv) not in (2, 3) or not argv[1].isdigit() or argv[2:] not in ([], [PATIENT]):
            print(
                f"shipyard: error: usage: shipyard --render-worker FD [{PATIENT}] (started by Shipyard itself)",
                file=sys.stderr,
            )
            return 2
        serve(argv[1:])
        return 0
    from shipyard.cli import main as cli_main

    return cli_main(argv, end_process=True)


if __name__ == "__main__":
    multiprocessing.freeze_support()
    _frozen_qt_paths()
    raise SystemExit(main())
