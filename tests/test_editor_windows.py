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

from shipyard._qt.window import helpmenu
from shipyard._qt.window.window import MainWindow

from .test_editor import _quiet, no_blocking_dialogs, user_copy
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
    view = w.open_file(user_copy(tmp_path, "rebel-frigate"))  # a file of the user's: it has a saved version
    assert view is not None
    view.doc.edit("name", "Frigate Two")
    compare = w.comparing.compare_with(view.doc, "saved")
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


def test_a_window_opened_beside_another_takes_the_room_beside_it_inside_the_screen(qtbot: Any) -> None:
    from PySide6.QtCore import QSize

    from shipyard._qt.widgets.placement import beside

    main = QWidget()
    qtbot.addWidget(main)
    area = main.screen().availableGeometry()
    main.setGeometry(area.left(), area.top(), area.width() // 2, area.height() // 2)
    main.show()
    qtbot.waitExposed(main)
    other = QWidget()
    qtbot.addWidget(other)
    beside(other, main, QSize(area.width() // 3, area.height() * 2))  # taller than the screen
    assert area.contains(other.geometry()) and not other.geometry().intersects(main.frameGeometry())
    main.move(area.right() + 1 - main.frameGeometry().width(), area.top())  # the room is on the left now
    beside(other, main, QSize(area.width() // 3, area.height() // 2))
    assert area.contains(other.geometry()) and other.geometry().right() < main.frameGeometry().left()


def test_a_detached_preview_opens_inside_the_screen_over_the_panels_not_the_form_and_closes_on_escape(
    qtbot: Any, tmp_path: Path
) -> None:
    w = made(qtbot, tmp_path / "settings.ini", preview=True)
    area = room(w)
    view = open_rendered(qtbot, w)
    preview = view.preview
    assert preview is not None
    qtbot.mouseClick(preview.bar.detach, Qt.MouseButton.LeftButton)
    win = preview.window_
    assert win is not None
    qtbot.waitExposed(win, timeout=RENDER_S)
    assert area.contains(win.geometry()), (win.geometry(), area)
    # the offscreen screen has no room beside the window: the preview covers its right-hand side
    form = view.tabs.mapTo(w, view.tabs.rect().topLeft()).x() + w.geometry().left() + view.tabs.width() // 2
    assert win.geometry().left() >= form, (win.geometry(), form)
    closes_by_escape(qtbot, win)
    assert preview.window_ is None and view.isAncestorOf(preview.view)  # closing attached it again


def test_a_long_status_message_is_elided_to_fit_and_its_tooltip_is_the_whole_text(qtbot: Any, tmp_path: Path) -> None:
    w = made(qtbot, tmp_path / "settings.ini")
    w.resize(800, 600)
    w.printing.open_url = lambda _url: True  # type: ignore[method-assign]
    pdf = tmp_path / ("a folder with a long name " * 6).strip() / "Kestrel Fighter record sheet.pdf"
    w.printing._printed(str(pdf), "")
    bar = w.statusBar()
    whole = f"Printed {pdf}"
    assert bar.currentMessage() == whole
    shown = bar.shown_message()  # type: ignore[attr-defined]
    assert shown != whole and "…" in shown and shown.endswith("record sheet.pdf")  # the file's name is seen
    assert bar.fontMetrics().horizontalAdvance(shown) <= bar.message_rect().width()  # type: ignore[attr-defined]
    assert bar.toolTip() == whole
    w.statusBar().showMessage("Saved k.ship", 5000)
    assert bar.shown_message() == "Saved k.ship" and bar.toolTip() == ""  # type: ignore[attr-defined]


def test_zoom_keeps_the_place_under_the_pointer_with_the_wheel_and_the_centre_with_the_keys(
    qtbot: Any, tmp_path: Path
) -> None:
    from PySide6.QtCore import QPoint

    from .test_editor_preview import ctrl_wheel

    w = made(qtbot, tmp_path / "settings.ini", preview=True)
    view = open_rendered(qtbot, w)
    preview = view.preview
    assert preview is not None
    sheet = preview.view
    near = 4  # pixels of the sheet at 100% (about 1.4 mm): the landed zoom moved the place 7 to 9
    centre = sheet.viewport().rect().center()
    before = sheet.sheet_point(centre)
    ctrl_wheel(sheet.viewport(), 2)  # about the pointer, here the middle of the view
    qtbot.wait(50)
    after = sheet.sheet_point(centre)
    assert abs(after.x() - before.x()) <= near and abs(after.y() - before.y()) <= near, (before, after)
    sheet.verticalScrollBar().setValue(sheet.verticalScrollBar().maximum() // 3)
    before = sheet.sheet_point(centre)
    name = view.binder.bindings["name"].widget
    name.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is name)
    qtbot.keyClick(name, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)  # the keys: about the centre
    qtbot.wait(50)
    after = sheet.sheet_point(centre)
    assert abs(after.x() - before.x()) <= near and abs(after.y() - before.y()) <= near, (before, after)
    assert sheet.verticalScrollBar().value() < sheet.verticalScrollBar().maximum()  # not thrown to the bottom
    corner = QPoint(sheet.viewport().width() // 4, sheet.viewport().height() // 4)
    before = sheet.sheet_point(corner)
    sheet.zoom_by(-1, corner)
    qtbot.wait(50)
    after = sheet.sheet_point(corner)
    assert abs(after.x() - before.x()) <= near or sheet.horizontalScrollBar().maximum() == 0, (before, after)
