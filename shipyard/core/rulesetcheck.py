"""Checking a ruleset package folder as a homebrew author does before installing it
(``shipyard rulesets --check``): its manifest, its Python package against the hook
specification, its commands, its editor pages and its catalog, every problem at once.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from shipyard.core.catalogbuild import CatalogBuilder
from shipyard.core.errors import InputError

if TYPE_CHECKING:
    from shipyard.core.rulesetinfo import RulesetInfo


def _check_editor_pages(info: RulesetInfo) -> None:
    """The manifest's hand-written editor pages, ``module:Class``: the module imported under the
    plug-in guard (it imports PySide6: only ``rulesets --check`` and the editor do this) and the
    class able to be built as the editor builds it (:data:`shipyard.core.hookspec.EDITOR_PAGES_HOOK`)."""
    import importlib

    from shipyard.core import hookspec
    from shipyard.core.rulesetimport import plugin_guard

    named = info.manifest.editor_pages or ""
    module_name, _, attribute = named.partition(":")
    what = f"ruleset {info.id!r}: editor pages {named!r}"
    with plugin_guard(f"{what} cannot be imported", file=info.manifest_file, package=module_name):
        module = importlib.import_module(module_name)
    if attribute not in vars(module):
        raise InputError.single(
            f"{what}: the module {module_name!r} defines no {attribute!r}", file=info.manifest_file, path="editor_pages"
        )
    from types import SimpleNamespace

    named_class = SimpleNamespace(editor_pages=vars(module)[attribute], __file__=module.__file__, __name__=module_name)
    hookspec.check_contribution(named_class, (hookspec.EDITOR_PAGES_HOOK,), what)


def check_folder(folder: Path, notes: list[str] | None = None) -> RulesetInfo:
    """Read a ruleset package folder (its manifest, its Python package, its catalog) as an
    installed ruleset is read, without the cache; raise every problem at once.

    For ``shipyard rulesets --check PATH``: a homebrew author checks a ruleset before
    installing it. An installed ruleset's own folder is read as installed. Its text formats'
    and conversions' modules are checked by the command, after this
    (:func:`shipyard.core.textformats.check_contributions`: they load designs through
    :mod:`shipyard.core.designfile`, which loads catalogs through :mod:`shipyard.core.catalog`).
    """
    from shipyard.core.manifestreader import read_manifest
    from shipyard.core.registry import ruleset_module, rulesets
    from shipyard.core.rulesetimport import import_package, plugin_guard
    from shipyard.core.rulesetinfo import RulesetInfo

    manifest_file = (folder / "manifest.yaml") if folder.is_dir() else folder
    manifest = read_manifest(manifest_file)
    installed = next((i for i in rulesets() if i.manifest_file.resolve() == manifest_file.resolve()), None)
    if installed is not None:
        from shipyard.core import hookspec

        info, module = installed, ruleset_module(installed.id)
        with plugin_guard(f"the ruleset package {installed.package!r}", file=manifest_file):
            hookspec.check(module, installed.package, lazy=True)  # the hooks given when asked, too
    else:
        package = manifest_file.parent.name
        module = import_package(
            package, manifest_file.parent, path=str(manifest_file.parent.parent), lazy=True, ruleset_id=manifest.id
        )
        info = RulesetInfo(manifest, manifest_file, package, "(not installed)", "")
    if not (info.catalog / "ruleset.yaml").is_file():
        raise InputError.single("the catalog's ruleset.yaml is missing", file=info.catalog / "ruleset.yaml")
    from shipyard.core.rulesetimport import command_module

    for command in info.commands:
        command_module(info, command)
    if info.manifest.editor_pages:
        _check_editor_pages(info)
    builder = CatalogBuilder(info, module)
    builder.load_folder(info.catalog, builtin=True)
    builder.build((info.catalog,))
    if notes is not None:
        notes += _spelling_notes(manifest_file) + builder.inference_notes()
    return info


def _spelling_notes(manifest_file: Path) -> list[str]:
    """Where the manifest points at code in an older spelling (it reads; see
    :func:`shipyard.core.manifest.spelling_notes`), each with its line."""
    from shipyard.core.errors import format_path
    from shipyard.core.manifest import spelling_notes
    from shipyard.core.manifestreader import MAX_MANIFEST_BYTES
    from shipyard.core.yamlio import load_yaml

    doc = load_yaml(manifest_file, "ruleset manifest", max_bytes=MAX_MANIFEST_BYTES)
    out = []
    for loc, note in spelling_notes(doc.data):
        line, _ = doc.position(loc)
        out.append(f"line {line}: {format_path(loc)}: {note}")
    return out
