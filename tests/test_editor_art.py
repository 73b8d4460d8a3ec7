"""The design's picture on the first page of every ruleset's generated form, used as a
person uses it: the buttons clicked with the mouse, a picture file dropped on the field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog

from shipyard._qt.form.artfield import ArtField
from shipyard._qt.window.window import MainWindow
from shipyard.core import registry
from shipyard.core.artcheck import design_art, design_story
from shipyard.core.designfile import sample_files

from .test_editor import window  # noqa: F401 (the fixture)

WAIT = 150  # longer than any commit delay of the editor


def click(qtbot: Any, button: Any) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton, pos=QPoint(button.width() // 2, button.height() // 2))
    qtbot.wait(WAIT)


@pytest.mark.parametrize("ruleset", [r.id for r in registry.rulesets()])
def test_choose_embed_undo_remove_and_drop_a_picture_on_the_first_page(
    ruleset: str,
    qtbot: Any,
    window: MainWindow,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sample = sample_files(registry.get(ruleset).samples)[0]
    design = tmp_path / sample.name
    design.write_text(sample.read_text())
    Image.new("RGB", (400, 300), (30, 90, 200)).save(tmp_path / "ship.png")
    view = window.open_file(design)
    assert view is not None
    view.tabs.setCurrentIndex(0)
    qtbot.wait(WAIT)
    field = view.steps.art_field  # type: ignore[attr-defined]
    assert isinstance(field, ArtField) and field.isVisible()
    assert design_art(view.doc.design) is None and field.thumb.text() == "no art"
    assert not field.remove.isEnabled()

    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(tmp_path / "ship.png"), ""))
    click(qtbot, field.choose)
    assert design_art(view.doc.design) == "ship.png"
    assert not field.thumb.pixmap().isNull() and "ship.png (PNG, 400 x 300 pixels)" in field.where.text()

    click(qtbot, field.embed)
    assert (design_art(view.doc.design) or "").startswith("data:image/jpeg;base64,")
    assert "embedded in the design" in field.where.text()
    window.undo_action.trigger()
    qtbot.wait(WAIT)
    assert design_art(view.doc.design) == "ship.png" and "ship.png" in field.where.text()

    click(qtbot, field.remove)
    assert design_art(view.doc.design) is None and field.thumb.text() == "no art"

    # a picture from elsewhere, dropped: embedded, since a path must stay in the design's folder
    elsewhere = tmp_path.parent / f"{tmp_path.name}-other.png"
    Image.new("RGBA", (64, 64), (200, 0, 0, 128)).save(elsewhere)
    data = QMimeData()
    data.setUrls([QUrl.fromLocalFile(str(elsewhere))])
    enter = QDragEnterEvent(
        QPoint(10, 10), Qt.DropAction.CopyAction, data, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    QApplication.sendEvent(field, enter)  # a drag comes in first, as it does from a file manager
    assert enter.isAccepted()
    drop = QDropEvent(
        QPointF(10, 10), Qt.DropAction.CopyAction, data, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    QApplication.sendEvent(field, drop)
    qtbot.wait(WAIT)
    assert (design_art(view.doc.design) or "").startswith("data:image/png;base64,")
    # saved, the file keeps it beside the name
    window.save()
    qtbot.wait(WAIT)
    kept = json.loads(design.read_text())["design"]
    assert kept["art"].startswith("data:image/png;base64,")


def test_a_picture_the_core_refuses_is_shown_as_left_out_with_its_reason(
    qtbot: Any,
    window: MainWindow,
    tmp_path: Path,
) -> None:
    doc = json.loads(sample_files(registry.get("space-fighter-alpha").samples)[0].read_text())
    doc["design"]["art"] = "missing.png"
    design = tmp_path / "d.ship"
    design.write_text(json.dumps(doc))
    view = window.open_file(design)
    assert view is not None
    qtbot.wait(WAIT)
    field = view.steps.art_field  # type: ignore[attr-defined]
    assert field.thumb.text() == "left out" and "art file not found" in field.where.text()
    assert "art-missing" in view.doc.report.codes()


def test_a_picture_that_cannot_be_decoded_is_shown_as_left_out_and_warned_of(qtbot: Any, window: MainWindow) -> None:
    corpus = Path(__file__).parent / "corpus" / "bad" / "art"
    view = window.open_file(corpus / "art-undecodable.ship")
    assert view is not None
    qtbot.wait(WAIT)
    field = view.steps.art_field  # type: ignore[attr-defined]
    assert field.thumb.text() == "left out" and "cannot be decoded" in field.where.text()
    (hit,) = [f for f in view.doc.report.findings if f.code == "art-missing"]
    assert "undecodable.png" in hit.message and "pixels cannot be decoded" in hit.message


STORY_WAIT = 800  # after typing: longer than any commit-on-pause delay of a text field


@pytest.mark.parametrize("ruleset", [r.id for r in registry.rulesets()])
def test_the_story_is_typed_beside_the_art_undone_in_one_step_and_saved(
    ruleset: str, qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    sample = sample_files(registry.get(ruleset).samples)[0]
    design = tmp_path / sample.name
    design.write_text(sample.read_text())
    view = window.open_file(design)
    assert view is not None
    view.tabs.setCurrentIndex(0)
    qtbot.wait(WAIT)
    story = view.steps.story_field  # type: ignore[attr-defined]
    assert story.isVisible() and story.accessibleName() == "Story"
    art = view.steps.art_field  # type: ignore[attr-defined]
    assert story.mapTo(view, QPoint(0, 0)).x() > art.mapTo(view, QPoint(0, 0)).x()  # beside the art box
    qtbot.mouseClick(story.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(10, 10))
    qtbot.waitUntil(story.hasFocus)
    depth = view.doc.undo_stack.index()
    QTest.keyClicks(story, "Held the line at Vega", delay=40)
    qtbot.wait(STORY_WAIT)
    assert design_story(view.doc.design) == "Held the line at Vega"
    assert view.doc.undo_stack.index() == depth + 1  # the typing is one undo step
    QTest.keyClick(story, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.wait(STORY_WAIT)
    assert design_story(view.doc.design) == "" and story.toPlainText() == ""
    QTest.keyClick(story, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.wait(STORY_WAIT)
    assert design_story(view.doc.design) == "Held the line at Vega" == story.toPlainText()
    QTest.keyClick(story, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)  # File > Save
    qtbot.waitUntil(view.doc.undo_stack.isClean)
    saved = json.loads(design.read_text())
    assert saved["design"]["story"] == "Held the line at Vega"
