"""The Help menu: the guide, getting started, the keyboard shortcuts, the rules reading for
the design's ruleset, About.

The guide is the user's guide (docs/guide/, installed with Shipyard), opened at the page
of the open design's ruleset where the guide has one (``<ruleset id>.md``), else at its
contents; its links lead from page to page inside the window.

The shortcuts are read from the window's own actions (what the menus really bind) and the
keys the editor's fields answer; the rules reading is the Markdown file the ruleset's
manifest names (``reading``), rendered; About lists the versions of Shipyard, Python, Qt,
PySide6, pydantic and every installed ruleset. Each opens as a window of its own, not a
modal dialog: it can stay open beside the design.
"""

from __future__ import annotations

import html
import platform
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QMenuBar, QStatusBar, QVBoxLayout, QWidget

from shipyard._qt.widgets.closing import closable
from shipyard._qt.widgets.placement import clamp
from shipyard.core.reading import user_reading
from shipyard.core.registry import get as ruleset_info
from shipyard.core.registry import rulesets
from shipyard.core.resources import data_path

if TYPE_CHECKING:
    from PySide6.QtWidgets import QTextBrowser


class HelpHost(Protocol):
    """What the Help menu needs of the window (the window imports this module, not the
    other way round): its menus, its status bar, and the ruleset of the design shown."""

    def menuBar(self) -> QMenuBar: ...
    def statusBar(self) -> QStatusBar: ...
    def current_ruleset(self) -> str | None: ...


# The keys the editor's fields and lists answer (document/keys.py, form/lists.py): not menu actions.
FIELD_KEYS = [
    ("Tab / Shift+Tab", "the next / previous control, in reading order: the form, budgets, findings, preview"),
    ("Arrows", "move inside a table or list"),
    ("Alt+1 to Alt+9", "the design's step page of that number (its tab's underlined digit)"),
    ("Down (in a catalog search box)", "into the list of matches"),
    ("Enter (in a catalog search box)", "add the selected match, or the only one"),
    ("Ctrl+Z in a text box", "undo, in the design's one undo history"),
    ("Ctrl+mouse wheel (on the preview)", "zoom the record sheet in or out, 25% to 400%"),
    ("Arrows, Page Up/Down (on the preview)", "scroll the record sheet"),
]


# What every ruleset shares, before the ruleset's own guide (its manifest's ``guide``).
START = """\
# Getting started

1. **Start a design**: File > New, or a sample ship from the start page or File > New
   from sample (a sample opens as a new, untitled copy: Save asks where to keep it).
2. **Fill in the pages** from left to right (Alt and the page's number goes there).
   Every change is checked at once: the budgets or the summary on the right count what
   the rules count, the findings below say what breaks a rule and where.
3. **Mend what is wrong**: click a finding to go to its field, or press its Fix...
   button for the changes that cure it. Edit > Undo takes back any step.
4. **Print**: File > Print to PDF gives the record sheet the preview shows, stat cards
   or a fleet book.
"""


def guide(ruleset: str | None) -> str:
    """Help > Getting started: the steps every design takes, then the guide of the design's
    ruleset (every installed ruleset's when no design is open)."""
    infos = [ruleset_info(ruleset)] if ruleset is not None else rulesets()
    parts = [START] + [f"## {info.name}\n\n{info.manifest.guide}\n" for info in infos if info.manifest.guide]
    return "\n".join(parts)


def show_guide(window: HelpHost) -> QTextBrowser:
    return _window(window, "Getting started", guide(window.current_ruleset()), markdown=True)


def guide_page(ruleset: str | None) -> Path:
    """The user's guide at ``ruleset``'s page (``<ruleset id>.md``, where the guide has one),
    else at its contents: a plug-in's ruleset has its Getting started, not a page here."""
    folder = data_path("docs/guide")
    page = folder / f"{ruleset}.md" if ruleset else None
    return page if page is not None and page.is_file() else folder / "README.md"


def show_user_guide(window: HelpHost) -> QTextBrowser:
    """Help > Guide: the guide's page for the open design's ruleset, its links followed in the window."""
    from PySide6.QtGui import QTextDocument

    page = guide_page(window.current_ruleset())
    view = _window(window, "Guide", "", markdown=True)
    view.setOpenLinks(True)
    view.setSource(QUrl.fromLocalFile(str(page)), QTextDocument.ResourceType.MarkdownResource)
    return view


def install(window: HelpHost) -> QMenu:
    menu = window.menuBar().addMenu("&Help")
    _add(menu, "Gui&de", lambda: show_user_guide(window))
    _add(menu, "&Getting started", lambda: show_guide(window))
    _add(menu, "&Keyboard shortcuts", lambda: show_shortcuts(window))
    reading = _add(menu, "&Rules reading for this design", lambda: show_reading(window))
    menu.aboutToShow.connect(lambda: reading.setEnabled(reading_path(window) is not None))
    _add(menu, "&About Shipyard", lambda: show_about(window))
    return menu


