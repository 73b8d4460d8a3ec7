"""Load a ruleset's catalog: its built-in folder with the user's folders layered on, a
preset applied, kept by what it is made from.

Which folder is a ruleset's and which Python package holds its mechanisms comes from the
registry (:mod:`shipyard.core.registry`); a catalog is built from its folders by
:mod:`shipyard.core.catalogbuild` and presets are applied by :mod:`shipyard.core.presets`;
the catalog's own types are in :mod:`shipyard.core.model`. A loaded catalog is kept in this
process and in the user's cache (:mod:`shipyard.core.catalog_cache`) by a key of every
file it is made from, so a changed file is read again and never answered stale.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from shipyard.core.catalogbuild import CatalogBuilder, refused, yaml_files
from shipyard.core.errors import InputError
from shipyard.core.items import RulesetMeta
from shipyard.core.model import Catalog

# Re-exported: plug-ins and the editor apply presets with these from here.
from shipyard.core.presets import apply_preset as apply_preset
from shipyard.core.presets import with_preset as with_preset
from shipyard.core.resources import user_data_folder
from shipyard.core.safepaths import UnsafePath, subfolder
from shipyard.core.termtext import quote

if TYPE_CHECKING:
    from shipyard.core.catalog_cache import CacheKey


def user_catalog_folder() -> Path:
    """The user's own catalog folder (house rules), per the XDG base directory spec."""
    return user_data_folder() / "catalogs"


def available_rulesets() -> list[str]:
    """The ids of the installed rulesets (see :mod:`shipyard.core.registry`)."""
    from shipyard.core.registry import ids

    return ids()


def load_catalog(
    ruleset_id: str,
    extra_folders: tuple[Path, ...] | list[Path] = (),
    *,
    preset: str | None = None,
    use_user_folder: bool = True,
) -> Catalog:
    """The catalog of ``ruleset_id`` with user folders layered on, and ``preset`` applied."""
    held = _held.get()
    wanted = (ruleset_id, tuple(map(str, extra_folders)), preset, use_user_folder)
    if held is not None and wanted in held:
        return held[wanted]
    layers = _layers(ruleset_id, extra_folders, use_user_folder)
    base = _load_layers(ruleset_id, layers, _cache_key(ruleset_id, layers))
    catalog = apply_preset(base, preset or base.meta.default_preset)
    if held is not None:
        held[wanted] = catalog
    return catalog


def catalog_digest(
    ruleset_id: str, extra_folders: tuple[Path, ...] | list[Path] = (), *, use_user_folder: bool = True
) -> str:
    """A digest of everything the catalog :func:`load_catalog` gives for these arguments is
    made from, whatever its preset (the key its cache keeps it by: every catalog and preset
    file, built-in and the user's, their contents, the code that builds it, the versions),
    without loading it: what was worked out from a catalog and kept (the hangar's verdicts)
    is stale when this differs. The same errors as :func:`load_catalog` (an unknown
    ruleset, a folder refused)."""
    from shipyard.core import catalog_cache

    layers = _layers(ruleset_id, extra_folders, use_user_folder)
    key = _cache_key(ruleset_id, layers)
    if key is None:
        raise _no_catalog(ruleset_id)
    return catalog_cache.key_digest(key)


def _layers(ruleset_id: str, extra_folders: tuple[Path, ...] | list[Path], use_user_folder: bool) -> tuple[Path, ...]:
    """The folders layered on the ruleset's own: the user's, then ``extra_folders``, each one's
    RULESET subfolder where it has one."""
    folders = [*([user_catalog_folder()] if use_user_folder else []), *map(Path, extra_folders)]
    try:  # D/RULESET must be a real folder: a link (to /etc, say) is refused, not followed
        layers = tuple(layer for f in folders if (layer := subfolder(f, ruleset_id)) is not None)
    except UnsafePath as exc:
        raise refused(exc) from None
    for f in extra_folders:
        if not Path(f).is_dir():
            raise InputError.single("catalog folder does not exist", file=f)
    return layers


