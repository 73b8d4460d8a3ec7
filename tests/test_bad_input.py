"""Bad design files: one clear message, exit 2, no traceback, no file changed.

Every case is a file in ``tests/corpus/bad/`` (except the ones too big or too random to
commit, which are generated into ``tmp_path``). Each is fed to ``shipyard check`` as a
real subprocess, the way a user meets it, and the whole outcome is checked: the exit
status, that the message names the file and where in it the problem is, what it says,
that nothing was printed as a report, and that the file was left exactly as it was.
"""

from __future__ import annotations

import json
import random
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from .conftest import EXAMPLES, run_shipyard

CORPUS = Path(__file__).resolve().parent / "corpus" / "bad"
ERROR_PREFIX = "shipyard: error: "


def run_check(
    *files: Path | str, extra: tuple[str, ...] = (), env_home: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = None if env_home is None else {"XDG_DATA_HOME": str(env_home)}
    return run_shipyard("check", *files, "--no-user-catalog", *extra, env=env)


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
]


def test_every_corpus_file_has_a_case() -> None:
    on_disk = sorted(p.name for p in CORPUS.glob("*.ship"))
    assert on_disk == sorted(c.file for c in CASES)


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
