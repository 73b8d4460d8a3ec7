"""A newcomer's first minutes with the editor (issue 46, items 8 and 9), driven as a person
drives it: real keys to the focused widget and real clicks, waits longer than every
commit delay, each check made after the commit.

* Ctrl+N asks which game and kind of design to make (the kind made last chosen first),
  and the status bar says which one was made;
* a count of one reads "1 point", not "1 points";
* a crew member moved to a role that cannot use the skill it rolls is told so;
* an empty list says what to do next; a greyed field or cell says why; the Add controls
  are above their lists, in sight at 1280x720.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QComboBox, QLabel, QPushButton, QScrollArea, QWidget

from shipyard._qt.dialogs.catalogbrowser import CatalogBrowser
from shipyard._qt.form.listeditor import ListEditor
from shipyard._qt.view.documentview import DocumentView
from shipyard._qt.widgets.whatnext import EmptyHint, mnemonic
from shipyard._qt.window.newchooser import NewChooser
from shipyard._qt.window.window import MainWindow
from shipyard.core.form import Column, FieldDecl, Section
from shipyard.core.registry import rulesets

from .editor_pages import PAUSE_MS, list_editor, steps
from .test_editor import no_blocking_dialogs, window
from .test_editor_layout import CATALOGS, at_size, page_area, settle, shown_pages

__all__ = ["no_blocking_dialogs", "window"]  # fixtures used here

KINDS = [(info.id, kind.id) for info in rulesets() for kind in info.kinds]
RULESETS = sorted({r for r, _k in KINDS})


def focused() -> QWidget:
    widget = QApplication.focusWidget()
    assert widget is not None, "nothing has the focus"
    return widget


def key(qtbot: Any, k: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    QTest.keyClick(focused(), k, modifier)
    qtbot.wait(60)


def click(qtbot: Any, widget: QWidget, at: QPoint | None = None) -> None:
    QTest.mouseClick(widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at or widget.rect().center())
    qtbot.wait(60)


def active(qtbot: Any, window: MainWindow) -> None:
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)


def chooser(qtbot: Any) -> NewChooser:
    found: list[NewChooser] = []

    def up() -> bool:
        found[:] = [w for w in QApplication.topLevelWidgets() if isinstance(w, NewChooser) and w.isVisible()]
        return bool(found)

    qtbot.waitUntil(up, timeout=3000)
    return found[0]


def new_by_hand(qtbot: Any, window: MainWindow, ruleset: str, kind: str) -> DocumentView:
    """Ctrl+N, the row of ``ruleset``'s ``kind`` reached with Home and Down, Enter."""
    active(qtbot, window)
    key(qtbot, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    dialog = chooser(qtbot)
    qtbot.waitUntil(lambda: focused() is dialog.list, timeout=3000)
    key(qtbot, Qt.Key.Key_Home)
    for _ in range(KINDS.index((ruleset, kind))):
        key(qtbot, Qt.Key.Key_Down)
    before = window.tabs.count()
    key(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.tabs.count() == before + 1, timeout=5000)
    view = window.current()
    assert view is not None
    return view


# --- Ctrl+N ---------------------------------------------------------------------------------


def test_ctrl_n_asks_which_game_and_kind_and_offers_the_last_one_first(qtbot: Any, window: MainWindow) -> None:
    for ruleset, kind in KINDS:
        view = new_by_hand(qtbot, window, ruleset, kind)
        info = next(i for i in rulesets() if i.id == ruleset)
        assert view.doc.loaded.ruleset == ruleset, (ruleset, kind)
        assert view.doc.catalog.module is not None
        made = info.kind(kind)
        assert made is not None
        message = window.statusBar().currentMessage()
        assert message == f"A new {info.name} {made.name.lower()}", message
    # Ctrl+N again: the kind made last is the row chosen, Enter makes another of it
    last_ruleset, _last_kind = KINDS[-1]
    active(qtbot, window)
    key(qtbot, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    dialog = chooser(qtbot)
    assert dialog.chosen() == KINDS[-1]
    before = window.tabs.count()
    key(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.tabs.count() == before + 1, timeout=5000)
    assert window.current() is not None and window.current().doc.loaded.ruleset == last_ruleset  # type: ignore[union-attr]
    # Escape makes nothing
    active(qtbot, window)
    key(qtbot, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    chooser(qtbot)
    key(qtbot, Qt.Key.Key_Escape)
    qtbot.wait(200)
    assert window.tabs.count() == before + 1
    assert not any(isinstance(w, NewChooser) and w.isVisible() for w in QApplication.topLevelWidgets())


# --- a count of one -------------------------------------------------------------------------


def test_an_accessory_costing_one_point_says_one_accessory_point(qtbot: Any, window: MainWindow) -> None:
    view = new_by_hand(qtbot, window, "space-fighter-alpha", "starfighter")
    view.finish_building()
    editor = list_editor(view, "accessories")
    browser = next(b for b in view.steps.browsers if b.kind == "accessories")  # type: ignore[attr-defined]
    view.tabs.setCurrentIndex(next(i for i in shown_pages(view) if view.tabs.widget(i).isAncestorOf(editor)))
    settle(qtbot)
    row = next(
        browser.list.item(i) for i in range(browser.list.count()) if browser.list.item(i).text().startswith("Airlocks")
    )
    click(qtbot, browser.list.viewport(), browser.list.visualItemRect(row).center())
    click(qtbot, browser.add_button)
    qtbot.wait(PAUSE_MS)
    assert editor.rowCount() == 1
    assert editor.item(0, editor.cost_column).text() == "1 Accessory point"


def test_a_pilot_of_one_xp_costs_one_point(qtbot: Any, window: MainWindow) -> None:
    view = new_by_hand(qtbot, window, "space-fury", "fighter")
    view.finish_building()
    pilot = next(
        b for b in view.findChildren(QWidget) if b.metaObject().className() == "QCheckBox" and "pilot" in b.text()
    )
    view.tabs.setCurrentIndex(next(i for i in shown_pages(view) if view.tabs.widget(i).isAncestorOf(pilot)))
    settle(qtbot)
    click(qtbot, pilot, QPoint(8, pilot.height() // 2))
    qtbot.waitUntil(lambda: "pilot.xp" in view.binder.bindings, timeout=3000)
    xp = view.binder.bindings["pilot.xp"].widget
    assert isinstance(xp, QAbstractSpinBox)
    settle(qtbot)
    active(qtbot, window)
    xp.setFocus()  # as Tab reaches it
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None, timeout=3000)
    key(qtbot, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    key(qtbot, Qt.Key.Key_1)
    qtbot.wait(PAUSE_MS)
    cost = next(lab for lab in view.findChildren(QLabel, "figure:pilot-cost"))
    assert cost.text() == "1 point", cost.text()
    assert view.summary.values() is not None


# --- a role that cannot use the skill ---------------------------------------------------------


def test_a_new_role_that_cannot_use_the_skill_is_said_and_undone_whole(qtbot: Any, window: MainWindow) -> None:
    view = new_by_hand(qtbot, window, "future-perfect", "ship")
    view.finish_building()
    crew = list_editor(view, "crew")
    view.tabs.setCurrentIndex(next(i for i in shown_pages(view) if view.tabs.widget(i).isAncestorOf(crew)))
    settle(qtbot)
    add = next(b for b in view.findChildren(QPushButton) if b.accessibleName().startswith("Add character"))
    click(qtbot, add)
    qtbot.wait(PAUSE_MS)
    row = crew.rowCount() - 1
    entry = view.doc.design.crew[row]
    assert entry.role == "helm" and entry.skill == "Piloting"
    column = next(c for c, col in enumerate(crew.columns) if col.field == "role")
    role = crew.cellWidget(row, column)
    assert isinstance(role, QComboBox)
    tactical = role.findText("Tactical")
    assert tactical >= 0
    active(qtbot, window)
    role.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is role, timeout=3000)
    while role.currentIndex() != tactical:  # a person steps the closed choice with the arrow keys
        key(qtbot, Qt.Key.Key_Down if role.currentIndex() < tactical else Qt.Key.Key_Up)
    qtbot.wait(PAUSE_MS)
    assert view.doc.design.crew[row].role == "tactical"
    assert view.doc.design.crew[row].skill == "Piloting"  # kept: the person chooses the new one
    message = window.statusBar().currentMessage()
    assert "Tactical rolls" in message and "Piloting" in message and "skill" in message.lower(), message
    assert "crew[" not in message  # the place in the player's words
    key(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.wait(PAUSE_MS)
    assert view.doc.design.crew[row].role == "helm"


# --- empty lists say what to do next ------------------------------------------------------------


def add_control(view: DocumentView, editor: ListEditor) -> tuple[QPushButton, CatalogBrowser | None]:
    hint = editor.viewport().findChild(EmptyHint)
    assert hint is not None, f"{editor.accessibleName()}: no empty state"
    browser = next((b for b in view.steps.browsers if b.add_button is hint.add), None)  # type: ignore[attr-defined]
    return hint.add, browser  # type: ignore[return-value]


@pytest.mark.parametrize(("ruleset", "kind"), KINDS, ids=[f"{r}-{k}" for r, k in KINDS])
def test_every_empty_list_says_what_to_do_next_and_doing_it_fills_it(
    qtbot: Any, window: MainWindow, ruleset: str, kind: str
) -> None:
    view = new_by_hand(qtbot, window, ruleset, kind)
    view.finish_building()
    empties = 0
    for index in shown_pages(view):
        view.tabs.setCurrentIndex(index)
        settle(qtbot)
        for editor in [e for e in steps(view).lists if view.tabs.widget(index).isAncestorOf(e) and e.isVisible()]:
            if editor.rowCount():
                continue
            hint = editor.viewport().findChild(EmptyHint)
            assert hint is not None and hint.isVisible(), f"{editor.accessibleName()}: empty, and says nothing"
            add, browser = add_control(view, editor)
            assert hint.text().startswith(f"No {editor.accessibleName().lower()} yet"), hint.text()
            assert editor.accessibleDescription() == hint.text()
            if not add.isEnabled():  # a list that needs something first: the hint says what
                assert add.toolTip() and add.toolTip() in hint.text(), hint.text()
                continue
            assert add.text().replace("&", "") in hint.text(), hint.text()
            if mnemonic(add):
                assert f"({mnemonic(add)})" in hint.text(), hint.text()
            empties += 1
            if browser is not None:  # as the hint says: choose one in the catalog, press Add
                rows = [browser.list.item(i) for i in range(browser.list.count())]
                first = next(r for r in rows if r.flags() & Qt.ItemFlag.ItemIsEnabled and not r.isHidden())
                browser.list.scrollToItem(first)
                click(qtbot, browser.list.viewport(), browser.list.visualItemRect(first).center())
            click(qtbot, add)
            qtbot.wait(PAUSE_MS)
            assert editor.rowCount() >= 1, f"{editor.accessibleName()}: the hint's way added nothing"
            assert not hint.isVisible() and editor.accessibleDescription() == ""
    assert empties or ruleset == "wing-commander" or kind == "pilot"  # a new design has empty lists to start


# --- greyed controls say why --------------------------------------------------------------------


def declared(ruleset: str) -> list[tuple[str, Any]]:
    """Every field and column of ``ruleset``'s form with an ``enabled`` condition: (where, declaration)."""
    from shipyard.core.catalog import load_catalog
    from shipyard.core.form import ListDecl

    form = load_catalog(ruleset, use_user_folder=False).form
    out: list[tuple[str, Any]] = []

    def walk(sections: list[Section], where: str) -> None:
        nonlocal out
        for s in sections:
            for el in s.fields:
                if isinstance(el, FieldDecl) and el.enabled is not None:
                    out.append((f"{where} {el.path}", el))
                if isinstance(el, ListDecl):
                    out += [(f"{where} {el.list_}.{c.path}", c) for c in el.columns if c.enabled is not None]
                    walk(el.detail, f"{where} {el.list_}")

    assert form is not None
    for page in form.pages:
        walk(page.sections, page.id)
    return out


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_field_or_cell_a_condition_greys_says_why(ruleset: str) -> None:
    for where, decl in declared(ruleset):
        assert isinstance(decl, FieldDecl | Column)
        assert decl.why.strip(), f"{ruleset} {where}: greyed with no reason"


def test_a_greyed_armor_says_why_until_soak_is_divided(qtbot: Any, window: MainWindow) -> None:
    view = new_by_hand(qtbot, window, "space-fighter-alpha", "starfighter")
    view.finish_building()
    armor = view.binder.bindings["armor"].widget
    view.tabs.setCurrentIndex(next(i for i in shown_pages(view) if view.tabs.widget(i).isAncestorOf(armor)))
    settle(qtbot)
    why = next(w for w in armor.parentWidget().findChildren(QLabel, "greyed-why") if "Soak is divided" in w.text())
    assert not armor.isEnabled() and why.isVisible()
    assert armor.toolTip().startswith(why.text())
    toggle = next(
        b
        for b in view.findChildren(QWidget)
        if b.metaObject().className() == "QCheckBox" and "Soak is divided" in b.text().replace("&", "")
    )
    click(qtbot, toggle, QPoint(8, toggle.height() // 2))
    qtbot.wait(PAUSE_MS)
    assert armor.isEnabled() and not why.isVisible()
    assert why.text() not in armor.toolTip()


def test_a_greyed_cell_says_why_in_its_tooltip(qtbot: Any, window: MainWindow) -> None:
    view = window.open_file(CATALOGS / "future-perfect" / "examples" / "damaged-frigate.ship")
    assert view is not None
    view.finish_building()
    crew = list_editor(view, "crew")
    column = next(c for c, col in enumerate(crew.columns) if col.field == "acuity")
    why = crew.columns[column].why
    assert why
    for row, entry in enumerate(crew.entries()):
        cell = crew.cellWidget(row, column)
        if entry["role"] == "helm":
            assert cell.isEnabled() and why not in cell.toolTip()
        else:
            assert not cell.isEnabled() and cell.toolTip().startswith(why)


# --- Add controls in sight at 1280x720 ------------------------------------------------------------


def adds_of(view: DocumentView, index: int) -> list[tuple[QPushButton, QWidget]]:
    """The Add buttons of page ``index``, each with the list it is above: a list's own Add
    above its rows, a catalog's Add above the catalog's items (beside the chosen list)."""
    page = view.tabs.widget(index)
    out: list[tuple[QPushButton, QWidget]] = []
    for editor in [e for e in steps(view).lists if page.isAncestorOf(e) and e.isVisible()]:
        add, browser = add_control(view, editor)
        out.append((add, editor if browser is None else browser.list))
    return out


@pytest.mark.parametrize("ruleset", RULESETS)
def test_add_controls_are_above_their_lists_and_in_sight_at_1280x720(
    qtbot: Any, window: MainWindow, ruleset: str
) -> None:
    at_size(qtbot, window, 1280, 720)
    kinds = [k for r, k in KINDS if r == ruleset]
    checked = 0
    for kind in kinds:
        view = new_by_hand(qtbot, window, ruleset, kind)
        view.finish_building()
        for index in shown_pages(view):
            view.tabs.setCurrentIndex(index)
            settle(qtbot)
            area: QScrollArea = page_area(view, index)
            inner = area.widget()
            for add, listed in adds_of(view, index):
                top = add.mapTo(inner, QPoint(0, 0)).y()
                assert top + add.height() <= listed.mapTo(inner, QPoint(0, 0)).y() + 2, add.text()
                area.ensureWidgetVisible(listed, 0, 0)  # the person scrolls to the list's top ...
                settle(qtbot)
                seen = add.mapTo(area.viewport(), QPoint(0, 0)).y()
                assert seen >= 0 and seen + add.height() <= area.viewport().height(), (kind, add.text(), seen)
                checked += 1
    assert checked or ruleset == "wing-commander"


def test_the_accessories_add_is_in_sight_when_the_page_opens_at_1280x720(qtbot: Any, window: MainWindow) -> None:
    at_size(qtbot, window, 1280, 720)
    view = new_by_hand(qtbot, window, "space-fighter-alpha", "starfighter")
    view.finish_building()
    browser = next(b for b in view.steps.browsers if b.kind == "accessories")  # type: ignore[attr-defined]
    index = next(i for i in shown_pages(view) if view.tabs.widget(i).isAncestorOf(browser))
    title = view.tabs.tabText(index)
    active(qtbot, window)
    key(qtbot, getattr(Qt.Key, f"Key_{title[title.index('&') + 1]}"), Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: view.tabs.currentIndex() == index, timeout=3000)
    settle(qtbot)
    area = page_area(view, index)
    assert area.verticalScrollBar().value() == 0
    seen = browser.add_button.mapTo(area.viewport(), QPoint(0, 0)).y()
    assert seen >= 0 and seen + browser.add_button.height() <= area.viewport().height(), seen
