"""Autosave and recovery in the main window: every minute (and on a crash) unsaved work is
copied aside (:mod:`shipyard._qt.window.autosave`); at the next start what is left is offered back."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtWidgets import QStatusBar, QWidget

from shipyard._qt.widgets import clock
from shipyard._qt.window import autosave
from shipyard.core.errors import InputError

if TYPE_CHECKING:
    from shipyard._qt.document.document import Document
    from shipyard._qt.document.rosterdoc import RosterDocument
    from shipyard._qt.view.documentview import DocumentView
    from shipyard._qt.window.rosters import Rosters

AUTOSAVE_MS = 60_000


class RecoveryHost(Protocol):
    """What autosave and recovery ask of the window: its open documents, where to say a
    failure, and a tab for a restored design."""

    use_user_folder: bool
    rosters: Rosters

    def window(self) -> QWidget: ...
    def statusBar(self) -> QStatusBar: ...
    def documents(self) -> list[Document]: ...
    def catalog_folders(self) -> tuple[Path, ...]: ...
    def show_error(self, title: str, message: str) -> None: ...
    def add_document(self, doc: Document) -> DocumentView | None: ...
    def tab_of(self, path: Path, but: Document | None = None) -> int | None: ...
    def close_tab(self, index: int) -> bool: ...


class Recovery:
    """The autosave timer (running from the start) and the offer to restore at a start."""

    def __init__(self, host: RecoveryHost) -> None:
        self.host = host
        self.timer = clock.timer(host.window(), AUTOSAVE_MS, single_shot=False)
        self.timer.timeout.connect(self.autosave_all)
        self.timer.start()

    def autosave_all(self) -> int:
        """Autosave every document with changes its autosave does not hold yet (unchanged ones are not
        rewritten every minute); a failure (disk full, no permission) is reported, not raised."""
        n = 0
        open_docs: list[Document | RosterDocument] = [*self.host.documents()]
        open_docs += [p.doc for p in self.host.rosters.roster_pages()]
        for doc in open_docs:
            if autosave.needed(doc):
                try:
                    autosave.save(doc)
                except InputError as exc:
                    self.host.statusBar().showMessage(f"Autosave failed: {exc}", 15000)
                    continue
                n += 1
        return n

    def ask_restore(self, items: list[autosave.Recovered]) -> str:
        """Restore, discard, or keep for later the work of editors that are gone: "restore",
        "discard" or "later". Only Discard deletes; Esc and closing the question keep the
        work, offered again at the next start."""
        from PySide6.QtWidgets import QMessageBox  # made on first use, off the start-up path

        lines = []
        for r in items:
            line = f"• {r.title}"
            if r.file_changed and r.original is not None:
                changed = f"another program changed {r.original.name} since: Save asks before replacing it"
                line += f"\n   ({changed})"
            lines.append(line)
        box = QMessageBox(self.host.window())
        box.setIcon(QMessageBox.Icon.Question)
        box.setWindowTitle("Restore unsaved work?")
        box.setText("Shipyard closed with unsaved changes in:\n" + "\n".join(lines) + "\n\nRestore them?")
        box.setInformativeText("Discard deletes them for good; Not now keeps them for the next start.")
        box.setStandardButtons(
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel
        )
        box.button(QMessageBox.StandardButton.Yes).setText("Restore")
        box.button(QMessageBox.StandardButton.Cancel).setText("Not now")
        box.setDefaultButton(QMessageBox.StandardButton.Yes)
        box.setEscapeButton(QMessageBox.StandardButton.Cancel)
        answer = box.exec()
        if answer == QMessageBox.StandardButton.Yes:
            return "restore"
        return "discard" if answer == QMessageBox.StandardButton.Discard else "later"

    def offer_restore(self) -> int:
        """Offer the autosaves of editors that are gone (never those of an editor still
        running: :func:`autosave.pending`): restored or discarded, each is removed; kept for
        later, each is let go and offered again at the next start."""
        items = autosave.pending()
        if not items:
            return 0
        answer = self.ask_restore(items)
        n = 0
        for rec in items:
            if answer == "later":
                autosave.release(rec)
                continue
            if answer == "restore":
                try:
                    doc: Any = (
                        autosave.load_roster(rec, self.host.catalog_folders())
                        if autosave.is_roster(rec)
                        else autosave.load(rec, self.host.use_user_folder, self.host.catalog_folders())
                    )
                except (InputError, OSError, ValueError) as exc:
                    self.host.show_error("Cannot restore", f"{rec.title}: {exc}")
                    autosave.release(rec)  # kept, and offered again at the next start
                    continue
                doc.undo_stack.resetClean()  # restored work stays unsaved until the user saves it
                if autosave.is_roster(rec):
                    self.host.rosters.add_roster_document(doc)
                else:
                    self._replace_open(doc)
                    self.host.add_document(doc)
                n += 1
                try:  # this editor's own autosave of it first: a crash now loses nothing either
                    autosave.save(doc)
                except InputError:
                    autosave.release(rec)  # the old file stays, offered again after a crash
                    continue
            autosave.remove(rec)
        return n

    def _replace_open(self, doc: Document) -> None:
        """The restored work takes the place of a tab open on its file (the editor started with
        that file, as a double-click does): two tabs on one file would each save over the other.
        A tab with changes of its own asks, as closing it always does."""
        if doc.path is None:
            return
        index = self.host.tab_of(doc.path, but=doc)
        if index is not None:
            self.host.close_tab(index)


def install_crash_autosave(recovery: Recovery) -> None:
    """On an unhandled exception, autosave every document before Python reports it."""
    previous = sys.excepthook

    def hook(kind, value, tb) -> None:  # type: ignore[no-untyped-def]
        try:
            recovery.autosave_all()
        finally:
            previous(kind, value, tb)

    sys.excepthook = hook
