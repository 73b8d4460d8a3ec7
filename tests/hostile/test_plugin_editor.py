"""Hostile plug-ins in the editor (issue 44, items 9 and 10): a plug-in whose ``derive`` or
hand-written editor pages raise while its sample opens took the whole editor down (exit 1)
with every other design in it, and one whose ``derive`` loops hung it. The error now shows
in that design's tab and every other design stays open and editable.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPlainTextEdit

from shipyard._qt.view.documentview import DocumentView
from shipyard._qt.window.brokentab import BrokenDesign
from shipyard._qt.window.window import MainWindow

from ..conftest import install_ruleset
from ..test_bad_plugins import ARROW
from ..test_editor import field, type_into, window
from .test_plugins import DEMO

__all__ = ["window"]  # the fixture, used by name

pytestmark = pytest.mark.usefixtures("fresh_catalogs")

HOSTILE = {
    "derive": ("def derive(ctx):\n    raise RuntimeError('the plug-in broke')\n", None),
    "derive loops": ("def derive(ctx):\n    while True:\n        pass\n", None),
    "editor pages": (
        "",
        "class Pages:\n"
        "    def __init__(self, doc, binder, report_error):\n"
        "        raise RuntimeError('the plug-in broke')\n",
    ),
}


def hostile_plugin(
    tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, extra: str, pages: str | None
) -> Path:
    """The demo plug-in, with ``extra`` code (and hand-written ``pages``), installed for this
    test under a package name of its own (a package is imported once per process); its sample's path."""
    name = "tiny_editor_" + re.sub(r"\W", "_", request.node.name)
    package = tmp_path / "pkgs" / name
    shutil.copytree(DEMO, package)
    init = package / "__init__.py"
    init.write_text(init.read_text(encoding="utf-8") + "\n" + extra, encoding="utf-8")
    if pages is not None:
        (package / "pages.py").write_text(pages, encoding="utf-8")
        manifest = package / "manifest.yaml"
        manifest.write_text(manifest.read_text(encoding="utf-8") + f"editor_pages: {name}.pages:Pages\n")
    install_ruleset(monkeypatch, tmp_path / "site", package, "tiny-gunboats")
    sample = tmp_path / "sea-wasp.ship"
    shutil.copyfile(package / "catalog" / "examples" / "sea-wasp.ship", sample)
    return sample


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_plugin_failing_while_its_design_opens_shows_the_error_in_that_tab_only(
    case: str,
    qtbot: Any,
    window: MainWindow,
    tmp_path: Path,
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SHIPYARD_PLUGIN_TIMEOUT", "1")  # a plug-in that loops is stopped after a second
    sample = hostile_plugin(tmp_path, request, monkeypatch, *HOSTILE[case])
    arrow = window.open_file(ARROW)
    assert isinstance(arrow, DocumentView)
    assert window.open_file(sample) is None  # not shown, but not lost from sight either
    assert window.tabs.count() == 2
    broken = window.tabs.widget(1)
    assert isinstance(broken, BrokenDesign) and window.tabs.currentIndex() == 1
    assert window.tabs.tabText(1) == "Sea Wasp (cannot be shown)"
    text = broken.findChild(QPlainTextEdit).toPlainText()
    assert "'tiny-gunboats'" in text
    assert ("editor pages" if case == "editor pages" else "hook 'derive'") in text
    if case == "derive loops":
        assert "did not finish within 1 s" in text
    else:
        assert "RuntimeError: the plug-in broke" in text
        assert str(tmp_path / "pkgs") in text  # the plug-in's file, where it raised
    # the other design is still open and edits as before, by the keyboard
    window.tabs.setCurrentIndex(0)
    name = field(arrow, "name")
    type_into(qtbot, name, "Still here")
    qtbot.keyClick(name, Qt.Key.Key_Tab)
    assert arrow.doc.design.name == "Still here" and arrow.doc.undo_stack.count() == 1
    # the broken tab closes like any other, and nothing asks to save it
    window.tabs.setCurrentIndex(1)
    assert window.close_tab(1) and window.tabs.count() == 1 and window.current() is arrow


def test_a_plugin_failing_on_an_edit_is_a_finding_and_undo_mends_it(
    qtbot: Any,
    window: MainWindow,
    tmp_path: Path,
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A ``derive`` that raises on some designs only: the design opened, then an edit made it
    fail. The failure is the design's one finding, the editor and the design stay, and undo
    gives back the design's own report."""
    extra = (
        "_derive = derive\n"
        "def derive(ctx):\n"
        "    if ctx.design.hull > 5:\n"
        "        raise RuntimeError('too big for the plug-in')\n"
        "    return _derive(ctx)\n"
    )
    sample = hostile_plugin(tmp_path, request, monkeypatch, extra, None)
    view = window.open_file(sample)
    assert isinstance(view, DocumentView) and view.doc.report.valid
    hull = field(view, "hull")
    type_into(qtbot, hull, "7")
    qtbot.keyClick(hull, Qt.Key.Key_Tab)
    assert view.doc.design.hull == 7
    [failed] = view.doc.report.findings
    assert failed.code == "plugin-failed" and "hook 'derive': RuntimeError: too big for the plug-in" in failed.message
    assert any("too big for the plug-in" in t for t in view.findings.texts())  # shown on the design's tab
    window.undo_action.trigger()
    assert view.doc.design.hull == 4 and view.doc.report.valid
    assert not any("plug-in" in t for t in view.findings.texts())
