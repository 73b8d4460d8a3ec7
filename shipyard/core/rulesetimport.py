"""Importing a ruleset's code: its package, checked against the hook specification, and
the modules its manifest names (commands, text formats, conversions).

Everything here runs a plug-in's code, so all of it runs under the plug-in guard
(:mod:`shipyard.core.plugincode`): what the code raises or prints, or a loop, becomes an
input error naming the plug-in and what was being done.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from shipyard.core.entrypoints import BUILTIN_PACKAGE

if TYPE_CHECKING:
    from shipyard.core.manifest import Command
    from shipyard.core.model import RulesetModule
    from shipyard.core.rulesetinfo import RulesetInfo


def plugin_guard(what: str, file: str | Path | None = None, package: str | None = None) -> Any:
    """Run a plug-in's code while it is found, imported or called: whatever it raises (even
    ``SystemExit`` or ``KeyboardInterrupt``) becomes an input error naming ``what`` (the
    plug-in and what was being done), what it prints goes to stderr, and a loop is stopped
    after a time limit (see :mod:`shipyard.core.plugincode`). So that plug-in is skipped
    and everything else works."""
    from shipyard.core.plugincode import plugin_code

    return plugin_code(what, file, package)


def package_folder(package: str) -> Path | None:
    """The folder of ``package``, found without running it (only its parents are imported,
    under :func:`plugin_guard`: a parent that raises is an input error naming it)."""
    import importlib.util

    with plugin_guard(f"package {package!r} cannot be found: importing its parent package raised"):
        try:
            spec = importlib.util.find_spec(package)
        except (ImportError, ValueError):
            return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def import_package(
    package: str, where: Path, *, path: str | None = None, lazy: bool = False, ruleset_id: str | None = None
) -> RulesetModule:
    """Import a ruleset's package and check it against the hook specification
    (:mod:`shipyard.core.hookspec`): a package that cannot be imported, lacks a required
    hook, gives one a wrong signature or defines a misspelt one is an input error naming
    ``where`` or the hook's own file and line. Nothing is added to the module: an optional
    hook it leaves out is answered by :func:`shipyard.core.hookspec.optional` where used.
    ``lazy`` also checks the hooks the package gives only when asked (``rulesets --check``)."""
    import importlib

    from shipyard.core import hookspec

    if path is not None:
        sys.path.insert(0, path)
    try:
        with plugin_guard(f"the ruleset package {package!r} cannot be imported", file=where, package=package):
            module: Any = importlib.import_module(package)
        with plugin_guard(f"the ruleset package {package!r}", file=where, package=package):
            hookspec.check(module, package, lazy=lazy)
    finally:
        if path is not None:
            sys.path.remove(path)
    ruleset = ruleset_id or package
    # The package as Shipyard calls it: each hook's result checked, a plug-in's run under the guard.
    return hookspec.HookedModule(module, ruleset, package, plugin=not package.startswith(BUILTIN_PACKAGE))


def contributed(info: RulesetInfo, module: str) -> Any:
    """A contribution's module (a command, a text format, a conversion), imported now."""
    import importlib

    with plugin_guard(
        f"ruleset {info.id!r}: module {module!r} cannot be imported", file=info.manifest_file, package=module
    ):
        return importlib.import_module(module)


def command_module(info: RulesetInfo, command: Command) -> Any:
    """The module of a command the ruleset contributes, imported now and checked against
    :data:`shipyard.core.hookspec.COMMAND_HOOKS` (an input error naming the command if not)."""
    from shipyard.core import hookspec

    module = contributed(info, command.module)
    with plugin_guard(f"ruleset {info.id!r}: command {command.name!r}", file=info.manifest_file):
        hookspec.check_contribution(module, hookspec.COMMAND_HOOKS, f"ruleset {info.id!r}: command {command.name!r}")
    return module
