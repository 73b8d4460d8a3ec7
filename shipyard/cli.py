"""The ``shipyard`` command line: check, new, catalog, schema over the same engine.

Start-up stays light: this module imports only the standard library; each command
imports what it needs. Bad input never shows a traceback: it prints the problems
(file, line/column or path, what is wrong, what is allowed) and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from shipyard.core.commandline import (
    EXIT_FINDINGS,
    EXIT_INPUT,
    EXIT_INTERNAL,
    EXIT_OK,
    EXIT_RENDER,
    OVERWRITE_RULE,
    catalog_dirs,
    catalog_for,
    output_file,
    refuse_existing,
)


def _print_problems(exc: Exception) -> None:
    """Each problem on one line of its own: user text in it cannot start another line."""
    from shipyard.core.termtext import error_line

    problems = getattr(exc, "problems", None)
    for text in [str(p) for p in problems] if problems is not None else str(exc).splitlines():
        print(f"shipyard: error: {error_line(text)}", file=sys.stderr)


def cmd_check(args: argparse.Namespace) -> int:
    from shipyard.core.designfile import load_design
    from shipyard.core.designreport import design_report
    from shipyard.core.errors import InputError

    if args.keep and not args.suggest:
        raise InputError.single(
            "names a place the suggested fixes may not change, so it goes with --suggest", path="--keep"
        )
    results: list[dict[str, object]] = []
    status = EXIT_OK
    texts: list[str] = []
    counts = {"pass": 0, "fail": 0, "unreadable": 0}
    for name in args.files:
        try:
            loaded = load_design(
                name, preset=args.preset, catalog_folders=catalog_dirs(args), use_user_folder=not args.no_user_catalog
            )
            report = design_report(loaded.design, loaded.catalog, loaded.file)  # a plug-in may refuse (plugincode)
        except InputError as exc:
            status = EXIT_INPUT
            counts["unreadable"] += 1
            if args.json:
                results.append({"file": name, "valid": False, "error": [vars(p) for p in exc.problems]})
            else:
                _print_problems(exc)
            continue
        counts["pass" if report.valid else "fail"] += 1
        if not report.valid and status == EXIT_OK:
            status = EXIT_FINDINGS
        kept, refused = _kept_places(loaded, args)  # checked for every design, passing or not
        if refused is not None:
            status = EXIT_INPUT
        proposals = _suggestions(loaded, kept, report) if args.suggest and not report.valid and not refused else []
        if args.json:
            data = report.model_dump(mode="json")
            extra: dict[str, object] = {"suggestions": [p.as_json() for p in proposals]} if args.suggest else {}
            if refused is not None:  # the report stands; no proposal was made without the places kept
                extra["error"] = [vars(p) for p in refused.problems]
            results.append({"file": name, **data, **extra})
        else:
            from shipyard.core.textreport import render

            if refused is not None:
                _print_problems(refused)
            text = render(report, name)
            if args.suggest and not report.valid and refused is None:
                from shipyard.commands.compare_command import suggestion_lines

                text += "\n" + "\n".join(suggestion_lines(proposals)) + "\n"
            texts.append(text)
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


def _kept_places(loaded: Any, args: argparse.Namespace) -> tuple[set[str], Any]:
    """The design's ``--keep`` places as edit paths, and the input error of one that names no
    place in it (else None)."""
    from shipyard.commands.compare_command import kept_places
    from shipyard.core.errors import InputError

    try:
        return kept_places(loaded, args.keep or []), None
    except InputError as exc:
        return set(), exc


def _suggestions(loaded: Any, kept: set[str], report: Any) -> list[Any]:
    from shipyard.commands.compare_command import suggestions

    return suggestions(loaded, kept, report)


def cmd_print(args: argparse.Namespace) -> int:
    # Start the render workers first: they import WeasyPrint while we load and evaluate.
    from shipyard.render.tokens import token_spec
    from shipyard.render.worker import RenderError, RenderWorker, workers_wanted

    token = token_spec(args.token_size, args.token_shape, args.token_back)
    refuse_existing([Path(args.output)], args.force, inputs=args.files)
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
                fillable=args.fillable,
                token=token,
            )
        except RenderError as exc:
            _print_problems(exc)
            return EXIT_RENDER
    finally:
        # At once, whether the print finished or was interrupted: a finished print's workers
        # have no job left, and after a large one a worker spends a quarter of a second on
        # its collection after the job, memory its exit gives back anyway.
        for w in workers:
            w.close(wait=False)
    from shipyard.core.termtext import escape

    for note in result.art_left_out:
        print(f"shipyard: warning: {escape(note)}", file=sys.stderr)
    fields = f", {result.fields} form field(s)" if args.fillable else ""
    print(f"wrote {out}: {result.pages} page(s), {result.designs} design(s){fields}")
    return EXIT_OK


def cmd_new(args: argparse.Namespace) -> int:
    from shipyard.core.commandline import note_unusual_design_name, offered_ids, ruleset_offering
    from shipyard.core.designfile import new_design, save_design
    from shipyard.core.errors import InputError
    from shipyard.core.registry import get

    out = Path(args.output)
    note_unusual_design_name(out)
    refuse_existing([out], args.force)
    kind = args.kind
    if args.ruleset is None:
        if kind is None:
            raise InputError.single(
                "say what to make with --kind (and --ruleset where several rulesets offer that kind)",
                path="--kind",
                allowed=", ".join(offered_ids("kinds")),
            )
        ruleset = ruleset_offering("kinds", kind, "designs of kind")
    else:
        ruleset = get(args.ruleset, path="--ruleset").id
        kind = kind or get(ruleset).kinds[0].id
    loaded = new_design(
        ruleset,
        args.name,
        kind,
        preset=args.preset,
        catalog_folders=catalog_dirs(args),
        use_user_folder=not args.no_user_catalog,
    )
    save_design(loaded, out)
    print(f"wrote {out}")
    return EXIT_OK


def cmd_catalog(args: argparse.Namespace) -> int:
    from shipyard.core.registry import get, ids
    from shipyard.core.termtext import quote

    rulesets = [get(args.ruleset, path="--ruleset").id] if args.ruleset else ids()
    catalogs = [catalog_for(args, r) for r in rulesets]
    if args.kind:
        having = [c for c in catalogs if args.kind in c.items]
        if not having:
            from shipyard.core.suggest import did_you_mean

            known = sorted({k for c in catalogs for k in c.items})
            print(
                f"shipyard: error: unknown kind {quote(args.kind)}; {did_you_mean(args.kind, known)} "
                f"(allowed: {', '.join(known)})",
                file=sys.stderr,
            )
            return EXIT_INPUT
        catalogs = having
    if args.json:
        data = {
            c.meta.id: {k: [i.model_dump(mode="json") for i in c.kind(k).values()] for k in _kinds(c, args.kind)}
            for c in catalogs
        }
        print(json.dumps(data if len(catalogs) > 1 or not args.ruleset else data[catalogs[0].meta.id], indent=2))
        return EXIT_OK
    blocks = [_catalog_text(c, args.kind, show_head=not args.kind or len(catalogs) > 1) for c in catalogs]
    print("\n\n".join(blocks))
    return EXIT_OK


def _kinds(catalog: Any, kind: str | None) -> list[str]:
    return [kind] if kind else list(catalog.items)


def _catalog_text(catalog: Any, kind: str | None, show_head: bool) -> str:
    """One ruleset's catalog as text: its presets and pools, then each kind's items."""
    from shipyard.core.termtext import escape

    out: list[str] = []
    if show_head:
        out.append(f"{catalog.meta.name} ({catalog.meta.id}) — preset {catalog.preset.id if catalog.preset else ''}")
    if not kind:
        out.append(f"presets: {', '.join(catalog.presets)}")
        if catalog.pools:
            out.append(f"pools: {', '.join(p.id for p in catalog.pools)}")
    for k in _kinds(catalog, kind):
        if out:
            out.append("")
        out.append(f"{k} ({len(catalog.kind(k))})")
        for item in catalog.kind(k).values():
            cost = getattr(item, "cost", None)
            extra = ""
            if isinstance(cost, int | float) and not isinstance(cost, bool):  # a number: not a table's cost method
                extra = f"  cost {cost}" + (" each" if getattr(item, "per_level", False) else "")
                if getattr(item, "pool", None):
                    extra += f" ({item.pool})"
                scales = getattr(item, "scales", None)
                if scales:
                    extra += f"  [{', '.join(scales)} only]"
            out.append(escape(f"  {item.id:<32} {item.name}{extra}"))  # a name cannot start a line of its own
    out += [escape(f"override: {o}") for o in catalog.overrides]
    return "\n".join(out)


def cmd_schema(args: argparse.Namespace) -> int:
    if args.what == "roster":
        from shipyard.hangar.roster import roster_schema

        print(json.dumps(roster_schema(), indent=2, sort_keys=True))
        return EXIT_OK
    from shipyard.core.designfile import schema_for

    print(json.dumps(schema_for([args.ruleset] if args.ruleset else None), indent=2, sort_keys=True))
    return EXIT_OK


def _seconds(text: str) -> float:
    """--timeout: a number of seconds in the documented range (NaN, inf and 0 are not)."""
    from shipyard.render.worker import check_timeout

    try:
        return check_timeout(float(text))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc) if "seconds" in str(exc) else f"not a number: {text!r}") from None


def build_parser(wanted: str | None = None) -> argparse.ArgumentParser:
    """The command line; ``wanted`` is the subcommand being run (see _add_ruleset_commands).

    When ``wanted`` is one of the commands defined here, the commands of ``shipyard.commands``
    and of the rulesets are left out: argparse only needs the one being run, and importing
    and listing the others would be a cost of every ``shipyard check`` for nothing.
    ``shipyard --help``, a misspelt command and every other command get the whole list;
    with a command named, only that one is given its options (:class:`_OnlyOneBuilt`).
    """
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
    p.add_argument("--suggest", action="store_true", help="for a design that does not pass: changes that make it pass")
    p.add_argument(
        "--keep",
        action="append",
        metavar="PATH",
        help="with --suggest: a place the fixes may not change, as set names it (handling, weapons[Medium Laser])",
    )
    p.add_argument(
        "--summary",
        action="store_true",
        help="end with one line: designs, how many pass, how many do not (stderr with --json)",
    )
    p.set_defaults(func=cmd_check, reads_only=True)

    p = sub.add_parser("print", help="print record sheets, stat cards or a fleet book to PDF")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("-o", "--output", required=True, type=output_file(".pdf"), help="the PDF to write")
    p.add_argument(
        "--sheet",
        choices=["record", "cards", "fleet", "compare", "tokens"],
        default="record",
        help="record sheets (one page a design), stat cards (nine a page), a fleet book, a comparison sheet "
        "(two designs or more side by side), or cut-out tokens",
    )
    p.add_argument(
        "--token-size",
        default="1in",
        metavar="SIZE",
        help="tokens: their width, 12.7 to 76.2 mm (25mm, 1in, 0.75in; a hexagon across its flats), "
        "optionally with a shape ('0.75in hex'); default 1in",
    )
    p.add_argument("--token-shape", choices=["round", "square", "hex"], help="tokens: their shape (default round)")
    p.add_argument("--token-back", action="store_true", help="tokens: each beside its damaged face, to fold and glue")
    p.add_argument("--paper", choices=["a4", "letter"], help="default: $SHIPYARD_PAPER, the locale, /etc/papersize")
    catalog_opts(p)
    p.add_argument("--template", action="append", metavar="DIR", help="your own templates (searched first)")
    p.add_argument("--title", help="title of a fleet book")
    p.add_argument(
        "--timeout", type=_seconds, default=60.0, help="seconds before rendering is stopped, 1 to 3600 (default 60)"
    )
    p.add_argument("--force", action="store_true", help="replace an existing PDF")
    p.add_argument(
        "--fillable",
        action="store_true",
        help="a fillable PDF form: every tick box and write-in of the sheets is a form field, named after its "
        "place in the design (structure.3, notes)",
    )
    p.set_defaults(func=cmd_print)

    p = sub.add_parser("new", help="write a new empty design")
    p.add_argument("name")
    p.add_argument(
        "--kind",
        help="what to make, as the ruleset names its kinds (see `shipyard rulesets`): "
        "the ruleset follows from the kind when only one offers it",
    )
    p.add_argument("--scale", dest="kind", help=argparse.SUPPRESS)  # the word of earlier versions
    p.add_argument("--ruleset", help="the ruleset (default: the one that offers the kind)")
    catalog_opts(p)
    p.add_argument("-o", "--output", required=True, type=output_file(".ship"))
    p.add_argument("--force", action="store_true", help="replace an existing file")
    p.set_defaults(func=cmd_new)

    p = sub.add_parser("catalog", help="list catalog items")
    p.add_argument("action", choices=["list"])
    p.add_argument("kind", nargs="?", help="an item kind (weapons, technology ...); default: every kind")
    p.add_argument("--ruleset", help="only this ruleset's catalog (default: every installed ruleset)")
    catalog_opts(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_catalog, reads_only=True)

    p = sub.add_parser("schema", help="print the JSON Schema of design files (or of roster files)")
    p.add_argument(
        "what", nargs="?", choices=["design", "roster"], default="design", help="design files (default) or rosters"
    )
    p.add_argument("--ruleset", help="only this ruleset's design shape")
    p.set_defaults(func=cmd_schema, reads_only=True)

    if wanted not in sub.choices:  # a built-in command needs no other: the rest is for listing and lookup
        _add_extension_commands(sub if wanted is None else _OnlyOneBuilt(sub, wanted), catalog_opts)
        _add_ruleset_commands(sub, catalog_opts, wanted)
    _say_overwrite_rule(parser)
    return parser


def _say_overwrite_rule(parser: argparse.ArgumentParser) -> None:
    """The one rule for writing files, in the --help of every command that writes them (has --force)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in action.choices.values():
                if any("--force" in a.option_strings for a in command._actions):
                    command.epilog = OVERWRITE_RULE
                _say_overwrite_rule(command)


