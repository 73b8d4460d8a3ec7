"""The editor's guidance, used as a person uses it: a forbidden choice made with the mouse
gets a Fix that changes its cause; Help > Getting started, Help > Rules reading, the
keyboard shortcuts and View > Compare read as a player's words on every ruleset.

Events are real clicks and keys, with waits longer than the editor's delays (the fix
search starts 250 ms after the last edit)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMenu, QTextBrowser

from shipyard._qt.window import helpmenu
from shipyard._qt.window.window import MainWindow
from shipyard.core.designfile import sample_files
from shipyard.core.registry import rulesets

from .editor_pages import cell, choose, click, click_box, go, list_editor, toggle_named
from .test_editor import field, no_blocking_dialogs, window  # noqa: F401 (fixtures)
from .test_editor_compare_fix import _fix_rows, _press_fix
from .test_wording import offences

PAUSE_MS = 700
CF = next(i for i in rulesets() if i.id == "cluster-falk").samples
FP = next(i for i in rulesets() if i.id == "future-perfect").samples


def test_the_extreme_consequence_cannot_be_ticked_below_scale_6_and_says_why(qtbot: Any, window: MainWindow) -> None:
    view = window.open_file(CF / "brigand-gunboat.ship")
    assert view is not None and view.doc.design.scale == 3
    go(view, 4)  # 5 Damage
    box = toggle_named(view, "Extreme consequence taken")
    assert not box.isEnabled()
    assert box.toolTip() == (
        "Only ships of Scale 6 or above have the Extreme slot: raise the Scale on the Ship page first."
    )
    click_box(qtbot, box)
    qtbot.wait(PAUSE_MS)
    assert view.doc.design.consequences.extreme is None and not view.doc.modified
    go(view, 0)  # 1 Ship: Scale 6, typed
    scale = field(view, "scale")
    qtbot.mouseClick(scale, Qt.MouseButton.LeftButton)
    scale.selectAll()
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_6)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
    qtbot.wait(PAUSE_MS)
    assert view.doc.design.scale == 6
    go(view, 4)
    assert box.isEnabled() and box.toolTip() == ""
    click_box(qtbot, box)
    qtbot.wait(PAUSE_MS)
    assert view.doc.design.consequences.extreme is not None and view.doc.report.valid


def test_an_extreme_consequence_taken_at_scale_3_offers_scale_6_or_unticking(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    """A record that has it already (written by hand, or by an older Shipyard): the box can
    be unticked, and the error's Fix changes the cause."""
    doc = json.loads((CF / "brigand-gunboat.ship").read_text(encoding="utf-8"))
    doc["design"]["consequences"] = {"extreme": {"aspect": "Hull breached", "track": "hull"}}
    ship = tmp_path / "breached-gunboat.ship"
    ship.write_text(json.dumps(doc), encoding="utf-8")
    view = window.open_file(ship)
    assert view is not None and view.doc.design.scale == 3
    go(view, 4)
    assert toggle_named(view, "Extreme consequence taken").isEnabled()  # what the record has can be removed
    rows = _fix_rows(qtbot, view)
    (error,) = [t for t in rows if t.startswith("ERROR")]
    assert "only at Scale 6 or above; this ship is Scale 3" in error and rows[error] is not None
    dlg = _press_fix(qtbot, view, rows[error])
    assert [t.splitlines()[0] for t in dlg.texts()] == ["raise Scale from 3 to 6", "untick Extreme consequence taken"]
    assert all("no errors left (was 1) — the design passes" in t for t in dlg.texts())
    qtbot.mouseClick(dlg.apply_button, Qt.MouseButton.LeftButton)  # the first: Scale 6
    qtbot.wait(PAUSE_MS)
    assert view.doc.design.scale == 6 and view.doc.report.valid
    assert view.doc.design.consequences.extreme is not None  # the consequence stays, in a slot the ship now has


def test_an_over_spent_helm_offers_raising_its_allocation_or_dropping_an_action(qtbot: Any, window: MainWindow) -> None:
    view = window.open_file(FP / "damaged-frigate.ship")
    assert view is not None and view.doc.report.valid
    go(view, 3)  # 4 Round plan
    click(qtbot, view, 3, "Add a&ction")
    row = list_editor(view, "plan.actions").rowCount() - 1
    choose(cell(view, "plan.actions", row, 1), "Move 1 range band (Helm, 2 AP)")  # the cost shown in the list
    qtbot.wait(PAUSE_MS)
    cost = cell(view, "plan.actions", row, 4)
    assert cost.text() == "2 AP" and "2 from the allocation" in cost.toolTip()
    rows = _fix_rows(qtbot, view)
    (error,) = [t for t in rows if t.startswith("ERROR")]
    assert error.startswith("ERROR: Helm's actions cost 6 AP, 1 paid from power: the other 5 AP are 2 more than the 3")
    dlg = _press_fix(qtbot, view, rows[error])
    assert [t.splitlines()[0] for t in dlg.texts()] == [
        "drop Move 1 range band from Actions bought",
        "raise Helm's allocation from 3 to 5; lower Initiative bid from 2 to 0",
    ]
    dlg.list.setCurrentRow(1)
    qtbot.mouseClick(dlg.apply_button, Qt.MouseButton.LeftButton)
    qtbot.wait(PAUSE_MS)
    plan = view.doc.design.plan
    assert (plan.initiative, plan.helm) == (0, 5) and view.doc.report.valid


def _help_action(window: MainWindow, text: str) -> Any:
    menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Help")
    assert isinstance(menu, QMenu)
    return next(a for a in menu.actions() if a.text() == text)


@pytest.mark.parametrize("ruleset", [i.id for i in rulesets()])
def test_help_and_compare_read_as_a_players_words(qtbot: Any, window: MainWindow, ruleset: str) -> None:
    info = next(i for i in rulesets() if i.id == ruleset)
    first, second = sample_files(info.samples)[:2]
    view = window.open_file(first)
    other = window.open_file(second)
    assert view is not None and other is not None
    window.tabs.setCurrentWidget(view)
    catalog = view.doc.catalog
    shown: list[str] = []
    opened: list[QTextBrowser] = []
    for name in ("&Getting started", "&Rules reading for this design", "&Keyboard shortcuts"):
        before = set(QApplication.topLevelWidgets())
        _help_action(window, name).trigger()
        qtbot.wait(100)
        # each opens a window of its own: the text and its Close button
        (frame,) = [w for w in QApplication.topLevelWidgets() if w not in before and w.isVisible()]
        browser = frame if isinstance(frame, QTextBrowser) else frame.findChild(QTextBrowser)
        assert browser is not None
        opened.append(browser)
        shown += browser.toPlainText().splitlines()
    guide, reading, keys = (b.toPlainText() for b in opened)
    assert guide.startswith("Getting started") and info.name in guide
    assert info.manifest.guide.splitlines()[0] in guide  # the ruleset's own guide, from its manifest
    assert reading.startswith(next(line for line in info.reading.read_text().splitlines() if line.startswith("# "))[2:])
    assert "Ctrl+Shift+Z" in keys and " or Redo" not in keys
    cmp = window.comparing.compare_with(view.doc, other.doc)
    assert cmp is not None and cmp.headings()[:1] == ["Figures"]
    shown += [text for row in cmp.rows() for text in row[:2]]
    assert [(line, o) for line in shown if (o := offences(line, catalog))] == []
    assert "## " + info.name in helpmenu.guide(ruleset)
