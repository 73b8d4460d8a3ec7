"""The README's "Using it" commands, run as they are written, from a folder of the user's own.

The block is taken from README.md itself, so the README cannot promise a command, a file or
an output that does not exist. ``shipyard`` is this checkout's (``python -m shipyard``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT

pytestmark = pytest.mark.slow

# What each command does that a user sees: its exit status, and its last line of output.
EXPECTED = {
    "shipyard check $ships/rebel-fighter.ship": (0, None),
    "shipyard check $ships/rebel-fighter.ship --preset as-written": (1, None),
    "shipyard check $ships/*.ship --summary": (1, "6 designs: 5 pass, 1 does not pass"),
    "shipyard check $ships/*.ship --json > $out/report.json": (1, None),
    "shipyard print $ships/rebel-fighter.ship -o $out/rebel.pdf": (0, "wrote out/rebel.pdf: 1 page(s), 1 design(s)"),
    "shipyard print $ships/rebel-fighter.ship --fillable -o $out/rebel-form.pdf": (
        0,
        "wrote out/rebel-form.pdf: 1 page(s), 1 design(s), 32 form field(s)",
    ),
    "shipyard print $ships/*.ship --sheet cards -o $out/cards.pdf": (0, "wrote out/cards.pdf: 1 page(s), 6 design(s)"),
    'shipyard print $ships/*.ship --sheet fleet --title "Appendix 1" -o $out/fleet.pdf': (
        0,
        "wrote out/fleet.pdf: 10 page(s), 6 design(s)",
    ),
    "shipyard compare $ships/rebel-fighter.ship $ships/rebel-frigate.ship --differences": (1, None),
    "shipyard check $ships/alien-disk-fighter.ship --suggest": (1, None),
    "shipyard fix $ships/alien-disk-fighter.ship --apply 1 -o $out/fixed.ship": (0, None),
    'shipyard new "Red Five" --kind starfighter -o $out/red-five.ship': (0, "wrote out/red-five.ship"),
    'shipyard new "Red Falcon" --ruleset cluster-falk -o $out/red-falcon.ship': (0, "wrote out/red-falcon.ship"),
    "shipyard set $out/red-falcon.ship scale=4 ratings.guns=3 --in-place": (
        0,
        "out/red-falcon.ship: passes; wrote out/red-falcon.ship",
    ),
    'shipyard set $ships/rebel-fighter.ship "weapons[Light Laser].count=1" -o $out/rebel-1.ship': (1, None),
    'shipyard get $out/rebel-1.ship "weapons[Light Laser].count" structure': (0, "15"),
    "shipyard import statblock $ships/appendix-1.txt --preset sample-ships -o $out/imported/": (
        0,
        "wrote out/imported/federation-space-station.ship",
    ),
    "shipyard export statblock $ships/rebel-fighter.ship --markdown": (0, None),
    "shipyard convert trinity catalogs/trinity/examples/anvil-frigate.yaml -o $out/anvil.ship --structure 12": (
        0,
        "wrote out/anvil.ship",
    ),
    "shipyard fury roll --enhancements 5 --seed 42 -o $out/fighter.ship": (0, None),
    "shipyard fury skirmish --seed 7 -o $out/skirmish/": (0, None),
    "shipyard catalog list technology": (0, None),
    "shipyard rulesets": (0, None),
    "shipyard ruleset new my-fleet --point-buy -o $out/my-fleet": (
        0,
        "next: pip install -e out/my-fleet  then  shipyard rulesets --check out/my-fleet/shipyard_my_fleet",
    ),
    "shipyard schema > $out/design-file.schema.json": (0, None),
}


def using_it() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## Using it", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    return [re.sub(r"\s+#.*$", "", line).strip() for line in block.splitlines() if line.strip()]


def test_every_command_of_using_it_works_as_written(tmp_path: Path) -> None:
    lines = using_it()
    assert lines[:3] == ["ships=catalogs/space-fighter-alpha/examples", "out=out", "mkdir -p $out"], lines[:3]
    assert lines[3:] == list(EXPECTED), "the README's commands changed: update EXPECTED"
    (tmp_path / "catalogs").symlink_to(ROOT / "catalogs")  # "from the clone", in a folder of its own
    env = {k: v for k, v in os.environ.items() if k != "SHIPYARD_DEBUG"}
    prelude = f'shipyard() {{ "{sys.executable}" -m shipyard "$@"; }}\n' + "\n".join(lines[:3]) + "\n"
    for line, (status, last) in EXPECTED.items():
        proc = subprocess.run(
            ["bash", "-c", prelude + line], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
        )
        assert proc.returncode == status, f"{line}\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
        assert "Traceback" not in proc.stderr, f"{line}\n{proc.stderr}"
        if last is not None:
            assert proc.stdout.splitlines()[-1] == last, f"{line}\n{proc.stdout[-500:]}"
    assert sorted(p.name for p in (tmp_path / "out" / "imported").iterdir()) == sorted(
        f"{p.stem}.ship" for p in (ROOT / "catalogs" / "space-fighter-alpha" / "examples").glob("*.ship")
    )
    # everything the examples wrote is in the folder they name, which git ignores in a clone
    assert sorted(p.name for p in tmp_path.iterdir()) == ["catalogs", "out"]
    ignored = subprocess.run(["git", "check-ignore", "-q", "out/rebel.pdf"], cwd=ROOT, check=False)
    assert ignored.returncode == 0, "out/ is no longer in .gitignore"
    assert (tmp_path / "out" / "rebel-1.ship").is_file() and (tmp_path / "out" / "skirmish").is_dir()


def test_the_overwrite_rule_is_said_once_in_the_readme_and_in_every_writing_commands_help() -> None:
    from shipyard.cli import build_parser
    from shipyard.core.commandline import OVERWRITE_RULE

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert text.count("**Writing files, the one rule for every command:**") == 1
    assert text.count("only with `--force`") == 1  # said once, not again beside each command
    top = build_parser(None)
    names = list(next(a for a in top._actions if hasattr(a, "choices") and isinstance(a.choices, dict)).choices)
    writers = []
    for name in names:
        sub = next(a for a in build_parser(name)._actions if hasattr(a, "choices") and isinstance(a.choices, dict))
        parsers = [sub.choices[name]]
        for action in sub.choices[name]._actions:  # import statblock, fury roll ...
            if isinstance(getattr(action, "choices", None), dict):
                parsers += list(action.choices.values())
        for p in parsers:
            if any("--force" in a.option_strings for a in p._actions):
                writers.append(p.prog)
                assert " ".join(OVERWRITE_RULE.split()) in " ".join(p.format_help().split()), p.prog
    assert {"shipyard print", "shipyard new", "shipyard fix", "shipyard set", "shipyard fury roll"} <= set(writers)
