"""The main window's menu bar: File, Edit, View, Settings, and the parts that add their own
(export, preview, import and conversion, Help)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMenu, QWidget

from shipyard._qt.actions import converting, exporting
from shipyard._qt.preview import viewmenu
from shipyard._qt.window import helpmenu
from shipyard._qt.window.host import EditorWindow
from shipyard._qt.window.keys import MOVE_KEYS, redo_shortcuts
from shipyard._qt.window.welcome import sample_name
from shipyard.core.designfile import sample_files
from shipyard.core.errors import InputError
from shipyard.core.registry import rulesets
from shipyard.render.paper import PAPER_NAMES, PAPERS

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


class Menus(EditorWindow):
    """The menus of the main window (:meth:`make_menus`, once, when it is built)."""

    def show_hangar(self) -> None:
        """View > Hangar: the window of the hangar's designs, brought up to date (one per editor window)."""
        from shipyard._qt.dialogs.hangarwindow import HangarWindow

        window = getattr(self, "hangar_window", None)
        if window is None:
            window = self.hangar_window = HangarWindow(self.open_file, self)
        window.show()
        window.raise_()
        window.activateWindow()
        window.refresh()
        window.filter.setFocus()

    def make_menus(self) -> None:
        bar = self.menuBar()
        m = bar.addMenu("&File")
        nm = m.addMenu("&New")
        ask = add_action(self, nm, "&Choose ruleset and kind…", self.ask_new, QKeySequence.StandardKey.New)
        ask.setStatusTip("Which game and kind of design to make; the kind made last is chosen first")
        for info in rulesets():
            nm.addSection(info.name)
            for kind in info.kinds:
                a = add_action(self, nm, kind.menu or kind.name, lambda _=False, k=kind.id, r=info.id: self.new(k, r))
                a.setStatusTip(f"A new {info.name} {kind.name.lower()}: {kind.description}".rstrip(": "))
        sm = m.addMenu("New from &sample")
        for info in rulesets():  # a menu a ruleset: one list of every sample wraps into columns at 720 pixels
            samples = sample_files(info.samples)
            if samples:
                rm = sm.addMenu(info.name)
                for f in samples:
                    add_action(self, rm, sample_name(f), lambda _=False, p=f: self.open_sample(p))
        add_action(self, m, "&Open…", self.open_dialog, QKeySequence.StandardKey.Open)
        self.add_recent_menu(m)
        m.addSeparator()
        add_action(self, m, "&Save", lambda: self.save(), QKeySequence.StandardKey.Save)
        add_action(self, m, "Save &as…", lambda: self.save(as_new=True), QKeySequence.StandardKey.SaveAs)
        add_action(self, m, "&Close", lambda: self.close_tab(self.tabs.currentIndex()), QKeySequence.StandardKey.Close)
        m.addSeparator()
        add_action(self, m, "&Print to PDF…", self.print_dialog, QKeySequence.StandardKey.Print)
        self.export_menu = exporting.add_menu(self, m)
        m.addSeparator()
        add_action(self, m, "&Quit", self.close, QKeySequence.StandardKey.Quit)
        e = bar.addMenu("&Edit")
        self.undo_action = self.undo_group.createUndoAction(self, "&Undo")
        self.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self.redo_action = self.undo_group.createRedoAction(self, "&Redo")
        self.redo_action.setShortcuts(redo_shortcuts())  # the platform's, Ctrl+Shift+Z and Ctrl+Y
        e.addAction(self.undo_action)
        e.addAction(self.redo_action)
        v = bar.addMenu("&View")
        self.compare_action = add_action(self, v, "&Compare with…", self.compare_dialog)
        self.compare_action.setStatusTip("This design beside another open one, a file, or its saved version")
        v.addSeparator()
        for text, name, tip in MOVE_ACTIONS:
            move = self.move_design if name.endswith("design") else self.move_step
            by = 1 if name.startswith("next") else -1
            a = add_action(self, v, text, lambda _=False, m=move, b=by: m(b))
            a.setShortcuts([QKeySequence(k) for k in MOVE_KEYS[name]])
            a.setStatusTip(tip)
        v.addSeparator()
        self.hangar_action = add_action(self, v, "&Hangar…", self.show_hangar, "Ctrl+Shift+H")
        self.hangar_action.setStatusTip("Every design in your library folders: filter, sort, open")
        viewmenu.install(self, v)
        s = bar.addMenu("&Settings")
        paper = s.addMenu("&Paper")
        group = QActionGroup(self)
        for value in PAPERS:
            label = PAPER_NAMES[value]
            a = QAction(label, self, checkable=True)
            a.setChecked(self.paper == value)
            a.triggered.connect(lambda _=False, v=value: self.settings.setValue("print/paper", v))
            group.addAction(a)
            paper.addAction(a)
        self.preset_menu = s.addMenu("Default &preset")
        self.preset_menu.aboutToShow.connect(self._fill_presets)
        add_action(self, s, "User &catalog folder…", self.choose_catalog_folder)
        converting.install(self)
        self.help_menu = helpmenu.install(self)

    def move_design(self, by: int) -> None:
        """Show the open design ``by`` tabs on (back when negative, round from the last to the
        first), with the keyboard focus where it last was in that design."""
        count = self.tabs.count()
        if count < 2:
            self.statusBar().showMessage("Only one design is open" if count else "No design is open", 4000)
            return
        self.tabs.setCurrentIndex((self.tabs.currentIndex() + by) % count)
        view = self.current()
        if view is not None:
            last = view.focusWidget()  # the control last focused in this design, if any
            target = last if last is not None and last.isVisible() else view.tabs.tabBar()
            target.setFocus(Qt.FocusReason.OtherFocusReason)

    def move_step(self, by: int) -> None:
        """Show the design's step page ``by`` pages on (round from the last to the first),
        skipping the pages this design does not show."""
        view = self.current()
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
                catalog = self.catalog_for_new(ruleset)
            except InputError as exc:
                a = self.preset_menu.addAction(f"Cannot read the catalog: {str(exc).splitlines()[0]}")
                a.setEnabled(False)
                continue
            group = QActionGroup(self.preset_menu)
            for p in catalog.presets.values():
                a = QAction(p.name, self.preset_menu, checkable=True)
                a.setChecked(catalog.preset is not None and catalog.preset.id == p.id)
                a.triggered.connect(lambda _=False, r=ruleset, v=p.id: self.settings.setValue(f"design/preset/{r}", v))
                group.addAction(a)
                self.preset_menu.addAction(a)
