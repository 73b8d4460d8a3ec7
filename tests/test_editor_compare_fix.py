"""The editor's parts of issue 15: View > Compare with... and the Fix... dialog."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("PySide6")

from shipyard._qt.window import MainWindow
from shipyard.core.evaluate import evaluate
from shipyard.core.fixes import propose

from .conftest import EXAMPLES
from .test_editor import field, no_blocking_dialogs, type_into, window  # noqa: F401 (fixtures)


def test_compare_with_the_saved_version_follows_an_edit(qtbot: Any, window: MainWindow) -> None:
    view = window.open_file(EXAMPLES / "rebel-fighter.ship")
    assert view is not None
    assert window.compare_sources(view.doc) == ["saved", "file"]
    cmp = window.compare_with(view.doc, "saved")
    assert cmp is not None and cmp.summary.text() == "Space Fighter Alpha: no differences"
    assert not any(row[0] for row in cmp.rows())
    view.tabs.setCurrentIndex(4)
    type_into(qtbot, field(view, "structure"), "12")  # 15 -> 12: 3 below 15, 6 freebies back
    assert cmp.summary.text() != "Space Fighter Alpha: no differences"
    saved = window.load(EXAMPLES / "rebel-fighter.ship")
    was = evaluate(saved.design, saved.catalog).pool("freebies")
    now = view.doc.report.pool("freebies")
    assert was is not None and now is not None and was.spent - now.spent == 6
    shown = {row[1]: row for row in cmp.rows()}
    # the saved version first: what changed since, signed
    assert cmp.comparison is not None and cmp.comparison.names == ["rebel-fighter.ship as saved", "Rebel Fighter"]
    assert shown["Pool: Freebie Points: spent"] == [
        "*",
        "Pool: Freebie Points: spent",
        str(was.spent),
        f"{now.spent} (-6)",
    ]
    assert shown["Pool: Freebie Points: left"][3] == f"{now.remaining} (+6)"
    # marked in text and in colour: the row's cells have a background, the same rows carry '*'
    differing = [r for r in range(cmp.table.rowCount()) if cmp.table.item(r, 0).text() == "*"]
    assert differing and all(cmp.table.item(r, 2).background().style() != 0 for r in differing)
    cmp.only_differences.setChecked(True)
    assert all(row[0] == "*" for row in cmp.rows())


def test_compare_with_another_open_design_follows_both(qtbot: Any, window: MainWindow) -> None:
    fighter = window.open_file(EXAMPLES / "rebel-fighter.ship")
    frigate = window.open_file(EXAMPLES / "rebel-frigate.ship")
    assert fighter is not None and frigate is not None
    assert frigate.doc in window.compare_sources(fighter.doc)
    cmp = window.compare_with(fighter.doc, frigate.doc)
    assert cmp is not None
    fighter_pools = {p.id: p for p in fighter.doc.report.pools}
    frigate_pools = {p.id: p for p in frigate.doc.report.pools}
    spent = next(r for r in cmp.rows() if r[1] == "Pool: Weapon Points: spent")
    delta = frigate_pools["weapon-points"].spent - fighter_pools["weapon-points"].spent
    assert spent[2:] == [
        str(fighter_pools["weapon-points"].spent),
        f"{frigate_pools['weapon-points'].spent} ({delta:+})",
    ]
    assert (spent[0] == "*") == (delta != 0)
    frigate.doc.edit("name", "Frigate Two")
    assert cmp.comparison is not None and cmp.comparison.names == ["Rebel Fighter", "Frigate Two"]


def test_fix_proposes_the_engines_fixes_and_one_applies_as_one_undo_step(qtbot: Any, window: MainWindow) -> None:
    view = window.open_file(EXAMPLES / "alien-disk-fighter.ship")
    assert view is not None and view.fix_button.isEnabled()
    before = view.doc.design
    expected = propose(before, view.doc.catalog)
    dlg = view.fix_dialog()
    assert len(dlg.texts()) == len(expected) > 0
    first = dlg.texts()[0].splitlines()[0]
    assert first == "; ".join(e.text.removesuffix(f" ({e.path})") for e in expected[0].edits)
    assert "[" not in "".join(dlg.texts())  # no internal paths
    assert "Freebie Points: -4 -> " in dlg.texts()[0]
    count = view.doc.undo_stack.count()
    assert dlg.apply(0)
    assert view.doc.undo_stack.count() == count + 1
    assert evaluate(view.doc.design, view.doc.catalog).valid and view.doc.report.valid
    assert not view.fix_button.isEnabled()  # nothing left to cure
    view.doc.undo_stack.undo()
    assert view.doc.design == before and not view.doc.modified


def test_a_design_that_passes_has_nothing_to_fix(qtbot: Any, window: MainWindow) -> None:
    view = window.open_file(EXAMPLES / "rebel-frigate.ship")
    assert view is not None and view.doc.report.valid
    assert not view.fix_button.isEnabled()
    dlg = view.fix_dialog()
    assert dlg.texts() == [] and not dlg.apply_button.isEnabled()
