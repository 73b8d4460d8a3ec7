"""The editor window the GUI benches drive: fresh settings, no user folder, closing discards."""

from __future__ import annotations

import tempfile
from typing import Any


def editor_window(*, preview: bool) -> tuple[Any, Any]:
    """(the QApplication, a shown MainWindow with settings of its own)."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    from shipyard._qt.window import MainWindow

    tmp = tempfile.mkdtemp()
    w = MainWindow(QSettings(f"{tmp}/s.ini", QSettings.Format.IniFormat), use_user_folder=False, preview=preview)
    w.ask_unsaved = lambda _d: "discard"
    w.show()
    return app, w
