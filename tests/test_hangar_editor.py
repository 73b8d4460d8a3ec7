"""View > Hangar in the editor, driven as a person does: real keys to the focused widget,
waits longer than the filter's delay, checks after it."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QPoint, Qt

from shipyard._qt.dialogs.hangarwindow import COST, FILTER_DELAY_MS, NAME, VERDICT, HangarWindow
from shipyard._qt.window.window import MainWindow

from .test_editor import shown_window
from .test_hangar import samples

WAIT_MS = FILTER_DELAY_MS * 3


@pytest.fixture
def editor(qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MainWindow:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    lib = tmp_path / "designs"
    for f in samples():
        (lib / f.parent.parent.name).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(f, lib / f.parent.parent.name / f.name)
    from shipyard.hangar import library

    library.add(lib)
    return shown_window(qtbot, tmp_path)


def test_filter_sort_and_open_with_the_keyboard(qtbot: Any, editor: MainWindow) -> None:
    qtbot.keyClick(editor, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    hangar = editor.menus.hangar_window
    assert isinstance(hangar, HangarWindow)
    qtbot.waitExposed(hangar)
    qtbot.waitUntil(lambda: hangar.table.rowCount() == len(samples()), timeout=60_000)
    assert hangar.filter.hasFocus() or hangar.focusWidget() is hangar.filter
    # type a filter: the list follows after the pause
    hangar.filter.setFocus()
    qtbot.keyClicks(hangar.filter, "fails")
    qtbot.wait(WAIT_MS)
    names = [hangar.table.item(r, NAME).text() for r in range(hangar.table.rowCount())]
    verdicts = {hangar.table.item(r, VERDICT).text() for r in range(hangar.table.rowCount())}
    assert names and len(names) < len(samples()) and all(v.startswith("fails") for v in verdicts)
    # a filter that cannot be read is said; the list keeps what it showed
    qtbot.keyClicks(hangar.filter, " colour:red")
    qtbot.wait(WAIT_MS)
    assert hangar.problem.isVisible() and "unknown filter 'colour:'" in hangar.problem.text()
    assert hangar.table.rowCount() == len(names)
    hangar.filter.selectAll()
    qtbot.keyClick(hangar.filter, Qt.Key.Key_Backspace)
    qtbot.wait(WAIT_MS)
    assert not hangar.problem.isVisible() and hangar.table.rowCount() == len(samples())
    # sort by cost: a click on its header, numbers in order
    header = hangar.table.horizontalHeader()
    qtbot.mouseClick(
        header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(header.sectionViewportPosition(COST) + 5, 5)
    )
    costs = [hangar.table.item(r, COST).number for r in range(hangar.table.rowCount())]
    known = [c for c in costs if c is not None]
    assert known == sorted(known) or known == sorted(known, reverse=True)
    # Enter in the box moves to the list; Enter on a row opens its design
    qtbot.keyClicks(hangar.filter, "passes")
    qtbot.keyClick(hangar.filter, Qt.Key.Key_Return)
    assert hangar.table.hasFocus()
    qtbot.keyClick(hangar.table, Qt.Key.Key_Down)
    wanted = hangar.current_file()
    assert wanted is not None
    qtbot.keyClick(hangar.table, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: editor.current() is not None and editor.current().doc.path == wanted)


def test_the_selection_s_outputs_read_designs_with_the_editor_s_catalog_folder(
    qtbot: Any, editor: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Print fleet book, Print card sheet and Export to Foundry read the selected designs as
    the editor opens them, its catalog folder's house rules with them: a design using a
    house weapon was "unknown weapon", and nothing was made."""
    from .conftest import design_with_house_weapon

    editor.settings.setValue("catalog/folder", str(tmp_path / "house"))
    ship = tmp_path / "designs" / "plasma.ship"
    design_with_house_weapon(tmp_path / "house", ship)
    editor.menus.show_hangar()
    hangar = editor.menus.hangar_window
    assert isinstance(hangar, HangarWindow)
    made: list[tuple[str, list[str], str]] = []
    hangar.output = lambda kind, loaded, what: made.append((kind, [d.design.name for d in loaded], what))  # type: ignore[assignment, func-returns-value, return-value]
    monkeypatch.setattr(hangar, "selected_files", lambda: [ship])  # the row a person selected
    for kind in ("fleet", "cards", "foundry"):
        hangar.outputs[kind].click()
    assert not hangar.problem.isVisible(), hangar.problem.text()
    assert made == [(kind, ["Plasma"], "1 design") for kind in ("fleet", "cards", "foundry")]


def test_the_filter_box_reads_symbols_as_find_does(qtbot: Any, editor: MainWindow, tmp_path: Path) -> None:
    """The filter box is ``shipyard find``'s query: a word of no letter or digit finds the
    designs that hold it as written (``^_^`` found none, ``(`` every one), and ``>=5``, a
    comparison that names no figure, is said as the error it is."""
    import json

    marked = sorted((tmp_path / "designs").rglob("*.ship"))[0]
    data = json.loads(marked.read_text(encoding="utf-8"))
    data["design"]["name"] = "Raptor ^_^"
    marked.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    qtbot.keyClick(editor, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    hangar = editor.menus.hangar_window
    assert isinstance(hangar, HangarWindow)
    qtbot.waitExposed(hangar)
    qtbot.waitUntil(lambda: hangar.table.rowCount() == len(samples()), timeout=60_000)
    hangar.filter.setFocus()
    qtbot.keyClicks(hangar.filter, "^_^")
    qtbot.wait(WAIT_MS)
    assert not hangar.problem.isVisible()
    assert [hangar.table.item(r, NAME).text() for r in range(hangar.table.rowCount())] == ["Raptor ^_^"]
    hangar.filter.selectAll()
    qtbot.keyClicks(hangar.filter, ">=5")
    qtbot.wait(WAIT_MS)
    assert hangar.problem.isVisible() and "names no figure before '>='" in hangar.problem.text()
