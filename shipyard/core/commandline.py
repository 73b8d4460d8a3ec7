"""What every subcommand shares: exit codes, the catalog options, refusing to overwrite.

Standard library only, like the rest of the command line's start-up path.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

EXIT_OK, EXIT_FINDINGS, EXIT_INPUT, EXIT_RENDER, EXIT_INTERNAL = 0, 1, 2, 3, 70

OVERWRITE_RULE = (
    "Writing files: an existing file is replaced only with --force; a design is written back over "
    "the file it was read from only with --in-place (or -o FILE --force). Never replaced: a link, "
    "a pipe, a device, a folder, a file without write permission, or an input by a file of another "
    "kind (a PDF over a design)."
)


def output_file(suffix: str) -> Callable[[str], str]:
    """The ``type`` of an ``-o`` that names one file (``suffix``: what such files end in): a
    name ending in a slash names a folder, and ``print -o pdfs/`` wrote a file called ``pdfs``."""

    def file_named(text: str) -> str:
        if text.endswith(("/", os.sep)):
            raise argparse.ArgumentTypeError(
                f"{text} ends in a slash, so it names a folder; give the file to write, for example {text}NAME{suffix}"
            )
        return text

    return file_named


def note_unusual_design_name(out: Path) -> None:
    """Say on standard error that ``out`` does not end as design files do (``-o out.pdf``):
    the design is written as asked, and the person sees why their file manager may not know it."""
    import sys

    from shipyard.core.designfile import EXTENSION

    if out.suffix != EXTENSION:
        print(f"shipyard: note: design files usually end in {EXTENSION}", file=sys.stderr)


def output_folder(*file_suffixes: str) -> Callable[[str], str]:
    """The ``type`` of an ``-o`` that names the folder a command writes its files into, one
    or more a design, each named after it: a folder not there yet whose name ends like those
    files (``-o card.png``) was meant as a file, and became a folder ``card.png/``."""

    def folder_named(text: str) -> str:
        path = Path(text)
        marked = text.endswith(("/", os.sep))  # out.png/ : a folder, as the person wrote it
        if path.suffix.lower() in file_suffixes and not marked and not path.is_dir():
            raise argparse.ArgumentTypeError(
                f"{text} is named like a file, but this writes its files into a folder, each named after its "
                f"design; give a folder, for example {path.with_suffix('')}{os.sep}"
            )
        return text

    return folder_named


def add_width_option(p: argparse.ArgumentParser) -> None:
    """--width: how wide a command's tables may be (see :func:`output_width`)."""
    p.add_argument(
        "--width",
        type=int,
        metavar="N",
        help="fit tables to N columns (0: as wide as they need); default: the terminal's width, "
        "$COLUMNS, else 80 (also when the output goes to a pipe or file)",
    )


def output_width(args: argparse.Namespace) -> int | None:
    """The width tables fit: --width (0 is no limit), else the terminal's (``COLUMNS`` first), else 80."""
    import shutil

    if args.width is not None:
        if args.width < 0:
            from shipyard.core.errors import InputError

            raise InputError.single(f"--width {args.width} is not a width", path="--width", allowed="0 or more")
        return args.width or None
    return max(20, shutil.get_terminal_size((80, 24)).columns)


def catalog_dirs(args: argparse.Namespace) -> tuple[Path, ...]:
    """The --catalog folders, in the order given (later ones win)."""
    return tuple(Path(p) for p in (args.catalog or []))


