"""``shipyard compare`` (designs side by side) and ``shipyard fix`` (make a design legal).

``compare`` exits like ``diff``: 0 when the designs do not differ, 1 when they do, 2 when
one cannot be read. ``fix`` writes the proposal the user chose (``shipyard check --suggest``
lists them, numbered) to ``-o``, atomically, changing only the lines of what it changes;
over its input only with ``--in-place`` (or ``-o FILE --force``). Standard library only
at import time, like the rest of the command line.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from shipyard.core.commandline import (
    EXIT_FINDINGS,
    EXIT_INPUT,
    EXIT_OK,
    add_width_option,
    load_for,
    output_file,
    output_width,
    refuse_existing,
)


def add_commands(sub: Any, catalog_opts: Any) -> None:
    p = sub.add_parser(
        "compare", help="designs side by side: figures, pools, items, recorded state, findings, differences signed"
    )
    p.add_argument(
        "files", nargs="+", metavar="FILE", help="two or more designs of one ruleset; the first is the reference"
    )
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="the comparison as JSON")
    fmt.add_argument("--markdown", action="store_true", help="the comparison as a Markdown table")
    p.add_argument("--differences", action="store_true", help="only the rows that differ")
    add_width_option(p)
    catalog_opts(p)
    p.set_defaults(func=cmd_compare, reads_only=True)

    p = sub.add_parser("fix", help="write a design with one of the proposed fixes made (see check --suggest)")
    p.add_argument("file", metavar="FILE")
    p.add_argument(
        "--apply", type=int, required=True, metavar="N", help="the proposal's number, as check --suggest lists it"
    )
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("-o", "--output", type=output_file(".ship"), help="the design file to write")
    where.add_argument("--in-place", action="store_true", help="write the fixed design back over FILE")
    p.add_argument(
        "--keep",
        action="append",
        default=[],
        metavar="PATH",
        help="a place the fix may not change, named as set names it (handling, weapons[Medium Laser])",
    )
    p.add_argument("--force", action="store_true", help="replace an existing output file (FILE itself included)")
    catalog_opts(p)
    p.set_defaults(func=cmd_fix)


def _load(name: str, args: argparse.Namespace) -> Any:
    return load_for(args, name)


def cmd_compare(args: argparse.Namespace) -> int:
    from shipyard.core.compare import compare, render_text
    from shipyard.core.designreport import design_report
    from shipyard.core.errors import InputError

    if len(args.files) < 2:
        raise InputError.single("give two designs or more to compare")
    loaded = [_load(f, args) for f in args.files]
    names = [str(getattr(ld.design, "name", "") or f) for f, ld in zip(args.files, loaded, strict=True)]
    if len(set(names)) < len(names):  # the same design twice (saved and edited): tell them apart by file
        names = [f"{n} ({Path(f).name})" for n, f in zip(names, args.files, strict=True)]
    rows = [
        (n, ld.design, ld.catalog, design_report(ld.design, ld.catalog, ld.file))
        for n, ld in zip(names, loaded, strict=True)
    ]
    try:
        cmp = compare(rows)
    except InputError as exc:
        raise exc.with_file(", ".join(args.files)) from None
    if args.json:
        print(json.dumps({**cmp.as_json(), "files": args.files}, indent=2, ensure_ascii=False))
    else:
        width = None if args.markdown else output_width(args)
        sys.stdout.write(render_text(cmp, markdown=args.markdown, all_rows=not args.differences, width=width))
    return EXIT_FINDINGS if cmp.differences else EXIT_OK


def kept_places(loaded: Any, keep: list[str]) -> set[str]:
    """The edit paths of the ``--keep`` places of a loaded design, each named as ``set`` and
    ``get`` name places (``weapons[Heavy Laser]``). One that names no place in the design is
    refused, with the places there are: a mistyped place kept nothing, and the fix then made
    the very change the person had asked it not to make."""
    from shipyard.core.errors import InputError
    from shipyard.core.namedpaths import resolve

    data = loaded.design.model_dump(mode="json") if keep else None
    kept = set()
    for place in keep:
        try:
            kept.add(resolve(place, data, loaded.catalog, new_key=False))
        except InputError as exc:
            for problem in exc.problems:
                problem.path = f"--keep {place}"
            raise exc.with_file(loaded.file) from None
    return kept


def suggestions(loaded: Any, kept: set[str], report: Any = None) -> list[Any]:
    """The fix proposals for a loaded design (``check --suggest`` and ``fix`` number them alike),
    none changing a place of ``kept`` (edit paths: :func:`kept_places`); ``report``: the
    design's report (:func:`~shipyard.core.designreport.design_report`) when the caller has it."""
    from shipyard.core.fixes import propose

    return propose(loaded.design, loaded.catalog, keep=kept, report=report)


