"""Every export from the editor asks before it replaces a file, in the editor's words, and
starts in the folder that kind of export went to last (issue 46).

File > Export (tokens, Foundry actors, cards, sheet images) and File > Print to PDF run
here with their real dialogs: the folder or file dialog, the print dialog and the Replace
question are answered as they open (found as the active modal window), the question by a
mouse click on its button. Cancel leaves the files there as they were, and writes none of
the export's others either; Replace writes them all.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QFileDialog, QLineEdit, QMessageBox, QWidget

from shipyard._qt.actions.printtopdf import PrintDialog
from shipyard._qt.dialogs.replacing import ReplaceQuestion
from shipyard._qt.window.window import MainWindow

from .conftest import EXAMPLES
from .test_editor import window  # noqa: F401 (the fixture)

PNG = b"\x89PNG"
Answer = Callable[[QWidget], None]


class Person:
    """Answers the editor's modal dialogs one by one as each opens; ``seen`` says what each showed."""

    def __init__(self, qtbot: Any) -> None:
        self.qtbot = qtbot
        self.answers: list[Answer] = []
        self.seen: list[str] = []
        self.timer = QTimer(interval=30)
        self.timer.timeout.connect(self._poll)
        self.timer.start()

    def will(self, *answers: Answer) -> None:
        self.answers += answers

    def _poll(self) -> None:
        dialog = QApplication.activeModalWidget()
        if dialog is None or not self.answers or dialog.property("answered"):
            return
        dialog.setProperty("answered", True)  # marked on the dialog: a new one may get an old one's address
        self.answers.pop(0)(dialog)

    def choose_folder(self, folder: Path | None) -> Answer:
        """The folder dialog: note where it starts; paste ``folder`` into its name field and
        press Enter (None: Escape)."""

        def answer(dialog: QWidget) -> None:
            assert isinstance(dialog, QFileDialog) and dialog.fileMode() == QFileDialog.FileMode.Directory
            self.seen.append(f"folder dialog in {dialog.directory().absolutePath()}")
            self._enter(dialog, folder)

        return answer

    def save_as(self, file: Path | None = None) -> Answer:
        """The PDF's file dialog: note the file it offers; Enter takes it (or ``file``, pasted first)."""

        def answer(dialog: QWidget) -> None:
            assert isinstance(dialog, QFileDialog) and dialog.acceptMode() == QFileDialog.AcceptMode.AcceptSave
            self.seen.append(f"save dialog offers {dialog.selectedFiles()[0]}")
            self._enter(dialog, file, keep=file is None)

        return answer

    @staticmethod
    def _enter(dialog: QFileDialog, path: Path | None, keep: bool = False) -> None:
        name = dialog.findChild(QLineEdit, "fileNameEdit")
        assert name is not None
        if path is None and not keep:
            QTest.keyClick(name, Qt.Key.Key_Escape)
            return
        if path is not None:
            name.setText(str(path))  # pasted whole (typed key by key, the completer's list takes the Enter)
        QTest.keyClick(name, Qt.Key.Key_Return)

    def press_ok(self) -> Answer:
        def answer(dialog: QWidget) -> None:
            assert isinstance(dialog, PrintDialog)
            box = dialog.findChild(QDialogButtonBox)
            assert box is not None
            self.qtbot.mouseClick(box.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)

        return answer

    def click(self, choice: str) -> Answer:
        """The Replace question: note its words, click ``choice`` ("Replace" or "Cancel")."""

        def answer(dialog: QWidget) -> None:
            assert isinstance(dialog, ReplaceQuestion)
            self.seen.append(f"{dialog.windowTitle()} {dialog.text()} {dialog.informativeText()}")
            button = dialog.replace_button if choice == "Replace" else dialog.button(QMessageBox.StandardButton.Cancel)
            assert button is not None and button.text().replace("&", "") == choice
            self.qtbot.mouseClick(button, Qt.MouseButton.LeftButton)

        return answer


@pytest.fixture
def person(qtbot: Any) -> Any:
    p = Person(qtbot)
    yield p
    p.timer.stop()
    assert p.answers == [], "a dialog the test expected never opened"


