"""Before the editor writes over files that exist (File > Export, File > Print to PDF), it
asks, in its own words: the files named, Replace or Cancel, Cancel the default so Enter
or Escape loses nothing. (The command line refuses such files and points at ``--force``;
the editor's dialogs have no options to point at.)"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from PySide6.QtWidgets import QMessageBox, QWidget

SHOWN = 8  # names listed in the question; more are counted


def existing(targets: Iterable[Path]) -> list[Path]:
    """The ``targets`` that are there already (a broken link too: writing would replace it)."""
    return [t for t in targets if t.exists() or t.is_symlink()]


class ReplaceQuestion(QMessageBox):
    """The question about ``files`` (all in one folder): Replace (:attr:`replace_button`) or Cancel."""

    def __init__(self, parent: QWidget | None, files: list[Path], words: tuple[str, str] | None = None) -> None:
        super().__init__(parent)
        folder = files[0].parent
        self.setIcon(QMessageBox.Icon.Warning)
        if len(files) == 1:
            self.setWindowTitle("Replace the file?")
            self.setText(f"“{files[0].name}” is already in the folder {folder}.")
            self.setInformativeText("Replace it with the new one? What it holds now will be lost.")
        else:
            names = "\n".join(f"• {f.name}" for f in files[:SHOWN])
            more = f"\n… and {len(files) - SHOWN} more" if len(files) > SHOWN else ""
            self.setWindowTitle("Replace the files?")
            self.setText(f"{len(files)} of the files are already in the folder {folder}:\n{names}{more}")
            self.setInformativeText("Replace them with the new ones? What they hold now will be lost.")
        if words:  # the question and what is lost, in the caller's words
            self.setText(words[0])
            self.setInformativeText(words[1])
        self.replace_button = self.addButton("&Replace", QMessageBox.ButtonRole.AcceptRole)
        cancel = self.addButton(QMessageBox.StandardButton.Cancel)
        self.setDefaultButton(cancel)
        self.setEscapeButton(cancel)


def ask_replace(parent: QWidget | None, files: list[Path], words: tuple[str, str] | None = None) -> bool:
    """Whether the person lets ``files`` be replaced; True at once when there are none."""
    if not files:
        return True
    box = ReplaceQuestion(parent, files, words)
    box.exec()
    replace = box.clickedButton() is box.replace_button
    box.deleteLater()
    return replace
