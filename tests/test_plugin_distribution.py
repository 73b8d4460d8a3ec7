"""A ruleset distributed as its own package appears in Shipyard with no change to Shipyard.

tests/data/plugin-demo is such a distribution (a pyproject, a package with a manifest, a
catalog folder, templates). It is copied to a temporary folder, built and installed into
a scratch virtual environment that sees this Shipyard, and then used the way a user
would: listed, a new design made, checked and printed, and its schema produced.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from .conftest import scratch_venv

pytestmark = pytest.mark.slow

DEMO = Path(__file__).resolve().parent / "data" / "plugin-demo"
PIP_TIMEOUT = 600


@dataclass(frozen=True)
class Scratch:
    python: Path
    source: Path
    work: Path

    def shipyard(self, *args: str | Path) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if k not in ("SHIPYARD_DEBUG", "PYTHONPATH")}
        return subprocess.run(
            [str(self.python), "-m", "shipyard", *map(str, args)],
            cwd=self.work,
            env=env,
            capture_output=True,
            text=True,
            timeout=180,
            check=False,
        )


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Scratch:
    base = tmp_path_factory.mktemp("plugin")
    source = base / "shipyard-tiny-gunboats"
    shutil.copytree(DEMO, source)
    venv = base / "venv"
    # The scratch environment sees the environment running these tests (Shipyard and what
    # it needs) the way site-packages is seen: its own packages first, then ours.
    python = scratch_venv(venv)
    proc = subprocess.run(
        [str(python), "-m", "pip", "install", "--disable-pip-version-check", "--no-input", str(source)],
        capture_output=True,
        text=True,
        timeout=PIP_TIMEOUT,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    work = base / "work"
    work.mkdir()
    return Scratch(python, source, work)


def test_the_installed_ruleset_is_listed(scratch: Scratch) -> None:
    proc = scratch.shipyard("rulesets", "--json")
    assert proc.returncode == 0, proc.stderr
    rows = {r["id"]: r for r in json.loads(proc.stdout)["rulesets"]}
    demo = rows["tiny-gunboats"]
    assert demo["name"] == "Tiny Gunboats" and demo["version"] == "0.3"
    assert demo["distribution"] == "shipyard-tiny-gunboats 0.3.0"
    assert [k["id"] for k in demo["kinds"]] == ["gunboat"] and demo["presets"] == ["standard"]
    assert {"space-fighter-alpha", "space-fury"} <= set(rows)  # the built-in ones are still there


def test_new_check_and_print_work_on_it(scratch: Scratch) -> None:
    made = scratch.shipyard("new", "Gnat", "--kind", "gunboat", "-o", "gnat.ship")
    assert made.returncode == 0, made.stderr
    doc = json.loads((scratch.work / "gnat.ship").read_text())
    assert doc["ruleset"] == "tiny-gunboats" and doc["design"] == {"name": "Gnat"}
    checked = scratch.shipyard("check", "gnat.ship", "--json")
    assert checked.returncode == 0, checked.stderr
    (report,) = json.loads(checked.stdout)
    assert report["valid"] and report["pools"] == []
    assert [(f["id"], f["value"]) for f in report["derived"]["figures"]] == [("firepower", 2)]
    assert [len(t["boxes"]) for t in report["derived"]["tracks"]] == [3]
    # the ruleset's own rule, from its own package
    overgunned = scratch.work / "overgunned.ship"
    overgunned.write_text(json.dumps({**doc, "design": {"name": "Overgunned", "hull": 2, "guns": 5}}))
    bad = scratch.shipyard("check", overgunned)
    assert bad.returncode == 1
    assert "ERROR   too-many-guns: 5 guns on a hull of 2: at most 2" in bad.stdout
    assert "Tiny Gunboats (homebrew), Guns" in bad.stdout
    printed = scratch.shipyard("print", "gnat.ship", "-o", "gnat.pdf")
    assert printed.returncode == 0, printed.stderr
    from pypdf import PdfReader

    text = PdfReader(scratch.work / "gnat.pdf").pages[0].extract_text()
    assert "Gnat" in text and "Firepower" in text and "Hull" in text


def test_its_samples_and_schema(scratch: Scratch) -> None:
    sample = scratch.source / "shipyard_tiny_gunboats" / "catalog" / "examples" / "sea-wasp.ship"
    checked = scratch.shipyard("check", sample)
    assert checked.returncode == 0 and "Result: PASSES" in checked.stdout, checked.stderr
    schema = scratch.shipyard("schema", "--ruleset", "tiny-gunboats")
    assert schema.returncode == 0, schema.stderr
    shape = json.loads(schema.stdout)
    assert shape["properties"]["ruleset"]["const"] == "tiny-gunboats"
    assert "guns" in json.dumps(shape)
