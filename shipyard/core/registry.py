"""The installed rulesets: found through the ``shipyard.rulesets`` entry point group.

A ruleset is a Python package plus its catalog folder and templates. Its distribution
declares it as an entry point, the built-in ones exactly like a ruleset installed with
``pip install``::

    [project.entry-points."shipyard.rulesets"]
    my-ruleset = "my_ruleset:manifest.yaml"

The value names the package and its manifest file (see :mod:`shipyard.core.manifest`).
Discovery reads the entry points and the manifests only: no ruleset's code is imported
until a design of it is read or made (:func:`ruleset_module`), so the editor's start
and ``shipyard --help`` cost a few file reads, not imports. A ruleset that cannot be
read (no manifest, a broken one, an id that does not match) is reported by
:func:`problems` and skipped; it never stops Shipyard.

Why not ``importlib.metadata``: importing it costs more than a bare Qt window's start
here (email, zipfile, csv ...; measured 85-160 ms), and we need one group of one file
per distribution. Entry points live in ``*.dist-info/entry_points.txt`` (an INI file, per
the PyPA entry points specification) on ``sys.path``; reading those is about 1 ms.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from shipyard.core.errors import InputError, Problem

if TYPE_CHECKING:
    from shipyard.core.manifest import Command, Conversion, DesignKind, Manifest, TextFormat
    from shipyard.core.model import RulesetModule

GROUP = "shipyard.rulesets"
DEFAULT_MANIFEST = "manifest.yaml"
DATA_PREFIX = "shipyard-data:"
# Shipyard's own distribution: the rulesets it installs win over a plug-in declaring their id.
BUILTIN_DISTRIBUTION = "shipyard"
BUILTIN_PACKAGE = "shipyard.rulesets."
# A distribution's entry points are a few hundred bytes; a manifest is 1-3 KB (the
# built-in ones). Bigger files are refused unread: a 5 MB manifest took 34 s to parse.
MAX_ENTRY_POINTS_BYTES = 256 * 1024
MAX_MANIFEST_BYTES = 64 * 1024
CACHE_FILE = "manifests.json"  # in the user's cache folder (shipyard.core.cachefile)


@dataclass(frozen=True)
class EntryPoint:
    """One ``shipyard.rulesets`` entry: the ruleset id, its package and manifest, who installed it."""

    name: str
    package: str
    manifest: str
    distribution: str
    version: str
    location: str


@dataclass(frozen=True)
class RulesetInfo:
    """An installed ruleset as its manifest describes it, with its folders resolved."""

    manifest: Manifest
    manifest_file: Path
    package: str
    distribution: str
    dist_version: str

    @property
    def id(self) -> str:
        return self.manifest.id

    @property
    def name(self) -> str:
        return self.manifest.name

    @property
    def version(self) -> str:
        return self.manifest.version

    @property
    def kinds(self) -> list[DesignKind]:
        return self.manifest.kinds

    @property
    def commands(self) -> list[Command]:
        return self.manifest.commands

    @property
    def formats(self) -> list[TextFormat]:
        return self.manifest.formats

    @property
    def conversions(self) -> list[Conversion]:
        return self.manifest.conversions

    def path(self, value: str) -> Path:
        """A path the manifest gives: relative to its folder, or in Shipyard's data folders."""
        if value.startswith(DATA_PREFIX):
            from shipyard.core.resources import data_path

            return data_path(value[len(DATA_PREFIX) :])
        return (self.manifest_file.parent / value).resolve()

    @property
    def catalog(self) -> Path:
        return self.path(self.manifest.catalog)

    @property
    def templates(self) -> Path | None:
        return self.path(self.manifest.templates) if self.manifest.templates else None

    @property
    def samples(self) -> Path:
        return self.path(self.manifest.samples) if self.manifest.samples else self.catalog / "examples"

    @property
    def reading(self) -> Path | None:
        """The Markdown file saying how Shipyard reads the rules, if the manifest names one."""
        return self.path(self.manifest.reading) if self.manifest.reading else None

    def kind(self, kind_id: str) -> DesignKind | None:
        """The kind ``kind_id`` is (its own entry, or the one whose ``matches`` takes it)."""
        return next((k for k in self.kinds if k.accepts(kind_id)), None)

    def code_files(self) -> list[Path]:
        """The ruleset's Python files, whose changes make a cached catalog stale."""
        folder = self.manifest_file.parent
        return sorted(folder.rglob("*.py"))


