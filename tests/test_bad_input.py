"""Bad design files: one clear message, exit 2, no traceback, no file changed.

Every case is a file in ``tests/corpus/bad/`` (except the ones too big or too random to
commit, which are generated into ``tmp_path``). Each is fed to ``shipyard check`` (its
``main``, in this process: its output and exit status are what a user meets), and the whole
outcome is checked: the exit status, that the message names the file and where in it the
problem is, what it says, that nothing was printed as a report, and that the file was left
exactly as it was. Where the process is the point (crashes, concurrent writers, the editor's
start), a test starts one.
"""

from __future__ import annotations

import json
import os
import random
import re
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from shipyard.core.errors import InputError

from .conftest import EXAMPLES, ROOT, call_shipyard, run_editor_smoke

CORPUS = Path(__file__).resolve().parent / "corpus" / "bad"
ERROR_PREFIX = "shipyard: error: "


def run_check(
    *files: Path | str, extra: tuple[str, ...] = (), env_home: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = None if env_home is None else {"XDG_DATA_HOME": str(env_home)}
    return call_shipyard("check", *files, "--no-user-catalog", *extra, env=env)


def snapshot(path: Path) -> tuple[bytes, int, int]:
    st = path.stat()
    return path.read_bytes(), st.st_mtime_ns, st.st_size


def error_lines(stderr: str) -> list[str]:
    return [ln for ln in stderr.splitlines() if ln.startswith(ERROR_PREFIX)]


def assert_input_error(proc: subprocess.CompletedProcess[str], name: str, where: str, says: tuple[str, ...]) -> str:
    """The common contract: exit 2, one message naming file and place, no report."""
    assert "Traceback" not in proc.stderr, proc.stderr
    assert "internal error" not in proc.stderr, proc.stderr
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    lines = error_lines(proc.stderr)
    assert len(lines) == 1, proc.stderr
    message = lines[0]
    assert name in message
    assert where in message, (where, message)
    for text in says:
        assert text in message, (text, message)
    # no report, no JSON, nothing at all on stdout for a file that could not be read
    assert proc.stdout.strip() == ""
    return message


@dataclass(frozen=True)
class Case:
    file: str
    where: str  # "file:line:col", "at <path into the document>" or "file:" for whole-file
    says: tuple[str, ...]


CASES = [
    # --- cannot be parsed at all: the message gives line and column
    Case(
        "malformed-json.ship",
        "malformed-json.ship:9:5:",
        ("malformed JSON", "Expecting ',' delimiter"),
    ),
    Case("deeply-nested.ship", "deeply-nested.ship:", ("malformed JSON", "nested too deeply")),
    # --- whole-file problems: the file itself is the place
    Case("empty.ship", "empty.ship:", ("file is empty",)),
    Case("whitespace-only.ship", "whitespace-only.ship:", ("file is empty",)),
    Case(
        "binary-junk.ship",
        "binary-junk.ship:",
        ("not UTF-8 text", "byte 0 is 0x89", "binary file"),
    ),
    Case("nul-bytes.ship", "nul-bytes.ship:", ("contains NUL bytes", "binary file")),
    Case("not-utf8.ship", "not-utf8.ship:", ("not UTF-8 text", "byte 117 is 0xe9")),
    Case(
        "top-level-array.ship",
        "top-level-array.ship:",
        ("must hold a JSON object", "not array"),
    ),
    # a number longer than Python's int() will convert (4300 digits) is still bad input
    Case("huge-integer.ship", "huge-integer.ship", ("malformed JSON: a number has more than 4,300 digits",)),
    # --- the envelope
    Case(
        "newer-format-version.ship",
        "at format_version",
        ("newer Shipyard", "format 99", "formats up to 2"),
    ),
    Case("format-version-string.ship", "at format_version", ("whole number", "1 to 2")),
    Case(
        "unknown-ruleset.ship",
        "at ruleset",
        ("unknown ruleset 'space-fighter-beta'", "did you mean 'space-fighter-alpha'"),
    ),
    Case(
        "unknown-preset.ship",
        "at preset",
        ("unknown preset 'sample-ship'", "did you mean 'sample-ships'", "as-written"),
    ),
    # --- the design's shape and values
    Case("wrong-type-crew.ship", "at design.crew", ("valid integer",)),
    Case("unknown-field.ship", "at design.colour", ("unknown field 'colour'",)),
    Case("count-zero.ship", "at design.weapons[0].count", ("greater than or equal to 1",)),
    Case(
        "level-zero.ship",
        "at design.accessories[1].level",
        ("greater than or equal to 1",),
    ),
    Case("crew-negative.ship", "at design.crew", ("greater than or equal to 0",)),
    # --- names that do not resolve against the catalog
    Case(
        "unknown-weapon.ship",
        "at design.weapons[0].weapon",
        ("unknown weapon 'Light Lazer'", "did you mean", "'light-laser'"),
    ),
    Case(
        "unknown-technology.ship",
        "at design.technology[0].id",
        ("unknown technology 'Enhanced Lazers'", "did you mean", "'enhanced-lasers'"),
    ),
    Case(
        "unknown-accessory.ship",
        "at design.accessories[0].id",
        ("'Landing Gaer'", "did you mean", "'landing-gear'"),
    ),
    Case(
        "unknown-scale.ship",
        "at design.scale",
        ("'Battlestar'", "not a scale", "allowed: starfighter, starship"),
    ),
    Case(
        "non-designable-scale.ship",
        "at design.scale",
        ("'street-fighter' is not a scale a spacecraft can be designed at",),
    ),
    # "starship+<5000 nines>": the step number is too long for int(); still just a bad scale
    Case("huge-scale-step.ship", "at design.scale", ("at most 40 characters",)),
    Case(
        "unknown-budget-pool.ship",
        "at design.budgets.weapon-point",
        ("unknown budget 'weapon-point'", "did you mean 'weapon-points'"),
    ),
    Case(
        "bad-priority.ship",
        "at design.priority",
        ("priority must list each of handling, soak, move once",),
    ),
    # --- a Wing Commander fighter record: negative counts and space, unknown fields and skills
    Case("wc-negative-gun-count.ship", "at design.guns[0].count", ("greater than or equal to 0",)),
    Case("wc-unknown-field.ship", "at design.guns[0].colour", ("unknown field 'colour'",)),
    Case("wc-python-name-for-class.ship", "at design.ship_class", ("unknown field 'ship_class'",)),
    Case(
        "wc-unknown-skill.ship",
        "at design.pilot.skills.pilotting",
        ("unknown skill 'pilotting'", "did you mean 'piloting'", "allowed: gunnery, piloting"),
    ),
    # --- Future Perfect: a ship record's values and its round plan
    Case(
        "future-perfect-unknown-action.ship",
        "at design.plan.actions[1].action",
        ("unknown action 'Evasive manuevers'", "did you mean 'evasive-maneuvers'", "allowed: move-1, move-2"),
    ),
    Case("future-perfect-ap-negative.ship", "at design.ap", ("greater than or equal to 0",)),
    Case("future-perfect-power-rating-huge.ship", "at design.power_rating", ("less than or equal to 100",)),
    Case("future-perfect-power-negative.ship", "at design.plan.actions[0].power", ("greater than or equal to 0",)),
    Case(
        "future-perfect-unknown-role.ship",
        "at design.crew[0].role",
        ("'command', 'helm', 'tactical' or 'engineering'",),
    ),
    Case("future-perfect-plan-unknown-field.ship", "at design.plan.bid", ("unknown field 'bid'",)),
    Case("future-perfect-weapon-grade.ship", "at design.weapons[1].grade", ("'primary' or 'secondary'",)),
    # --- numbers are numbers: true is not 1, NaN is not a count (issue 18)
    Case("count-true.ship", "at design.weapons[0].count", ("valid integer",)),
    Case("crew-nan.ship", "at design.crew", ("valid integer",)),
    # --- user text is quoted escaped: ESC [2J does not clear the terminal
    Case("preset-escape.ship", "at preset", ("unknown preset 'sample\\x1b[2J\\x1b[Hships'", "did you mean")),
]


@dataclass(frozen=True)
class FindingCase:
    """A file that loads but breaks a rule: exit 1, the finding with its place and numbers."""

    file: str
    code: str
    path: str
    actual: object
    limit: object


FINDING_CASES = [
    FindingCase("wc-dex-out-of-range.ship", "stat-out-of-range", "pilot.dex", 25, [1, 20]),
    FindingCase("wc-drv-out-of-range.ship", "stat-out-of-range", "drv", -7, [-5, 5]),
    FindingCase("wc-link-group-of-one.ship", "link-group-too-small", "guns[0].link_group", 1, 2),
    FindingCase("wc-link-group-gun-not-fitted.ship", "link-group-gun-missing", "guns[1].count", 0, 1),
    FindingCase("wc-missile-without-lock-time.ship", "missile-no-lock-time", "missiles[0].lock_time", None, 1),
    FindingCase("wc-empty-loadout.ship", "missile-loadout-empty", "missiles[0].count", 0, 1),
    # the rules reading's checks: "a count below 0 ... error"; "A component with negative space: error"
    FindingCase("wc-negative-missile-count.ship", "missile-count-negative", "missiles[1].count", -2, 0),
    FindingCase("wc-negative-space.ship", "component-space-negative", "compartments[0].components[1].space", -1, 0),
]


def test_every_corpus_file_has_a_case() -> None:
    on_disk = sorted(p.name for p in CORPUS.glob("*.ship"))
    assert on_disk == sorted([c.file for c in CASES] + [c.file for c in FINDING_CASES])
    for surface in SURFACES:
        on_disk = sorted(p.name for p in (CORPUS / surface).iterdir())
        assert on_disk == sorted(c.name for c in COMMAND_CASES if c.surface == surface), surface
    assert sorted(p.name for p in (CORPUS / "terminal").iterdir()) == sorted(TERMINAL_FILES)


@pytest.mark.parametrize("case", CASES, ids=[c.file.removesuffix(".ship") for c in CASES])
def test_bad_file_gives_one_clear_message(case: Case, tmp_path: Path) -> None:
    path = CORPUS / case.file
    before = snapshot(path)
    listing = sorted(p.name for p in CORPUS.iterdir())
    proc = run_check(path, env_home=tmp_path)
    assert_input_error(proc, case.file, case.where, case.says)
    assert snapshot(path) == before
    # no temporary or backup file left beside it
    assert sorted(p.name for p in CORPUS.iterdir()) == listing


@pytest.mark.parametrize("case", FINDING_CASES, ids=[c.file.removesuffix(".ship") for c in FINDING_CASES])
def test_a_broken_rule_is_a_finding_with_its_place_and_numbers(case: FindingCase, tmp_path: Path) -> None:
    path = CORPUS / case.file
    before = snapshot(path)
    proc = run_check(path, extra=("--json",), env_home=tmp_path)
    assert "Traceback" not in proc.stderr and proc.stderr == ""
    assert proc.returncode == 1, proc.stderr
    (entry,) = json.loads(proc.stdout)
    assert entry["valid"] is False
    hits = [f for f in entry["findings"] if f["code"] == case.code]
    assert hits, entry["findings"]
    f = hits[0]
    assert (f["severity"], f["path"], f["actual"], f["limit"]) == ("error", case.path, case.actual, case.limit)
    assert f["source"] and f["message"]
    assert snapshot(path) == before


def test_fifty_megabyte_file_is_refused_by_size(tmp_path: Path) -> None:
    path = tmp_path / "fifty-megabytes.ship"
    size = 50 * 1024 * 1024
    head = b'{"format_version": 2, "ruleset": "space-fighter-alpha", "design": {"notes": "'
    with path.open("wb") as fh:
        fh.write(head)
        fh.write(b"x" * (size - len(head) - 3))
        fh.write(b'"}}')
    before = snapshot(path)
    assert before[2] == size
    proc = run_check(path, env_home=tmp_path)
    assert_input_error(
        proc,
        path.name,
        "fifty-megabytes.ship:",
        ("file is 52,428,800 bytes", "limited to 2,097,152"),
    )
    assert snapshot(path) == before


def test_random_binary_junk_with_nul_bytes(tmp_path: Path) -> None:
    rng = random.Random(20240601)
    data = bytes(rng.randrange(256) for _ in range(4096)) + b"\x00\x00\xff\xfe"
    assert b"\x00" in data
    path = tmp_path / "junk.ship"
    path.write_bytes(data)
    before = snapshot(path)
    proc = run_check(path, env_home=tmp_path)
    assert_input_error(proc, "junk.ship", "junk.ship:", ("binary file",))
    assert snapshot(path) == before


def test_valid_utf8_with_nul_bytes_generated(tmp_path: Path) -> None:
    path = tmp_path / "nul.ship"
    path.write_bytes(b"\x00" * 64 + b"{}")
    proc = run_check(path, env_home=tmp_path)
    assert_input_error(proc, "nul.ship", "nul.ship:", ("contains NUL bytes",))


def test_json_mode_reports_the_problem_as_data(tmp_path: Path) -> None:
    path = CORPUS / "unknown-weapon.ship"
    before = snapshot(path)
    proc = run_check(path, extra=("--json",), env_home=tmp_path)
    assert "Traceback" not in proc.stderr
    assert proc.returncode == 2, proc.stderr
    data = json.loads(proc.stdout)
    assert isinstance(data, list)
    assert len(data) == 1
    entry = data[0]
    assert entry["file"] == str(path)
    assert entry["valid"] is False
    assert "pools" not in entry  # no report for a file that could not be read
    assert len(entry["error"]) == 1
    problem = entry["error"][0]
    assert problem["file"] == str(path)
    assert problem["path"] == "design.weapons[0].weapon"
    assert problem["message"].startswith("unknown weapon 'Light Lazer'; did you mean")
    assert "'light-laser'" in problem["message"]
    assert snapshot(path) == before


def test_json_mode_parse_error_carries_line_and_column(tmp_path: Path) -> None:
    path = CORPUS / "malformed-json.ship"
    proc = run_check(path, extra=("--json",), env_home=tmp_path)
    assert proc.returncode == 2, proc.stderr
    (entry,) = json.loads(proc.stdout)
    (problem,) = entry["error"]
    assert (problem["line"], problem["column"]) == (9, 5)
    assert problem["message"] == "malformed JSON: Expecting ',' delimiter"


GOOD = EXAMPLES / "rebel-fighter.ship"


@pytest.mark.parametrize("order", ["good-first", "bad-first"])
def test_good_and_bad_file_together(order: str, tmp_path: Path) -> None:
    bad = CORPUS / "unknown-weapon.ship"
    files = (GOOD, bad) if order == "good-first" else (bad, GOOD)
    good_before, bad_before = snapshot(GOOD), snapshot(bad)
    # under sample-ships the Rebel Fighter passes, so only the bad file can cause exit 2
    proc = run_check(*files, extra=("--preset", "sample-ships"), env_home=tmp_path)
    assert "Traceback" not in proc.stderr
    assert proc.returncode == 2, proc.stderr
    # the good file's report is printed in full
    assert f"Rebel Fighter  ({GOOD})" in proc.stdout
    assert "Result: PASSES" in proc.stdout
    assert "Weapon Points: budget 5 + 5 gained, spent 10" in proc.stdout
    # and the bad file's message, once
    (line,) = error_lines(proc.stderr)
    assert "unknown-weapon.ship at design.weapons[0].weapon" in line
    assert snapshot(GOOD) == good_before
    assert snapshot(bad) == bad_before


def test_good_with_findings_and_bad_file_still_exit_2(tmp_path: Path) -> None:
    # as written the Rebel Fighter has errors (exit 1 alone)
    alone = run_check(GOOD, extra=("--preset", "as-written"), env_home=tmp_path)
    assert alone.returncode == 1
    proc = run_check(GOOD, CORPUS / "empty.ship", extra=("--preset", "as-written"), env_home=tmp_path)
    assert proc.returncode == 2
    assert "Result: DOES NOT PASS — 1 error(s)" in proc.stdout
    (line,) = error_lines(proc.stderr)
    assert "empty.ship: file is empty" in line


def test_good_and_bad_file_together_json(tmp_path: Path) -> None:
    bad = CORPUS / "crew-negative.ship"
    proc = run_check(GOOD, bad, extra=("--json", "--preset", "sample-ships"), env_home=tmp_path)
    assert proc.returncode == 2, proc.stderr
    good_entry, bad_entry = json.loads(proc.stdout)
    assert good_entry["file"] == str(GOOD)
    assert good_entry["valid"] is True
    assert good_entry["name"] == "Rebel Fighter"
    assert {p["id"] for p in good_entry["pools"]} == {
        "weapon-points",
        "power-points",
        "freebies",
        "accessory-points",
    }
    assert bad_entry["file"] == str(bad)
    assert bad_entry["valid"] is False
    assert [p["path"] for p in bad_entry["error"]] == ["design.crew"]


def test_nonexistent_path(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-design.ship"
    proc = run_check(missing, env_home=tmp_path)
    message = assert_input_error(proc, "no-such-design.ship", "no-such-design.ship:", ("cannot read file",))
    assert "No such file or directory" in message
    assert not missing.exists()


def test_directory_instead_of_file(tmp_path: Path) -> None:
    folder = tmp_path / "fleet.ship"
    folder.mkdir()
    proc = run_check(folder, env_home=tmp_path)
    assert_input_error(proc, "fleet.ship", "fleet.ship:", ("cannot read file",))
    assert list(folder.iterdir()) == []


# --- every other way in: catalogs, stat-block text, Trinity vessels, templates -----------------
#
# The same contract through the other commands: a corpus file (or folder) in
# tests/corpus/bad/<surface>/, the command a user would run on it, the exit status, and a
# message naming the file and place. Nothing is written, the corpus is left as it was, and
# every run is bounded in time (run_shipyard's timeout): a reader that blew up (a regular
# expression backtracking over 20,000 spaces) fails instead of hanging.

SURFACES = ("catalog", "statblock", "trinity", "templates")
OUTPUTS = {"catalog": None, "statblock": "out.ship", "trinity": "out.ship", "templates": "out.pdf"}
COMMANDS = {
    "catalog": ("check", "{good}", "--catalog", "{input}"),
    "statblock": ("import", "statblock", "{input}", "-o", "{out}"),
    "trinity": ("convert", "trinity", "{input}", "-o", "{out}"),
    "templates": ("print", "{good}", "-o", "{out}", "--template", "{input}"),
}


@dataclass(frozen=True)
class CommandCase:
    surface: str
    name: str  # a file or folder in tests/corpus/bad/<surface>/
    where: str
    says: tuple[str, ...]
    status: int = 2


WEAPONS_YAML = "space-fighter-alpha/weapons.yaml"
RANGE = "-1,000,000,000 to 1,000,000,000"
COMMAND_CASES = [
    # strict numbers: true and "3" are not numbers; a number has a documented range
    CommandCase("catalog", "bool-cost", f"bool-cost/{WEAPONS_YAML}:7:5 at weapons[0].cost", ("valid integer",)),
    CommandCase("catalog", "quoted-cost", f"quoted-cost/{WEAPONS_YAML}:7:5 at weapons[0].cost", ("valid integer",)),
    CommandCase(
        "catalog",
        "huge-integer-cost",  # 5,000 digits: was an internal error
        f"huge-integer-cost/{WEAPONS_YAML}:8:11:",
        ("the number '9999", "... (4,960 more) is outside the range a catalog file may hold", RANGE),
    ),
    CommandCase(
        "catalog",
        "long-integer-cost",  # 4,299 digits: was accepted, then 'check' crashed on count 1000
        f"long-integer-cost/{WEAPONS_YAML}:8:11:",
        ("(4,259 more) is outside the range", RANGE),
    ),
    CommandCase("catalog", "cost-out-of-range", f"cost-out-of-range/{WEAPONS_YAML}:7:11:", ("'1000000001'", RANGE)),
    CommandCase("catalog", "infinite-range", f"infinite-range/{WEAPONS_YAML}:6:12:", ("'.inf'", "finite decimals")),
    # an alias of one value multiplies memory like an alias of a list
    CommandCase(
        "catalog",
        "scalar-alias",
        f"scalar-alias/{WEAPONS_YAML}:5:15:",
        ("YAML anchors and aliases (&name / *name) are not supported in a catalog file",),
    ),
    CommandCase(
        "catalog",
        "negative-budget",
        "negative-budget/space-fighter-alpha/presets/negative.yaml:7:23 at preset.overrides.pools.weapon-points",
        ("budget.starfighter", "greater than or equal to 0"),
    ),
    CommandCase(
        "catalog",
        "robot-with-typo",
        "robot-with-typo/space-fighter-alpha/presets/robots.yaml:7:7",
        ("effects[0].robot_with names unknown accessories 'manipulator-arm'", "did you mean 'manipulator-arms'"),
    ),
    # hostile text for the regular expressions: each took minutes or more before
    CommandCase(
        "statblock", "redos-custom-item.txt", "redos-custom-item.txt: 'Hostile'", ("1 part(s) not understood",)
    ),
    CommandCase("statblock", "redos-soak-split.txt", "redos-soak-split.txt: 'Hostile'", ("1 part(s) not understood",)),
    CommandCase(
        "statblock", "redos-scale-prefix.txt", "redos-scale-prefix.txt: 'Hostile'", ("1 part(s) not understood",)
    ),
    CommandCase(
        "statblock",
        "redos-scale-suffix.txt",
        "redos-scale-suffix.txt:2:8 at Scale",
        ("Scale 'Star", "... (19,925 more) is not a scale"),  # quoted short, not 20,000 characters
    ),
    CommandCase(
        "trinity",
        "redos-soak-mark.yaml",
        "redos-soak-mark.yaml:5:1 at soak",
        ("is not a number with an optional scale mark",),
    ),
    CommandCase(
        "trinity",
        "scalar-alias.yaml",
        "scalar-alias.yaml:6:8:",
        ("YAML anchors and aliases (&name / *name) are not supported in a Trinity vessel file",),
    ),
    CommandCase(
        "trinity",
        "huge-integer.yaml",
        "huge-integer.yaml:6:7:",
        ("(4,960 more) is outside the range a Trinity vessel file may hold",),
    ),
    CommandCase("trinity", "infinite-mass.json", "infinite-mass.json at mass", (RANGE,)),
    # errors raised by a template's own code name the template file and line
    CommandCase(
        "templates",
        "index-error",
        "index-error/space-fighter-alpha/record.html:3:",
        ("template error: IndexError",),
        status=3,
    ),
    CommandCase(
        "templates",
        "overflow-error",
        "overflow-error/space-fighter-alpha/record.html:2:",
        ("template error: OverflowError",),
        status=3,
    ),
    CommandCase(
        "templates",
        "value-error",
        "value-error/space-fighter-alpha/record.html:1:",
        ("template error: ValueError",),
        status=3,
    ),
]


def tree(path: Path) -> dict[str, bytes]:
    """Every file under ``path`` (or ``path`` itself) with its bytes, to check nothing changed."""
    if path.is_file():
        return {path.name: path.read_bytes()}
    return {str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


def run_command(argv: tuple[str, ...], tmp_path: Path, **values: Path) -> subprocess.CompletedProcess[str]:
    args = [a.format(good=GOOD, **values) for a in argv]
    return call_shipyard(*args, "--no-user-catalog", env={"XDG_DATA_HOME": str(tmp_path / "xdg")})


def assert_refused(proc: subprocess.CompletedProcess[str], status: int, where: str, says: tuple[str, ...]) -> str:
    assert "Traceback" not in proc.stderr, proc.stderr
    assert "internal error" not in proc.stderr, proc.stderr
    assert proc.returncode == status, (proc.returncode, proc.stderr)
    message = "\n".join(error_lines(proc.stderr))
    assert where in message, (where, message)
    for text in says:
        assert text in message, (text, message)
    return message


@pytest.mark.parametrize("case", COMMAND_CASES, ids=[f"{c.surface}-{c.name}" for c in COMMAND_CASES])
def test_bad_input_of_every_command(case: CommandCase, tmp_path: Path) -> None:
    source = CORPUS / case.surface / case.name
    before = tree(source)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    output = OUTPUTS[case.surface]
    proc = run_command(COMMANDS[case.surface], tmp_path, input=source, out=out_dir / (output or "unused"))
    assert_refused(proc, case.status, case.where, case.says)
    assert list(out_dir.iterdir()) == []  # nothing written, no temporary file left
    assert tree(source) == before


# --- text that would drive the terminal ---------------------------------------------------------
#
# Valid input whose names hold ESC sequences, CR, BEL, C1 controls, bidi overrides and
# newlines. Nothing of it may reach the terminal as a control: every such character is
# shown as \uXXXX, and a newline in a name cannot start a line of its own (a fake
# "Result: PASSES" under a design that does not pass).

TERMINAL = CORPUS / "terminal"
TERMINAL_FILES = ["escape-name.ship", "escape-catalog", "escape.txt", "escape-vessel.yaml"]
UNSAFE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def assert_terminal_safe(proc: subprocess.CompletedProcess[str]) -> None:
    for stream in (proc.stdout, proc.stderr):
        assert not UNSAFE.search(stream), repr(UNSAFE.findall(stream))
    assert "Traceback" not in proc.stderr


def test_check_shows_control_characters_and_cannot_fake_a_verdict(tmp_path: Path) -> None:
    proc = run_command(("check", "{input}"), tmp_path, input=TERMINAL / "escape-name.ship")
    assert proc.returncode == 1, proc.stderr  # the Rebel Fighter breaks a rule under as-written
    assert_terminal_safe(proc)
    verdicts = [ln for ln in proc.stdout.splitlines() if ln.startswith("Result:")]
    assert len(verdicts) == 1 and verdicts[0].startswith("Result: DOES NOT PASS — 1 error(s)"), verdicts
    assert "Rebel\\u001b[2J\\u001b[H\\u000dResult: PASSES — 0 error(s)\\u000aResult: PASSES" in proc.stdout
    assert "Gun\\u001b]0;pwned\\u0007 (custom)" in proc.stdout


def test_check_json_keeps_the_text_exactly(tmp_path: Path) -> None:
    proc = run_command(("check", "{input}", "--json"), tmp_path, input=TERMINAL / "escape-name.ship")
    assert_terminal_safe(proc)
    (entry,) = json.loads(proc.stdout)
    design = json.loads((TERMINAL / "escape-name.ship").read_text())["design"]
    assert entry["name"] == design["name"]  # \u009b and \u202e are JSON escapes of the same characters


def test_catalog_list_shows_control_characters_of_catalog_names(tmp_path: Path) -> None:
    proc = run_command(
        ("catalog", "list", "weapons", "--catalog", "{input}"), tmp_path, input=TERMINAL / "escape-catalog"
    )
    assert proc.returncode == 0, proc.stderr
    assert_terminal_safe(proc)
    assert "Escape Gun\\u001b[2J\\u001b[H\\u000dFAKE LINE\\u000asecond line  cost 2" in proc.stdout
    assert not [ln for ln in proc.stdout.splitlines() if ln.startswith(("FAKE", "second"))]


def test_import_report_shows_control_characters_of_the_text(tmp_path: Path) -> None:
    out = tmp_path / "out.ship"
    proc = run_command(
        ("import", "statblock", "{input}", "-o", "{out}"), tmp_path, input=TERMINAL / "escape.txt", out=out
    )
    assert proc.returncode == 2, proc.stderr  # "Blaster" is no catalog weapon
    assert_terminal_safe(proc)
    assert "Stat\\u001b[2J Result: PASSES: 7 used, 4 assumed, 1 not understood" in proc.stdout  # CR ends a line
    assert "Blaster\\u001b[31m\\u009b1m" in proc.stdout
    assert not out.exists()


def test_convert_report_shows_control_characters_of_the_vessel(tmp_path: Path) -> None:
    out = tmp_path / "out.ship"
    proc = run_command(
        ("convert", "trinity", "{input}", "-o", "{out}"), tmp_path, input=TERMINAL / "escape-vessel.yaml", out=out
    )
    assert proc.returncode == 0, proc.stderr
    assert_terminal_safe(proc)
    assert "Kestrel\\u001b]0;pwned\\u0007\\u000dconverted\\u000afake: converted from Trinity" in proc.stdout


@pytest.mark.parametrize("where", ["file", "option"])
def test_a_huge_preset_name_is_quoted_short(where: str, tmp_path: Path) -> None:
    """A 1 MB preset name came back as 1 MB of stderr; errors quote 80 characters and say how many more."""
    name = "x" * (1_000_000 if where == "file" else 100_000)
    doc = json.loads(GOOD.read_text())
    path = tmp_path / "huge-preset.ship"
    if where == "file":
        doc["preset"] = name
        path.write_text(json.dumps(doc))
        proc = run_check(path, env_home=tmp_path)
    else:
        path.write_text(json.dumps(doc))
        proc = run_check(path, extra=("--preset", name), env_home=tmp_path)
    more = f"{len(name) - 80:,} more"
    assert_input_error(
        proc, path.name, "at preset" if where == "file" else "", (f"unknown preset '{'x' * 80}'... ({more})",)
    )
    assert len(proc.stderr) < 1000


# --- generated: links, pipes, devices, sizes that are not worth committing --------------------

SECRET = "SECRET-TOKEN-4f2a"


def secret_file(tmp_path: Path) -> Path:
    path = tmp_path / "elsewhere" / "secret.txt"
    path.parent.mkdir()
    path.write_text(f"api_key: {SECRET}\n")
    return path


@pytest.mark.parametrize(
    "tag",
    ['{% include "leak.html" %}', '{% extends "leak.html" %}', '{% import "leak.html" as leak %}'],
    ids=["include", "extends", "import"],
)
def test_a_template_link_leading_outside_is_refused(tag: str, tmp_path: Path) -> None:
    folder = tmp_path / "mytemplates" / "space-fighter-alpha"
    folder.mkdir(parents=True)
    (folder / "record.html").write_text(f"<p>sheet</p>\n{tag}\n")
    (folder / "leak.html").symlink_to(secret_file(tmp_path))
    out = tmp_path / "out.pdf"
    proc = run_command(("print", "{good}", "-o", "{out}", "--template", "{t}"), tmp_path, out=out, t=folder.parent)
    message = assert_refused(proc, 3, "record.html:2:", ("refused template 'leak.html'", "is a symbolic link"))
    assert SECRET not in proc.stdout + proc.stderr + message
    assert not out.exists()


def test_a_template_that_is_a_pipe_is_refused_not_waited_for(tmp_path: Path) -> None:
    folder = tmp_path / "mytemplates" / "space-fighter-alpha"
    folder.mkdir(parents=True)
    (folder / "record.html").write_text('{% include "part.html" %}')
    os.mkfifo(folder / "part.html")
    proc = run_command(
        ("print", "{good}", "-o", "{out}", "--template", "{t}"), tmp_path, out=tmp_path / "o.pdf", t=folder.parent
    )
    assert_refused(proc, 3, "record.html:1:", ("refused template 'part.html': it is a named pipe (FIFO)",))


def test_a_catalog_file_linked_outside_is_refused_unread(tmp_path: Path) -> None:
    house = tmp_path / "house" / "space-fighter-alpha"
    house.mkdir(parents=True)
    (house / "weapons.yaml").symlink_to(secret_file(tmp_path))
    proc = run_command(("check", "{good}", "--catalog", "{c}"), tmp_path, c=house.parent)
    message = assert_refused(proc, 2, f"{house / 'weapons.yaml'}:", ("refused: it is a symbolic link", "never links"))
    assert SECRET not in proc.stdout + proc.stderr + message
    assert "api_key" not in proc.stderr


def test_a_catalog_link_inside_its_folder_is_refused_too(tmp_path: Path) -> None:
    """The safe folder walk follows no link at all, even one that stays inside: a link can
    be swapped between the check and the read, and a real file says the same."""
    house = tmp_path / "house" / "space-fighter-alpha"
    (house / "parts").mkdir(parents=True)
    (house / "parts" / "w.txt").write_text(
        "weapons:\n  - {id: house-gun, name: House Gun, speed: 1, damage: 2, range: 3, cost: 2, source: House}\n"
    )
    (house / "weapons.yaml").symlink_to(house / "parts" / "w.txt")
    proc = run_command(("catalog", "list", "weapons", "--catalog", "{c}"), tmp_path, c=house.parent)
    assert_refused(proc, 2, f"{house / 'weapons.yaml'}:", ("refused: it is a symbolic link",))
    assert "House Gun" not in proc.stdout


# The probe of issue 28: a linked *folder* inside a template or catalog folder was followed,
# because the link check looked at files only. Each of the three newer rulesets, and the
# shape one level deeper (a linked folder under common/), and presets/.
NEWER = ["wing-commander", "future-perfect", "cluster-falk"]


def linked_secrets(tmp_path: Path) -> Path:
    """A folder outside the user's folders holding a file a sheet or a catalog must never show."""
    elsewhere = tmp_path / "etc"
    elsewhere.mkdir()
    (elsewhere / "passwd").write_text(f"root:x:0:0:{SECRET}:/root:/bin/sh\n")
    (elsewhere / "weapons.yaml").write_text(f"weapons:\n  - {{id: {SECRET.lower()}, name: {SECRET}}}\n")
    return elsewhere


@pytest.mark.parametrize("ruleset", NEWER)
def test_a_linked_ruleset_template_folder_is_refused(ruleset: str, tmp_path: Path) -> None:
    templates = tmp_path / "S"
    (templates / "common").mkdir(parents=True)
    (templates / ruleset).symlink_to(linked_secrets(tmp_path))
    (templates / "common" / "record.html").write_text('<pre>{% include "passwd" %}</pre>')
    sample = sorted((ROOT / "catalogs" / ruleset / "examples").glob("*.ship"))[0]
    out = tmp_path / "x.pdf"
    proc = run_command(("print", str(sample), "-o", "{out}", "--template", "{t}"), tmp_path, out=out, t=templates)
    message = assert_refused(proc, 2, f"{templates / ruleset}:", ("refused template folder: it is a symbolic link",))
    assert SECRET not in proc.stdout + proc.stderr + message
    assert not out.exists()


def test_a_linked_folder_deeper_in_a_template_folder_is_refused(tmp_path: Path) -> None:
    templates = tmp_path / "S"
    (templates / "common").mkdir(parents=True)
    (templates / "common" / "sub").symlink_to(linked_secrets(tmp_path))
    (templates / "common" / "record.html").write_text('<pre>{% include "sub/passwd" %}</pre>')
    out = tmp_path / "x.pdf"
    proc = run_command(("print", "{good}", "-o", "{out}", "--template", "{t}"), tmp_path, out=out, t=templates)
    message = assert_refused(proc, 3, "record.html:1:", ("refused template 'sub/passwd'", "is a symbolic link"))
    assert SECRET not in proc.stdout + proc.stderr + message
    assert not out.exists()


@pytest.mark.parametrize("ruleset", NEWER)
def test_a_linked_ruleset_catalog_folder_is_refused(ruleset: str, tmp_path: Path) -> None:
    house = tmp_path / "D"
    house.mkdir()
    (house / ruleset).symlink_to(linked_secrets(tmp_path))
    sample = sorted((ROOT / "catalogs" / ruleset / "examples").glob("*.ship"))[0]
    proc = run_command(("check", str(sample), "--catalog", "{c}"), tmp_path, c=house)
    message = assert_refused(proc, 2, f"{house / ruleset}:", ("refused: it is a symbolic link",))
    assert SECRET not in proc.stdout + proc.stderr + message


def test_a_linked_presets_folder_and_a_pipe_in_a_catalog_folder_are_refused(tmp_path: Path) -> None:
    house = tmp_path / "house" / "space-fighter-alpha"
    house.mkdir(parents=True)
    (house / "presets").symlink_to(linked_secrets(tmp_path))
    proc = run_command(("check", "{good}", "--catalog", "{c}"), tmp_path, c=house.parent)
    assert_refused(proc, 2, f"{house / 'presets'}:", ("refused: it is a symbolic link",))
    (house / "presets").unlink()
    os.mkfifo(house / "weapons.yaml")
    proc = run_command(("check", "{good}", "--catalog", "{c}"), tmp_path, c=house.parent)
    assert_refused(proc, 2, f"{house / 'weapons.yaml'}:", ("refused: it is a named pipe (FIFO)",))


def test_a_huge_user_catalog_is_refused_before_reading(tmp_path: Path) -> None:
    """60,000 items took 46 s and 762 MB without the cache; a user folder holds at most 256 KB of YAML."""
    house = tmp_path / "house" / "space-fighter-alpha"
    house.mkdir(parents=True)
    entries = (f"  - {{id: acc-{i}, name: Accessory {i}, cost: 1, source: House}}\n" for i in range(60_000))
    (house / "many.yaml").write_text("accessories:\n" + "".join(entries))
    proc = run_command(("check", "{good}", "--catalog", "{c}"), tmp_path, c=house.parent)
    assert_refused(proc, 2, f"{house}:", ("1 file of 3,", "a user catalog folder is limited to 262,144 bytes"))


NON_REGULAR = {
    "check": ("check", "{input}"),
    "import": ("import", "statblock", "{input}", "-o", "{out}"),
    "convert-yaml": ("convert", "trinity", "{input}", "-o", "{out}"),
    "convert-json": ("convert", "trinity", "{input}", "-o", "{out}"),
}


@pytest.mark.parametrize("command", sorted(NON_REGULAR))
def test_a_pipe_as_input_is_refused_not_waited_for(command: str, tmp_path: Path) -> None:
    """A FIFO nobody writes to hung check, import statblock and convert trinity forever."""
    fifo = tmp_path / ("input.json" if command.endswith("json") else "input.yaml")
    os.mkfifo(fifo)
    out = tmp_path / "out.ship"
    proc = run_command(NON_REGULAR[command], tmp_path, input=fifo, out=out)
    assert_refused(proc, 2, f"{fifo}:", ("cannot read file: it is a named pipe (FIFO), not a regular file",))
    assert not out.exists()


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_a_device_as_input_is_refused(device: str, tmp_path: Path) -> None:
    proc = run_command(("check", "{input}"), tmp_path, input=Path(device))
    assert_refused(proc, 2, f"{device}:", ("it is a character device, not a regular file",))


@pytest.mark.parametrize("value", ["nan", "inf", "1e308", "-1", "0", "0.5", "3601", "soon"])
def test_print_timeout_outside_its_range(value: str, tmp_path: Path) -> None:
    out = tmp_path / "out.pdf"
    proc = run_command(("print", "{good}", "-o", "{out}", "--timeout", value), tmp_path, out=out)
    assert "Traceback" not in proc.stderr
    assert proc.returncode == 2, proc.stderr
    says = "not a number" if value == "soon" else "the time limit must be from 1 to 3600 seconds"
    assert f"argument --timeout: {says}" in proc.stderr
    assert not out.exists()


# --- outputs: the refuse-to-overwrite rule, everywhere -----------------------------------------


def copy_of_good(tmp_path: Path) -> Path:
    path = tmp_path / "rebel.ship"
    path.write_bytes(GOOD.read_bytes())
    return path


def test_print_never_writes_over_its_own_design(tmp_path: Path) -> None:
    design = copy_of_good(tmp_path)
    before = snapshot(design)
    for extra in ((), ("--force",)):
        proc = run_command(("print", "{d}", "-o", "{d}", *extra), tmp_path, d=design)
        assert_refused(proc, 2, f"{design}:", ("is also an input of this command", "choose another output file"))
    link = tmp_path / "link.pdf"
    link.symlink_to(design)  # the same file under another name
    proc = run_command(("print", "{d}", "-o", "{o}", "--force"), tmp_path, d=design, o=link)
    assert_refused(proc, 2, f"{link}:", ("is also an input of this command",))
    assert snapshot(design) == before


def make_target(kind: str, tmp_path: Path) -> Path:
    target = tmp_path / f"target-{kind}.pdf"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "symlink":
        (tmp_path / "real.pdf").write_bytes(b"%PDF-1.7 old")
        target.symlink_to(tmp_path / "real.pdf")
    elif kind == "dangling-symlink":
        target.symlink_to(tmp_path / "nowhere.pdf")
    elif kind == "device":
        if os.geteuid() != 0:
            pytest.skip("making a device node needs root")
        os.mknod(target, stat.S_IFCHR | 0o666, os.makedev(1, 7))  # a copy of /dev/full
    elif kind == "folder":
        target.mkdir()
    return target


KINDS = {
    "fifo": "is a named pipe (FIFO)",
    "symlink": "is a symbolic link",
    "dangling-symlink": "is a symbolic link",
    "device": "is a character device",
    "folder": "is a folder",
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_print_never_replaces_a_link_pipe_device_or_folder(kind: str, tmp_path: Path) -> None:
    target = make_target(kind, tmp_path)
    mode = target.lstat().st_mode
    proc = run_command(("print", "{good}", "-o", "{o}", "--force"), tmp_path, o=target)
    assert_refused(proc, 2, f"{target}:", (KINDS[kind], "Shipyard writes only new files or over regular files"))
    assert target.lstat().st_mode == mode
    if kind == "symlink":
        assert (tmp_path / "real.pdf").read_bytes() == b"%PDF-1.7 old"


def test_print_replaces_an_existing_pdf_only_with_force(tmp_path: Path) -> None:
    out = tmp_path / "old.pdf"
    out.write_bytes(b"%PDF-1.7 old")
    proc = run_command(("print", "{good}", "-o", "{o}"), tmp_path, o=out)
    assert_refused(proc, 2, f"{out}:", ("exists; use --force to replace it",))
    assert out.read_bytes() == b"%PDF-1.7 old"


@pytest.mark.parametrize("command", ["export", "convert", "fury-crew", "fury-force"])
def test_no_command_writes_over_its_input(command: str, tmp_path: Path) -> None:
    if command == "export":
        source = copy_of_good(tmp_path)
        argv: tuple[str, ...] = ("export", "statblock", "{s}", "-o", "{s}", "--force")
    elif command == "convert":
        source = tmp_path / "vessel.yaml"
        source.write_bytes((ROOT / "catalogs/trinity/examples/kestrel-hybrid-fighter.yaml").read_bytes())
        argv = ("convert", "trinity", "{s}", "-o", "{s}", "--force")
    else:
        source = tmp_path / "fighter.ship"
        source.write_bytes((ROOT / "catalogs/space-fury/examples/gunship.ship").read_bytes())
        argv = (
            ("fury", "crew", "{s}", "{s}", "-o", "{s}")
            if command == "fury-crew"
            else ("fury", "force", "F", "{s}", "-o", "{s}")
        )
        argv = (*argv, "--force")
    before = snapshot(source)
    proc = run_command(argv, tmp_path, s=source)
    assert_refused(proc, 2, f"{source}:", ("is also an input of this command",))
    assert snapshot(source) == before


def test_import_to_a_name_ending_in_a_slash_makes_a_folder(tmp_path: Path) -> None:
    """'import statblock t.txt -o ships/' with one block wrote a file named 'ships' (a README example)."""
    text = ROOT / "tests/data/statblocks/rebel-fighter.txt"
    proc = run_command(("import", "statblock", "{t}", "-o", f"{tmp_path / 'ships'}/"), tmp_path, t=text)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "ships").is_dir()
    assert [p.name for p in (tmp_path / "ships").iterdir()] == ["rebel-fighter.ship"]
    (tmp_path / "afile").write_text("keep")
    proc = run_command(("import", "statblock", "{t}", "-o", f"{tmp_path / 'afile'}/"), tmp_path, t=text)
    assert_refused(proc, 2, "afile:", ("-o ends in a slash, so -o must name a folder, but this is a file",))
    assert (tmp_path / "afile").read_text() == "keep"


def test_an_existing_folder_takes_a_single_import(tmp_path: Path) -> None:
    (tmp_path / "ships").mkdir()
    text = ROOT / "tests/data/statblocks/rebel-fighter.txt"
    proc = run_command(("import", "statblock", "{t}", "-o", "{o}"), tmp_path, t=text, o=tmp_path / "ships")
    assert proc.returncode == 0, proc.stderr
    assert [p.name for p in (tmp_path / "ships").iterdir()] == ["rebel-fighter.ship"]


def test_a_249_character_file_name_can_be_written(tmp_path: Path) -> None:
    """The temporary file's name was '.<name>.<random>.tmp': longer than a file name may be."""
    target = tmp_path / ("r" * 244 + ".ship")
    assert len(target.name) == 249
    proc = run_command(("new", "Red Five", "--scale", "starfighter", "-o", "{o}"), tmp_path, o=target)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(target.read_text())["design"]["name"] == "Red Five"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "xdg") == [target.name]


def test_a_full_disk_during_a_200_block_import_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A full disk at the 15th of 200 files left 14 files behind; now it is all or nothing."""
    import errno

    from shipyard.cli import main
    from shipyard.core import atomicwrite

    block = (ROOT / "tests/data/statblocks/rebel-fighter.txt").read_text()
    text = tmp_path / "fleet.txt"
    text.write_text("\n\n".join(block.replace("Rebel Fighter", f"Rebel Fighter {i}") for i in range(200)))
    synced = 0
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        nonlocal synced
        synced += 1
        if synced > 14:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(atomicwrite.os, "fsync", fsync)
    folder = tmp_path / "fleet"
    assert main(["import", "statblock", str(text), "-o", str(folder), "--no-user-catalog"]) == 2
    err = capsys.readouterr().err
    assert "cannot write the file: No space left on device" in err
    assert not folder.exists()  # the folder made for the import is gone again
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fleet.txt"]


def test_a_rename_that_fails_undoes_the_others(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from shipyard.core import atomicwrite

    old = tmp_path / "a.ship"
    old.write_text("old a")
    real_replace = os.replace
    calls = 0

    def replace(src: str | Path, dst: str | Path) -> None:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise OSError(5, "Input/output error")
        real_replace(src, dst)

    monkeypatch.setattr(atomicwrite.os, "replace", replace)
    with pytest.raises(InputError, match="Input/output error"):
        atomicwrite.atomic_write_many([(old, b"new a"), (tmp_path / "b.ship", b"new b")])
    monkeypatch.setattr(atomicwrite.os, "replace", real_replace)
    assert old.read_text() == "old a"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.ship"]


def test_new_works_beside_a_broken_user_catalog_with_no_user_catalog(tmp_path: Path) -> None:
    broken = tmp_path / "xdg" / "shipyard" / "catalogs" / "space-fighter-alpha" / "broken.yaml"
    broken.parent.mkdir(parents=True)
    broken.write_text("weapons: [unclosed\n")
    env = {"XDG_DATA_HOME": str(tmp_path / "xdg")}
    out = tmp_path / "red.ship"
    proc = call_shipyard("new", "Red Five", "--scale", "starfighter", "-o", out, env=env)
    assert proc.returncode == 2 and f"{broken}:" in proc.stderr and not out.exists()
    proc = call_shipyard("new", "Red Five", "--scale", "starfighter", "-o", out, "--no-user-catalog", env=env)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(out.read_text())["design"]["name"] == "Red Five"


def test_export_then_import_keeps_a_name_with_a_label_in_it(tmp_path: Path) -> None:
    doc = json.loads(GOOD.read_text())
    doc["design"]["name"] = "Alpha Scale: Beta Weapons: x"
    doc["design"]["concept"] = "Crew: many"
    doc["design"]["custom_weapons"] = [{"name": "Gun Soak: 3", "damage": 1}]
    design = tmp_path / "alpha.ship"
    design.write_text(json.dumps(doc))
    for markdown in ((), ("--markdown",)):
        text = tmp_path / "alpha.txt"
        proc = run_command(
            ("export", "statblock", "{d}", "-o", "{t}", "--force", *markdown), tmp_path, d=design, t=text
        )
        assert proc.returncode == 0, proc.stderr
        assert "Alpha Scale\\: Beta Weapons\\: x" in text.read_text()
        back = tmp_path / "back.ship"
        proc = run_command(("import", "statblock", "{t}", "-o", "{b}", "--force"), tmp_path, t=text, b=back)
        assert proc.returncode == 0, proc.stderr
        got = json.loads(back.read_text())["design"]
        assert (got["name"], got["concept"]) == ("Alpha Scale: Beta Weapons: x", "Crew: many")
        assert got["custom_weapons"][0]["name"] == "Gun Soak: 3"


# --- compare, suggest and fix: a newline in a name cannot print a line of its own ------------

FAKE = "\nResult: PASSES"


def fake_verdict_design(tmp_path: Path) -> Path:
    """A failing Wing Commander design whose design, gun and link-group names each hold a
    newline and a fake verdict (issue 28: compare, --suggest and fix printed them raw)."""
    doc = json.loads((CORPUS / "wc-link-group-of-one.ship").read_text())
    doc["design"]["name"] = "Evil" + FAKE
    doc["design"]["guns"][0]["name"] = "Laser" + FAKE
    doc["design"]["guns"][0]["link_group"] = "A" + FAKE
    path = tmp_path / "evil.ship"
    path.write_text(json.dumps(doc))
    return path


def assert_no_fake_line(proc: subprocess.CompletedProcess[str]) -> None:
    assert_terminal_safe(proc)
    for line in (proc.stdout + proc.stderr).splitlines():
        assert not line.startswith("Result: PASSES"), (proc.stdout, proc.stderr)


def test_compare_cannot_print_a_fake_verdict(tmp_path: Path) -> None:
    evil = fake_verdict_design(tmp_path)
    arrow = ROOT / "catalogs" / "wing-commander" / "examples" / "arrow.ship"
    for extra in ((), ("--markdown",)):
        proc = run_command(("compare", str(arrow), "{e}", *extra), tmp_path, e=evil)
        assert proc.returncode == 1, proc.stderr
        assert_no_fake_line(proc)
        assert "Evil\\u000aResult: PASSES" in proc.stdout


def test_suggest_and_fix_cannot_print_a_fake_verdict(tmp_path: Path) -> None:
    evil = fake_verdict_design(tmp_path)
    proc = run_command(("check", "{e}", "--suggest"), tmp_path, e=evil)
    assert proc.returncode == 1, proc.stderr
    assert_no_fake_line(proc)
    assert "Suggested fixes" in proc.stdout and "\\u000aResult: PASSES" in proc.stdout
    out = tmp_path / ("new" + FAKE + ".ship")
    fixed = run_command(("fix", "{e}", "--apply", "1", "-o", "{out}"), tmp_path, e=evil, out=out)
    assert fixed.returncode in (0, 1), fixed.stderr
    assert_no_fake_line(fixed)
    [wrote] = fixed.stdout.splitlines()
    assert wrote.startswith("wrote ") and "new\\u000aResult: PASSES.ship" in wrote
    assert out.is_file()


def test_a_smoke_run_of_the_editor_on_a_bad_file_prints_the_error_and_exits_2(tmp_path: Path) -> None:
    """``shipyard-gui --smoke BADFILE`` never ended: a modal error box opened before the event loop."""
    bad = tmp_path / "bad.ship"
    bad.write_text("{bad", encoding="utf-8")
    proc = run_editor_smoke(bad, env={"XDG_DATA_HOME": str(tmp_path / "xdg")})
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert f"shipyard-gui: error: Cannot open design: {bad}:1:2: malformed JSON" in proc.stderr
    assert "designs: 0" in proc.stdout and "Traceback" not in proc.stderr


def test_concurrent_fixes_to_one_new_file_write_it_once(tmp_path: Path) -> None:
    """16 concurrent ``fix -o NEW`` without --force: 7-10 reported "wrote", each replacing the
    one before. Creating the output is exclusive: one writes it, every other one says why not."""
    design = CORPUS / "wc-link-group-of-one.ship"
    out = tmp_path / "fixed.ship"
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "xdg")}
    env.pop("SHIPYARD_DEBUG", None)
    argv = [sys.executable, "-m", "shipyard", "fix", str(design), "--apply", "1", "-o", str(out), "--no-user-catalog"]
    procs = [
        subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) for _ in range(16)
    ]
    results = [(p.wait(timeout=300), *p.communicate()) for p in procs]
    wrote = [r for r in results if r[1].startswith("wrote ")]
    assert len(wrote) == 1, [r[0] for r in results]
    for status, stdout, stderr in results:
        assert "Traceback" not in stderr
        if not stdout.startswith("wrote "):
            assert status == 2 and stdout == "", stderr
            assert f"{out}: exists; use --force" in stderr or f"{out}: appeared while Shipyard was writing it" in stderr
    assert json.loads(out.read_text())["ruleset"] == "wing-commander"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".shipyard-")]  # no temporary file left


def test_an_output_that_appears_between_the_check_and_the_write_is_not_replaced(tmp_path: Path) -> None:
    """The race itself, made certain: the command line finds ``NEW`` absent, another process
    writes it, then Shipyard's write must fail and leave the other one's file (and, of two
    outputs written all or nothing, neither of its own)."""
    from shipyard.core.commandline import refuse_existing
    from shipyard.core.designfile import load_design, save_design, save_designs

    loaded = load_design(GOOD, use_user_folder=False)
    out, other = tmp_path / "new.ship", tmp_path / "other.ship"
    refuse_existing([out], force=False)
    subprocess.run([sys.executable, "-c", f"open({str(out)!r}, 'w').write('theirs')"], check=True, timeout=60)
    with pytest.raises(InputError) as caught:
        save_design(loaded, out)
    assert "appeared while Shipyard was writing it" in str(caught.value) and str(out) in str(caught.value)
    assert out.read_text() == "theirs"
    out.unlink()
    refuse_existing([other, out], force=False)
    subprocess.run([sys.executable, "-c", f"open({str(out)!r}, 'w').write('theirs')"], check=True, timeout=60)
    with pytest.raises(InputError):
        save_designs([(loaded, other), (loaded, out)])
    assert out.read_text() == "theirs" and not other.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.ship"]  # no temporary file left
    refuse_existing([out], force=True)  # --force: replacing is what the user asked
    save_design(loaded, out)
    assert json.loads(out.read_text())["ruleset"] == loaded.ruleset


# --- a design's art ---------------------------------------------------------------------------
#
# A picture that cannot be shown never stops a design: it opens, passes as before, and its
# report warns that the art is left out, naming the picture's file and what is allowed.

ART = CORPUS / "art"


@dataclass(frozen=True)
class ArtCase:
    file: str
    names: str  # the picture's file as the message names it (or "embedded art")
    says: tuple[str, ...]


ART_CASES = [
    ArtCase("art-broken.ship", "broken.png", ("not a readable PNG picture",)),
    ArtCase("art-truncated.ship", "truncated.png", ("broken PNG picture", "ends before the picture does")),
    ArtCase("art-mislabelled.ship", "mislabelled.png", ("named as a PNG picture but holds a JPEG one",)),
    ArtCase("art-wrong-extension.ship", "picture.gif", ("extension '.gif'", "PNG, JPEG or WebP")),
    ArtCase("art-bomb.ship", "bomb.png", ("20,000 x 20,000 pixels", "limited to 40,000,000 pixels")),
    ArtCase("art-svg-script.ship", "script.svg", ("<script> element",)),
    ArtCase("art-svg-outside-ref.ship", "outside-ref.svg", ("'file:///etc/passwd' outside itself",)),
    ArtCase("art-svg-entity.ship", "entity.svg", ("DOCTYPE or entity declarations",)),
    ArtCase("art-dot-dot.ship", "../empty.ship", ("leads outside the design's folder",)),
    ArtCase("art-link-out.ship", "link-out.png", ("leads outside the design's folder", "binary-junk.ship")),
    ArtCase("art-missing.ship", "not-there.png", ("art file not found",)),
    ArtCase("art-url.ship", "https://example.com/ship.png", ("is a URL", "fetches nothing over the network")),
    ArtCase("art-absolute.ship", "/etc/passwd", ("relative to the design file, not an absolute path",)),
    ArtCase("art-embedded-not-base64.ship", "embedded art", ("not valid base64",)),
    ArtCase("art-embedded-html.ship", "embedded art", ("text/html", "not a picture Shipyard reads")),
]
ART_GOOD = ["art-ok.ship", "art-clean-svg.ship"]
# Passes every check the core makes (signature, IHDR, IEND) over pixels that are not a zlib
# stream: only decoding finds it, so the sheets, not `shipyard check`, report it.
ART_UNDECODABLE = "art-undecodable.ship"


def test_every_art_corpus_design_has_a_case() -> None:
    on_disk = sorted(p.name for p in ART.glob("*.ship"))
    assert on_disk == sorted([c.file for c in ART_CASES] + ART_GOOD + [ART_UNDECODABLE])


@pytest.mark.parametrize("case", ART_CASES, ids=[c.file.removesuffix(".ship") for c in ART_CASES])
def test_bad_art_leaves_the_design_open_with_a_warning_naming_the_picture(case: ArtCase, tmp_path: Path) -> None:
    path = ART / case.file
    before = snapshot(path)
    proc = run_check(path, extra=("--json",), env_home=tmp_path)
    assert "Traceback" not in proc.stderr and proc.stderr == ""
    assert proc.returncode == 0, proc.stderr  # the design passes: its rules do not look at art
    (entry,) = json.loads(proc.stdout)
    assert entry["valid"] is True
    (hit,) = [f for f in entry["findings"] if f["code"] == "art-missing"]
    assert (hit["severity"], hit["path"]) == ("warning", "art")
    assert case.names in hit["message"], hit["message"]
    assert "(allowed: " in hit["message"] and hit["limit"]
    for text in case.says:
        assert text in hit["message"], (text, hit["message"])
    assert snapshot(path) == before


@pytest.mark.parametrize("name", ART_GOOD)
def test_good_art_gives_no_warning(name: str, tmp_path: Path) -> None:
    proc = run_check(ART / name, extra=("--json",), env_home=tmp_path)
    assert proc.returncode == 0, proc.stderr
    (entry,) = json.loads(proc.stdout)
    assert [f for f in entry["findings"] if f["code"] == "art-missing"] == []


def test_a_picture_whose_pixels_cannot_be_decoded_is_left_out_of_the_sheet_with_the_warning(tmp_path: Path) -> None:
    from pypdf import PdfReader

    design = ART / ART_UNDECODABLE
    before = snapshot(design)
    out = tmp_path / "sheet.pdf"
    proc = call_shipyard(
        "print", str(design), "-o", str(out), "--no-user-catalog", env={"XDG_DATA_HOME": str(tmp_path)}
    )
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    (warning,) = [ln for ln in proc.stderr.splitlines() if ln.startswith("shipyard: warning: ")]
    assert "undecodable.png" in warning and "pixels cannot be decoded" in warning, warning
    assert "(allowed: PNG, JPEG or WebP" in warning
    page = PdfReader(out).pages[0]
    assert len(page.images) == 0  # the picture is left out, the rest of the sheet printed
    assert "Rebel Fighter" in page.extract_text()
    assert snapshot(design) == before


def test_a_picture_above_the_size_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    from shipyard.core.artcheck import MAX_ART_BYTES

    folder = tmp_path / "ships"
    folder.mkdir()
    (folder / "huge.png").write_bytes((ART / "ok.png").read_bytes() + b"\0" * MAX_ART_BYTES)
    doc = json.loads((ART / "art-ok.ship").read_text())
    doc["design"]["art"] = "huge.png"
    design = folder / "huge-art.ship"
    design.write_text(json.dumps(doc))
    proc = run_check(design, extra=("--json",), env_home=tmp_path)
    assert proc.returncode == 0, proc.stderr
    (entry,) = json.loads(proc.stdout)
    (hit,) = [f for f in entry["findings"] if f["code"] == "art-missing"]
    assert "huge.png" in hit["message"] and f"limited to {MAX_ART_BYTES:,}" in hit["message"], hit["message"]


def test_a_new_design_s_name_too_long_for_its_ruleset_is_an_input_error(tmp_path: Path) -> None:
    """``shipyard new`` with a 201-letter name was an internal error (exit 70, pydantic's
    words); ``set name=`` says the same thing as an input error. Every kind of every ruleset."""
    from shipyard.core.designfile import new_design
    from shipyard.core.errors import InputError
    from shipyard.core.registry import get, ids

    for ruleset in ids():
        for kind in get(ruleset).kinds:
            with pytest.raises(InputError, match="at NAME: the name: String should have at most"):
                new_design(ruleset, "x" * 201, kind.id, use_user_folder=False)
    out = call_shipyard("new", "x" * 201, "--kind", "starfighter", "-o", tmp_path / "long.ship", "--no-user-catalog")
    assert out.returncode == 2, out.stderr
    assert out.stderr == "shipyard: error: at NAME: the name: String should have at most 200 characters\n"
    assert not (tmp_path / "long.ship").exists()


def test_errors_name_the_file_and_what_is_allowed(tmp_path: Path) -> None:
    """Messages that left out the file or what is allowed: ``get`` of an entry the design does
    not have, ``fix --apply`` past the proposals, an unknown Space Fighter Alpha weapon, a
    count below its bound."""
    ship = tmp_path / "r5.ship"
    ship.write_bytes((ROOT / "catalogs" / "space-fighter-alpha" / "examples" / "rebel-fighter.ship").read_bytes())
    out = call_shipyard("get", ship, "weapons[Heavy Laser].count", "--no-user-catalog")
    assert out.stderr == (
        f"shipyard: error: {ship} at weapons[Heavy Laser].count: weapons has no entry 'Heavy Laser' "
        "(allowed: Light Laser, Missile/Torpedo)\n"
    )
    disk = ROOT / "catalogs" / "space-fighter-alpha" / "examples" / "alien-disk-fighter.ship"
    out = call_shipyard("fix", disk, "--apply", "99", "-o", tmp_path / "x.ship", "--no-user-catalog")
    assert out.stderr.startswith(f"shipyard: error: {disk} at --apply: there are ")
    assert "--apply takes one of them (allowed: 1 to " in out.stderr
    out = call_shipyard("set", ship, "weapons[0].count=0", "--dry-run", "--no-user-catalog")
    assert "at weapons[0].count: Input should be greater than or equal to 1 (allowed: 1 or more)" in out.stderr
    out = call_shipyard("set", ship, "weapons[0].weapon=nope", "--dry-run", "--no-user-catalog")
    assert "unknown weapon 'nope'" in out.stderr
    assert "(allowed: Light Laser, Medium Laser, Heavy Laser, Railgun, Missile/Torpedo, Rocket Salvo)" in out.stderr


@pytest.mark.parametrize(
    ("encoding", "mark", "said"),
    [
        ("utf-16-le", b"\xff\xfe", "UTF-16"),
        ("utf-16-be", b"\xfe\xff", "UTF-16"),
        ("utf-32-le", b"\xff\xfe\x00\x00", "UTF-32"),
        ("utf-32-be", b"\x00\x00\xfe\xff", "UTF-32"),
    ],
)
def test_a_design_saved_as_utf16_or_utf32_is_named_so(tmp_path: Path, encoding: str, mark: bytes, said: str) -> None:
    """A design saved as UTF-16 (Notepad's "Unicode", PowerShell's ">") was "not UTF-8 text
    (byte 0 is 0xff); is this a binary file?": it is text, in an encoding to change."""
    design = tmp_path / "scout.ship"
    design.write_bytes(mark + EXAMPLES.joinpath("alien-disk-fighter.ship").read_text("utf-8").encode(encoding))
    before = snapshot(design)
    message = assert_input_error(
        run_check(design),
        "scout.ship",
        "scout.ship:",
        (f"saved as {said} (it starts with a {said} byte-order mark); save it as UTF-8",),
    )
    assert "binary" not in message
    assert snapshot(design) == before
