"""A commit writes into the list rows it changes, and only there (issue 24's figures: every
list refreshed every row on every commit). What a person sees must not change with that:
a row whose entry is the same keeps its controls, its selection and the person's focus;
a row whose entry is the same but whose options follow another part of the design (a
crew member's stations are the ship's turrets too) shows the new options; and a refused
value stays in the field it was typed in, marked, until changed or Escape. Real keys to the focused widget,
150 ms apart, then a pause longer than the commit delay."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLineEdit, QWidget

from shipyard._qt.form.listeditor import ListEditor
from shipyard._qt.view.documentview import DocumentView
from shipyard._qt.window.window import MainWindow
from shipyard.core.edits import get_at

from .editor_pages import PAUSE_MS
from .test_editor import no_blocking_dialogs, window
from .test_editor_by_hand import click, focused, page_lists, person_types, press, ready_to_type
from .test_editor_layout import CATALOGS, shown_pages

__all__ = ["no_blocking_dialogs", "window"]  # fixtures used here

NEW_NAME = "Dorsal Battery"


def open_sample(qtbot: Any, window: MainWindow, ruleset: str, name: str) -> DocumentView:
    view = window.open_sample(CATALOGS / ruleset / "examples" / f"{name}.ship")  # an untitled copy
    assert view is not None
    return ready_to_type(qtbot, window, view)


def list_on_its_page(view: DocumentView, list_path: str) -> ListEditor:
    """The list editor of ``list_path``, its page shown."""
    for index in shown_pages(view):
        view.tabs.setCurrentIndex(index)
        for editor in page_lists(view, index):
            if editor.list_path == list_path:
                return editor
    raise AssertionError(f"no page shows the list {list_path}")


def controls(editor: ListEditor) -> list[list[QWidget | None]]:
    return [[editor.cellWidget(r, c) for c in range(editor.columnCount())] for r in range(editor.rowCount())]


def offered(box: QWidget | None) -> list[str]:
    assert isinstance(box, QComboBox)
    return [box.itemText(i) for i in range(box.count())]


def type_over(qtbot: Any, field: QWidget, text: str) -> None:
    click(qtbot, field)
    press(qtbot, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    person_types(qtbot, text)
    qtbot.wait(PAUSE_MS)  # the person stops: the text commits


def test_a_renamed_turret_leaves_the_other_rows_alone_and_every_crew_member_is_offered_it(
    qtbot: Any, window: MainWindow
) -> None:
    view = open_sample(qtbot, window, "cluster-falk", "dominion-carrier")
    crew = list_on_its_page(view, "crew")
    turrets = list_on_its_page(view, "turrets")
    assert get_at(view.doc.design, "turrets[4].name") == "Turret 5"  # no one sits there
    assert all(m.get("station") != "Turret 5" for m in get_at(view.doc.design, "crew"))
    station = next(c for c, col in enumerate(crew.columns) if col.field == "station")
    gunner = next(r for r, m in enumerate(get_at(view.doc.design, "crew")) if m.get("station") == "Turret 2")
    click(qtbot, crew.cellWidget(gunner, 0))  # the person picks a crew member: their row is selected
    assert crew.currentRow() == gunner
    crew_before, turrets_before = controls(crew), controls(turrets)
    crew_names = [crew.cellWidget(r, 0).text() for r in range(crew.rowCount())]  # type: ignore[union-attr]
    assert all("Turret 5" in offered(crew.cellWidget(r, station)) for r in range(crew.rowCount()))

    name = turrets.cellWidget(4, 0)
    assert isinstance(name, QLineEdit)
    type_over(qtbot, name, NEW_NAME)

    assert get_at(view.doc.design, "turrets[4].name") == NEW_NAME, "the pause did not commit the name"
    assert focused() is name and name.text() == NEW_NAME
    assert controls(crew) == crew_before and controls(turrets) == turrets_before, "a row's controls were made again"
    assert crew.currentRow() == gunner, "the crew member the person picked is no longer selected"
    assert [crew.cellWidget(r, 0).text() for r in range(crew.rowCount())] == crew_names  # type: ignore[union-attr]
    assert [turrets.cellWidget(r, 0).text() for r in range(4)] == [f"Turret {n}" for n in range(1, 5)]  # type: ignore[union-attr]
    # no crew member's entry changed, yet each is offered the turret by its new name
    for r in range(crew.rowCount()):
        choices = offered(crew.cellWidget(r, station))
        assert NEW_NAME in choices and "Turret 5" not in choices, f"crew row {r} offers {choices}"
    box = crew.cellWidget(gunner, station)
    assert isinstance(box, QComboBox) and box.currentText() == "Turret 2"  # and still sits where it sat


def test_a_refused_name_stays_in_its_field_marked_with_the_reason_until_escape(qtbot: Any, window: MainWindow) -> None:
    """A refused text is not taken back behind the person's back: it stays where it was
    typed, marked, the reason beside it in a player's words; Escape puts the kept value back."""
    from PySide6.QtWidgets import QLabel

    from shipyard._qt.document import refused

    view = open_sample(qtbot, window, "future-perfect", "scout")
    systems = list_on_its_page(view, "systems")
    old = get_at(view.doc.design, "systems[1].name")
    name = systems.cellWidget(1, 0)
    assert isinstance(name, QLineEdit) and name.text() == old
    others = [systems.cellWidget(r, 0).text() for r in range(systems.rowCount()) if r != 1]  # type: ignore[union-attr]
    click(qtbot, name)
    press(qtbot, Qt.Key.Key_End)
    person_types(qtbot, ".aft")  # a system's name may not hold a '.'
    qtbot.wait(PAUSE_MS)
    assert get_at(view.doc.design, "systems[1].name") == old
    assert name.text() == old + ".aft", "the typed text was taken back"
    why = refused.reason(name)
    assert "may not contain '.'" in why and "systems[" not in why and why in window.statusBar().currentMessage()
    notes = [n for n in systems.viewport().findChildren(QLabel, "refusal") if n.isVisible()]
    assert [n.text() for n in notes] == [why], "the reason is not written beside the field"
    view.refresh()  # another refresh (a panel, an undo elsewhere) leaves the typed text alone
    assert name.text() == old + ".aft"
    assert focused() is name
    press(qtbot, Qt.Key.Key_Escape)
    assert name.text() == old and not refused.holds(name), "Escape did not put the kept name back"
    assert not [n for n in systems.viewport().findChildren(QLabel, "refusal") if n.isVisible()]
    assert [systems.cellWidget(r, 0).text() for r in range(systems.rowCount()) if r != 1] == others  # type: ignore[union-attr]


