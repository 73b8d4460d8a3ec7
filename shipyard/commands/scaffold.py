"""``shipyard ruleset new ID [--point-buy | --record] [-o DIR]``: start a ruleset package.

The package is written by :mod:`shipyard.scaffold`; this module is its command line.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from shipyard.core.commandline import EXIT_OK


def add_commands(sub: Any, catalog_opts: Any) -> None:
    p = sub.add_parser("ruleset", help="start a ruleset package of your own (ruleset new ID)")
    actions = p.add_subparsers(dest="ruleset_action", metavar="ACTION", required=True)
    q = actions.add_parser(
        "new",
        help="write a ruleset package that installs, checks, prints and opens in the editor",
        description="Write a ruleset package to start from: pyproject.toml with the entry point, manifest, "
        "catalog, declared form, record sheet and card templates, a sample design and tests.",
    )
    q.add_argument("id", metavar="ID", help="the ruleset's id: lowercase letters, digits and dashes (my-fleet)")
    kind = q.add_mutually_exclusive_group()
    kind.add_argument(
        "--point-buy",
        dest="kind",
        action="store_const",
        const="point-buy",
        help="a budgeted system: a pool of build points, purchases charged to it, a budget check (the default)",
    )
    kind.add_argument(
        "--record",
        dest="kind",
        action="store_const",
        const="record",
        help="a described ship: figures, a damage track and the actions it may take",
    )
    q.add_argument("-o", "--output", metavar="DIR", help="the folder to write (default: ./shipyard-ID); new or empty")
    q.set_defaults(func=cmd_ruleset_new, kind="point-buy")


def cmd_ruleset_new(args: argparse.Namespace) -> int:
    from shipyard.core.registry import rulesets
    from shipyard.scaffold import check_id, write

    names = check_id(args.id, set())  # the id's own shape first: the default folder is named after it
    target = Path(args.output) if args.output else Path(names.dist)
    written = write(args.id, args.kind, target, {info.id for info in rulesets()})
    print(f"wrote {target}: {len(written)} files, a {args.kind} ruleset {args.id!r}")
    print(f"next: pip install -e {target}  then  shipyard rulesets --check {target / names.package}")
    return EXIT_OK
