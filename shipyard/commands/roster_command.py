"""``shipyard roster new|add|remove|limit|allow|preset|check|print|export``: forces built from designs.

A roster (:mod:`shipyard.hangar.roster`) is a ``.roster`` YAML file naming design files in
its folder with a count, a callsign and crew, under one points limit. ``check`` reads every
member again (exit 0 when the roster passes, 1 when it does not, 2 when it cannot be read);
a command writes the roster only when it is asked to change it.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from shipyard.core.commandline import EXIT_FINDINGS, EXIT_OK, EXIT_RENDER, output_file, output_folder, refuse_existing
from shipyard.core.errors import InputError


def _count(text: str) -> int:
    from shipyard.hangar.roster import COUNT_ALLOWED, MAX_COUNT

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a count: {text!r} ({COUNT_ALLOWED})") from None
    if not 1 <= value <= MAX_COUNT:
        raise argparse.ArgumentTypeError(f"{value} is not a count a roster takes ({COUNT_ALLOWED})")
    return value


def _limit(text: str) -> int | None:
    if text.lower() == "none":
        return None
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a points limit: {text!r} (a whole number from 1, or none)") from None
    if not 1 <= value <= 1_000_000_000:
        raise argparse.ArgumentTypeError(f"{value} is not a points limit (a whole number from 1 to 1,000,000,000)")
    return value


def _allowance(text: str) -> int | None:
    if text.lower() == "none":
        return None
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an allowance: {text!r} (a whole number from 0, or none)") from None
    if not 0 <= value <= 1_000_000_000:
        raise argparse.ArgumentTypeError(f"{value} is not an allowance (a whole number from 0 to 1,000,000,000)")
    return value


def add_commands(sub: Any, catalog_opts: Any) -> None:
    p = sub.add_parser(
        "roster",
        help="forces built from designs, under a points limit: "
        "roster new|add|remove|limit|allow|preset|check|print|export",
        description="A roster (.roster, YAML) names design files in its folder, each with a count, a callsign and "
        "its crew, under one points limit in the ruleset's own currency. `shipyard schema roster` prints its "
        "JSON Schema.",
    )
    actions = p.add_subparsers(dest="roster_action", metavar="ACTION", required=True)
    q = actions.add_parser("new", help="write a new empty roster")
    q.add_argument("file", metavar="ROSTER")
    q.add_argument("--name", required=True, help="the force's name")
    q.add_argument("--ruleset", action="append", metavar="ID", help="a ruleset its members use (repeatable)")
    q.add_argument("--limit", type=_limit, help="the points limit (default: none)")
    q.add_argument("--force", action="store_true", help="replace an existing file")
    q.set_defaults(func=cmd_new)

    q = actions.add_parser("add", help="add designs to a roster")
    q.add_argument("file", metavar="ROSTER")
    q.add_argument("designs", nargs="+", metavar="DESIGN")
    q.add_argument("--count", type=_count, default=1, help="how many of each (1 to 999; default 1)")
    q.add_argument("--callsign", default="", help="the member's callsign")
    q.add_argument("--crew", default="", help="its pilot or crew")
    q.add_argument("--notes", default="", help="a note")
    q.set_defaults(func=cmd_add)

    q = actions.add_parser("remove", help="take a member out of a roster")
    q.add_argument("file", metavar="ROSTER")
    q.add_argument("member", metavar="MEMBER", help="its number (from 1), callsign or file")
    q.set_defaults(func=cmd_remove)

    q = actions.add_parser("limit", help="change the roster's points limit (none: no limit)")
    q.add_argument("file", metavar="ROSTER")
    q.add_argument("limit", type=_limit, metavar="POINTS")
    q.set_defaults(func=cmd_limit)

    q = actions.add_parser(
        "allow",
        help="set an allowance the rule systems' composition rules count against (none: unset it)",
        description="An allowance is a number the roster sets for a composition rule to count against, such as "
        "the levels worth of pilots a side has. The roster is written and checked again at once.",
    )
    q.add_argument("file", metavar="ROSTER")
    q.add_argument("allowance", metavar="ID", help="the allowance, as the rules name it")
    q.add_argument("value", type=_allowance, metavar="N", help="a whole number from 0, or none")
    q.set_defaults(func=cmd_allow)

    q = actions.add_parser(
        "preset",
        help="the preset (house rules) a rule system's composition rules follow in this roster (none: its default)",
    )
    q.add_argument("file", metavar="ROSTER")
    q.add_argument("ruleset", metavar="RULESET")
    q.add_argument("preset", metavar="PRESET")
    q.set_defaults(func=cmd_preset)

    q = actions.add_parser("check", help="check a roster: totals against the limit, each member, changes")
    q.add_argument("file", metavar="ROSTER")
    q.add_argument("--relink", action="store_true", help="link moved members where their content was found")
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=cmd_check)

    q = actions.add_parser("print", help="a roster summary page, then its members' fleet book or card sheet")
    q.add_argument("file", metavar="ROSTER")
    q.add_argument("-o", "--output", required=True, type=output_file(".pdf"), help="the PDF to write")
    q.add_argument("--sheet", choices=["fleet", "cards"], default="fleet")
    q.add_argument("--paper", choices=["a4", "letter"])
    q.add_argument("--force", action="store_true", help="replace an existing PDF")
    q.set_defaults(func=cmd_print)

    q = actions.add_parser("export", help="the roster as Foundry VTT actors: one per ship, named by callsign")
    q.add_argument("file", metavar="ROSTER")
    q.add_argument("-o", "--output", required=True, metavar="DIR", type=output_folder(".json", ".png"))
    q.add_argument("--force", action="store_true", help="replace files that exist")
    q.set_defaults(func=cmd_export, done_when_returned=True)


def finder_for(folder: Path) -> Any:
    """Where else a design of this content is: the hangar's index (brought up to date), then
    the roster's own folder and below, read once. Only files there now with that content are
    offered: the index keeps the designs of a library folder that is not there now (a USB
    stick unplugged) listed, and a file may have been changed or removed since it was read;
    offering one of those would have `--relink` write a path to a file that does not exist."""
    from shipyard.hangar import library
    from shipyard.hangar.index import Index, design_files, file_hash

    state: dict[str, Any] = {}

    def holds(path: str, digest: str) -> bool:
        try:
            return file_hash(Path(path)) == digest
        except (InputError, OSError):  # not there now, or not readable: not offered
            return False

    def find(digest: str) -> list[str]:
        if "index" not in state:
            state["index"] = index = Index()
            for note in index.notes:
                print(f"shipyard: note: {note}", file=sys.stderr)
            index.scan(library.folders())
        hits = [r["file"] for r in state["index"].by_hash(digest)]
        if "own" not in state:
            own: dict[str, list[str]] = {}
            for f in design_files(folder):
                try:
                    own.setdefault(file_hash(f), []).append(str(f))
                except InputError:
                    continue
            state["own"] = own
        found = hits + [f for f in state["own"].get(digest, []) if f not in hits]
        return [f for f in found if holds(f, digest)]

    find.state = state  # type: ignore[attr-defined]
    return find


def _check(file: Path, roster: Any = None) -> Any:
    from shipyard.hangar.roster import check_roster, load_roster

    roster = roster if roster is not None else load_roster(file)
    finder = finder_for(file.resolve().parent)
    try:
        return check_roster(roster, file, finder)
    finally:
        if "index" in finder.state:
            finder.state["index"].close()


def _summary(check: Any) -> list[str]:
    from shipyard.hangar.facts import shown_number

    r = check.roster
    lines = [f"{r.name}: {len(r.members)} member{'s' * (len(r.members) != 1)}"]
    for s in check.members:
        f = s.facts
        cost = f" x {shown_number(f.cost)}" if f and f.cost is not None and check.unit != "designs" else ""
        crew = f", crew {s.member.crew}" if s.member.crew else ""
        state = {"ok": "", "changed": "  (changed)", "fails": "  (does not pass)"}.get(s.state, f"  ({s.state})")
        lines.append(f"  {s.number}. {s.member.count} {s.label}{cost}{crew}{state}")
    limit = f" of {r.limit}" if r.limit is not None else " (no limit)"
    lines.append(f"total: {shown_number(check.total)} {check.unit}{limit}")
    lines += [f"error: {e}" for e in check.errors]
    lines += [f"warning: {w}" for w in check.warnings]
    lines.append("the roster passes" if check.valid else "the roster does not pass")
    return lines


def _show(check: Any) -> None:
    for line in _summary(check):
        print(line)


def cmd_new(args: argparse.Namespace) -> int:
    from shipyard.core.registry import get
    from shipyard.hangar.roster import EXTENSION, Roster, save_roster

    out = Path(args.file)
    refuse_existing([out], args.force)
    if out.suffix != EXTENSION:
        print(f"shipyard: note: roster files usually end in {EXTENSION}", file=sys.stderr)
    rulesets = [get(r, path="--ruleset").id for r in args.ruleset or []]
    roster = Roster(name=args.name, rulesets=rulesets, limit=args.limit)
    save_roster(roster, out)
    print(f"wrote {out}")
    return EXIT_OK


def _changes_the_roster(cmd: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """A command that reads the roster, changes it and writes it back does so under the
    roster's write lock (as ``set`` does for a design): two commands changing one roster at
    once take turns, and neither change is lost."""

    @functools.wraps(cmd)
    def run(args: argparse.Namespace) -> int:
        from shipyard.core.atomicwrite import locked

        with locked([Path(args.file)]):
            return cmd(args)

    return run


def _write_and_check(file: Path, changed: Any, said: str) -> int:
    """Write a changed roster, say so, and check it again at once: the limit, the counts and
    every member's findings, as `roster check` does; the exit status is its verdict."""
    from shipyard.hangar.roster import save_roster

    save_roster(changed, file)
    print(said)
    check = _check(file, changed)
    _show(check)
    return EXIT_OK if check.valid else EXIT_FINDINGS


