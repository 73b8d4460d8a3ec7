"""``shipyard set`` (change values, as the editor does) and ``shipyard get`` (read them).

Scripts that build fleets (every ship of a class with one change) need a command that
changes a value: ``set`` makes each change through the editor's own edit operation
(:func:`shipyard.core.edits.set_at`, validated as the editor validates it), on places
named as a person names them (:mod:`shipyard.core.namedpaths`), prints each change and
the design's verdict after it, and writes all its designs or none. The files keep the
way they were written (:mod:`shipyard.core.aswritten`): only the changed values' lines
change. Standard library only at import time, like the rest of the command line.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from shipyard.core.commandline import EXIT_FINDINGS, EXIT_OK, load_for, refuse_existing


def add_commands(sub: Any, catalog_opts: Any) -> None:
    p = sub.add_parser(
        "set",
        help="change values in designs as the editor does: set FILE... PATH=VALUE... (-o OUT | --in-place)",
        usage="shipyard set FILE... PATH=VALUE... (-o OUT | --in-place | --dry-run) [options]",
        description="Change values in one design or several, each change made and checked as the editor makes it, "
        "then print what changed and each design's verdict. A place is named as findings and the editor name it: "
        "scale=4, ratings.guns=3, weapons[Heavy Laser].count=2, or an entry by position (weapons[0].count "
        "counts from 0, as findings do; weapons[#1].count from 1, as the editor does). A value is a number, "
        "true/false, null (clears an optional place), JSON, or text. With several files, all are changed and "
        "checked first, then written together: if one fails, none is written.",
    )
    p.add_argument("items", nargs="+", metavar="FILE... PATH=VALUE", help="the designs, then the changes")
    where = p.add_mutually_exclusive_group()
    where.add_argument("-o", "--output", metavar="OUT", help="the design file to write (with several files: a folder)")
    where.add_argument("--in-place", action="store_true", help="write each design back over the file it was read from")
    where.add_argument("--dry-run", action="store_true", help="show the changes and the verdicts; write nothing")
    p.add_argument("--force", action="store_true", help="replace an existing output file")
    p.add_argument("--json", action="store_true", help="print a JSON array, one object per design")
    catalog_opts(p)
    p.set_defaults(func=cmd_set)

    p = sub.add_parser(
        "get",
        help="print values of a design: get FILE PATH...",
        description="Print the value at each place, one a line (text as it is, anything else as JSON). "
        "Places are named as for shipyard set: scale, ratings.pilot, weapons[Heavy Laser].count, weapons[0].",
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument("--json", action="store_true", help="print a JSON object: each path given, its value")
    catalog_opts(p)
    p.set_defaults(func=cmd_get, reads_only=True)


def split_items(items: list[str]) -> tuple[list[str], list[str]]:
    """FILE... PATH=VALUE...: the files come first; the first word with '=' that names no file starts the changes."""
    from shipyard.core.errors import InputError
    from shipyard.core.safepaths import exists

    start = next((i for i, t in enumerate(items) if "=" in t and not exists(t)), len(items))
    files, changes = items[:start], items[start:]
    if not files:
        raise InputError.single("give the design files first, then the changes", allowed="FILE... PATH=VALUE...")
    if not changes:
        raise InputError.single("give at least one change after the files", allowed="PATH=VALUE, e.g. structure=16")
    bad = [t for t in changes if "=" not in t]
    if bad:
        raise InputError.single(
            f"not a change: {bad[0]!r} (the files come first, then the changes)", allowed="PATH=VALUE"
        )
    return files, changes


def change_design(loaded: Any, changes: list[str]) -> tuple[Any, list[dict[str, Any]]]:
    """The design with each ``PATH=VALUE`` made in turn (the editor's edit), and what each changed."""
    from shipyard.core.edits import set_at
    from shipyard.core.errors import TOP_LEVEL, InputError
    from shipyard.core.namedpaths import parse_value, resolve
    from shipyard.core.paths import value_at
    from shipyard.core.places import place

    design, catalog, done = loaded.design, loaded.catalog, []
    for text in changes:
        named, _, raw = text.partition("=")
        named = named.strip()
        if named == TAGS:  # the file's own labels, beside the design: see change_tags
            continue
        data = design.model_dump(mode="json")
        path = resolve(named, data, catalog)
        before = value_at(data, path)
        try:
            design = set_at(design, path, parse_value(raw, before), catalog, strict=True)
        except InputError as exc:
            if any(p.message.startswith("unknown field") for p in exc.problems):
                resolve(named, data, catalog, new_key=False)  # raises: the places there are
            for p in exc.problems:  # an error of the whole design (its kind) is one of the place changed
                p.path = path if p.path in (None, "", TOP_LEVEL) else p.path
            raise
        after_data = design.model_dump(mode="json")
        after = value_at(after_data, path)
        done.append({"path": path, "place": place(path, catalog, after_data), "before": before, "after": after})
    return design, done


TAGS = "tags"  # the design file's labels (core.designfile.check_tags), set as `tags=pirates,raiders`


def change_tags(loaded: Any, changes: list[str]) -> tuple[list[str], list[dict[str, Any]]]:
    """The design file's tags after each ``tags=...`` of ``changes``: a JSON list, or words
    separated by commas (``tags=pirates,raiders``; ``tags=`` clears them), checked as a file's are."""
    from shipyard.core.edits import tags_from_text

    tags, done = list(loaded.tags), []
    for text in changes:
        named, _, raw = text.partition("=")
        if named.strip() != TAGS:
            continue
        before, tags = tags, tags_from_text(raw, TAGS)
        done.append(
            {"path": TAGS, "place": "Tags", "before": ", ".join(before) or None, "after": ", ".join(tags) or None}
        )
    return tags, done


FREE_TEXT = frozenset({"name", "notes", "description", "concept", "callsign", "crew", "story"})
"""Keys whose text is the person's own, never a catalog id, wherever they stand."""


def shown(value: Any, catalog: Any, path: str = "") -> str:
    """A value as a person reads it: an item by its name, text as it is, the rest as JSON.

    Only a list's entry names catalog items (``weapons[0].weapon``, ``skills[1]``): a design
    named "light-laser" or a scale "starship" is that text, not the Light Laser or the
    "Starship-scale Move" of some table that happens to share the id."""
    from shipyard.core.paths import parse_path

    if isinstance(value, str):
        try:
            parts = parse_path(path) if path else []
        except ValueError:
            parts = []
        in_entry = any(isinstance(p, int) for p in parts) and parts[-1] not in FREE_TEXT
        if in_entry:
            for kind in catalog.items:
                item = catalog.item(kind, value)
                if item is not None:
                    return str(item.name)
        return value if value else "(none)"
    return "(none)" if value is None else json.dumps(value, ensure_ascii=False)


def _clipped(text: str, most: int = 40) -> str:
    """A long value (a design's notes) in a line that still shows the change: its start, then "…"."""
    return text if len(text) <= most else text[: most - 1].rstrip() + "…"


def _targets(files: list[str], args: argparse.Namespace) -> list[Path | None]:
    from shipyard.core.designfile import make_folder
    from shipyard.core.errors import InputError
    from shipyard.core.safepaths import is_folder

    if args.dry_run:
        return [None] * len(files)
    if args.in_place:
        return [Path(f) for f in files]
    if not args.output:
        raise InputError.single(
            "say where to write: -o OUT, --in-place to write over the file, or --dry-run to write nothing",
            path="-o",
        )
    out = Path(args.output)
    if len(files) == 1 and not is_folder(out):
        return [out]
    make_folder(out)
    targets = [out / Path(f).name for f in files]
    twice = sorted({t.name for t in targets if [x.name for x in targets].count(t.name) > 1})
    if twice:
        raise InputError.single(f"two designs would be written to one file in {out}: {', '.join(twice)}", path="-o")
    return list(targets)


def cmd_set(args: argparse.Namespace) -> int:
    from shipyard.core.atomicwrite import locked

    files, changes = split_items(args.items)
    targets = _targets(files, args)
    refuse_existing([t for t in targets if t is not None], args.force or args.in_place, rewritable=files)
    # read, change and write under each target's write lock: another `set` on the same file
    # at the same moment waits for this one's write, then reads it (else one change is lost)
    with locked(t for t in targets if t is not None):
        results = _change_and_write(args, files, targets, changes)
    if args.json:
        print(json.dumps([_as_json(*r) for r in results], indent=2, ensure_ascii=False))
    else:
        sys.stdout.write("".join(_as_text(*r) for r in results))
    return EXIT_OK if all(r[4].valid for r in results) else EXIT_FINDINGS


def _change_and_write(
    args: argparse.Namespace, files: list[str], targets: list[Path | None], changes: list[str]
) -> list[tuple[str, Path | None, Any, list[dict[str, Any]], Any, Any]]:
    """Each design read and changed, then all written together, or none if one cannot be changed."""
    from shipyard.core.designfile import LoadedDesign, save_designs
    from shipyard.core.designreport import design_report
    from shipyard.core.errors import InputError, Problem

    results, problems, writes = [], list[Problem](), []
    for name, target in zip(files, targets, strict=True):
        try:
            loaded = load_for(args, name)
            design, done = change_design(loaded, changes)
            tags, tag_changes = change_tags(loaded, changes)
            done += tag_changes
        except InputError as exc:
            problems += [Problem(p.message, p.file or name, p.line, p.column, p.path, p.allowed) for p in exc.problems]
            continue
        report = design_report(design, loaded.catalog, loaded.file)
        results.append((name, target, loaded.catalog, done, report, design))
        if target is not None:
            writes.append(
                (
                    LoadedDesign(target, loaded.ruleset, loaded.preset, design, loaded.catalog, loaded.written, tags),
                    target,
                )
            )
    if problems:  # all or nothing: one design that cannot be changed, and none is written
        if len(files) > 1:
            problems.append(Problem(f"nothing was written (of {len(files)} designs)"))
        raise InputError(problems)
    save_designs(writes)  # the hangar's index follows (shipyard.hangar.follow_saves)
    return results


def _as_json(
    name: str, target: Path | None, catalog: Any, done: list[dict[str, Any]], report: Any, design: Any
) -> dict[str, Any]:
    errors = [f.model_dump(mode="json") for f in report.findings if f.severity.value == "error"]
    return {
        "file": name,
        "output": str(target) if target else None,
        "changes": done,
        "valid": report.valid,
        "errors": errors,
    }


def _as_text(name: str, target: Path | None, catalog: Any, done: list[dict[str, Any]], report: Any, design: Any) -> str:
    from shipyard.core.places import finding_text

    lines = []
    for c in done:
        before, after = (
            _clipped(shown(c["before"], catalog, c["path"])),
            _clipped(shown(c["after"], catalog, c["path"])),
        )
        what = f"from {before} to {after}" if c["before"] != c["after"] else f"{after} (unchanged)"
        lines.append(f"{name}: {c['place'] or c['path']} {what}  ({c['path']})")
    errors = [f for f in report.findings if f.severity.value == "error"]
    verdict = "passes" if report.valid else f"does not pass: {len(errors)} error{'s' * (len(errors) != 1)}"
    lines.append(
        f"{name}: {verdict}" + (f"; wrote {target}" if target is not None else "; nothing written (--dry-run)")
    )
    data = design.model_dump(mode="json") if errors else None
    lines += ["  " + finding_text("error", f.message, f.path, catalog, data) for f in errors]
    return "\n".join(lines) + "\n"


def cmd_get(args: argparse.Namespace) -> int:
    from shipyard.core.namedpaths import resolve
    from shipyard.core.paths import value_at

    loaded = load_for(args, args.file)
    data = loaded.design.model_dump(mode="json")
    # the file's tags sit beside the design: `get tags` reads what `set tags=` writes
    from shipyard.core.errors import InputError

    try:
        values = {
            p: list(loaded.tags) if p == TAGS else value_at(data, resolve(p, data, loaded.catalog, new_key=False))
            for p in args.paths
        }
    except InputError as exc:  # a place the design does not have: said of this file
        raise exc.with_file(args.file) from None
    if args.json:
        print(json.dumps(values, indent=2, ensure_ascii=False))
    else:
        for value in values.values():
            print(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False))
    return EXIT_OK