class _OnlyOneBuilt:
    """The list of subcommands as the modules of ``shipyard.commands`` fill it while one of
    them is being run: every command is still listed (argparse names them all when a command
    is misspelt), but only the one being run gets its options and subcommands.

    Why: building a command's options is most of what building the command line costs
    (argparse makes a help formatter and looks up translations for every option), and the
    extension commands have a hundred and more of them; a command being run needs only its
    own. ``shipyard --help`` and the completion script build every command in full
    (``wanted`` None)."""

    def __init__(self, sub: Any, wanted: str) -> None:
        self._sub = sub
        self._wanted = wanted

    def add_parser(self, name: str, **kwargs: Any) -> Any:
        parser = self._sub.add_parser(name, **kwargs)
        if self._wanted == name or self._wanted in kwargs.get("aliases", ()):
            return parser
        return _Unbuilt()


class _Unbuilt:
    """The parser of a command not being run: whatever its module declares on it (options,
    defaults, groups, subcommands) is accepted and left out."""

    def __getattr__(self, name: str) -> Any:
        return self._accept

    def _accept(self, *args: Any, **kwargs: Any) -> _Unbuilt:
        return self


def _add_extension_commands(sub: Any, catalog_opts: Any) -> None:
    """Subcommands contributed by the modules of ``shipyard.commands`` (see its docstring)."""
    import importlib
    import pkgutil

    import shipyard.commands as package

    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        importlib.import_module(f"{package.__name__}.{info.name}").add_commands(sub, catalog_opts)


