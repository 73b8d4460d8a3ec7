"""Every open tab follows its file: what another program wrote is shown, unless the person has edits there.

A design or roster open in a tab may be written by another program (``shipyard set
--in-place``, ``shipyard roster limit``, a text editor, ``git checkout``). A tab that went
on showing the file as it was would print, export and compare what the file no longer
holds, and File > Open of the file would only show that stale tab. So the window follows
every tab's file, by one rule:

- **No unsaved edits in the tab**: the file is read again as opening reads it (the window's
  ``load`` for a design, ``load_roster`` for a roster), in the same tab, on the same step
  page; its undo stack is emptied, as a file just opened has none, so no undo brings back
  what the other program changed; the status bar says "scout.ship changed on disk;
  reloaded". A file that cannot be read now is said in the tab's bar, never raised.
- **Unsaved edits** (text being typed counts: it is committed first): nothing is read over
  them. The tab's bar (:class:`~shipyard._qt.widgets.disknotice.DiskNotice`) says the file
  changed, with *Reload (lose my edits)* and *Keep mine*; nothing is lost until the person
  chooses, and after Keep mine, Save still asks before it replaces the other program's change.
- **The file is gone** (removed, renamed): the tab keeps what it shows and says so; Save
  writes the file again.

When: a moment after one watch on every tab's file sees a change
(:class:`~shipyard._qt.widgets.filewatch.FileWatch`), when a tab is shown, when File > Open
names a file open in a tab, and on a roster's Check again (those two ask again after Keep
mine). The editor's own writes are no news: Save remembers what it wrote
(:meth:`~shipyard._qt.document.ondisk.FileOnDisk.read_as`), and autosave writes elsewhere.

:class:`DiskChanges` is a part the window holds (``window.disk``), asking of the window only
what :class:`DiskHost` says.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeGuard

from shipyard._qt.document.document import Document
from shipyard._qt.document.ondisk import file_content
from shipyard._qt.view.documentview import DocumentView
from shipyard._qt.view.pagekinds import is_roster_page
from shipyard._qt.widgets.disknotice import DiskNotice
from shipyard._qt.widgets.filewatch import FileWatch
from shipyard._qt.window import autosave
from shipyard.core.errors import InputError

if TYPE_CHECKING:
    from PySide6.QtWidgets import QStatusBar, QTabWidget, QWidget

    from shipyard._qt.view.rosterpage import RosterPage
    from shipyard.core.designfile import LoadedDesign

    Tab = DocumentView | RosterPage

TRACKED = "shipyard_disk_followed"  # a tab's (or its bar's) property: its signals are connected here
SAID = "shipyard_disk_said"  # a tab's property: what the status bar last said of its file


def followed(w: Any) -> TypeGuard[Tab]:
    """Whether ``w`` is a tab that follows its file: a design's or a roster's (not one
    showing why it cannot be opened: it holds nothing to keep)."""
    return isinstance(w, DocumentView) or is_roster_page(w)


class DiskHost(Protocol):
    """What following the tabs' files asks of the window: its tabs, the status bar, opening a
    design as File > Open reads it, and a tab of its own for a design (and closing one)."""

    tabs: QTabWidget

    def window(self) -> QWidget: ...
    def statusBar(self) -> QStatusBar: ...
    def load(self, path: Path) -> LoadedDesign: ...
    def add_document(self, doc: Document) -> DocumentView | None: ...
    def close_tab(self, index: int) -> bool: ...


class DiskChanges:
    """The tabs' files followed, by the rule in the module's docstring."""

    def __init__(self, host: DiskHost) -> None:
        self.host = host
        self.watch = FileWatch(host.window())
        self.watch.settled.connect(self._settled)

    def tabs(self) -> list[Tab]:
        tabs = self.host.tabs
        return [w for i in range(tabs.count()) if followed(w := tabs.widget(i))]

    def rewatch(self) -> None:
        """Watch the file of every tab (and no other): a tab opened, closed or saved under a new name."""
        self.watch.watch(p for t in self.tabs() if (p := t.doc.path) is not None)

    def follow(self, tab: Tab, *, asked: bool = False) -> str:
        """Bring ``tab`` up to date with its file by the rule; what was done: ``same``,
        ``kept`` (the person kept their edits over it), ``gone``, ``changed`` (the bar
        asks), ``reloaded`` or ``unreadable``. ``asked``: the person asked for the file
        (File > Open, Check again), so a change they kept their edits over is asked about again."""
        self._track(tab)
        doc = tab.doc
        news = doc.disk_news(asked=asked)
        if news in ("same", "kept"):
            self._hide(tab)
            return news
        assert doc.path is not None  # a document without a file has no news
        name = doc.path.name
        if news == "gone":
            self._notice(tab).show_gone(name)
            self._say_once(tab, f"{name} is no longer on disk: the tab keeps it, and Save writes it again")
            return news
        doc.flush()  # the text being typed is an edit too: it is not read over
        if doc.modified:
            self._notice(tab).show_changed(name)
            self._say_once(tab, f"{name} changed on disk; not reloaded: this tab has unsaved edits")
            return "changed"
        return self.reload(tab)

    def reload(self, tab: Tab) -> str:
        """The file read again into ``tab`` as opening reads it, its edits (if any) dropped:
        ``reloaded``, or ``unreadable`` (said in the tab's bar, the tab as it was)."""
        doc = tab.doc
        path = doc.path
        assert path is not None
        content = file_content(path)  # before it is read: a write in between is news again
        if content is None:  # gone since the bar asked: there is nothing to read
            return self.follow(tab)
        try:
            if isinstance(tab, DocumentView):
                loaded = self.host.load(path)
                if loaded.ruleset != tab.doc.loaded.ruleset:
                    return self._reopen(tab, loaded, content)
                tab.doc.reload(loaded, content)
            else:
                from shipyard.hangar.roster import load_roster  # as RosterDocument.open reads it

                tab.doc.reload(load_roster(path), content)
        except InputError as exc:
            self._notice(tab).show_unreadable(path.name, str(exc))
            self._say_once(tab, f"{path.name} changed on disk but cannot be read: the tab keeps what it shows")
            return "unreadable"
        autosave.discard(doc)  # no unsaved work is left to offer back
        self._hide(tab)
        self._say(f"{path.name} changed on disk; reloaded")
        return "reloaded"

    def keep(self, tab: Tab) -> None:
        """Keep mine (or Hide): what the tab shows stays, the file too, and the bar goes."""
        doc = tab.doc
        doc.keep_mine()
        self._hide(tab)
        if doc.path is not None and file_content(doc.path) is not None:
            kept = "Your edits are kept" if doc.modified else "The tab keeps what it shows"
            self._say(f"{kept}: Save asks before it replaces {doc.path.name}")

    # --- the watch and each tab's signals ------------------------------------------------------

    def _settled(self, changed: set[str]) -> None:
        """A watched file or folder changed, and the change settled: the tabs whose file (or
        its folder) it was follow it; a file put in its place by a save is watched anew."""
        for tab in self.tabs():
            path = tab.doc.path
            if path is not None and {str(path), str(path.parent)} & changed:
                self.follow(tab)
        self.rewatch()

    def _track(self, tab: Tab) -> None:
        """Connect ``tab``'s document once: a save (under its name or a new one) is followed too."""
        if tab.property(TRACKED):
            return
        tab.setProperty(TRACKED, True)
        tab.doc.file_changed.connect(lambda t=tab: self._saved(t))
        self.rewatch()

    def _saved(self, tab: Tab) -> None:
        if any(t is tab for t in self.tabs()):
            self.rewatch()
            self.follow(tab)  # its file holds what it shows now: the bar goes

    def _notice(self, tab: Tab) -> DiskNotice:
        notice = tab.disk_notice()
        if not notice.property(TRACKED):
            notice.setProperty(TRACKED, True)
            notice.reload.connect(lambda t=tab: self.reload(t))
            notice.keep.connect(lambda t=tab: self.keep(t))
        tab.mnemonics.soon()  # its buttons get Alt+letters no other control there has
        return notice

    def _hide(self, tab: Tab) -> None:
        tab.setProperty(SAID, "")
        if tab.notice is not None and not tab.notice.isHidden():
            tab.notice.hide()

    def _say_once(self, tab: Tab, text: str) -> None:
        """Said in the status bar once, not again at every look at the same news."""
        if tab.property(SAID) != text:
            tab.setProperty(SAID, text)
            self._say(text)

    def _say(self, text: str) -> None:
        self.host.statusBar().showMessage(text, 10000)

    def _reopen(self, tab: DocumentView, loaded: LoadedDesign, content: bytes | None) -> str:
        """The file is now a design of another ruleset, whose pages differ: it opens in a new
        tab in this one's place (the design's edits, if any, dropped as the person chose)."""
        tabs = self.host.tabs
        at, shown = tabs.indexOf(tab), tabs.currentWidget()
        doc = Document(loaded, tab.doc.path)
        doc.read_as(content)
        tab.doc.undo_stack.clear()  # nothing left to ask about as it closes
        autosave.discard(tab.doc)
        self.host.add_document(doc)  # its tab, or its error's, at the end, shown
        new = tabs.widget(tabs.count() - 1)
        self.host.close_tab(tabs.indexOf(tab))
        if new is not None:
            tabs.tabBar().moveTab(tabs.indexOf(new), at)
            tabs.setCurrentWidget(new if shown is tab or shown is None else shown)
        self._say(f"{Path(doc.path or '').name} changed on disk; reloaded")
        return "reloaded"


__all__ = ["DiskChanges", "DiskHost", "followed"]
