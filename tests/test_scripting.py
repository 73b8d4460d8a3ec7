"""The command line as people script it: set and get, files kept as written, one overwrite
rule, tables that fit the terminal, files given to the wrong command, shell completion."""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from shipyard.cli import build_parser, main
from shipyard.core.designfile import LoadedDesign, dumps, load_design, sample_files
from shipyard.core.edits import set_at
from shipyard.core.errors import InputError
from shipyard.core.paths import join_path
from shipyard.core.registry import rulesets

from .conftest import EXAMPLES, ROOT, call_shipyard

SAMPLES = [f for info in rulesets() for f in sample_files(info.samples)]
FALK = ROOT / "catalogs" / "cluster-falk" / "examples"


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def copy(name: str | Path, folder: Path) -> Path:
    source = Path(name) if Path(name).is_absolute() else EXAMPLES / name
    return Path(shutil.copy(source, folder / source.name))


def changed_lines(before: str, after: str) -> list[str]:
    return [ln for ln in difflib.ndiff(before.splitlines(), after.splitlines()) if ln[:1] in "+-"]


# --- set and get -----------------------------------------------------------------------------


def test_set_changes_values_named_as_findings_and_the_editor_name_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ship = copy(FALK / "kestrel-fighter.ship", tmp_path)
    out = tmp_path / "kestrel-4.ship"
    code, text, err = run(
        capsys, "set", ship, "scale=4", "ratings.guns=4", "crew[Lt. Mara Venn].skills.pilot=70", "-o", out
    )
    assert code == 0, err
    lines = text.splitlines()
    assert lines[0] == f"{ship}: Scale from 2 to 4  (scale)"
    assert lines[1].endswith("from 3 to 4  (ratings.guns)")
    assert lines[2].endswith("from 65 to 70  (crew[0].skills.pilot)")
    assert lines[3] == f"{ship}: passes; wrote {out}"
    assert load_design(out).design.scale == 4
    assert [ln for ln in changed_lines(ship.read_text(), out.read_text()) if ln[0] == "+"] == [
        '+     "scale": 4,',
        '+       "guns": 4,',
        '+           "pilot": 70,',
    ]
    code, text, _ = run(capsys, "get", out, "scale", "ratings.guns", "crew[#1].name")
    assert (code, text) == (0, "4\n4\nLt. Mara Venn\n")