def refuse_existing(
    targets: Iterable[Path],
    force: bool,
    inputs: Iterable[str | Path] = (),
    *,
    rewritable: Iterable[str | Path] = (),
    into_folder: bool = False,
) -> None:
    """The command line's rule for every file it writes (:data:`OVERWRITE_RULE`), checked before any work is done.

    A target that exists is refused unless ``force`` (--force, or --in-place for the input
    itself); a target that is one of the command's ``inputs``, or not a regular file (a
    link, pipe, device or folder), is refused even so. A target that is one of the
    ``rewritable`` inputs (the design ``fix`` or ``set`` reads) is written over only with
    ``force``. A target whose folder is not there is refused too, saying which folder, before
    a print renders its book or a conversion says its report (``into_folder``: the targets go
    into a folder the command makes). Each problem names its target.

    Without ``force``, the targets are then created exclusively (:func:`expect_new`): one
    that another process makes while this one works is an error when this one writes,
    never silently replaced (16 concurrent ``fix -o NEW`` each reported "wrote").
    """
    from shipyard.core.atomicwrite import expect_new, folder_missing, refuse_to_replace
    from shipyard.core.errors import InputError, Problem
    from shipyard.core.safepaths import exists

    targets = list(targets)
    sources = _FileKeys(Path(i) for i in inputs)
    own = _FileKeys(Path(i) for i in rewritable)
    problems: list[Problem] = []
    for t in targets:
        same = sources.find(t)
        if same is not None:
            problems.append(Problem(f"is also an input of this command ({same}); choose another output file", str(t)))
            continue
        if not force and own.find(t) is not None:
            problems.append(
                Problem("is the file this command reads; write over it with --in-place (or --force)", str(t))
            )
            continue
        why = None if into_folder else folder_missing(t)
        if why is not None:
            problems.append(Problem(f"cannot write the file: {why}", str(t)))
            continue
        try:
            refuse_to_replace(t)
        except InputError as exc:
            problems += exc.problems
            continue
        if not force and exists(t):
            problems.append(Problem("exists; use --force to replace it", str(t)))
    if problems:
        raise InputError(problems)
    expect_new(targets, not force)


class _FileKeys:
    """Files to tell a target apart from, each looked up once: by device and inode when it
    exists (a link or another spelling of it is the same file), by its resolved path when it
    does not (yet). A target is then found in constant time, where comparing every output with
    every input resolved both paths each time: a cost growing with the square of an export."""

    def __init__(self, paths: Iterable[Path]) -> None:
        self._by_inode: dict[tuple[int, int], Path] = {}
        self._by_path: dict[Path, Path] = {}
        for p in paths:
            key = _inode(p)
            if key is not None:
                self._by_inode.setdefault(key, p)
            self._by_path.setdefault(p.resolve(), p)

    def find(self, target: Path) -> Path | None:
        key = _inode(target)
        if key is not None:
            return self._by_inode.get(key)
        return self._by_path.get(target.resolve())


def _inode(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_dev, st.st_ino


def load_for(args: argparse.Namespace, name: str | Path) -> Any:
    """The design file ``name``, loaded as the catalog options say (--preset, --catalog, --no-user-catalog)."""
    from shipyard.core.designfile import load_design

    return load_design(
        name, preset=args.preset, catalog_folders=catalog_dirs(args), use_user_folder=not args.no_user_catalog
    )


def catalog_for(args: argparse.Namespace, ruleset: str) -> Any:
    """The catalog of ``ruleset`` as the options say: --catalog folders, --preset, --no-user-catalog."""
    from shipyard.core.catalog import load_catalog

    return load_catalog(ruleset, catalog_dirs(args), preset=args.preset, use_user_folder=not args.no_user_catalog)


def offered_ids(attr: str) -> list[str]:
    """The ids the installed rulesets' manifests offer under ``attr`` (kinds, formats ...), sorted, each once."""
    from shipyard.core.registry import rulesets

    return sorted({getattr(e, "id", "") for info in rulesets() for e in getattr(info, attr)})


def ruleset_offering(attr: str, item_id: str, what: str) -> str:
    """The one installed ruleset whose manifest offers ``item_id`` (a kind, a format ...);
    an input error asking for --ruleset when none or several do."""
    from shipyard.core.errors import InputError
    from shipyard.core.registry import offering

    found = offering(attr, item_id)
    if len(found) == 1:
        return found[0].id
    if not found:
        from shipyard.core.suggest import did_you_mean

        offered = offered_ids(attr)
        hint = did_you_mean(item_id, offered)
        raise InputError.single(
            f"no installed ruleset offers {what} {item_id!r}" + (f"; {hint}" if hint else ""),
            path="--" + attr.rstrip("s"),
            allowed=", ".join(offered),
        )
    raise InputError.single(
        f"{len(found)} rulesets offer {what} {item_id!r}: say which with --ruleset",
        path="--ruleset",
        allowed=", ".join(i.id for i in found),
    )