# --- reading entry points ------------------------------------------------------------------


def _parse_entry_points(text: str) -> dict[str, dict[str, str]]:
    """The sections of an ``entry_points.txt``: ``[group]`` headers and ``name = value`` lines."""
    groups: dict[str, dict[str, str]] = {}
    current: dict[str, str] | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            current = groups.setdefault(line[1:-1].strip(), {})
        elif current is not None and "=" in line:
            name, _, value = line.partition("=")
            current.setdefault(name.strip(), value.strip())
    return groups


def _distribution(folder: str) -> tuple[str, str]:
    """(name, version) from a ``name-version.dist-info`` or ``name.egg-info`` folder name."""
    stem = folder.rsplit(".", 1)[0]
    name, _, version = stem.partition("-")
    return name.replace("_", "-").lower(), version


def entry_points(
    path: list[str] | None = None, problems: list[Problem] | None = None, group: str = GROUP
) -> list[EntryPoint]:
    """Every entry of ``group`` (``shipyard.rulesets``, or ``shipyard.capabilities``: see
    :mod:`shipyard.core.capability`) on ``path`` (default ``sys.path``), first distribution wins.

    Any installed distribution's ``entry_points.txt`` is read, so each is read as a
    stranger's file (:func:`_read_entry_points`): one that cannot be read is noted in
    ``problems`` and skipped, never a hang or a crash."""
    seen: set[str] = set()
    found: list[EntryPoint] = []
    for where in sys.path if path is None else path:
        try:
            names = sorted(e for e in os.listdir(where or ".") if e.endswith((".dist-info", ".egg-info")))
        except OSError:
            continue
        for folder in names:
            dist, version = _distribution(folder)
            if dist in seen:
                continue
            file = Path(where or ".", folder, "entry_points.txt")
            try:
                text = _read_entry_points(file)
            except InputError as exc:
                if problems is not None:
                    problems += [
                        replace(p, message=f"distribution {dist} {version}: {p.message}; skipped") for p in exc.problems
                    ]
                continue
            if text is None:
                continue
            seen.add(dist)
            for name, value in _parse_entry_points(text).get(group, {}).items():
                package, _, manifest = value.partition(":")
                found.append(
                    EntryPoint(name, package.strip(), manifest.strip() or DEFAULT_MANIFEST, dist, version, where)
                )
    return found


def _read_entry_points(file: Path) -> str | None:
    """The text of a distribution's ``entry_points.txt``; None when it has none.

    A pipe, a device or a folder is refused before it is opened (a FIFO would wait
    forever), a file over :data:`MAX_ENTRY_POINTS_BYTES` is refused unread, and text that
    is not UTF-8 is an input error naming the file."""
    from shipyard.core.usertext import decode, read_limited

    try:
        os.lstat(file)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise InputError.single(f"cannot read file: {exc.strerror or exc}", file=file) from None
    raw = read_limited(file, str(file), MAX_ENTRY_POINTS_BYTES, "an entry_points.txt")
    return decode(raw, str(file))


# --- reading manifests ------------------------------------------------------------------------


def plugin_guard(what: str, file: str | Path | None = None, package: str | None = None) -> Any:
    """Run a plug-in's code while it is found, imported or called: whatever it raises (even
    ``SystemExit`` or ``KeyboardInterrupt``) becomes an input error naming ``what`` (the
    plug-in and what was being done), what it prints goes to stderr, and a loop is stopped
    after a time limit (see :mod:`shipyard.core.plugincode`). So that plug-in is skipped
    and everything else works."""
    from shipyard.core.plugincode import plugin_code

    return plugin_code(what, file, package)


def _package_folder(package: str) -> Path | None:
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


def _stamp(file: Path) -> str:
    """A manifest's entry in the cache: its path and its content's digest."""
    from shipyard.core.cachefile import digest

    return f"{file.resolve()}:{digest(file)}"


def _cache_key() -> str:
    """What a cached manifest depends on besides its file: the manifest model and pydantic."""
    import pydantic

    import shipyard
    from shipyard.core import manifest

    return f"{_stamp(Path(manifest.__file__))}|{shipyard.__version__}|{pydantic.VERSION}|{sys.version}"


