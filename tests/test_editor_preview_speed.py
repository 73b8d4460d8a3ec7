"""The start that builds what is visible and the first preview (issue 25), as a person meets
them: a finding clicked that is about a page not opened yet, a step tab clicked, the sheet
rendering as the window shows. Behaviour only, never timings. (A render superseded by a
newer edit is tested at the worker, tests/test_render_speed.py.)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from shipyard._qt.window import MainWindow

from .conftest import EXAMPLES
from .test_editor import _quiet, no_blocking_dialogs  # noqa: F401 (fixture)
from .test_editor_preview import RENDER_S, open_rendered, window  # noqa: F401 (fixture)

PAUSE_MS = 400  # longer than the preview's typing delay (150 ms), as a person pauses


def test_a_start_builds_the_visible_page_and_a_finding_reaches_a_page_not_built_yet(
    qtbot: Any,
    window: MainWindow,
) -> None:
    view = window.open_file(EXAMPLES / "rebel-frigate.ship")
    assert view is not None
    qtbot.waitUntil(lambda: view.preview is not None, timeout=5000)  # the preview comes after the window shows
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
    qtbot.waitUntil(lambda: view.preview is not None, timeout=5000)
    preview = view.preview
    assert preview is not None
    assert preview._busy and not preview.timer.isActive()  # rendering already: no timer waited for
    qtbot.waitUntil(lambda: preview.renders >= 1, timeout=RENDER_S)
    assert preview.pdf.getAllText(0).text().startswith("Rebel Fighter")
