"""Run the terminal sessions a Markdown page shows, as a reader types them, and hold their
output to the page.

A fenced ``console`` block is a terminal session. Each line that starts with ``$ `` is a
command, run by bash in the page's own folder (``shipyard`` is this checkout's, run as
``python -m shipyard``; a line that only runs ``shipyard`` may run the words bash makes of
it in the test's own process, see :func:`run`); the lines after it, up to the next command,
are what it prints (its standard output and error, as a terminal shows them). In the
expected lines:

- a line ``...`` stands for any number of lines, none included;
- ``...`` inside a line stands for any text within that line;
- a last line ``[exit status N]`` says the command ends with status N (else it must end 0);
- a command followed by no lines is only held to its exit status.

A fenced block whose info string names a file (```` ```yaml file=house/weapons.yaml ````)
is a file the reader writes with an editor: it is written there, in the page's folder,
before the commands after it run.

A page's commands run in order in one folder, which holds ``catalogs`` (a link to the
checkout's, as in a clone), so a file one command writes is there for the next. Nothing is
read from or written to the user's own settings: the tests' sandbox (tests/conftest.py)
is inherited.

``python -m tests.doccommands --show PAGE.md`` prints what each command of a page prints
now, to write a page's expected lines from.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

ROOT = Path(__file__).resolve().parents[1]
EXIT = re.compile(r"^\[exit status (\d+)\]$")
FENCE = re.compile(r"^```console\s*$")
FILE_FENCE = re.compile(r"^```\w*\s+file=(\S+)\s*$")


@dataclass
class Command:
    """One ``$ `` line of a page, with what the page says it prints."""

    page: Path
    line: int  # 1-based, in the page
    text: str
    expected: list[str] = field(default_factory=list)
    status: int = 0
    writes: str | None = None  # a file block: the path it is written to (``text`` is its content)

    @property
    def where(self) -> str:
        page = self.page.relative_to(ROOT) if self.page.is_relative_to(ROOT) else self.page
        return f"{page}:{self.line}: $ {self.text}"


def commands(page: Path) -> list[Command]:
    """Every command and file block of ``page``, in order."""
    found: list[Command] = []
    inside: str | None = None  # "console", or "file" with the file block's Command last in found
    for number, raw in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.rstrip()
        if inside is None:
            named = FILE_FENCE.match(line)
            if named:
                found.append(Command(page, number, "", writes=named.group(1)))
                inside = "file"
            elif FENCE.match(line):
                inside = "console"
            continue
        if line.startswith("```"):
            inside = None
        elif inside == "file":
            found[-1].text += raw + "\n"
        elif line.startswith("$ "):
            found.append(Command(page, number, line[2:].strip()))
        elif found and found[-1].writes is None and found[-1].line < number:
            status = EXIT.match(line)
            if status:
                found[-1].status = int(status.group(1))
            else:
                found[-1].expected.append(line)
    return found


def write_file(command: Command, folder: Path) -> None:
    """A file block, written where it says, inside ``folder``."""
    assert command.writes is not None
    target = (folder / command.writes).resolve()
    assert target.is_relative_to(folder.resolve()), f"{command.page}:{command.line}: outside the page's folder"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(command.text, encoding="utf-8")


def _line_matches(expected: str, actual: str) -> bool:
    if "..." not in expected:
        return expected == actual
    pattern = ".*".join(re.escape(part) for part in expected.split("..."))
    return re.fullmatch(pattern, actual) is not None


def output_matches(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` is ``expected``, a ``...`` line standing for any lines."""
    while expected and not expected[-1]:
        expected = expected[:-1]
    while actual and not actual[-1]:
        actual = actual[:-1]
    if not expected:
        return not actual
    head, rest = expected[0], expected[1:]
    if head == "...":
        return any(output_matches(rest, actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and _line_matches(head, actual[0]) and output_matches(rest, actual[1:])


def prepare(folder: Path) -> None:
    """The page's folder: a link to the checkout's catalogs, as a clone has them."""
    folder.mkdir(parents=True, exist_ok=True)
    link = folder / "catalogs"
    if not link.exists():
        link.symlink_to(ROOT / "catalogs")


# What bash does to a line beyond handing its words to the command: pipes, lists, redirections,
# subshells, background jobs (shlex's punctuation tokens), and command substitution.
SHELL_OPERATOR = re.compile(r"^[();<>|&]+$")
TERMINAL = {"COLUMNS": "100"}  # the width the pages' help texts are wrapped to


class CallShipyard(Protocol):
    """``shipyard ARGS`` run in the calling process (tests/conftest.py's ``call_shipyard``)."""

    def __call__(
        self, *args: str, stdin: str | None, cwd: Path, env: dict[str, str], merged: bool
    ) -> subprocess.CompletedProcess[str]: ...


def shipyard_words(command: Command, folder: Path) -> list[str] | None:
    """The words bash hands to ``shipyard`` for a line that only runs ``shipyard`` (its quotes,
    globs and variables expanded by bash itself, in ``folder``); None for any other line (another
    program, a pipe, a redirection, a list of commands, command substitution)."""
    text = command.text
    if not text.startswith("shipyard ") or "`" in text or "$(" in text or "\n" in text:
        return None
    try:
        tokens = list(shlex.shlex(text, posix=True, punctuation_chars=True))
    except ValueError:  # an unfinished quote: bash says what is wrong with it
        return None
    if any(SHELL_OPERATOR.match(t) for t in tokens):
        return None
    # bash parses and expands the line, a function standing in for shipyard prints the words it got
    words = subprocess.run(
        ["bash", "-c", 'shipyard() { printf "%s\\0" "$@"; }\n' + text],
        cwd=folder,
        env=_environment(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    if words.returncode != 0 or words.stderr:
        return None  # bash's own complaint is what the reader sees: run the line in bash
    return words.stdout.split("\0")[:-1]


def _environment() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "SHIPYARD_DEBUG"} | TERMINAL


def run(command: Command, folder: Path, call: CallShipyard | None = None) -> subprocess.CompletedProcess[str]:
    """``command`` as bash runs it in ``folder``: stdout and stderr as one stream, as a terminal
    shows them. With ``call``, a line that only runs ``shipyard`` (:func:`shipyard_words`) runs
    its words in this process: what a page shows is what a command prints and writes, and a
    process of its own for each line cost more of a core than most of the commands themselves
    (a print's imported WeasyPrint again)."""
    words = shipyard_words(command, folder) if call is not None else None
    if call is not None and words is not None:
        done = call(*words, stdin="", cwd=folder, env=TERMINAL, merged=True)
        return subprocess.CompletedProcess(["shipyard", *words], done.returncode, done.stdout, "")
    # unbuffered: what a program says on stderr arrives where it said it, as on a terminal
    env = _environment() | {"PYTHONUNBUFFERED": "1"}
    prelude = f'shipyard() {{ "{sys.executable}" -m shipyard "$@"; }}\n'
    return subprocess.run(
        ["bash", "-c", prelude + command.text],
        cwd=folder,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=300,
        check=False,
    )


def problems(page: Path, folder: Path, call: CallShipyard | None = None) -> list[str]:
    """What differs between ``page``'s sessions and what their commands do, run in ``folder``
    (``call``: how a line that only runs ``shipyard`` runs, see :func:`run`)."""
    prepare(folder)
    found = []
    for command in commands(page):
        if command.writes is not None:
            write_file(command, folder)
            continue
        proc = run(command, folder, call)
        actual = proc.stdout.splitlines()
        if "Traceback" in proc.stdout:
            found.append(f"{command.where}\n  printed a traceback:\n{proc.stdout[-2000:]}")
        elif proc.returncode != command.status:
            found.append(f"{command.where}\n  exit status {proc.returncode}, the page says {command.status}:\n"
                         f"{proc.stdout[-2000:]}")  # fmt: skip
        elif command.expected and not output_matches(command.expected, actual):
            shown = "\n".join(command.expected)
            found.append(f"{command.where}\n  the page says:\n{shown}\n  it printed:\n{proc.stdout[-3000:]}")
    return found


def _show(page: Path) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        prepare(Path(tmp))
        for command in commands(page):
            if command.writes is not None:
                write_file(command, Path(tmp))
                print(f"(wrote {command.writes})")
                continue
            proc = run(command, Path(tmp))
            print(f"$ {command.text}")
            print(proc.stdout.rstrip())
            if proc.returncode:
                print(f"[exit status {proc.returncode}]")


if __name__ == "__main__":
    for name in sys.argv[2:] if sys.argv[1:2] == ["--show"] else []:
        _show(Path(name).resolve())