def test_an_erased_name_is_refused_in_a_players_words_and_typing_clears_the_mark(
    qtbot: Any, window: MainWindow
) -> None:
    from shipyard._qt.document import refused

    view = open_sample(qtbot, window, "cluster-falk", "dominion-carrier")
    crew = list_on_its_page(view, "crew")
    old = get_at(view.doc.design, "crew[8].name")
    name = crew.cellWidget(8, 0)
    assert isinstance(name, QLineEdit)
    click(qtbot, name)
    press(qtbot, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    press(qtbot, Qt.Key.Key_Backspace)
    qtbot.wait(PAUSE_MS)
    assert get_at(view.doc.design, "crew[8].name") == old and name.text() == ""
    assert refused.reason(name) == f"Crew, {old}: name cannot be left empty"
    person_types(qtbot, "Gunner Cole")  # the person changes it: the mark goes, the name commits
    assert not refused.holds(name)
    qtbot.wait(PAUSE_MS)
    assert get_at(view.doc.design, "crew[8].name") == "Gunner Cole" and name.text() == "Gunner Cole"


def test_renaming_a_crewed_turret_takes_its_gunner_along_in_one_undo_step(
    qtbot: Any, window: MainWindow, tmp_path: Any
) -> None:
    """Issue 46: the rename was refused behind the person's back ("'Turret 1' is not one of
    this ship's stations"); a rename carries the crew member's station with it."""
    import json

    from .editor_pages import saved_data

    view = open_sample(qtbot, window, "cluster-falk", "dominion-carrier")
    turrets = list_on_its_page(view, "turrets")
    crew = list_on_its_page(view, "crew")
    gunner = next(r for r, m in enumerate(get_at(view.doc.design, "crew")) if m.get("station") == "Turret 1")
    station = next(c for c, col in enumerate(crew.columns) if col.field == "station")
    name = turrets.cellWidget(0, 0)
    assert isinstance(name, QLineEdit) and name.text() == "Turret 1"
    steps = view.doc.undo_stack.count()
    list_on_its_page(view, "turrets")
    type_over(qtbot, name, NEW_NAME)
    qtbot.wait(PAUSE_MS)
    assert get_at(view.doc.design, "turrets[0].name") == NEW_NAME and name.text() == NEW_NAME
    assert get_at(view.doc.design, f"crew[{gunner}].station") == NEW_NAME
    assert "Not changed" not in window.statusBar().currentMessage()
    box = crew.cellWidget(gunner, station)
    assert isinstance(box, QComboBox) and box.currentText() == NEW_NAME
    assert view.doc.undo_stack.count() == steps + 1  # the typing and its carried station: one step
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert get_at(view.doc.design, "turrets[0].name") == "Turret 1"
    assert get_at(view.doc.design, f"crew[{gunner}].station") == "Turret 1"
    assert name.text() == "Turret 1" and box.currentText() == "Turret 1"
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    data = saved_data(window, tmp_path / "carrier.ship")
    assert data["design"]["turrets"][0]["name"] == NEW_NAME
    assert data["design"]["crew"][gunner]["station"] == NEW_NAME
    assert json.dumps(data).count("Turret 1") == 0


# --- refused choices, numbers and ticks are kept too (issue 46, after its nine items) ----------


def pick(qtbot: Any, combo: QComboBox, text: str) -> None:
    """A click opens the drop-down's list; Home and the arrow keys go to the entry; Enter picks it."""
    click(qtbot, combo)
    qtbot.waitUntil(lambda: combo.view().isVisible(), timeout=2000)
    press(qtbot, Qt.Key.Key_Home)
    for _ in range(combo.count()):
        if combo.view().currentIndex().data() == text:
            break
        press(qtbot, Qt.Key.Key_Down)
    assert combo.view().currentIndex().data() == text, f"{text!r} is not offered: {offered(combo)}"
    press(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not combo.view().isVisible(), timeout=2000)
    qtbot.wait(PAUSE_MS)


def refusal_notes(table: QWidget) -> list[str]:
    from PySide6.QtWidgets import QLabel

    return [n.text() for n in table.findChildren(QLabel, "refusal") if n.isVisible()]


def test_a_station_changed_under_its_crew_is_kept_marked_until_escape(qtbot: Any, window: MainWindow) -> None:
    """Swapping the Cockpit for the Command deck while Lt. Mara Venn sits in it is refused
    (she would sit nowhere): the drop-down keeps the person's choice, marked, the reason
    beside it in a player's words, until Escape puts the kept station back."""
    from shipyard._qt.document import refused

    view = open_sample(qtbot, window, "cluster-falk", "kestrel-fighter")
    stations = list_on_its_page(view, "stations")
    box = stations.cellWidget(0, 0)
    assert isinstance(box, QComboBox) and box.currentText() == "Cockpit"
    pick(qtbot, box, "Command deck")
    assert get_at(view.doc.design, "stations[0]") == "cockpit", "the refused station was stored"
    assert box.currentText() == "Command deck", "the person's choice was taken back"
    why = refused.reason(box)
    assert why.startswith("Crew, Lt. Mara Venn: station") and "crew[" not in why and "stations[" not in why, why
    assert "Cockpit" in why and "'cockpit'" not in why, why  # the station by its name, not its catalog id
    assert refusal_notes(stations) == [why] and why in window.statusBar().currentMessage()
    view.refresh()  # another refresh leaves the choice alone
    assert box.currentText() == "Command deck" and refused.holds(box)
    assert focused() is box
    press(qtbot, Qt.Key.Key_Escape)
    assert box.currentText() == "Cockpit" and not refused.holds(box) and not refusal_notes(stations)
    assert get_at(view.doc.design, "stations[0]") == "cockpit"
    pick(qtbot, box, "Command deck")  # refused again; then the person picks another: the mark goes
    assert refused.holds(box)
    pick(qtbot, box, "Cockpit")
    assert not refused.holds(box) and not refusal_notes(stations) and box.currentText() == "Cockpit"
