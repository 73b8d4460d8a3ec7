"""The editor's Print dialog offers cut-out tokens, chosen with the keyboard as a person would."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

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