def _add_ruleset_commands(sub: Any, catalog_opts: Any, wanted: str | None) -> None:
    """Subcommands the installed rulesets contribute, listed from their manifests.

    Only the command being run has its module imported (to add its options); the others
    appear in ``shipyard --help`` with their manifest's help text and cost nothing.
    """
    from shipyard.core.registry import problems, rulesets
    from shipyard.core.rulesetimport import command_module
    from shipyard.core.termtext import error_line

    # Written before output is escaped (see _run_command): each note escaped on its own line.
    taken = set(sub.choices)
    for info in rulesets():
        for command in info.commands:
            if command.name in taken:
                problems_seen = f"ruleset {info.id!r}: its command {command.name!r} is already taken; ignored"
                print(f"shipyard: note: {error_line(problems_seen)}", file=sys.stderr)
                continue
            taken.add(command.name)
            p = sub.add_parser(command.name, help=command.help, description=command.help)
            if command.name == wanted:
                command_module(info, command).add_arguments(p, catalog_opts)
    for problem in problems():
        print(f"shipyard: note: {error_line(str(problem))}", file=sys.stderr)


class _Terminated(KeyboardInterrupt):
    """SIGTERM, handled as Ctrl-C is: render workers are stopped, nothing half-written is left."""


def _on_sigterm(signum: int, frame: object) -> None:
    from shipyard.core.plugincode import stopped_by_signal

    stopped_by_signal()  # not the plug-in's doing, if one was running
    raise _Terminated


