"""Helpers for driving the editor's generated pages like a user would (the per-ruleset
editor tests: Space Fury, Cluster Falk, Future Perfect, Wing Commander).

A page is found by its place among the pages shown for the design (pages for other kinds
of design are hidden), a widget by the path it edits or by its accessible name, a figure
or report table by its id, an action's dialog built for real and read, not run modally.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QSpinBox,
)

from shipyard._qt.document.pending import COMMIT_DELAY_MS
from shipyard._qt.form.calls import ParamsDialog
from shipyard._qt.form.pages import FormPages
from shipyard._qt.view.documentview import DocumentView
from shipyard._qt.window.window import MainWindow
from shipyard.core.findings import Finding

PAUSE_MS = COMMIT_DELAY_MS + 150  # a person's pause after typing: longer than the commit delay


def steps(view: DocumentView) -> FormPages:
    assert isinstance(view.steps, FormPages)
    return view.steps


def menu_action(window: MainWindow, *path: str) -> QAction:
    """The action at File > ``path`` (menu texts without their '&')."""
    menu: QMenu | None = next(
        a.menu() for a in window.menuBar().actions() if a.menu() is not None and a.text() == "&File"
    )
    *submenus, last = path
    for title in submenus:
        assert menu is not None
        menu = next(a.menu() for a in menu.actions() if a.menu() is not None and a.text().replace("&", "") == title)
    assert menu is not None
    return _in_menu(menu, last)


def _in_menu(menu: QMenu, text: str) -> QAction:
    """The entry ``text`` of ``menu`` or of one of its submenus (File > New from sample has a
    submenu a ruleset)."""
    for a in menu.actions():
        if a.menu() is None and a.text().replace("&", "") == text:
            return a
    for a in menu.actions():
        sub = a.menu()
        if isinstance(sub, QMenu):
            try:
                return _in_menu(sub, text)
            except LookupError:
                continue
    raise LookupError(f"no menu entry {text!r}")


def new_from_menu(window: MainWindow, menu: str, ruleset: str) -> DocumentView:
    """File > New > ``menu``: the new design's view (a design of ``ruleset``)."""
    menu_action(window, "New", menu).trigger()
    view = window.current()
    assert view is not None and view.doc.loaded.ruleset == ruleset
    return view


def type_text(qtbot: Any, widget: Any, text: str) -> None:
    """Type into a text box that is still empty (a new record's concept, notes), then pause
    as a person does, longer than the editor waits before it commits what was typed."""
    widget.setFocus()
    qtbot.keyClicks(widget, text)
    qtbot.wait(PAUSE_MS)


def click(qtbot: Any, view: DocumentView, page: int, text: str) -> None:
    """Click the button labelled ``text`` on the design's page ``page``."""
    qtbot.mouseClick(button(view, page, text), Qt.MouseButton.LeftButton)


def tab(view: DocumentView, n: int) -> int:
    """The tab index of the design's ``n``-th page (the pages of the other kinds are hidden)."""
    return [i for i in range(view.tabs.count()) if view.tabs.isTabVisible(i)][n]


def go(view: DocumentView, n: int) -> None:
    view.tabs.setCurrentIndex(tab(view, n))


def tab_titles(view: DocumentView) -> list[str]:
    return [view.tabs.tabText(i) for i in range(view.tabs.count()) if view.tabs.isTabVisible(i)]


def cell(view: DocumentView, list_path: str, row: int, column: int) -> Any:
    editor = next(e for e in steps(view).lists if e.list_path == list_path)
    return editor.cellWidget(row, column)


def list_editor(view: DocumentView, list_path: str) -> Any:
    return next(e for e in steps(view).lists if e.list_path == list_path)


def remove_button(view: DocumentView, list_path: str, row: int) -> QPushButton:
    """The Remove button of a list's row."""
    editor = list_editor(view, list_path)
    found = editor.cellWidget(row, editor.remove_column)
    assert isinstance(found, QPushButton) and found.text() == "Remove", found
    return found


def button(view: DocumentView, page: int, text: str) -> QPushButton:
    """The push button labelled ``text`` on the design's page ``page`` (one a user can see
    there), whichever Alt+letter it was given (:mod:`shipyard._qt.view.mnemonics`)."""
    QApplication.processEvents()  # pages and details built a moment ago are shown by now
    widget = view.tabs.widget(tab(view, page))
    return next(b for b in widget.findChildren(QPushButton) if plain(b.text()) == plain(text) and b.isVisibleTo(widget))


