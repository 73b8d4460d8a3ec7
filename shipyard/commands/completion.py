"""``shipyard completion bash|zsh|fish``: shell completion, generated from the real parsers.

Nothing here lists a command or an option: the script is written from the argparse
parsers ``shipyard`` itself runs (every command, the rulesets' own, and each one's
options) and from the registry (the ruleset ids, their kinds and presets). So a new
command or preset completes as soon as it is installed and the script is printed again:
``shipyard completion bash > ~/.local/share/bash-completion/completions/shipyard``.
Option values complete by what they take: choices as listed, --ruleset, --kind and
--preset their ids, folders for DIR options, paths for files, nothing for numbers.
Standard library only at import time.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from shipyard.core.commandline import EXIT_OK

SHELLS = ("bash", "zsh", "fish")


def add_commands(sub: Any, catalog_opts: Any) -> None:
    p = sub.add_parser(
        "completion",
        help="print shell completion for bash, zsh or fish (commands, options, ruleset and preset ids, paths)",
        description="Print a completion script for SHELL, made from this Shipyard's commands and installed "
        "rulesets. bash: shipyard completion bash > ~/.local/share/bash-completion/completions/shipyard; "
        "zsh: shipyard completion zsh > ~/.zfunc/_shipyard (with ~/.zfunc in fpath, before compinit); "
        "fish: shipyard completion fish > ~/.config/fish/completions/shipyard.fish.",
    )
    p.add_argument("shell", choices=SHELLS)
    p.set_defaults(func=cmd_completion, reads_only=True)


@dataclass
class Option:
    names: list[str]
    takes: str  # "" a flag; "words", "files", "dirs", "none" (a number: nothing to offer)
    words: list[str] = field(default_factory=list)
    help: str = ""


@dataclass
class Command:
    path: tuple[str, ...]
    options: list[Option] = field(default_factory=list)
    subcommands: list[tuple[str, str]] = field(default_factory=list)  # name, help
    positional: str = "files"  # what its positional arguments take: "files", "words" or "none"
    words: list[str] = field(default_factory=list)


def _ids() -> dict[str, list[str]]:
    """The registry's words: ruleset ids, the kinds they offer, every preset of their catalogs."""
    from shipyard.core.catalog import load_catalog
    from shipyard.core.errors import InputError
    from shipyard.core.registry import rulesets

    infos = rulesets()
    presets: set[str] = set()
    for info in infos:
        try:
            presets |= set(load_catalog(info.id).presets)
        except InputError:  # a user catalog that does not load: the ruleset's own presets
            presets |= set(load_catalog(info.id, use_user_folder=False).presets)
    return {
        "ruleset": sorted(i.id for i in infos),
        "kind": sorted({k.id for i in infos for k in i.kinds}),
        "preset": sorted(presets),
    }


def _option(action: argparse.Action, ids: dict[str, list[str]]) -> Option:
    help_text = "" if action.help in (None, argparse.SUPPRESS) else str(action.help)
    names = list(action.option_strings)
    if action.nargs == 0:
        return Option(names, "", help=help_text)
    if action.choices:
        return Option(names, "words", [str(c) for c in action.choices], help_text)
    if action.dest in ids:
        return Option(names, "words", ids[action.dest], help_text)
    if action.type is not None and action.type not in (str,) and getattr(action.type, "__name__", "") != "Path":
        return Option(names, "none", help=help_text)
    if action.metavar == "DIR":
        return Option(names, "dirs", help=help_text)
    return Option(names, "files", help=help_text)


def _walk(
    parser: argparse.ArgumentParser, path: tuple[str, ...], ids: dict[str, list[str]], out: list[Command]
) -> None:
    cmd = Command(path)
    out.append(cmd)
    takes_positional = False
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            for name, child in action.choices.items():
                cmd.subcommands.append((name, str(helps.get(name, ""))))
                _walk(child, (*path, name), ids, out)
        elif action.option_strings:
            if action.help != argparse.SUPPRESS:
                cmd.options.append(_option(action, ids))
        else:
            takes_positional = True
            if action.choices:
                cmd.positional, cmd.words = "words", [str(c) for c in action.choices]
    if not takes_positional and not cmd.subcommands:
        cmd.positional = "none"


def commands(build_parser: Callable[[str | None], argparse.ArgumentParser]) -> list[Command]:
    """Every command ``shipyard`` runs, with its options, as its own parsers declare them
    (``build_parser``: the command line's, handed down by it so that no command imports it)."""
    ids = _ids()
    top = build_parser(None)
    out: list[Command] = []
    _walk(top, (), ids, out)
    for name, _ in out[0].subcommands:  # a ruleset's command adds its options only when it is the one run
        mine = [c for c in out if c.path[:1] == (name,)]
        if len(mine) == 1 and not mine[0].subcommands and [o.names for o in mine[0].options] == [["-h", "--help"]]:
            full: list[Command] = []
            _walk(build_parser(name), (), ids, full)
            out = [c for c in out if c.path[:1] != (name,)] + [c for c in full if c.path[:1] == (name,)]
    return out


def cmd_completion(args: argparse.Namespace) -> int:
    sys.stdout.write(script(args.shell, commands(args.build_parser)))
    return EXIT_OK


def script(shell: str, cmds: list[Command]) -> str:
    return {"bash": _bash, "zsh": _zsh, "fish": _fish}[shell](cmds)


def _key(path: tuple[str, ...]) -> str:
    return " ".join(path)