@_changes_the_roster
def cmd_add(args: argparse.Namespace) -> int:
    from shipyard.core.errors import InputError
    from shipyard.hangar.roster import load_roster, member_for

    file = Path(args.file)
    roster = load_roster(file)
    members = list(roster.members)
    rulesets = list(roster.rulesets)
    for design in args.designs:
        member, facts = member_for(
            file, Path(design), count=args.count, callsign=args.callsign, crew=args.crew, notes=args.notes
        )
        if rulesets and facts.ruleset not in rulesets:
            raise InputError.single(
                f"{design} is a design of {facts.ruleset_name} ({facts.ruleset}); this roster takes "
                f"{', '.join(rulesets)}. Nothing was added.",
                file=design,
                allowed=f"designs of {', '.join(rulesets)} (a roster for several: roster new --ruleset A --ruleset B)",
            )
        rulesets = rulesets or [facts.ruleset]
        members.append(member)
    changed = roster.model_copy(update={"members": members, "rulesets": rulesets})
    from shipyard.hangar.roster import Roster

    Roster.model_validate(changed.model_dump())  # the count of members stays within what a roster holds
    return _write_and_check(file, changed, f"wrote {file}")


@_changes_the_roster
def cmd_remove(args: argparse.Namespace) -> int:
    from shipyard.hangar.roster import find_member, load_roster

    file = Path(args.file)
    roster = load_roster(file)
    at = find_member(roster, args.member, file)
    gone = roster.members[at]
    changed = roster.model_copy(update={"members": [m for i, m in enumerate(roster.members) if i != at]})
    return _write_and_check(file, changed, f"removed {gone.callsign or gone.file}; wrote {file}")


