"""``shipyard import FORMAT``, ``shipyard export FORMAT`` and ``shipyard convert SYSTEM``.

The formats and conversions are the installed rulesets' (their manifests list them, see
docs/rulesets.md); these handlers read the files, print the reports and write the results
atomically. Nothing is written unless everything could be read: bad input is an
InputError (exit 2) and a text with parts that were not understood is refused too,
unless ``--partial`` asks for the design anyway (the parts are then kept in its notes).

The parser lists formats and conversions, and a conversion's own options, from the
manifests; a format's or conversion's module is imported only when it runs, and is called
through the contracts of :mod:`shipyard.core.textformats`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from shipyard.core.commandline import (
    EXIT_INPUT,
    EXIT_OK,
    catalog_dirs,
    catalog_for,
    note_unusual_design_name,
    output_file,
    refuse_existing,
)

if TYPE_CHECKING:
    from shipyard.core.textformats import TextFormatModule

STDIN = "-"


def _offered(attr: str) -> dict[str, list[tuple[Any, Any]]]:
    """Each format (or conversion) id with the rulesets that offer it and its manifest entry."""
    from shipyard.core.registry import rulesets

    out: dict[str, list[tuple[Any, Any]]] = {}
    for info in rulesets():
        for entry in getattr(info, attr):
            out.setdefault(entry.id, []).append((info, entry))
    return out


def add_commands(sub: Any, catalog_opts: Any) -> None:
    formats = _offered("formats")
    p = sub.add_parser("import", help="make designs from text written elsewhere (stat blocks ...)")
    readers = p.add_subparsers(dest="format", metavar="FORMAT", required=True)
    for fid, offers in formats.items():
        _info, entry = offers[0]
        if not any(e.reads for _, e in offers):
            continue
        q = readers.add_parser(fid, help=entry.help or entry.name, description=entry.help or entry.name)
        q.add_argument("file", metavar="FILE", help=f"a file of {entry.name}, or - for standard input")
        q.add_argument(
            "-o", "--output", required=True, help="design file to write; a folder when the text holds several designs"
        )
        q.add_argument("--ruleset", help=f"the ruleset the text is written for (default: the one that reads {fid})")
        catalog_opts(q)
        q.add_argument(
            "--partial",
            action="store_true",
            help="write the design even if parts of the text were not understood (they go into its notes)",
        )
        q.add_argument("--force", action="store_true", help="replace existing files")
        q.add_argument("--json", action="store_true", help="print the import reports as JSON")
        q.set_defaults(func=cmd_import)
    from shipyard.exports import add_foundry_import

    add_foundry_import(readers, catalog_opts)

    p = sub.add_parser(
        "export",
        help="write designs for other places: text (stat blocks ...), card, token or sheet PNGs",
        description="shipyard export FORMAT FILE... [options]; a picture or Foundry format may also follow the "
        "files, as --format FORMAT (shipyard export FILE... --format token-png -o DIR). "
        "'shipyard export FORMAT --help' lists a format's options.",
    )
    writers = p.add_subparsers(dest="format", metavar="FORMAT", required=True)
    for fid, offers in formats.items():
        _info, entry = offers[0]
        if not any(e.writes for _, e in offers):
            continue
        q = writers.add_parser(fid, help=f"the design as {entry.name}", description=entry.help or entry.name)
        q.add_argument("files", nargs="+", metavar="FILE", help="design files")
        q.add_argument("--markdown", action="store_true", help="Markdown, for forums")
        q.add_argument(
            "-o", "--output", type=output_file(".txt"), help="write the text to this file instead of standard output"
        )
        q.add_argument("--force", action="store_true", help="replace an existing output file")
        catalog_opts(q)
        q.set_defaults(func=cmd_export)
    from shipyard.exports import add_image_exports

    add_image_exports(writers, catalog_opts)

    p = sub.add_parser("convert", help="convert spacecraft from other games")
    systems = p.add_subparsers(dest="system", metavar="SYSTEM", required=True)
    for cid, offers in _offered("conversions").items():
        info, entry = offers[0]
        q = systems.add_parser(cid, help=entry.help or entry.name, description=entry.help or entry.name)
        q.add_argument("file", metavar="FILE", help=f"the {entry.name} to convert")
        q.add_argument("-o", "--output", required=True, type=output_file(".ship"), help="the design file to write")
        for option in entry.options:  # the conversion's own, from its manifest
            q.add_argument(f"--{option.name}", type=int if option.type == "int" else str, help=option.help)
        q.add_argument("--force", action="store_true", help="replace an existing file")
        q.add_argument("--json", action="store_true", help="print the conversion report as JSON")
        catalog_opts(q)
        q.set_defaults(func=cmd_convert, ruleset=info.id)


def _format(args: argparse.Namespace, ruleset: str | None, direction: str) -> tuple[str, TextFormatModule, Any]:
    """The ruleset, the module and the manifest entry of the format ``args.format`` (of the only
    ruleset offering it, or of ``ruleset``)."""
    from shipyard.core.commandline import ruleset_offering
    from shipyard.core.errors import InputError
    from shipyard.core.registry import get
    from shipyard.core.textformats import text_format

    rid = ruleset or ruleset_offering("formats", args.format, "the text format")
    info = get(rid, path="--ruleset")
    entry = next((f for f in info.formats if f.id == args.format and getattr(f, direction)), None)
    if entry is None:
        raise InputError.single(
            f"{info.name} does not {'read' if direction == 'reads' else 'write'} {args.format!r}",
            path="--ruleset",
            allowed=", ".join(f.id for f in info.formats) or "none",
        )
    return rid, text_format(info, entry), entry


# --- import -------------------------------------------------------------------------------------


def _read_text(name: str, limit: int, what: str) -> tuple[str, str]:
    """The text of FILE (or standard input) and the name to report it by."""
    from shipyard.core.usertext import decode, read_limited

    label = "<stdin>" if name == STDIN else name
    source = sys.stdin.buffer if name == STDIN else Path(name)
    return decode(read_limited(source, label, limit, what), label), label


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:60] or "design"


def cmd_import(args: argparse.Namespace) -> int:
    from shipyard.core.designfile import EXTENSION, make_folder, save_designs
    from shipyard.core.errors import InputError
    from shipyard.core.safepaths import exists, is_folder
    from shipyard.core.termtext import escape, quote

    ruleset, fmt, entry = _format(args, args.ruleset, "reads")
    text, label = _read_text(args.file, fmt.MAX_TEXT_BYTES, entry.name)
    catalog = catalog_for(args, ruleset)
    try:
        results = fmt.read(text, catalog, source=label)
    except InputError as exc:
        raise exc.with_file(label) from None
    out = Path(args.output)
    # a folder: an existing one, a name ending in a slash ("-o ships/"), or several designs
    as_folder = is_folder(out) or args.output.endswith(("/", os.sep)) or len(results) > 1
    if not as_folder:
        targets = [out]
        note_unusual_design_name(out)
    else:
        why = "-o ends in a slash" if len(results) == 1 else f"the text holds {len(results)} designs"
        if exists(out) and not is_folder(out):
            raise InputError.single(f"{why}, so -o must name a folder, but this is a file", file=str(out))
        if not exists(out) and out.suffix.lower() == EXTENSION and not args.output.endswith(("/", os.sep)):
            # "-o fleet.ship" was meant as one file: a folder of that name is not what was asked
            raise InputError.single(
                f"{why}, so -o must name a folder (each design is written into it, named after the design), "
                f"but {out.name} is named like a design file",
                file=str(out),
                allowed=f"a folder, for example {out.with_suffix('')}{os.sep}",
            )
        names: list[str] = []
        for r in results:
            base = _slug(r.design.name)
            name, n = base, 2
            while name in names:
                name, n = f"{base}-{n}", n + 1
            names.append(name)
        targets = [out / f"{n}{EXTENSION}" for n in names]

    def say_reports() -> None:
        if args.json:
            print(json.dumps([r.report.model_dump(mode="json") for r in results], indent=2, ensure_ascii=False))
        else:
            for r in results:
                print("\n".join(map(escape, r.report.lines())))

    refused = [r for r in results if not r.ok]
    if refused and not args.partial:
        say_reports()
        for r in refused:
            print(
                f"shipyard: error: {escape(label)}: {quote(r.design.name)}: {len(r.report.not_understood)} part(s) not "
                "understood (listed above); nothing written. Fix the text, or use --partial to write the "
                "design without them (they are kept in its notes).",
                file=sys.stderr,
            )
        return EXIT_INPUT
    refuse_existing(targets, args.force, inputs=[] if args.file == STDIN else [args.file], into_folder=as_folder)
    designs = []
    for r, target in zip(results, targets, strict=True):
        loaded = r.loaded(target)
        loaded.design = r.design_with_report_notes() if not r.ok else r.design
        designs.append((loaded, target))
    new_folder = as_folder and not exists(out)
    if as_folder:
        make_folder(out)
    try:
        save_designs(designs)  # all or nothing: a full disk at the 15th of 200 leaves none
    except BaseException:
        if new_folder:
            with contextlib.suppress(OSError):
                out.rmdir()
        raise
    # The report is said once the files are written: a reader that stops early (``| head``)
    # ends the output, and the command with it, after the work and never before it.
    say_reports()
    for target in targets:
        print(f"wrote {target}")
    return EXIT_OK


# --- export -------------------------------------------------------------------------------------


def cmd_export(args: argparse.Namespace) -> int:
    from shipyard.core.designfile import atomic_write_text, load_design
    from shipyard.core.textformats import left_out_of_text
    from shipyard.core.usertext import document_text

    texts: list[str] = []
    for name in args.files:
        loaded = load_design(
            name, preset=args.preset, catalog_folders=catalog_dirs(args), use_user_folder=not args.no_user_catalog
        )
        _, fmt, entry = _format(args, loaded.ruleset, "writes")
        texts.append(document_text(fmt.write(loaded.design, loaded.catalog, markdown=args.markdown)))
        lost = left_out_of_text(fmt, loaded.design, loaded.catalog)
        if lost:
            print(f"shipyard: note: {name}: {entry.name} cannot hold {', '.join(lost)}", file=sys.stderr)
    text = "\n".join(texts)
    if text and not text.endswith("\n"):
        text += "\n"  # a text file ends its last line, and a terminal's prompt starts on a line of its own
    if args.output:
        target = Path(args.output)
        refuse_existing([target], args.force, inputs=args.files)
        atomic_write_text(target, text)
        print(f"wrote {target}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return EXIT_OK


# --- convert ------------------------------------------------------------------------------------


def cmd_convert(args: argparse.Namespace) -> int:
    from shipyard.core.designfile import save_design
    from shipyard.core.errors import InputError
    from shipyard.core.registry import get
    from shipyard.core.termtext import escape
    from shipyard.core.textformats import conversion as conversion_of

    info = get(args.ruleset)
    entry = next(c for c in info.conversions if c.id == args.system)
    if args.file == STDIN:  # a conversion reads a file (its line and column name each problem)
        raise InputError.single(
            f"convert {args.system} reads a file, not standard input ('-')",
            allowed=f"the {entry.name} file's name; save the text to a file first",
        )
    conversion = conversion_of(info, entry)
    out = Path(args.output)
    note_unusual_design_name(out)
    options = {o.name: getattr(args, o.name.replace("-", "_")) for o in entry.options}
    try:
        result = conversion.convert_file(Path(args.file), catalog_for(args, info.id), options)
    except InputError as exc:
        for problem in exc.problems:  # a problem with an option, as the command line spells it
            if problem.path in options and problem.file is None:
                problem.path = f"--{problem.path}"
        raise
    refuse_existing([out], args.force, inputs=[args.file])
    save_design(result.loaded(out), out)  # before the report: a reader that stops early ends the output, not the work
    if args.json:
        print(json.dumps([n.model_dump(mode="json") for n in result.notes], indent=2, ensure_ascii=False))
    else:
        print("\n".join(map(escape, result.report_lines())))
    print(f"wrote {out}")
    return EXIT_OK
