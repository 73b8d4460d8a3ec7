"""One open design: the steps on the left; budgets, summary, findings and preview on the right.

The step pages are the ones the ruleset's catalog declares (its ``form``, built by
:class:`shipyard._qt.form.pages.FormPages`), or the hand-written pages its manifest names
(:mod:`shipyard._qt.view.steppages`); the view asks of them only what the page contract,
:class:`shipyard._qt.document.pagebase.StepPages`, declares. The editor names no ruleset.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QSettings, Qt, QTimer, Signal
from PySide6.QtWidgets import QLabel, QMainWindow, QPushButton, QSplitter, QTabWidget, QVBoxLayout, QWidget

from shipyard._qt.dialogs.fixsearch import FixSearch
from shipyard._qt.document.binding import Binder
from shipyard._qt.document.document import PRESET_PLACE, TAGS_PLACE, Document
from shipyard._qt.document.keys import chain, reading_order
from shipyard._qt.panels.findingspanel import FindingsPanel
from shipyard._qt.panels.reportpanels import BudgetPanel, RecordPanel, SummaryPanel, causes, pool_of
from shipyard._qt.view.mnemonics import Mnemonics, letter, menu_letters
from shipyard._qt.view.splitsizes import SplitSizes, room_beside, room_for_preview
from shipyard._qt.view.steppages import step_pages
from shipyard._qt.widgets.disknotice import DiskNotice
from shipyard._qt.widgets.scrollpage import ScrollPage

if TYPE_CHECKING:
    from PySide6.QtWidgets import QDialog

    from shipyard._qt.dialogs.fixdialog import FixDialog
    from shipyard._qt.preview.panel import PreviewPanel
    from shipyard.core.findings import Finding


class DocumentView(QWidget):
    made = Signal(object)  # a Document a ruleset's action made, for the window to open in a tab

    def __init__(
        self, doc: Document, report_error: Callable[[str], None], paper: str = "a4", preview: bool = True
    ) -> None:
        super().__init__()
        self._shown = False  # _after_show has run or is queued (event() reads it from the first event on)
        self.doc = doc
        self.notice: DiskNotice | None = None  # made when the design's file first changes on disk
        self.binder = Binder(doc, report_error, self)
        self._panels = False  # the right-hand panels are made (the first page is built before them)
        self.steps = step_pages(doc, self.binder, report_error)
        self.steps.open_design = self.open_design  # what a declared action makes opens in a new tab
        self.steps.parent_widget = self
        self.mnemonics = Mnemonics(self, self._page_widgets, self._reserved_letters)
        self.steps.on_structure = self.mnemonics.soon
        self.tabs = QTabWidget()
        self.tabs.setAccessibleName("Construction steps")
        self._factories: list[Callable[[], QWidget] | None] = []  # a page not built yet: its builder
        for title, factory in self.steps.pages:
            holder = QWidget()
            QVBoxLayout(holder).setContentsMargins(0, 0, 0, 0)
            self.tabs.addTab(holder, title)
            self._factories.append(factory)
        self.tabs.currentChanged.connect(self.ensure_page)
        self.tabs.currentChanged.connect(self.mnemonics.soon)
        self._show_pages()  # a page for other designs (a force's, for a fighter) is never built
        self.budget = BudgetPanel()
        self.budget.focus_requested.connect(self.focus_path)
        self.findings = FindingsPanel()
        self.findings.focus_requested.connect(self.focus_path)
        form = doc.catalog.form
        self._summary_ids: list[str] = list(form.summary) if form is not None else []
        right = QSplitter(Qt.Orientation.Vertical)
        self._right = right
        self.titles: list[QLabel] = []
        self.boxes: dict[str, QWidget] = {}
        self._summary: SummaryPanel | None = None  # built when a report first has something for it
        self._record: RecordPanel | None = None
        self._box("Budgets", self.budget)
        self._box("Findings", self.findings)
        self.fix_button = QPushButton("All &fixes…")
        self.fix_button.setAccessibleName("All fixes: the engine's proposals")
        self.fix_button.setToolTip("Changes of one to three values or entries that cure the errors, with their effects")
        self.fix_button.clicked.connect(self.ask_fix)
        self.boxes["Findings"].layout().addWidget(self.fix_button)  # type: ignore[union-attr]
        self.fixes = FixSearch(doc, self)  # the proposals, found between edits; a Fix... beside what they cure
        self.fixes.ready.connect(self._show_fixes)
        self.findings.fix_requested.connect(self.ask_fix_finding)
        self._curable: set[tuple[str, str]] = set()  # what the last proposals found cure, by (code, path)
        self._panels = True
        self.preview: PreviewPanel | None = None
        self._paper = paper
        # the preview's place among the panels, held by an empty widget until the pane is
        # built after the first paint: the first frame is laid out as every later one
        self._preview_room: QWidget | None = None
        self._preview_placed = False  # its height given (the kept sizes, or room for the sheet)
        self._room_asked = False  # a step page asked for more width (see _give_room)
        if preview:
            self._preview_room = QWidget()
            self._right.addWidget(self._preview_room)
            self._right.setStretchFactor(self._right.count() - 1, 3)
        left = QWidget()
        left_lay = QVBoxLayout(left)
        left_lay.setContentsMargins(0, 0, 0, 0)
        left_lay.setSpacing(0)
        bar = self.steps.action_bar()
        if bar is not None:
            left_lay.addWidget(bar)
        left_lay.addWidget(self.tabs)
        split = QSplitter(Qt.Orientation.Horizontal)
        self.split = split  # the steps | the panels
        self._sizes = SplitSizes()  # where the user's splitter sizes are kept (remember_layout)
        split.addWidget(left)
        split.addWidget(right)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(split)
        self._findings: tuple[set[tuple[str, str]], set[tuple[str, str]]] = (set(), set())  # before, now
        self._findings_of: object = None  # the state they are now of
        doc.changed.connect(self.refresh)
        doc.stepped.connect(self.show_place)
        doc.edited.connect(self.say_what_else)
        self.refresh()
        QTimer.singleShot(30, self, self._unless_painted)  # a view in a hidden tab or window: soon anyway

    def event(self, event: QEvent) -> bool:
        """Once the shown window is laid out, before it first paints, the preview's place
        gets its height; the view's first paint queues :meth:`_after_show`, which builds the
        pane there and starts the first render: the window shows without waiting for the
        preview's machinery (a timer could fire before the first paint)."""
        kind = event.type()
        if kind == QEvent.Type.Show and not self._preview_placed and self._preview_room is not None:
            QTimer.singleShot(0, self, self._place_preview)  # none once the view is gone
        elif kind == QEvent.Type.Paint and not self._shown:
            self._shown = True
            QTimer.singleShot(0, self, self._after_show)
        return super().event(event)

    def _unless_painted(self) -> None:
        """A view that is not on screen (a tab behind another, a window not shown) gets its
        preview soon after it opens, as the visible one does after its first paint: a tab
        switched to later finds its sheet rendered."""
        if not self._shown and not self.isVisible():
            self._shown = True
            self._after_show()

    def _box(self, title: str, widget: QWidget, index: int | None = None) -> None:
        """A titled box of the right-hand panel (its title is the widget's buddy)."""
        box = QWidget()
        lay = QVBoxLayout(box)
        lay.setContentsMargins(4, 4, 4, 4)
        label = QLabel(f"<b>{title}</b>")
        label.setBuddy(widget)
        lay.addWidget(label)
        lay.addWidget(widget)
        if index is None:
            self._right.addWidget(box)
        else:
            self._right.insertWidget(index, box)
        self.titles.append(label)
        self.boxes[title] = box

    @property
    def summary(self) -> SummaryPanel:
        """Figures the form names and what the design counts up (made on first use)."""
        if self._summary is None:
            self._summary = SummaryPanel()
            self._box("Summary", self._summary, 1)
        return self._summary

    @property
    def record(self) -> RecordPanel:
        """The report's tracks, slots and actions (made on first use)."""
        if self._record is None:
            self._record = RecordPanel()
            self._box("Tracks, slots and actions", self._record, 2 if self._summary is not None else 1)
        return self._record

    def _show_part(self, title: str, wanted: bool) -> bool:
        box = self.boxes.get(title)
        if box is not None and box.isHidden() == wanted:
            box.setVisible(wanted)
        return wanted

    def ensure_page(self, index: int) -> None:
        """Build the step page at ``index`` the first time it is needed."""
        self._build_pages([index])

    def _build_pages(self, indexes: list[int], *, tab_order: bool = True) -> None:
        """Build the step pages at ``indexes`` not built yet, then bring the form in step with
        the document once: a refresh updates every built page, so one after each page of
        many updated the first page as many times as there were pages."""
        built = False
        for index in indexes:
            factory = self._factories[index] if 0 <= index < len(self._factories) else None
            if factory is None:
                continue
            self._factories[index] = None
            built = True
            holder = self.tabs.widget(index)
            layout = holder.layout() if holder is not None else None
            if holder is not None and layout is not None:
                layout.addWidget(factory())
                for page in holder.findChildren(ScrollPage):
                    page.wider.connect(self._room_soon)  # measured once the layouts settled
        if not built:
            return
        self.binder.refresh(self._data())
        self.steps.refresh()
        if self._panels:
            self._mark()
            if tab_order:
                self.make_tab_order()  # the new page's fields take their place in Tab's order
        self.mnemonics.soon()

    def _show_pages(self) -> None:
        """Show the pages that are for this design (a page's ``when``), hide the others."""
        self.tabs.blockSignals(True)  # hiding the current tab makes another current: build none on the way
        try:
            for i, shown in enumerate(self.steps.visible_pages()):
                if self.tabs.isTabVisible(i) != shown:
                    self.tabs.setTabVisible(i, shown)
        finally:
            self.tabs.blockSignals(False)
        self.ensure_page(self.tabs.currentIndex())

    def _after_show(self) -> None:
        """Once the window is up: the preview's first sheet rendering at once, and Tab's
        order, the Alt+letters. The other step pages are built when first shown (their tab chosen, a finding
        or an undo going to them): a start builds what is visible."""
        self._build_preview()
        self.make_tab_order()
        self.mnemonics.start()

    def _room_soon(self) -> None:
        if not self._room_asked:
            self._room_asked = True
            QTimer.singleShot(0, self, self._give_room)

    def _give_room(self) -> None:
        """The step page shown needs more width than it has (a list with its names whole):
        the panels beside give it, down to their least, unless the person has placed the
        splitter (then the page scrolls sideways, nothing is cut)."""
        self._room_asked = False
        holder = self.tabs.currentWidget()
        page = holder.findChild(ScrollPage) if holder is not None else None
        short = page.shortfall() if page is not None and page.isVisible() else 0
        if short <= 0 or self._sizes.kept("sides"):
            return
        steps, panels = self.split.sizes()
        least = self._right.minimumSizeHint().width()
        give = min(short, panels - least)
        if give > 0:
            self.split.setSizes([steps + give, panels - give])

    def _place_preview(self) -> None:
        """The preview's place gets the height kept for it, else room to show the sheet."""
        if self._preview_placed:
            return
        self._preview_placed = True
        if not self._sizes.kept("sides"):
            room_beside(self.split)  # the preview a third of the width: a page read at fit width
        if not self._sizes.restore(self._right, "panels"):
            room_for_preview(self._right)
        self._sizes.restore(self._right, "panels")

    def _build_preview(self) -> None:
        """The preview's pane, in the place held for it, its first sheet rendering at once."""
        room = self._preview_room
        if room is None or self.preview is not None:
            return
        from shipyard._qt.preview.panel import PreviewPanel  # QtPdf loads here, after the window shows

        self.preview = PreviewPanel(self.doc, self._paper)
        if self._sizes.settings is not None:
            self.preview.remember(self._sizes.settings)  # the zoom the user chose last
        at = self._right.indexOf(room)
        self._right.replaceWidget(at, self.preview)  # the pane takes the place's size
        self._right.setStretchFactor(at, 3)
        room.deleteLater()
        self._preview_room = None
        self._place_preview()  # a view never shown yet (a tab behind another)
        self.preview.start_now()

    def unbuilt_pages(self) -> list[int]:
        """The shown step pages not built yet."""
        return [i for i, f in enumerate(self._factories) if f is not None and self.tabs.isTabVisible(i)]

    def finish_building(self) -> None:
        """Everything at once: every shown step page and the preview (what a script or a
        test that looks at all of the view asks for; the editor builds on first use)."""
        self._build_pages(self.unbuilt_pages(), tab_order=False)  # made below, with the preview's place
        self._build_preview()
        self.make_tab_order()
        self.mnemonics.start()

    def _focus_built(self, path: str) -> bool:
        """Focus the place ``path`` names, on whichever page holds it: a finding or an undo
        about a page not built yet builds the pages first (a field's nearest bound place
        could otherwise be a coarser one on a page that is built)."""
        self._build_pages(self.unbuilt_pages())
        return self.binder.focus(path)

    def remember_layout(self, settings: QSettings, key: str) -> None:
        """Keep the sizes the user gives the splitters (steps | panels, and the panels
        among themselves) in ``settings`` under ``key`` (one layout a ruleset: its pages
        and panels differ), and give them back to the next view of that key."""
        if self.preview is not None:
            self.preview.remember(settings)
        self._sizes.remember(settings, key, {"sides": self.split, "panels": self._right})

    def disk_notice(self) -> DiskNotice:
        """The bar above the steps that says the design's file changed on disk while this tab
        has unsaved edits (:mod:`shipyard._qt.window.diskchanges` shows it), made on first use."""
        if self.notice is None:
            self.notice = DiskNotice(self)
            layout = self.layout()
            assert isinstance(layout, QVBoxLayout)
            layout.insertWidget(0, self.notice)
        return self.notice

    def release(self) -> None:
        """The design's tab is closing: its preview stops rendering and a detached one closes."""
        if self.preview is not None:
            self.preview.shut()

    def make_tab_order(self) -> None:
        """Tab and Shift+Tab in reading order: the form's actions, the step tabs, the step's
        page, then budgets, summary, record, findings and the preview."""
        chain(reading_order(self))
        self.steps.chain_dirty = False

    def _data(self) -> object:
        """The design as JSON, made once for every widget of a refresh."""
        return self.steps.binder_data()

    def refresh(self) -> None:
        report = self.doc.report
        self.binder.refresh(self._data())
        self.steps.refresh()
        self._show_pages()
        if self._show_part("Budgets", bool(report.pools)):
            self.budget.show_report(report)
        if bool(self._summary_ids) or any(f.parts for f in report.derived.figures):
            self.summary.show_report(report, self._summary_ids)
            self._show_part("Summary", True)
        else:
            self._show_part("Summary", False)
        if RecordPanel.has_parts(report):
            self.record.show_report(report)
            self._show_part("Tracks, slots and actions", True)
        else:
            self._show_part("Tracks, slots and actions", False)
        self.findings.show_report(report, self.doc.place)
        if self._findings_of is not self.doc.state:  # once a state: what the last edit found new
            self._findings_of = self.doc.state
            self._findings = (self._findings[1], {(f.code, f.path) for f in report.findings})
        self._mark()
        self.fix_button.setEnabled(any(f.severity.value == "error" for f in report.findings))
        self._show_fixes()
        if self.steps.chain_dirty or getattr(self.steps, "catalog_changed", False):
            self.mnemonics.soon()  # controls came or went, or their texts follow another catalog
        if self.steps.chain_dirty:
            self.make_tab_order()

    def say_what_else(self, path: str) -> None:
        """An edit of one field of a list's entry that makes another field of it wrong (a
        crew member's new role, and the skill the old one rolled) says so in the status
        bar, with where to change it: the value was kept, and the mark beside it is easy
        to miss. Undo puts the edit back whole."""
        entry, _, rest = path.rpartition("]")
        if not entry or not rest.startswith("."):
            return
        entry += "]"
        before, _now = self._findings
        new = [
            f
            for f in self.doc.report.findings
            if f.path.startswith(entry + ".") and f.path != path and (f.code, f.path) not in before
        ]
        bar = getattr(self.window(), "statusBar", None)
        if not new or bar is None:
            return
        f = new[0]
        where = self.doc.place(f.path)
        bar().showMessage(f"Check {where}: {f.message}. Change it there, or Undo takes the edit back", 15000)

    def _page_widgets(self) -> list[QWidget]:
        return [w for i in range(self.tabs.count()) if (w := self.tabs.widget(i)) is not None]

    def _reserved_letters(self) -> set[str]:
        """The Alt+ keys the window has whatever page is shown: its menu bar's, the step tabs'."""
        window = self.window()
        bar = window.menuBar() if isinstance(window, QMainWindow) else None
        return menu_letters(bar) | {letter(self.tabs.tabText(i)) for i in range(self.tabs.count())} - {""}

    def _mark(self) -> None:
        """Mark the fields and rows the findings are about (pages built later are marked too)."""
        self.steps.mark(self.doc.report.findings)

    def focus_path(self, path: str) -> bool:
        """Focus the place ``path`` names. A finding about a pool (over budget, unspent)
        opens the pool's line items with what spent its points selected, and focuses the
        place of the largest: the cause, not the Storyteller's budget setting."""
        pool = pool_of(path, self.doc.report)
        if pool is not None:
            spent = causes(pool, self.doc.report) if pool.remaining < 0 else []
            self.budget.show_pool(pool.id, spent[:3])  # the lines the finding names
            if spent and self._focus_built(spent[0][0].path):
                return True
            self.budget.setFocus()
            return True
        return self._focus_built(path)

    def _show_fixes(self) -> None:
        """A Fix... beside each finding a proposal cures. While the search for the design
        as it is now runs, the findings the last proposals cured keep theirs (no flicker
        as the user types); a click finishes the search first."""
        self.fixes.restart()
        if self.fixes.proposals is not None:
            self._curable = {k for p in self.fixes.proposals for k in p.cured}
            self.fix_button.setEnabled(bool(self.fixes.proposals))

            def cures(f: Finding) -> int:
                return len(self.fixes.curing(f))
        else:

            def cures(f: Finding) -> int:
                return int((f.code, f.path) in self._curable)

        self.findings.show_fixes(cures)

    def fix_dialog(self, finding: Finding | None = None) -> FixDialog:
        """The Fix... dialog (built, not shown): the engine's proposals for this design, or
        only those that cure ``finding``."""
        from shipyard._qt.dialogs.fixdialog import FixDialog

        proposals = self.fixes.now()
        if finding is not None:
            proposals = [p for p in proposals if p.cures_finding(finding)]
        return FixDialog(self.doc, self, proposals=proposals, finding=finding)

    def ask_fix(self) -> None:
        self.run_dialog(self.fix_dialog())

    def ask_fix_finding(self, finding: Finding) -> None:
        """A finding's Fix...: the proposals that cure it."""
        self.run_dialog(self.fix_dialog(finding))

    def run_dialog(self, dialog: QDialog) -> None:
        dialog.exec()

    def show_place(self, path: str) -> None:
        """An undo or redo changed the design at ``path``: show it, on whichever step it is."""
        if path == PRESET_PLACE:
            presets = self.steps.presets
            if presets:
                from shipyard._qt.document.binding import _reveal

                _reveal(presets[0][0])
                presets[0][0].setFocus()
            return
        if path == TAGS_PLACE:
            field = getattr(self.steps, "tags_field", None)
            if field is not None:
                from shipyard._qt.document.binding import _reveal

                _reveal(field.line)
                field.line.setFocus()
            return
        if path:
            self._focus_built(path)

    def open_design(self, design: object) -> None:
        """Open ``design`` (what a ruleset's action made) as a new, untitled document: the
        window that shows this view opens what :attr:`made` carries."""
        from shipyard.core.designfile import LoadedDesign

        self.made.emit(Document(LoadedDesign(None, self.doc.loaded.ruleset, self.doc.preset, design, self.doc.catalog)))
