"""``shipyard ruleset new``: the package it writes works as a ruleset from the first minute.

Each kind (point-buy, record) is written, installed editable into a scratch virtual
environment that sees this Shipyard (``pip install --no-deps --no-build-isolation -e``:
nothing is downloaded), and then used as its author would: ``rulesets --check``,
``check`` and ``print`` (flat and fillable) of its sample, and the package's own tests
with pytest. The editor opening it is tests/test_editor_scaffold.py. Bad input writes
nothing and says what an id or a folder may be.
"""

import ast
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from shipyard.cli import main
from shipyard.scaffold import Names, write

from .conftest import scratch_venv


def _written(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


# --- bad input: a clear error, nothing written --------------------------------------------


@pytest.mark.parametrize("bad", ["My-Fleet", "1fleet", "my--fleet", "my_fleet", "fleet-", "x" * 41])
def test_an_invalid_id_is_refused_saying_what_an_id_may_be(
    bad: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    os.chdir(tmp_path)
    assert main(["ruleset", "new", bad]) == 2
    err = capsys.readouterr().err
    assert f"not a ruleset id: {bad!r}" in err and "lowercase letters, digits and single dashes" in err
    assert _written(tmp_path) == []


def test_a_folder_that_holds_something_is_refused_and_left_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "mine"
    target.mkdir()
    (target / "notes.txt").write_text("mine", encoding="utf-8")
    assert main(["ruleset", "new", "my-fleet", "-o", str(target)]) == 2
    err = capsys.readouterr().err
    assert f"{target}: the folder is not empty: nothing was written" in err
    assert _written(tmp_path) == ["mine", "mine/notes.txt"]


def test_an_installed_rulesets_id_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ruleset", "new", "space-fury", "-o", str(tmp_path / "fury")]) == 2
    assert "a ruleset 'space-fury' is installed already" in capsys.readouterr().err
    assert _written(tmp_path) == []


def test_an_empty_folder_is_filled_and_the_default_folder_is_named_after_the_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "empty").mkdir()
    assert main(["ruleset", "new", "my-fleet", "--record", "-o", str(tmp_path / "empty")]) == 0
    assert "wrote" in capsys.readouterr().out
    assert (tmp_path / "empty" / "shipyard_my_fleet" / "manifest.yaml").is_file()
    os.chdir(tmp_path)
    assert main(["ruleset", "new", "other-fleet"]) == 0
    assert (tmp_path / "shipyard-other-fleet" / "shipyard_other_fleet" / "catalog" / "pools.yaml").is_file()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no scratch folder left


def _postponed_annotations(source: str) -> bool:
    """Whether a module has ``from __future__ import annotations`` (docs/rulesets.md: not beside pydantic models)."""
    return any(isinstance(n, ast.ImportFrom) and n.module == "__future__" for n in ast.walk(ast.parse(source)))


def test_the_example_plug_in_follows_the_docs_too() -> None:
    demo = Path(__file__).resolve().parent / "data" / "plugin-demo" / "shipyard_tiny_gunboats" / "__init__.py"
    source = demo.read_text(encoding="utf-8")
    assert "BaseModel" in source and not _postponed_annotations(source)


@pytest.mark.parametrize("kind", ["point-buy", "record"])
def test_the_package_follows_the_docs(kind: str, tmp_path: Path) -> None:
    """docs/rulesets.md: no postponed annotations in modules with pydantic models, a sheet
    section per design, every placeholder filled."""
    folder = tmp_path / "pkg"
    files = write("my-fleet", kind, folder, set())
    texts = {p: p.read_text(encoding="utf-8") for p in files}
    assert [p for p, t in texts.items() if re.search("__(ID|PACKAGE|NAME|DIST)__", str(p) + t)] == []
    for module in (p for p in files if p.suffix == ".py"):  # the package's module and its tests
        assert not _postponed_annotations(texts[module]), module
    ruff = [str(Path(sys.executable).parent / "ruff")]  # Shipyard's own style, on what it writes
    style = ("--no-cache", "--line-length", "120", "--isolated")
    for check in (["format", "--check", *style], ["check", *style, "--select", "E,F,W,I,UP,B,SIM,RUF"]):
        proc = subprocess.run([*ruff, *check, "."], cwd=folder, capture_output=True, text=True, check=False)
        assert proc.returncode == 0, proc.stdout + proc.stderr
    record = texts[folder / "shipyard_my_fleet" / "templates" / "record.html"]
    assert 'id="sheet-{{ loop.index0 }}"' in record and "sheet_head(" in record
    pyproject = texts[folder / "pyproject.toml"]
    assert '[project.entry-points."shipyard.rulesets"]\nmy-fleet = "shipyard_my_fleet:manifest.yaml"' in pyproject


# --- the packages installed and used -------------------------------------------------------


@dataclass(frozen=True)
class Scratch:
    python: Path
    work: Path

    def run(self, *args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if k not in ("SHIPYARD_DEBUG", "PYTHONPATH")}
        return subprocess.run(
            [str(self.python), *map(str, args)],
            cwd=cwd or self.work,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )


KINDS = {"point-buy": Names("my-fleet"), "record": Names("war-log")}


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Scratch:
    """Both kinds written and installed editable into one scratch environment."""
    import importlib.util

    assert importlib.util.find_spec("hatchling"), "the test extras' hatchling is missing: run scripts/setup test"
    base = tmp_path_factory.mktemp("scaffold")
    venv = base / "venv"
    # The scratch environment sees this one (Shipyard, hatchling, pytest) after its own packages.
    python = scratch_venv(venv)
    work = base / "work"
    work.mkdir()
    scratch = Scratch(python, work)
    installs: list[str] = []
    for kind, names in KINDS.items():
        assert main(["ruleset", "new", names.id, f"--{kind}", "-o", str(work / names.dist)]) == 0
        installs += ["-e", str(work / names.dist)]
    proc = scratch.run("-m", "pip", "install", "--no-deps", "--no-build-isolation", "--no-index", "-q", *installs)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    return scratch


def _sample(scratch: Scratch, names: Names) -> Path:
    return scratch.work / names.dist / names.package / "catalog" / "examples" / "sample.ship"


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(KINDS))
def test_it_is_installed_and_passes_the_check(scratch: Scratch, kind: str) -> None:
    names = KINDS[kind]
    listed = scratch.run("-m", "shipyard", "rulesets", "--json")
    assert listed.returncode == 0, listed.stderr
    (row,) = [r for r in json.loads(listed.stdout)["rulesets"] if r["id"] == names.id]
    assert row["distribution"] == f"{names.dist} 0.1.0" and [k["id"] for k in row["kinds"]] == ["ship"]
    checked = scratch.run("-m", "shipyard", "rulesets", "--check", scratch.work / names.dist / names.package)
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout == (
        f"{names.id}: {names.name} 0.1: manifest and catalog read without problems"
        " (plug-in API 1, every hook as specified)\n"
    )


