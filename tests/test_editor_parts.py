"""The main window is composed of parts, not assembled from mixins: each concern (menus,
recent files, autosave and recovery, drops, printing, comparing, rosters) is an object the window
holds, asking of it only what the part's own Protocol says; nothing in the editor stands
in for a method with ``raise NotImplementedError``."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EDITOR = ROOT / "shipyard" / "_qt"
WINDOW = EDITOR / "window" / "window.py"
PARTS = {
    "menus": "Menus",
    "recent_files": "RecentFiles",
    "recovery": "Recovery",
    "drops": "FileDrops",
    "printing": "Printing",
    "comparing": "Comparing",
    "rosters": "Rosters",
}


def _class(tree: ast.Module, name: str) -> ast.ClassDef:
    (found,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name]
    return found


def test_the_main_window_derives_from_qt_alone_and_holds_its_parts() -> None:
    tree = ast.parse(WINDOW.read_text(encoding="utf-8"))
    window = _class(tree, "MainWindow")
    assert [ast.unparse(b) for b in window.bases] == ["QMainWindow"]
    init = next(n for n in window.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    held = {
        t.attr: ast.unparse(node.value.func)
        for node in ast.walk(init)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
        for t in node.targets
        if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"
    }
    assert {name: held.get(name) for name in PARTS} == PARTS


def test_no_part_is_a_base_of_the_window_or_of_another_part() -> None:
    """A part's class derives from nothing of the editor's (a QObject at most, for Qt's events)."""
    editor_classes = set()
    for path in EDITOR.rglob("*.py"):
        editor_classes |= {
            n.name for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if isinstance(n, ast.ClassDef)
        }
    for module, name in [
        ("window/menus.py", "Menus"),
        ("window/recent.py", "RecentFiles"),
        ("window/recovery.py", "Recovery"),
        ("window/dropping.py", "FileDrops"),
        ("actions/printtopdf.py", "Printing"),
        ("actions/comparing.py", "Comparing"),
        ("window/rosters.py", "Rosters"),
    ]:
        part = _class(ast.parse((EDITOR / module).read_text(encoding="utf-8")), name)
        bases = [ast.unparse(b) for b in part.bases]
        assert not set(bases) & editor_classes, (name, bases)
        assert set(bases) <= {"QObject"}, (name, bases)


def test_nothing_in_the_editor_raises_not_implemented() -> None:
    for path in EDITOR.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and node.exc is not None:
                raised = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
                assert ast.unparse(raised) != "NotImplementedError", f"{path.relative_to(ROOT)}:{node.lineno}"
