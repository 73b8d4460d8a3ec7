"""One start of the editor on a screen of a given size, run as a process of its own by
tests/test_editor_screens.py (a QApplication's screens are fixed when it starts).

Usage: python tests/screen_start.py SETTINGS.ini DESIGN.ship [--drag PIXELS] [--resize WxH]

The screen is the offscreen platform's, sized by its configuration file (QT_QPA_PLATFORM=
offscreen:configfile=...). The editor opens DESIGN with the settings in SETTINGS.ini and is
left until its preview shows the sheet; then, as a person would, the splitter between the
steps and the panels is dragged with the mouse (--drag: pixels to the left), the window
resized (--resize, what a window manager does when a person drags its corner), and the
window closed. What the start looked like is printed as one line of JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from PySide6.QtCore import QElapsedTimer, QPoint, QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

WAIT_MS = 20_000  # the first sheet's render, on a busy machine


def wait_until(app: QApplication, done: Any) -> bool:
    clock = QElapsedTimer()
    clock.start()
    while not done():
        if clock.elapsed() > WAIT_MS:
            return False
        app.processEvents()
        QTest.qWait(20)
    return True


def rect(r: Any) -> list[int]:
    return [r.x(), r.y(), r.width(), r.height()]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("settings")
    parser.add_argument("design")
    parser.add_argument("--drag", type=int, default=0)
    parser.add_argument("--resize", default="")
    args = parser.parse_args(argv)
    app = QApplication([sys.argv[0]])
    from shipyard._qt.window.window import MainWindow

    settings = QSettings(args.settings, QSettings.Format.IniFormat)
    window = MainWindow(settings, use_user_folder=False)
    view = window.open_file(Path(args.design))
    assert view is not None
    window.show()
    QTest.qWaitForWindowExposed(window)
    shown = wait_until(
        app,
        lambda: (
            view.preview is not None and view.preview.sheet.isVisible() and view.preview.view.document().pageCount() > 0
        ),
    )
    QTest.qWait(300)  # the layout settles after the first sheet
    preview = view.preview
    assert preview is not None
    out: dict[str, Any] = {
        "screen": rect(window.screen().availableGeometry()),
        "window": rect(window.geometry()),
        "frame": rect(window.frameGeometry()),
        "sides": view.split.sizes(),
        "preview": [preview.view.width(), preview.view.height()],
        "zoom": preview.view.setting(),
        "rendered": shown,
    }
    if args.drag:
        handle = view.split.handle(1)
        start = handle.mapToGlobal(handle.rect().center())
        QTest.mousePress(handle, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, handle.mapFromGlobal(start))
        for step in range(1, 11):  # a person's drag: several moves, not a jump (the handle moves along)
            QTest.mouseMove(handle, handle.mapFromGlobal(start - QPoint(args.drag * step // 10, 0)))
        end = handle.mapFromGlobal(start - QPoint(args.drag, 0))
        QTest.mouseRelease(handle, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, end)
        QTest.qWait(100)
        out["dragged"] = view.split.sizes()
    if args.resize:
        width, height = (int(n) for n in args.resize.split("x"))
        window.resize(width, height)
        wait_until(app, lambda: (window.width(), window.height()) == (width, height))
        out["resized"] = rect(window.geometry())
    window.close()
    settings.sync()
    print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
