"""What every subcommand shares: exit codes, the catalog options, refusing to overwrite.

Standard library only, like the rest of the command line's start-up path.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from pathlib import Path
from typing import Any

EXIT_OK, EXIT_FINDINGS, EXIT_INPUT, EXIT_RENDER, EXIT_INTERNAL = 0, 1, 2, 3, 70


def catalog_dirs(args: argparse.Namespace) -> tuple[Path, ...]:
    """The --catalog folders, in the order given (later ones win)."""
    return tuple(Path(p) for p in (args.catalog or []))


def refuse_existing(targets: Iterable[Path], force: bool) -> None:
    """Raise an input error naming each target that exists, unless --force was given."""
    from shipyard.core.errors import InputError, Problem

    existing = [] if force else [t for t in targets if t.exists()]
    if existing:
        raise InputError([Problem("exists; use --force to replace it", str(t)) for t in existing])


def catalog_for(args: argparse.Namespace, ruleset: str) -> Any:
    """The catalog of ``ruleset`` as the options say: --catalog folders, --preset, --no-user-catalog."""
    from shipyard.core.catalog import load_catalog

    return load_catalog(ruleset, catalog_dirs(args), preset=args.preset, use_user_folder=not args.no_user_catalog)


def ruleset_offering(attr: str, item_id: str, what: str) -> str:
    """The one installed ruleset whose manifest offers ``item_id`` (a kind, a format ...);
    an input error asking for --ruleset when none or several do."""
    from shipyard.core.errors import InputError
    from shipyard.core.registry import offering, rulesets

    found = offering(attr, item_id)
    if len(found) == 1:
        return found[0].id
    if not found:
        offered = sorted({getattr(e, "id", "") for info in rulesets() for e in getattr(info, attr)})
        raise InputError.single(
            f"no installed ruleset offers {what} {item_id!r}", path="--" + attr.rstrip("s"), allowed=", ".join(offered)
        )
    raise InputError.single(
        f"{len(found)} rulesets offer {what} {item_id!r}: say which with --ruleset",
        path="--ruleset",
        allowed=", ".join(i.id for i in found),
    )