def _on_sigint(signum: int, frame: object) -> None:
    """Ctrl-C, as Python's own handler answers it, said to the plug-in guard first (see _on_sigterm)."""
    from shipyard.core.plugincode import stopped_by_signal

    stopped_by_signal()
    raise KeyboardInterrupt


def run() -> None:
    """The ``shipyard`` console script and ``python -m shipyard``: the command, then the end."""
    from shipyard._speedups import fewer_collections

    fewer_collections()
    raise SystemExit(main(end_process=True))


def main(argv: Sequence[str] | None = None, *, end_process: bool = False) -> int:
    """Run one command; ``end_process``: end the process when a read-only command is done."""
    # Shipyard uses no pydantic plugins; discovering them scans every installed package.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    from shipyard._speedups import no_pydantic_plugin_search, quicker_default_factories, translations_looked_up_once

    no_pydantic_plugin_search()  # nor looked for, which imports importlib.metadata
    quicker_default_factories()
    translations_looked_up_once()  # argparse asks for its translation at every option
    argv = sys.argv[1:] if argv is None else list(argv)
    if "export" in argv:
        from shipyard.exports import format_first

        argv = format_first(argv)
    wanted = next((a for a in argv if not a.startswith("-")), None)
    from shipyard.core.errors import InputError
    from shipyard.hangar import follow_saves

    follow_saves()  # every design a command writes into a library folder is indexed at once

    try:
        parser = build_parser(wanted)
    except InputError as exc:  # a ruleset's command module that cannot be imported
        _print_problems(exc)
        return EXIT_INPUT
    args = parser.parse_args(argv)
    args.build_parser = build_parser  # for a command that lists the others (completion), which may not import cli
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_INPUT
    code = _run_command(args)
    if end_process and (getattr(args, "reads_only", False) or getattr(args, "done_when_returned", False)):
        from shipyard._speedups import end_process_now

        end_process_now(code)
    return code