def _wanted(cmds: list[Command]) -> str:
    """The shell function both bash and zsh run: from the words before the cursor, what to offer.

    It walks the words to the deepest command they name, then sets ``_sy_kind`` (words,
    files, dirs, none) and ``_sy_words``: an option's value, the options, the subcommands,
    or the command's positional arguments. The syntax is common to bash and zsh."""
    known = "|".join(shlex.quote(_key(c.path)) for c in cmds if c.path)
    lines = [
        "__shipyard_wanted() {",
        '  local cur="$1" prev="$2" cmd="" w next',
        "  shift 2",
        '  for w in "$@"; do',
        '    case "$w" in -*) continue ;; esac',
        '    if [ -z "$cmd" ]; then next="$w"; else next="$cmd $w"; fi',
        f'    case "$next" in {known}) cmd="$next" ;; esac',
        "  done",
        '  _sy_kind=words; _sy_words=""',
        '  case "$cmd" in',
    ]
    for c in cmds:
        lines.append(f"    {shlex.quote(_key(c.path))})")
        values = [o for o in c.options if o.takes]
        if values:
            lines.append('      case "$prev" in')
            for o in values:
                pattern = "|".join(shlex.quote(n) for n in o.names)
                words = f" _sy_words={shlex.quote(' '.join(o.words))};" if o.takes == "words" else ""
                lines.append(f"        {pattern}) _sy_kind={o.takes};{words} return ;;")
            lines.append("      esac")
        opts = " ".join(n for o in c.options for n in o.names)
        lines.append(f'      case "$cur" in -*) _sy_words={shlex.quote(opts)}; return ;; esac')
        if c.subcommands:
            lines.append(f"      _sy_words={shlex.quote(' '.join(n for n, _ in c.subcommands))}")
        elif c.positional == "words":
            lines.append(f"      _sy_words={shlex.quote(' '.join(c.words))}")
        else:
            lines.append(f"      _sy_kind={c.positional}")
        lines.append("      ;;")
    lines += ["  esac", "}"]
    return "\n".join(lines) + "\n"


_HEAD = "# shipyard completion for {shell}, printed by `shipyard completion {shell}` from its own parsers.\n"


def _bash(cmds: list[Command]) -> str:
    return (
        _HEAD.format(shell="bash")
        + _wanted(cmds)
        + """_shipyard() {
  local cur="${COMP_WORDS[COMP_CWORD]}" prev=""
  [ "$COMP_CWORD" -gt 1 ] && prev="${COMP_WORDS[COMP_CWORD-1]}"
  __shipyard_wanted "$cur" "$prev" "${COMP_WORDS[@]:1:COMP_CWORD-1}"
  case "$_sy_kind" in
    files) COMPREPLY=($(compgen -f -- "$cur")) ;;
    dirs) COMPREPLY=($(compgen -d -- "$cur")) ;;
    none) COMPREPLY=() ;;
    *) COMPREPLY=($(compgen -W "$_sy_words" -- "$cur")) ;;
  esac
}
complete -o filenames -o bashdefault -F _shipyard shipyard
"""
    )


def _zsh(cmds: list[Command]) -> str:
    return (
        "#compdef shipyard\n"
        + _HEAD.format(shell="zsh")
        + _wanted(cmds)
        + """_shipyard() {
  local cur="${words[CURRENT]}" prev=""
  (( CURRENT > 2 )) && prev="${words[CURRENT-1]}"
  __shipyard_wanted "$cur" "$prev" "${(@)words[2,CURRENT-1]}"
  case "$_sy_kind" in
    files) _files ;;
    dirs) _files -/ ;;
    none) return 1 ;;
    *) compadd -- ${=_sy_words} ;;
  esac
}
if [ "$funcstack[1]" = "_shipyard" ]; then
  _shipyard "$@"
else
  compdef _shipyard shipyard
fi
"""
    )


def _fish_condition(path: tuple[str, ...], cmds: list[Command]) -> str:
    if not path:
        return "__fish_use_subcommand"
    parts = [f"__fish_seen_subcommand_from {p}" for p in path]
    children = next((c.subcommands for c in cmds if c.path == path), [])
    if children:
        parts.append("not __fish_seen_subcommand_from " + " ".join(n for n, _ in children))
    return "; and ".join(parts)


def _fish(cmds: list[Command]) -> str:
    out = [_HEAD.format(shell="fish").rstrip(), "complete -c shipyard -f"]
    for c in cmds:
        cond = shlex.quote(_fish_condition(c.path, cmds))
        for name, text in c.subcommands:
            out.append(f"complete -c shipyard -n {cond} -a {shlex.quote(name)} -d {shlex.quote(_short(text))}")
        for o in c.options:
            flags = " ".join(f"-l {n[2:]}" if n.startswith("--") else f"-s {n[1:]}" for n in o.names)
            value = {
                "": "",
                "words": f" -x -a {shlex.quote(' '.join(o.words))}",
                "files": " -r -F",
                "dirs": " -x -a '(__fish_complete_directories)'",
                "none": " -x",
            }[o.takes]
            out.append(f"complete -c shipyard -n {cond} {flags}{value} -d {shlex.quote(_short(o.help))}")
        if not c.subcommands and c.path:
            if c.positional == "files":
                out.append(f"complete -c shipyard -n {cond} -F")
            elif c.positional == "words":
                out.append(f"complete -c shipyard -n {cond} -a {shlex.quote(' '.join(c.words))}")
    return "\n".join(out) + "\n"


def _short(text: str) -> str:
    """A description one line long, as fish shows it beside a candidate."""
    first = " ".join(text.split())
    return first if len(first) <= 70 else first[:69] + "…"
