"""The Hangar window kept current, with thumbnails, and its selection printed and exported,
driven as a person does: View > Hangar by its keys, design files added, changed, renamed
and removed by another program, waits longer than the watch's settling delay, rows picked
with the mouse (Ctrl+click) and Ctrl+A, the output buttons clicked, the file dialogs and
the Replace question answered as they open."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QFileSystemWatcher, QPoint, Qt
from PySide6.QtWidgets import QLabel

from shipyard._qt.dialogs import hangarwatch
from shipyard._qt.dialogs.hangarwindow import ART, NAME, HangarWindow
from shipyard._qt.window.window import MainWindow

from .test_editor import shown_window
from .test_editor_export_replace import Person
from .test_hangar import samples

SCAN_MS = 60_000  # a background scan of a few designs, on a machine shared with others
WAIT_MS = hangarwatch.SETTLE_MS * 3  # longer than the watch waits for a change to settle
CORPUS_ART = Path(__file__).parent / "corpus" / "bad" / "art"


def _library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: list[Path]) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    lib = tmp_path / "designs"
    (lib / "shelf").mkdir(parents=True)
    for f in files:
        shutil.copyfile(f, lib / "shelf" / f.name)
    from shipyard.hangar import library

    library.add(lib)
    return lib


def _editor(qtbot: Any, tmp_path: Path) -> MainWindow:
    return shown_window(qtbot, tmp_path)


def _open_hangar(qtbot: Any, editor: MainWindow, rows: int) -> HangarWindow:
    editor.activateWindow()
    qtbot.waitUntil(editor.isActiveWindow)
    qtbot.keyClick(editor, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    hangar = editor.menus.hangar_window
    assert isinstance(hangar, HangarWindow)
    qtbot.waitExposed(hangar)
    qtbot.waitUntil(lambda: hangar.table.rowCount() == rows and not hangar.watch.scanning, timeout=SCAN_MS)
    return hangar


def _files(hangar: HangarWindow) -> dict[str, str]:
    """File name -> design name, as the window lists them."""
    t = hangar.table
    return {
        Path(t.item(r, NAME).data(Qt.ItemDataRole.UserRole)).name: t.item(r, NAME).text() for r in range(t.rowCount())
    }


def _said(hangar: HangarWindow) -> str:
    """What the window's lines say under the list (its count and its notes), as a person reads them."""
    return "\n".join(label.text() for label in hangar.findChildren(QLabel) if label.isVisible())


def _after_change(qtbot: Any, hangar: HangarWindow, done: Any) -> None:
    """Another program changed the folder: a wait longer than the settling delay, then the scan's end."""
    qtbot.wait(WAIT_MS)
    qtbot.waitUntil(lambda: done(_files(hangar)), timeout=SCAN_MS)


