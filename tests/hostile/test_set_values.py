"""``shipyard set`` and the design-file reader take exactly the same values.

``set drv=true`` wrote 1 and ``set drv="3"`` wrote 3 (pydantic's lax validation), while a
file holding ``"drv": true`` or ``"drv": "3"`` was refused (the reader validates strictly,
as docs/catalog-format.md promises of every value a user writes). Now ``set`` validates
through the reader's own function, so both refuse them with the same message (what was
given, what the place takes), and whatever ``set`` writes, the reader reads.

Both directions are tried over every kind of field the sample designs hold: for each
ruleset and JSON type (whole number, true/false, text), a few fields of that type, each
given values of the other types.
"""

from __future__ import annotations

import copy
import json
import re
import shutil
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, call_shipyard

FIELDS_PER_TYPE = 3  # fields of one JSON type tried in each ruleset


def _leaves(data: Any, path: str = "") -> list[tuple[str, Any]]:
    if isinstance(data, dict):
        return [leaf for k, v in data.items() for leaf in _leaves(v, f"{path}.{k}" if path else k)]
    if isinstance(data, list):
        return [leaf for i, v in enumerate(data) for leaf in _leaves(v, f"{path}[{i}]")]
    return [(path, data)]


def _fields() -> list[tuple[Path, str, Any]]:
    """(sample file, path, value): up to FIELDS_PER_TYPE different fields of each JSON type in each ruleset."""
    chosen: dict[tuple[str, str], list[str]] = {}
    out = []
    for file in sorted((ROOT / "catalogs").glob("*/examples/*.ship")):
        doc = json.loads(file.read_text(encoding="utf-8"))
        for path, value in _leaves(doc["design"]):
            if value is None or isinstance(value, float):
                continue
            field = re.sub(r"\[\d+\]", "[]", path)
            names = chosen.setdefault((doc["ruleset"], type(value).__name__), [])
            if field in names or len(names) >= FIELDS_PER_TYPE:
                continue
            names.append(field)
            out.append((file, path, value))
    return out


def _candidates(value: Any) -> list[Any]:
    """The value itself, then values of other JSON types a person might type for it."""
    if isinstance(value, bool):
        return [not value, 1, 0, "true", None]
    if isinstance(value, int):
        return [value + 1, True, False, str(value), float(value), value + 0.5, None]
    return [f"{value} changed", "", 5, True]  # text: set takes 5 and true as the text "5", "true"


FIELDS = _fields()


@cache
def _loaded(file: Path) -> Any:
    from shipyard.core.designfile import load_design

    return load_design(file)


def _set(file: Path, path: str, typed: str) -> tuple[bool, Any]:
    """What `shipyard set FILE PATH=TYPED` makes of it: (taken, the design written or the error)."""
    from shipyard.commands.setget import change_design
    from shipyard.core.errors import InputError

    try:
        return True, change_design(_loaded(file), [f"{path}={typed}"])[0]
    except InputError as exc:
        return False, exc


def _read(file: Path, path: str, value: Any) -> tuple[bool, Any]:
    """What the reader makes of the file with ``value`` at ``path``: (taken, the design or the error)."""
    from shipyard.core.designfile import design_from_document
    from shipyard.core.errors import InputError
    from shipyard.core.paths import parse_path

    doc = json.loads(file.read_text(encoding="utf-8"))
    node = doc["design"]
    *parents, last = parse_path(path)
    for part in parents:
        node = node[part]
    node[last] = copy.deepcopy(value)
    try:
        return True, design_from_document(doc, file=str(file)).design
    except InputError as exc:
        return False, exc


def _message(outcome: tuple[bool, Any]) -> str:
    return "" if outcome[0] else str(outcome[1].problems[0])


def test_the_samples_hold_every_kind_of_field_tried() -> None:
    kinds = {type(v).__name__ for _, _, v in FIELDS}
    assert kinds == {"int", "bool", "str"}, kinds
    assert len({f.parent.parent.name for f, _, _ in FIELDS}) >= 5  # every ruleset with sample designs


@pytest.mark.parametrize("file, path, value", FIELDS, ids=[f"{f.parent.parent.name}:{p}" for f, p, _ in FIELDS])
def test_set_and_the_reader_take_the_same_values(file: Path, path: str, value: Any) -> None:
    from shipyard.core.designfile import LoadedDesign, dumps

    differ = []
    for candidate in _candidates(value):
        typed = candidate if isinstance(candidate, str) and isinstance(value, str) else json.dumps(candidate)
        by_set = _set(file, path, typed)
        # what set holds a typed value to be: the text itself at a text place, else the JSON value
        meant = typed if isinstance(value, str) else candidate
        by_reader = _read(file, path, meant)
        if by_set[0] != by_reader[0]:
            differ.append(
                f"{typed}: set {'takes' if by_set[0] else 'refuses'} it, the reader "
                f"{'takes' if by_reader[0] else 'refuses'} it ({_message(by_set) or _message(by_reader)})"
            )
            continue
        if by_set[0]:  # taken by both as the same value, and what set writes the reader reads
            assert by_set[1] == by_reader[1], typed
            loaded = _loaded(file)
            text = dumps(LoadedDesign(file, loaded.ruleset, loaded.preset, by_set[1], loaded.catalog, loaded.written))
            from shipyard.core.designfile import design_from_document

            assert design_from_document(json.loads(text), file=str(file)).design == by_set[1], typed
        else:  # refused by both, with one message (the reader's place is under "design.")
            set_problem, read_problem = by_set[1].problems[0], by_reader[1].problems[0]
            assert set_problem.message == read_problem.message, (set_problem, read_problem)
            # at the place set changed; a problem of the whole design (its kind) is at "design" in the file
            assert read_problem.path in (f"design.{set_problem.path}", "design"), (set_problem, read_problem)
    assert differ == []


@pytest.mark.parametrize("typed", ["true", '"3"', "3.0"])
def test_drv_true_or_quoted_is_refused_by_set_and_by_the_file_alike(tmp_path: Path, typed: str) -> None:
    sample = ROOT / "catalogs" / "wing-commander" / "examples" / "rapier.ship"
    ship = tmp_path / "rapier.ship"
    shutil.copy(sample, ship)
    by_set = call_shipyard("set", ship, f"drv={typed}", "--in-place")
    assert by_set.returncode == 2, by_set.stdout
    assert ship.read_bytes() == sample.read_bytes()
    doc = json.loads(ship.read_text(encoding="utf-8"))
    doc["design"]["drv"] = json.loads(typed)
    ship.write_text(json.dumps(doc), encoding="utf-8")
    by_reader = call_shipyard("check", ship)
    assert by_reader.returncode == 2
    for result in (by_set, by_reader):
        assert f"Input should be a valid integer, not {typed}" in result.stderr
        assert "(allowed: a whole number such as 3, without quotes)" in result.stderr