@pytest.fixture
def design(window: MainWindow, tmp_path: Path) -> Path:
    ships = tmp_path / "ships"
    ships.mkdir()
    ship = Path(shutil.copy(EXAMPLES / "rebel-fighter.ship", ships / "rebel-fighter.ship"))
    assert window.open_file(ship) is not None
    return ship


def _export(window: MainWindow, kind: str) -> None:
    (action,) = [a for a in window.menus.export_menu.actions() if a.data() == kind]
    action.trigger()


def _wait_written(qtbot: Any, window: MainWindow, done: list[str], n: int) -> None:
    qtbot.waitUntil(lambda: len(done) == n, timeout=90_000)
    assert done[-1] == "" and window.errors == []  # type: ignore[attr-defined]


def test_an_export_over_existing_files_asks_replace_or_cancel_and_starts_in_the_last_folder(
    qtbot: Any,
    window: MainWindow,
    design: Path,
    person: Person,
    tmp_path: Path,
) -> None:
    vtt = tmp_path / "vtt"
    vtt.mkdir()
    token = vtt / "rebel-fighter-token.png"
    done: list[str] = []
    window.export_bridge.done.connect(lambda _folder, error: done.append(error))
    # the first token export: the dialog starts in the design's folder; nothing there, nothing asked
    person.will(person.choose_folder(vtt))
    _export(window, "token-png")
    _wait_written(qtbot, window, done, 1)
    assert token.read_bytes().startswith(PNG)
    assert person.seen == [f"folder dialog in {design.parent}"]
    token.write_bytes(b"the token the person drew")
    # again: it starts in vtt; the token is there, the question names it; Cancel keeps it
    person.seen.clear()
    person.will(person.choose_folder(vtt), person.click("Cancel"))
    _export(window, "token-png")
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith("Nothing exported"), timeout=90_000)
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith("Nothing exported"), timeout=90_000)
    folder_dialog, question = person.seen
    assert folder_dialog == f"folder dialog in {vtt}"
    assert question.startswith(f"Replace the file? “rebel-fighter-token.png” is already in the folder {vtt}.")
    assert "--force" not in question and "Replace it with the new one?" in question
    assert token.read_bytes() == b"the token the person drew" and len(done) == 1
    # Foundry, never used yet, starts where the last export went; Cancel writes no actor either
    person.seen.clear()
    person.will(person.choose_folder(vtt), person.click("Cancel"))
    _export(window, "foundry")
    qtbot.waitUntil(lambda: len(person.seen) == 2, timeout=90_000)
    qtbot.wait(200)
    assert person.seen[0] == f"folder dialog in {vtt}" and "rebel-fighter-token.png" in person.seen[1]
    assert sorted(p.name for p in vtt.iterdir()) == ["rebel-fighter-token.png"]  # all or none
    assert token.read_bytes() == b"the token the person drew"
    # Replace: the actor and its token written, the drawn token replaced
    person.will(person.choose_folder(vtt), person.click("Replace"))
    _export(window, "foundry")
    _wait_written(qtbot, window, done, 2)
    assert sorted(p.name for p in vtt.iterdir()) == ["rebel-fighter-token.png", "rebel-fighter.json"]
    assert token.read_bytes().startswith(PNG)
    assert window.settings.value("export/folder/foundry") == str(vtt)
    # the next session's exports start there too
    again = MainWindow(window.settings, use_user_folder=False, preview=False)
    qtbot.addWidget(again)
    again.show()
    assert again.open_file(design) is not None
    person.seen.clear()
    person.will(person.choose_folder(None))
    _export(again, "sheet-png")
    assert person.seen == [f"folder dialog in {vtt}"]


def test_card_and_sheet_images_ask_before_replacing_several_files(
    qtbot: Any,
    window: MainWindow,
    design: Path,
    person: Person,
    tmp_path: Path,
) -> None:
    out = tmp_path / "pictures"
    out.mkdir()
    old = {name: f"old {name}".encode() for name in ("rebel-fighter-card.png", "rebel-fighter-sheet.png")}
    for name, data in old.items():
        (out / name).write_bytes(data)
    done: list[str] = []
    window.export_bridge.done.connect(lambda _folder, error: done.append(error))
    person.will(person.choose_folder(out), person.click("Cancel"))
    _export(window, "card-png")
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith("Nothing exported"), timeout=90_000)
    assert "rebel-fighter-card.png" in person.seen[1]
    assert {p.name: p.read_bytes() for p in out.iterdir()} == old
    person.seen.clear()
    person.will(person.choose_folder(out), person.click("Replace"))
    _export(window, "sheet-png")
    _wait_written(qtbot, window, done, 1)
    assert person.seen[0] == f"folder dialog in {out}"
    assert "rebel-fighter-sheet.png" in person.seen[1] and "--force" not in person.seen[1]
    sheets = sorted(p for p in out.iterdir() if p.name.startswith("rebel-fighter-sheet"))
    assert sheets and all(p.read_bytes().startswith(PNG) for p in sheets)
    assert (out / "rebel-fighter-card.png").read_bytes() == old["rebel-fighter-card.png"]


