"""The editor's Save over a design another program wrote since the editor opened it.

``shipyard set --in-place`` (or a text editor, or ``git checkout``) changed the file while
it was open in the editor; Ctrl+S then wrote the editor's copy over it without a word, and
the other program's change was lost though it had said "wrote". Now Save asks first (Replace
or Cancel, Cancel the default): Cancel keeps the file as the other program left it and the
edit unsaved; Replace writes the editor's version. A file no one else wrote is saved unasked.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from shipyard._qt.window.window import MainWindow

from ..conftest import EXAMPLES, call_shipyard
from ..editor_pages import PAUSE_MS
from ..test_editor import field, type_into, window  # noqa: F401 (the fixture)
from ..test_editor_export_replace import person  # noqa: F401 (the fixture)
from .test_editor_writes import structure_typed_by_hand


def _edit_then_set_then_save(qtbot: Any, window: MainWindow, ship: Path) -> None:  # noqa: F811
    structure_typed_by_hand(qtbot, window, ship)
    done = call_shipyard("set", ship, "name=Written by set", "--in-place")
    assert done.returncode == 0 and "wrote" in done.stdout, done.stderr
    qtbot.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)


def _design(ship: Path) -> dict[str, Any]:
    return json.loads(ship.read_text(encoding="utf-8"))["design"]  # type: ignore[no-any-return]


@pytest.mark.parametrize("choice", ["Cancel", "Replace"])
def test_save_over_a_design_set_changed_meanwhile_asks_first(
    qtbot: Any,
    window: MainWindow,  # noqa: F811 (the fixture)
    person: Any,  # noqa: F811 (the fixture)
    tmp_path: Path,
    choice: str,
) -> None:
    ship = Path(shutil.copy(EXAMPLES / "rebel-fighter.ship", tmp_path / "rebel-fighter.ship"))
    person.will(person.click(choice))
    _edit_then_set_then_save(qtbot, window, ship)
    qtbot.waitUntil(lambda: not person.answers, timeout=10_000)
    qtbot.wait(PAUSE_MS)
    [said] = person.seen
    assert "rebel-fighter.ship" in said and "changed by another program" in said, said
    if choice == "Cancel":  # the other program's change kept, the edit still there to save
        assert (_design(ship)["name"], _design(ship)["structure"]) == ("Written by set", 15)
        assert window.isWindowModified()
    else:
        assert (_design(ship)["name"], _design(ship)["structure"]) == ("Rebel Fighter", 16)
        assert not window.isWindowModified()


def test_save_of_a_design_no_one_else_wrote_asks_nothing(
    qtbot: Any,
    window: MainWindow,  # noqa: F811 (the fixture)
    person: Any,  # noqa: F811 (the fixture)
    tmp_path: Path,
) -> None:
    ship = Path(shutil.copy(EXAMPLES / "rebel-fighter.ship", tmp_path / "rebel-fighter.ship"))
    view = window.open_file(ship)
    assert view is not None
    view.tabs.setCurrentIndex(4)
    for value in ("16", "17"):  # saved twice: its own first save is no one else's change
        type_into(qtbot, field(view, "structure"), value)
        qtbot.keyClick(field(view, "structure"), Qt.Key.Key_Tab)
        qtbot.wait(PAUSE_MS)
        qtbot.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
        qtbot.waitUntil(lambda: not window.isWindowModified(), timeout=10_000)
        assert _design(ship)["structure"] == int(value)
    assert person.seen == []


def test_save_as_onto_a_file_open_in_another_tab_is_refused(
    window: MainWindow,  # noqa: F811 (the fixture)
    tmp_path: Path,
) -> None:
    """Save As onto a file another tab has open made two tabs of one file, each Save then
    writing over the other's work. The window says which, and writes nothing."""
    ship = tmp_path / "rebel-fighter.ship"
    shutil.copy(EXAMPLES / "rebel-fighter.ship", ship)
    before = ship.read_bytes()
    first = window.open_file(ship)
    assert first is not None
    other = window.new("starfighter")
    other.doc.edit("name", "Another Fighter")
    window.ask_save_path = lambda _doc: ship  # type: ignore[method-assign]  # the person picks the open file
    assert window.save(other.doc, as_new=True) is False
    assert window.errors == [  # type: ignore[attr-defined]
        (
            "Cannot save",
            "“rebel-fighter.ship” is open in another tab. Close that tab first, or save under another name.",
        )
    ]
    assert ship.read_bytes() == before and other.doc.path is None and other.doc.modified
    assert window.save(first.doc, as_new=True) is True  # its own tab's file: saved over, as Save does
