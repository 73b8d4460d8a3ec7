"""One function builds a design's report (:func:`shipyard.core.designreport.design_report`):
every output shows that report, so they say the same of a design, and no module evaluates a
design itself.

The art finding is the case in point: it is added to the rules' report after evaluating, and
was added in four places before; a design whose picture is missing must be warned of alike by
``shipyard check``, the printed sheet, the Foundry export, the editor's findings and the
hangar's facts (a roster's members).
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

from shipyard._qt.window.window import MainWindow
from shipyard.hangar.roster import design_facts

from .conftest import EXAMPLES, ROOT, call_shipyard
from .test_editor import window  # noqa: F401 (the fixture)

WAIT = 150  # longer than any commit delay of the editor
ART_CORPUS = Path(__file__).resolve().parent / "corpus" / "bad" / "art"

# Where ``evaluate`` (defined in shipyard/core/evaluate.py) may be called, and why: everywhere
# else a design's report comes from the one builder.
ENGINE = {
    "shipyard/core/designreport.py": "the one builder",
    "shipyard/core/fixes.py": "the fix search evaluates the designs it tries, which nothing shows",
    "bench/bench_evaluate.py": "times evaluation itself against a baseline",
    "bench/bench_compare_fix.py": "times the fix search against one evaluation",
}


def evaluations(source: str) -> list[int]:
    """The lines of ``source`` that import :func:`shipyard.core.evaluate.evaluate` or call an
    ``evaluate`` (by name or as an attribute: ``shipyard.core.evaluate.evaluate(...)``)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module == "shipyard.core.evaluate":
            if any(a.name in ("evaluate", "*") for a in node.names):
                lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.module == "shipyard.core":
            if any(a.name == "evaluate" for a in node.names):
                lines.append(node.lineno)
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name == "evaluate":
                lines.append(node.lineno)
    return sorted(set(lines))


def test_the_scan_finds_an_evaluation() -> None:
    assert evaluations("from shipyard.core.evaluate import evaluate as ev\n") == [1]
    assert evaluations("import shipyard.core.evaluate as e\nr = e.evaluate(d, c)\n") == [2]
    assert evaluations("from shipyard.core import evaluate\n") == [1]
    assert evaluations("from shipyard.core.evaluate import verdict\nverdict(d, c)\n") == []


def test_no_module_evaluates_a_design_outside_the_one_builder() -> None:
    found = []
    for path in sorted([*(ROOT / "shipyard").rglob("*.py"), *(ROOT / "bench").rglob("*.py")]):
        rel = path.relative_to(ROOT).as_posix()
        if rel in ENGINE:
            continue
        found += [f"{rel}:{line}" for line in evaluations(path.read_text(encoding="utf-8"))]
    assert found == [], "build a design's report with shipyard.core.designreport.design_report"
    for rel in ENGINE:  # each exception is still needed: a stale one would hide a new caller
        assert evaluations((ROOT / rel).read_text(encoding="utf-8")), rel


def art_design(tmp_path: Path, case: str) -> Path:
    """A design whose picture is missing (``missing``), or whose picture's header is whole over
    pixels that cannot be decoded (``undecodable``)."""
    if case == "undecodable":
        doc = json.loads((ART_CORPUS / "art-undecodable.ship").read_text())
        (tmp_path / "undecodable.png").write_bytes((ART_CORPUS / "undecodable.png").read_bytes())
    else:
        doc = json.loads((EXAMPLES / "rebel-fighter.ship").read_text())
        doc["design"]["art"] = "pictures/missing.png"
    design = tmp_path / "ship.ship"
    design.write_text(json.dumps(doc))
    return design


def warnings_of(stderr: str) -> list[str]:
    """The art warnings a command printed: the finding's message after the design's name."""
    prefix = "shipyard: warning: "
    return [ln.removeprefix(prefix).split(": ", 1)[1] for ln in stderr.splitlines() if ln.startswith(prefix)]


@pytest.mark.parametrize("case", ["missing", "undecodable"])
def test_every_output_says_the_same_of_the_design_s_art(
    case: str,
    qtbot: Any,
    window: MainWindow,  # noqa: F811 (the fixture)
    tmp_path: Path,
) -> None:
    design = art_design(tmp_path, case)
    check = call_shipyard("check", design, "--json", "--no-user-catalog")
    assert check.returncode == 0, check.stderr
    (entry,) = json.loads(check.stdout)
    checked = [f["message"] for f in entry["findings"] if f["code"] == "art-missing"]

    printed = call_shipyard("print", design, "-o", tmp_path / "sheet.pdf", "--no-user-catalog")
    assert printed.returncode == 0, printed.stderr
    exported = call_shipyard("export", "foundry", design, "-o", tmp_path / "foundry", "--no-user-catalog")
    assert exported.returncode == 0, exported.stderr

    view = window.open_file(design)
    assert view is not None
    qtbot.wait(WAIT)
    edited = [f.message for f in view.doc.report.findings if f.code == "art-missing"]

    (message,) = edited
    assert "the design's art is left out" in message
    assert warnings_of(printed.stderr) == [message]
    assert warnings_of(exported.stderr) == [message]
    facts, _, _ = design_facts(design)  # a roster member, a hangar entry
    if case == "missing":  # read from the file's facts: the check says it too, word for word
        assert "art file not found" in message
        assert checked == [message]
        assert facts.findings == len(entry["findings"]) == len(view.doc.report.findings)
    else:  # found only by decoding the picture, which the outputs that draw it do, and check does not
        assert "pixels cannot be decoded" in message
        assert checked == []
        assert facts.findings == len(entry["findings"]) == len(view.doc.report.findings) - 1
