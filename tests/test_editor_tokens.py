"""The editor's Print dialog offers cut-out tokens, chosen with the keyboard as a person would;
File > Export writes a design's card, token and sheet images and its Foundry VTT actor."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from shipyard._qt.window.window import MainWindow, PrintDialog
from shipyard.render.tokens import TokenSpec

from .conftest import EXAMPLES
from .test_editor import window  # noqa: F401 (the fixture)
from .test_printing import pages_text


def test_tokens_are_chosen_in_the_print_dialog_and_printed(qtbot: Any, window: MainWindow, tmp_path: Path) -> None:
    window.open_file(EXAMPLES / "rebel-fighter.ship")
    dialog = PrintDialog(window, "a4", several=False)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.sheet.setFocus()
    qtbot.waitUntil(dialog.sheet.hasFocus)
    assert not dialog.token_size.isEnabled()  # a record sheet has no tokens to size
    for _ in range(3):
        QTest.keyClick(dialog.sheet, Qt.Key.Key_Down)
        qtbot.wait(120)
    assert (dialog.sheet.currentText(), dialog.sheet.currentData()) == ("Cut-out tokens", "tokens")
    assert dialog.token_size.isEnabled() and not dialog.fillable.isEnabled()
    # the size typed as on the command line, the shape and the back chosen with the keyboard
    QTest.keyClick(dialog.sheet, Qt.Key.Key_Tab)
    qtbot.waitUntil(dialog.token_size.hasFocus)
    QTest.keyClick(dialog.token_size, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(dialog.token_size, "0.75in", delay=40)
    qtbot.wait(700)
    QTest.keyClick(dialog.token_size, Qt.Key.Key_Tab)
    qtbot.waitUntil(dialog.token_shape.hasFocus)
    for _ in range(2):
        QTest.keyClick(dialog.token_shape, Qt.Key.Key_Down)
        qtbot.wait(120)
    dialog.token_back.setFocus()
    qtbot.waitUntil(dialog.token_back.hasFocus)
    QTest.keyClick(dialog.token_back, Qt.Key.Key_Space)
    qtbot.wait(120)
    assert dialog.token() == TokenSpec(19.05, "hex", True)
    opened: list[str] = []
    window.printing.open_url = lambda url: opened.append(url.toLocalFile())  # type: ignore[method-assign]
    out = tmp_path / "tokens.pdf"
    window.printing.print_to(
        out, window.documents(), dialog.sheet.currentData(), dialog.paper.currentData(), token=dialog.token()
    )
    qtbot.waitUntil(lambda: bool(opened), timeout=90_000)
    assert opened == [str(out)] and window.errors == []  # type: ignore[attr-defined]
    (text,) = pages_text(out)
    words = " ".join(text.split())
    # the front and its back, each with the Structure rating the sheet prints (not the 31 boxes of its track)
    assert words.count("Rebel Fighter") == 2 and words.count("15 Structure") == 2
    assert "hex tokens, 19.05 mm" in words and "fold along the dashed line" in words


def test_a_token_size_the_command_line_refuses_keeps_the_print_dialog_open(
    qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    window.open_file(EXAMPLES / "rebel-fighter.ship")
    dialog = PrintDialog(window, "a4", several=False)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    said: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _parent, _title, text: said.append(text))
    dialog.sheet.setCurrentIndex(dialog.sheet.findData("tokens"))
    dialog.token_size.setFocus()
    qtbot.waitUntil(dialog.token_size.hasFocus)
    QTest.keyClick(dialog.token_size, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(dialog.token_size, "9in", delay=40)
    qtbot.wait(700)
    QTest.keyClick(dialog.token_size, Qt.Key.Key_Return)
    qtbot.wait(200)
    assert dialog.isVisible() and dialog.result() != PrintDialog.DialogCode.Accepted
    (text,) = said
    assert "9in" in text and "12.7 to 76.2 mm" in text


def test_file_export_writes_the_designs_pictures_and_actor_into_the_folder_chosen(
    qtbot: Any,
    window: MainWindow,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    window.open_file(EXAMPLES / "rebel-fighter.ship")
    actions = {a.data(): a for a in window.menus.export_menu.actions() if a.data()}
    assert list(actions) == ["card-png", "token-png", "sheet-png", "foundry"]
    folder = tmp_path / "vtt"
    folder.mkdir()
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(folder))
    done: list[str] = []
    window.export_bridge.done.connect(lambda path, error: done.append(error))
    for n, kind in enumerate(("card-png", "foundry"), 1):
        actions[kind].trigger()
        qtbot.waitUntil(lambda n=n: len(done) == n, timeout=90_000)
        qtbot.wait(200)
    assert done == ["", ""] and window.errors == []  # type: ignore[attr-defined]
    assert sorted(p.name for p in folder.iterdir()) == [
        "rebel-fighter-card.png",
        "rebel-fighter-token.png",
        "rebel-fighter.json",
    ]
    assert json.loads((folder / "rebel-fighter.json").read_text())["name"] == "Rebel Fighter"
    # again: the files exist, the editor asks (answered Cancel here), nothing is replaced
    # (the question itself, answered by a person: tests/test_editor_export_replace.py)
    from shipyard._qt.dialogs import replacing

    asked: list[list[str]] = []
    monkeypatch.setattr(replacing, "ask_replace", lambda _parent, files: asked.append([f.name for f in files]) or False)
    before = (folder / "rebel-fighter-card.png").read_bytes()
    actions["card-png"].trigger()
    qtbot.waitUntil(lambda: bool(asked), timeout=90_000)
    qtbot.wait(200)
    assert asked == [["rebel-fighter-card.png"]] and window.errors == []  # type: ignore[attr-defined]
    assert (folder / "rebel-fighter-card.png").read_bytes() == before and len(done) == 2


def test_file_export_of_all_open_designs_writes_an_actor_for_each(
    qtbot: Any, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    window.open_file(EXAMPLES / "rebel-fighter.ship")
    window.open_file(EXAMPLES / "alien-disk-fighter.ship")
    assert len(window.documents()) == 2
    folder = tmp_path / "vtt"
    folder.mkdir()
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(folder))
    done: list[str] = []
    window.export_bridge.done.connect(lambda path, error: done.append(error))
    window.export_all.trigger()  # ticked, as a click on the menu entry does
    assert window.export_all.isChecked()
    (foundry,) = [a for a in window.menus.export_menu.actions() if a.data() == "foundry"]
    foundry.trigger()
    qtbot.waitUntil(lambda: len(done) == 1, timeout=90_000)
    qtbot.wait(200)
    assert done == [""] and window.errors == []  # type: ignore[attr-defined]
    assert sorted(p.name for p in folder.iterdir()) == [
        "alien-disk-fighter-token.png",
        "alien-disk-fighter.json",
        "rebel-fighter-token.png",
        "rebel-fighter.json",
    ]
    names = {json.loads((folder / f).read_text())["name"] for f in ("rebel-fighter.json", "alien-disk-fighter.json")}
    assert names == {"Rebel Fighter", "Alien Disk-Fighter"}