def plain(text: str) -> str:
    """A label without its Alt+letter mark."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")


def click_box(qtbot: Any, box: QCheckBox) -> None:
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))


def toggle_named(view: DocumentView, name: str) -> QCheckBox:
    """A check box of the pages (a toggle or an optional section's) by its accessible name."""
    return next(t for t in steps(view).toggles if t.accessibleName() == name)


def choose(combo: QComboBox, text: str) -> None:
    """Pick an entry as a user does (activated, not only current)."""
    index = combo.findText(text)
    assert index >= 0, f"{text!r} is not offered: {[combo.itemText(i) for i in range(combo.count())]}"
    combo.setCurrentIndex(index)
    combo.activated.emit(index)


def figure_label(view: DocumentView, fig_id: str) -> QLabel:
    """A figure as the design's first page that shows it has it."""
    view.finish_building()
    for i in range(view.tabs.count()):
        if view.tabs.isTabVisible(i):
            found = view.tabs.widget(i).findChildren(QLabel, f"figure:{fig_id}")
            if found:
                return found[0]
    raise AssertionError(f"no page shows the figure {fig_id!r}")


def figure_shown(view: DocumentView, fig_id: str) -> str:
    """A figure as a user (or a screen reader) reads it: "Level: 4"."""
    label = figure_label(view, fig_id)
    return f"{label.accessibleName()}: {label.text()}"


def summary(view: DocumentView) -> dict[str, str]:
    """The right-hand summary, figure by figure, as it shows now."""
    return dict(view.summary.values())


def table(view: DocumentView, table_id: str) -> Any:
    return next(t for t in steps(view).tables if t.table_id == table_id)


def action(view: DocumentView, action_id: str) -> Any:
    return next(a for a in steps(view).form.actions if a.id == action_id)


def dialog(view: DocumentView, action_id: str) -> ParamsDialog:
    """The dialog an action asks with, built for real (not run modally)."""
    return ParamsDialog(action(view, action_id), steps(view).context(), view)


def dialog_widget(dlg: ParamsDialog, name: str) -> Any:
    widgets = [w for kind in (QLineEdit, QSpinBox, QComboBox) for w in dlg.findChildren(kind)]
    return next(w for w in widgets if w.accessibleName() == name)


def offered(view: DocumentView, action_id: str, name: str) -> list[str]:
    """The choices an action's dialog offers for one of its values."""
    combo = dialog_widget(dialog(view, action_id), name)
    return [combo.itemText(i) for i in range(combo.count())]


def focused_after(view: DocumentView, path: str) -> Any:
    """What has the focus after the editor is asked to focus ``path`` (as a finding does)."""
    assert view.focus_path(path), path
    return QApplication.focusWidget()


def open_sample(window: MainWindow, file: Path) -> DocumentView:
    """File > New from sample ``file``, in a window that has the focus (so focus can be checked)."""
    view = window.open_sample(file)
    assert view is not None
    window.activateWindow()
    return view


def add_row(qtbot: Any, view: DocumentView, page: int, text: str, list_path: str) -> int:
    """Click the add button ``text`` on page ``page``: the row of ``list_path`` it added."""
    click(qtbot, view, page, text)
    return int(list_editor(view, list_path).rowCount()) - 1


def the_finding(view: DocumentView, code: str | None = None, *, path: str | None = None) -> Finding:
    """The one finding of the design with ``code`` (or at ``path``)."""
    [found] = [
        f for f in view.doc.report.findings if (code is None or f.code == code) and (path is None or f.path == path)
    ]
    return found


def saved_data(window: MainWindow, target: Path) -> Any:
    """File > Save to ``target`` (the save dialog answered with it): the JSON written."""
    window.ask_save_path = lambda _doc: target  # type: ignore[method-assign]
    assert window.save()
    return json.loads(target.read_text(encoding="utf-8"))


def undo_all(window: MainWindow, view: DocumentView) -> None:
    """Edit > Undo until there is nothing left to undo."""
    while view.doc.undo_stack.canUndo():
        window.undo_action.trigger()


def redo_all(window: MainWindow, view: DocumentView) -> None:
    """Edit > Redo until there is nothing left to redo."""
    while view.doc.undo_stack.canRedo():
        window.redo_action.trigger()