def test_print_to_pdf_asks_replace_or_cancel_and_starts_in_the_last_pdfs_folder(
    qtbot: Any,
    window: MainWindow,
    design: Path,
    person: Person,
    tmp_path: Path,
) -> None:
    prints = tmp_path / "prints"
    prints.mkdir()
    pdf = prints / "Rebel Fighter.pdf"
    opened: list[str] = []
    window.printing.open_url = lambda url: opened.append(url.toLocalFile()) or True  # type: ignore[method-assign]
    person.will(person.press_ok(), person.save_as(pdf))
    window.printing.print_dialog()
    qtbot.waitUntil(lambda: len(opened) == 1, timeout=90_000)
    assert person.seen == [f"save dialog offers {design.parent / 'Rebel Fighter.pdf'}"]  # the design's folder
    assert pdf.read_bytes().startswith(b"%PDF")
    pdf.write_bytes(b"the PDF the person annotated")
    # again: offered in prints; it is there, Cancel keeps it
    person.seen.clear()
    person.will(person.press_ok(), person.save_as(), person.click("Cancel"))
    window.printing.print_dialog()
    assert person.seen[0] == f"save dialog offers {pdf}"
    assert person.seen[1].startswith(f"Replace the file? “Rebel Fighter.pdf” is already in the folder {prints}.")
    assert pdf.read_bytes() == b"the PDF the person annotated" and len(opened) == 1
    assert window.statusBar().currentMessage() == f"Not printed: {pdf} is as it was"
    # Replace prints over it
    person.will(person.press_ok(), person.save_as(), person.click("Replace"))
    window.printing.print_dialog()
    qtbot.waitUntil(lambda: len(opened) == 2, timeout=90_000)
    assert pdf.read_bytes().startswith(b"%PDF") and window.errors == []  # type: ignore[attr-defined]


def test_the_export_folder_remembered_is_per_kind(window: MainWindow, tmp_path: Path) -> None:
    cards, actors = tmp_path / "cards", tmp_path / "actors"
    cards.mkdir()
    actors.mkdir()
    window.recent_files.remember_export_folder("card-png", cards)
    window.recent_files.remember_export_folder("foundry", actors)
    assert (
        window.recent_files.export_folder("card-png") == cards
        and window.recent_files.export_folder("foundry") == actors
    )
    assert window.recent_files.export_folder("pdf") == actors  # never used: where the last export went
    shutil.rmtree(actors)  # a folder since removed is not offered
    fresh = MainWindow(
        QSettings(window.settings.fileName(), QSettings.Format.IniFormat), use_user_folder=False, preview=False
    )
    assert (
        fresh.recent_files.export_folder("card-png") == cards and fresh.recent_files.export_folder("foundry") != actors
    )


def test_a_folder_where_an_export_file_would_go_is_refused_without_asking(
    qtbot: Any, window: MainWindow, design: Path, person: Person, tmp_path: Path
) -> None:
    out = tmp_path / "vtt"
    (out / "rebel-fighter-token.png").mkdir(parents=True)  # not a file: never replaced
    person.will(person.choose_folder(out))
    _export(window, "foundry")
    qtbot.waitUntil(lambda: bool(window.errors), timeout=90_000)  # type: ignore[attr-defined]
    ((title, text),) = window.errors  # type: ignore[attr-defined]
    assert title == "Export failed" and "rebel-fighter-token.png" in text and "is a folder" in text
    assert "--force" not in text and person.seen == [f"folder dialog in {design.parent}"]  # no question
    assert sorted(p.name for p in out.iterdir()) == ["rebel-fighter-token.png"]  # nothing written
