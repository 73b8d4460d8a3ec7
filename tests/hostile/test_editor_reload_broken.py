"""A file open in the editor overwritten on disk with something that cannot be read.

A tab with no unsaved edits reads its file again when another program writes it. A file
written half (a text editor's save under way), or with what is no design or roster at all,
is read as opening reads it, and its error is said in the tab's bar, naming the file and
what is wrong: never raised, never a dialog that stops the person, the tab keeping what it
showed and the file left as the other program wrote it. Once the file can be read again,
the tab shows it.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")

from shipyard._qt.window.window import MainWindow

from ..conftest import EXAMPLES
from ..test_editor import field, window  # noqa: F401 (the fixture)
from ..test_editor_disk_changes import WAIT_MS, bar_text, open_ship
from ..test_editor_roster import campaign, editor, open_page  # noqa: F401 (the fixtures)


def test_a_design_overwritten_with_no_design_keeps_its_tab_and_says_why(
    qtbot: Any,
    window: MainWindow,  # noqa: F811 (the fixture)
    tmp_path: Path,
) -> None:
    ship = Path(shutil.copy(EXAMPLES / "rebel-fighter.ship", tmp_path / "rebel-fighter.ship"))
    good = ship.read_text(encoding="utf-8")
    view = open_ship(qtbot, window, ship)
    ship.write_text('{"format_version": 1, "design": {"name": "Half', encoding="utf-8")
    qtbot.wait(WAIT_MS)
    qtbot.waitUntil(lambda: "cannot be read" in bar_text(view), timeout=5000)
    assert "rebel-fighter.ship" in bar_text(view)
    assert view.doc.design.name == "Rebel Fighter" and field(view, "name").text() == "Rebel Fighter"
    assert window.errors == [] and not view.doc.modified  # type: ignore[attr-defined]
    assert ship.read_text(encoding="utf-8").endswith('"Half')  # left as the other program wrote it
    # the other program finishes its write: the tab shows the file, the bar goes
    whole = json.loads(good)
    whole["design"]["name"] = "Written Whole"
    ship.write_text(json.dumps(whole, indent=2), encoding="utf-8")
    qtbot.wait(WAIT_MS)
    qtbot.waitUntil(lambda: view.doc.design.name == "Written Whole", timeout=5000)
    assert field(view, "name").text() == "Written Whole" and bar_text(view) == ""


def test_a_roster_overwritten_with_a_newer_format_keeps_its_tab_and_says_why(
    qtbot: Any,
    editor: MainWindow,  # noqa: F811 (the fixture)
    campaign: dict[str, Any],  # noqa: F811 (the fixture)
) -> None:
    page = open_page(qtbot, editor, campaign["roster"])
    campaign["roster"].write_text("format_version: 7\nname: Later\n", encoding="utf-8")
    qtbot.wait(WAIT_MS)
    qtbot.waitUntil(lambda: "cannot be read" in bar_text(page), timeout=5000)
    assert "strike.roster" in bar_text(page) and "format_version" in bar_text(page)
    assert page.name.text() == "Strike Group" and page.table.rowCount() == 2 and not page.doc.modified
    assert campaign["roster"].read_text(encoding="utf-8") == "format_version: 7\nname: Later\n"
