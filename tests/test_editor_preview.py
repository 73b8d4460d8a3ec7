"""The live preview as a user handles it (issue 19): zoom with Ctrl+wheel, the keys and the
buttons, fit width and fit page, the zoom kept through edits and in the settings, the
preview in a window of its own, and an editor that quits mid-render without a warning.

What is checked is what the user sees: the pixels of the page in the view (where the
page is, against the view's grey), the zoom shown above it, the window it is in.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QEvent, QPoint, QPointF, QSettings, Qt
from PySide6.QtGui import QPalette, QWheelEvent
from PySide6.QtWidgets import QApplication, QWidget

from shipyard._qt.view.documentview import DocumentView
from shipyard._qt.window import helpmenu
from shipyard._qt.window.window import MainWindow

from .conftest import EXAMPLES
from .test_editor import _quiet, no_blocking_dialogs  # noqa: F401 (fixture)
from .test_editor_living import walk

RENDER_S = 120_000  # ms: the first render starts the worker process


def make_window(qtbot: Any, settings_file: Path) -> MainWindow:
    w = _quiet(MainWindow(QSettings(str(settings_file), QSettings.Format.IniFormat), use_user_folder=False))
    qtbot.addWidget(w)
    w.resize(1280, 900)
    w.show()
    qtbot.waitExposed(w)
    return w


@pytest.fixture
def window(qtbot: Any, tmp_path: Path) -> MainWindow:
    return make_window(qtbot, tmp_path / "settings.ini")


def open_rendered(qtbot: Any, window: MainWindow, name: str = "rebel-frigate") -> DocumentView:
    """A sample open with its preview rendered, the pane given room to show the sheet."""
    view = window.open_file(EXAMPLES / f"{name}.ship")
    assert view is not None
    view.finish_building()
    assert view.preview is not None
    sizes = view._right.sizes()
    view._right.setSizes([80] * (len(sizes) - 1) + [sum(sizes) - 80 * (len(sizes) - 1)])
    window.activateWindow()
    preview = view.preview
    qtbot.waitUntil(lambda: preview.renders >= 1 or "failed" in preview.status.text(), timeout=RENDER_S)
    assert preview.renders >= 1, preview.status.text()
    return view


def page_span(widget: QWidget) -> tuple[int, int, int, int]:
    """(left, right, top, bottom) of the page as painted in ``widget``: the pixels, through the
    middle, that are not the view's background (the grey around the page)."""
    image = widget.grab().toImage()
    background = widget.palette().color(QPalette.ColorRole.Dark).rgb()  # what QPdfView paints around pages
    mid_y, mid_x = image.height() // 2, image.width() // 2
    xs = [x for x in range(image.width()) if image.pixel(x, mid_y) != background]
    ys = [y for y in range(image.height()) if image.pixel(mid_x, y) != background]
    assert xs and ys, "no page painted"
    return xs[0], xs[-1], ys[0], ys[-1]


