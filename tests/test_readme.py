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
    "shipyard check $ships/*.ship --json > report.json": (1, None),
    "shipyard print $ships/rebel-fighter.ship -o rebel.pdf": (0, "wrote rebel.pdf: 1 page(s), 1 design(s)"),
    "shipyard print $ships/*.ship --sheet cards -o cards.pdf": (0, "wrote cards.pdf: 1 page(s), 6 design(s)"),
    'shipyard print $ships/*.ship --sheet fleet --title "Appendix 1" -o fleet.pdf': (
        0,
        "wrote fleet.pdf: 10 page(s), 6 design(s)",
    ),
    "shipyard compare $ships/rebel-fighter.ship $ships/rebel-frigate.ship --differences": (1, None),
    "shipyard check $ships/alien-disk-fighter.ship --suggest": (1, None),
    "shipyard fix $ships/alien-disk-fighter.ship --apply 1 -o fixed.ship": (0, None),
    'shipyard new "Red Five" --kind starfighter -o red-five.ship': (0, "wrote red-five.ship"),
    'shipyard new "Red Falcon" --ruleset cluster-falk -o red-falcon.ship': (0, "wrote red-falcon.ship"),
    "shipyard import statblock $ships/appendix-1.txt --preset sample-ships -o imported/": (
        0,
        "wrote imported/federation-space-station.ship",
    ),
    "shipyard export statblock $ships/rebel-fighter.ship --markdown": (0, None),
    "shipyard convert trinity catalogs/trinity/examples/anvil-frigate.yaml -o anvil.ship --structure 12": (
        0,
        "wrote anvil.ship",
    ),
    "shipyard fury roll --enhancements 5 --seed 42 -o fighter.ship": (0, None),
    "shipyard fury skirmish --seed 7 -o skirmish/": (0, None),
    "shipyard catalog list technology": (0, None),
    "shipyard rulesets": (0, None),
    "shipyard schema > design-file.schema.json": (0, None),
}


def using_it() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## Using it", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    return [re.sub(r"\s+#.*$", "", line).strip() for line in block.splitlines() if line.strip()]


def test_every_command_of_using_it_works_as_written(tmp_path: Path) -> None:
    lines = using_it()
    assert lines[0] == "ships=catalogs/space-fighter-alpha/examples", lines[0]
    assert lines[1:] == list(EXPECTED), "the README's commands changed: update EXPECTED"
    (tmp_path / "catalogs").symlink_to(ROOT / "catalogs")  # "from the clone", in a folder of its own
    env = {k: v for k, v in os.environ.items() if k != "SHIPYARD_DEBUG"}
    prelude = f'shipyard() {{ "{sys.executable}" -m shipyard "$@"; }}\n{lines[0]}\n'
    for line, (status, last) in EXPECTED.items():
        proc = subprocess.run(
            ["bash", "-c", prelude + line], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
        )
        assert proc.returncode == status, f"{line}\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
        assert "Traceback" not in proc.stderr, f"{line}\n{proc.stderr}"
        if last is not None:
            assert proc.stdout.splitlines()[-1] == last, f"{line}\n{proc.stdout[-500:]}"
    assert sorted(p.name for p in (tmp_path / "imported").iterdir()) == sorted(
        f"{p.stem}.ship" for p in (ROOT / "catalogs" / "space-fighter-alpha" / "examples").glob("*.ship")
    )