@_changes_the_roster
def cmd_limit(args: argparse.Namespace) -> int:
    from shipyard.hangar.roster import load_roster

    file = Path(args.file)
    changed = load_roster(file).model_copy(update={"limit": args.limit})
    return _write_and_check(file, changed, f"wrote {file}")


@_changes_the_roster
def cmd_allow(args: argparse.Namespace) -> int:
    from shipyard.core.catalog import load_catalog
    from shipyard.core.composition import allowances_counted, composition_rules
    from shipyard.hangar.roster import load_roster

    file = Path(args.file)
    roster = load_roster(file)
    counted: set[str] = set()
    for ruleset in roster.rulesets:
        counted |= allowances_counted(composition_rules(load_catalog(ruleset, preset=roster.presets.get(ruleset))))
    if roster.rulesets and args.value is not None and args.allowance not in counted:
        raise InputError.single(
            f"no composition rule of {', '.join(roster.rulesets)} counts an allowance {args.allowance!r}. "
            "Nothing was written.",
            file=str(file),
            path=f"allowances.{args.allowance}",
            allowed=", ".join(sorted(counted)) or "none: their rules count no allowance",
        )
    allowances = {k: v for k, v in roster.allowances.items() if k != args.allowance}
    if args.value is not None:
        allowances[args.allowance] = args.value
    return _write_and_check(file, roster.model_copy(update={"allowances": allowances}), f"wrote {file}")


