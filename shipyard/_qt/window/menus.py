"""The main window's menu bar: File, Edit, View, Settings, and the parts that add their own
(export, preview, import and conversion, Help)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMenu, QWidget

from shipyard._qt.actions import converting, exporting
from shipyard._qt.document.keys import MOVE_KEYS
from shipyard._qt.preview import viewmenu
from shipyard._qt.window import helpmenu
from shipyard._qt.window.welcome import sample_name
from shipyard.core.designfile import sample_files
from shipyard.core.errors import InputError
from shipyard.core.registry import rulesets
from shipyard.render.paper import PAPER_NAMES, PAPERS

if TYPE_CHECKING:
    from shipyard._qt.dialogs.hangarwindow import HangarWindow
    from shipyard._qt.window.host import WindowHost
    from shipyard.core.designfile import LoadedDesign

MOVE_ACTIONS = (  # View's entries between designs and step pages: text, their keys' name in MOVE_KEYS, status tip
    ("&Next design", "next_design", "Show the next open design"),
    ("P&revious design", "previous_design", "Show the previous open design"),
    ("Next s&tep page", "next_step", "Show this design's next step page"),
    ("Previous st&ep page", "previous_step", "Show this design's previous step page"),
)


def add_action(owner: QWidget, menu: QMenu, text: str, slot: Callable[..., Any], shortcut: Any = None) -> QAction:
    """An entry of ``menu`` calling ``slot``, with its shortcut (a key sequence or a standard key)."""
    a = QAction(text, owner)
    if shortcut is not None:
        a.setShortcut(QKeySequence(shortcut))
    a.triggered.connect(slot)
    menu.addAction(a)
    return a


class Menus:
    """The menu bar of the main window, made once when the window is built; its entries call
    the window and its parts (printing, comparing, recent files), the window's undo history's
    Undo and Redo among them (``undo_action``, ``redo_action``)."""

    def __init__(self, window: WindowHost, undo_action: QAction, redo_action: QAction) -> None:
        self.window = window
        self.undo_action = undo_action
        self.redo_action = redo_action
        self.hangar_window: HangarWindow | None = None  # View > Hangar's window, made when first asked for
        self.make_menus()

    def show_hangar(self) -> None:
        """View > Hangar: the window of the hangar's designs, brought up to date (one per editor window)."""
        from shipyard._qt.dialogs.hangarwindow import HangarWindow

        window = self.hangar_window
        if window is None:
            window = self.hangar_window = HangarWindow(
                self.window.open_file,
                self.window.window(),
                add_to_roster=self.window.rosters.add_to_roster,
                output=self.hangar_output,
            )
        window.show()
        window.raise_()
        window.activateWindow()
        window.refresh()
        window.filter.setFocus()

    def hangar_output(self, kind: str, loaded: list[LoadedDesign], what: str) -> threading.Thread | None:
        """The Hangar's selection printed as a fleet book or card sheet (``kind`` "fleet" or
        "cards") or exported to Foundry ("foundry"), through File > Print to PDF's and File >
        Export's own paths: the folder the last such output went to, Replace or Cancel."""
        w = self.window
        if kind == "foundry":
            folder = exporting.ask_folder(w, kind, what, None)
            return exporting.export_loaded(w, folder, loaded, kind) if folder is not None else None
        out = w.printing.ask_pdf_path(f"{'Fleet' if kind == 'fleet' else 'Cards'}.pdf", None)
        if out is None:
            return None
        return w.printing.print_loaded(out, loaded, kind, w.paper)

    def print_any(self) -> None:
        """File > Print to PDF: the roster's print on a roster's tab, else the design's."""
        page = self.window.rosters.current_roster()
        if page is not None:
            self.window.rosters.print_roster_dialog(page)
        else:
            self.window.printing.print_dialog()

    def make_menus(self) -> None:
        w = self.window
        owner = w.window()  # the actions' parent: their shortcuts work wherever the focus is in the window
        bar = w.menuBar()
        m = bar.addMenu("&File")
        nm = m.addMenu("&New")
        ask = add_action(owner, nm, "&Choose ruleset and kind…", w.ask_new, QKeySequence.StandardKey.New)
        ask.setStatusTip("Which game and kind of design to make; the kind made last is chosen first")
        for info in rulesets():
            nm.addSection(info.name)
            for kind in info.kinds:
                a = add_action(owner, nm, kind.menu or kind.name, lambda _=False, k=kind.id, r=info.id: w.new(k, r))
                a.setStatusTip(f"A new {info.name} {kind.name.lower()}: {kind.description}".rstrip(": "))
        sm = m.addMenu("New from &sample")
        for info in rulesets():  # a menu a ruleset: one list of every sample wraps into columns at 720 pixels
            samples = sample_files(info.samples)
            if samples:
                rm = sm.addMenu(info.name)
                for f in samples:
                    add_action(owner, rm, sample_name(f), lambda _=False, p=f: w.open_sample(p))
        roster = add_action(owner, m, "New ros&ter…", w.rosters.new_roster_dialog)
        roster.setStatusTip("A force built from your designs under a points limit (a .roster file)")
        add_action(owner, m, "&Open…", w.open_dialog, QKeySequence.StandardKey.Open)
        w.recent_files.add_menu(m)
        m.addSeparator()
        add_action(owner, m, "&Save", lambda: w.save(), QKeySequence.StandardKey.Save)
        add_action(owner, m, "Save &as…", lambda: w.save(as_new=True), QKeySequence.StandardKey.SaveAs)
        add_action(owner, m, "&Close", lambda: w.close_tab(w.tabs.currentIndex()), QKeySequence.StandardKey.Close)
        m.addSeparator()
        add_action(owner, m, "&Print to PDF…", self.print_any, QKeySequence.StandardKey.Print)
        self.export_menu = exporting.add_menu(w, m)
        m.addSeparator()
        add_action(owner, m, "&Quit", w.close, QKeySequence.StandardKey.Quit)
        e = bar.addMenu("&Edit")
        e.addAction(self.undo_action)
        e.addAction(self.redo_action)
        v = bar.addMenu("&View")
        self.compare_action = add_action(owner, v, "&Compare with…", w.comparing.compare_dialog)
        self.compare_action.setStatusTip("This design beside another open one, a file, or its saved version")
        v.addSeparator()
        for text, name, tip in MOVE_ACTIONS:
            move = self.move_design if name.endswith("design") else self.move_step
            by = 1 if name.startswith("next") else -1
            a = add_action(owner, v, text, lambda _=False, m=move, b=by: m(b))
            a.setShortcuts([QKeySequence(k) for k in MOVE_KEYS[name]])
            a.setStatusTip(tip)
        v.addSeparator()
        self.hangar_action = add_action(owner, v, "&Hangar…", self.show_hangar, "Ctrl+Shift+H")
        self.hangar_action.setStatusTip("Every design in your library folders: filter, sort, open")
        viewmenu.install(w, v)
        s = bar.addMenu("&Settings")
        paper = s.addMenu("&Paper")
        group = QActionGroup(owner)
        for value in PAPERS:
            label = PAPER_NAMES[value]
            a = QAction(label, owner, checkable=True)
            a.setChecked(w.paper == value)
            a.triggered.connect(lambda _=False, v=value: w.settings.setValue("print/paper", v))
            group.addAction(a)
            paper.addAction(a)
        self.preset_menu = s.addMenu("Default &preset")
        self.preset_menu.aboutToShow.connect(self._fill_presets)
        add_action(owner, s, "User &catalog folder…", w.choose_catalog_folder)
        converting.install(w)
        self.help_menu = helpmenu.install(w)

    def move_design(self, by: int) -> None:
        """Show the open design ``by`` tabs on (back when negative, round from the last to the
        first), with the keyboard focus where it last was in that design."""
        count = self.window.tabs.count()
        if count < 2:
            self.window.statusBar().showMessage("Only one design is open" if count else "No design is open", 4000)
            return
        self.window.tabs.setCurrentIndex((self.window.tabs.currentIndex() + by) % count)
        view = self.window.current()
        if view is not None:
            last = view.focusWidget()  # the control last focused in this design, if any
            target = last if last is not None and last.isVisible() else view.tabs.tabBar()
            target.setFocus(Qt.FocusReason.OtherFocusReason)

    def move_step(self, by: int) -> None:
        """Show the design's step page ``by`` pages on (round from the last to the first),
        skipping the pages this design does not show."""
        view = self.window.current()
        if view is None:
            return
        tabs = view.tabs
        shown = [i for i in range(tabs.count()) if tabs.isTabVisible(i) and tabs.isTabEnabled(i)]
        if not shown:
            return
        at = shown.index(tabs.currentIndex()) if tabs.currentIndex() in shown else 0
        tabs.setCurrentIndex(shown[(at + by) % len(shown)])

    def _fill_presets(self) -> None:
        """Each ruleset's presets (house-rule presets from the user's folders too), the default ticked.

        Filled each time the menu opens: start-up need not load catalogs for it, and a
        newly chosen user catalog folder shows its presets at once.
        """
        self.preset_menu.clear()
        for info in rulesets():
            ruleset = info.id
            self.preset_menu.addSection(info.name)
            try:
                catalog = self.window.catalog_for_new(ruleset)
            except InputError as exc:
                a = self.preset_menu.addAction(f"Cannot read the catalog: {str(exc).splitlines()[0]}")
                a.setEnabled(False)
                continue
            group = QActionGroup(self.preset_menu)
            for p in catalog.presets.values():
                a = QAction(p.name, self.preset_menu, checkable=True)
                a.setChecked(catalog.preset is not None and catalog.preset.id == p.id)
                a.triggered.connect(
                    lambda _=False, r=ruleset, v=p.id: self.window.settings.setValue(f"design/preset/{r}", v)
                )
                group.addAction(a)
                self.preset_menu.addAction(a)
