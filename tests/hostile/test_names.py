"""Hostile names and text: control characters, NUL, a vertical tab or U+FFFE in a design's
name or file name, very long values and places, given to ``set``, ``get`` and the exports.

Each used to end in "this is a bug; run again with SHIPYARD_DEBUG=1" (exit 70): resvg
refused a token's SVG holding a control character, and a 100,000-character ``notes=...``
was first looked up as a file name ("File name too long"). Now a design keeps the text it
was given, what is drawn or written from it is cleaned, and text too long or a name no file
can have gets a clear error.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import ROOT, call_shipyard

SAMPLE = ROOT / "catalogs" / "wing-commander" / "examples" / "rapier.ship"
STAT_BLOCK_SAMPLE = ROOT / "catalogs" / "space-fighter-alpha" / "examples" / "rebel-fighter.ship"

# each as `set` takes it (JSON text) and as the design holds it
HOSTILE_NAMES = {
    "control character": ('"Bad\\u0001Name"', "Bad\x01Name"),
    "NUL": ('"Bad\\u0000Name"', "Bad\x00Name"),
    "vertical tab": ('"Bad\\u000bName"', "Bad\x0bName"),
    "U+FFFE": ('"Bad\\ufffeName"', "Bad\ufffeName"),
    "DEL and U+FFFF": ('"Bad\\u007f\\uffffName"', "Bad\x7f\uffffName"),
}


def _no_bug(result: object) -> None:
    text = result.stdout + result.stderr  # type: ignore[attr-defined]
    assert result.returncode != 70 and "this is a bug" not in text, text  # type: ignore[attr-defined]


@pytest.mark.parametrize("typed, held", list(HOSTILE_NAMES.values()), ids=list(HOSTILE_NAMES))
def test_a_hostile_design_name_exports_and_is_kept_in_the_document(tmp_path: Path, typed: str, held: str) -> None:
    ship = tmp_path / "bad.ship"
    result = call_shipyard("set", SAMPLE, f"name={typed}", "-o", ship)
    _no_bug(result)
    assert result.returncode == 0, result.stderr
    assert json.loads(ship.read_text(encoding="utf-8"))["design"]["name"] == held  # the design keeps it

    foundry = call_shipyard("export", "foundry", ship, "-o", tmp_path / "foundry")
    _no_bug(foundry)
    assert foundry.returncode == 0, foundry.stderr
    actor = json.loads((tmp_path / "foundry" / "bad.json").read_text(encoding="utf-8"))
    assert actor["name"] == held  # kept in the document
    assert (tmp_path / "foundry" / "bad-token.png").read_bytes().startswith(b"\x89PNG")


def test_every_hostile_character_at_once_prints_and_draws_every_picture(tmp_path: Path) -> None:
    """The sheet, the card and the token: all are made by the one template renderer that cleans."""
    ship = tmp_path / "bad.ship"
    typed = '"' + "".join(t[1:-1] for t, _ in HOSTILE_NAMES.values()) + '"'
    assert call_shipyard("set", SAMPLE, f"name={typed}", f"notes={typed}", "-o", ship).returncode == 0
    for argv in (
        ("print", ship, "-o", tmp_path / "bad.pdf"),
        ("export", "token-png", ship, "-o", tmp_path / "pictures"),
        ("export", "card-png", ship, "-o", tmp_path / "pictures"),
    ):
        result = call_shipyard(*argv)
        _no_bug(result)
        assert result.returncode == 0, result.stderr
    assert (tmp_path / "bad.pdf").read_bytes().startswith(b"%PDF")
    assert sorted(p.name for p in (tmp_path / "pictures").iterdir()) == ["bad-card.png", "bad-token.png"]


def test_stat_block_text_holds_no_character_a_text_file_cannot(tmp_path: Path) -> None:
    """Written text a NUL made "binary" could not be read back; it is cleaned, and reads back."""
    ship = tmp_path / "bad.ship"
    assert call_shipyard("set", STAT_BLOCK_SAMPLE, 'name="Red\\u0000Five\\u000bTwo"', "-o", ship).returncode == 0
    result = call_shipyard("export", "statblock", ship, "-o", tmp_path / "bad.txt")
    _no_bug(result)
    assert result.returncode == 0, result.stderr
    text = (tmp_path / "bad.txt").read_text(encoding="utf-8")
    assert "\x00" not in text and "\x0b" not in text and "RedFive Two" in text
    back = call_shipyard("import", "statblock", tmp_path / "bad.txt", "-o", tmp_path / "back.ship")
    _no_bug(back)
    assert back.returncode == 0, back.stderr


@pytest.mark.parametrize("char", ["\x01", "\x0b", "\n", "\x7f", "\ufffe"], ids=["C0", "VT", "newline", "DEL", "FFFE"])
def test_a_hostile_file_name_is_cleaned_for_the_exported_names(tmp_path: Path, char: str) -> None:
    ship = tmp_path / f"x{char}y.ship"
    shutil.copy(SAMPLE, ship)
    result = call_shipyard("export", "foundry", ship, "-o", tmp_path / "out")
    _no_bug(result)
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["x-y-token.png", "x-y.json"]
    assert json.loads((tmp_path / "out" / "x-y.json").read_text(encoding="utf-8"))["name"] == "Rapier"


@pytest.mark.parametrize("field", ["notes", "story"])
def test_set_of_a_very_long_text_says_how_long_it_may_be(tmp_path: Path, field: str) -> None:
    ship = tmp_path / "rapier.ship"
    shutil.copy(SAMPLE, ship)
    before = ship.read_bytes()
    result = call_shipyard("set", ship, f"{field}={'x' * 100_000}", "--in-place")
    _no_bug(result)
    assert result.returncode == 2
    assert f"at {field}" in result.stderr and "at most 20000 characters" in result.stderr
    assert ship.read_bytes() == before


def test_set_of_a_long_text_within_the_limit_is_written_and_printed(tmp_path: Path) -> None:
    ship = tmp_path / "rapier.ship"
    shutil.copy(SAMPLE, ship)
    story = "word " * 3999
    result = call_shipyard("set", ship, f"story={story}", "notes=line\x01 " * 1000, "--in-place")
    _no_bug(result)
    assert result.returncode == 0, result.stderr
    assert json.loads(ship.read_text(encoding="utf-8"))["design"]["story"] == story
    printed = call_shipyard("print", ship, "-o", tmp_path / "rapier.pdf")
    _no_bug(printed)
    assert printed.returncode == 0, printed.stderr


@pytest.mark.parametrize(
    "argv",
    [
        ("set", "{ship}", "name=x", "-o", "{long}.ship"),
        ("set", "{long}", "name=x", "--dry-run"),
        ("get", "{ship}", "{long}"),
        ("get", "{ship}", "guns[{long}]"),
        ("check", "{long}"),
        ("export", "foundry", "{ship}", "-o", "{long}"),
        ("print", "{ship}", "-o", "{long}.pdf"),
    ],
    ids=["set -o", "set FILE", "get PATH", "get ENTRY", "check", "export -o", "print -o"],
)
def test_a_name_no_file_can_have_is_an_input_error_whose_line_says_what_is_wrong(
    tmp_path: Path, argv: tuple[str, ...]
) -> None:
    ship = tmp_path / "rapier.ship"
    shutil.copy(SAMPLE, ship)
    result = call_shipyard(*[a.format(ship=ship, long="x" * 5000) for a in argv], cwd=tmp_path)
    _no_bug(result)
    assert result.returncode == 2, result.stderr
    line = result.stderr.splitlines()[0]
    assert len(line) < 1500, line  # the name is cut short, so what is wrong is still said
    said = line.partition("more)")[2]  # after the name, cut short
    assert any(w in said for w in ("File name too long", "no entry", "no such place", "not a place")), line


@pytest.mark.parametrize(
    "value, said",
    [
        ("[" * 30_000 + "]" * 30_000, "nested too deeply"),
        ('{"name": "a", "name": "b"}', "appears twice"),
    ],
    ids=["deep JSON", "duplicate key"],
)
def test_set_refuses_json_a_design_file_could_not_hold(tmp_path: Path, value: str, said: str) -> None:
    result = call_shipyard("set", SAMPLE, f"pilot={value}", "--dry-run")
    _no_bug(result)
    assert result.returncode == 2
    assert "at pilot" in result.stderr and said in result.stderr


@pytest.mark.parametrize("entry", ["9" * 5000, "#" + "9" * 5000, "٣"], ids=["5000 digits", "#5000 digits", "Arabic 3"])
def test_an_entry_by_a_position_no_list_has_is_an_input_error(entry: str) -> None:
    """int() refuses more than 4300 digits: an entry named by one was a bug, not "no entry"."""
    result = call_shipyard("get", SAMPLE, f"guns[{entry}].count")
    _no_bug(result)
    assert result.returncode == 2
    assert "no entry" in result.stderr and "allowed:" in result.stderr
