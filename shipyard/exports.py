"""``shipyard export card-png | token-png | sheet-png FILES -o DIR``: pictures for virtual tabletops.

Also written ``shipyard export FILES --format card-png -o DIR`` (see :func:`format_first`).
Every PNG is made before any is written, and then all are written or none: a design that
cannot be read, a file that exists (without ``--force``), a render or a write that fails
(a full disk) leaves the folder as it was, and a folder made for the export is removed.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from shipyard.core.commandline import EXIT_OK, EXIT_RENDER, catalog_dirs, output_file, output_folder, refuse_existing

IMAGE_FORMATS = ("card-png", "token-png", "sheet-png")
EXPORT_FORMATS = (*IMAGE_FORMATS, "foundry")
FOUNDRY_MAJORS = (12, 13)  # shipyard.core.foundry.FOUNDRY_VERSIONS, without importing it for --help
WORLD_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$")
WORLD_HELP = "a Foundry world's folder name: letters, digits, '-' and '_' (as in Data/worlds/NAME)"


def format_first(argv: Sequence[str]) -> list[str]:
    """``export FILES --format F ...`` as ``export F FILES ...``, the form the parser reads.

    Whatever F is: a format mistyped (``--format card-pngs``) is then the parser's unknown
    format, listed against the formats there are, where left in place the first file was
    taken for the format ("invalid choice: 'red-five.ship'").
    """
    args = list(argv)
    if "export" not in args:
        return args
    at = args.index("export")
    for i in range(at + 1, len(args)):
        a = args[i]
        if a == "--format" and i + 1 < len(args):
            fmt = args[i + 1]
            rest = args[at + 1 : i] + args[i + 2 :]
            return [*args[: at + 1], fmt, *rest]
        if a.startswith("--format="):
            rest = args[at + 1 : i] + args[i + 1 :]
            return [*args[: at + 1], a.split("=", 1)[1], *rest]
    return args


def add_image_exports(writers: Any, catalog_opts: Any) -> None:
    helps = {
        "card-png": "each design's stat card as a PNG (63 x 88 mm)",
        "token-png": "each design's token as a PNG, transparent outside its shape",
        "sheet-png": "each page of each design's record sheet as a PNG",
    }
    for fid in IMAGE_FORMATS:
        q = writers.add_parser(fid, help=helps[fid], description=helps[fid])
        q.add_argument("files", nargs="+", metavar="FILE", help="design files")
        q.add_argument(
            "-o",
            "--output",
            required=True,
            metavar="DIR",
            type=output_folder(".png"),
            help="the folder to write the PNGs into",
        )
        q.add_argument("--dpi", type=int, choices=[150, 300], default=150, help="resolution (default 150)")
        q.add_argument("--paper", choices=["a4", "letter"], help="the record sheet's paper (sheet-png)")
        if fid == "token-png":
            q.add_argument("--token-size", default="1in", metavar="SIZE", help="as for shipyard print (default 1in)")
            q.add_argument("--token-shape", choices=["round", "square", "hex"], help="default round")
            q.add_argument("--token-back", action="store_true", help="the damaged face beside the front")
        q.add_argument("--force", action="store_true", help="replace PNGs that exist")
        catalog_opts(q)
        q.set_defaults(func=cmd_export_images)
    q = writers.add_parser(
        "foundry",
        help="each design as a Foundry VTT actor (Simple Worldbuilding system), with its token PNG",
        description="one Actor JSON per design for Foundry VTT's Simple Worldbuilding system, and its token "
        "PNG beside it (import: right-click the actor > Import Data)",
    )
    q.add_argument("files", nargs="+", metavar="FILE", help="design files")
    q.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="DIR",
        type=output_folder(".json", ".png"),
        help="the folder to write into",
    )
    q.add_argument(
        "--world",
        metavar="NAME",
        help="the Foundry world (its folder name) the PNGs go into: the actors name them as "
        "worlds/NAME/shipyard/FILE.png (or the folder under worlds/NAME that -o is); without it, by file name",
    )
    q.add_argument(
        "--foundry",
        type=int,
        choices=sorted(FOUNDRY_MAJORS),
        default=max(FOUNDRY_MAJORS),
        help=f"the Foundry VTT major version the actors are written for (default {max(FOUNDRY_MAJORS)})",
    )
    q.add_argument("--force", action="store_true", help="replace files that exist")
    catalog_opts(q)
    q.set_defaults(func=cmd_export_foundry, done_when_returned=True)  # no worker; all written and synced


def _export(
    args: argparse.Namespace,
    make: Callable[[list[Any], list[Any], list[str]], list[tuple[str, bytes]]],
    *,
    pages: bool = True,
) -> int:
    """Read the designs, make every file (``make(loaded, workers, left_out)``: names and bytes),
    then write them all or none, and warn of each design whose art is left out (refused, or
    it could not be drawn: ``make`` adds those to ``left_out``).

    ``pages``: the files are printed pages (a render worker is started); tokens are drawn without one."""
    from shipyard.core.designfile import write_into_folder
    from shipyard.core.termtext import escape
    from shipyard.render.art import art_left_out
    from shipyard.render.printing import load_for_print
    from shipyard.render.worker import RenderError, RenderWorker

    loaded = load_for_print(
        args.files, preset=args.preset, catalog_dirs=catalog_dirs(args), use_user_folder=not args.no_user_catalog
    )
    workers = [RenderWorker()] if pages else []
    left_out: list[str] = []
    try:
        files = make(loaded, workers, left_out)
    except RenderError as exc:
        print(f"shipyard: error: {exc}", file=sys.stderr)
        return EXIT_RENDER
    finally:
        for w in workers:
            w.close()
    folder = Path(args.output)
    targets = [folder / name for name, _ in files]
    refuse_existing(targets, args.force, inputs=args.files, into_folder=True)
    write_into_folder(folder, [(t, data) for t, (_, data) in zip(targets, files, strict=True)])
    for note in [*art_left_out(loaded), *left_out]:
        print(f"shipyard: warning: {escape(note)}", file=sys.stderr)
    for t in targets:
        print(f"wrote {t}")
    return EXIT_OK


def cmd_export_images(args: argparse.Namespace) -> int:
    from shipyard.render.images import export_pictures
    from shipyard.render.paper import default_paper
    from shipyard.render.tokens import token_spec

    token = token_spec(
        getattr(args, "token_size", "1in"), getattr(args, "token_shape", None), getattr(args, "token_back", False)
    )
    paper = args.paper or default_paper()

    def make(loaded: list[Any], workers: list[Any], left_out: list[str]) -> list[tuple[str, bytes]]:
        pictures = export_pictures(
            loaded, args.format, dpi=args.dpi, paper=paper, token=token, workers=workers, left_out=left_out
        )
        return [(p.name, p.data) for p in pictures]

    return _export(args, make, pages=args.format != "token-png")


def world_folder(world: str | None, output: Path) -> str | None:
    """Where the PNGs are in Foundry's data for ``--world NAME``: ``worlds/NAME/SUB`` where SUB
    is the folder under ``worlds/NAME`` that ``output`` is (``shipyard`` when it is none);
    None without a world. A name Foundry cannot have is an input error naming the option."""
    if world is None:
        return None
    from shipyard.core.errors import InputError

    if not WORLD_NAME.match(world):
        raise InputError.single(f"{world!r} is not a Foundry world's folder name", path="--world", allowed=WORLD_HELP)
    parts = Path(output).resolve().parts
    for n in range(len(parts) - 2, 0, -1):
        if parts[n - 1] == "worlds" and parts[n] == world:
            sub = "/".join(parts[n + 1 :])
            return f"worlds/{world}/{sub}" if sub else f"worlds/{world}"
    return f"worlds/{world}/shipyard"


def foundry_files(
    loaded: list[Any],
    workers: list[Any] | None = None,
    left_out: list[str] | None = None,
    *,
    world: str | None = None,
    foundry: int | None = None,
) -> list[tuple[str, bytes]]:
    """Each design's actor JSON and token PNG (drawn without a page: ``workers`` are not used);
    ``left_out``: as for :func:`shipyard.render.images.token_pictures`; ``world``: the folder in
    Foundry's data the PNGs are in (``worlds/NAME/shipyard``), as the actors name them;
    ``foundry``: the major version they are written for."""
    import json

    from shipyard.core.artcheck import design_story
    from shipyard.core.designreport import design_report
    from shipyard.core.foundry import DEFAULT_FOUNDRY, actor
    from shipyard.core.registry import get
    from shipyard.core.shown import design_table
    from shipyard.render.art import page_art_problem
    from shipyard.render.images import token_pictures
    from shipyard.render.tokens import TokenSpec

    reports = [design_report(ld.design, ld.catalog, ld.file, picture_problem=page_art_problem) for ld in loaded]
    tokens = token_pictures(loaded, TokenSpec(25.4), 150, reports, left_out)
    files: list[tuple[str, bytes]] = []
    for ld, report, png in zip(loaded, reports, tokens, strict=True):
        tabletop = get(ld.ruleset).manifest.tabletop
        doc = actor(
            report,
            design_table(report),
            story=design_story(ld.design),
            image=f"{world}/{png.name}" if world else png.name,
            tables=list(tabletop.items) if tabletop else [],
            source=ld.file.name if ld.file else "",
            document=ld.envelope(),
            foundry=foundry or DEFAULT_FOUNDRY,
            forms=[design_table(form) for form in report.forms],
        )
        base = png.name.removesuffix("-token.png")
        files.append((f"{base}.json", (json.dumps(doc, ensure_ascii=False, indent=1) + "\n").encode("utf-8")))
        files.append((png.name, png.data))
    names = [n for n, _ in files]
    doubles = sorted({n for n in names if names.count(n) > 1})
    if doubles:
        from shipyard.core.errors import InputError

        raise InputError.single(f"two designs would write the same file ({', '.join(doubles)})", path="-o")
    return files


def export_contents(
    loaded: list[Any],
    kind: str,
    workers: list[Any],
    *,
    dpi: int = 150,
    paper: str = "a4",
    left_out: list[str] | None = None,
) -> list[tuple[str, bytes]]:
    """The files ``kind`` (an image format or ``foundry``) makes of every design: (name, bytes),
    nothing written. The editor makes them first, then asks before replacing any that exist.

    ``left_out`` gets "NAME: why" for each design exported without its art."""
    from shipyard.render.art import art_left_out
    from shipyard.render.images import export_pictures
    from shipyard.render.tokens import TokenSpec

    notes: list[str] = []
    if kind == "foundry":
        files = foundry_files(loaded, workers, notes)
    else:
        pictures = export_pictures(
            loaded, kind, dpi=dpi, paper=paper, token=TokenSpec(25.4), workers=workers, left_out=notes
        )
        files = [(p.name, p.data) for p in pictures]
    if left_out is not None:
        left_out += [*art_left_out(loaded), *notes]
    return files


def write_export(folder: Path, files: list[tuple[str, bytes]], *, force: bool = False) -> list[Path]:
    """Write :func:`export_contents`' ``files`` into ``folder``, all or none; an existing file is
    refused unless ``force``."""
    from shipyard.core.designfile import write_into_folder

    targets = [Path(folder) / name for name, _ in files]
    refuse_existing(targets, force, into_folder=True)
    write_into_folder(Path(folder), [(t, data) for t, (_, data) in zip(targets, files, strict=True)])
    return targets


MAX_ACTOR_BYTES = 64 * 1024 * 1024
"""The largest actor JSON ``import foundry`` reads (a 200-member force's actor is a few MB)."""


def add_foundry_import(readers: Any, catalog_opts: Any) -> None:
    """``shipyard import foundry ACTOR.json -o DESIGN.ship``: the way back from an exported actor."""
    q = readers.add_parser(
        "foundry",
        help="the design kept in a Foundry VTT actor Shipyard exported (shipyard export foundry)",
        description="write the design (and its recorded damage, stored power, consequences) that an actor "
        "exported by 'shipyard export foundry' carries, as a design file",
    )
    q.add_argument("file", metavar="FILE", help="the actor's JSON (exported by Shipyard, or by Foundry's Export Data)")
    q.add_argument(
        "-o", "--output", required=True, metavar="DESIGN", type=output_file(".ship"), help="the design file to write"
    )
    q.add_argument("--force", action="store_true", help="replace the design file if it exists")
    catalog_opts(q)
    q.set_defaults(func=cmd_import_foundry)


def design_of_actor(file: Path, *, use_user_folder: bool = True, catalog_folders: tuple[Path, ...] = ()) -> Any:
    """The design an actor exported by Shipyard carries (``flags.shipyard.document``), read
    and checked as a design file is; anything else is an input error naming the file."""
    from shipyard.core.designfile import design_from_document, parse_json, read_text
    from shipyard.core.errors import InputError

    doc = parse_json(read_text(file, MAX_ACTOR_BYTES), file)
    kept = doc.get("flags", {}).get("shipyard", {}) if isinstance(doc, dict) else None
    document = kept.get("document") if isinstance(kept, dict) else None
    if not isinstance(document, dict):
        raise InputError.single(
            "not an actor Shipyard exported: it carries no design (flags.shipyard.document)",
            file=file,
            path="flags.shipyard.document",
            allowed="an actor JSON written by 'shipyard export foundry' (or exported from Foundry after importing one)",
        )
    return design_from_document(
        document, file=str(file), catalog_folders=catalog_folders, use_user_folder=use_user_folder
    )


def cmd_import_foundry(args: argparse.Namespace) -> int:
    from shipyard.core.designfile import save_design

    loaded = design_of_actor(
        Path(args.file), use_user_folder=not args.no_user_catalog, catalog_folders=tuple(catalog_dirs(args))
    )
    target = Path(args.output)
    refuse_existing([target], args.force, inputs=[args.file])
    save_design(loaded, target)
    print(f"wrote {target}")
    return EXIT_OK


def cmd_export_foundry(args: argparse.Namespace) -> int:
    world = world_folder(args.world, Path(args.output))

    def make(loaded: list[Any], workers: list[Any], left_out: list[str]) -> list[tuple[str, bytes]]:
        return foundry_files(loaded, workers, left_out, world=world, foundry=args.foundry)

    code = _export(args, make, pages=False)
    if code == EXIT_OK and world and f"/{world}".rstrip("/") not in Path(args.output).resolve().as_posix():
        print(f"copy the PNGs into your Foundry data folder's {world}/ (the actors name them there)")
    return code


__all__ = [
    "EXPORT_FORMATS",
    "add_foundry_import",
    "add_image_exports",
    "cmd_export_foundry",
    "cmd_export_images",
    "design_of_actor",
    "export_contents",
    "format_first",
    "foundry_files",
    "write_export",
]
