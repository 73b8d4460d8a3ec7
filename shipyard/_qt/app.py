"""Start the editor: `shipyard-gui [FILE...]` or `shipyard gui [FILE...]`."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PySide6.QtGui import QPalette


def dark_palette() -> QPalette:
    from PySide6.QtGui import QColor, QPalette

    p = QPalette()
    roles = {
        QPalette.ColorRole.Window: "#24282f", QPalette.ColorRole.WindowText: "#e6e8eb",
        QPalette.ColorRole.Base: "#1b1e23", QPalette.ColorRole.AlternateBase: "#2a2f37",
        QPalette.ColorRole.Text: "#e6e8eb", QPalette.ColorRole.Button: "#2d323a",
        QPalette.ColorRole.ButtonText: "#e6e8eb", QPalette.ColorRole.Highlight: "#4a7bd0",
        QPalette.ColorRole.HighlightedText: "#ffffff", QPalette.ColorRole.ToolTipBase: "#2d323a",
        QPalette.ColorRole.ToolTipText: "#e6e8eb", QPalette.ColorRole.PlaceholderText: "#8b929c",
        QPalette.ColorRole.Link: "#8ab4f8",
    }  # fmt: skip
    for role, color in roles.items():
        p.setColor(role, QColor(color))
    p.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text, QColor("#6b717a"))
    p.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.WindowText, QColor("#6b717a"))
    p.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.ButtonText, QColor("#6b717a"))
    return p


def build(argv: Sequence[str]) -> tuple[Any, Any]:
    """The application and its window, ready to show (tests and benchmarks use this)."""
    parser = argparse.ArgumentParser(prog="shipyard-gui", description="The Shipyard editor.")
    parser.add_argument("files", nargs="*", type=Path, help="design files to open")
    parser.add_argument("--dark", action="store_true", help="use a dark palette")
    parser.add_argument("--no-preview", action="store_true", help="do not render the live sheet preview")
    args = parser.parse_args(list(argv))

    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    from PySide6.QtCore import QCoreApplication, QSettings
    from PySide6.QtWidgets import QApplication

    from shipyard._qt.window import MainWindow, install_crash_autosave

    QCoreApplication.setOrganizationName("Shipyard")
    QCoreApplication.setApplicationName("Shipyard")
    app = QApplication.instance() or QApplication([sys.argv[0]])
    assert isinstance(app, QApplication)
    if args.dark:
        app.setStyle("Fusion")
        app.setPalette(dark_palette())
    window = MainWindow(QSettings(), preview=not args.no_preview)
    install_crash_autosave(window)
    for f in args.files:
        window.open_file(f)
    return app, window


def main(argv: Sequence[str] | None = None) -> int:
    app, window = build(sys.argv[1:] if argv is None else argv)
    window.show()
    from PySide6.QtCore import QTimer

    QTimer.singleShot(0, window.offer_restore)
    return int(app.exec())


if __name__ == "__main__":
    raise SystemExit(main())
