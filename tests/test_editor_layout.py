"""The editor's layout at the screen sizes people have (issue 19): forms and lists use the
width of a 1920x1080 screen, nothing important scrolls away at 1280x720, a page never
scrolls inside a page, the panels on the right show whole names and whole tracks.

The scroll rule, checked on every page of a sample of each of the five rulesets:

* a step page is one scroll area (a QScrollArea), and no QScrollArea is inside another;
* lists, tables and read-only description boxes are scroll areas too (QAbstractItemView,
  QTextBrowser; their headers and the pop-up list of a choice are not on the page): while
  the page shows its own vertical scroll bar, none of them shows one. Either the page
  fits and its lists share the height and scroll their rows, or the lists show all their
  rows and only the page scrolls; a user never meets a scroll bar inside a scrolling page;
* no page scrolls sideways.

Text editors (notes) are not counted: what a user types may scroll in its box, as in any
text field.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractScrollArea,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QHeaderView,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QStyle,
    QTableWidget,
    QTextBrowser,
    QWidget,
)

from shipyard._qt.form.listeditor import ListEditor
from shipyard._qt.view.documentview import DocumentView
from shipyard._qt.widgets.scrollpage import ScrollPage
from shipyard._qt.window.window import MainWindow

from .test_editor import no_blocking_dialogs, window  # noqa: F401 (fixtures)
from .test_editor_roster import campaign  # noqa: F401 (fixture)

CATALOGS = Path(__file__).resolve().parents[1] / "catalogs"
SAMPLES = {  # a sample of each of the five rulesets
    "space-fighter-alpha": "rebel-frigate",
    "space-fury": "interceptor",
    "cluster-falk": "dominion-carrier",
    "future-perfect": "damaged-frigate",
    "wing-commander": "piranha",
}


@pytest.fixture(autouse=True)
def laid_out_not_painted(request: pytest.FixtureRequest) -> None:
    """The window of each test here lays itself out as shown but paints no pixel
    (``setUpdatesEnabled(False)``): every check here reads sizes, places, texts, tooltips
    and letters, none a painted pixel, and painting each page at each size cost more than
    the checks. Paint code runs in the other editor tests: the walk of every page
    by hand (test_editor_by_hand.py), the screens at both sizes (test_editor_screens.py)."""
    if "window" in request.fixturenames:
        request.getfixturevalue("window").setUpdatesEnabled(False)


def at_size(qtbot: Any, window: MainWindow, width: int, height: int) -> None:
    """The window at ``width`` x ``height``: it must be able to get that small."""
    window.resize(width, height)
    qtbot.waitUntil(lambda: (window.width(), window.height()) == (width, height), timeout=3000)


def open_sample(qtbot: Any, window: MainWindow, ruleset: str) -> DocumentView:
    view = window.open_file(CATALOGS / ruleset / "examples" / f"{SAMPLES[ruleset]}.ship")
    assert view is not None
    view.finish_building()
    settle(qtbot)
    return view


def settle(qtbot: Any) -> None:
    """Let the pages lay themselves out (a page fits itself once its widgets have asked)."""
    for _ in range(3):
        QApplication.processEvents()
        qtbot.wait(5)


def shown_pages(view: DocumentView) -> list[int]:
    return [i for i in range(view.tabs.count()) if view.tabs.isTabVisible(i)]


def page_area(view: DocumentView, index: int) -> QScrollArea:
    """The page's one scroll area; no scroll area inside another."""
    holder = view.tabs.widget(index)
    areas = holder.findChildren(QScrollArea)
    title = view.tabs.tabText(index)
    assert len(areas) == 1, f"page {title!r} has {len(areas)} scroll areas"
    return areas[0]


def views_on(area: QScrollArea) -> list[QAbstractScrollArea]:
    """The lists, tables and description boxes a user sees on the page."""
    inner = area.widget()
    assert inner is not None
    return [
        v
        for v in inner.findChildren(QAbstractScrollArea)
        if isinstance(v, QAbstractItemView | QTextBrowser) and not isinstance(v, QHeaderView) and v.isVisible()
    ]


def visit(qtbot: Any, view: DocumentView) -> Iterator[tuple[str, QScrollArea]]:
    """Show every page of the design in turn, each with the first row of its lists selected
    (their detail areas shown), check it against the scroll rule and give (title, the
    page's scroll area) while it is the page shown."""
    for index in shown_pages(view):
        view.tabs.setCurrentIndex(index)
        settle(qtbot)
        title = view.tabs.tabText(index).replace("&", "")
        area = page_area(view, index)
        for table in [t for t in area.widget().findChildren(QTableWidget) if t.isVisible() and t.rowCount()]:
            table.selectRow(0)
        settle(qtbot)
        assert not area.findChildren(QScrollArea), f"{title}: a scroll area inside the page's"
        inner, lay = area.widget(), area.widget().layout()
        need = lay.minimumHeightForWidth(inner.width()) if lay.hasHeightForWidth() else lay.totalMinimumSize().height()
        assert inner.height() >= need, f"{title}: the page is {inner.height()} pixels tall, its widgets need {need}"
        assert not area.horizontalScrollBar().isVisible(), f"{title}: the page scrolls sideways"
        if area.verticalScrollBar().isVisible():
            inner = [
                f"{type(v).__name__} {v.accessibleName()!r}"
                for v in views_on(area)
                if v.verticalScrollBar().isVisible()
            ]
            assert not inner, f"{title}: scroll bars inside the scrolling page: {inner}"
        yield title, area


