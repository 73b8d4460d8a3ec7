"""Autosave and recovery in the main window: every minute (and on a crash) unsaved work is
copied aside (:mod:`shipyard._qt.window.autosave`); at the next start what is left is offered back."""

from __future__ import annotations

import sys

from PySide6.QtCore import QTimer

from shipyard._qt.window import autosave
from shipyard._qt.window.host import EditorWindow
from shipyard.core.errors import InputError

AUTOSAVE_MS = 60_000


class Recovery(EditorWindow):
    """The autosave timer (:meth:`start_autosave`) and the offer to restore at a start."""

    def start_autosave(self) -> None:
        self.autosave_timer = QTimer(self, interval=AUTOSAVE_MS)
        self.autosave_timer.timeout.connect(self.autosave_all)
        self.autosave_timer.start()

    def autosave_all(self) -> int:
        """Autosave every document with changes its autosave does not hold yet (unchanged ones are not
        rewritten every minute); a failure (disk full, no permission) is reported, not raised."""
        n = 0
        for doc in self.documents():
            if autosave.needed(doc):
                try:
                    autosave.save(doc)
                except InputError as exc:
                    self.statusBar().showMessage(f"Autosave failed: {exc}", 15000)
                    continue
                n += 1
        return n

    def ask_restore(self, items: list[autosave.Recovered]) -> bool:
        from PySide6.QtWidgets import QMessageBox  # made on first use, off the start-up path

        names = "\n".join(f"• {r.title}" for r in items)
        return (
            QMessageBox.question(
                self, "Restore unsaved work?", f"Shipyard closed with unsaved changes in:\n{names}\n\nRestore them?"
            )
            == QMessageBox.StandardButton.Yes
        )

    def offer_restore(self) -> int:
        """Offer the autosaves of editors that are gone (never those of an editor still
        running: :func:`autosave.pending`); restored or declined, each is removed."""
        items = autosave.pending()
        if not items:
            return 0
        restore = self.ask_restore(items)
        n = 0
        for rec in items:
            if restore:
                try:
                    doc = autosave.load(rec, self.use_user_folder)
                except (InputError, OSError, ValueError) as exc:
                    self.show_error("Cannot restore", f"{rec.title}: {exc}")
                    autosave.release(rec)  # kept, and offered again at the next start
                    continue
                doc.undo_stack.resetClean()  # restored work stays unsaved until the user saves it
                self.add_document(doc)
                n += 1
                try:  # this editor's own autosave of it first: a crash now loses nothing either
                    autosave.save(doc)
                except InputError:
                    autosave.release(rec)  # the old file stays, offered again after a crash
                    continue
            autosave.remove(rec)
        return n


def install_crash_autosave(window: Recovery) -> None:
    """On an unhandled exception, autosave every document before Python reports it."""
    previous = sys.excepthook

    def hook(kind, value, tb) -> None:  # type: ignore[no-untyped-def]
        try:
            window.autosave_all()
        finally:
            previous(kind, value, tb)

    sys.excepthook = hook
