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

import contextlib
import os
import sys
from dataclasses import dataclass
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


def entry_points(path: list[str] | None = None) -> list[EntryPoint]:
    """Every ``shipyard.rulesets`` entry on ``path`` (default ``sys.path``), first distribution wins."""
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
            try:
                with open(os.path.join(where or ".", folder, "entry_points.txt"), encoding="utf-8") as fh:
                    text = fh.read()
            except OSError:
                continue
            seen.add(dist)
            for name, value in _parse_entry_points(text).get(GROUP, {}).items():
                package, _, manifest = value.partition(":")
                found.append(
                    EntryPoint(name, package.strip(), manifest.strip() or DEFAULT_MANIFEST, dist, version, where)
                )
    return found


# --- reading manifests ------------------------------------------------------------------------


def _package_folder(package: str) -> Path | None:
    """The folder of ``package``, found without running it (only its parents are imported)."""
    import importlib.util

    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def _stamp(file: Path) -> str:
    st = file.stat()
    return f"{file.resolve()}:{st.st_size}:{st.st_mtime_ns}"


def _cache_key() -> str:
    """What a cached manifest depends on besides its file: the manifest model and pydantic."""
    import pydantic

    from shipyard.core import manifest

    return f"{_stamp(Path(manifest.__file__))}|{pydantic.VERSION}|{sys.version}"


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

    A manifest validated before (same file, size and time; same manifest model) comes from
    the cache: reading YAML with positions means importing ruamel.yaml, and building the
    manifest models' validators costs every start-up ~10 ms, for files that change only when
    a ruleset is installed. Any problem with the cache means a normal read, never an error
    (SHIPYARD_NO_CACHE=1 bypasses it).
    """

    def __init__(self) -> None:
        self.key = _cache_key()
        self.use_cache = not os.environ.get("SHIPYARD_NO_CACHE")
        self.entries = _read_cache(self.key) if self.use_cache else {}
        self.changed = False

    def read(self, file: Path) -> Manifest:
        if not file.is_file():
            raise InputError.single("the ruleset's manifest is missing", file=file)
        stamp = _stamp(file)
        found = self.entries.get(stamp)
        if found is not None:
            return found
        manifest = _validated(file)
        older = f"{file.resolve()}:"
        self.entries = {k: v for k, v in self.entries.items() if not k.startswith(older)}
        self.entries[stamp] = manifest
        self.changed = True
        return manifest

    def save(self) -> None:
        """Write the cache if a manifest was read anew."""
        if self.use_cache and self.changed:
            _write_cache(self.key, self.entries)
            self.changed = False


def _validated(file: Path) -> Manifest:
    from shipyard.core.manifest import Manifest
    from shipyard.core.yamlio import load_yaml, validate

    doc = load_yaml(file)
    return validate(doc, Manifest, doc.data, ())  # type: ignore[no-any-return]  # raises with positions


def _cache_file() -> Path:
    from shipyard.core.resources import user_cache_folder

    return user_cache_folder() / "manifests.pickle"


def _read_cache(key: str) -> dict[str, Manifest]:
    import pickle

    from shipyard.core.manifest import Manifest

    try:
        with _cache_file().open("rb") as fh:
            stored = pickle.load(fh)
    except Exception:  # missing, unreadable, written by another version: read the files
        return {}
    if not isinstance(stored, dict) or stored.get("key") != key or not isinstance(stored.get("manifests"), dict):
        return {}
    return {k: v for k, v in stored["manifests"].items() if isinstance(k, str) and isinstance(v, Manifest)}


def _write_cache(key: str, entries: dict[str, Manifest]) -> None:
    """Written whole to a temporary file, then renamed: a reader never sees half a cache."""
    import pickle
    import tempfile

    target = _cache_file()
    tmp: Path | None = None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(dir=target.parent, prefix=".manifests.", suffix=".tmp")
        tmp = Path(name)
        with os.fdopen(fd, "wb") as fh:
            pickle.dump({"key": key, "manifests": entries}, fh, protocol=pickle.HIGHEST_PROTOCOL)
        tmp.replace(target)
    except OSError:
        if tmp is not None:
            with contextlib.suppress(OSError):
                tmp.unlink(missing_ok=True)


@dataclass
class _Registry:
    rulesets: dict[str, RulesetInfo]
    problems: list[Problem]


@cache
def _registry() -> _Registry:
    rulesets: dict[str, RulesetInfo] = {}
    problems: list[Problem] = []
    reader = ManifestReader()
    for ep in entry_points():
        where = f"entry point {ep.name!r} of {ep.distribution} {ep.version}".rstrip()
        folder = _package_folder(ep.package)
        if folder is None:
            problems.append(Problem(f"{where}: package {ep.package!r} cannot be found"))
            continue
        try:
            manifest = reader.read(folder / ep.manifest)
        except InputError as exc:
            problems += [
                Problem(f"{where}: {p.message}", p.file, p.line, p.column, p.path, p.allowed) for p in exc.problems
            ]
            continue
        if manifest.id != ep.name:
            problems.append(
                Problem(f"{where}: the manifest says id {manifest.id!r}", str(folder / ep.manifest), path="id")
            )
            continue
        if manifest.id in rulesets:
            first = rulesets[manifest.id]
            problems.append(
                Problem(
                    f"{where}: ruleset {manifest.id!r} is already installed by {first.distribution}; "
                    "this one is ignored"
                )
            )
            continue
        rulesets[manifest.id] = RulesetInfo(manifest, folder / ep.manifest, ep.package, ep.distribution, ep.version)
    reader.save()
    return _Registry(dict(sorted(rulesets.items(), key=lambda kv: kv[1].name.lower())), problems)


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


# What a ruleset's package must define (see shipyard.core.model.RulesetModule), and the
# defaults of what it may leave out.
REQUIRED_ATTRIBUTES = ("ITEM_KINDS", "RULE_TYPES", "Design", "resolve", "view", "derive", "new_design")
OPTIONAL_DEFAULTS: dict[str, Any] = {
    "variants": lambda design: [],
    "compare_variants": lambda ctx, forms: None,
}


def import_package(package: str, where: Path, *, path: str | None = None) -> RulesetModule:
    """Import a ruleset's package and check it against the contract the core relies on;
    a package that cannot be imported or lacks a part is an input error naming ``where``."""
    import importlib

    if path is not None:
        sys.path.insert(0, path)
    try:
        module: Any = importlib.import_module(package)
    except Exception as exc:  # a broken plug-in is the user's input problem, not our crash
        raise InputError.single(
            f"the ruleset package {package!r} cannot be imported: {type(exc).__name__}: {exc}", file=where
        ) from None
    finally:
        if path is not None:
            sys.path.remove(path)
    missing = [a for a in REQUIRED_ATTRIBUTES if not hasattr(module, a)]
    if missing:
        raise InputError.single(
            f"the ruleset package {package!r} lacks {', '.join(missing)}",
            file=where,
            allowed=", ".join(REQUIRED_ATTRIBUTES),
        )
    for name, default in OPTIONAL_DEFAULTS.items():
        if not hasattr(module, name):
            setattr(module, name, default)
    return module  # type: ignore[no-any-return]


@cache
def ruleset_module(ruleset_id: str) -> RulesetModule:
    """The ruleset's Python package, imported the first time it is needed."""
    info = get(ruleset_id)
    return import_package(info.package, info.manifest_file)


def contributed(info: RulesetInfo, module: str) -> Any:
    """A contribution's module (a command, a text format, a conversion), imported now."""
    import importlib

    try:
        return importlib.import_module(module)
    except Exception as exc:
        raise InputError.single(
            f"ruleset {info.id!r}: module {module!r} cannot be imported: {type(exc).__name__}: {exc}",
            file=info.manifest_file,
        ) from None


def forget() -> None:
    """Read the entry points and manifests again (tests that install a ruleset use this)."""
    _registry.cache_clear()
    ruleset_module.cache_clear()