def _cures(p: Any) -> str:
    """What a proposal that does not make the design pass cures: "cures 1 error", in words."""
    n = len(p.cured) or len(p.cures)
    return f"cures {n} error{'s' * (n != 1)}"


def suggestion_lines(proposals: list[Any]) -> list[str]:
    """The proposals as ``check --suggest`` lists them, each piece on its own line: a
    proposal names entries by their names (a stranger's text), escaped like every report line."""
    from shipyard.core.termtext import escape

    cut = getattr(proposals, "exhausted", False)  # the search's budget ran out (a very large design)
    if not proposals:
        if cut:
            return ["Suggested fixes: none found within the search's budget (too large a design to try every change)"]
        return ["Suggested fixes: none found (no change of one to three values or entries cures an error)"]
    out = ["Suggested fixes (shipyard fix FILE --apply N -o OUT):"]
    if cut:
        out[0] = "Suggested fixes, the best found within the search's budget (shipyard fix FILE --apply N -o OUT):"
    for i, p in enumerate(proposals, 1):
        verdict = "passes" if p.passes else _cures(p)
        out.append(f"  {i}. {escape(p.text)} — {escape(verdict)}")
        if p.effects:
            out.append(f"     {escape('; '.join(p.effects))}")
    return out


def cmd_fix(args: argparse.Namespace) -> int:
    from shipyard.core.atomicwrite import locked

    # Writing over the file it reads (--in-place, or -o naming that file with --force), fix is a
    # read-modify-write: under the file's write lock from the read to the write, as `set` does,
    # so another program's write between them is not lost. Writing elsewhere it only reads the
    # file, and holds no lock (16 fixes of one file into new files at once waited in turn).
    source = Path(args.file)
    rewrites = args.in_place or (args.output is not None and _same_file(source, Path(args.output)))
    with locked([source] if rewrites else []):
        return _fix(args)


def _same_file(a: Path, b: Path) -> bool:
    """Whether two paths name one file (a link, another spelling of the path)."""
    try:
        return a.samefile(b)
    except OSError:  # one is not there (a new output): not the same file
        return False


def _fix(args: argparse.Namespace) -> int:
    from shipyard.core.designfile import LoadedDesign, save_design
    from shipyard.core.errors import InputError

    loaded = _load(args.file, args)
    proposals = suggestions(loaded, kept_places(loaded, args.keep))
    if not proposals:
        raise InputError.single("nothing to fix: the design has no error a proposal cures", file=args.file)
    if not 1 <= args.apply <= len(proposals):
        raise InputError.single(
            f"there are {len(proposals)} proposals; --apply takes one of them",
            file=args.file,
            path="--apply",
            allowed=f"1 to {len(proposals)}",
        )
    chosen = proposals[args.apply - 1]
    out = Path(args.file if args.in_place else args.output)
    refuse_existing([out], args.force or args.in_place, rewritable=[args.file])
    save_design(
        LoadedDesign(out, loaded.ruleset, loaded.preset, chosen.design, loaded.catalog, loaded.written, loaded.tags),
        out,
    )
    from shipyard.core.termtext import escape

    outcome = "; it passes" if chosen.passes else f"; {_cures(chosen)}"
    print(escape(f"wrote {out}: {chosen.text}{outcome}"))
    return EXIT_OK if chosen.passes else EXIT_FINDINGS


__all__ = ["EXIT_INPUT", "add_commands", "suggestion_lines", "suggestions"]