@_changes_the_roster
def cmd_preset(args: argparse.Namespace) -> int:
    from shipyard.core.catalog import load_catalog
    from shipyard.core.registry import get
    from shipyard.hangar.roster import load_roster

    file = Path(args.file)
    roster = load_roster(file)
    ruleset = get(args.ruleset, path="RULESET").id
    presets = {k: v for k, v in roster.presets.items() if k != ruleset}
    if args.preset.lower() != "none":
        try:  # an unknown preset is refused here, before anything is written
            load_catalog(ruleset, preset=args.preset)
        except InputError as exc:
            for problem in exc.problems:  # the roster it was asked for, and where in it
                problem.path = problem.path or f"presets.{ruleset}"
            raise exc.with_file(file) from None
        presets[ruleset] = args.preset
    return _write_and_check(file, roster.model_copy(update={"presets": presets}), f"wrote {file}")


def cmd_check(args: argparse.Namespace) -> int:
    if args.relink:  # it may write the roster it read
        return _changes_the_roster(_check_command)(args)
    return _check_command(args)


def _check_command(args: argparse.Namespace) -> int:
    from shipyard.hangar.roster import relinked, save_roster

    file = Path(args.file)
    check = _check(file)
    if args.relink:
        roster, done = relinked(check)
        if done:
            save_roster(roster, file)
            for s in done:
                print(f"relinked {s.number}. {s.member.file} -> {roster.members[s.number - 1].file}")
            print(f"wrote {file}")
            check = _check(file, roster)
        else:
            print("nothing to relink: no moved member was found again")
    if args.json:
        data = {
            "file": str(file),
            "name": check.roster.name,
            "valid": check.valid,
            "total": check.total,
            "unit": check.unit,
            "limit": check.roster.limit,
            "errors": check.errors,
            "warnings": check.warnings,
            "composition": [f.model_dump(mode="json") for f in check.findings],
            "members": [
                {
                    "number": s.number,
                    "file": s.member.file,
                    "name": s.facts.name if s.facts else None,
                    "callsign": s.member.callsign,
                    "count": s.member.count,
                    "cost": s.facts.cost if s.facts else None,
                    "state": s.state,
                    "says": s.says,
                    "relink": str(s.relink) if s.relink else None,
                }
                for s in check.members
            ],
        }
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        _show(check)
    return EXIT_OK if check.valid else EXIT_FINDINGS


