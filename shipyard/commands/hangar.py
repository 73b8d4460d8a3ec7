"""``shipyard hangar add|remove|list|scan`` and ``shipyard find``: the index of a person's designs.

The hangar (:mod:`shipyard.hangar`) indexes the design files of the library folders the
person chose; ``find`` rescans them (only what changed is read) and searches. Exit codes
as ``check``: 0 found, 1 nothing found, 2 a query or folder that cannot be used.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from shipyard.core.commandline import EXIT_FINDINGS, EXIT_OK
from shipyard.core.termtext import quote


def add_commands(sub: Any, catalog_opts: Any) -> None:
    p = sub.add_parser(
        "hangar",
        help="the library folders whose designs `shipyard find` searches: hangar add|remove|list|scan",
        description="The hangar indexes every design file (*.ship) in the library folders you choose, so "
        "`shipyard find` finds them at once. The index is a cache under the XDG data folder: deleting it loses "
        "nothing.",
    )
    actions = p.add_subparsers(dest="hangar_action", metavar="ACTION", required=True)
    q = actions.add_parser("add", help="add library folders and index their designs")
    q.add_argument("folders", nargs="+", metavar="FOLDER")
    q.set_defaults(func=cmd_hangar_add)
    q = actions.add_parser("remove", help="take folders out of the library (their files are left alone)")
    q.add_argument("folders", nargs="+", metavar="FOLDER")
    q.set_defaults(func=cmd_hangar_remove)
    q = actions.add_parser("list", help="the library folders, with how many designs each holds")
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=cmd_hangar_list)
    q = actions.add_parser("scan", help="bring the index up to date; list broken files and duplicates")
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=cmd_hangar_scan)

    p = sub.add_parser(
        "find",
        help="search the designs of the hangar's folders: find [WORDS] [ruleset:ID kind:X tag:X FIGURE>=N "
        "fails passes changed:7d]",
        description="Find designs in the hangar's library folders (see `shipyard hangar`). Words match names, notes "
        "and tags. Filters: ruleset:ID (an id, its start, or its name's initials), kind:KIND, tag:TAG, "
        "FIGURE>=N (also <=, =, >, <; a figure by its id or label, e.g. structure>=10), fails, passes, "
        "changed:7d (h, d or w). Exit status 0 when something is found, 1 when nothing, 2 for a bad query.",
    )
    p.add_argument("query", nargs="*", metavar="TEXT|FILTER")
    p.add_argument("--json", action="store_true", help="print a JSON array, one object per design")
    p.add_argument("--no-scan", action="store_true", help="search the index as the last scan left it")
    p.set_defaults(func=cmd_find, reads_only=True)


def _notes(index: Any) -> None:
    for note in index.notes:
        print(f"shipyard: note: {note}", file=sys.stderr)


def _open() -> Any:
    from shipyard.hangar.index import Index

    index = Index()
    _notes(index)
    return index


def _library() -> list[Any]:
    """The library folders, each entry of the settings left out said on stderr."""
    from shipyard.hangar import library

    settings = library.read_settings()
    for note in settings.notes:
        print(f"shipyard: note: {note}", file=sys.stderr)
    return settings.folders


def scan(index: Any) -> Any:
    result = index.scan(_library())
    for note in result.notes():
        print(f"shipyard: note: {note}", file=sys.stderr)
    return result


def cmd_hangar_add(args: argparse.Namespace) -> int:
    """Add the folders and index them. The index is opened first: one that cannot be made
    (a full disk) adds nothing; a scan that cannot write it takes out again the folders this
    command added, so that the library does not list a folder the message says was not added."""
    from shipyard.core.errors import InputError, Problem
    from shipyard.hangar import library

    with _open() as index:
        added = [library.add(f) for f in args.folders]
        try:
            scan(index)
        except InputError as exc:
            for taken in (str(f) for f, is_new in added if is_new):
                try:
                    library.remove(taken)
                    said = f"{taken} was not added to the library: add it again once the index can be written"
                except InputError:
                    said = f"{taken} stays in the library: `shipyard hangar scan` indexes it once it can"
                exc.problems.append(Problem(said))
            raise
        for folder, new in added:
            designs, broken = index.count(folder)
            state = "added" if new else "already in the library"
            extra = f", {broken} broken (see `shipyard hangar scan`)" if broken else ""
            print(f"{state}: {folder}: {designs} design{'s' * (designs != 1)}{extra}")
    return EXIT_OK


def cmd_hangar_remove(args: argparse.Namespace) -> int:
    from shipyard.hangar import library

    with _open() as index:
        for f in args.folders:
            folder = library.remove(f)
            index.forget_folder(folder)
            shown = folder if Path(folder).is_absolute() else quote(folder)  # an entry that was no full path
            print(f"removed: {shown} (its files are left as they are)")
    return EXIT_OK


def cmd_hangar_list(args: argparse.Namespace) -> int:
    folders = _library()
    with _open() as index:
        counts = [index.count(f) for f in folders]
    if args.json:
        data = [{"folder": str(f), "designs": c[0], "broken": c[1]} for f, c in zip(folders, counts, strict=True)]
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return EXIT_OK
    if not folders:
        print("no library folders yet: add one with `shipyard hangar add FOLDER`")
    for f, (designs, broken) in zip(folders, counts, strict=True):
        print(f"{f}: {designs} design{'s' * (designs != 1)}" + (f", {broken} broken" if broken else ""))
    return EXIT_OK


def cmd_hangar_scan(args: argparse.Namespace) -> int:
    with _open() as index:
        result = scan(index)
        broken, doubles = index.broken(), index.duplicates()
        total = index.db.execute("SELECT count(*) FROM files WHERE problem IS NULL").fetchone()[0]
    if args.json:
        data = {
            "designs": total,
            "added": result.added,
            "changed": result.changed,
            "removed": result.removed,
            "unchanged": result.unchanged,
            "rechecked": result.rechecked,
            "broken": [{"file": b["file"], "reason": b["problem"]} for b in broken],
            "duplicates": [{"reason": why, "files": [r["file"] for r in group]} for why, group in doubles],
        }
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return EXIT_OK
    # the counts after the colon are of files, those that cannot be read too: named beside the designs
    unread = f" and {len(broken)} file{'s' * (len(broken) != 1)} that cannot be read" if broken else ""
    # files as they were, checked again by rules that changed (a house rule, a new Shipyard): said when there are any
    again = f", {result.rechecked} checked again by changed rules" if result.rechecked else ""
    print(
        f"{total} design{'s' * (total != 1)}{unread}: {result.added} new, {result.changed} changed, "
        f"{result.removed} gone, {result.unchanged} unchanged{again}"
    )
    if broken:
        print(f"\n{len(broken)} design file{'s' * (len(broken) != 1)} cannot be read:")
        for b in broken:
            print(f"  {b['file']}: {b['problem']}")
    if doubles:
        print("\nduplicates:")
        for why, group in doubles:
            print(f"  {why}:")
            for r in group:
                print(f"    {r['name']}  {r['file']}")
    return EXIT_OK


def entry_line(row: dict[str, Any]) -> str:
    """One design as ``find`` lists it: name, ruleset, kind, key figures, verdict, file."""
    from shipyard.hangar.facts import shown_number

    figures = ", ".join(f"{label} {shown_number(v)}" for label, v in list(row["key_figures"].items())[:3])
    verdict = "passes" if row["valid"] else f"fails ({row['errors']} error{'s' * (row['errors'] != 1)})"
    tags = f"  [{', '.join(row['tags'])}]" if row["tags"] else ""
    kind = f" {row['kind']}" if row["kind"] else ""
    return f"{row['name']}  ({row['ruleset_name']}{kind})  {figures}  {verdict}{tags}\n    {row['file']}"


def cmd_find(args: argparse.Namespace) -> int:
    from shipyard.hangar.query import parse, search

    parse(args.query)  # a bad query is said before any scan
    with _open() as index:
        if not args.no_scan:
            scan(index)
        found = search(index, args.query)
    if args.json:
        print(json.dumps(list(found), indent=2, ensure_ascii=False))
    else:
        for row in found:
            print(entry_line(row))
        print(f"{len(found)} design{'s' * (len(found) != 1)} found", file=sys.stderr)
    return EXIT_OK if found else EXIT_FINDINGS