def _run_command(args: argparse.Namespace) -> int:
    """The command's handler, its errors turned into messages and exit codes."""
    from shipyard.core.errors import InputError
    from shipyard.core.termtext import TerminalStream

    # Everything printed passes through the terminal-text escape (see shipyard.core.termtext).
    streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = TerminalStream(sys.stdout), TerminalStream(sys.stderr)
    sigterm = sigint = None
    if threading.current_thread() is threading.main_thread():
        sigterm = signal.signal(signal.SIGTERM, _on_sigterm)
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            sigint = signal.signal(signal.SIGINT, _on_sigint)
    try:
        return int(args.func(args))
    except InputError as exc:
        _print_problems(exc)
        return EXIT_INPUT
    except KeyboardInterrupt as exc:
        return 128 + (signal.SIGTERM if isinstance(exc, _Terminated) else signal.SIGINT)
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # never a traceback for the user; SHIPYARD_DEBUG=1 shows it
        if os.environ.get("SHIPYARD_DEBUG"):
            raise
        from shipyard.core.termtext import error_line

        print(
            f"shipyard: internal error: {type(exc).__name__}: {error_line(str(exc))}\n"
            "shipyard: this is a bug; run again with SHIPYARD_DEBUG=1 and report the output",
            file=sys.stderr,
        )
        return EXIT_INTERNAL
    finally:
        sys.stdout, sys.stderr = streams
        if sigterm is not None:
            signal.signal(signal.SIGTERM, sigterm)
        if sigint is not None:
            signal.signal(signal.SIGINT, sigint)


if __name__ == "__main__":
    run()
