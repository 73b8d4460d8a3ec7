"""The packages ``shipyard ruleset new`` writes open in the editor, and edit as any ruleset does.

Each kind is written to a temporary folder and installed there for the test (as
``pip install -e`` would: on the path, with a dist-info naming its entry point); its sample
is opened and a value typed the way a person does. tests/test_scaffold.py installs them
into a scratch environment and uses the command line.
"""

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from shipyard._qt.window.window import MainWindow
from shipyard.scaffold import Names, write

from .conftest import install_ruleset
from .editor_pages import PAUSE_MS
from .test_editor import field, window  # noqa: F401 (the shared window fixture)


def _installed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, kind: str, names: Names) -> Path:
    write(names.id, kind, tmp_path / names.dist, set())
    install_ruleset(monkeypatch, tmp_path / "site", tmp_path / names.dist / names.package, names.id)
    return tmp_path / names.dist / names.package / "catalog" / "examples" / "sample.ship"


def _record_rows(view: Any) -> dict[str, str]:
    record = view.record
    return {
        record.topLevelItem(g).child(r).text(0): record.topLevelItem(g).child(r).text(1)
        for g in range(record.topLevelItemCount())
        for r in range(record.topLevelItem(g).childCount())
    }


def test_the_point_buy_sample_opens_and_its_budget_follows_what_is_typed(
    qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    sample = _installed(monkeypatch, tmp_path, "point-buy", Names("my-fleet"))
    view = window.open_file(sample, remember=False)
    assert view is not None and window.errors == []  # type: ignore[attr-defined]
    assert [view.tabs.tabText(i) for i in range(view.tabs.count())] == ["&1 Ship", "&2 Systems"]
    # the budget follows the hull class (the pool's budget_by): a note says so, in the tooltip
    assert [view.budget.cell_text(0, c) for c in range(4)] == ["Build points *", "20", "19", "1 left"]
    assert ["Protection", "6"] in view.summary.values()
    hull = field(view, "hull")
    assert hull.value() == 4 and hull.accessibleName() == "Hull"
    window.activateWindow()
    hull.setFocus()
    hull.selectAll()
    qtbot.keyClicks(hull, "9")
    qtbot.wait(PAUSE_MS)
    assert QApplication.focusWidget() is hull and view.doc.design.hull == 9
    assert [view.budget.cell_text(0, c) for c in range(4)] == ["Build points *", "20", "29", "OVER by 9"]
    # a sloop has 30 build points: typed as a player picks it, "s" in the hull class box
    hull_class = field(view, "hull_class")
    assert hull_class.currentText() == "Cutter" and hull_class.accessibleName() == "Hull class"
    hull_class.setFocus()
    qtbot.keyClick(hull_class, Qt.Key.Key_S)
    qtbot.wait(PAUSE_MS)
    assert QApplication.focusWidget() is hull_class and view.doc.design.hull_class == "sloop"
    assert [view.budget.cell_text(0, c) for c in range(4)] == ["Build points *", "30", "29", "1 left"]


def test_the_record_sample_opens_with_its_track_and_actions(
    qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    sample = _installed(monkeypatch, tmp_path, "record", Names("war-log"))
    view = window.open_file(sample, remember=False)
    assert view is not None and window.errors == []  # type: ignore[attr-defined]
    assert [view.tabs.tabText(i) for i in range(view.tabs.count())] == ["&1 Ship", "&2 Weapons"]
    assert view.boxes["Budgets"].isHidden()  # no pools: no budget table
    assert ["Firepower", "5"] in view.summary.values()
    assert _record_rows(view) == {"Hull": "☐1 ☐2 ☐3", "Evade": "allowed", "Ram": "not allowed: needs Hull 5, has 3"}
    speed = field(view, "speed")
    window.activateWindow()
    speed.setFocus()
    speed.selectAll()
    qtbot.keyClicks(speed, "2")
    qtbot.wait(PAUSE_MS)
    assert view.doc.design.speed == 2
    assert _record_rows(view)["Evade"] == "not allowed: needs Speed 3, has 2"