@pytest.mark.parametrize("ruleset", list(SAMPLES))
def test_no_page_scrolls_inside_a_scrolling_page_at_1280x720(qtbot: Any, window: MainWindow, ruleset: str) -> None:
    at_size(qtbot, window, 1280, 720)
    view = open_sample(qtbot, window, ruleset)
    assert (window.width(), window.height()) == (1280, 720)  # no page makes the window taller than the screen
    pages = [title for title, _area in visit(qtbot, view)]
    assert len(pages) == len(shown_pages(view)) >= 4


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=["1280x720", "1920x1080"])
@pytest.mark.parametrize("ruleset", list(SAMPLES))
def test_a_page_left_alone_lays_itself_out_no_more(
    qtbot: Any, window: MainWindow, ruleset: str, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page shown and left alone costs nothing. A page that scrolls laid itself out again
    150 to 230 times a second, for ever, about half a core while the person only looked at
    it: a page of each ruleset at 1280x720 (Space Fury's Enhancements at both sizes). Each
    page is reached as a person does (Alt and its number) and watched for a second after
    it settled."""
    fits: list[ScrollPage] = []
    laid_out = ScrollPage._fit_once

    def counted(page: ScrollPage, inner: QWidget) -> int:
        fits.append(page)
        return laid_out(page, inner)

    monkeypatch.setattr(ScrollPage, "_fit_once", counted)
    at_size(qtbot, window, *size)
    view = open_sample(qtbot, window, ruleset)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    titles = []
    for index in shown_pages(view):
        title = view.tabs.tabText(index)
        number = title[title.index("&") + 1]
        QTest.keyClick(
            QApplication.focusWidget() or window, getattr(Qt.Key, f"Key_{number}"), Qt.KeyboardModifier.AltModifier
        )
        qtbot.waitUntil(lambda index=index: view.tabs.currentIndex() == index, timeout=3000)
        qtbot.wait(500)  # it lays itself out once shown
        fits.clear()
        qtbot.wait(1000)  # a person reads the page
        titles.append(title)
        assert fits == [], f"{ruleset} {title!r} at {size}: laid out {len(fits)} times in a second while left alone"
    assert len(titles) >= 4


def grows(w: QWidget) -> bool:
    """A text field, text box or list of the form (not a spin box's or a table cell's editor)."""
    if not isinstance(w, QLineEdit | QPlainTextEdit | QTableWidget):
        return False
    up = w.parentWidget()
    while up is not None:
        if isinstance(up, QAbstractSpinBox | QComboBox | QAbstractItemView):
            return False
        up = up.parentWidget()
    return True


@pytest.mark.parametrize("ruleset", list(SAMPLES))
def test_forms_and_lists_use_the_width_of_1920x1080(qtbot: Any, window: MainWindow, ruleset: str) -> None:
    at_size(qtbot, window, 1920, 1080)
    view = open_sample(qtbot, window, ruleset)
    pane = view.tabs.width()
    assert pane >= 0.5 * window.width()  # the steps have most of the window
    for title, area in visit(qtbot, view):
        inner = area.widget()
        sections = [
            w for w in inner.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly) if w.isVisible()
        ]
        assert sections, title
        spans = QRect()
        for w in sections:
            spans = spans.united(w.geometry())
        assert spans.width() >= 0.6 * pane, f"{title}: the form is {spans.width()} of {pane} pixels wide"
        growing = [w for w in inner.findChildren(QWidget) if w.isVisible() and grows(w)]
        if growing:  # text fields and lists grow with the window: the widest takes most of it
            widest = max(w.width() for w in growing)
            assert widest >= 0.6 * pane, f"{title}: the widest field is {widest} of {pane} pixels"


def test_step_four_keeps_add_custom_technology_in_sight_at_1280x720(qtbot: Any, window: MainWindow) -> None:
    at_size(qtbot, window, 1280, 720)
    view = open_sample(qtbot, window, "space-fighter-alpha")
    four = shown_pages(view)[3]
    view.tabs.setCurrentIndex(four)
    settle(qtbot)
    area = page_area(view, four)
    button = next(b for b in area.findChildren(QPushButton) if b.text() == "Add &custom technology")
    assert not area.verticalScrollBar().isVisible()  # the whole step fits: catalog, chosen, custom
    where = QRect(button.mapTo(area.viewport(), button.rect().topLeft()), button.size())
    assert area.viewport().rect().contains(where), (where, area.viewport().rect())
    catalog = next(b for b in view.steps.browsers if b.kind == "technology")  # type: ignore[attr-defined]
    assert catalog.list.height() >= 90  # a few rows to choose from, scrolling its own rows
    assert catalog.list.verticalScrollBar().isVisible()


# --- a catalog list shows what a user needs to choose -------------------------------------


def catalog_entries(ruleset: str, kind: str) -> list[dict[str, Any]]:
    """The items of ``kind`` as the ruleset's catalog file writes them (not as the editor shows them)."""
    from ruamel.yaml import YAML

    data = YAML(typ="safe").load((CATALOGS / ruleset / f"{kind.replace('_', '-')}.yaml").read_text(encoding="utf-8"))
    return list(data[kind])


def catalog_entry(ruleset: str, kind: str, item_id: str) -> dict[str, Any]:
    return next(e for e in catalog_entries(ruleset, kind) if e["id"] == item_id)


def choose(qtbot: Any, view: DocumentView, kind: str, item_id: str) -> tuple[str, str]:
    """Select ``item_id`` in the browser of ``kind`` (on its page): (the detail box's text, the row's tooltip)."""
    browser = next(b for b in view.steps.browsers if b.kind == kind)  # type: ignore[attr-defined]
    from shipyard._qt.document.binding import _reveal

    _reveal(browser)
    settle(qtbot)
    row = next(
        browser.list.item(i)
        for i in range(browser.list.count())
        if browser.list.item(i).data(Qt.ItemDataRole.UserRole) == item_id
    )
    browser.list.setCurrentItem(row)
    assert browser.detail.isVisible()
    return browser.detail.toPlainText(), row.toolTip()


def test_a_weapon_shows_its_speed_damage_range_and_cost(qtbot: Any, window: MainWindow) -> None:
    view = open_sample(qtbot, window, "space-fighter-alpha")
    laser = catalog_entry("space-fighter-alpha", "weapons", "heavy-laser")
    detail, tip = choose(qtbot, view, "weapons", "heavy-laser")
    for label in ("speed", "damage", "range", "cost"):
        assert f"{label.capitalize()} {laser[label]}" in detail, (label, detail)
        assert f"{label.capitalize()}: {laser[label]}" in tip.splitlines(), (label, tip)
    noted = next(e for e in catalog_entries("space-fighter-alpha", "weapons") if e.get("notes"))
    detail, tip = choose(qtbot, view, "weapons", noted["id"])  # a weapon with notes: they are there too
    assert noted["notes"] in detail and f"Notes: {noted['notes']}" in tip.splitlines()


def test_an_enhancement_shows_its_units_and_notes_beside_the_rulesets_listing(qtbot: Any, window: MainWindow) -> None:
    view = open_sample(qtbot, window, "space-fury")
    rack = catalog_entry("space-fury", "enhancements", "missile-rack")
    detail, tip = choose(qtbot, view, "enhancements", "missile-rack")
    for text in (detail, tip):
        assert rack["name"] in text and rack["notes"] in text
        assert text.count(rack["notes"]) == 1  # the listing says the notes; the facts do not say them again
    assert f"Units {rack['units']}" in detail and f"Units: {rack['units']}" in tip.splitlines()
    assert tip.splitlines()[1].startswith("Costs ")  # the ruleset's listing first, as in the detail box


def test_a_torpedo_shows_its_ratings_damage_and_text(qtbot: Any, window: MainWindow) -> None:
    view = open_sample(qtbot, window, "cluster-falk")
    torpedo = catalog_entry("cluster-falk", "torpedoes", "standard-torpedo")
    detail, tip = choose(qtbot, view, "torpedoes", "standard-torpedo")
    for field in ("pilot", "drives", "damage"):
        assert f"{field.capitalize()} {torpedo[field]}" in detail and f"{field.capitalize()}: {torpedo[field]}" in tip
    assert torpedo["text"] in detail and f"Text: {torpedo['text']}" in tip.splitlines()


# --- the panels on the right: whole names, whole tracks ------------------------------------


def cells(tree: Any) -> list[tuple[Any, int]]:
    """Every cell with text of every row shown: (item, column)."""
    out = []

    def walk(item: Any) -> None:
        for i in range(item.childCount()):
            child = item.child(i)
            out.extend((child, c) for c in (0, 1) if child.text(c))
            if child.isExpanded():
                walk(child)

    walk(tree.invisibleRootItem())
    return out


def unreadable(tree: Any) -> list[str]:
    """The cells whose text a user cannot read whole: wrapped at word boundaries in the
    cell's width, it is wider or taller than the cell, or the cell reaches past the panel."""
    fm = tree.fontMetrics()
    margins = 2 * (tree.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, tree) + 1)  # the style's
    bad = []
    for item, column in cells(tree):
        cell = tree.visualRect(tree.indexFromItem(item, column))  # the first column's without its indentation
        room = cell.width() - margins
        text = item.text(column)
        need = fm.boundingRect(QRect(0, 0, room, 10_000), int(Qt.TextFlag.TextWordWrap), text)
        if need.width() > room or need.height() > cell.height() or cell.right() > tree.viewport().width():
            bad.append(f"{text!r}: needs {need.width()}x{need.height()}, has {room}x{cell.height()}")
    return bad


def test_summary_names_are_whole_beside_long_values_at_1280x720(qtbot: Any, window: MainWindow) -> None:
    at_size(qtbot, window, 1280, 720)
    view = open_sample(qtbot, window, "wing-commander")
    summary = view.summary
    names = [label for label, _value, _parts, _detail in summary.rows(view.doc.report, view._summary_ids)]
    assert "Free missile decoys" in names  # the figure the panel cut to "Free missile dec..."
    values = dict(summary.values())
    assert len(max(values.values(), key=len)) > 40  # beside a long value (the link groups)
    assert not unreadable(summary), unreadable(summary)
    assert summary.columnWidth(0) + summary.columnWidth(1) <= summary.viewport().width()


@pytest.mark.parametrize("ruleset", ["cluster-falk", "wing-commander"])
def test_track_boxes_wrap_inside_the_panel(qtbot: Any, window: MainWindow, ruleset: str) -> None:
    at_size(qtbot, window, 1280, 720)
    view = open_sample(qtbot, window, ruleset)
    record = view.record
    tracks = next(
        record.topLevelItem(i) for i in range(record.topLevelItemCount()) if record.topLevelItem(i).text(0) == "Tracks"
    )
    rows = [tracks.child(i) for i in range(tracks.childCount())]
    boxes = {r.text(0): r.text(1).count("☐") + r.text(1).count("☒") for r in rows}
    track_sizes = {t.name: len(t.boxes) for t in view.doc.report.derived.tracks}
    assert boxes == track_sizes  # every box of every track of the report is there
    assert not unreadable(record), unreadable(record)
    wrapped = [r for r in rows if record.fontMetrics().horizontalAdvance(r.text(1)) > record.columnWidth(1)]
    if ruleset == "cluster-falk":  # the hull's ten boxes do not fit one line of the panel: further lines
        assert wrapped
    for row in wrapped:
        assert record.visualItemRect(row).height() > record.fontMetrics().height() * 1.5


# --- nothing squeezed, nothing cut without its whole text in a tooltip (issue 24) -------------


def shown_widgets(window: QWidget) -> list[QWidget]:
    """The widgets of ``window`` a person sees now, in the order made: what each check below
    looks at, found once for all of them (:func:`walk_checks`)."""
    return [w for w in window.findChildren(QWidget) if w.isVisible()]


def squeezed(window: MainWindow, shown: list[QWidget] | None = None) -> list[str]:
    """Visible labels, buttons, drop-downs and spin boxes narrower than their minimum size
    hint or lower than their size hint (a spin box 9 pixels tall where it needs 19 shows no
    digits; a label that wraps its words is as tall as its width makes it). ``shown``: the
    window's :func:`shown_widgets`, if found already."""
    from PySide6.QtWidgets import QAbstractButton, QLabel

    out = []
    for w in shown_widgets(window) if shown is None else shown:
        if not isinstance(w, QLabel | QAbstractButton | QComboBox | QAbstractSpinBox):
            continue
        least = w.minimumSizeHint()
        tall = least.height() if isinstance(w, QLabel) and w.wordWrap() else max(least.height(), w.sizeHint().height())
        if w.width() < least.width() - 1 or w.height() < tall - 1:
            out.append(
                f"{type(w).__name__} {w.accessibleName()!r} {w.width()}x{w.height()} < {least.width()}x{least.height()}"
            )
    return out


def cut_short(window: MainWindow, shown: list[QWidget] | None = None) -> list[str]:
    """Texts shown elided or cut (a table's header or cell, a panel's row, a catalog's row, a
    text field's value, a drop-down's choice) whose tooltip does not hold them whole."""
    from PySide6.QtWidgets import QListWidget, QStyleOptionComboBox, QTreeWidget

    out = []
    for w in shown_widgets(window) if shown is None else shown:
        if isinstance(w, QTableWidget | QTreeWidget):
            header = w.horizontalHeader() if isinstance(w, QTableWidget) else w.header()
            for c in range(header.count()):
                if header.isSectionHidden(c):
                    continue
                head = w.horizontalHeaderItem(c) if isinstance(w, QTableWidget) else None
                whole = head is not None and head.text() and head.text() in head.toolTip()
                if header.sectionSizeFromContents(c).width() > header.sectionSize(c) and not whole:
                    out.append(f"{w.accessibleName()!r}: header of column {c} cut to {header.sectionSize(c)} pixels")
        if isinstance(w, QTableWidget):
            for r in range(w.rowCount()):
                for c in range(w.columnCount()):
                    item = w.item(r, c)
                    if item is None or not item.text() or w.isColumnHidden(c):
                        continue
                    need = w.fontMetrics().horizontalAdvance(item.text()) + 8
                    room = sum(w.columnWidth(k) for k in range(c, c + w.columnSpan(r, c)))  # a heading spans
                    if need > room and item.text() not in (item.toolTip() or ""):
                        out.append(f"{w.accessibleName()!r}: {item.text()!r} cut, no tooltip")
        if isinstance(w, QTreeWidget) and not w.wordWrap():  # a panel that elides (the budgets), not wraps
            fm = w.fontMetrics()
            items = [w.topLevelItem(i) for i in range(w.topLevelItemCount())]
            items += [i.child(k) for i in list(items) if i.isExpanded() for k in range(i.childCount())]
            for item in items:
                for c in range(w.columnCount()):
                    text = item.text(c)
                    spanned = item.isFirstColumnSpanned() and c == 0
                    rect = w.visualItemRect(item) if spanned else w.visualRect(w.indexFromItem(item, c))
                    if text and fm.horizontalAdvance(text) + 8 > rect.width() and text not in item.toolTip(c):
                        out.append(f"{w.accessibleName()!r}: {text!r} cut, no tooltip")
        if isinstance(w, QListWidget) and not w.wordWrap():  # a list that wraps its rows cuts none
            room = w.viewport().width()
            for i in range(w.count()):
                item = w.item(i)
                cut = w.fontMetrics().horizontalAdvance(item.text()) + 8 > room
                if not item.isHidden() and cut and item.text() not in item.toolTip():
                    out.append(f"{w.accessibleName()!r}: row {item.text()!r} cut, no tooltip")
        if isinstance(w, QLineEdit) and not isinstance(w.parentWidget(), QAbstractSpinBox | QComboBox):
            room = w.contentsRect().width() - 6  # the style's margins inside the frame
            if w.fontMetrics().horizontalAdvance(w.text()) > room and w.text() not in w.toolTip():
                out.append(f"text field {w.accessibleName()!r}: {w.text()!r} cut to {room} pixels, no tooltip")
        if isinstance(w, QComboBox) and not w.isEditable():
            option = QStyleOptionComboBox()
            w.initStyleOption(option)
            field = w.style().subControlRect(
                QStyle.ComplexControl.CC_ComboBox, option, QStyle.SubControl.SC_ComboBoxEditField, w
            )
            cut = w.fontMetrics().horizontalAdvance(w.currentText()) > field.width() + 1
            if cut and w.currentText() not in (w.toolTip() or ""):
                out.append(f"drop-down {w.accessibleName()!r}: {w.currentText()!r} cut, no tooltip")
    return out


def shown_whole(w: QWidget) -> bool:
    """Whether the text a label, text field or drop-down shows fits it, not cut or elided."""
    from PySide6.QtWidgets import QLabel, QStyleOptionComboBox

    fm = w.fontMetrics()
    if isinstance(w, QLabel):
        return fm.horizontalAdvance(w.text()) <= w.contentsRect().width()
    if isinstance(w, QLineEdit):
        return fm.horizontalAdvance(w.text()) <= w.width() - 8  # the frame and the text's margins
    if isinstance(w, QComboBox):
        option = QStyleOptionComboBox()
        w.initStyleOption(option)
        field = w.style().subControlRect(
            QStyle.ComplexControl.CC_ComboBox, option, QStyle.SubControl.SC_ComboBoxEditField, w
        )
        return fm.horizontalAdvance(w.currentText()) <= field.width() + 1
    return True


def shown_text(w: QWidget | None) -> str:
    if isinstance(w, QComboBox):
        return w.currentText()
    text = getattr(w, "text", None)
    return text() if callable(text) and not isinstance(w, QPushButton) else ""


def cut_names(window: MainWindow, shown: list[QWidget] | None = None) -> list[str]:
    """Names of the rows of a list (a chosen weapon, a crew member) cut or elided where the
    row shows them, a tooltip or not: a row's name is what its Remove button says it
    removes, and a cell showing that name shows it whole ("Light Laser" was cut to "Light"
    at 1280x720 beside the preview)."""
    out = []
    for table in shown_widgets(window) if shown is None else shown:
        if not isinstance(table, ListEditor):
            continue
        for r in range(table.rowCount()):
            remove = table.cellWidget(r, table.remove_column)
            name = remove.accessibleName().removeprefix("Remove ") if remove is not None else ""
            for c in range(table.columnCount()):
                w = table.cellWidget(r, c)
                if w is not None and name and shown_text(w) == name and not shown_whole(w):
                    out.append(f"{table.accessibleName()!r}: {name!r} cut to {w.width()} pixels")
    return out


def named_none(window: MainWindow, shown: list[QWidget] | None = None) -> list[str]:
    """Controls of a list's rows (and Remove buttons) whose accessible name, read by a screen
    reader, says "None" ("Text of None" for a stunt without a catalog id), and any control of
    the window named "... of None" (an absent value put in a name)."""
    import re

    out = []
    for w in shown_widgets(window) if shown is None else shown:
        name = w.accessibleName()
        if not re.search(r"\bNone\b", name):  # what both patterns below need: no row to look for
            continue
        in_row = any(isinstance(up, ListEditor) for up in _ancestors(w, window))
        if re.search(r"\bNone\b" if in_row else r"\b(of|Remove) None\b", name):
            out.append(f"{type(w).__name__} {name!r}")
    return out


def overlapping(area: QScrollArea) -> list[str]:
    """Labels and buttons of the page drawn over each other (a figure's text running under
    a catalog's Add button), more than a pixel or two."""
    from PySide6.QtWidgets import QAbstractButton, QLabel

    inner = area.widget()
    shown = [
        w
        for w in inner.findChildren(QWidget)
        if w.isVisible()
        and isinstance(w, QLabel | QAbstractButton)
        and not any(isinstance(p, QAbstractItemView | QComboBox | QAbstractSpinBox) for p in _ancestors(w, inner))
    ]
    rects = [(w, QRect(w.mapTo(inner, w.rect().topLeft()), w.size()).adjusted(2, 2, -2, -2)) for w in shown]
    out = []
    for i, (a, ra) in enumerate(rects):
        for b, rb in rects[i + 1 :]:
            if not ra.intersects(rb) or a.isAncestorOf(b) or b.isAncestorOf(a):
                continue
            out.append(f"{_named(a)!r} over {_named(b)!r}")
    return out


def _named(w: QWidget) -> str:
    return w.accessibleName() or str(getattr(w, "text", str)())


def _ancestors(w: QWidget, top: QWidget) -> list[QWidget]:
    out, up = [], w.parentWidget()
    while up is not None and up is not top:
        out.append(up)
        up = up.parentWidget()
    return out


ALL_SAMPLES = sorted((p.parent.parent.name, p.stem) for p in CATALOGS.glob("*/examples/*.ship"))
MAXIMIZED_1280X720 = (1280, 701)  # a window maximized on a 1280x720 screen under openbox (its title bar: 19 px)
WALK_SIZES = [(1280, 720), MAXIMIZED_1280X720, (1920, 1080)]


def clashes(window: MainWindow, shown: list[QWidget] | None = None) -> list[str]:
    """Alt+letters that two things shown at once answer to: the menu bar's titles, the
    buttons and the labelled controls (a label with a buddy), as Qt reads their texts."""
    from PySide6.QtGui import QKeySequence
    from PySide6.QtWidgets import QAbstractButton, QLabel

    keys: dict[str, list[str]] = {}
    for a in window.menuBar().actions():
        if a.isVisible() and (key := QKeySequence.mnemonic(a.text()).toString()):
            keys.setdefault(key, []).append(f"the {a.text().replace('&', '')} menu")
    for w in shown_widgets(window) if shown is None else shown:
        keyed = isinstance(w, QAbstractButton) or (isinstance(w, QLabel) and w.buddy() is not None)
        if keyed and (key := QKeySequence.mnemonic(w.text()).toString()):  # type: ignore[attr-defined]
            keys.setdefault(key, []).append(repr(w.text()))  # type: ignore[attr-defined]
    return [f"{key}: {' and '.join(names)}" for key, names in sorted(keys.items()) if len(names) > 1]


def unnamed_add_buttons(window: MainWindow, shown: list[QWidget] | None = None) -> list[str]:
    """Visible "Add ..." buttons without an Alt+letter (a person reaching for one by key finds none)."""
    from PySide6.QtGui import QKeySequence

    return [
        b.text()
        for b in (shown_widgets(window) if shown is None else shown)
        if isinstance(b, QPushButton)
        and b.text().replace("&", "").startswith("Add")
        and QKeySequence.mnemonic(b.text()).isEmpty()
    ]


def walk_checks(window: MainWindow, area: QScrollArea, where: str) -> None:
    """Every check of the walk on the window as it is shown now (its shown widgets found once)."""
    shown = shown_widgets(window)
    assert not squeezed(window, shown), f"{where}: {squeezed(window)}"
    assert not overlapping(area), f"{where}: {overlapping(area)}"
    assert not cut_short(window, shown), f"{where}: {cut_short(window)}"
    assert not cut_names(window, shown), f"{where}: names cut: {cut_names(window)}"
    assert not named_none(window, shown), f"{where}: {named_none(window)}"
    assert not clashes(window, shown), f"{where}: Alt+letters clash: {clashes(window)}"
    assert not unnamed_add_buttons(window, shown), (
        f"{where}: Add buttons without an Alt+letter: {unnamed_add_buttons(window)}"
    )


@pytest.mark.parametrize("size", WALK_SIZES, ids=["1280x720", "1280x720-maximized", "1920x1080"])
@pytest.mark.parametrize(("ruleset", "sample"), ALL_SAMPLES, ids=[f"{r}-{s}" for r, s in ALL_SAMPLES])
def test_no_widget_is_squeezed_and_no_text_is_cut_without_a_tooltip(
    qtbot: Any, window: MainWindow, ruleset: str, sample: str, size: tuple[int, int]
) -> None:
    """Every page of every sample of every ruleset (a Future Perfect cruiser's short values
    cut the Summary's "Value" header to "Va"; a round plan's AP column was sized before
    its "2 AP" was written and showed "AP"): no control squeezed below its size hint, no
    text cut without its whole in a tooltip, no two Alt+letters alike, every Add button
    with one (issue 46). Each page is seen as the sample has it, then with every optional
    section it offers ticked by a click (a round plan written: its spin boxes were 9 pixels
    tall at 1280x720)."""
    at_size(qtbot, window, *size)
    view = window.open_file(CATALOGS / ruleset / "examples" / f"{sample}.ship")
    assert view is not None
    view.finish_building()
    settle(qtbot)
    pages = 0
    for title, area in visit(qtbot, view):
        walk_checks(window, area, f"{title} at {size}")
        offered: list[QWidget] = getattr(view.steps, "toggles", [])
        for box in [b for b in offered if area.isAncestorOf(b) and b.isVisible() and b.isEnabled()]:
            if not box.isChecked():
                at = QPoint(8, box.height() // 2)  # on the box itself, as a person clicks it
                QTest.mouseClick(box, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at)
                settle(qtbot)
                assert box.isChecked(), f"{title}: {box.text()!r} was clicked and is not ticked"
                qtbot.wait(50)  # the page fits itself to what the section added
                walk_checks(window, area, f"{title} at {size}, {box.text().replace('&', '')!r} ticked")
        pages += 1
    assert pages == len(shown_pages(view))


# --- Alt+letters given out in one place (issue 46) ------------------------------------------


def test_letters_are_given_out_without_a_clash() -> None:
    from shipyard._qt.view.mnemonics import letter, with_letter

    assert letter("Add &weapon") == "w" and letter("R&&D") == "" and letter("Name") == ""
    assert with_letter("&Helm's allocation", {"h"}) == "Helm's &allocation"  # the next word's initial
    assert with_letter("Add character", set()) == "&Add character"  # a button without one gets one
    assert with_letter("Add character", {"a", "c"}) == "A&dd character"  # then another of its letters
    assert with_letter("Hi", {"h", "i"}) == "Hi"  # none left: no letter rather than a clash


def test_alt_h_opens_help_and_the_helms_allocation_answers_to_its_own_letter(qtbot: Any, window: MainWindow) -> None:
    """Alt+H was the Help menu and "&Helm's allocation" at once: the menu opened and the
    digits typed next were lost. Now the field has a letter of its own, reached by a key."""
    from PySide6.QtGui import QKeySequence
    from PySide6.QtWidgets import QLabel

    at_size(qtbot, window, 1280, 720)
    view = window.open_file(CATALOGS / "future-perfect" / "examples" / "damaged-frigate.ship")
    assert view is not None
    view.finish_building()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    view.tabs.setCurrentIndex(shown_pages(view)[3])
    settle(qtbot)
    qtbot.wait(50)
    label = next(
        w for w in window.findChildren(QLabel) if w.isVisible() and w.text().replace("&", "") == "Helm's allocation"
    )
    key = QKeySequence.mnemonic(label.text()).toString()
    assert key and key != "Alt+H", label.text()
    assert not clashes(window), clashes(window)
    QTest.keyClick(
        QApplication.focusWidget() or window, getattr(Qt.Key, f"Key_{key[-1]}"), Qt.KeyboardModifier.AltModifier
    )
    qtbot.waitUntil(lambda: QApplication.focusWidget() is label.buddy(), timeout=2000)
    QTest.keyClicks(QApplication.focusWidget(), "\b2")  # what was typed next went to the field
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: view.doc.design.plan.helm == 2, timeout=2000)  # type: ignore[union-attr]


def test_no_menu_wraps_into_columns_on_a_720_pixel_screen(window: MainWindow) -> None:
    """File > New from sample listed every ruleset's samples in one menu, which a 720 pixel
    screen wraps into columns: a menu a ruleset now, each one column."""
    from PySide6.QtWidgets import QMenu

    def menus(menu: QMenu) -> Iterator[QMenu]:
        yield menu
        for a in menu.actions():
            if isinstance(a.menu(), QMenu):
                yield from menus(a.menu())  # type: ignore[arg-type]

    tall = [
        f"{m.title().replace('&', '')}: {m.sizeHint().height()} pixels"
        for a in window.menuBar().actions()
        if isinstance(a.menu(), QMenu)
        for m in menus(a.menu())  # type: ignore[arg-type]
        if m.sizeHint().height() > MAXIMIZED_1280X720[1]
    ]
    assert not tall, tall
    samples = next(
        m
        for a in window.menuBar().actions()
        if isinstance(a.menu(), QMenu)
        for m in menus(a.menu())  # type: ignore[arg-type]
        if m.title() == "New from &sample"
    )
    assert len([a for a in samples.actions() if a.menu() is not None]) == len(
        {p.parent.parent.name for p in CATALOGS.glob("*/examples/*.ship")}
    )


def test_the_compare_window_shows_its_title_and_long_names_whole(qtbot: Any, window: MainWindow) -> None:
    """A compare window 900 pixels wide cut its title; its design columns cut long names
    without a tooltip."""
    from PySide6.QtGui import QFont, QFontMetrics, QGuiApplication

    at_size(qtbot, window, 1280, 720)
    long_name = "Imperial Long-Range Heavy Assault Frigate of the Outer Line"
    first = window.open_file(CATALOGS / "space-fighter-alpha" / "examples" / "rebel-frigate.ship")
    second = window.open_file(CATALOGS / "space-fighter-alpha" / "examples" / "rebel-fighter.ship")
    assert first is not None and second is not None
    assert first.doc.edit("name", long_name) is None and second.doc.edit("name", f"{long_name} Escort") is None
    cmp = window.comparing.compare_with(first.doc, second.doc)
    assert cmp is not None
    qtbot.waitExposed(cmp)
    settle(qtbot)
    bold = QFont(QGuiApplication.font())
    bold.setBold(True)
    title = cmp.windowTitle()
    assert cmp.width() >= QFontMetrics(bold).horizontalAdvance(title), (cmp.width(), title)  # a title bar cuts
    # what the title shortened to fit is whole above the table
    assert cmp.heading.text() == f"Compare {long_name} with {long_name} Escort" and cmp.heading.isVisible()  # type: ignore[attr-defined]
    assert not squeezed(cmp), squeezed(cmp)  # type: ignore[arg-type]
    assert not cut_short(cmp), cut_short(cmp)  # type: ignore[arg-type]
    headers = [cmp.table.horizontalHeaderItem(c) for c in (2, 3)]  # type: ignore[attr-defined]
    assert [h.toolTip() for h in headers] == [h.text() for h in headers] == [long_name, f"{long_name} Escort"]


# --- the Roster page (issue 49) ----------------------------------------------------------------


@pytest.mark.parametrize("size", WALK_SIZES, ids=["1280x720", "1280x720-maximized", "1920x1080"])
def test_the_roster_page_fits_with_nothing_cut_or_clashing(
    qtbot: Any, window: MainWindow, campaign: dict[str, Any], size: tuple[int, int]
) -> None:
    """A roster's page at the screen sizes people have: empty (its hint saying how to add a
    member), then with members, long callsigns and notes, a missing member and one over
    the limit; no control squeezed, no text cut without its whole in a tooltip, no two
    Alt+letters alike, the page itself not scrolling at 1280x720."""
    from shipyard._qt.view.rosterpage import RosterPage
    from shipyard.hangar.roster import Roster, load_roster, save_roster

    at_size(qtbot, window, *size)
    empty = campaign["folder"] / "empty.roster"
    save_roster(Roster(name="An empty force", limit=100), empty)
    window.open_file(empty)
    page = window.tabs.currentWidget()
    assert isinstance(page, RosterPage)
    settle(qtbot)
    assert page.hint.isVisible() and "Add design" in page.hint.text()
    walk_checks(window, page, f"the empty roster at {size}")
    roster = load_roster(campaign["roster"])
    long = "Long Callsign of the Outer Rim Patrol Wing"
    members = [
        m.model_copy(update={"callsign": f"{long} {i}", "notes": "A note " * 12}) for i, m in enumerate(roster.members)
    ]
    members.append(members[0].model_copy(update={"file": "gone/elsewhere.ship", "hash": ""}))
    save_roster(roster.model_copy(update={"members": members * 4, "limit": 1}), campaign["roster"])
    window.open_file(campaign["roster"])
    page = window.tabs.currentWidget()
    assert isinstance(page, RosterPage) and page.table.rowCount() == len(members) * 4
    settle(qtbot)
    assert page.findings.count() > 3 and page.verdict.text() == "The roster does not pass"
    walk_checks(window, page, f"a roster with findings at {size}")
    assert not page.verticalScrollBar().isVisible(), "the roster page scrolls: its table should take the height"
