"""File > Export: the current design (or, with "All open designs" ticked, every open
design) as card, token or sheet PNGs, or as Foundry VTT actors, into a folder the user
picks. The files are made from a helper thread, as printing is (never on the GUI thread;
cards and sheets on the shared render worker), and written all or none; a file that
exists already is refused, naming it, and nothing is written."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QMenu

from shipyard._qt.rendering import RenderBridge, shared_worker

EXPORTS = (
    ("&Card images (PNG)…", "card-png"),
    ("&Token image (PNG, transparent)…", "token-png"),
    ("Record &sheet images (PNG)…", "sheet-png"),
    ("&Foundry VTT actor (JSON and token)…", "foundry"),
)


def add_menu(window: Any, file_menu: QMenu) -> QMenu:
    """The File > Export submenu; ``window.export_bridge`` answers when an export is done."""
    menu = file_menu.addMenu("&Export")
    window.export_bridge = RenderBridge(window)
    window.export_bridge.done.connect(lambda folder, error: _exported(window, folder, error))
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
    from PySide6.QtWidgets import QFileDialog  # made on first use, off the start-up path

    view = window.current()
    if view is None:
        window.statusBar().showMessage("Open a design to export it", 5000)
        return None
    docs = window.documents() if window.export_all.isChecked() else [view.doc]
    start = str(view.doc.path.parent) if view.doc.path else ""
    what = "the open designs" if len(docs) > 1 else "the design"
    folder = QFileDialog.getExistingDirectory(window, f"Export {what} into folder", start)
    if not folder:
        return None
    return export_to(window, Path(folder), docs, kind)


def export_to(window: Any, folder: Path, docs: list[Any], kind: str) -> threading.Thread:
    """Export ``docs`` as ``kind`` into ``folder`` in the background; the bridge reports the outcome."""
    for doc in docs:
        doc.flush()  # what is being typed is exported too
    loaded = [d.loaded for d in docs]
    paper = getattr(window, "paper", "a4")
    window.statusBar().showMessage(f"Exporting into {folder}…")

    def run() -> None:
        from shipyard.exports import export_files

        error = ""
        left_out: list[str] = []
        try:
            export_files(loaded, kind, folder, [shared_worker()], paper=paper, left_out=left_out)
        except Exception as exc:  # an InputError (a file exists) or a failed render: shown, not raised
            error = "\n".join(str(p) for p in getattr(exc, "problems", [])) or str(exc)
        window.export_left_out = left_out  # read by _exported, on the GUI thread, once the bridge answers
        window.export_bridge.send(str(folder), error)

    thread = threading.Thread(target=run, daemon=True, name="shipyard-export")
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