@pytest.mark.slow
def test_the_point_buy_sample_spends_its_budget_and_prints(scratch: Scratch) -> None:
    names = KINDS["point-buy"]
    checked = scratch.run("-m", "shipyard", "check", _sample(scratch, names), "--json")
    assert checked.returncode == 0, checked.stderr
    (report,) = json.loads(checked.stdout)
    assert report["valid"]
    assert [(p["id"], p["budget"], p["spent"], p["remaining"]) for p in report["pools"]] == [
        ("build-points", 20, 19, 1)
    ]
    over = scratch.work / "over.ship"
    doc = json.loads(_sample(scratch, names).read_text(encoding="utf-8"))
    over.write_text(json.dumps({**doc, "design": {**doc["design"], "hull": 9}}), encoding="utf-8")
    bad = scratch.run("-m", "shipyard", "check", over)
    assert bad.returncode == 1
    assert "ERROR   pool-over-budget: Build points over budget by 9: spent 29 of 20" in bad.stdout
    _prints(
        scratch,
        names,
        report,
        # the budget's note says why it is 20 (issue 47: the sheet printed no note)
        [
            "Sample Cutter",
            "Build points 20 19 1",
            "Build points: for hull class cutter",
            "Missile rack (2): 4",
            "Hull 1 2 3 4",
        ],
    )


@pytest.mark.slow
def test_the_record_sample_has_its_figures_track_and_actions_and_prints(scratch: Scratch) -> None:
    names = KINDS["record"]
    checked = scratch.run("-m", "shipyard", "check", _sample(scratch, names), "--json")
    assert checked.returncode == 0, checked.stderr
    (report,) = json.loads(checked.stdout)
    assert report["valid"] and report["pools"] == []
    assert [(f["id"], f["value"]) for f in report["derived"]["figures"]] == [("speed", 4), ("firepower", 5)]
    assert [(a["name"], a["allowed"], a["reason"]) for a in report["derived"]["actions"]] == [
        ("Evade", True, ""),
        ("Ram", False, "needs Hull 5, has 3"),
    ]
    _prints(scratch, names, report, ["Sample Corvette", "Firepower: 5", "Ram no — needs Hull 5, has 3", "Hull 1 2 3"])


def _prints(scratch: Scratch, names: Names, report: dict[str, Any], words: list[str]) -> None:
    """The sample printed flat (its sheet holds ``words``), fillable (a field for each box of
    its track in ``report``, what ``check --json`` said of it, and its notes) and as a card."""
    from pypdf import PdfReader

    sample = _sample(scratch, names)
    flat, form = scratch.work / f"{names.id}.pdf", scratch.work / f"{names.id}-form.pdf"
    printed = scratch.run("-m", "shipyard", "print", sample, "-o", flat, "--force")
    assert printed.returncode == 0, printed.stderr
    text = PdfReader(flat).pages[0].extract_text()
    assert [w for w in words if w not in text] == [], text
    fillable = scratch.run("-m", "shipyard", "print", sample, "--fillable", "-o", form, "--force")
    assert fillable.returncode == 0, fillable.stderr
    fields = set(PdfReader(form).get_fields() or {})
    hull = report["derived"]["tracks"][0]
    assert fields == {*(f"hull.{i + 1}" for i in range(len(hull["boxes"]))), "notes"}
    cards_pdf = scratch.work / f"{names.id}-cards.pdf"
    cards = scratch.run("-m", "shipyard", "print", sample, "--sheet", "cards", "-o", cards_pdf, "--force")
    assert cards.returncode == 0, cards.stderr
    assert names.name in PdfReader(cards_pdf).pages[0].extract_text()


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(KINDS))
def test_the_packages_own_tests_pass(scratch: Scratch, kind: str) -> None:
    folder = scratch.work / KINDS[kind].dist
    proc = scratch.run("-m", "pytest", "-q", "-p", "no:cacheprovider", cwd=folder)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert re.search(rf"^{6 if kind == 'point-buy' else 3} passed", proc.stdout, re.MULTILINE), proc.stdout
