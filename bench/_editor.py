"""The editor window the GUI benches drive: fresh settings, no user folder, closing discards."""

from __future__ import annotations

import tempfile
from typing import Any


def editor_window(*, preview: bool) -> tuple[Any, Any]:
    """(the QApplication, a shown MainWindow with settings of its own), with the garbage
    collector as shipyard-gui leaves it once its window is up: what start-up made frozen
    out of collections. Without it, a full collection walks every module, class and
    catalog object again (20-70 ms here, 2 cores, load 1-3), and with 20-40 timed commits
    the one it lands in sets the p95.
    """
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    from shipyard._qt.window.window import MainWindow

    tmp = tempfile.mkdtemp()
    w = MainWindow(QSettings(f"{tmp}/s.ini", QSettings.Format.IniFormat), use_user_folder=False, preview=preview)
    w.ask_unsaved = lambda _d: "discard"
    w.show()
    from shipyard._qt.app import resume_collection

    resume_collection()
    return app, w
