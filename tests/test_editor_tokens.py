"""The editor's Print dialog offers cut-out tokens, chosen with the keyboard as a person would;
File > Export writes a design's card, token and sheet images and its Foundry VTT actor."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog

from shipyard._qt.window import MainWindow, PrintDialog

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
    for _ in range(3):
        QTest.keyClick(dialog.sheet, Qt.Key.Key_Down)
        qtbot.wait(120)
    assert (dialog.sheet.currentText(), dialog.sheet.currentData()) == ("Cut-out tokens (1 in, round)", "tokens")
    opened: list[str] = []
    window.open_url = lambda url: opened.append(url.toLocalFile())  # type: ignore[method-assign]
    out = tmp_path / "tokens.pdf"
    window.print_to(out, window.documents(), dialog.sheet.currentData(), dialog.paper.currentData())
    qtbot.waitUntil(lambda: bool(opened), timeout=90_000)
    assert opened == [str(out)] and window.errors == []  # type: ignore[attr-defined]
    (text,) = pages_text(out)
    assert "Rebel Fighter" in text and "31 Structure" in " ".join(text.split())


def test_file_export_writes_the_designs_pictures_and_actor_into_the_folder_chosen(
    qtbot: Any,
    window: MainWindow,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    window.open_file(EXAMPLES / "rebel-fighter.ship")
    actions = {a.data(): a for a in window.export_menu.actions()}
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
    # again: the files exist, nothing is replaced, the error names them
    before = (folder / "rebel-fighter-card.png").read_bytes()
    actions["card-png"].trigger()
    qtbot.waitUntil(lambda: len(done) == 3, timeout=90_000)
    qtbot.wait(200)
    (title, text), *_ = window.errors  # type: ignore[attr-defined]
    assert title == "Export failed" and "rebel-fighter-card.png" in text and "exists" in text
    assert (folder / "rebel-fighter-card.png").read_bytes() == before
