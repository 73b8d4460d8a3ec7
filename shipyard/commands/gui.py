"""`shipyard gui [FILE...]`: open the editor (the same as the `shipyard-gui` command, with its options)."""

from __future__ import annotations

import argparse
import signal
from typing import Any


def _run(args: argparse.Namespace) -> int:
    from shipyard._qt.app import main

    # The command line turns SIGTERM into an interrupt so a print stops its workers; inside
    # Qt's event loop that exception only prints a traceback from whatever slot it lands in,
    # and the editor stayed open. The editor ends on SIGTERM as shipyard-gui does (autosave
    # keeps the unsaved work; the render workers die with their parent).
    signal.signal(signal.SIGTERM, signal.SIG_DFL)

    return main([], options=args)


def add_commands(sub: Any, catalog_opts: Any) -> None:
    from shipyard._qt.app import add_arguments  # the options' one definition (standard library only)

    p = sub.add_parser("gui", help="open the editor (the options of shipyard-gui)")
    add_arguments(p)
    p.set_defaults(func=_run)