def read_manifest(file: Path) -> Manifest:
    """Read and validate one manifest; every problem names the file, line and column."""
    reader = ManifestReader()
    try:
        return reader.read(file)
    finally:
        reader.save()


class ManifestReader:
    """Manifests read through a small cache of the validated objects in the user's cache
    folder, the cache file read once and written once however many manifests are read.

    A manifest validated before (same file and content; same manifest model) comes from
    the cache: reading YAML with positions means importing ruamel.yaml, and building the
    manifest models' validators costs every start-up ~10 ms, for files that change only when
    a ruleset is installed. A manifest that failed is remembered too, with its problems,
    until the file changes: an invalid plug-in's manifest was parsed again on every
    command (0.6 MB: 4 s each, even for ``--help``). Any problem with the cache means a
    normal read, never an error (SHIPYARD_NO_CACHE=1 bypasses it).
    """

    def __init__(self) -> None:
        self.key = _cache_key()
        self.use_cache = not os.environ.get("SHIPYARD_NO_CACHE")
        self.entries = _read_cache(self.key) if self.use_cache else {}
        self.changed = False

    def read(self, file: Path) -> Manifest:
        from shipyard.core.manifest import Manifest

        if not file.is_file():
            raise InputError.single("the ruleset's manifest is missing", file=file)
        stamp = _stamp(file)
        found = self.entries.get(stamp)
        if isinstance(found, Manifest):
            return found
        if isinstance(found, list):  # it failed before, and has not changed since
            raise InputError(list(found))
        try:
            result: Manifest | list[Problem] = _validated(file)
        except InputError as exc:
            result = exc.problems
        older = f"{file.resolve()}:"
        self.entries = {k: v for k, v in self.entries.items() if not k.startswith(older)}
        self.entries[stamp] = result
        self.changed = True
        if isinstance(result, list):
            raise InputError(list(result))
        return result

    def save(self) -> None:
        """Write the cache if a manifest was read anew."""
        if self.use_cache and self.changed:
            from shipyard.core import cachefile

            cachefile.write(CACHE_FILE, self.key, self.entries)
            self.changed = False


def _validated(file: Path) -> Manifest:
    from shipyard.core.manifest import Manifest
    from shipyard.core.yamlio import load_yaml, validate

    doc = load_yaml(file, "ruleset manifest", max_bytes=MAX_MANIFEST_BYTES)
    return validate(doc, Manifest, doc.data, ())  # type: ignore[no-any-return]  # raises with positions


def _read_cache(key: str) -> dict[str, Manifest | list[Problem]]:
    """The cached manifests (and remembered failures) of this manifest model, or none."""
    from shipyard.core import cachefile
    from shipyard.core.manifest import Manifest

    stored = cachefile.read(CACHE_FILE, key)
    if not isinstance(stored, dict):
        return {}
    return {
        k: v
        for k, v in stored.items()
        if isinstance(k, str)
        and (isinstance(v, Manifest) or (isinstance(v, list) and all(isinstance(p, Problem) for p in v)))
    }


@dataclass
class _Registry:
    rulesets: dict[str, RulesetInfo]
    problems: list[Problem]


def _is_builtin(ep: EntryPoint) -> bool:
    return ep.distribution == BUILTIN_DISTRIBUTION and ep.package.startswith(BUILTIN_PACKAGE)


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
    builtin_ids = {ep.name for ep in found if _is_builtin(ep)}
    for ep in sorted(found, key=lambda e: not _is_builtin(e)):  # stable: built-ins first, then path order
        where = f"entry point {ep.name!r} of {ep.distribution} {ep.version}".rstrip()
        if not _is_builtin(ep) and ep.name in builtin_ids:
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
    folder = _package_folder(ep.package)
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


@cache
def ruleset_module(ruleset_id: str) -> RulesetModule:
    """The ruleset's Python package, imported the first time it is needed."""
    info = get(ruleset_id)
    return import_package(info.package, info.manifest_file, ruleset_id=ruleset_id)


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


def forget() -> None:
    """Read the entry points and manifests again (tests that install a ruleset use this)."""
    _registry.cache_clear()
    ruleset_module.cache_clear()