def ctrl_wheel(
    widget: QWidget, notches: int, modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.ControlModifier
) -> None:
    at = QPointF(widget.width() / 2, widget.height() / 2)
    event = QWheelEvent(
        at,
        QPointF(widget.mapToGlobal(at.toPoint())),
        QPoint(),
        QPoint(0, 120 * notches),
        Qt.MouseButton.NoButton,
        modifiers,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(widget, event)


def shown(view: DocumentView) -> str:
    assert view.preview is not None
    return view.preview.bar.level.text()


# --- zoom -----------------------------------------------------------------------------------


def test_ctrl_wheel_zooms_the_sheet_within_25_to_400_percent(qtbot: Any, window: MainWindow) -> None:
    view = open_rendered(qtbot, window)
    preview = view.preview
    assert preview is not None
    sheet = preview.view
    assert preview.bar.fit_width.isChecked()  # it opens as wide as the pane
    qtbot.mouseClick(preview.bar.fit_page, Qt.MouseButton.LeftButton)  # the whole sheet, to see it grow
    before = page_span(sheet.viewport())
    start = sheet.shown_zoom()
    assert shown(view) == f"{round(start * 100)}%"
    ctrl_wheel(sheet.viewport(), 1)
    assert sheet.shown_zoom() == pytest.approx(start * 1.25)
    assert shown(view) == f"{round(start * 125)}%"
    after = page_span(sheet.viewport())
    # the page is painted wider (taller too, but the view may be shorter than the zoomed page:
    # it is cut at the view's edges, about the place under the pointer)
    assert after[1] - after[0] > before[1] - before[0]
    ctrl_wheel(sheet.viewport(), 30)
    assert shown(view) == "400%" and not preview.bar.zoom_in.isEnabled()
    ctrl_wheel(sheet.viewport(), -60)
    assert shown(view) == "25%" and not preview.bar.zoom_out.isEnabled()
    ctrl_wheel(sheet.viewport(), 2, Qt.KeyboardModifier.NoModifier)  # a wheel alone scrolls, it does not zoom
    assert shown(view) == "25%"


def test_fit_width_makes_the_page_as_wide_as_the_view_and_fit_page_shows_all_of_it(
    qtbot: Any, window: MainWindow
) -> None:
    view = open_rendered(qtbot, window)
    preview = view.preview
    assert preview is not None
    sheet = preview.view
    qtbot.mouseClick(preview.bar.fit_width, Qt.MouseButton.LeftButton)
    margins = sheet.documentMargins()
    left, right, _top, _bottom = page_span(sheet.viewport())
    assert (left, right) == (margins.left(), sheet.viewport().width() - margins.right() - 1)
    assert preview.bar.fit_width.isChecked() and not preview.bar.fit_page.isChecked()
    assert shown(view) == f"{round(sheet.shown_zoom() * 100)}%"
    qtbot.mouseClick(preview.bar.fit_page, Qt.MouseButton.LeftButton)
    left, right, top, bottom = page_span(sheet.viewport())
    margins = sheet.documentMargins()  # none above and below a fitted page (QPdfView fits it without them)
    assert top == margins.top() and bottom < sheet.viewport().height()  # the whole sheet, top to bottom
    qtbot.waitUntil(lambda: sheet.verticalScrollBar().maximum() == 0, timeout=2000)  # nothing to scroll to
    assert preview.bar.fit_page.isChecked() and shown(view) == f"{round(sheet.shown_zoom() * 100)}%"


def test_the_zoom_keys_work_from_the_form_and_help_lists_them_each_once(qtbot: Any, window: MainWindow) -> None:
    view = open_rendered(qtbot, window)
    preview = view.preview
    assert preview is not None
    name = view.binder.bindings["name"].widget
    name.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is name)
    qtbot.keyClick(name, Qt.Key.Key_9, Qt.KeyboardModifier.ControlModifier)
    assert preview.bar.fit_width.isChecked()
    width_zoom = preview.view.shown_zoom()
    qtbot.keyClick(name, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    assert preview.view.shown_zoom() == pytest.approx(width_zoom * 1.25)
    qtbot.keyClick(name, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert preview.view.shown_zoom() == pytest.approx(width_zoom)
    qtbot.keyClick(name, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    assert preview.bar.fit_page.isChecked()
    assert QApplication.focusWidget() is name and view.doc.design.name == "Rebel Frigate"  # nothing typed
    listed = {what: keys for keys, what in helpmenu.shortcuts(window)}
    assert listed["View > Zoom in on the preview"] == "Ctrl++ or Ctrl+="
    assert listed["View > Zoom out of the preview"] == "Ctrl+-"
    assert listed["View > Preview: fit width"] == "Ctrl+9"
    assert listed["View > Preview: fit page"] == "Ctrl+0"
    assert listed["View > Preview in its own window"] == "Ctrl+Shift+D"
    menus = [keys for keys, what in helpmenu.shortcuts(window) if (keys, what) not in helpmenu.FIELD_KEYS]
    every = [k for keys in menus for k in re.split(r", | or ", keys)]
    assert len(every) == len(set(every)), "a key is bound twice"


def test_the_zoom_stays_through_an_edit_and_the_next_preview_starts_with_it(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    view = open_rendered(qtbot, window)
    preview = view.preview
    assert preview is not None
    preview.view.fit_width()
    preview.view.zoom_by(2)  # 156% of the width: the user reads a part of the sheet
    zoom = preview.view.shown_zoom()
    bar = preview.view.verticalScrollBar()
    bar.setValue(bar.maximum() // 2)
    place = bar.value()
    assert place > 0
    view.doc.edit("name", "Frigate Two")
    qtbot.waitUntil(lambda: preview.renders >= 2, timeout=RENDER_S)
    assert preview.pdf.getAllText(0).text().startswith("Frigate Two")
    assert preview.view.shown_zoom() == pytest.approx(zoom) and shown(view) == f"{round(zoom * 100)}%"
    assert bar.value() == place  # the part read stays in view
    assert window.settings.value("preview/zoom") == f"{zoom:.4g}"
    preview.view.fit_width()
    assert window.settings.value("preview/zoom") == "fit-width"
    window.settings.sync()
    again = make_window(qtbot, tmp_path / "settings.ini")  # the next start, with the same settings
    later = open_rendered(qtbot, again, "rebel-fighter")
    assert later.preview is not None and later.preview.bar.fit_width.isChecked()
    left, right, _t, _b = page_span(later.preview.view.viewport())
    assert right - left + 1 == later.preview.view.viewport().width() - 12  # QPdfView's margins, 6 a side


# --- detached -------------------------------------------------------------------------------


def test_detach_moves_the_sheet_into_its_own_window_which_follows_edits_and_attach_brings_it_back(
    qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    from shipyard._qt.document import document

    view = open_rendered(qtbot, window)
    preview = view.preview
    assert preview is not None
    evaluations: list[object] = []
    real = document.design_report

    def counted(*args: Any, **kw: Any) -> Any:
        evaluations.append(args[0])
        return real(*args, **kw)

    monkeypatch.setattr(document, "design_report", counted)
    qtbot.mouseClick(preview.bar.detach, Qt.MouseButton.LeftButton)
    win = preview.window_
    assert win is not None
    qtbot.waitExposed(win)
    assert win.isWindow() and win.isVisible() and win.window() is not window
    assert win.windowTitle() == f"Record sheet: {view.doc.title} — Shipyard"
    assert win.isAncestorOf(preview.view) and not view.isAncestorOf(preview.view)
    assert preview.placeholder.isVisible() and preview.attach_button.accessibleName()
    assert preview.bar.detach.text() == "Attach" and preview.bar.detach.accessibleName()
    assert page_span(preview.view.viewport())  # the page is painted in the new window
    renders = preview.renders
    view.doc.edit("name", "Frigate Two")
    qtbot.waitUntil(lambda: preview.renders > renders, timeout=RENDER_S)
    assert preview.renders == renders + 1 and len(evaluations) == 1  # one render, of the one evaluation
    assert preview.pdf.getAllText(0).text().startswith("Frigate Two")
    assert win.isAncestorOf(preview.view) and preview.status.text() == "Preview: as it will print"
    qtbot.mouseClick(preview.bar.detach, Qt.MouseButton.LeftButton)  # now "Attach"
    assert preview.window_ is None and not win.isVisible()
    assert view.isAncestorOf(preview.view) and preview.view.isVisible() and not preview.placeholder.isVisible()
    assert page_span(preview.view.viewport())
    assert window.settings.value("preview/window") is not None  # where the window was, for the next time


def test_the_keys_detach_and_attach_and_closing_the_window_attaches(qtbot: Any, window: MainWindow) -> None:
    view = open_rendered(qtbot, window)
    preview = view.preview
    assert preview is not None
    view.binder.bindings["name"].widget.setFocus()
    qtbot.keyClick(
        QApplication.focusWidget(),
        Qt.Key.Key_D,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    win = preview.window_
    assert win is not None
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win)
    assert QApplication.focusWidget() is preview.view  # the keyboard is on the sheet: arrows scroll it
    qtbot.keyClick(preview.view, Qt.Key.Key_9, Qt.KeyboardModifier.ControlModifier)  # the View keys work here too
    assert preview.bar.fit_width.isChecked()
    qtbot.keyClick(preview.view, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert preview.window_ is None and view.isAncestorOf(preview.view)
    preview.detach()
    win = preview.window_
    assert win is not None
    win.close()  # the window manager's close button
    assert preview.window_ is None and view.isAncestorOf(preview.view) and preview.bar.fit_width.isChecked()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    forward = walk(qtbot, view.tabs.tabBar(), Qt.KeyboardModifier.NoModifier)  # back in the design's Tab order
    order = [w for w in forward if w in (view.findings, preview.bar.zoom_out, preview.bar.fit_page, preview.view)]
    assert order == [view.findings, preview.bar.zoom_out, preview.bar.fit_page, preview.view]


def test_closing_the_tab_or_the_main_window_closes_the_detached_preview(qtbot: Any, window: MainWindow) -> None:
    first = open_rendered(qtbot, window)
    second = open_rendered(qtbot, window, "rebel-fighter")
    assert first.preview is not None and second.preview is not None
    one, two = first.preview.detach(), second.preview.detach()
    qtbot.waitExposed(two)
    window.close_tab(window.tabs.indexOf(second))
    assert not two.isVisible() and one.isVisible()
    window.close()
    assert not one.isVisible()
    qtbot.waitUntil(lambda: not [w for w in QApplication.topLevelWidgets() if w.isVisible()])


# --- quitting mid-render --------------------------------------------------------------------


@pytest.mark.fresh_workers  # quitting stops the editor's worker
def test_quitting_while_the_preview_renders_signals_no_deleted_object(
    qtbot: Any, window: MainWindow, qtlog: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """File > Quit while a render is under way: the tabs close, the panel and its bridge are
    deleted, and the render thread's answer must go nowhere, without PySide's "Signal source
    has been deleted" (a RuntimeError in the thread) or any Qt warning about it. The render
    worker is kept busy (its one-job-at-a-time lock held, as a print in progress holds it) so
    the render is sure to be still under way when the panel goes."""
    from shipyard._qt.preview import rendering

    failures: list[str] = []
    monkeypatch.setattr(
        threading, "excepthook", lambda args: failures.append(f"{args.exc_type.__name__}: {args.exc_value}")
    )
    view = open_rendered(qtbot, window)
    preview = view.preview
    assert preview is not None
    bridge = preview.bridge
    worker = rendering.shared_worker()
    with worker._lock:  # the worker is busy: the preview's render waits its turn
        view.doc.edit("name", "Frigate Two")
        preview.timer.stop()
        preview._start()  # the render starts now, as the timer would
        thread = preview.render_thread
        assert thread is not None and thread.is_alive() and preview.status.text() == "Preview: rendering…"
        window.close()  # File > Quit: the tabs close, the render worker is stopped
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)  # the panel and its bridge go
        assert bridge.closed
    thread.join(30)  # the render fails on the stopped worker and answers
    assert not thread.is_alive()
    qtbot.wait(50)  # anything the thread posted arrives
    said = [m.message for m in qtlog.records] + failures
    assert not [m for m in said if "deleted" in m.lower()], said


def test_the_preview_actions_do_not_bring_qtpdf_onto_the_start_up_path(tmp_path: Path) -> None:
    """The View menu's preview actions are made with the window; QtPdf still loads only with
    the first preview, after the window shows (a start without designs never loads it)."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from PySide6.QtCore import QSettings\n"
        "from PySide6.QtWidgets import QApplication\n"
        "app = QApplication([])\n"
        "from shipyard._qt.window.window import MainWindow\n"
        f"w = MainWindow(QSettings({str(tmp_path / 's.ini')!r}, QSettings.Format.IniFormat), use_user_folder=False)\n"
        "w.show()\n"
        "app.processEvents()\n"
        "print(sorted(m for m in sys.modules if m.startswith('PySide6.QtPdf') or m.endswith('sheetview')))\n"
        "from shipyard._qt.preview.viewmenu import PreviewActions\n"
        "print(len(w.findChild(PreviewActions).actions()))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["[]", "5"]


def test_a_print_that_finishes_after_its_window_is_gone_reports_to_no_one(
    qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Print to PDF, then the window is deleted while the render waits for the worker: when
    the render answers, nothing may reach the deleted window (its status bar, a message box)
    and no thread may fail ("Internal C++ object already deleted")."""
    from shipyard._qt.preview import rendering

    failures: list[str] = []
    monkeypatch.setattr(
        threading, "excepthook", lambda args: failures.append(f"{args.exc_type.__name__}: {args.exc_value}")
    )
    window = _quiet(MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), use_user_folder=False))
    window.show()
    view = window.open_file(EXAMPLES / "rebel-frigate.ship")
    assert view is not None
    answered: list[str] = []
    bridge = window.printing.bridge
    bridge.done.connect(lambda path, error: answered.append(path or error))
    worker = rendering.shared_worker()
    with worker._lock:  # the worker is busy: the print waits its turn
        thread = window.printing.print_to(tmp_path / "late.pdf", window.documents(), "record", "a4")
        assert thread.is_alive()
        window.close()
        window.deleteLater()
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
    thread.join(60)
    assert not thread.is_alive()
    qtbot.wait(50)  # anything the thread posted arrives
    assert answered == [] and failures == [], (answered, failures)


def test_the_preview_keeps_its_sheets_in_a_folder_named_for_this_editor(qtbot: Any, window: MainWindow) -> None:
    """Named for the editor's process, so what an editor that was killed left there is known
    as left over and swept later (shipyard.render.scratch.sweep_leftovers); the sheet on
    screen is the only one kept."""
    import os

    from shipyard.render.scratch import LEFTOVER_NAME, PREVIEW_PREFIX

    view = open_rendered(qtbot, window)
    preview = view.preview
    assert preview is not None
    folder = Path(preview._dir.name)
    named = LEFTOVER_NAME.match(folder.name)
    assert folder.name.startswith(PREVIEW_PREFIX) and named is not None and int(named.group(1)) == os.getpid()
    assert [p.name for p in folder.iterdir()] == [Path(str(preview._shown)).name]
