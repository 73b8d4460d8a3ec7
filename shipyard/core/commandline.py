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


def refuse_existing(targets: Iterable[Path], force: bool, inputs: Iterable[str | Path] = ()) -> None:
    """The command line's rule for every file it writes, checked before any work is done.

    A target that exists is refused unless --force was given; a target that is one of the
    command's own inputs, or not a regular file (a link, pipe, device or folder), is
    refused even with --force. Each problem names its target.

    Without --force, the targets are then created exclusively (:func:`expect_new`): one
    that another process makes while this one works is an error when this one writes,
    never silently replaced (16 concurrent ``fix -o NEW`` each reported "wrote").
    """
    from shipyard.core.designfile import expect_new, refuse_non_regular
    from shipyard.core.errors import InputError, Problem

    targets = list(targets)
    sources = [Path(i) for i in inputs]
    problems: list[Problem] = []
    for t in targets:
        same = next((i for i in sources if _same_file(t, i)), None)
        if same is not None:
            problems.append(Problem(f"is also an input of this command ({same}); choose another output file", str(t)))
            continue
        try:
            refuse_non_regular(t)
        except InputError as exc:
            problems += exc.problems
            continue
        if not force and t.exists():
            problems.append(Problem("exists; use --force to replace it", str(t)))
    if problems:
        raise InputError(problems)
    expect_new(targets, not force)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.samefile(b)
    except OSError:  # one of them does not exist (yet): the same path, then
        return a.resolve() == b.resolve()


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
