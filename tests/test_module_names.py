"""Module names say their concern: no two of Shipyard's modules share a file name, so a name in
a traceback, an import or a search points at one place; the editor's modules sit in folders by concern."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "shipyard"

# Names many packages have by design: a package's face, a program's entry.
SHARED_BY_DESIGN = {"__init__.py", "__main__.py"}
# The editor's top level: its entry point and its face; every other module is in a folder by concern.
EDITOR = PACKAGE / "_qt"
EDITOR_TOP = {"__init__.py", "app.py"}
# The editor's folders, top to bottom: each imports only folders on a lower line (the two
# on one line are peers that import none of each other). app.py stands above them all.
EDITOR_FLOORS = [
    ["window"],
    ["actions"],
    ["view"],
    ["form"],
    ["dialogs"],
    ["panels", "preview"],
    ["document"],
    ["widgets"],
]


def _modules() -> list[Path]:
    return [p for p in PACKAGE.rglob("*.py") if "rulesets" not in p.relative_to(PACKAGE).parts]


def test_no_two_modules_share_a_name() -> None:
    """The editor's modules too: its compare view, print action and form pages are not named
    like the engine's compare, the renderer's printing or the core's form."""
    by_name: dict[str, list[str]] = defaultdict(list)
    for path in _modules():
        if path.name not in SHARED_BY_DESIGN:
            by_name[path.name].append(path.relative_to(ROOT).as_posix())
    clashes = {name: paths for name, paths in by_name.items() if len(paths) > 1}
    assert clashes == {}


def test_the_editor_keeps_its_modules_in_folders_by_concern() -> None:
    """shipyard/_qt holds its entry point and folders (window, document, form, widgets, panels,
    preview, dialogs, actions); each folder is a package that says in its docstring what it holds."""
    loose = sorted(p.name for p in EDITOR.glob("*.py") if p.name not in EDITOR_TOP)
    assert loose == [], f"put these in the folder of their concern: {loose}"
    folders = sorted(p for p in EDITOR.iterdir() if p.is_dir() and p.name != "__pycache__")
    assert {f.name for f in folders} == {name for floor in EDITOR_FLOORS for name in floor}
    for folder in folders:
        init = folder / "__init__.py"
        assert init.is_file(), folder
        tree = ast.parse(init.read_text(encoding="utf-8"))
        assert ast.get_docstring(tree), init
        assert [n for n in tree.body if not isinstance(n, ast.Expr)] == [], f"{init} only describes its folder"
        assert sorted(folder.glob("*.py")) != [init], f"{folder} is empty"


def _editor_imports(path: Path) -> set[str]:
    """The editor's modules ``path`` imports, by their dotted names under shipyard._qt (those
    imported for type checking only too: they still tie the folders together)."""
    named: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("shipyard._qt"):
            base = node.module.removeprefix("shipyard._qt").lstrip(".")
            named |= {f"{base}.{a.name}".lstrip(".") for a in node.names}
        elif isinstance(node, ast.Import):
            named |= {a.name.removeprefix("shipyard._qt.") for a in node.names if a.name.startswith("shipyard._qt.")}
    return named


def test_the_editor_folders_import_only_those_below_them() -> None:
    """A newcomer reads the editor from the window down: no folder reaches up to one above it
    or across to a peer, so the folders never import each other round in a circle."""
    floor = {name: i for i, names in enumerate(EDITOR_FLOORS) for name in names}
    upward = []
    for path in EDITOR.rglob("*.py"):
        rel = path.relative_to(EDITOR)
        if len(rel.parts) < 2:
            continue  # app.py and the editor's face: above every folder
        here = rel.parts[0]
        for name in _editor_imports(path):
            there = name.split(".")[0]
            if there != here and there in floor and floor[there] <= floor[here]:
                upward.append(f"{rel.as_posix()} -> {name}")
    assert sorted(upward) == []


def test_the_old_home_of_the_picture_check_is_gone() -> None:
    assert not (PACKAGE / "core" / "art.py").exists()
    for path in [*_modules(), *(ROOT / "tests").rglob("*.py"), *(ROOT / "bench").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            named = [node.module] if isinstance(node, ast.ImportFrom) else []
            named += [a.name for a in node.names] if isinstance(node, ast.Import) else []
            assert "shipyard.core.art" not in named, path


def test_the_names_plugins_and_the_editor_import_from_the_old_homes_are_the_new_homes_objects() -> None:
    """registry and catalog were split by concern; what plug-ins and the editor import from
    them still works, and is the one object of its new home (not a copy)."""
    from shipyard.core import catalog, presets, registry, rulesetimport, rulesetinfo

    assert registry.plugin_guard is rulesetimport.plugin_guard
    assert registry.RulesetInfo is rulesetinfo.RulesetInfo
    assert (catalog.with_preset, catalog.apply_preset) == (presets.with_preset, presets.apply_preset)
    for name in ("get", "rulesets", "ids", "problems", "ruleset_module", "forget", "installed_folders", "offering"):
        assert getattr(registry, name).__module__ == "shipyard.core.registry", name
    assert catalog.load_catalog.__module__ == "shipyard.core.catalog"
