"""The start that builds what is visible and the preview that follows typing (issue 25), as
a person meets them: a finding clicked that is about a page not opened yet, a step tab
clicked, the sheet rendering as the window shows, a name typed again while the sheet of
the last one is still rendering (only the newest name's sheet is ever shown), and no
blank view between two sheets. Behaviour only, never timings. (A render superseded in
the worker: tests/test_render_speed.py.)
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from shipyard._qt.view.documentview import DocumentView
from shipyard._qt.window.window import MainWindow

from .conftest import EXAMPLES
from .editor_pages import PAUSE_MS as COMMIT_PAUSE_MS
from .test_editor import _quiet, no_blocking_dialogs  # noqa: F401 (fixture)
from .test_editor_preview import RENDER_S, open_rendered, window  # noqa: F401 (fixture)

PAUSE_MS = 400  # longer than the preview's delay after an edit (40 ms), as a person pauses
KEY_MS = 150  # a person types a key about this often


def test_a_start_builds_the_visible_page_and_a_finding_reaches_a_page_not_built_yet(
    qtbot: Any,
    window: MainWindow,
) -> None:
    view = window.open_file(EXAMPLES / "rebel-frigate.ship")
    assert view is not None
    qtbot.waitUntil(lambda: view.preview is not None, timeout=RENDER_S)  # the preview comes after the window shows
    qtbot.wait(PAUSE_MS)
    assert view.unbuilt_pages() == [1, 2, 3, 4, 5]  # only the step shown is built
    assert "crew" not in view.binder.bindings and "armor" not in view.binder.bindings
    # a finding about the crew (step 5, not built) is clicked: the page is built and shown, the field focused
    findings = view.findings
    row = next(i for i, f in enumerate(findings.findings) if f.path == "crew")
    rect = findings.visualItemRect(findings.item(row))
    qtbot.mouseClick(findings.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    crew = view.binder.bindings["crew"].widget
    qtbot.waitUntil(lambda: QApplication.focusWidget() is crew)
    assert view.tabs.currentIndex() == 4
    # a step tab clicked builds its page, whose fields then take their place in Tab's order
    bar = view.tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(1).center())
    armor = view.binder.bindings["armor"].widget
    assert armor.isVisible() and 1 not in view.unbuilt_pages()
    chain, widget = [], view.tabs.tabBar().nextInFocusChain()
    for _ in range(400):
        chain.append(widget)
        widget = widget.nextInFocusChain()
    assert armor in chain or armor.focusProxy() in chain


def test_the_first_preview_starts_as_the_window_shows_without_the_typing_delay(
    qtbot: Any,
    tmp_path: Path,
) -> None:
    from PySide6.QtCore import QSettings

    w = _quiet(MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), use_user_folder=False))
    qtbot.addWidget(w)
    w.show()
    view = w.open_file(EXAMPLES / "rebel-fighter.ship")
    assert view is not None
    qtbot.waitUntil(lambda: view.preview is not None, timeout=RENDER_S)
    preview = view.preview
    assert preview is not None
    assert preview._busy and not preview.timer.isActive()  # rendering already: no timer waited for
    qtbot.waitUntil(lambda: preview.renders >= 1, timeout=RENDER_S)
    assert preview.pdf.getAllText(0).text().startswith("Rebel Fighter")


def _type_name(qtbot: Any, view: DocumentView, text: str) -> None:
    """Select the ship's name and type ``text`` over it, a key every 150 ms, then pause as a
    person does: long enough for what was typed to commit (an edit of the design)."""
    name = view.binder.bindings["name"].widget
    qtbot.mouseDClick(name, Qt.MouseButton.LeftButton)  # the focus, and a word selected
    qtbot.keyClick(name, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)  # all of it
    assert QApplication.focusWidget() is name
    for key in text:
        qtbot.keyClick(name, key)
        qtbot.wait(KEY_MS)
    qtbot.wait(COMMIT_PAUSE_MS)


INKED = 20  # dark pixels in the sample grid that make a view show "a sheet"


def _inked(image: QImage) -> bool:
    """Whether the image shows a sheet: at least ``INKED`` of a grid of its pixels are dark
    (the sheet's lines and letters; an empty view is grey, a page not drawn yet is white).

    It stops at the ``INKED``-th dark pixel: the sampler below looks every 15 ms, and a look
    that read the whole grid each time kept the editor's event loop so busy on a loaded
    machine that a pause between two keys outlasted the commit delay, and half a name was
    committed and shown."""
    dark = 0
    for y in range(0, image.height(), 4):
        for x in range(0, image.width(), 4):
            if image.pixelColor(x, y).lightness() < 100:
                dark += 1
                if dark >= INKED:
                    return True
    return False


class Sampler:
    """What the preview shows, looked at every 15 ms of real time while the test waits: the
    sheet's first words (when the PDF under the view changed) and whether the view shows any
    of a sheet. The editor's pauses take no real time (tests/editor_clock.py), so the looks
    that matter are those while a sheet renders, counted apart."""

    def __init__(self, qtbot: Any, view: DocumentView) -> None:
        preview = view.preview
        assert preview is not None
        self.preview = preview
        # from when the first sheet is drawn (QPdfView draws a page in a thread of its own)
        qtbot.waitUntil(lambda: _inked(preview.view.viewport().grab().toImage()), timeout=RENDER_S)
        self.names: list[str] = []
        self.blank: list[tuple[int, str]] = []  # (sample, sheet under the view) where the view showed no sheet
        self.samples = 0
        self.while_rendering = 0  # samples taken while a sheet was rendering: when a blank would show
        self._timer = QTimer(interval=15)
        self._timer.timeout.connect(self.sample)
        self._timer.start()

    def sample(self) -> None:
        pdf = self.preview.pdf
        text = (pdf.getAllText(0).text().splitlines() or [""])[0] if pdf.pageCount() else ""
        if not self.names or self.names[-1] != text:
            self.names.append(text)
        self.samples += 1
        if self.preview._busy:
            self.while_rendering += 1
        if not _inked(self.preview.view.viewport().grab().toImage()):
            self.blank.append((self.samples, text))

    def stop(self) -> None:
        self._timer.stop()


def test_a_name_typed_again_while_the_last_sheet_renders_shows_only_the_newest_sheet_and_no_blank(
    qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shipyard.render.printing as printing

    view = open_rendered(qtbot, window)
    preview = view.preview
    assert preview is not None
    # The first name's render is held once it is done, until the second name is typed: the
    # worker cannot drop it any more, so the preview must (a person typing on while a slow
    # machine renders).
    real, hold, held = printing.print_loaded, threading.Event(), threading.Event()

    def finish_then_wait(*args: Any, **kwargs: Any) -> Any:
        result = real(*args, **kwargs)
        if not held.is_set():
            held.set()
            hold.wait(RENDER_S / 1000)
        return result

    monkeypatch.setattr(printing, "print_loaded", finish_then_wait)
    sampler = Sampler(qtbot, view)
    before = preview.renders
    _type_name(qtbot, view, "Frigate Old")
    qtbot.waitUntil(held.is_set, timeout=RENDER_S)  # its sheet is made, not shown yet
    assert view.doc.design.name == "Frigate Old"
    _type_name(qtbot, view, "Frigate New")
    assert view.doc.design.name == "Frigate New"
    hold.set()
    qtbot.waitUntil(lambda: preview.renders > before and not preview._busy, timeout=RENDER_S)
    qtbot.wait(PAUSE_MS)
    sampler.stop()
    assert preview.pdf.getAllText(0).text().startswith("Frigate New")
    assert preview.renders == before + 1 and preview.superseded >= 1  # the old name's sheet was dropped
    assert not any("Old" in n for n in sampler.names), sampler.names  # never shown, not for a moment
    assert sampler.names[0].startswith("Rebel Frigate") and sampler.names[-1].startswith("Frigate New")
    # the old sheet stayed until the new one was drawn
    assert sampler.while_rendering >= 5 and not sampler.blank, sampler.blank


def test_names_typed_one_after_another_each_show_their_sheet_without_a_blank_between(
    qtbot: Any, window: MainWindow
) -> None:
    view = open_rendered(qtbot, window)
    preview = view.preview
    assert preview is not None
    sampler = Sampler(qtbot, view)
    for name in ("Frigate Ash", "Frigate Birch"):
        _type_name(qtbot, view, name)
        qtbot.waitUntil(lambda name=name: preview.pdf.getAllText(0).text().startswith(name), timeout=RENDER_S)
        qtbot.wait(PAUSE_MS)
    sampler.stop()
    # each sheet in turn, and nothing between them (an empty document would be a "" here)
    assert len(sampler.names) == 3, sampler.names
    for shown, name in zip(sampler.names, ("Rebel Frigate", "Frigate Ash", "Frigate Birch"), strict=True):
        assert shown.startswith(name)
    assert sampler.while_rendering >= 10 and not sampler.blank, sampler.blank  # looked at during both renders