def test_set_names_an_entry_by_its_written_name_its_item_or_its_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ "Ejection Seat" is how the sample writes the Ejection Pods; the path finds it, and the file keeps it."""
    ship = copy("rebel-fighter.ship", tmp_path)
    out = tmp_path / "rebel.ship"
    code, text, err = run(
        capsys,
        "set",
        ship,
        "weapons[Missile].count=2",
        "weapons[0].fire-link=B",
        "accessories[Ejection Seat].id=escape-pods",
        "-o",
        out,
    )
    assert code == 1, err  # two missiles cost more freebies than it has; escape pods are for starships
    assert "Weapons, Missile/Torpedo: count from 1 to 2  (weapons[1].count)" in text
    assert "from A to B  (weapons[0].fire_link)" in text
    assert "from Ejection Pods to Escape Pods  (accessories[1].id)" in text
    assert "does not pass: 2 errors; wrote" in text and "  ERROR: Freebie Points over budget by 8" in text
    assert "design is Starfighter — at Accessories, Escape Pods" in text
    diff = changed_lines(ship.read_text(), out.read_text())
    assert diff == [
        '-         "fire_link": "A"',
        '+         "fire_link": "B"',
        '-         "count": 1',
        '+         "count": 2',
        '-         "id": "Ejection Seat"',
        '+         "id": "Escape Pods"',
    ]  # the replaced item written by its name, as the file named the one it replaces


def test_set_refuses_a_place_that_does_not_exist_with_the_places_that_do_closest_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ship = copy("rebel-fighter.ship", tmp_path)
    code, _, err = run(capsys, "set", ship, "weapons[Light Laser].cuont=3", "-o", tmp_path / "x.ship")
    assert code == 2
    assert "no such place in the design: weapons[Light Laser].cuont" in err
    assert "(allowed: weapons[Light Laser].count, " in err  # the closest first
    code, _, err = run(capsys, "set", ship, "weapons[Heavy Laser].count=3", "--dry-run")
    assert code == 2 and "weapons has no entry 'Heavy Laser' (allowed: Light Laser, Missile/Torpedo)" in err
    code, _, err = run(capsys, "set", ship, "weapons[7].count=3", "--dry-run")
    assert code == 2 and "weapons has 2 entries; there is no entry 7 (allowed: 0 to 1, #1 to #2" in err
    code, _, err = run(capsys, "get", ship, "sturcture")
    assert code == 2 and "(allowed: structure, " in err
    code, _, err = run(capsys, "set", ship, "structure=lots", "--dry-run")
    assert code == 2 and "at structure" in err  # the design model's own refusal, at the place
    assert not (tmp_path / "x.ship").exists()


def test_set_says_a_list_or_object_mistyped_is_broken_json_and_where(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A list missing its last brackets was taken as text, and refused as "Input should be a
    valid array": the person had typed an array, and was not told what was wrong with it."""
    ship = copy("rebel-fighter.ship", tmp_path)
    before = ship.read_text()
    code, _, err = run(capsys, "set", ship, 'weapons=[{"weapon": "light-laser", "count": 2', "--in-place")
    assert code == 2 and "at weapons: malformed JSON in the value: it ends before the list or object is closed" in err
    assert "(allowed: a JSON list [...] or object {...}, whole, in single quotes so the shell keeps it)" in err
    code, _, err = run(capsys, "set", ship, 'weapons=[{"weapon": "light-laser" "count": 2}]', "--in-place")
    assert code == 2 and "Expecting ',' delimiter at character 27 of 38" in err
    assert ship.read_text() == before
    code, out, _ = run(capsys, "set", ship, "name=[Red Five", "--dry-run")  # text may start with a bracket
    assert code == 0 and "Name from Rebel Fighter to [Red Five" in out
    code, _, err = run(capsys, "set", ship, "handling={x", "--dry-run")  # a number place: its own refusal
    assert code == 2 and "at handling" in err and "JSON list" not in err


def test_set_writes_several_designs_all_or_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fighter, frigate = copy("rebel-fighter.ship", tmp_path), copy("rebel-frigate.ship", tmp_path)
    falk = copy(FALK / "kestrel-fighter.ship", tmp_path)
    before = {f: f.read_bytes() for f in (fighter, frigate, falk)}
    code, _, err = run(capsys, "set", fighter, frigate, falk, "structure=14", "--in-place")
    assert code == 2  # the Cluster Falk ship has no structure: nothing is written, the others neither
    assert f"{falk}" in err and "nothing was written (of 3 designs)" in err
    assert {f: f.read_bytes() for f in before} == before
    code, text, err = run(capsys, "set", fighter, frigate, "structure=14", "--in-place", "--json")
    assert code == 1, err  # the frigate at Structure 14 is over its budget
    data = json.loads(text)
    assert [d["file"] for d in data] == [str(fighter), str(frigate)]
    assert data[0]["changes"] == [
        {"path": "structure", "place": "Structure", "before": 15, "after": 14},
    ]
    assert data[0]["valid"] is True and data[1]["valid"] is False and data[1]["errors"]
    assert load_design(fighter).design.structure == load_design(frigate).design.structure == 14
    folder = tmp_path / "refit"
    code, _, err = run(capsys, "set", fighter, frigate, "notes=Refit", "-o", folder)
    assert sorted(p.name for p in folder.iterdir()) == ["rebel-fighter.ship", "rebel-frigate.ship"], err


