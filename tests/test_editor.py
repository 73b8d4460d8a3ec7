"""The Qt editor, driven like a user would (pytest-qt, offscreen; dialogs patched)."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")

from pypdf import PdfReader
from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtWidgets import QApplication, QCheckBox, QLabel, QLineEdit, QListWidget, QPushButton

from shipyard._qt.view.documentview import DocumentView
from shipyard._qt.window import autosave
from shipyard._qt.window.window import MainWindow, install_crash_autosave
from shipyard.core.evaluate import evaluate

from .conftest import EXAMPLES, as_published, design_with_house_weapon, house_preset, sample, sfa
from .editor_pages import PAUSE_MS
from .test_printing import LETTER, page_sizes_mm, pages_text


@pytest.fixture(autouse=True)
def no_blocking_dialogs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A real modal dialog in a test would wait forever: make any of them fail at once."""
    from PySide6.QtWidgets import QDialog, QFileDialog, QMessageBox

    def refuse(*_a: Any, **_k: Any) -> None:
        raise AssertionError("a modal dialog was opened in a test; patch the window's ask_*/show_* method")

    for owner, name in (
        (QMessageBox, "exec"),
        (QMessageBox, "question"),
        (QMessageBox, "critical"),
        (QDialog, "exec"),
        (QFileDialog, "getSaveFileName"),
        (QFileDialog, "getOpenFileNames"),
        (QFileDialog, "getOpenFileName"),
        (QFileDialog, "getExistingDirectory"),
    ):
        monkeypatch.setattr(owner, name, refuse)


def _quiet(w: MainWindow) -> MainWindow:
    """Default answers for a window under test: closing discards, errors are collected."""
    w.ask_unsaved = lambda _doc: "discard"  # type: ignore[method-assign]
    w.errors = []  # type: ignore[attr-defined]
    w.show_error = lambda title, text: w.errors.append((title, text))  # type: ignore[attr-defined, method-assign]
    w.recovery.ask_restore = lambda _items: "discard"  # type: ignore[method-assign]
    return w


def shown_window(qtbot: Any, tmp_path: Path) -> MainWindow:
    """A quiet editor window with its settings in ``tmp_path``, shown and exposed: the window
    every editor test starts from (no user folder, no live preview)."""
    w = _quiet(
        MainWindow(
            QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat), use_user_folder=False, preview=False
        )
    )
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    return w


@pytest.fixture
def window(qtbot: Any, tmp_path: Path) -> MainWindow:
    return shown_window(qtbot, tmp_path)


def field(view: DocumentView, path: str) -> Any:
    return view.binder.bindings[path].widget


def type_into(qtbot: Any, widget: Any, text: str) -> None:
    """Select what is there and type over it, as a user does."""
    widget.setFocus()
    widget.selectAll()
    qtbot.keyClicks(widget, text)
    qtbot.wait(PAUSE_MS)  # a pause, longer than the editor waits before it commits the text


def add_from_browser(qtbot: Any, view: DocumentView, kind: str, name: str) -> None:
    browser = next(b for b in view.steps.browsers if b.kind == kind)
    browser.search.clear()
    qtbot.keyClicks(browser.search, name)
    visible = [browser.list.item(i) for i in range(browser.list.count()) if not browser.list.item(i).isHidden()]
    item = next(i for i in visible if i.text().split("   ")[0] == name)
    browser.list.setCurrentItem(item)
    qtbot.mouseClick(browser.add_button, Qt.MouseButton.LeftButton)


def toggle(view: DocumentView, name: str) -> QCheckBox:
    """A check box of the step pages by its accessible name, as a screen reader finds it."""
    return next(t for t in view.steps.toggles if t.accessibleName() == name)


def table_widget(view: DocumentView, list_path: str, row: int, column: int) -> Any:
    editor = next(e for e in view.steps.lists if e.list_path == list_path)
    return editor.cellWidget(row, column)