def _members_loaded(check: Any) -> list[tuple[Any, Any]]:
    """(member check, loaded design) of each member that can be read."""
    from shipyard.hangar.roster import design_facts

    out = []
    for s in check.members:
        if s.facts is not None and s.path is not None:
            out.append((s, design_facts(s.path)[2]))
    return out


def cmd_print(args: argparse.Namespace) -> int:
    from shipyard.render.paper import default_paper
    from shipyard.render.worker import RenderError, RenderWorker

    file, out = Path(args.file), Path(args.output)
    refuse_existing([out], args.force, inputs=[args.file])
    check = _check(file)
    worker = RenderWorker()
    try:
        printed = print_roster(check, out, args.sheet, args.paper or default_paper(), worker)
    except RenderError as exc:
        print(f"shipyard: error: {exc}", file=sys.stderr)
        return EXIT_RENDER
    finally:
        worker.close(wait=False)
    _warn(check)
    print(f"wrote {out}: a roster of {len(check.members)} member(s), {printed} ship(s) printed")
    return EXIT_OK


def _warn(check: Any) -> None:
    """What is wrong with a roster written out anyway (print, export), on stderr: each member
    left out because its file cannot be read (missing, outside the folder, broken), and why,
    and every other error of the check. The output is still written and the exit status is
    0: the person asked for the roster as it is, and is told what it lacks."""
    for line in check.errors:
        print(f"shipyard: warning: {line}", file=sys.stderr)
    left = [s for s in check.members if s.facts is None]
    if left:
        named = ", ".join(f"{s.number}. {s.label}" for s in left)
        print(f"shipyard: warning: left out, its design cannot be read: {named}", file=sys.stderr)


def print_roster(check: Any, out: Path, sheet: str, paper: str, worker: Any) -> int:
    """The roster's summary page, then its ships' fleet book or card sheet (``sheet``),
    written to ``out`` at once (atomically) by the render ``worker``; how many ships were
    printed. Each ship of a member's count has a sheet or card of its own (its own damage
    record), titled as ``roster export`` names its actor (:func:`ship_titles`: "Viper 1",
    "Clear One — Sentinel Corvette"). The command line and the editor's roster page print
    through this."""
    import tempfile

    from shipyard.core.atomicwrite import atomic_write_bytes
    from shipyard.core.resources import builtin_template_root
    from shipyard.render.pdfjoin import join_pdfs
    from shipyard.render.printing import print_loaded
    from shipyard.render.worker import RenderJob

    members = _members_loaded(check)
    if not members:
        raise InputError.single("the roster has no member that can be printed", file=str(check.file))
    common = str(builtin_template_root() / "common")
    context = {"roster": summary_context(check), "paper": paper, "title": check.roster.name}
    summary = worker.render(RenderJob("roster.html", [common], context, [common]), 60.0)
    parts, pages = [summary.pdf], summary.pages
    by_ruleset: dict[str, list[Any]] = {}
    for s, loaded in members:
        by_ruleset.setdefault(loaded.ruleset, []).extend(_ships(s.member, loaded))
    ships = sum(len(group) for group in by_ruleset.values())
    with tempfile.TemporaryDirectory(prefix="shipyard-roster-") as tmp:
        for i, group in enumerate(by_ruleset.values()):
            part = Path(tmp) / f"part-{i}.pdf"
            # numbered on from the pages before it: the page numbers and a fleet book's
            # contents are the joined file's, the pages a reader's viewer shows
            printed = print_loaded(
                group, part, sheet=sheet, paper=paper, workers=[worker], title=check.roster.name, first_page=pages + 1
            )
            parts.append(part.read_bytes())
            pages += printed.pages
    atomic_write_bytes(out, join_pdfs(parts, check.roster.name))
    return ships


