"""The focus frames (issue 24) drawn by the application's style, with no style sheet.

A style sheet on the window made Qt draw and measure every widget in it through its
style-sheet engine. :class:`FocusFrameStyle` draws the same frames: these tests hold that
it is the style in use, that nothing in the window carries a style sheet, that each kind
of control shows the focus in the palette's highlight colour where it did, and that
showing it moves nothing. ``test_editor_by_hand.py`` tabs onto each kind on every page.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QVBoxLayout,
    QWidget,
)

from shipyard._qt.window.focusstyle import VIEW_FRAME, FocusFrameStyle, install_focus_frames
from shipyard._qt.window.window import MainWindow

from .test_editor import window  # noqa: F401 (fixture)
from .test_editor_layout import CATALOGS


def highlight_pixels(image: QImage, colour: QColor) -> int:
    """How many pixels of ``image`` are ``colour`` (the focus frame's)."""
    rgb = colour.rgb()
    return sum(image.pixel(x, y) == rgb for y in range(image.height()) for x in range(image.width()))


@pytest.fixture
def controls(qtbot: Any) -> Iterator[tuple[QWidget, QLineEdit, QListWidget, QCheckBox, QLabel]]:
    """A line edit to hold the focus elsewhere, a list, a check box without a label and a
    value a person may Tab to, in a shown widget of the application's style."""
    install_focus_frames(QApplication.instance())  # type: ignore[arg-type]
    holder = QWidget()
    qtbot.addWidget(holder)
    elsewhere, view, box, value = QLineEdit("elsewhere"), QListWidget(), QCheckBox(), QLabel("12")
    view.addItems(["Cockpit", "Engineering"])
    value.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    column = QVBoxLayout(holder)
    for w in (elsewhere, view, box, value):
        column.addWidget(w)
    holder.resize(300, 300)
    holder.show()
    qtbot.waitExposed(holder)
    yield holder, elsewhere, view, box, value


def test_the_editor_draws_its_focus_frames_with_its_style_and_no_style_sheet(
    qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from shipyard._qt.window import window as window_module

    installed: list[object] = []
    monkeypatch.setattr(window_module, "install_focus_frames", installed.append)
    made = MainWindow(
        QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), use_user_folder=False, preview=False
    )
    qtbot.addWidget(made)
    assert installed == [QApplication.instance()], "a window does not install the focus frames"
    view = window.open_file(CATALOGS / "cluster-falk" / "examples" / "dominion-carrier.ship")
    assert view is not None
    view.finish_building()
    assert isinstance(QApplication.style(), FocusFrameStyle)
    assert QApplication.instance().styleSheet() == ""  # type: ignore[union-attr]
    sheets = [w.objectName() or type(w).__name__ for w in (window, *window.findChildren(QWidget)) if w.styleSheet()]
    assert sheets == [], f"widgets with a style sheet: {sheets}"


def test_a_second_install_keeps_the_one_style(controls: Any) -> None:
    style = QApplication.style()
    install_focus_frames(QApplication.instance())  # type: ignore[arg-type]
    assert QApplication.style() is style


@pytest.mark.parametrize("kind", ["list", "check box", "value"])
def test_each_kind_of_control_shows_the_focus_in_the_highlight_colour(qtbot: Any, controls: Any, kind: str) -> None:
    _holder, elsewhere, view, box, value = controls
    w = {"list": view, "check box": box, "value": value}[kind]
    colour = w.palette().color(QPalette.ColorRole.Highlight)
    elsewhere.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(elsewhere.hasFocus, timeout=2000)
    plain = highlight_pixels(w.grab().toImage(), colour)
    w.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(w.hasFocus, timeout=2000)
    focused = highlight_pixels(w.grab().toImage(), colour)
    perimeter = 2 * (w.width() + w.height()) - 4 * 8  # a frame a pixel wide all round, less its rounded corners
    assert focused - plain >= perimeter, f"{kind}: {plain} highlight pixels unfocused, {focused} focused"


def test_a_view_s_frame_is_as_wide_focused_or_not_so_the_focus_moves_nothing(qtbot: Any, controls: Any) -> None:
    _holder, elsewhere, view, _box, _value = controls
    assert view.frameWidth() == VIEW_FRAME
    elsewhere.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(elsewhere.hasFocus, timeout=2000)
    before = (view.geometry(), view.viewport().geometry(), view.frameWidth())
    view.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(view.hasFocus, timeout=2000)
    assert (view.geometry(), view.viewport().geometry(), view.frameWidth()) == before


@pytest.fixture
def style_restored() -> Iterator[QApplication]:
    """The application, its style and palette put back as they were after the test."""
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    before = app.style()
    focus = isinstance(before, FocusFrameStyle)
    name = before.baseStyle().name() if isinstance(before, FocusFrameStyle) else before.name()
    palette = app.palette()
    yield app
    app.setStyle(FocusFrameStyle(name) if focus else name)
    app.setPalette(palette)


def test_a_dark_palette_set_before_the_style_is_kept(qtbot: Any, style_restored: QApplication) -> None:
    """``shipyard-gui --dark`` sets Fusion and a dark palette before the window installs
    the focus frames: the palette stays, and the frames are drawn in its colours."""
    from shipyard._qt.app import dark_palette

    app = style_restored
    app.setStyle("Fusion")
    app.setPalette(dark_palette())
    dark = app.palette().color(QPalette.ColorRole.Window)
    install_focus_frames(app)
    assert isinstance(app.style(), FocusFrameStyle)
    assert app.style().baseStyle().name().lower() == "fusion"
    assert app.palette().color(QPalette.ColorRole.Window) == dark


def test_another_style_gets_each_view_s_own_frame_back(qtbot: Any, style_restored: QApplication) -> None:
    app = style_restored
    app.setStyle("Fusion")
    view = QListWidget()
    view.setFrameShape(QListWidget.Shape.NoFrame)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    assert view.frameWidth() == 0
    install_focus_frames(app)
    assert view.frameWidth() == VIEW_FRAME
    app.setStyle("Fusion")
    assert (view.frameShape(), view.frameWidth()) == (QListWidget.Shape.NoFrame, 0)


def test_a_check_box_no_larger_than_its_indicator_shows_the_focus(qtbot: Any, controls: Any) -> None:
    """A list row's cell or a form's tick box without a label, at its own size in a form."""
    holder = QWidget()
    qtbot.addWidget(holder)
    form = QFormLayout(holder)
    form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.FieldsStayAtSizeHint)
    elsewhere, box = QLineEdit("elsewhere"), QCheckBox()
    form.addRow("Name", elsewhere)
    form.addRow("Pinned", box)
    holder.show()
    qtbot.waitExposed(holder)
    assert box.size() == box.sizeHint()
    colour = box.palette().color(QPalette.ColorRole.Highlight)
    plain = highlight_pixels(box.grab().toImage(), colour)
    box.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(box.hasFocus, timeout=2000)
    focused = highlight_pixels(box.grab().toImage(), colour)
    assert focused - plain >= 2 * (box.width() + box.height()) - 4 * 8, (plain, focused)