def test_set_and_fix_write_over_their_input_only_with_in_place_or_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ship = copy("alien-disk-fighter.ship", tmp_path)
    before = ship.read_bytes()
    for argv in (["fix", ship, "--apply", "1", "-o", ship], ["set", ship, "handling=0", "-o", ship]):
        code, _, err = run(capsys, *argv)
        assert code == 2 and "is the file this command reads; write over it with --in-place (or --force)" in err
        assert ship.read_bytes() == before
    code, _, err = run(capsys, "set", ship, "handling=0")
    assert code == 2 and "say where to write: -o OUT, --in-place" in err
    code, text, _ = run(capsys, "fix", ship, "--apply", "1", "--in-place")
    assert code == 0 and text == f"wrote {ship}: lower Handling from 1 to 0; it passes\n"
    assert changed_lines(before.decode(), ship.read_text()) == ['-     "handling": 1,', '+     "handling": 0,']
    code, _, _ = run(capsys, "set", ship, "handling=1", "-o", ship, "--force")
    assert code == 1 and ship.read_bytes() == before  # back as it was, byte for byte


def test_the_overwrite_rule_ends_the_help_of_set_and_fix(capsys: pytest.CaptureFixture[str]) -> None:
    from shipyard.core.commandline import OVERWRITE_RULE

    for command in ("set", "fix"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert " ".join(OVERWRITE_RULE.split()) in " ".join(capsys.readouterr().out.split())


# --- files kept as written ----------------------------------------------------------------------


@pytest.mark.parametrize("file", SAMPLES, ids=lambda f: f"{f.parent.parent.name}/{f.name}")
def test_each_sample_re_saved_unchanged_is_byte_identical(file: Path) -> None:
    assert dumps(load_design(file, use_user_folder=False)) == file.read_text(encoding="utf-8")


def _numbers(node: Any, parts: list[str | int]) -> list[tuple[list[str | int], int]]:
    if isinstance(node, dict):
        return [n for k, v in node.items() for n in _numbers(v, [*parts, k])]
    if isinstance(node, list):
        return [n for i, v in enumerate(node) for n in _numbers(v, [*parts, i])]
    return [(parts, node)] if isinstance(node, int) and not isinstance(node, bool) else []


@pytest.mark.parametrize("file", SAMPLES, ids=lambda f: f"{f.parent.parent.name}/{f.name}")
def test_a_one_value_change_to_each_sample_changes_only_that_values_line(file: Path) -> None:
    """Every number the file writes, changed by one through the editor's edit: one line differs."""
    loaded = load_design(file, use_user_folder=False)
    text = file.read_text(encoding="utf-8")
    tried = 0
    for parts, value in _numbers(json.loads(text)["design"], []):
        try:
            design = set_at(loaded.design, join_path(parts), value + 1, loaded.catalog)
        except InputError:
            continue  # out of its range: the edit refuses it, as the editor would
        tried += 1
        new = dumps(LoadedDesign(file, loaded.ruleset, loaded.preset, design, loaded.catalog, loaded.written))
        diff = changed_lines(text, new)
        assert len(diff) == 2 and diff[0][2:].replace(str(value), str(value + 1), 1) == diff[1][2:], (parts, diff)
    assert tried >= 1, f"{file}: no number could be changed"


@pytest.mark.parametrize("change", ['tags=["on patrol"]', "notes=hello", "structure=12"])
def test_a_file_written_with_crlf_line_ends_keeps_them_through_a_change(
    change: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What is rewritten in a file saved on Windows ends its lines as the file does: a new
    key's object was written with LF lines into the CRLF file, whose last line kept its CR."""
    ship = tmp_path / "windows.ship"
    ship.write_bytes((EXAMPLES / "rebel-fighter.ship").read_bytes().replace(b"\n", b"\r\n"))
    code, _, err = run(capsys, "set", ship, change, "--in-place")
    assert code in (0, 1), err
    data = ship.read_bytes()
    assert data.count(b"\n") == data.count(b"\r\n") > 10 and data.count(b"\r") == data.count(b"\r\n")
    assert data.endswith(b"}\r\n")


def test_a_fix_changes_only_the_lines_of_what_it_fixes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ship = copy("federation-space-station.ship", tmp_path)
    code, text, _ = run(capsys, "check", ship, "--preset", "as-written", "--suggest")
    assert code == 1 and "1. " in text
    out = tmp_path / "fixed.ship"
    code, text, err = run(capsys, "fix", ship, "--preset", "as-written", "--apply", "1", "-o", out)
    assert code in (0, 1), err
    diff = changed_lines(ship.read_text(), out.read_text())
    assert 0 < len(diff) <= 6, diff  # one to three values or entries, nothing else
    assert all('"Ejection' not in ln and '"design"' not in ln for ln in diff)


# --- tables that fit ------------------------------------------------------------------------------


def _widest(text: str) -> int:
    return max(len(ln) for ln in text.splitlines())


def test_compare_fits_the_terminal_width(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    ships = sorted(EXAMPLES.glob("*.ship"))
    code, full, _ = run(capsys, "compare", *ships, "--width", "0")
    assert code == 1 and _widest(full) > 250  # the table as wide as it needs, when asked
    monkeypatch.setenv("COLUMNS", "100")
    _, wrapped, _ = run(capsys, "compare", *ships)
    assert _widest(wrapped) <= 100
    assert "Federation" in wrapped and "Space" in wrapped  # the long name wrapped in its column
    head = wrapped.splitlines()[1]
    assert head.split()[:3] == ["What", "Alien", "Alien"]  # still a table: the designs side by side
    _, stacked, _ = run(capsys, "compare", *ships, "--width", "40")
    assert _widest(stacked) <= 40
    assert "* Scale\n    Alien Disk-Fighter: Starfighter\n    Alien Mothership: Starship (changed)\n" in stacked
    code, _, err = run(capsys, "compare", *ships, "--width", "-3")
    assert code == 2 and "--width -3 is not a width" in err


def test_compare_into_a_pipe_fits_80_columns_unless_asked() -> None:
    ships = [str(EXAMPLES / f"{n}.ship") for n in ("rebel-fighter", "rebel-frigate", "alien-mothership")]
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "SHIPYARD_DEBUG")}
    piped = subprocess.run(
        [sys.executable, "-m", "shipyard", "compare", *ships], capture_output=True, text=True, env=env
    )
    assert piped.returncode == 1 and _widest(piped.stdout) <= 80
    wide = subprocess.run(
        [sys.executable, "-m", "shipyard", "compare", *ships, "--width", "0"], capture_output=True, text=True, env=env
    )
    assert _widest(wide.stdout) > 80


# --- a file for another command -----------------------------------------------------------------


@pytest.mark.parametrize("command", ["check", "print", "compare"])
def test_stat_block_text_and_trinity_vessels_given_by_mistake_name_the_command_that_reads_them(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    extra = (
        {"print": ["-o", str(tmp_path / "x.pdf")], "compare": [str(EXAMPLES / "rebel-fighter.ship")]}[command]
        if command != "check"
        else []
    )
    text = EXAMPLES / "appendix-1.txt"
    code, _, err = run(capsys, command, text, *extra)
    assert code == 2
    assert f"{text}: this is not a design file but stat-block text of Space Fighter Alpha" in err
    assert f"`shipyard import statblock {text} -o FOLDER/` reads it" in err
    assert "malformed JSON" not in err
    for vessel in ("anvil-frigate.yaml", "wren-hybrid-shuttle.json"):
        file = ROOT / "catalogs" / "trinity" / "examples" / vessel
        code, _, err = run(capsys, command, file, *extra)
        assert code == 2 and f"a Trinity vessel for Space Fighter Alpha; `shipyard convert trinity {file}" in err
    assert not (tmp_path / "x.pdf").exists()


def test_a_broken_design_is_still_reported_as_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "broken.ship").write_text("Name: Rebel Fighter Scale: Starfighter", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("hello", encoding="utf-8")
    code, _, err = run(capsys, "check", tmp_path / "broken.ship")
    assert code == 2 and "broken.ship:1:1: malformed JSON: Expecting value" in err and "not a design file" not in err
    assert "(allowed: a design file Shipyard wrote (.ship)" in err
    code, _, err = run(capsys, "check", tmp_path / "notes.txt")  # no design file, and not one of the formats read
    assert code == 2 and "notes.txt: is not a design file: it is not JSON (allowed: a design file" in err


def test_a_roster_or_a_catalog_file_given_as_a_design_is_named_for_what_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``check raid.roster`` said "malformed JSON: Expecting value", as for a broken design."""
    roster = tmp_path / "raid.roster"
    assert run(capsys, "roster", "new", roster, "--name", "Raid")[0] == 0
    (tmp_path / "weapons.yaml").write_text("weapons:\n  - id: blaster\n", encoding="utf-8")
    for command in (["check"], ["print", "-o", str(tmp_path / "x.pdf")]):
        code, _, err = run(capsys, *command, roster)
        assert (
            code == 2
            and f"raid.roster: this is not a design file but a roster; `shipyard roster check {roster}`" in err
        )
        assert "malformed JSON" not in err
        code, _, err = run(capsys, *command, tmp_path / "weapons.yaml")
        assert code == 2 and "weapons.yaml: this is not a design file but a YAML file, as a catalog's are" in err
    assert not (tmp_path / "x.pdf").exists()


# --- gui ---------------------------------------------------------------------------------------------


def test_shipyard_gui_takes_every_option_shipyard_gui_takes() -> None:
    from shipyard._qt.app import add_arguments

    own = argparse.ArgumentParser(prog="shipyard-gui")
    add_arguments(own)
    sub = next(a for a in build_parser("gui")._actions if isinstance(a, argparse._SubParsersAction))
    gui = sub.choices["gui"]
    options = {s for a in own._actions for s in a.option_strings}
    assert {"--no-preview", "--dark", "--smoke"} <= options
    assert options <= {s for a in gui._actions for s in a.option_strings}
    parsed = gui.parse_args(["a.ship", "--no-preview", "--dark"])
    assert parsed.no_preview and parsed.dark and parsed.files == [Path("a.ship")]


# --- completion ----------------------------------------------------------------------------------


def _script(shell: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    code, text, _ = run(capsys, "completion", shell)
    assert code == 0
    file = tmp_path / f"shipyard.{shell}"
    file.write_text(text, encoding="utf-8")
    return file


def _complete_bash(script: Path, *words: str) -> list[str]:
    body = "\n".join(
        [
            f"source {script}",
            f"COMP_WORDS=({' '.join(repr(w) for w in words)})",
            f"COMP_CWORD={len(words) - 1}",
            "_shipyard",
            'printf "%s\\n" "${COMPREPLY[@]}"',
        ]
    )
    return subprocess.run(["bash", "-c", body], capture_output=True, text=True, check=True).stdout.split()


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_each_completion_script_parses(shell: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed (Debian: apt-get install {shell}; scripts/system-deps installs it)")
    script = _script(shell, tmp_path, capsys)
    proc = subprocess.run([shell, "-n", str(script)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_bash_completes_commands_options_ids_and_paths(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from shipyard.core.catalog import load_catalog

    script = _script("bash", tmp_path, capsys)
    top = next(a for a in build_parser(None)._actions if isinstance(a, argparse._SubParsersAction))
    assert _complete_bash(script, "shipyard", "") == list(top.choices)  # every command the parser has
    assert "set" in top.choices and "completion" in top.choices
    assert _complete_bash(script, "shipyard", "new", "x", "--ruleset", "") == sorted(i.id for i in rulesets())
    presets = _complete_bash(script, "shipyard", "check", "--preset", "")
    assert {"as-written", "sample-ships", "as-read"} <= set(presets)
    assert set(load_catalog("cluster-falk").presets) <= set(presets)
    assert _complete_bash(script, "shipyard", "print", "x", "--paper", "") == ["a4", "letter"]
    assert _complete_bash(script, "shipyard", "fury", "roll", "--se") == ["--seed"]  # a ruleset's own command
    assert _complete_bash(script, "shipyard", "set", "--in") == ["--in-place"]
    assert _complete_bash(script, "shipyard", "import", "") == ["statblock", "foundry"]  # a text format, the way back
    ship = str(EXAMPLES / "rebel-fi")
    assert _complete_bash(script, "shipyard", "check", ship) == [str(EXAMPLES / "rebel-fighter.ship")]


def test_fish_completes_from_the_same_parsers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if shutil.which("fish") is None:
        pytest.skip("fish is not installed (Debian: apt-get install fish; scripts/system-deps installs it)")
    script = _script("fish", tmp_path, capsys)

    def complete(line: str) -> list[str]:
        proc = subprocess.run(["fish", "-c", f"source {script}; complete -C {line!r}"], capture_output=True, text=True)
        return [ln.split("\t")[0] for ln in proc.stdout.splitlines()]

    assert {"check", "set", "get", "completion", "fury"} <= set(complete("shipyard "))
    assert {"as-written", "sample-ships"} <= set(complete("shipyard check --preset "))
    assert complete("shipyard fury roll --se") == ["--seed"]


def test_zsh_offers_what_bash_offers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if shutil.which("zsh") is None:
        pytest.skip("zsh is not installed (Debian: apt-get install zsh; scripts/system-deps installs it)")
    script = _script("zsh", tmp_path, capsys)
    body = "\n".join(
        [
            "compdef() { :; }",
            f"source {script}",
            '__shipyard_wanted "" --ruleset new x --ruleset',
            'print -r -- "$_sy_kind:$_sy_words"',
        ]
    )
    proc = subprocess.run(["zsh", "-c", body], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "words:" + " ".join(sorted(i.id for i in rulesets()))


# --- sheet pictures --------------------------------------------------------------------------------


def test_docs_sheets_show_every_rulesets_samples_on_both_papers() -> None:
    """What the README promises: each sample's record sheet on A4 and Letter, and each ruleset's cards and book."""
    sheets = ROOT / "docs" / "sheets"
    for info in rulesets():
        for file in sample_files(info.samples):
            for paper in ("a4", "letter"):
                picture = sheets / f"{info.id}-{file.stem}-{paper}.png"
                assert picture.is_file() and picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", picture
        for extra in ("cards-a4", "fleet-contents-letter", "fleet-last-letter"):
            assert (sheets / f"{info.id}-{extra}.png").is_file(), (info.id, extra)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for link in re.findall(r"docs/sheets/([\w.-]+\.png)", readme):
        assert (sheets / link).is_file(), link


def test_set_says_a_changed_value_as_it_is_written(tmp_path: Path) -> None:
    """``set scale=starship`` said "Scale from Starfighter-scale Move to Starship-scale Move"
    and ``set name=light-laser`` "Name from Red Five to Light Laser": any text that was some
    catalog item's id was shown as that item's name. Only a list's entries name items."""
    ship = tmp_path / "r5.ship"
    shutil.copy(ROOT / "catalogs" / "space-fighter-alpha" / "examples" / "rebel-fighter.ship", ship)

    def said(*change: str) -> str:
        out = call_shipyard("set", ship, *change, "--dry-run", "--no-user-catalog")
        return out.stdout.splitlines()[0]

    assert said("scale=starship") == f"{ship}: Scale from starfighter to starship  (scale)"
    assert said("name=light-laser") == f"{ship}: Name from Rebel Fighter to light-laser  (name)"
    assert said("concept=") == f"{ship}: Concept from Long-range rugged fighter to (none)  (concept)"
    assert said("weapons[0].weapon=heavy-laser") == (
        f"{ship}: Weapons, Heavy Laser: weapon from Light Laser to Heavy Laser  (weapons[0].weapon)"
    )