def _ships(member: Any, loaded: Any) -> list[Any]:
    """The ships of a member as designs to print, one a ship of its count, each named by
    its title (:func:`shipyard.hangar.roster.ship_titles`); the design file is not changed."""
    from dataclasses import replace

    from shipyard.hangar.roster import ship_titles

    name = str(getattr(loaded.design, "name", "") or "")
    titles = ship_titles(member, name)
    if titles == [name] or not hasattr(loaded.design, "name"):
        return [loaded]
    return [replace(loaded, design=loaded.design.model_copy(update={"name": t})) for t in titles]


def summary_context(check: Any) -> dict[str, Any]:
    """The roster as its summary page shows it (templates/common/roster.html): each member's
    subtotal is what it adds to the total (:func:`shipyard.hangar.roster.subtotal`, the one
    the check sums), so the rows add up to the total printed under them, also when the total
    counts designs (members in different currencies) or a cost is 0; a cost is shown only
    where the total counts costs, as on the Roster page and in ``roster check``."""
    from shipyard.hangar.facts import COUNT_UNIT, shown_number
    from shipyard.hangar.roster import subtotal

    rows = []
    for s in check.members:
        f = s.facts
        sub = subtotal(s, check.unit)
        rows.append(
            {
                "number": s.number,
                "count": s.member.count,
                "callsign": s.member.callsign,
                "name": f.name if f else s.member.file,
                "ruleset": f.ruleset_name if f else "",
                "kind": f.kind if f else "",
                "crew": s.member.crew,
                "cost": shown_number(f.cost) if f and f.cost is not None and check.unit != COUNT_UNIT else "",
                "subtotal": shown_number(sub) if sub is not None else "",
                "state": s.state,
                "says": s.says,
            }
        )
    return {
        "name": check.roster.name,
        "notes": check.roster.notes,
        "members": rows,
        "total": shown_number(check.total),
        "unit": check.unit,
        "limit": check.roster.limit,
        "valid": check.valid,
        "errors": check.errors,
        "warnings": check.warnings,
    }


def cmd_export(args: argparse.Namespace) -> int:
    from shipyard.core.designfile import write_into_folder

    file = Path(args.file)
    check = _check(file)
    files = roster_actor_files(check)
    folder = Path(args.output)
    targets = [folder / name for name, _ in files]
    refuse_existing(targets, args.force, into_folder=True)
    write_into_folder(folder, [(t, data) for t, (_, data) in zip(targets, files, strict=True)])
    for t in targets:
        print(f"wrote {t}")
    _warn(check)  # as `roster print` does: a member that cannot be read is named, never left out silently
    return EXIT_OK


def roster_actor_files(check: Any) -> list[tuple[str, bytes]]:
    """The roster as Foundry VTT actors: (file name, bytes) of one actor a ship (a member's
    count as copies named by its callsign) and each member's token; the command line and the
    editor's roster page export through this."""
    from shipyard.exports import foundry_files
    from shipyard.hangar.facts import slug
    from shipyard.hangar.roster import ship_names

    members = _members_loaded(check)
    if not members:
        raise InputError.single("the roster has no member that can be exported", file=str(check.file))
    files: list[tuple[str, bytes]] = []
    for s, loaded in members:
        made = foundry_files([loaded])
        actor = json.loads(next(data for name, data in made if name.endswith(".json")))
        _, png = next((name, data) for name, data in made if name.endswith(".png"))
        base = slug(s.member.callsign or actor["name"]) or "member"
        token = f"{s.number:02d}-{base}-token.png"
        files.append((token, png))
        for name in ship_names(s.member, actor["name"]):
            one = {**actor, "name": name, "img": token}
            one["prototypeToken"] = {**actor["prototypeToken"], "name": name, "texture": {"src": token}}
            one["flags"] = {
                "shipyard": {**actor["flags"]["shipyard"], "roster": check.roster.name, "crew": s.member.crew}
            }
            files.append(
                (f"{s.number:02d}-{slug(name) or 'member'}.json", (json.dumps(one, ensure_ascii=False) + "\n").encode())
            )
    return files