def test_a_file_added_changed_renamed_and_removed_shows_in_the_open_window(
    qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    few = samples()[:3]
    lib = _library(tmp_path, monkeypatch, few)
    editor = _editor(qtbot, tmp_path)
    hangar = _open_hangar(qtbot, editor, len(few))
    assert hangar.watch.unwatched == 0 and not hangar.watch.poll.isActive()
    shelf = lib / "shelf"

    added = shelf / "added.ship"
    doc = json.loads(samples()[-1].read_text(encoding="utf-8"))
    doc["design"]["name"] = "Added Later"
    added.write_text(json.dumps(doc), encoding="utf-8")
    _after_change(qtbot, hangar, lambda shown: shown.get("added.ship") == "Added Later")

    doc["design"]["name"] = "Changed In Place"
    with added.open("r+", encoding="utf-8") as fh:  # written over in place, as some text editors do
        fh.write(json.dumps(doc))
        fh.truncate()
    _after_change(qtbot, hangar, lambda shown: shown.get("added.ship") == "Changed In Place")

    (shelf / "deeper").mkdir()  # a new folder is watched too once a scan has seen it
    _after_change(qtbot, hangar, lambda shown: not hangar.watch.scanning)
    added.rename(shelf / "deeper" / "renamed.ship")
    _after_change(qtbot, hangar, lambda shown: "renamed.ship" in shown and "added.ship" not in shown)

    (shelf / few[0].name).unlink()
    _after_change(qtbot, hangar, lambda shown: few[0].name not in shown and len(shown) == len(few))
    assert hangar.count.text().startswith(f"{len(few)} designs")


def test_past_the_watch_limit_the_window_is_kept_current_by_periodic_rescans(
    qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    few = samples()[:3]
    lib = _library(tmp_path, monkeypatch, few)
    # the system refuses every watch, as inotify does past max_user_watches: addPaths answers
    # with the paths it could not watch
    monkeypatch.setattr(QFileSystemWatcher, "addPaths", lambda self, paths: list(paths))
    monkeypatch.setattr(hangarwatch, "RESCAN_MS", 700)
    editor = _editor(qtbot, tmp_path)
    hangar = _open_hangar(qtbot, editor, len(few))
    qtbot.waitUntil(lambda: hangar.watch.poll.isActive(), timeout=SCAN_MS)
    assert hangar.watch.unwatched == 1 + 1 + len(few)  # the library folder, its shelf, each design
    assert "watch limit" in _said(hangar)
    shutil.copyfile(samples()[-1], lib / "shelf" / "unwatched.ship")
    qtbot.wait(hangarwatch.RESCAN_MS + WAIT_MS)  # no watch tells of it: the next periodic scan finds it
    qtbot.waitUntil(lambda: "unwatched.ship" in _files(hangar), timeout=SCAN_MS)


def test_a_design_saved_into_a_folder_made_in_the_library_shows(
    qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """New Folder in a file manager, then a design saved or copied into it: the folder holds
    no design when it is made, and is watched all the same."""
    few = samples()[:3]
    lib = _library(tmp_path, monkeypatch, few)
    editor = _editor(qtbot, tmp_path)
    hangar = _open_hangar(qtbot, editor, len(few))
    with qtbot.waitSignal(hangar.watch.changed, timeout=SCAN_MS):  # the scan its making brings
        (lib / "new folder").mkdir()
    qtbot.waitUntil(lambda: not hangar.watch.scanning and not hangar.watch.settle.isActive(), timeout=SCAN_MS)
    shutil.copyfile(samples()[-1], lib / "new folder" / "saved.ship")
    _after_change(qtbot, hangar, lambda shown: "saved.ship" in shown)

    # a folder in it, made and filled while nothing looks (a folder copied in): the scan the
    # new folder's change brings watches it, and what it holds shows
    (lib / "new folder" / "deeper" / "deepest").mkdir(parents=True)
    shutil.copyfile(samples()[-2], lib / "new folder" / "deeper" / "deepest" / "copied.ship")
    _after_change(qtbot, hangar, lambda shown: "copied.ship" in shown)
    qtbot.waitUntil(lambda: not hangar.watch.scanning and not hangar.watch.settle.isActive(), timeout=SCAN_MS)
    assert str(lib / "new folder" / "deeper") in hangar.watch.watcher.directories()
    shutil.copyfile(samples()[-3], lib / "new folder" / "deeper" / "later.ship")
    _after_change(qtbot, hangar, lambda shown: "later.ship" in shown and len(shown) == len(few) + 3)


def test_a_library_folder_that_goes_is_said_and_looked_for_until_it_is_back(
    qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A USB stick unplugged: its designs stay listed, the window says the folder is not
    there in the words of ``shipyard hangar scan``, and the stick plugged in again with
    other designs on it shows them, and is watched again."""
    few = samples()[:3]
    lib = _library(tmp_path, monkeypatch, few)
    editor = _editor(qtbot, tmp_path)
    hangar = _open_hangar(qtbot, editor, len(few))
    note = f"the library folder {lib} is not there now; its designs stay listed"

    shutil.rmtree(lib)  # the system drops its watches, as when a drive is unmounted
    _after_change(qtbot, hangar, lambda shown: note in _said(hangar))
    assert set(_files(hangar)) == {f.name for f in few}
    qtbot.waitUntil(lambda: not hangar.watch.scanning and not hangar.watch.settle.isActive(), timeout=SCAN_MS)
    assert hangar.watch.watcher.directories() == [] and not hangar.watch.poll.isActive()

    # back, with one design of the three and a new one: no watch tells of it, the look for it does
    (lib / "shelf").mkdir(parents=True)
    shutil.copyfile(few[1], lib / "shelf" / few[1].name)
    shutil.copyfile(samples()[-1], lib / "shelf" / "brought.ship")
    qtbot.wait(hangarwatch.MISSING_MS + WAIT_MS)
    qtbot.waitUntil(lambda: set(_files(hangar)) == {few[1].name, "brought.ship"}, timeout=SCAN_MS)
    qtbot.waitUntil(lambda: note not in _said(hangar), timeout=SCAN_MS)
    assert not hangar.watch.look.isActive()
    qtbot.waitUntil(lambda: str(lib / "shelf") in hangar.watch.watcher.directories(), timeout=SCAN_MS)
    (lib / "shelf" / "brought.ship").unlink()  # watched again: a change shows without a look
    _after_change(qtbot, hangar, lambda shown: set(shown) == {few[1].name})


def test_folders_holding_no_design_are_watched_up_to_a_limit_the_shallowest_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lib = tmp_path / "designs"
    for folder in ("a/b", "c/d/e", "f", "g/h", ".hidden/i"):
        (lib / folder).mkdir(parents=True)
    shutil.copyfile(samples()[0], lib / "g" / "h" / "one.ship")
    monkeypatch.setattr(hangarwatch, "EMPTY_FOLDERS", 3)
    paths, left = hangarwatch.paths_to_watch([lib, tmp_path / "unplugged"])
    # the folders first (those holding a design, then the empty ones, shallowest first), then the designs
    named = [Path(p).relative_to(lib).as_posix() if p != str(lib) else "." for p in paths]
    assert named == [".", "g", "g/h", "a", "c", "f", "g/h/one.ship"]
    assert left == 3  # a/b, c/d and c/d/e: left to the periodic scans


def test_folders_past_that_limit_are_rescanned(qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    few = samples()[:3]
    lib = _library(tmp_path, monkeypatch, few)
    (lib / "empty").mkdir()
    monkeypatch.setattr(hangarwatch, "EMPTY_FOLDERS", 0)
    monkeypatch.setattr(hangarwatch, "RESCAN_MS", 700)
    editor = _editor(qtbot, tmp_path)
    hangar = _open_hangar(qtbot, editor, len(few))
    qtbot.waitUntil(lambda: hangar.watch.poll.isActive(), timeout=SCAN_MS)
    assert hangar.watch.unwatched == 1 and str(lib / "empty") not in hangar.watch.watcher.directories()
    assert "1 path past the watch limit" in _said(hangar)
    shutil.copyfile(samples()[-1], lib / "empty" / "unwatched.ship")
    qtbot.wait(hangarwatch.RESCAN_MS + WAIT_MS)  # no watch tells of it: the next periodic scan finds it
    qtbot.waitUntil(lambda: "unwatched.ship" in _files(hangar), timeout=SCAN_MS)


def test_the_documented_watch_limit_leaves_the_rest_to_rescans(
    qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    few = samples()[:3]
    _library(tmp_path, monkeypatch, few)
    monkeypatch.setenv(hangarwatch.WATCH_LIMIT_ENV, "2")
    editor = _editor(qtbot, tmp_path)
    hangar = _open_hangar(qtbot, editor, len(few))
    qtbot.waitUntil(lambda: hangar.watch.poll.isActive(), timeout=SCAN_MS)
    watched = hangar.watch.watcher.files() + hangar.watch.watcher.directories()
    assert len(watched) == 2 and hangar.watch.unwatched == len(few)


def test_thumbnails_are_drawn_in_the_picture_worker_and_a_broken_picture_costs_only_its_own(
    qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    designs = [CORPUS_ART / f"art-{n}.ship" for n in ("ok", "clean-svg", "undecodable", "truncated", "bomb")]
    lib = _library(tmp_path, monkeypatch, [])
    for f in CORPUS_ART.iterdir():
        if f.suffix != ".ship" or f in designs:
            shutil.copyfile(f, lib / "shelf" / f.name)

    # no picture is decoded in the editor's own process: Pillow here refuses all
    import PIL.Image

    def refused(*_a: Any, **_k: Any) -> Any:
        raise AssertionError("a picture decoded in the editor's process")

    monkeypatch.setattr(PIL.Image, "open", refused)
    editor = _editor(qtbot, tmp_path)
    hangar = _open_hangar(qtbot, editor, len(designs))

    def art(name: str) -> Any:
        t = hangar.table
        row = next(r for r in range(t.rowCount()) if Path(t.item(r, NAME).data(Qt.ItemDataRole.UserRole)).name == name)
        return t.item(row, ART)

    qtbot.waitUntil(lambda: not art("art-ok.ship").icon().isNull(), timeout=SCAN_MS)
    qtbot.waitUntil(lambda: art("art-truncated.ship").text() == "left out", timeout=SCAN_MS)
    assert not art("art-clean-svg.ship").icon().isNull()  # an SVG, drawn by resvg in the worker
    for broken in ("art-undecodable.ship", "art-truncated.ship", "art-bomb.ship"):
        item = art(broken)
        assert item.icon().isNull() and item.text() == "left out" and item.toolTip().startswith("The art is left out")
    from shipyard.hangar.index import Index
    from shipyard.render.pictureworker import shared_pid

    assert shared_pid() not in (None, os.getpid())
    with Index() as index:
        kept = dict(index.db.execute("SELECT hash, png IS NOT NULL FROM thumbs").fetchall())
        hashes = dict(index.db.execute("SELECT path, hash FROM files").fetchall())
    assert kept[hashes[str(lib / "shelf" / "art-ok.ship")]] == 1
    assert kept[hashes[str(lib / "shelf" / "art-undecodable.ship")]] == 0


def _row_of(hangar: HangarWindow, name: str) -> int:
    t = hangar.table
    return next(r for r in range(t.rowCount()) if Path(t.item(r, NAME).data(Qt.ItemDataRole.UserRole)).name == name)


def _click_row(qtbot: Any, hangar: HangarWindow, row: int, ctrl: bool = False) -> None:
    t = hangar.table
    rect = t.visualRect(t.model().index(row, NAME))
    mods = Qt.KeyboardModifier.ControlModifier if ctrl else Qt.KeyboardModifier.NoModifier
    qtbot.mouseClick(t.viewport(), Qt.MouseButton.LeftButton, mods, QPoint(rect.center()))


def test_the_selection_prints_a_fleet_book_and_exports_to_foundry_as_file_print_and_export_do(
    qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    few = samples()[:4]
    _library(tmp_path, monkeypatch, few)
    editor = _editor(qtbot, tmp_path)
    opened: list[str] = []
    editor.printing.open_url = lambda url: opened.append(url.toLocalFile()) or True  # type: ignore[method-assign]
    hangar = _open_hangar(qtbot, editor, len(few))
    person = Person(qtbot)
    try:
        prints = tmp_path / "prints"
        prints.mkdir()
        editor.recent_files.remember_export_folder("pdf", prints)  # the last PDF went there: the dialog starts there
        pdf = prints / "Fleet.pdf"
        pdf.write_bytes(b"a fleet book the person keeps")
        first, third = sorted(few)[0].name, sorted(few)[2].name
        _click_row(qtbot, hangar, _row_of(hangar, first))
        _click_row(qtbot, hangar, _row_of(hangar, third), ctrl=True)
        assert [f.name for f in hangar.selected_files()] == sorted([first, third], key=lambda n: _row_of(hangar, n))

        # over a file that is there: Cancel keeps it
        person.will(person.save_as(), person.click("Cancel"))
        qtbot.mouseClick(hangar.outputs["fleet"], Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: person.answers == [], timeout=SCAN_MS)
        assert person.seen[0] == f"save dialog offers {pdf}"
        assert pdf.read_bytes() == b"a fleet book the person keeps" and opened == []
        # Replace: the two selected designs printed on the render worker, the PDF opened
        person.will(person.save_as(), person.click("Replace"))
        qtbot.mouseClick(hangar.outputs["fleet"], Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: opened == [str(pdf)], timeout=SCAN_MS * 2)
        from pypdf import PdfReader

        text = " ".join(page.extract_text() for page in PdfReader(pdf).pages)
        chosen = {json.loads(f.read_text(encoding="utf-8"))["design"]["name"] for f in few if f.name in (first, third)}
        others = {json.loads(f.read_text(encoding="utf-8"))["design"]["name"] for f in few} - chosen
        assert all(n in text for n in chosen) and not any(n in text for n in others - chosen)

        # the same two as a card sheet: offered beside the last PDF, nothing there to replace
        person.will(person.save_as())
        qtbot.mouseClick(hangar.outputs["cards"], Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: opened == [str(pdf), str(prints / "Cards.pdf")], timeout=SCAN_MS * 2)
        cards = " ".join(page.extract_text() for page in PdfReader(prints / "Cards.pdf").pages)
        assert all(n in cards for n in chosen)

        # Ctrl+A: every design the filter shows, exported to Foundry into the folder chosen
        actors = tmp_path / "actors"
        actors.mkdir()
        hangar.table.setFocus()
        qtbot.keyClick(hangar.table, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        assert len(hangar.selected_files()) == len(few)
        person.will(person.choose_folder(actors))
        qtbot.mouseClick(hangar.outputs["foundry"], Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: len(list(actors.glob("*.json"))) >= len(few), timeout=SCAN_MS * 2)
        assert editor.errors == []  # type: ignore[attr-defined]
        assert editor.recent_files.export_folder("foundry") == actors
    finally:
        person.timer.stop()
