"""Where the editor's windows open and how they close (issue 24): the first window fits
the screen's available area, a remembered one is kept inside the screen it opens on,
every extra window closes with its Close button and with Escape, and a detached preview
opens beside the main window, inside the screen (pytest-qt, offscreen)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QRect, QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QPushButton, QWidget

from shipyard._qt import helpmenu
from shipyard._qt.window import MainWindow

from .conftest import EXAMPLES
from .test_editor import _quiet, no_blocking_dialogs
from .test_editor_preview import RENDER_S, open_rendered

__all__ = ["no_blocking_dialogs"]  # fixtures used here


def made(qtbot: Any, settings: Path, *, preview: bool = False) -> MainWindow:
    w = _quiet(MainWindow(QSettings(str(settings), QSettings.Format.IniFormat), use_user_folder=False, preview=preview))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    return w


def room(w: QWidget) -> QRect:
    return w.screen().availableGeometry()


def test_the_first_window_fits_the_screens_available_area(qtbot: Any, tmp_path: Path) -> None:
    w = made(qtbot, tmp_path / "settings.ini")
    area = room(w)
    assert area.width() < 1400 or area.height() < 900  # the offscreen screen is smaller than the old first size
    assert area.contains(w.geometry()), (w.geometry(), area)
    assert w.width() >= 0.9 * min(area.width(), 1400) and w.height() >= 0.9 * min(area.height(), 900)


def test_a_remembered_window_larger_than_the_screen_and_off_it_is_kept_inside(qtbot: Any, tmp_path: Path) -> None:
    settings = tmp_path / "settings.ini"
    first = made(qtbot, settings)
    area = room(first)
    first.resize(area.width() * 2, area.height() * 2)  # remembered on a screen twice as large
    first.move(area.right() + 500, area.bottom() + 400)  # on a monitor no longer there
    first.close()
    assert QSettings(str(settings), QSettings.Format.IniFormat).value("window/geometry") is not None
    again = made(qtbot, settings)
    assert area.contains(again.geometry()), (again.geometry(), area)


def closes_by_button(qtbot: Any, window: QWidget) -> None:
    [buttons] = window.findChildren(QDialogButtonBox)
    close = buttons.button(QDialogButtonBox.StandardButton.Close)
    assert isinstance(close, QPushButton) and close.isVisible() and close.text().replace("&", "") == "Close"
    qtbot.mouseClick(close, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=2000)


def closes_by_escape(qtbot: Any, window: QWidget) -> None:
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=2000)
    target = QApplication.focusWidget() or window
    QTest.keyClick(target, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=2000)


@pytest.mark.parametrize("how", [closes_by_button, closes_by_escape])
def test_compare_and_the_help_windows_close_with_their_button_and_with_escape(
    qtbot: Any, tmp_path: Path, how: Any
) -> None:
    w = made(qtbot, tmp_path / "settings.ini")
    view = w.open_file(EXAMPLES / "rebel-frigate.ship")
    assert view is not None
    view.doc.edit("name", "Frigate Two")
    compare = w.compare_with(view.doc, "saved")
    assert compare is not None
    qtbot.waitExposed(compare)
    how(qtbot, compare)
    for show in (helpmenu.show_shortcuts, helpmenu.show_about, helpmenu.show_reading):
        shown = show(w)
        assert shown is not None
        frame = shown.window()
        assert frame is not w and frame.isVisible(), show.__name__
        assert room(w).contains(frame.geometry()), show.__name__
        how(qtbot, frame)


def test_a_detached_preview_opens_beside_the_main_window_inside_the_screen_and_closes_on_escape(
    qtbot: Any, tmp_path: Path
) -> None:
    w = made(qtbot, tmp_path / "settings.ini", preview=True)
    area = room(w)
    w.resize(area.width() // 2, area.height() - 40)
    w.move(area.left(), area.top())
    qtbot.waitUntil(lambda: w.width() == area.width() // 2, timeout=2000)
    view = open_rendered(qtbot, w)
    preview = view.preview
    assert preview is not None
    qtbot.mouseClick(preview.bar.detach, Qt.MouseButton.LeftButton)
    win = preview.window_
    assert win is not None
    qtbot.waitExposed(win, timeout=RENDER_S)
    assert area.contains(win.geometry()), (win.geometry(), area)
    overlap = win.frameGeometry().intersected(w.frameGeometry())
    assert overlap.width() <= 4, f"the preview covers the main window: {overlap}"  # frames may touch
    closes_by_escape(qtbot, win)
    assert preview.window_ is None and view.isAncestorOf(preview.view)  # closing attached it again
