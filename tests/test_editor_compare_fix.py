"""The editor's parts of issue 15: View > Compare with... and the Fix... dialog."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from shipyard._qt.window.window import MainWindow
from shipyard.core.evaluate import evaluate
from shipyard.core.fixes import propose

from .conftest import EXAMPLES
from .test_editor import field, no_blocking_dialogs, type_into, user_copy, window  # noqa: F401 (fixtures)


def test_compare_with_the_saved_version_follows_an_edit(qtbot: Any, window: MainWindow, tmp_path: Path) -> None:
    sample = window.open_file(EXAMPLES / "rebel-fighter.ship")
    assert sample is not None and window.comparing.compare_sources(sample.doc) == [
        "file"
    ]  # an untitled copy: no saved version
    window.close_tab(window.tabs.indexOf(sample))
    view = window.open_file(user_copy(tmp_path, "rebel-fighter"))
    assert view is not None
    assert window.comparing.compare_sources(view.doc) == ["saved", "file"]
    cmp = window.comparing.compare_with(view.doc, "saved")
    assert cmp is not None and cmp.summary.text() == "Space Fighter Alpha: no differences"
    assert not any(row[0] for row in cmp.rows())
    view.tabs.setCurrentIndex(4)
    type_into(qtbot, field(view, "structure"), "12")  # 15 -> 12: 3 below 15, 6 freebies back
    assert cmp.summary.text() != "Space Fighter Alpha: no differences"
    saved = window.load(tmp_path / "rebel-fighter.ship")
    was = evaluate(saved.design, saved.catalog).pool("freebies")
    now = view.doc.report.pool("freebies")
    assert was is not None and now is not None and was.spent - now.spent == 6
    shown = {row[1]: row for row in cmp.rows()}
    # the saved version first: what changed since, signed
    assert cmp.comparison is not None and cmp.comparison.names == ["rebel-fighter.ship as saved", "Rebel Fighter"]
    assert shown["Freebie Points spent"] == [
        "*",
        "Freebie Points spent",
        str(was.spent),
        f"{now.spent} (-6)",
    ]
    assert shown["Freebie Points left"][3] == f"{now.remaining} (+6)"
    # marked in text and in colour: the row's cells have a background, the same rows carry '*'
    differing = [r for r in range(cmp.table.rowCount()) if cmp.table.item(r, 0).text() == "*"]
    assert differing and all(cmp.table.item(r, 2).background().style() != 0 for r in differing)
    assert cmp.headings() == [  # no "Pool: ..." prefixes
        "Figures",
        "Budgets",
        "Chosen from the catalog",
        "Recorded state",
        "Findings",
    ]
    assert not any(row[1].startswith(("Figure:", "Pool:", "Item:", "Finding:")) for row in cmp.rows())
    cmp.only_differences.setChecked(True)
    assert all(row[0] == "*" for row in cmp.rows() if row[1] not in cmp.headings())
    # only the sections that differ: the Structure track is 6 boxes shorter
    assert cmp.headings() == ["Figures", "Budgets", "Recorded state"]
    assert shown["Track: Structure"][3] == "0 of 25 ticked (changed)"


def test_compare_with_another_open_design_follows_both(qtbot: Any, window: MainWindow) -> None:
    fighter = window.open_file(EXAMPLES / "rebel-fighter.ship")
    frigate = window.open_file(EXAMPLES / "rebel-frigate.ship")
    assert fighter is not None and frigate is not None
    assert frigate.doc in window.comparing.compare_sources(fighter.doc)
    cmp = window.comparing.compare_with(fighter.doc, frigate.doc)
    assert cmp is not None
    fighter_pools = {p.id: p for p in fighter.doc.report.pools}
    frigate_pools = {p.id: p for p in frigate.doc.report.pools}
    spent = next(r for r in cmp.rows() if r[1] == "Weapon Points spent")
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
    assert "(was 4 over)" in dlg.texts()[0]
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


def _fix_rows(qtbot: Any, view: Any) -> dict[str, Any]:
    """The findings shown, text -> its row's Fix... button (None without), once the
    engine's search between edits is done."""
    qtbot.waitUntil(lambda: not view.fixes.busy, timeout=10000)
    buttons = view.findings.fix_buttons()
    return {text: buttons.get(row) for row, text in enumerate(view.findings.texts())}


