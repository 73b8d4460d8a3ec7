"""What the README promises of every command: the one rule for writing files.

The README's terminal sessions (and the guide's) are run as they are written by
tests/test_guide.py; the README's two commands are the ones .ci/run uses.
"""

from __future__ import annotations

from .conftest import ROOT


def test_the_overwrite_rule_is_said_once_in_the_readme_and_in_every_writing_commands_help() -> None:
    from shipyard.cli import build_parser
    from shipyard.core.commandline import OVERWRITE_RULE

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert text.count("**Writing files, the one rule for every command:**") == 1
    assert text.count("only with `--force`") == 1  # said once, not again beside each command
    top = build_parser(None)
    names = list(next(a for a in top._actions if hasattr(a, "choices") and isinstance(a.choices, dict)).choices)
    writers = []
    for name in names:
        sub = next(a for a in build_parser(name)._actions if hasattr(a, "choices") and isinstance(a.choices, dict))
        parsers = [sub.choices[name]]
        for action in sub.choices[name]._actions:  # import statblock, fury roll ...
            if isinstance(getattr(action, "choices", None), dict):
                parsers += list(action.choices.values())
        for p in parsers:
            if any("--force" in a.option_strings for a in p._actions):
                writers.append(p.prog)
                assert " ".join(OVERWRITE_RULE.split()) in " ".join(p.format_help().split()), p.prog
    assert {"shipyard print", "shipyard new", "shipyard fix", "shipyard set", "shipyard fury roll"} <= set(writers)


def test_the_readme_s_two_commands_are_the_ones_ci_runs() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## Two commands", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    assert [line.split()[0] for line in block.splitlines() if line.strip()] == ["scripts/run-app", "scripts/run-tests"]
    assert "scripts/run-tests" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_readme_is_a_door_not_a_manual() -> None:
    """About 120 lines: what it is, the two commands, a first session, where to go next."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 140, len(lines)
