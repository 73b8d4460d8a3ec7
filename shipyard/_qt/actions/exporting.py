"""File > Export: the current design (or, with "All open designs" ticked, every open
design) as card, token or sheet PNGs, or as Foundry VTT actors, into a folder the user
picks; the folder dialog starts where that kind of export went last.

The files are made from a helper thread, as printing is (never on the GUI thread; cards
and sheets on the shared render worker). Back on the GUI thread, files of those names
already in the folder are named and the person chooses Replace or Cancel
(:mod:`shipyard._qt.dialogs.replacing`); then they are written all or none, from a helper thread
again. A link, folder or device where a file would go is refused and nothing is written."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QMenu

from shipyard._qt.preview.rendering import RenderBridge, shared_worker
from shipyard.core.errors import InputError

EXPORTS = (
    ("&Card images (PNG)…", "card-png"),
    ("&Token image (PNG, transparent)…", "token-png"),
    ("Record &sheet images (PNG)…", "sheet-png"),
    ("&Foundry VTT actor (JSON and token)…", "foundry"),
)


@dataclass
class Made:
    """An export's files, made and not written yet: (name, bytes) for ``folder``."""

    folder: Path
    files: list[tuple[str, bytes]]

    @property
    def targets(self) -> list[Path]:
        return [self.folder / name for name, _ in self.files]


class ExportBridge(RenderBridge):
    """``made`` (a :class:`Made`) when an export's files are made; ``done`` (folder, error)
    when they are written, or the export failed."""

    made = Signal(object)


def add_menu(window: Any, file_menu: QMenu) -> QMenu:
    """The File > Export submenu; ``window.export_bridge`` answers when an export is done."""
    menu = file_menu.addMenu("&Export")
    window.export_bridge = ExportBridge(window)
    window.export_bridge.done.connect(lambda folder, error: _exported(window, folder, error))
    window.export_bridge.made.connect(lambda made: write_made(window, made))
    for text, kind in EXPORTS:
        action = menu.addAction(text)
        action.setData(kind)
        action.triggered.connect(lambda _=False, k=kind: ask_and_export(window, k))
    menu.addSeparator()
    window.export_all = menu.addAction("&All open designs")
    window.export_all.setCheckable(True)
    window.export_all.setStatusTip("Export every open design, not only the one shown")
    return menu


def ask_and_export(window: Any, kind: str) -> threading.Thread | None:
    view = window.current()
    if view is None:
        window.statusBar().showMessage("Open a design to export it", 5000)
        return None
    docs = window.documents() if window.export_all.isChecked() else [view.doc]
    folder = ask_folder(window, kind, "the open designs" if len(docs) > 1 else "the design", view.doc)
    return export_to(window, folder, docs, kind) if folder is not None else None


def ask_folder(window: Any, kind: str, what: str, doc: Any = None) -> Path | None:
    """The folder to export ``what`` into, asked starting where that kind of export went last
    (else ``doc``'s folder); None when the person cancels."""
    from PySide6.QtWidgets import QFileDialog  # made on first use, off the start-up path

    start = window.recent_files.export_folder(kind, doc)
    folder = QFileDialog.getExistingDirectory(window, f"Export {what} into folder", str(start or ""))
    if not folder:
        return None
    window.recent_files.remember_export_folder(kind, Path(folder))
    return Path(folder)


def _said(exc: Exception) -> str:
    return "\n".join(str(p) for p in getattr(exc, "problems", [])) or str(exc)


def export_to(window: Any, folder: Path, docs: list[Any], kind: str) -> threading.Thread:
    """Make ``docs``' ``kind`` files for ``folder`` in the background; the bridge brings them
    back to be written (:func:`write_made`), or says why they could not be made."""
    for doc in docs:
        doc.flush()  # what is being typed is exported too
    return export_loaded(window, folder, [d.loaded for d in docs], kind)


def export_loaded(window: Any, folder: Path, loaded: list[Any], kind: str) -> threading.Thread:
    """:func:`export_to` of designs as loaded (open documents, or design files the Hangar chose)."""
    paper = getattr(window, "paper", "a4")
    bridge = window.export_bridge
    window.statusBar().showMessage(f"Exporting into {folder}…")

    def run() -> None:
        from shipyard.exports import export_contents

        left_out: list[str] = []
        try:
            files = export_contents(loaded, kind, [shared_worker()], paper=paper, left_out=left_out)
        except Exception as exc:  # an InputError or a failed render: shown, not raised
            bridge.send(str(folder), _said(exc))
            return
        window.export_left_out = left_out  # read by _exported, on the GUI thread, once the files are written
        made = Made(folder, files)
        bridge.deliver(lambda: bridge.made.emit(made))

    thread = threading.Thread(target=run, daemon=True, name="shipyard-export")
    thread.start()
    return thread


def write_made(window: Any, made: Made) -> threading.Thread | None:
    """On the GUI thread: ask before replacing files that are there, then write ``made`` in
    the background; Cancel writes nothing. A file that appears in the folder while they are
    written (another program's) brings the question back, never replaced unasked."""
    from shipyard._qt.dialogs.replacing import ask_replace, existing  # made on first use, off the start-up path
    from shipyard.core.designfile import refuse_non_regular

    targets = made.targets
    try:
        for target in targets:
            refuse_non_regular(target)
    except InputError as exc:
        window.show_error("Export failed", _said(exc))
        return None
    there = existing(targets)
    if not ask_replace(window, there):
        window.statusBar().showMessage(f"Nothing exported: the files in {made.folder} are as they were", 8000)
        return None
    bridge = window.export_bridge

    def run() -> None:
        from shipyard.exports import write_export

        try:
            write_export(made.folder, made.files, force=bool(there))
        except Exception as exc:
            if isinstance(exc, InputError) and set(existing(targets)) - set(there):
                bridge.deliver(lambda: bridge.made.emit(made))  # ask again, about the new ones too
                return
            bridge.send(str(made.folder), _said(exc))
            return
        bridge.send(str(made.folder), "")

    thread = threading.Thread(target=run, daemon=True, name="shipyard-export-write")
    thread.start()
    return thread


def _exported(window: Any, folder: str, error: str) -> None:
    if error:
        window.show_error("Export failed", error)
        return
    left_out = getattr(window, "export_left_out", [])
    if left_out:  # exported all the same, without the pictures that cannot be shown: said, with why
        window.statusBar().showMessage(f"Exported into {folder}; without art: {'; '.join(left_out)}", 20000)
        return
    window.statusBar().showMessage(f"Exported into {folder}", 8000)