def _press_fix(qtbot: Any, view: Any, button: Any) -> Any:
    """Click a finding's Fix... with the mouse; the dialog it opens (not run modally)."""
    opened: list[Any] = []
    view.run_dialog = opened.append
    assert button.isVisible()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert len(opened) == 1
    return opened[0]


def test_the_disk_fighters_over_budget_row_has_its_own_fix(qtbot: Any, window: MainWindow) -> None:
    view = window.open_file(EXAMPLES / "alien-disk-fighter.ship")
    assert view is not None
    before = view.doc.design
    rows = _fix_rows(qtbot, view)
    over = next(t for t in rows if t.startswith("ERROR: Freebie Points over budget by 4"))
    assert rows[over] is not None  # the finding lower Handling / Soak / Move or removing the laser cures
    others = [t for t in rows if t != over]
    assert others and all(t.startswith(("WARNING", "ADVICE")) for t in others)
    assert all(rows[t] is None for t in others)  # no proposal cures a warning or advice: no button
    dlg = _press_fix(qtbot, view, rows[over])
    finding = next(f for f in view.doc.report.findings if f.code == "pool-over-budget")
    expected = [p for p in propose(before, view.doc.catalog) if p.cures_finding(finding)]
    assert len(dlg.texts()) == len(expected) > 0
    assert dlg.texts()[0].splitlines()[0] == "lower Handling from 1 to 0"
    assert "Freebie Points: 1 left (was 4 over)" in dlg.texts()[0] and "the design passes" in dlg.texts()[0]
    assert "Freebie Points over budget by 4" in dlg.note.text()
    count = view.doc.undo_stack.count()
    qtbot.mouseClick(dlg.apply_button, Qt.MouseButton.LeftButton)  # Apply: the first, selected proposal
    assert view.doc.undo_stack.count() == count + 1
    assert view.doc.design.handling == 0 and view.doc.report.valid
    assert view.findings.texts()[0].startswith("WARNING")  # the error is gone, and its button
    assert _fix_rows(qtbot, view) and not view.findings.fix_buttons()
    view.doc.undo_stack.undo()  # one undo: exactly as it was
    assert view.doc.design == before and not view.doc.modified
    assert view.doc.report.pool("freebies").remaining == -4  # type: ignore[union-attr]
    rows = _fix_rows(qtbot, view)
    assert rows[over] is not None


def test_a_design_made_over_budget_gets_a_fix_beside_each_error(qtbot: Any, window: MainWindow) -> None:
    view = window.open_file(EXAMPLES / "rebel-fighter.ship")
    assert view is not None and view.doc.report.valid
    saved = view.doc.design
    assert _fix_rows(qtbot, view) and not view.findings.fix_buttons()  # it passes: nothing to fix
    view.tabs.setCurrentIndex(4)
    type_into(qtbot, field(view, "structure"), "20")  # 15 -> 20: 5 above 15, 10 freebies
    view.doc.edit("weapons[1].fire_link", "B")  # the Missile alone in a fire-link group
    made = view.doc.design
    rows = _fix_rows(qtbot, view)
    errors = [t for t in rows if t.startswith("ERROR")]
    assert len(errors) == 2 and all(rows[t] is not None for t in errors)
    assert any("Freebie Points over budget by 12" in t for t in errors)
    assert all(rows[t] is None for t in rows if not t.startswith("ERROR"))
    link = next(t for t in errors if "fire-link group 'B'" in t)
    assert "at Weapons, Missile/Torpedo: fire-link group" in link
    finding = next(f for f in view.doc.report.findings if f.code == "fire-link-group-too-small")
    dlg = _press_fix(qtbot, view, rows[link])
    proposals = propose(made, view.doc.catalog)
    assert dlg.proposals == [p for p in proposals if p.cures_finding(finding)]  # only what cures this one
    assert all("drop Missile/Torpedo from Weapons" in t.splitlines()[0] for t in dlg.texts())
    assert dlg.apply(0)
    assert dlg.texts()[0].splitlines()[0] == "drop Light Laser from Weapons; drop Missile/Torpedo from Weapons"
    assert "Freebie Points: 10 left (was 12 over)" in dlg.texts()[0]
    assert view.doc.report.valid and view.doc.design.weapons == []
    view.doc.undo_stack.undo()
    assert view.doc.design == made
    view.doc.undo_stack.undo()
    view.doc.undo_stack.undo()
    assert view.doc.design == saved and not view.doc.modified


