"""Alt+letter keys, given out in one place so that no two on screen at once are the same.

The menu bar's letters are reserved first (Alt+F opens File whatever page is shown); then
the window's own controls outside the step pages (the panels' buttons) get letters the
menu bar does not use; then each step page's labels and buttons get letters neither uses
nor another control of the same page does. A control keeps the letter its author marked
(``&Name``) when it is free, else takes the first free letter of its words' initials,
else of its other letters, else has none: no key is better than a key that opens a menu
or another field while the person meant this one. Every button gets a letter it can
have, marked or not ("Add character"). Controls inside a list's rows (a Remove button on
each row) get none: they repeat down the list.

The pages' controls come and go (a selected entry's details, an optional section), and
their texts change (a label marked by a finding): :class:`Mnemonics` gives the letters out
again, once, after each change of the design or of the page shown.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QComboBox,
    QLabel,
    QMenuBar,
    QTabBar,
    QWidget,
)

from shipyard._qt.form.base import MarkedLabel

_DECLARED = "mnemonic_declared"  # the text as its author wrote it (with their letter)
_GIVEN = "mnemonic_given"  # the text as it was given out here


def letter(text: str) -> str:
    """The Alt+ key of a text ("Add &weapon" -> "w", "R&&D" -> ""), lower case."""
    i = 0
    while i < len(text) - 1:
        if text[i] == "&":
            if text[i + 1] != "&":
                return text[i + 1].lower()
            i += 1
        i += 1
    return ""


def _plain(text: str) -> str:
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&&")


def _candidates(text: str) -> list[int]:
    """Where in the plain ``text`` a letter could be marked: the author's first, then the
    initials of words, then the other letters (a letter a-z only, each once)."""
    plain = _plain(text)
    marked = letter(text)
    order: list[int] = []
    if marked:
        order.extend(i for i, c in enumerate(plain) if c.lower() == marked)
    order.extend(
        i
        for i, c in enumerate(plain)
        if c.isascii() and c.isalpha() and (i == 0 or plain[i - 1].isspace() or plain[i - 1] in "-/(")
    )
    order.extend(i for i, c in enumerate(plain) if c.isascii() and c.isalpha())
    out, seen = [], set()
    for i in order:
        if plain[i].lower() not in seen:
            seen.add(plain[i].lower())
            out.append(i)
    return out


def with_letter(text: str, taken: set[str]) -> str:
    """``text`` with the first free letter of its candidates marked, or none marked."""
    plain = _plain(text)
    for i in _candidates(text):
        if plain[i].lower() not in taken:
            return plain[:i] + "&" + plain[i:]
    return plain


def _text(w: QWidget) -> str:
    if isinstance(w, MarkedLabel):
        return w.base
    if isinstance(w, QLabel | QAbstractButton):
        return w.text()
    return ""


def _set_text(w: QWidget, text: str) -> None:
    if isinstance(w, MarkedLabel):
        w.set_base(text)
    elif isinstance(w, QLabel | QAbstractButton):
        w.setText(text)


_ROWS = (QAbstractItemView, QComboBox, QAbstractSpinBox)  # what holds a list's rows, a drop-down's or spin box's parts


def _in_rows(w: QWidget, top: QWidget) -> bool:
    """Whether ``w`` is inside a list, a drop-down or a spin box (a row's control)."""
    up = w.parentWidget()
    while up is not None and up is not top:
        if isinstance(up, _ROWS):
            return True
        up = up.parentWidget()
    return False


def keyed(w: QWidget) -> bool:
    """Whether ``w`` is a control an Alt+letter reaches: a button, or a label with a buddy."""
    if isinstance(w, QAbstractButton):
        return True
    return isinstance(w, QLabel) and w.buddy() is not None


def controls(top: QWidget, skip: Callable[[QWidget], bool] = lambda _w: False) -> tuple[list[QWidget], list[QWidget]]:
    """The buttons and labelled controls under ``top`` an Alt+letter may reach, in the order
    made, and those in a list's rows (which get none)."""
    found = [w for w in top.findChildren(QWidget) if keyed(w) and not skip(w)]
    sorted_: tuple[list[QWidget], list[QWidget]] = ([], [])
    for w in found:
        sorted_[1 if _in_rows(w, top) else 0].append(w)  # each widget's parents walked once
    return sorted_


def _declared(w: QWidget) -> str:
    """The text the author gave ``w``: what it shows, unless it shows what was given here."""
    now = _text(w)
    if now != w.property(_GIVEN):
        w.setProperty(_DECLARED, now)  # new text (or the first time): the author's letter counts again
    declared = w.property(_DECLARED)
    return declared if isinstance(declared, str) else now


def give(widgets: Iterable[QWidget], taken: set[str]) -> set[str]:
    """Give each of ``widgets`` a letter not in ``taken`` nor another's: those keeping their
    author's letter first, in order, then the rest. The letters now used, ``taken`` too."""
    taken = set(taken)
    widgets = list(widgets)
    texts = {id(w): _declared(w) for w in widgets}
    later = []
    for w in widgets:
        want = letter(texts[id(w)])
        if want and want not in taken:
            taken.add(want)
            _show(w, texts[id(w)])
        else:
            later.append(w)
    for w in later:
        text = texts[id(w)]
        if not isinstance(w, QAbstractButton) and not letter(text):
            _show(w, text)  # a label its author gave no letter keeps none
            continue
        given = with_letter(text, taken)
        if letter(given):
            taken.add(letter(given))
        _show(w, given)
    return taken


def _show(w: QWidget, text: str) -> None:
    w.setProperty(_GIVEN, text)
    if _text(w) != text:
        _set_text(w, text)


def menu_letters(bar: QMenuBar | None) -> set[str]:
    return {letter(a.text()) for a in bar.actions() if a.isVisible()} - {""} if bar is not None else set()


class Mnemonics(QObject):
    """Gives the letters of one document view: reserved ``chrome`` first (the menu bar's,
    asked each time), then the view's controls outside the pages, then each page's."""

    def __init__(self, view: QWidget, pages: Callable[[], list[QWidget]], reserved: Callable[[], set[str]]) -> None:
        super().__init__(view)
        self.view, self.pages, self.reserved = view, pages, reserved
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.give_now)

        self._started = False

    def start(self) -> None:
        """The window is up (its first paint is not held back by this): give the letters now,
        and again after each change from here on."""
        self._started = True
        self.give_now()

    def soon(self) -> None:
        """Give the letters again once the current change is done (many changes, one pass)."""
        if self._started:
            self._timer.start()

    def give_now(self) -> None:
        pages = self.pages()
        outside, rows, on_pages = self._sorted(pages)
        chrome = give(outside, self.reserved())
        for keyed_here, rows_here in on_pages:
            give(keyed_here, chrome)
            rows += rows_here
        for w in rows:
            _show(w, _plain(_declared(w)))
        from shipyard._qt.widgets.whatnext import EmptyHint  # here: whatnext's hints name the letters given out

        for hint in self.view.findChildren(EmptyHint):  # "press Add weapon (Alt+A)" names the letter it has now
            hint.follow()

    def _sorted(
        self, pages: list[QWidget]
    ) -> tuple[list[QWidget], list[QWidget], list[tuple[list[QWidget], list[QWidget]]]]:
        """The view's keyed controls in the order made, sorted in one walk of its widgets:
        those outside the pages and the tab bars, those in a list's rows there, and each
        page's (:func:`controls` of the page). A widget comes after its parent in the walk,
        so where it is and whether it is in a list's rows follow from its parent's."""
        page_at = {id(p): i for i, p in enumerate(pages)}
        outside, in_bar = -1, -2
        at: dict[int, tuple[int, bool]] = {id(self.view): (outside, False)}  # by widget: (page or place, in rows)
        out: tuple[list[QWidget], list[QWidget]] = ([], [])
        on_pages: list[tuple[list[QWidget], list[QWidget]]] = [([], []) for _ in pages]
        widgets = self.view.findChildren(QWidget)  # kept: the ids below are of these wrappers
        for w in widgets:
            up = w.parentWidget()
            if id(up) in page_at:
                where, in_rows = page_at[id(up)], False  # a page's rows are counted from the page
            else:
                where, in_rows = at[id(up)]
                if where == outside and isinstance(up, QTabBar):
                    where = in_bar
                in_rows = in_rows or isinstance(up, _ROWS)
            at[id(w)] = (where, in_rows)
            if where == in_bar or not keyed(w):
                continue
            (out if where == outside else on_pages[where])[1 if in_rows else 0].append(w)
        for i, page in enumerate(pages):
            if id(page) not in at:  # a page that is not the view's (none is): found on its own
                on_pages[i] = controls(page)
        return out[0], out[1], on_pages
