"""``shipyard import statblock``, ``shipyard export statblock`` and ``shipyard convert trinity``.

Reading and writing stat-block text and converting Trinity vessels happen in
``shipyard.convert``; these handlers read the files, print the reports and write the
results atomically. Nothing is written unless everything could be read: bad input is an
InputError (exit 2) and a stat block with parts that were not understood is refused too,
unless ``--partial`` asks for the design anyway (the parts are then kept in its notes).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

from shipyard.core.commandline import EXIT_INPUT, EXIT_OK, catalog_dirs, catalog_for, refuse_existing

STDIN = "-"


def add_commands(sub: Any, catalog_opts: Any) -> None:
    p = sub.add_parser("import", help="make designs from text written elsewhere (stat blocks)")
    formats = p.add_subparsers(dest="format", metavar="FORMAT", required=True)
    q = formats.add_parser(
        "statblock",
        help="stat-block text as the rules print it ('Name: ... Scale: ... Weapons: ...')",
        description="Read stat blocks (labels on one line or one per line, any case, Markdown allowed) "
        "and write one design file per block. Every part of the text is reported: used, or not "
        "understood with the closest catalog names.",
    )
    q.add_argument("file", metavar="FILE", help="text file with one or more stat blocks, or - for standard input")
    q.add_argument(
        "-o", "--output", required=True, help="design file to write; a folder when the text holds several blocks"
    )
    q.add_argument("--ruleset", help="the ruleset the text is written for (default: the one that reads stat blocks)")
    catalog_opts(q)
    q.add_argument(
        "--partial",
        action="store_true",
        help="write the design even if parts of the text were not understood (they go into its notes)",
    )
    q.add_argument("--force", action="store_true", help="replace existing files")
    q.add_argument("--json", action="store_true", help="print the import reports as JSON")
    q.set_defaults(func=cmd_import_statblock)

    p = sub.add_parser("export", help="write designs as text for other places (stat blocks)")
    formats = p.add_subparsers(dest="format", metavar="FORMAT", required=True)
    q = formats.add_parser(
        "statblock",
        help="the design as the rules print a stat block",
        description="Print designs as stat-block text (or Markdown for forums). Importing the text "
        "gives back the same design for everything a stat block can hold.",
    )
    q.add_argument("files", nargs="+", metavar="FILE", help="design files")
    q.add_argument("--markdown", action="store_true", help="a Markdown list for forums")
    q.add_argument("-o", "--output", help="write the text to this file instead of standard output")
    q.add_argument("--force", action="store_true", help="replace an existing output file")
    catalog_opts(q)
    q.set_defaults(func=cmd_export_statblock)

    p = sub.add_parser("convert", help="convert spacecraft from other games (Trinity)")
    systems = p.add_subparsers(dest="system", metavar="SYSTEM", required=True)
    q = systems.add_parser(
        "trinity",
        help="a Trinity vessel (YAML or JSON), per Appendix 2",
        description="Convert a Trinity vessel per Appendix 2 of Space Fighter Alpha. The conversion "
        "report is printed and kept in the design's notes; the design is marked as converted, "
        "so its budgets are for information.",
    )
    q.add_argument("file", metavar="FILE", help="the vessel: .yaml/.yml or .json")
    q.add_argument("-o", "--output", required=True, help="the design file to write")
    defaults = "the conversion table's default (catalogs/trinity/conversion.yaml; the report says which)"
    q.add_argument("--structure", type=int, help=f"Structure, which Trinity has not; default: {defaults}")
    q.add_argument("--power", type=int, help=f"Power, which Trinity has not; default: {defaults}")
    q.add_argument("--crew", type=int, help=f"crew; default: {defaults}")
    q.add_argument("--force", action="store_true", help="replace an existing file")
    q.add_argument("--json", action="store_true", help="print the conversion report as JSON")
    catalog_opts(q)
    q.set_defaults(func=cmd_convert_trinity)


# --- import statblock ---------------------------------------------------------------------------


def _read_text(name: str) -> tuple[str, str]:
    """The text of FILE (or standard input) and the name to report it by."""
    from shipyard.convert.statblock import MAX_TEXT_BYTES
    from shipyard.core.usertext import decode, read_limited

    label = "<stdin>" if name == STDIN else name
    source = sys.stdin.buffer if name == STDIN else Path(name)
    return decode(read_limited(source, label, MAX_TEXT_BYTES, "stat-block text"), label), label


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:60] or "design"


def cmd_import_statblock(args: argparse.Namespace) -> int:
    from shipyard.convert.statblock import import_statblocks
    from shipyard.core.commandline import ruleset_offering
    from shipyard.core.designfile import EXTENSION, make_folder, save_designs
    from shipyard.core.errors import InputError
    from shipyard.core.termtext import escape, quote

    text, label = _read_text(args.file)
    catalog = catalog_for(args, args.ruleset or ruleset_offering("formats", "statblock", "stat-block text"))
    try:
        results = import_statblocks(text, catalog, source=label)
    except InputError as exc:
        raise exc.with_file(label) from None
    out = Path(args.output)
    # a folder: an existing one, a name ending in a slash ("-o ships/"), or several blocks
    as_folder = out.is_dir() or args.output.endswith(("/", os.sep)) or len(results) > 1
    if not as_folder:
        targets = [out]
    else:
        if out.exists() and not out.is_dir():
            why = "-o ends in a slash" if len(results) == 1 else f"the text holds {len(results)} stat blocks"
            raise InputError.single(f"{why}, so -o must name a folder, but this is a file", file=str(out))
        names: list[str] = []
        for r in results:
            base = _slug(r.design.name)
            name, n = base, 2
            while name in names:
                name, n = f"{base}-{n}", n + 1
            names.append(name)
        targets = [out / f"{n}{EXTENSION}" for n in names]
    if args.json:
        print(json.dumps([r.report.model_dump(mode="json") for r in results], indent=2, ensure_ascii=False))
    else:
        for r in results:
            print("\n".join(map(escape, r.report.lines())))
    refused = [r for r in results if not r.ok]
    if refused and not args.partial:
        for r in refused:
            print(
                f"shipyard: error: {escape(label)}: {quote(r.design.name)}: {len(r.report.not_understood)} part(s) not "
                "understood (listed above); nothing written. Fix the text, or use --partial to write the "
                "design without them (they are kept in its notes).",
                file=sys.stderr,
            )
        return EXIT_INPUT
    refuse_existing(targets, args.force, inputs=[] if args.file == STDIN else [args.file])
    designs = []
    for r, target in zip(results, targets, strict=True):
        loaded = r.loaded(target)
        loaded.design = r.design_with_report_notes() if not r.ok else r.design
        designs.append((loaded, target))
    new_folder = as_folder and not out.exists()
    if as_folder:
        make_folder(out)
    try:
        save_designs(designs)  # all or nothing: a full disk at the 15th of 200 leaves none
    except BaseException:
        if new_folder:
            with contextlib.suppress(OSError):
                out.rmdir()
        raise
    for target in targets:
        print(f"wrote {target}")
    return EXIT_OK


# --- export statblock ---------------------------------------------------------------------------


def cmd_export_statblock(args: argparse.Namespace) -> int:
    from shipyard.convert.statblock import export_statblock, lost_in_text
    from shipyard.core.designfile import atomic_write_text, load_design

    texts: list[str] = []
    for name in args.files:
        loaded = load_design(
            name, preset=args.preset, catalog_folders=catalog_dirs(args), use_user_folder=not args.no_user_catalog
        )
        texts.append(export_statblock(loaded.design, loaded.catalog, markdown=args.markdown))
        lost = lost_in_text(loaded.design, loaded.catalog)
        if lost:
            print(f"shipyard: note: {name}: a stat block cannot hold {', '.join(lost)}", file=sys.stderr)
    text = "\n".join(texts)
    if args.output:
        target = Path(args.output)
        refuse_existing([target], args.force, inputs=args.files)
        atomic_write_text(target, text)
        print(f"wrote {target}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return EXIT_OK


# --- convert trinity ----------------------------------------------------------------------------


def cmd_convert_trinity(args: argparse.Namespace) -> int:
    from shipyard.convert.trinity import convert_vessel, load_table, load_vessel, locate
    from shipyard.core.designfile import EXTENSION, save_design
    from shipyard.core.errors import InputError
    from shipyard.core.termtext import escape

    out = Path(args.output)
    if out.suffix != EXTENSION:
        print(f"shipyard: note: design files usually end in {EXTENSION}", file=sys.stderr)
    vessel, doc = load_vessel(args.file)
    table = load_table()
    catalog = catalog_for(args, table.target_ruleset)
    try:
        result = convert_vessel(vessel, catalog, structure=args.structure, power=args.power, crew=args.crew)
    except InputError as exc:
        raise locate(exc, args.file, doc) from None
    refuse_existing([out], args.force, inputs=[args.file])
    if args.json:
        print(json.dumps([n.model_dump(mode="json") for n in result.notes], indent=2, ensure_ascii=False))
    else:
        print("\n".join(map(escape, result.report_lines())))
    save_design(result.loaded(out), out)
    print(f"wrote {out}")
    return EXIT_OK
