"""Reading a ruleset's manifest (:mod:`shipyard.core.manifest`) through a small cache.

A manifest validated before (same file and content, same manifest model, same pydantic)
comes from the cache in the user's cache folder (:mod:`shipyard.core.cachefile`), so a
start that reads every installed manifest needs neither ruamel.yaml nor the manifest
models' validators. A manifest that failed is remembered with its problems until the file
changes, so a broken plug-in is not parsed again by every command.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from shipyard.core.errors import InputError, Problem

if TYPE_CHECKING:
    from shipyard.core.manifest import Manifest

# A manifest is a few KB (the built-in ones); a much bigger file is refused unread, as
# parsing one with positions would hold up every command.
MAX_MANIFEST_BYTES = 64 * 1024
CACHE_FILE = "manifests.json"  # in the user's cache folder (shipyard.core.cachefile)


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
    manifest models' validators is a cost of every start, for files that change only when
    a ruleset is installed. A manifest that failed is remembered too, with its problems,
    until the file changes: otherwise an invalid plug-in's manifest, however large, would
    be parsed again by every command, even ``--help``. Any problem with the cache means a
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