def _add(menu: QMenu, text: str, slot: object) -> QAction:
    action = QAction(text, menu)
    action.triggered.connect(slot)
    menu.addAction(action)
    return action


def _window(window: HelpHost, title: str, body: str, *, markdown: bool = False) -> QTextBrowser:
    """A window reading ``body``, with a Close button; Escape closes it (the text's widget
    is returned, its window is ``view.window()``)."""
    from PySide6.QtWidgets import QTextBrowser  # made on first use, off the start-up path

    frame = QWidget(window if isinstance(window, QWidget) else None, Qt.WindowType.Window)
    frame.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    frame.setWindowTitle(f"{title} — Shipyard")
    lay = QVBoxLayout(frame)
    view = QTextBrowser()
    lay.addWidget(view, 1)
    closable(frame, lay)
    view.setWindowTitle(frame.windowTitle())
    view.setAccessibleName(title)
    view.setOpenExternalLinks(True)
    if markdown:
        view.setMarkdown(body)
    else:
        view.setHtml(body)
    frame.resize(720, 640)
    if isinstance(window, QWidget):
        clamp(frame)
    frame.show()
    return view


# Keys from Qt::Key_Back on are a keyboard's own keys (Redo, Open, Close on some
# keyboards), not letters, digits or function keys a person combines with Ctrl.
_OWN_KEYS_FROM = Qt.Key.Key_Back.value


def keys_text(sequences: list[QKeySequence]) -> str:
    """The keys of an action as a person reads them: "Ctrl+Y, Ctrl+Shift+Z or the Redo key"."""
    typed: list[str] = []
    own: list[str] = []
    for seq in sequences:
        combo = seq[0]  # type: ignore[index]  # PySide6 has the operator, its stubs do not
        alone = combo.keyboardModifiers() == Qt.KeyboardModifier.NoModifier
        text = seq.toString(QKeySequence.SequenceFormat.NativeText)
        if alone and combo.key().value >= _OWN_KEYS_FROM:
            own.append(f"the {text} key")
        elif text not in typed:
            typed.append(text)
    shown = typed + own
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"


def shortcuts(window: HelpHost) -> list[tuple[str, str]]:
    """(keys, what) of every menu action with a shortcut, then the keys fields answer."""
    out: list[tuple[str, str]] = []

    def walk(menu: QMenu, where: str) -> None:
        for a in menu.actions():
            sub = a.menu()
            if isinstance(sub, QMenu):
                walk(sub, f"{where} > {a.text().replace('&', '')}")
            elif a.shortcuts():
                out.append((keys_text(a.shortcuts()), f"{where} > {a.text().replace('&', '').rstrip('…')}"))

    for a in window.menuBar().actions():
        menu = a.menu()
        if isinstance(menu, QMenu):
            walk(menu, a.text().replace("&", ""))
    return out + FIELD_KEYS


def show_shortcuts(window: HelpHost) -> QTextBrowser:
    rows = "".join(
        f"<tr><td><b>{html.escape(k)}</b></td><td>{html.escape(what)}</td></tr>" for k, what in shortcuts(window)
    )
    return _window(window, "Keyboard shortcuts", f"<table cellpadding='4'>{rows}</table>")


def reading_path(window: HelpHost) -> object | None:
    ruleset = window.current_ruleset()
    return None if ruleset is None else ruleset_info(ruleset).reading


def show_reading(window: HelpHost) -> QTextBrowser | None:
    """The current design's ruleset's rules reading, rendered; None without one."""
    ruleset = window.current_ruleset()
    if ruleset is None:
        window.statusBar().showMessage("Open a design to read its rules", 5000)
        return None
    info = ruleset_info(ruleset)
    path = info.reading
    if path is None or not path.is_file():
        window.statusBar().showMessage(f"{info.name} comes with no rules reading", 5000)
        return None
    text = user_reading(path.read_text(encoding="utf-8"))  # the player's part: no catalog files, JSON or commands
    return _window(window, f"Rules reading: {info.name}", text, markdown=True)


def versions() -> list[tuple[str, str]]:
    from importlib.metadata import PackageNotFoundError, version

    import PySide6
    from PySide6.QtCore import qVersion

    from shipyard import __version__

    def of(name: str) -> str:
        try:
            return version(name)
        except PackageNotFoundError:
            return "not installed"

    out = [
        ("Shipyard", __version__),
        ("Python", platform.python_version()),
        ("Qt", qVersion()),
        ("PySide6", PySide6.__version__),
        ("pydantic", of("pydantic")),
    ]
    return out + [(f"ruleset: {info.name}", info.manifest.version) for info in rulesets()]


def show_about(window: HelpHost) -> QTextBrowser:
    rows = "".join(f"<tr><td>{html.escape(n)}</td><td>{html.escape(str(v))}</td></tr>" for n, v in versions())
    body = (
        "<h2>Shipyard</h2><p>A construction kit for tabletop spacecraft: build by the rules, "
        f"compare, fix, print.</p><table cellpadding='3'>{rows}</table>"
    )
    return _window(window, "About Shipyard", body)
