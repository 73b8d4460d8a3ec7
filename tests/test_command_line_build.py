"""How the command line is built for the command being run: every command listed, only the
one being run given its options (shipyard/cli.py ``_OnlyOneBuilt``), and argparse's
translation lookups answered once a process (``_speedups.translations_looked_up_once``).

Both change only what building the parser costs; these tests hold that the parser a command
is run with is, for that command, the whole command line's."""

from __future__ import annotations

import argparse
import gettext
import os
from pathlib import Path
from typing import Any

import pytest

from shipyard import _speedups
from shipyard.cli import build_parser

from .conftest import call_shipyard


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The subcommands a parser lists, by name."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _shape(parser: argparse.ArgumentParser) -> list[Any]:
    """Everything a parser accepts: each option's strings, destination, choices, default and
    whether it is required, its defaults, and its subcommands' shapes."""
    shape: list[Any] = [sorted((k, repr(v)) for k, v in parser._defaults.items())]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            shape.append({name: _shape(sub) for name, sub in action.choices.items()})
        else:
            choices = list(action.choices) if action.choices is not None else None
            shape.append((action.option_strings, action.dest, choices, repr(action.default), action.required))
    return shape


def test_every_command_is_built_for_its_run_as_the_whole_command_line_builds_it() -> None:
    whole = build_parser(None)
    everything = _commands(whole)
    assert {"check", "print", "roster", "hangar", "export", "compare", "completion"} <= set(everything)
    built_in = set(_commands(build_parser("check")))  # a built-in command's run lists only those
    for name, full in everything.items():
        listed = _commands(build_parser(name))
        if name not in built_in:
            assert list(listed) == list(everything), name  # every command still listed
        if [a.option_strings for a in full._actions] == [["-h", "--help"]]:
            continue  # a ruleset's command: its module adds its options only when it is run
        assert _shape(listed[name]) == _shape(full), name


def test_the_commands_not_being_run_are_listed_without_their_options() -> None:
    """What makes the build quick: a command being run builds no other command's options."""
    for_roster = _commands(build_parser("roster"))
    assert len(for_roster["roster"]._actions) > 1
    assert [a.option_strings for a in for_roster["hangar"]._actions] == [["-h", "--help"]]
    assert [a.option_strings for a in for_roster["export"]._actions] == [["-h", "--help"]]
    whole = _commands(build_parser(None))
    assert len(whole["hangar"]._actions) > 1 and len(whole["export"]._actions) > 1


def test_a_misspelt_command_is_told_every_command() -> None:
    done = call_shipyard("rostr", "list")
    assert done.returncode == 2
    for name in ("check", "roster", "hangar", "export", "compare"):
        assert repr(name) in done.stderr, name


@pytest.mark.parametrize(
    "words", [("hangar",), ("hangar", "add"), ("roster",), ("roster", "export"), ("export",), ("compare",)]
)
def test_a_command_s_help_is_what_the_whole_command_line_says_of_it(words: tuple[str, ...]) -> None:
    """What a person reads with ``--help``: the same text, option for option, as the parser of
    the whole command line (``shipyard --help``'s) prints for that command."""
    whole: argparse.ArgumentParser = build_parser(None)
    for word in words:
        whole = _commands(whole)[word]
    done = call_shipyard(*words, "--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout == whole.format_help()
    assert done.stdout.startswith(f"usage: shipyard {' '.join(words)} ")


@pytest.fixture
def gettext_s_own(monkeypatch: pytest.MonkeyPatch) -> Any:
    """gettext's own ``find`` in place for the test, and again after it."""
    own = getattr(gettext.find, "__wrapped__", gettext.find)
    monkeypatch.setattr(gettext, "find", own)
    return own


def _catalog(folder: Path, language: str, domain: str) -> Path:
    mo = folder / language / "LC_MESSAGES" / f"{domain}.mo"
    mo.parent.mkdir(parents=True)
    mo.write_bytes(b"")  # find only asks whether the file is there
    return mo


@pytest.mark.speedups
def test_a_translation_lookup_answers_as_gettext_s_own(
    gettext_s_own: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    german = _catalog(tmp_path, "de", "shipyardtest")
    _speedups.translations_looked_up_once()
    assert (gettext.find is not gettext_s_own) == _speedups.enabled()
    # The language variables are changed in a copy of the environment both lookups read:
    # set in the process's own, the C library would translate its error messages from then on.
    environment = dict(os.environ)
    monkeypatch.setattr(os, "environ", environment)
    for language in ("de", "de_DE.UTF-8", "fr", "C"):
        for variable in _speedups.LANGUAGE_VARIABLES:
            for name in _speedups.LANGUAGE_VARIABLES:
                environment.pop(name, None)
            environment[variable] = language
            for all_of_them in (False, True):
                for _ in range(2):  # the first answer, then the remembered one
                    assert gettext.find("shipyardtest", str(tmp_path), None, all_of_them) == gettext_s_own(
                        "shipyardtest", str(tmp_path), None, all_of_them
                    ), (language, variable)
    assert gettext.find("shipyardtest", str(tmp_path), ["fr", "de"]) == str(german)
    assert gettext.find("shipyardtest", str(tmp_path), ["fr"]) is None
    # an argument that cannot be a key (a list for a domain) is looked up as gettext does, each time
    odd = (["shipyardtest"], str(tmp_path), ["de"])
    assert gettext.find(*odd) == gettext_s_own(*odd)
    listed = gettext.find("shipyardtest", str(tmp_path), ["de"], all=True)
    listed.append("changed by its caller")
    assert gettext.find("shipyardtest", str(tmp_path), ["de"], all=True) == [str(german)]


@pytest.mark.speedups
def test_a_translation_lookup_switched_off_is_gettext_s_own(
    gettext_s_own: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(_speedups.SWITCH, "1")
    _speedups.translations_looked_up_once()
    assert gettext.find is gettext_s_own


@pytest.mark.speedups
def test_a_command_reads_its_translations_as_it_did(gettext_s_own: Any) -> None:
    """A command run in this process leaves gettext remembering its lookups (or, switched
    off, as it was), and still prints its usage."""
    done = call_shipyard("check", "--help")
    assert done.returncode == 0 and "usage: shipyard check" in done.stdout
    assert (gettext.find is not gettext_s_own) == _speedups.enabled()
