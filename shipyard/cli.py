"""The ``shipyard`` command line: check, new, catalog, schema over the same engine.

Start-up stays light: this module imports only the standard library; each command
imports what it needs. Bad input never shows a traceback: it prints the problems
(file, line/column or path, what is wrong, what is allowed) and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from shipyard.commands._common import (
    EXIT_FINDINGS,
    EXIT_INPUT,
    EXIT_INTERNAL,
    EXIT_OK,
    EXIT_RENDER,
    catalog_dirs,
    catalog_for,
    refuse_existing,
)


def _print_problems(exc: Exception) -> None:
    for line in str(exc).splitlines():
        print(f"shipyard: error: {line}", file=sys.stderr)


def cmd_check(args: argparse.Namespace) -> int:
    from shipyard.core.designfile import load_design
    from shipyard.core.errors import InputError
    from shipyard.core.evaluate import evaluate

    results: list[dict[str, object]] = []
    status = EXIT_OK
    texts: list[str] = []
    counts = {"pass": 0, "fail": 0, "unreadable": 0}
    for name in args.files:
        try:
            loaded = load_design(
                name, preset=args.preset, catalog_folders=catalog_dirs(args), use_user_folder=not args.no_user_catalog
            )
        except InputError as exc:
            status = EXIT_INPUT
            counts["unreadable"] += 1
            if args.json:
                results.append({"file": name, "valid": False, "error": [vars(p) for p in exc.problems]})
            else:
                _print_problems(exc)
            continue
        report = evaluate(loaded.design, loaded.catalog)
        counts["pass" if report.valid else "fail"] += 1
        if not report.valid and status == EXIT_OK:
            status = EXIT_FINDINGS
        if args.json:
            data = report.model_dump(mode="json")
            results.append({"file": name, **data})
        else:
            from shipyard.core.textreport import render

            texts.append(render(report, name))
    if args.json:
        print(json.dumps(results, indent=2, ensure_ascii=False))
    else:
        sys.stdout.write("\n".join(texts))
    if args.summary:
        n, ok, bad = len(args.files), counts["pass"], counts["fail"]
        line = f"{n} design{'s' * (n != 1)}: {ok} pass{'es' * (ok == 1)}, {bad} do{'es' * (bad == 1)} not pass"
        line += f", {counts['unreadable']} could not be read" if counts["unreadable"] else ""
        sys.stdout.flush()
        print(line, file=sys.stderr if args.json else sys.stdout)
    return status


def cmd_print(args: argparse.Namespace) -> int:
    # Start the render workers first: they import WeasyPrint while we load and evaluate.
    from shipyard.render.worker import RenderError, RenderWorker, workers_wanted

    workers: list[RenderWorker] = []
    try:
        for _ in range(workers_wanted(args.sheet, len(args.files), os.cpu_count())):
            workers.append(RenderWorker())
        from shipyard.render.paper import default_paper
        from shipyard.render.printing import print_designs

        out = Path(args.output)
        if out.suffix.lower() != ".pdf":
            print(f"shipyard: note: writing PDF to {out}", file=sys.stderr)
        try:
            result = print_designs(
                args.files,
                out,
                sheet=args.sheet,
                paper=args.paper or default_paper(),
                preset=args.preset,
                catalog_dirs=catalog_dirs(args),
                user_template_dirs=[Path(t) for t in args.template or []],
                timeout=args.timeout,
                workers=workers,
                use_user_folder=not args.no_user_catalog,
                title=args.title or "",
            )
        except RenderError as exc:
            print(f"shipyard: error: {exc}", file=sys.stderr)
            return EXIT_RENDER
    finally:
        for w in workers:
            w.close()
    print(f"wrote {out}: {result.pages} page(s), {result.designs} design(s)")
    return EXIT_OK


def cmd_new(args: argparse.Namespace) -> int:
    from shipyard.core.designfile import EXTENSION, new_design, save_design

    out = Path(args.output)
    if out.suffix != EXTENSION:
        print(f"shipyard: note: design files usually end in {EXTENSION}", file=sys.stderr)
    refuse_existing([out], args.force)
    loaded = new_design(args.ruleset, args.name, args.scale, preset=args.preset)
    save_design(loaded, out)
    print(f"wrote {out}")
    return EXIT_OK


def cmd_catalog(args: argparse.Namespace) -> int:
    catalog = catalog_for(args, args.ruleset)
    kinds = [args.kind] if args.kind else list(catalog.items)
    if args.kind and args.kind not in catalog.items:
        from shipyard.core.suggest import did_you_mean

        print(
            f"shipyard: error: unknown kind {args.kind!r}; {did_you_mean(args.kind, catalog.items)} "
            f"(allowed: {', '.join(catalog.items)})",
            file=sys.stderr,
        )
        return EXIT_INPUT
    if args.json:
        data = {k: [i.model_dump(mode="json") for i in catalog.kind(k).values()] for k in kinds}
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return EXIT_OK
    if not args.kind:
        print(f"{catalog.meta.name} ({catalog.meta.id}) — preset {catalog.preset.id if catalog.preset else ''}")
        print(f"presets: {', '.join(catalog.presets)}")
        print(f"pools: {', '.join(p.id for p in catalog.pools)}")
    for i, kind in enumerate(kinds):
        if i or not args.kind:  # a blank line between sections, none before the first line printed
            print()
        print(f"{kind} ({len(catalog.kind(kind))})")
        for item in catalog.kind(kind).values():
            cost = getattr(item, "cost", None)
            extra = ""
            if cost is not None:
                extra = f"  cost {cost}" + (" each" if getattr(item, "per_level", False) else "")
                if getattr(item, "pool", None):
                    extra += f" ({item.pool})"
                scales = getattr(item, "scales", None)
                if scales:
                    extra += f"  [{', '.join(scales)} only]"
            print(f"  {item.id:<32} {item.name}{extra}")
    for o in catalog.overrides:
        print(f"override: {o}")
    return EXIT_OK


def cmd_schema(args: argparse.Namespace) -> int:
    from shipyard.core.designfile import schema_for

    print(json.dumps(schema_for([args.ruleset] if args.ruleset else None), indent=2, sort_keys=True))
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    from shipyard import __version__

    parser = argparse.ArgumentParser(prog="shipyard", description="Build, check and print tabletop spacecraft designs.")
    parser.add_argument("--version", action="version", version=f"shipyard {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def catalog_opts(p: argparse.ArgumentParser) -> None:
        p.add_argument("--preset", help="preset id (default: the design's own, else the ruleset's default)")
        p.add_argument(
            "--catalog",
            action="append",
            metavar="DIR",
            help="extra catalog folder with house rules (repeatable; later folders win)",
        )
        p.add_argument(
            "--no-user-catalog",
            action="store_true",
            help="ignore the user's catalog folder ($XDG_DATA_HOME/shipyard/catalogs)",
        )

    p = sub.add_parser("check", help="check designs: budgets, figures and every problem")
    p.add_argument("files", nargs="+", metavar="FILE")
    catalog_opts(p)
    p.add_argument("--json", action="store_true", help="print a JSON array, one object per file")
    p.add_argument(
        "--summary",
        action="store_true",
        help="end with one line: designs, how many pass, how many do not (stderr with --json)",
    )
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("print", help="print record sheets, stat cards or a fleet book to PDF")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("-o", "--output", required=True, help="the PDF to write")
    p.add_argument(
        "--sheet",
        choices=["record", "cards", "fleet"],
        default="record",
        help="record sheets (one page a design), stat cards (nine a page) or a fleet book",
    )
    p.add_argument("--paper", choices=["a4", "letter"], help="default: $SHIPYARD_PAPER, the locale, /etc/papersize")
    catalog_opts(p)
    p.add_argument("--template", action="append", metavar="DIR", help="your own templates (searched first)")
    p.add_argument("--title", help="title of a fleet book")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds before rendering is stopped (default 60)")
    p.set_defaults(func=cmd_print)

    p = sub.add_parser("new", help="write a new empty design")
    p.add_argument("name")
    p.add_argument("--scale", required=True, help="starfighter, starship, starship+1 ...")
    p.add_argument("--ruleset", default="space-fighter-alpha")
    p.add_argument("--preset")
    p.add_argument("-o", "--output", required=True)
    p.add_argument("--force", action="store_true", help="replace an existing file")
    p.set_defaults(func=cmd_new)

    p = sub.add_parser("catalog", help="list catalog items")
    p.add_argument("action", choices=["list"])
    p.add_argument("kind", nargs="?", help="weapons, technology, accessories ...")
    p.add_argument("--ruleset", default="space-fighter-alpha")
    catalog_opts(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_catalog)

    p = sub.add_parser("schema", help="print the JSON Schema of design files")
    p.add_argument("--ruleset", help="only this ruleset's design shape")
    p.set_defaults(func=cmd_schema)

    _add_extension_commands(sub, catalog_opts)
    return parser


def _add_extension_commands(sub: Any, catalog_opts: Any) -> None:
    """Subcommands contributed by the modules of ``shipyard.commands`` (see its docstring)."""
    import importlib
    import pkgutil

    import shipyard.commands as package

    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):  # shared helpers, not commands
            continue
        importlib.import_module(f"{package.__name__}.{info.name}").add_commands(sub, catalog_opts)


def main(argv: Sequence[str] | None = None) -> int:
    # Shipyard uses no pydantic plugins; discovering them scans every installed package.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_INPUT
    from shipyard.core.errors import InputError

    try:
        return int(args.func(args))
    except InputError as exc:
        _print_problems(exc)
        return EXIT_INPUT
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # never a traceback for the user; SHIPYARD_DEBUG=1 shows it
        if os.environ.get("SHIPYARD_DEBUG"):
            raise
        print(
            f"shipyard: internal error: {type(exc).__name__}: {exc}\n"
            "shipyard: this is a bug; run again with SHIPYARD_DEBUG=1 and report the output",
            file=sys.stderr,
        )
        return EXIT_INTERNAL


if __name__ == "__main__":
    raise SystemExit(main())