def test_fix_buttons_wait_for_the_design_to_rest(qtbot: Any, window: MainWindow) -> None:
    """The search runs between edits, not in one: an edit only starts a timer."""
    view = window.open_file(EXAMPLES / "alien-disk-fighter.ship")
    assert view is not None
    _fix_rows(qtbot, view)
    view.doc.edit("structure", view.doc.design.structure + 1)
    assert view.fixes.busy  # not searched inside the edit
    assert view.findings.fix_buttons()  # the row keeps its button meanwhile (no flicker)
    assert view.fixes.now()  # a click finishes the search at once
    assert not view.fixes.busy


def test_tab_goes_from_the_findings_to_a_rows_fix(qtbot: Any, window: MainWindow) -> None:
    view = window.open_file(EXAMPLES / "alien-disk-fighter.ship")
    assert view is not None
    rows = _fix_rows(qtbot, view)
    button = next(b for b in rows.values() if b is not None)
    assert button.accessibleName().startswith("Fix: ERROR: Freebie Points over budget by 4")
    view.findings.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is button
    qtbot.keyClick(button, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is view.fix_button  # then the box's All fixes...


def test_compare_names_findings_in_words(qtbot: Any, window: MainWindow, tmp_path: Path) -> None:
    view = window.open_file(user_copy(tmp_path, "rebel-fighter"))
    assert view is not None
    cmp = window.comparing.compare_with(view.doc, "saved")
    assert cmp is not None
    view.doc.edit("structure", 20)  # 15 -> 20: 10 freebies over
    view.doc.edit("weapons[1].fire_link", "B")  # the Missile alone in a fire-link group
    findings = {row[1]: row for row in cmp.rows() if row[1].startswith(("ERROR: ", "WARNING: ", "ADVICE: "))}
    assert findings["ERROR: Freebie Points over budget by 12: spent 32 of 15 + 5 gained"] == [
        "*",
        "ERROR: Freebie Points over budget by 12: spent 32 of 15 + 5 gained",
        "—",
        "error [added]",
    ]
    link = "ERROR: fire-link group 'B' has 1 weapon; a linked group needs 2 or more"
    assert findings[link + " — at Weapons, Missile/Torpedo: fire-link group"][3] == "error [added]"
    assert findings["WARNING: crew 2 but only 1 seat (1 included) — at Crew"][2:] == ["warning", "warning"]
    assert not any("budgets." in t or "[" in t.split(" [")[0] or "pool-over-budget" in t for t in findings)


def test_the_background_fix_search_on_the_largest_design_stays_in_its_budget(
    qtbot: Any, window: MainWindow, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The editor's search between edits meets the designs ``check --suggest`` meets (issue 28:
    a 200-entry Cluster Falk design took minutes): it judges at most its budget of designs,
    and a row's Fix... still offers what cures the error."""
    import json

    from shipyard.core import fixes

    from .largest import largest_failing

    path = tmp_path / "largest.ship"
    path.write_text(json.dumps(largest_failing("cluster-falk")))
    judged = []
    real = fixes.verdict
    monkeypatch.setattr(fixes, "verdict", lambda design, catalog: judged.append(1) or real(design, catalog))
    view = window.open_file(path)
    assert view is not None
    qtbot.waitUntil(lambda: not view.fixes.busy, timeout=60_000)
    size = len(json.dumps(view.doc.design.model_dump(mode="json")))
    assert 1 < len(judged) <= max(fixes.MIN_TRIES, fixes.WORK_BUDGET // size) + 1
    assert [p.text for p in view.fixes.now()][:1] == ["lower Guns from 9 to 8"]


def test_compare_shows_the_numbers_between_two_ships_and_follows_an_edit(qtbot: Any, window: MainWindow) -> None:
    """The Cluster Falk's Size advantage and detection modifier ("Size", "Detection"): the
    Dominion Carrier (Size 14, military, TL 13) beside the Brigand Gunboat (Size 5, civilian,
    TL 11): 9 levels apart, no Size advantage; detection +20% + 2 x 10% = +40% one way, -40%
    the other. The gunboat typed down to Size 3: 11 levels, 1 beyond 10: +10% each."""
    from pathlib import Path

    samples = Path(__file__).resolve().parent.parent / "catalogs" / "cluster-falk" / "examples"
    carrier = window.open_file(samples / "dominion-carrier.ship")
    gunboat = window.open_file(samples / "brigand-gunboat.ship")
    assert carrier is not None and gunboat is not None
    cmp = window.comparing.compare_with(carrier.doc, gunboat.doc)
    assert cmp is not None
    source = "The Cluster Falk: Starship Rules"
    shown = {row[1]: row for row in cmp.rows()}
    size = f"Size advantage (Dominion Carrier vs Brigand Gunboat) — {source}, Size"
    seen = f"Detection modifier (Dominion Carrier vs Brigand Gunboat) — {source}, Detection"
    assert shown[size] == ["", size, "0%", "0%"]
    assert shown[seen] == ["", seen, "+40%", "-40%"]
    row = next(r for r in range(cmp.table.rowCount()) if cmp.table.item(r, 1).text() == seen)
    assert "Tech Level 13 vs 11 +20%" in cmp.table.item(row, 2).toolTip()
    assert cmp.between.isVisibleTo(cmp) and "Dominion Carrier: +40% (military over civilian sensors +20%" in (
        cmp.between.text()
    )
    # the user types the gunboat's Size down to 3 in its own window; the comparison follows
    window.tabs.setCurrentIndex(window.tabs.indexOf(gunboat))  # the gunboat's tab, as a click on it does
    type_into(qtbot, field(gunboat, "size"), "3")
    qtbot.keyClick(field(gunboat, "size"), Qt.Key.Key_Tab)
    qtbot.waitUntil(lambda: gunboat.doc.design.size == 3, timeout=5000)
    qtbot.wait(600)  # longer than the editor's commit delay
    shown = {row[1]: row for row in cmp.rows()}
    assert shown[size][2:] == ["+10%", "+10%"]
    assert "Size 14 vs 3: 11 levels apart, 1 beyond the 10 free levels: 1 x 10%, to defensive evasion moves" in (
        cmp.between.text()
    )


def test_a_findings_fix_offers_a_number_moved_more_than_a_step(qtbot: Any, window: MainWindow) -> None:
    """Structure typed above the sample's: the over-budget row's Fix... offers the cures of
    one value, Structure back down among them, and none of two (a search of a step at a
    time offered pairs of steps, and no Structure). The one chosen applies as it reads."""
    view = window.open_file(EXAMPLES / "rebel-fighter.ship")
    assert view is not None and view.doc.report.valid
    view.tabs.setCurrentIndex(4)
    type_into(qtbot, field(view, "structure"), "18")  # 15 -> 18: 6 freebies over
    rows = _fix_rows(qtbot, view)
    over = next(t for t in rows if t.startswith("ERROR: Freebie Points over budget by 6"))
    assert rows[over] is not None
    dlg = _press_fix(qtbot, view, rows[over])
    firsts = [t.splitlines()[0] for t in dlg.texts()]
    assert "lower Structure from 18 to 15" in firsts and "lower Soak from 2 to 0" in firsts, firsts
    assert not any("; " in t for t in firsts), firsts
    assert dlg.apply(firsts.index("lower Structure from 18 to 15"))
    assert view.doc.design.structure == 15 and view.doc.report.valid