def _no_catalog(ruleset_id: str) -> InputError:
    from shipyard.core.registry import get

    return InputError.single(
        f"ruleset {quote(ruleset_id)} has no catalog: its ruleset.yaml is missing",
        file=get(ruleset_id).catalog / "ruleset.yaml",
    )


_held: ContextVar[dict[tuple[object, ...], Catalog] | None] = ContextVar("catalogs_held", default=None)


@contextmanager
def catalogs_held() -> Iterator[None]:
    """Within it (in this thread), each catalog is checked against its files once, when it is
    first loaded, and then given as it was: a scan reading thousands of designs does not
    look at every catalog file again for each (a catalog file changed during the scan is
    read by the next one)."""
    token = _held.set({})
    try:
        yield
    finally:
        _held.reset(token)


def _cache_key(ruleset_id: str, layers: tuple[Path, ...]) -> CacheKey | None:
    """What the catalog of these folders is made from (see :mod:`shipyard.core.catalog_cache`);
    None when its ruleset.yaml is missing (:func:`_load_layers` says so)."""
    from shipyard.core import catalog_cache
    from shipyard.core.registry import get

    info = get(ruleset_id)
    root = info.catalog
    if not (root / "ruleset.yaml").is_file():
        return None
    folders = (root, *layers)
    files = [info.manifest_file, *(f for d in folders for f in _listed(d))]
    return catalog_cache.key(ruleset_id, folders, files, catalog_cache.code_digests(root, info.code_files))


# folder -> (its status and its presets folder's, its catalog files): see _listed
_listings: dict[Path, tuple[tuple[tuple[int, ...] | None, ...], list[Path]]] = {}


def _listed(folder: Path) -> list[Path]:
    """:func:`~shipyard.core.catalogbuild.yaml_files` of ``folder``, listed again only when the folder or its presets
    folder changed (a file added, removed or renamed changes its folder's modification and
    change times): every load of a catalog checks its files, and most loads in a process
    are of a catalog whose folders did not change."""
    status = (_status(folder), _status(folder / "presets"))
    known = _listings.get(folder)
    if known is not None and known[0] == status:
        return known[1]
    files = yaml_files(folder)
    _listings[folder] = (status, files)
    return files


def _status(path: Path) -> tuple[int, ...] | None:
    try:
        st = path.lstat()
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_mode, st.st_mtime_ns, st.st_ctime_ns)


@lru_cache(maxsize=16)
def _load_layers(ruleset_id: str, layers: tuple[Path, ...], key: CacheKey | None) -> Catalog:
    """The catalog of these folders, made from exactly what ``key`` says: kept in this
    process by that key (a file changed since is another key, so it is read again, never a
    stale catalog), and in the user's cache between processes."""
    from shipyard.core import catalog_cache
    from shipyard.core.registry import get, ruleset_module

    info = get(ruleset_id)
    root = info.catalog
    if key is None:
        raise _no_catalog(ruleset_id)
    folders = (root, *layers)
    # The package first, under the plug-in guard (plugincode): the cache names its classes,
    # never imports them, and a plug-in's import is guarded wherever it happens.
    module = ruleset_module(ruleset_id)
    import shipyard.core.schema  # noqa: F401 - the same: the form's schema is made of its classes

    trusted = ("shipyard", info.package.split(".")[0])
    cached = catalog_cache.read(key, trusted)
    if (  # the catalog says whose it is, as its key did
        isinstance(cached, Catalog)
        and cached.base is None
        and isinstance(cached.meta, RulesetMeta)
        and cached.meta.id == ruleset_id
    ):
        cached.attach(module)  # modules are not cached
        return cached
    builder = CatalogBuilder(info, module)
    builder.load_folder(root, builtin=True)
    for layer in layers:
        builder.load_folder(layer, builtin=False)
    catalog = builder.build(folders)  # every preset applied (checked), and cached with it
    catalog_cache.write(key, catalog, trusted)
    return catalog
