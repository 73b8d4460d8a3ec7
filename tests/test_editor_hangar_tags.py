"""A design file's tags edited on the first page of every ruleset's form, as a person does:
typed into the Tags line, a pause longer than the commit delay, Undo and Redo by their
keys, saved with Ctrl+S; the hangar finds the design by its new tag after the save."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QPoint, Qt

from shipyard._qt.form.tagsfield import TagsField
from shipyard._qt.window.window import MainWindow
from shipyard.core import registry
from shipyard.core.designfile import MAX_TAG_LENGTH, sample_files

from .editor_pages import PAUSE_MS
from .test_editor import window  # noqa: F401 (the fixture)


def _hangar(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    lib = tmp_path / "designs"
    lib.mkdir()
    from shipyard.hangar import library

    library.add(lib)
    return lib


def _found(tag: str) -> list[str]:
    from shipyard.hangar import library
    from shipyard.hangar.index import Index
    from shipyard.hangar.query import search

    with Index() as index:
        index.scan(library.folders())
        return [Path(e["file"]).name for e in search(index, [f"tag:{tag}"])]


@pytest.mark.parametrize("ruleset", [r.id for r in registry.rulesets()])
def test_tags_typed_undone_redone_saved_and_found_in_the_hangar(
    ruleset: str, qtbot: Any, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lib = _hangar(tmp_path, monkeypatch)
    sample = sample_files(registry.get(ruleset).samples)[0]
    design = lib / sample.name
    shutil.copyfile(sample, design)
    before = json.loads(design.read_text(encoding="utf-8")).get("tags", [])
    view = window.open_file(design)
    assert view is not None
    view.tabs.setCurrentIndex(0)
    qtbot.wait(PAUSE_MS)
    field = view.steps.tags_field  # type: ignore[attr-defined]
    assert isinstance(field, TagsField) and field.isVisible()
    assert field.line.text() == ", ".join(before)

    # typed by hand: nothing changes until the pause, then one undo step
    qtbot.mouseClick(field.line, Qt.MouseButton.LeftButton, pos=QPoint(5, field.line.height() // 2))
    field.line.selectAll()
    qtbot.keyClicks(field.line, "pirates, Red Wing ,pirates")
    assert view.doc.tags == before
    qtbot.wait(PAUSE_MS)
    assert view.doc.tags == ["pirates", "Red Wing"]
    assert view.doc.modified

    # Ctrl+Z takes the tags back, Ctrl+Shift+Z brings them again, the line following
    window.activateWindow()
    qtbot.keyClick(window.focusWidget() or window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.wait(PAUSE_MS)
    assert view.doc.tags == before and field.line.text() == ", ".join(before)
    qtbot.keyClick(
        window.focusWidget() or window,
        Qt.Key.Key_Z,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    qtbot.wait(PAUSE_MS)
    assert view.doc.tags == ["pirates", "Red Wing"] and field.line.text() == "pirates, Red Wing"

    # a tag the engine refuses is said, and the tags stay as they were
    field.line.setFocus()
    field.line.selectAll()
    qtbot.keyClicks(field.line, "x" * (MAX_TAG_LENGTH + 1))
    qtbot.keyClick(field.line, Qt.Key.Key_Return)
    qtbot.wait(PAUSE_MS)
    assert view.doc.tags == ["pirates", "Red Wing"]
    assert any("too long" in text for _, text in window.errors) or "too long" in window.statusBar().currentMessage()
    assert field.line.text() == "pirates, Red Wing"

    # saved with its keys: the file holds the tags, and the hangar finds it by them
    assert _found("pirates") == []
    qtbot.keyClick(field.line, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    qtbot.wait(PAUSE_MS)
    assert not view.doc.modified
    assert json.loads(design.read_text(encoding="utf-8"))["tags"] == ["pirates", "Red Wing"]
    from shipyard.hangar.index import Index

    with Index() as index:  # the save brought the index up to date itself, before any scan
        assert [Path(e["file"]).name for e in index.rows("tagline LIKE '%|pirates|%'")] == [design.name]
    assert _found("red wing") == [design.name]
