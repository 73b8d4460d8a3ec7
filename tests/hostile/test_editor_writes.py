"""The editor's Save over a design the user write-protected: refused with the reason, the
file as it was, the edit still there (unsaved) to save elsewhere. It used to be replaced
and the editor said "Saved"."""

from __future__ import annotations

import shutil
import stat
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from shipyard._qt.window.window import MainWindow

from ..conftest import EXAMPLES
from ..editor_pages import PAUSE_MS
from ..test_editor import field, no_blocking_dialogs, type_into, window  # noqa: F401 (the fixtures)


def structure_typed_by_hand(qtbot: Any, window: MainWindow, ship: Path) -> Any:  # noqa: F811 (the fixture)
    """Open ``ship`` and type Structure 16 on Step Five as a person does, past the commit delay."""
    view = window.open_file(ship)
    assert view is not None
    view.tabs.setCurrentIndex(4)  # Step Five
    type_into(qtbot, field(view, "structure"), "16")
    qtbot.keyClick(field(view, "structure"), Qt.Key.Key_Tab)
    qtbot.wait(PAUSE_MS)  # longer than any commit delay
    assert view.doc.design.structure == 16 and window.isWindowModified()
    return view


def test_save_over_a_write_protected_design_is_refused_and_the_edit_kept(
    qtbot: Any,
    window: MainWindow,  # noqa: F811 (the fixture)
    tmp_path: Path,
) -> None:
    ship = Path(shutil.copy(EXAMPLES / "rebel-fighter.ship", tmp_path / "rebel-fighter.ship"))
    ship.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)  # 0444; the tests run as root, who could write it
    before = ship.read_bytes()
    view = structure_typed_by_hand(qtbot, window, ship)
    qtbot.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: bool(window.errors))  # type: ignore[attr-defined]
    [(title, text)] = window.errors  # type: ignore[attr-defined]
    assert title == "Cannot save"
    assert str(ship) in text and "read-only" in text and "chmod u+w" in text
    assert ship.read_bytes() == before and stat.S_IMODE(ship.stat().st_mode) == 0o444
    assert window.isWindowModified() and view.doc.design.structure == 16  # the edit is still there
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(".ini")) == ["rebel-fighter.ship"]