def build_rebel_fighter(qtbot: Any, window: MainWindow) -> DocumentView:
    view = window.new("starfighter")
    # Step One
    type_into(qtbot, field(view, "name"), "Rebel Fighter")
    type_into(qtbot, field(view, "concept"), "Long-range rugged fighter")
    # Step Two
    view.tabs.setCurrentIndex(1)
    type_into(qtbot, field(view, "handling"), "-1")
    type_into(qtbot, field(view, "soak"), "2")
    type_into(qtbot, field(view, "move"), "1")
    # Step Three
    view.tabs.setCurrentIndex(2)
    add_from_browser(qtbot, view, "weapons", "Light Laser")
    type_into(qtbot, table_widget(view, "weapons", 0, 1), "2")
    type_into(qtbot, table_widget(view, "weapons", 0, 3), "A")
    add_from_browser(qtbot, view, "weapons", "Missile/Torpedo")
    # Step Four
    view.tabs.setCurrentIndex(3)
    add_from_browser(qtbot, view, "technology", "Enhanced Lasers")
    # Step Five
    view.tabs.setCurrentIndex(4)
    type_into(qtbot, field(view, "structure"), "15")
    type_into(qtbot, field(view, "crew"), "2")
    for name in [
        "Landing Gear",
        "Ejection Pods",
        "Search Lights",
        "Atmospheric Wings",
        "Sensors",
        "Life Support",
        "EVA and Pressure Suits",
        "Food and Supplies",
        "Airlocks",
        "Communications Systems",
        "FTL Drive",
    ]:
        add_from_browser(qtbot, view, "accessories", name)
    type_into(qtbot, table_widget(view, "accessories", 10, 1), "2")
    return view


def test_build_the_rebel_fighter_through_the_steps(qtbot: Any, window: MainWindow) -> None:
    view = build_rebel_fighter(qtbot, window)
    published = sample("rebel-fighter")
    assert view.doc.design == as_published("rebel-fighter")
    expected = evaluate(published.design, published.catalog)
    for row, pool in enumerate(expected.pools):
        left = f"{pool.remaining} left" if pool.remaining >= 0 else f"OVER by {-pool.remaining}"
        budget = f"{pool.budget}" + (f" + {pool.gained}" if pool.gained else "")
        assert [view.budget.cell_text(row, c) for c in range(4)] == [pool.name, budget, str(pool.spent), left]
    assert view.budget.cell_text(2, 3) == "OVER by 2"
    texts = [view.findings.item(i).text() for i in range(view.findings.count())]
    assert texts[0].startswith("ERROR: Freebie Points over budget by 2")
    assert window.isWindowModified() and window.windowTitle() == "Rebel Fighter[*] — Shipyard"


def test_undo_to_empty_redo_to_full_then_save_and_reopen(qtbot: Any, window: MainWindow, tmp_path: Path) -> None:
    view = build_rebel_fighter(qtbot, window)
    built = view.doc.design
    stack = view.doc.undo_stack
    steps = stack.count()
    assert steps == 24  # one step a field typed (typing merges), a box ticked, an item added
    while stack.canUndo():
        window.undo_action.trigger()
    assert view.doc.design.name == "New starfighter" and view.doc.design.weapons == [] and not window.isWindowModified()
    assert field(view, "name").text() == "New starfighter"
    while stack.canRedo():
        window.redo_action.trigger()
    assert view.doc.design == built and field(view, "structure").value() == 15
    target = tmp_path / "rebel.ship"
    window.ask_save_path = lambda _doc: target  # type: ignore[method-assign]
    assert window.save()
    assert not window.isWindowModified() and window.windowTitle() == "rebel.ship[*] — Shipyard"
    assert window.close_tab(window.tabs.currentIndex())
    again = window.open_file(target)
    assert again is not None and again.doc.design == built


def test_typing_in_one_field_is_one_undo_step(qtbot: Any, window: MainWindow) -> None:
    view = window.new("starfighter")
    before = view.doc.undo_stack.count()
    type_into(qtbot, field(view, "name"), "Red Five of the Rebel Alliance")
    assert view.doc.undo_stack.count() == before + 1
    window.undo_action.trigger()
    assert field(view, "name").text() == "New starfighter"


