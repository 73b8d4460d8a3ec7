"""`shipyard gui [FILE...]`: open the editor (the same as the `shipyard-gui` command)."""

from __future__ import annotations

import argparse
from typing import Any


def _run(args: argparse.Namespace) -> int:
    from shipyard._qt.app import main

    return main([*args.files, *(["--dark"] if args.dark else []), *(["--smoke"] if args.smoke else [])])


def add_commands(sub: Any, catalog_opts: Any) -> None:
    p = sub.add_parser("gui", help="open the editor")
    p.add_argument("files", nargs="*", help="design files to open")
    p.add_argument("--dark", action="store_true", help="use a dark palette")
    p.add_argument("--smoke", action="store_true", help="show the window, print what loaded, and quit (checks)")
    p.set_defaults(func=_run)
