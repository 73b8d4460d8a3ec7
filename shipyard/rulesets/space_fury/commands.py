"""``shipyard fury``: Space Fury's random builds, crews and forces.

- ``fury roll``: a fighter rolled on the enhancement tables (seeded, roll log kept);
- ``fury pilot``: a pilot rolled by XP or level (skills, quirks);
- ``fury crew``: a fighter with a pilot at its controls;
- ``fury force``: fighters and pilots as one force (its total cost);
- ``fury skirmish``: the two squadrons of a Skirmishes roll, with their pilots.

Every command writes ordinary design files that ``shipyard check`` and ``shipyard print``
read. Only the standard library is imported here (this module is imported to build the
parser); the work is in the package itself.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from shipyard.core.commandline import catalog_dirs, catalog_for, output_file, refuse_existing
from shipyard.core.numberwords import count_of

RULESET = "space-fury"


def add_arguments(fury: argparse.ArgumentParser, catalog_opts: Any) -> None:
    """The ``shipyard fury`` subcommands (the manifest names this module; see docs/rulesets.md)."""
    cmds = fury.add_subparsers(dest="fury_command", metavar="COMMAND", required=True)

    p = cmds.add_parser("roll", help="roll a fighter's enhancements on the tables")
    p.add_argument("--enhancements", type=int, required=True, metavar="N", help="how many enhancements (its cost)")
    p.add_argument("--seed", type=int, help="the seed to roll with (default: a new one, printed and saved)")
    p.add_argument("--name", help="the fighter's name (default: Rolled fighter SEED)")
    p.add_argument(
        "--pick",
        action="append",
        default=[],
        metavar="ENHANCEMENT",
        help="what to take on a 'Pick 1 Result' (repeatable, used in order; without one a 10 is rolled again)",
    )
    _output(p)
    catalog_opts(p)
    p.set_defaults(func=cmd_roll)

    p = cmds.add_parser("pilot", help="roll a pilot's skills and quirks")
    level = p.add_mutually_exclusive_group()
    level.add_argument("--xp", type=int, help="experience points (the level follows)")
    level.add_argument("--level", type=int, help="level (the XP is the least that level needs)")
    p.add_argument("--seed", type=int, help="the seed to roll with (default: a new one, printed and saved)")
    p.add_argument("--name", help="the pilot's name (default: Rolled pilot SEED)")
    _output(p)
    catalog_opts(p)
    p.set_defaults(func=cmd_pilot)

    p = cmds.add_parser("crew", help="put a pilot at a fighter's controls")
    p.add_argument("fighter", metavar="FIGHTER", help="a fighter design file")
    p.add_argument("pilot", metavar="PILOT", help="a pilot design file")
    _output(p)
    catalog_opts(p)
    p.set_defaults(func=cmd_crew)

    p = cmds.add_parser("force", help="gather fighters and pilots into a force (its total cost)")
    p.add_argument("name", help="the force's name")
    p.add_argument("files", nargs="+", metavar="FILE", help="fighter, pilot or force design files")
    p.add_argument("--pilot-levels", type=int, metavar="N", help="levels worth of pilots the force may have")
    _output(p)
    catalog_opts(p)
    p.set_defaults(func=cmd_force)

    p = cmds.add_parser("skirmish", help="roll a skirmish: two squadrons with pilots, one design file a side")
    p.add_argument("--seed", type=int, help="the seed to roll with (default: a new one, printed and saved)")
    p.add_argument("-o", "--output", required=True, metavar="DIR", help="folder for side-a.ship and side-b.ship")
    p.add_argument("--force", action="store_true", help="replace existing files")
    catalog_opts(p)
    p.set_defaults(func=cmd_skirmish)


def _output(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "-o", "--output", required=True, metavar="FILE", type=output_file(".ship"), help="the design file to write"
    )
    p.add_argument("--force", action="store_true", help="replace an existing file")


def _seed(args: argparse.Namespace) -> int:
    if args.seed is not None:
        from shipyard.rulesets.space_fury import MAX_SEED

        if not 0 <= args.seed <= MAX_SEED:
            from shipyard.core.errors import InputError

            raise InputError.single(f"the seed must be from 0 to {MAX_SEED:,}", path="--seed")
        return int(args.seed)
    return random.SystemRandom().randrange(2**32)


def _catalog(args: argparse.Namespace) -> Any:
    return catalog_for(args, RULESET)


def _loaded(design: Any, catalog: Any) -> Any:
    from shipyard.core.designfile import LoadedDesign

    preset = catalog.preset.id if catalog.preset else catalog.meta.default_preset
    return LoadedDesign(None, RULESET, preset, design, catalog)


def _save(design: Any, catalog: Any, out: Path) -> None:
    from shipyard.core.designfile import save_design

    save_design(_loaded(design, catalog), out)


def _load(name: str, args: argparse.Namespace) -> Any:
    from shipyard.core.designfile import load_design
    from shipyard.core.errors import InputError

    loaded = load_design(
        name,
        preset=args.preset,
        catalog_folders=catalog_dirs(args),
        use_user_folder=not args.no_user_catalog,
    )
    if loaded.ruleset != RULESET:
        raise InputError.single(f"a {loaded.ruleset} design, not a {RULESET} one", file=name)
    return loaded.design


def _summary(design: Any, catalog: Any) -> str:
    from shipyard.core.designreport import design_report

    report = design_report(design, catalog)
    figs = {f.id: f for f in report.derived.figures}
    parts = []
    for fig_id in ("enhancements", "cost", "level", "cool", "fighters", "pilot-levels", "total-cost"):
        fig = figs.get(fig_id)
        if fig is not None:
            parts.append(f"{fig.label.lower()} {fig.value}")
    verdict = "passes" if report.valid else "does not pass (see shipyard check)"
    return f"{', '.join(parts)}; {verdict}"


def _write(args: argparse.Namespace, make: Callable[[Any], tuple[Any, str]], inputs: tuple[str, ...] = ()) -> int:
    """Build a design with ``make(catalog)`` (from ``inputs``), save it to ``-o``, say what was written."""
    from pydantic import ValidationError

    from shipyard.core.designfile import validation_problems
    from shipyard.core.errors import InputError

    out = Path(args.output)
    refuse_existing([out], args.force, inputs=inputs)
    catalog = _catalog(args)
    try:
        design, what = make(catalog)
    except ValidationError as exc:  # a number beyond what a design file may hold
        raise InputError(validation_problems(exc, None, ())) from None
    from shipyard.core.termtext import escape

    _save(design, catalog, out)
    print(f"wrote {out}: {escape(what)}")
    print(f"  {escape(_summary(design, catalog))}")
    return 0


def _entry(item: Any, count: int) -> str:
    if item.unit:
        return f"{item.name} ({count_of(count, item.unit)})"
    return f"{count} x {item.name}" if count != 1 else str(item.name)


def cmd_roll(args: argparse.Namespace) -> int:
    from shipyard.rulesets.space_fury import roll_fighter

    def make(catalog: Any) -> tuple[Any, str]:
        seed = _seed(args)
        design = roll_fighter(catalog, args.enhancements, seed, name=args.name or "", picks=args.pick)
        root: Any = design.root
        items = ", ".join(_entry(catalog.item("enhancements", c.id), c.count) for c in root.enhancements)
        return design, f"{design.name} (seed {seed}): {items or 'no enhancements'}"

    return _write(args, make)


def cmd_pilot(args: argparse.Namespace) -> int:
    from shipyard.rulesets.space_fury import roll_pilot

    def make(catalog: Any) -> tuple[Any, str]:
        seed = _seed(args)
        design = roll_pilot(catalog, seed, xp=args.xp, level=args.level, name=args.name or "")
        root: Any = design.root
        skills = ", ".join(catalog.item("pilot_skills", s).name for s in root.skills)
        quirks = ", ".join(catalog.item("quirks", q).name for q in root.quirks) or "none"
        return design, f"{design.name} (seed {seed}), {root.xp} XP; skills {skills}; quirks {quirks}"

    return _write(args, make)


def cmd_crew(args: argparse.Namespace) -> int:
    from shipyard.rulesets.space_fury import crew

    def make(_: Any) -> tuple[Any, str]:
        design = crew(_load(args.fighter, args), _load(args.pilot, args))
        root: Any = design.root
        return design, f"{design.name} flown by {root.pilot.name or 'its pilot'}"

    return _write(args, make, (args.fighter, args.pilot))


def cmd_force(args: argparse.Namespace) -> int:
    from shipyard.rulesets.space_fury import force

    def make(_: Any) -> tuple[Any, str]:
        design = force(args.name, [_load(f, args) for f in args.files], args.pilot_levels)
        return design, str(design.name)

    return _write(args, make, tuple(args.files))


def cmd_skirmish(args: argparse.Namespace) -> int:
    from shipyard.rulesets.space_fury import skirmish

    folder = Path(args.output)
    targets = [folder / "side-a.ship", folder / "side-b.ship"]
    refuse_existing(targets, args.force, into_folder=True)
    catalog = _catalog(args)
    seed = _seed(args)
    result = skirmish(catalog, seed)
    from shipyard.core.designfile import make_folder, save_designs

    make_folder(folder)
    save_designs([(_loaded(side, catalog), t) for side, t in zip(result.sides, targets, strict=True)])  # both or none
    print(f"seed {seed}: {result.summary}".replace("\n", "\n  "))
    for side, target in zip(result.sides, targets, strict=True):
        print(f"wrote {target}: {side.name}; {_summary(side, catalog)}")
    return 0