def test_unsaved_changes_prompt(qtbot: Any, window: MainWindow, tmp_path: Path) -> None:
    view = window.new("starfighter")
    type_into(qtbot, field(view, "name"), "Changed")
    asked: list[str] = []
    window.ask_unsaved = lambda doc: asked.append(doc.title) or "cancel"  # type: ignore[method-assign]
    assert not window.close_tab(0) and window.tabs.count() == 1 and asked == ["Changed"]
    target = tmp_path / "changed.ship"
    window.ask_unsaved = lambda doc: "save"  # type: ignore[method-assign]
    window.ask_save_path = lambda doc: target  # type: ignore[method-assign]
    assert window.close_tab(0) and window.tabs.count() == 0
    assert json.loads(target.read_text())["design"]["name"] == "Changed"
    view = window.new("starship")
    type_into(qtbot, field(view, "name"), "Thrown away")
    window.ask_unsaved = lambda doc: "discard"  # type: ignore[method-assign]
    window.close()
    assert not window.isVisible()


def test_an_unhandled_error_autosaves_and_the_autosave_stays_this_editors(
    qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The crash hook saves every changed design aside; the editor runs on (Qt goes on after an
    error in a slot), so its autosave stays its own: another editor in the same process, as one
    in another process, neither offers nor deletes it (restoring after a real crash:
    tests/hostile/test_autosave_locks.py)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    first = _quiet(MainWindow(settings, use_user_folder=False, preview=False))
    qtbot.addWidget(first)
    view = first.new("starfighter")
    view.doc.edit("name", "Crash Test")
    view.doc.edit("structure", 12)
    calls: list[str] = []
    monkeypatch.setattr(sys, "excepthook", _chain(sys.excepthook, calls))
    install_crash_autosave(first.recovery)
    sys.excepthook(RuntimeError, RuntimeError("boom"), None)  # what Python does on an unhandled error
    assert calls == ["previous hook"]
    files = list(autosave.folder().glob("*.ship"))
    assert [f.name for f in files] == [f"{view.doc.uid}.ship"]
    assert json.loads(files[0].read_text())["design"]["name"] == "Crash Test"
    second = _quiet(MainWindow(settings, use_user_folder=False, preview=False))
    qtbot.addWidget(second)
    offered: list[list[str]] = []
    second.recovery.ask_restore = lambda items: offered.append([r.title for r in items]) or "discard"  # type: ignore[method-assign]
    assert second.recovery.offer_restore() == 0 and offered == []
    assert list(autosave.folder().glob("*.ship")) == files
    first.close_tab(0)  # closed (its changes discarded): the autosave and its lock go with it
    assert list(autosave.folder().iterdir()) == []


def _chain(_previous: Any, calls: list[str]) -> Any:
    def hook(kind: Any, value: Any, tb: Any) -> None:
        calls.append("previous hook")

    return hook


def test_autosave_timer_saves_only_modified_documents(
    qtbot: Any, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    window.open_file(EXAMPLES / "rebel-fighter.ship")
    view = window.new("starfighter")
    assert window.recovery.autosave_all() == 0  # nothing typed yet: nothing to lose
    view.doc.edit("name", "Saved now")
    assert window.recovery.autosave_all() == 1  # the sample is unmodified; the edited new design is saved aside
    assert window.recovery.autosave_all() == 0  # nothing changed since: the file is not written again
    view.doc.edit("name", "Saved later")
    assert window.recovery.autosave_all() == 1
    window.ask_save_path = lambda doc: tmp_path / "saved.ship"  # type: ignore[method-assign]
    assert window.save(view.doc)
    assert list(autosave.folder().glob("*.ship")) == []  # saving removes its autosave


def test_an_autosave_that_cannot_be_written_is_reported_and_nothing_else_changes(
    qtbot: Any, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "data"
    blocked.mkdir()
    (blocked / "shipyard").write_text("a file where the folder should be")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocked))
    view = window.new("starfighter")
    view.doc.edit("name", "Unsaved")
    assert window.recovery.autosave_all() == 0  # reported, not raised (it also runs from the crash hook)
    message = window.statusBar().currentMessage()
    assert message.startswith(f"Autosave failed: {blocked / 'shipyard' / 'autosave'}: cannot create the folder")
    assert view.doc.modified and view.doc.design.name == "Unsaved"
    ask = window.ask_save_path
    window.ask_save_path = lambda doc: tmp_path / "saved.ship"  # type: ignore[method-assign]
    assert window.save(view.doc)  # saving elsewhere still works
    window.ask_save_path = ask  # type: ignore[method-assign]


def test_a_bad_file_shows_the_engines_message_and_changes_nothing(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    good = window.open_file(EXAMPLES / "rebel-fighter.ship")
    assert good is not None
    before = good.doc.design
    bad = tmp_path / "broken.ship"
    bad.write_text('{"format_version": 2, "ruleset": "space-fighter-alpha", "design": {"name": "X", "crew": "lots"')
    shown: list[tuple[str, str]] = window.errors  # type: ignore[attr-defined]
    assert window.open_file(bad) is None
    assert shown and shown[0][0] == "Cannot open design"
    assert "broken.ship:1:" in shown[0][1] and "malformed JSON" in shown[0][1]
    assert window.tabs.count() == 1 and good.doc.design == before and not good.doc.modified


def test_clicking_a_finding_focuses_its_field(qtbot: Any, window: MainWindow) -> None:
    view = window.open_file(EXAMPLES / "rebel-fighter.ship")
    assert view is not None and view.tabs.currentIndex() == 0
    window.activateWindow()
    findings: QListWidget = view.findings
    row = next(i for i in range(findings.count()) if findings.item(i).data(Qt.ItemDataRole.UserRole) == "crew")
    rect = findings.visualItemRect(findings.item(row))
    qtbot.mouseClick(findings.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert view.tabs.currentIndex() == 4  # Finishing touches
    assert QApplication.focusWidget() is field(view, "crew")


def test_a_finding_inside_a_list_focuses_the_row(qtbot: Any, window: MainWindow) -> None:
    view = window.new("starfighter")
    view.doc.insert("weapons", {"weapon": "light-laser", "fire_link": "A"})
    window.activateWindow()
    assert view.focus_path("weapons[0].fire_link")
    assert view.tabs.currentIndex() == 2
    focused = QApplication.focusWidget()
    assert isinstance(focused, QLineEdit) and focused.accessibleName() == "Fire-link group of Light Laser"


def test_items_for_another_scale_are_disabled_with_the_reason(qtbot: Any, window: MainWindow) -> None:
    view = window.new("starship")
    view.tabs.setCurrentIndex(4)  # Finishing touches: its page is built when first shown
    browser = next(b for b in view.steps.browsers if b.kind == "accessories")
    item = next(
        browser.list.item(i)
        for i in range(browser.list.count())
        if browser.list.item(i).text().startswith("Medical Panel")
    )
    assert not item.flags() & Qt.ItemFlag.ItemIsEnabled
    assert "(for Starfighter scale only)" in item.text() and "Starfighter scale only" in item.toolTip()


def test_soak_division_and_pinned_priority_are_single_undo_steps(qtbot: Any, window: MainWindow) -> None:
    view = window.open_file(EXAMPLES / "rebel-fighter.ship")
    assert view is not None
    view.tabs.setCurrentIndex(1)
    divide = toggle(view, "Soak is divided into Armor and Energy Shields")
    qtbot.mouseClick(divide, Qt.MouseButton.LeftButton, pos=QPoint(8, divide.height() // 2))
    assert (view.doc.design.armor, view.doc.design.shields) == (2, 0)
    assert "soak-split-unassigned" not in view.doc.report.codes()
    pin = toggle(view, "Pin the priority")
    qtbot.mouseClick(pin, Qt.MouseButton.LeftButton, pos=QPoint(8, pin.height() // 2))
    assert view.doc.design.priority == ["soak", "move", "handling"]
    window.undo_action.trigger()
    window.undo_action.trigger()
    assert view.doc.design.armor is None and view.doc.design.priority is None


def test_refused_values_are_reported_and_not_applied(qtbot: Any, window: MainWindow) -> None:
    view = window.new("starfighter")
    view.doc.insert("weapons", {"weapon": "light-laser"})
    before = view.doc.design
    error = view.doc.edit("weapons[0].weapon", "Light Lazer")
    assert error is not None and "did you mean" in error and view.doc.design == before


def test_print_to_pdf_from_the_editor(qtbot: Any, window: MainWindow, tmp_path: Path) -> None:
    window.open_file(EXAMPLES / "rebel-fighter.ship")
    window.open_file(EXAMPLES / "rebel-frigate.ship")
    opened: list[str] = []
    window.printing.open_url = lambda url: opened.append(url.toLocalFile())  # type: ignore[method-assign]
    out = tmp_path / "cards.pdf"
    window.printing.print_to(out, window.documents(), "cards", "letter")
    qtbot.waitUntil(lambda: bool(opened), timeout=60_000)
    assert opened == [str(out)] and window.errors == []  # type: ignore[attr-defined]
    (text,) = pages_text(out)  # two cards on one page
    assert "Rebel Fighter" in text and "Rebel Frigate" in text
    assert page_sizes_mm(out) == [LETTER]
    sheet = tmp_path / "sheet.pdf"
    window.printing.print_to(sheet, window.documents()[:1], "record", "a4")
    qtbot.waitUntil(lambda: len(opened) == 2, timeout=60_000)
    assert PdfReader(sheet).metadata.title == "Rebel Fighter"  # the design's name, not "Fleet book"
    assert pages_text(sheet)[0].startswith("Rebel Fighter")


@pytest.fixture
def preview_window(qtbot: Any, tmp_path: Path) -> MainWindow:
    """A window whose designs show the live preview (the `window` fixture's have none)."""
    w = _quiet(
        MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), use_user_folder=False, preview=True)
    )
    qtbot.addWidget(w)
    return w


def test_the_preview_renders_in_the_background(qtbot: Any, preview_window: MainWindow) -> None:
    view = preview_window.open_file(EXAMPLES / "alien-mothership.ship")
    assert view is not None
    qtbot.waitUntil(lambda: view.preview is not None and view.preview.renders >= 1, timeout=60_000)
    assert view.preview is not None
    assert view.preview.pdf.pageCount() == 1
    assert view.preview.pdf.getAllText(0).text().startswith("Alien Mothership")
    view.doc.edit("name", "Mothership Two")
    qtbot.waitUntil(lambda: view.preview.renders >= 2, timeout=60_000)
    assert view.preview.status.text() == "Preview: as it will print"
    assert view.preview.pdf.getAllText(0).text().startswith("Mothership Two")
    assert [p.name for p in Path(view.preview._dir.name).iterdir()] == ["preview-2.pdf"]  # the old one is gone


def test_welcome_page_offers_new_designs_and_samples(qtbot: Any, window: MainWindow) -> None:
    window.show()
    assert window.stack.currentWidget() is window.welcome is not None  # no design open: the welcome page
    from PySide6.QtWidgets import QComboBox

    # every installed ruleset's kinds, from its manifest
    names = [b.accessibleName() for b in window.welcome.findChildren(QPushButton)]
    assert [n for n in names if n.startswith("New Space Fighter Alpha")] == [
        "New Space Fighter Alpha starfighter",
        "New Space Fighter Alpha starship",
    ]
    assert [n for n in names if n.startswith("New Space Fury")] == [
        "New Space Fury fighter",
        "New Space Fury pilot",
        "New Space Fury force",
    ]
    pickers = {c.accessibleName(): c for c in window.welcome.findChildren(QComboBox)}
    picker = pickers["Open a Space Fighter Alpha sample"]
    assert picker.itemText(0) == "Open a sample (6)…" and picker.count() == 7
    picker.activated.emit(picker.findText("Alien Disk Fighter"))
    # why a published sample can fail as written, in the ruleset's own words
    why = sfa().meta.samples_note
    assert why and why in [label.text() for label in window.welcome.findChildren(QLabel)]
    cur = window.current()
    assert cur is not None and cur.doc.path is None and cur.doc.design.name == "Alien Disk-Fighter"
    # a sample opens under the preset its published figures mean, the as-written verdict one choice away
    window.open_sample(EXAMPLES / "rebel-frigate.ship")
    cur = window.current()
    assert cur is not None and cur.doc.preset == "sample-ships" and cur.doc.report.valid
    assert cur.doc.set_preset("as-written") is None
    assert not cur.doc.report.valid and "pool-over-budget" in cur.doc.report.codes()


def user_copy(folder: Path, name: str) -> Path:
    """A sample copied to a folder of the user's: a design file of their own (a sample
    itself opens as an untitled copy)."""
    target = folder / f"{name}.ship"
    shutil.copyfile(EXAMPLES / f"{name}.ship", target)
    return target


def test_dropping_design_files_on_the_window_opens_them(qtbot: Any, window: MainWindow, tmp_path: Path) -> None:
    from PySide6.QtCore import QMimeData, QPointF, QUrl
    from PySide6.QtGui import QDragEnterEvent, QDropEvent

    mime = QMimeData()
    mime.setUrls(
        [
            QUrl.fromLocalFile(str(user_copy(tmp_path, "rebel-frigate"))),
            QUrl.fromLocalFile(str(user_copy(tmp_path, "alien-mothership"))),
        ]
    )
    enter = QDragEnterEvent(
        QPoint(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    QApplication.sendEvent(window, enter)  # as Qt sends it: the window's drops part answers
    assert enter.isAccepted()  # local files: the drop is taken
    event = QDropEvent(
        QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    QApplication.sendEvent(window, event)
    assert [d.design.name for d in window.documents()] == ["Rebel Frigate", "Alien Mothership"]
    assert window.recent_files.recent()[:2] == [
        str(tmp_path / "alien-mothership.ship"),
        str(tmp_path / "rebel-frigate.ship"),
    ]


def test_a_file_opened_by_a_relative_path_is_remembered_whole(
    qtbot: Any, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`shipyard-gui ../ships/x.ship` from the user's folder: recent files work from anywhere later."""
    ships = tmp_path / "ships"
    ships.mkdir()
    user_copy(ships, "rebel-frigate")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    view = window.open_file(Path("..") / "ships" / "rebel-frigate.ship")
    assert view is not None and view.doc.path == ships / "rebel-frigate.ship"
    assert window.recent_files.recent()[0] == str(ships / "rebel-frigate.ship")
    window.close_tab(0)
    monkeypatch.chdir(tmp_path)
    (entry,) = [a for a in window.recent_files.menu.actions() if a.text() == str(ships / "rebel-frigate.ship")]
    entry.trigger()
    assert [d.design.name for d in window.documents()] == ["Rebel Frigate"]
    assert window.errors == []  # type: ignore[attr-defined]


def test_every_field_has_an_accessible_name_and_a_label(qtbot: Any, window: MainWindow) -> None:
    view = window.open_file(EXAMPLES / "rebel-fighter.ship")
    assert view is not None
    view.finish_building()
    unnamed = [path for path, b in view.binder.bindings.items() if not b.widget.accessibleName()]
    assert unnamed == []
    from PySide6.QtWidgets import QLabel

    buddies = {lab.buddy() for lab in view.findChildren(QLabel) if lab.buddy() is not None}
    unlabelled = [p for p, b in view.binder.bindings.items() if b.widget not in buddies]
    assert unlabelled == []


def _preset_menu(
    window: MainWindow, of: tuple[str, ...] = ("Space Fighter Alpha", "Space Fury")
) -> list[tuple[str, bool]]:
    """The preset menu's sections of the rulesets ``of`` (other installed rulesets left out)."""
    window.menus.preset_menu.aboutToShow.emit()  # filled when opened, not at start-up
    out, keep = [], False
    for a in window.menus.preset_menu.actions():
        if a.isSeparator():
            keep = a.text() in of
        if keep:
            out.append((("== " if a.isSeparator() else "") + a.text(), a.isChecked()))
    return out


def _preset_sections(window: MainWindow) -> dict[str, list[tuple[str, bool]]]:
    """The preset menu by ruleset: each heading's presets with whether they are checked."""
    from shipyard.core.registry import rulesets

    sections: dict[str, list[tuple[str, bool]]] = {}
    for text, checked in _preset_menu(window, of=tuple(i.name for i in rulesets())):
        if text.startswith("== "):
            heading = sections.setdefault(text[3:], [])
        else:
            heading.append((text, checked))
    return sections


def test_default_preset_menu_lists_each_rulesets_presets_and_sets_its_default(qtbot: Any, window: MainWindow) -> None:
    from shipyard.core.registry import rulesets

    sections = _preset_sections(window)
    assert list(sections) == [info.name for info in rulesets()]  # every installed ruleset has its part
    assert sections["Space Fighter Alpha"] == [
        ("As written", True),  # the ruleset's own default until the user chooses
        ("Sample ships", False),
    ]
    assert sections["Space Fury"] == [("As written", True), ("Sample fighters", False)]
    [sample_ships] = [a for a in window.menus.preset_menu.actions() if a.text() == "Sample ships"]
    sample_ships.trigger()
    assert window.default_preset("space-fighter-alpha") == "sample-ships"
    assert window.default_preset("space-fury") is None
    sections = _preset_sections(window)
    assert sections["Space Fighter Alpha"] == [("As written", False), ("Sample ships", True)]
    assert sections["Space Fury"] == [("As written", True), ("Sample fighters", False)]
    assert window.new("starfighter").doc.preset == "sample-ships"
    assert window.new("fighter", "space-fury").doc.preset == "as-written"


def test_house_rule_presets_from_the_user_catalog_folder_are_offered(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    house = house_preset(tmp_path / "house", "lean", "Lean budgets", "    technology:\n      force-field: {cost: 4}\n")
    window.settings.setValue("catalog/folder", str(house))
    assert ("Lean budgets", False) in _preset_menu(window)
    [lean] = [a for a in window.menus.preset_menu.actions() if a.text() == "Lean budgets"]
    lean.trigger()
    assert window.new("starship").doc.preset == "lean"


def test_work_built_with_the_user_catalog_folders_house_rules_is_restored(qtbot: Any, tmp_path: Path) -> None:
    """A design using a weapon of the editor's catalog folder (Settings > User catalog
    folder), autosaved and then left by a crash, is restored at the next start: its autosave
    was read without that folder, refused at every start ("unknown weapon"), and lost if
    the person then chose Discard."""
    first = shown_window(qtbot, tmp_path)
    first.settings.setValue("catalog/folder", str(tmp_path / "house"))
    ship = tmp_path / "plasma.ship"
    design_with_house_weapon(tmp_path / "house", ship)
    view = first.open_file(ship)
    assert view is not None and first.errors == []  # type: ignore[attr-defined]
    view.doc.edit("name", "Plasma Two")
    assert first.recovery.autosave_all() == 1
    first.recovery.timer.stop()  # the crash: nothing more is saved, and its lock is a gone process's
    autosave._held.pop(view.doc.uid).unlock()
    second = shown_window(qtbot, tmp_path)  # the same settings: the same catalog folder
    second.recovery.ask_restore = lambda _items: "restore"  # type: ignore[method-assign]
    assert second.recovery.offer_restore() == 1
    assert second.errors == []  # type: ignore[attr-defined]
    [restored] = second.documents()
    assert restored.design.name == "Plasma Two"
    assert [w.weapon for w in restored.design.weapons] == ["plasma-cannon"]


def test_restored_work_saved_changes_only_what_the_work_changed(qtbot: Any, tmp_path: Path) -> None:
    """A design restored after a crash was read from its autosave as bare data, so its first
    Save wrote the whole file anew ("Ejection Seat" as ejection-pods, every count written out)
    where a Save before the crash would have changed one line."""
    import difflib
    import shutil

    ship = Path(shutil.copy(EXAMPLES / "rebel-fighter.ship", tmp_path / "rebel-fighter.ship"))
    before = ship.read_text(encoding="utf-8")
    first = shown_window(qtbot, tmp_path)
    view = first.open_file(ship)
    assert view is not None
    view.doc.edit("structure", 16)
    assert first.recovery.autosave_all() == 1
    first.recovery.timer.stop()  # the crash: nothing more is saved, and its lock is a gone process's
    autosave._held.pop(view.doc.uid).unlock()
    second = shown_window(qtbot, tmp_path)
    second.recovery.ask_restore = lambda _items: "restore"  # type: ignore[method-assign]
    assert second.recovery.offer_restore() == 1
    [restored] = second.documents()
    assert restored.design.structure == 16 and restored.path == ship
    assert second.save(restored)
    diff = [ln for ln in difflib.ndiff(before.splitlines(), ship.read_text().splitlines()) if ln[:1] in "+-"]
    assert diff == ['-     "structure": 15,', '+     "structure": 16,']


def test_start_shows_the_ship_then_collects_garbage_again(
    qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`shipyard-gui FILE`: collection is paused while starting, and back on once the window is up."""
    import gc

    from shipyard._qt import app as gui

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # the editor installs its crash autosave
    try:
        _app, w = gui.start([str(EXAMPLES / "rebel-fighter.ship"), "--no-preview"])
        qtbot.addWidget(_quiet(w))
        assert not gc.isenabled()
        assert w.isVisible() and w.windowTitle() == "Rebel Fighter[*] — Shipyard"  # a sample: an untitled copy
        qtbot.waitUntil(gc.isenabled, timeout=5_000)
    finally:
        gc.unfreeze()
        gc.enable()


def test_a_broken_user_catalog_stops_a_new_design_with_the_files_message(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    folder = tmp_path / "house" / "space-fighter-alpha"
    folder.mkdir(parents=True)
    (folder / "weapons.yaml").write_text("weapons:\n  - id: [laser\n", encoding="utf-8")
    window.settings.setValue("catalog/folder", str(tmp_path / "house"))
    assert window.new("starfighter") is None
    [(title, text)] = window.errors  # type: ignore[attr-defined]
    assert title == "Cannot start a new design" and "weapons.yaml:3:1: malformed YAML" in text
    assert window.tabs.count() == 0
    assert window.new("fighter", "space-fury") is not None  # the other ruleset has no house rules
    assert _preset_menu(window)[1][0].startswith("Cannot read the catalog: ")


def test_saving_keeps_the_file_as_written_only_the_typed_value_changes(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    """Save writes back what the file said ("Ejection Seat", "count": 1), with only the edit in it."""
    import difflib
    import shutil

    ship = Path(shutil.copy(EXAMPLES / "rebel-fighter.ship", tmp_path / "rebel-fighter.ship"))
    before, inode = ship.read_bytes(), ship.stat().st_ino
    view = window.open_file(ship)
    assert view is not None
    window.activateWindow()
    qtbot.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: ship.stat().st_ino != inode)  # saved anew (an atomic rename) ...
    assert ship.read_bytes() == before  # ... and, unchanged, the same file byte for byte
    view.tabs.setCurrentIndex(4)  # Step Five
    type_into(qtbot, field(view, "structure"), "16")
    qtbot.keyClick(field(view, "structure"), Qt.Key.Key_Tab)
    qtbot.wait(400)  # longer than any commit delay
    assert view.doc.design.structure == 16 and window.isWindowModified()
    qtbot.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not window.isWindowModified())
    diff = [ln for ln in difflib.ndiff(before.decode().splitlines(), ship.read_text().splitlines()) if ln[:1] in "+-"]
    assert diff == ['-     "structure": 15,', '+     "structure": 16,']
    assert '"id": "Ejection Seat"' in ship.read_text()
