"""A list's rows by their names (issue 46, after its nine items): at 1280x720 beside the live
preview, which takes a third of the window, a row's name is shown whole where the row
shows it (the chosen weapons' Weapon column showed "Light"), and every control of a row
is named for a screen reader by its row's name, or, for an entry without one, its noun
and number ("Text of Stunt 3", never "Text of None").

The window here has the preview, laid out as a person's first start lays it out (the
`window` fixture of the other editor tests has none, and its steps have more room).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QLineEdit

from shipyard._qt.form.listeditor import ListEditor
from shipyard._qt.view.documentview import DocumentView
from shipyard._qt.window.window import MainWindow
from shipyard.core.edits import get_at

from .editor_pages import PAUSE_MS, button, list_editor
from .test_editor import _quiet, no_blocking_dialogs
from .test_editor_by_hand import click, focused, person_types, press
from .test_editor_layout import (
    ALL_SAMPLES,
    CATALOGS,
    at_size,
    cut_names,
    cut_short,
    named_none,
    settle,
    shown_pages,
    shown_whole,
    shown_widgets,
    visit,
)

__all__ = ["no_blocking_dialogs"]  # fixtures used here


@pytest.fixture
def previewing(qtbot: Any, tmp_path: Path) -> MainWindow:
    """A window at 1280x720 whose designs show the live preview beside their steps."""
    w = _quiet(MainWindow(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat), use_user_folder=False))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    at_size(qtbot, w, 1280, 720)
    return w


def opened(qtbot: Any, window: MainWindow, ruleset: str, sample: str) -> DocumentView:
    view = window.open_sample(CATALOGS / ruleset / "examples" / f"{sample}.ship")  # an untitled copy
    assert view is not None
    view.finish_building()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    settle(qtbot)
    assert view.preview is not None  # the preview is beside the steps, as a person sees it
    return view


@pytest.mark.parametrize(("ruleset", "sample"), ALL_SAMPLES, ids=[f"{r}-{s}" for r, s in ALL_SAMPLES])
def test_every_row_shows_its_name_whole_beside_the_preview_at_1280x720(
    qtbot: Any, previewing: MainWindow, ruleset: str, sample: str
) -> None:
    view = opened(qtbot, previewing, ruleset, sample)
    _steps, panels = view.split.sizes()
    assert panels >= previewing.width() // 4, view.split.sizes()  # the preview keeps a readable width
    rows = 0
    for title, _area in visit(qtbot, view):  # no page scrolls sideways, either
        qtbot.wait(50)  # the page asked the panels for room, if it needed it
        settle(qtbot)
        shown = shown_widgets(previewing)  # found once for the three checks
        assert not cut_names(previewing, shown), f"{title}: {cut_names(previewing)}"
        assert not named_none(previewing, shown), f"{title}: {named_none(previewing)}"
        assert not cut_short(previewing, shown), f"{title}: {cut_short(previewing)}"
        rows += sum(e.rowCount() for e in view.steps.lists if e.isVisible())
    assert rows, "no list of the sample has a row: nothing was checked"


def test_a_weapon_added_from_the_catalog_by_keyboard_shows_its_name_whole(qtbot: Any, previewing: MainWindow) -> None:
    """The person of the guide: Alt+3 to the Weapons step, the catalog's search, a name, Enter."""
    view = opened(qtbot, previewing, "space-fighter-alpha", "rebel-fighter")
    weapons = list_editor(view, "weapons")
    before = weapons.rowCount()
    press(qtbot, Qt.Key.Key_3, Qt.KeyboardModifier.AltModifier)
    assert view.tabs.currentIndex() == shown_pages(view)[2]
    search = next(b.search for b in view.steps.browsers if b.kind == "weapons")  # type: ignore[attr-defined]
    click(qtbot, search)
    person_types(qtbot, "Rocket Salvo")
    press(qtbot, Qt.Key.Key_Return)
    qtbot.wait(PAUSE_MS)
    settle(qtbot)
    assert weapons.rowCount() == before + 1
    added = [weapons.cellWidget(r, 0) for r in range(weapons.rowCount())]
    assert [w.text() for w in added][-1] == "Rocket Salvo"  # type: ignore[union-attr]
    for w in added:
        assert w is not None and shown_whole(w), f"{w.text()!r} cut to {w.width()} pixels"  # type: ignore[union-attr]
    assert not cut_names(previewing), cut_names(previewing)


def test_a_custom_stunt_is_named_by_what_the_person_types(qtbot: Any, previewing: MainWindow) -> None:
    """A stunt of the ship's own has no catalog id: its controls were read as "Text of
    None". They are named by the name typed, and without one by the stunt's number."""
    view = opened(qtbot, previewing, "cluster-falk", "kestrel-fighter")
    stunts: ListEditor = list_editor(view, "stunts")
    view.tabs.setCurrentIndex(shown_pages(view)[3])
    settle(qtbot)
    click(qtbot, button(view, 3, "Add custom stunt"))
    row = stunts.rowCount() - 1
    name = focused()
    assert isinstance(name, QLineEdit) and name is stunts.cellWidget(row, 1)  # the new row's name, selected
    person_types(qtbot, "Layered deflector grid")
    qtbot.wait(PAUSE_MS)
    assert get_at(view.doc.design, f"stunts[{row}].name") == "Layered deflector grid"
    names = [stunts.cellWidget(row, c).accessibleName() for c in range(len(stunts.columns))]  # type: ignore[union-attr]
    assert names == [f"{col.header} of Layered deflector grid" for col in stunts.columns]
    assert stunts.cellWidget(row, stunts.remove_column).accessibleName() == "Remove Layered deflector grid"  # type: ignore[union-attr]
    assert shown_whole(name) and not cut_names(previewing), cut_names(previewing)
    assert focused() is name


def test_a_round_plan_action_has_no_name_and_is_read_by_its_number(qtbot: Any, previewing: MainWindow) -> None:
    """An action bought in a round plan has no name: its controls were read as "Role of
    action" for every row alike; now each row says which it is."""
    view = opened(qtbot, previewing, "future-perfect", "damaged-frigate")
    actions: ListEditor = list_editor(view, "plan.actions")
    view.tabs.setCurrentIndex(shown_pages(view)[3])
    settle(qtbot)
    before = actions.rowCount()
    click(qtbot, button(view, 3, "Add action"))
    qtbot.wait(PAUSE_MS)
    assert actions.rowCount() == before + 1
    for row in range(actions.rowCount()):
        said = f"Action {row + 1}"
        names = [actions.cellWidget(row, c).accessibleName() for c in range(len(actions.columns))]  # type: ignore[union-attr]
        assert names == [f"{col.header} of {said}" for col in actions.columns], names
        assert actions.cellWidget(row, actions.remove_column).accessibleName() == f"Remove {said}"  # type: ignore[union-attr]
    assert not named_none(previewing), named_none(previewing)
