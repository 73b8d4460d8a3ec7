"""The installed rulesets: their entry points read, their manifests read, looked up by id.

A ruleset is a Python package plus its catalog folder and templates, declared by its
distribution as a ``shipyard.rulesets`` entry point (:mod:`shipyard.core.entrypoints`)
naming its manifest (:mod:`shipyard.core.manifest`, read through
:mod:`shipyard.core.manifestreader`). Discovery reads the entry points and the manifests
only: no ruleset's code is imported until a design of it is read or made
(:func:`ruleset_module`, through :mod:`shipyard.core.rulesetimport`), so the editor's start
and ``shipyard --help`` cost a few file reads, not imports. A ruleset that cannot be read
(no manifest, a broken one, an id that does not match) is reported by :func:`problems` and
skipped; it never stops Shipyard.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from shipyard.core.entrypoints import EntryPoint, entry_points, is_builtin
from shipyard.core.errors import InputError, Problem
from shipyard.core.manifestreader import ManifestReader
from shipyard.core.rulesetimport import import_package, package_folder

# Re-exported: the editor and plug-ins guard their calls with it from here.
from shipyard.core.rulesetimport import plugin_guard as plugin_guard

# Re-exported: the editor and plug-ins name the type from here.
from shipyard.core.rulesetinfo import RulesetInfo as RulesetInfo

if TYPE_CHECKING:
    from shipyard.core.model import RulesetModule


@dataclass
class _Registry:
    rulesets: dict[str, RulesetInfo]
    problems: list[Problem]


@cache
def _registry() -> _Registry:
    """Every entry point read under :func:`plugin_guard`, Shipyard's own rulesets first.

    A plug-in declaring the id of a built-in ruleset is skipped before any of its code
    runs, with a note naming it: a built-in ruleset is never replaced by whichever
    distribution happens to be found first."""
    rulesets: dict[str, RulesetInfo] = {}
    problems: list[Problem] = []
    reader = ManifestReader()
    found = entry_points(problems=problems)
    builtin_ids = {ep.name for ep in found if is_builtin(ep)}
    for ep in sorted(found, key=lambda e: not is_builtin(e)):  # stable: built-ins first, then path order
        where = f"entry point {ep.name!r} of {ep.distribution} {ep.version}".rstrip()
        if not is_builtin(ep) and ep.name in builtin_ids:
            problems.append(
                Problem(
                    f"{where}: declares ruleset {ep.name!r}, which is built into Shipyard; "
                    f"the built-in ruleset is used and this plug-in ({ep.package}) is skipped"
                )
            )
            continue
        try:
            with plugin_guard(f"{where}: reading the plug-in raised"):
                info = _read_entry(ep, where, reader, rulesets)
        except InputError as exc:
            problems += [
                p if p.message.startswith(where) else replace(p, message=f"{where}: {p.message}") for p in exc.problems
            ]
            continue
        rulesets[info.id] = info
    reader.save()
    return _Registry(dict(sorted(rulesets.items(), key=lambda kv: kv[1].name.lower())), problems)


def _read_entry(ep: EntryPoint, where: str, reader: ManifestReader, known: dict[str, RulesetInfo]) -> RulesetInfo:
    """One entry point's ruleset, read from its manifest; an input error says why not."""
    folder = package_folder(ep.package)
    if folder is None:
        raise InputError.single(f"package {ep.package!r} cannot be found")
    manifest = reader.read(folder / ep.manifest)
    if manifest.id != ep.name:
        raise InputError.single(f"the manifest says id {manifest.id!r}", file=folder / ep.manifest, path="id")
    if manifest.id in known:
        raise InputError.single(
            f"ruleset {manifest.id!r} is already installed by {known[manifest.id].distribution}; this one is ignored"
        )
    return RulesetInfo(manifest, folder / ep.manifest, ep.package, ep.distribution, ep.version)


def rulesets() -> list[RulesetInfo]:
    """Every installed ruleset, by name."""
    return list(_registry().rulesets.values())


def ids() -> list[str]:
    return list(_registry().rulesets)


def problems() -> list[Problem]:
    """Rulesets that are declared but could not be read (each skipped)."""
    return list(_registry().problems)


def get(ruleset_id: object, *, file: str | Path | None = None, path: str | None = None) -> RulesetInfo:
    """The installed ruleset ``ruleset_id``; an input error with the installed ids if there is none."""
    found = _registry().rulesets.get(ruleset_id) if isinstance(ruleset_id, str) else None
    if found is not None:
        return found
    from shipyard.core.suggest import did_you_mean
    from shipyard.core.termtext import quote

    installed = ids()
    hint = did_you_mean(str(ruleset_id), installed) if isinstance(ruleset_id, str) else ""
    raise InputError.single(
        f"unknown ruleset {quote(ruleset_id)}"
        + (f"; {hint}" if hint else "")
        + ("" if installed else "; none is installed"),
        file=file,
        path=path,
        allowed=", ".join(installed) or None,
    )


def installed_folders() -> list[Path]:
    """The folders Shipyard and its rulesets are installed with: every ruleset's catalog,
    samples and templates, and Shipyard's own catalogs and templates. They are shared
    (every user's samples), so nothing a user saves goes into them."""
    from shipyard.core.resources import builtin_catalog_root, builtin_template_root

    folders = [builtin_catalog_root(), builtin_template_root()]
    for info in rulesets():
        folders += [info.catalog, info.samples, *([info.templates] if info.templates else [])]
    return list(dict.fromkeys(f.resolve() for f in folders))


def is_installed(file: str | Path) -> bool:
    """Whether ``file`` is inside one of the :func:`installed_folders` (a bundled sample)."""
    target = Path(file).resolve()
    return any(target.is_relative_to(folder) for folder in installed_folders())


def offering(attr: str, item_id: str) -> list[RulesetInfo]:
    """The rulesets whose manifest lists ``item_id`` among its ``attr`` (kinds, formats, conversions)."""
    out = []
    for info in rulesets():
        entries = getattr(info, attr)
        if any(e.accepts(item_id) if attr == "kinds" else getattr(e, "id", None) == item_id for e in entries):
            out.append(info)
    return out


@cache
def ruleset_module(ruleset_id: str) -> RulesetModule:
    """The ruleset's Python package, imported the first time it is needed."""
    info = get(ruleset_id)
    return import_package(info.package, info.manifest_file, ruleset_id=ruleset_id)


def forget() -> None:
    """Read the entry points and manifests again (tests that install a ruleset use this)."""
    _registry.cache_clear()
    ruleset_module.cache_clear()
