"""The preview's actions in the View menu: zoom in and out, fit width, fit page, own window.

In the menu bar, so their keys work wherever the focus is in the window and Help >
Keyboard shortcuts lists them (it reads the menus); added to a detached preview's window
too, so the keys work there as well. Each acts on the preview of the active window: a
detached preview's own, else the current design's.

The keys are shipyard._qt.document.keys.PREVIEW_KEYS. Imports no QtPdf (the window makes these at
start-up, the preview loads after it shows), and neither the preview nor the main window:
what it needs of them is said by the protocols below, so nothing here imports back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication, QMenu, QStatusBar, QTabWidget, QWidget

from shipyard._qt.document.keys import PREVIEW_KEYS
from shipyard._qt.preview.detached import HeldPreview, PreviewWindow


class _DesignView(Protocol):
    @property
    def preview(self) -> HeldPreview | None: ...


class ActionsHost(Protocol):
    """What the actions ask of the main window."""

    tabs: QTabWidget

    def current(self) -> _DesignView | None: ...

    def statusBar(self) -> QStatusBar: ...


class PreviewActions(QObject):
    """The actions, and how they find the preview they act on."""

    def __init__(self, window: ActionsHost, menu: QMenu) -> None:
        super().__init__(menu)  # the menu lives as long as its window
        self.setObjectName("preview_actions")
        self.window = window
        menu.addSeparator()
        self.zoom_in = self._action(menu, "Zoom &in on the preview", "zoom_in", lambda p: p.view.zoom_by(1))
        self.zoom_out = self._action(menu, "Zoom &out of the preview", "zoom_out", lambda p: p.view.zoom_by(-1))
        self.fit_width = self._action(menu, "Preview: fit &width", "fit_width", lambda p: p.view.fit_width())
        self.fit_page = self._action(menu, "Preview: fit &page", "fit_page", lambda p: p.view.fit_page())
        self.detach = self._action(menu, "Preview in its own &window", "detach", lambda p: p.toggle_detached())
        self.detach.setCheckable(True)
        menu.aboutToShow.connect(self.update)
        window.tabs.currentChanged.connect(lambda _i: self.update())
        self.update()

    def _action(self, menu: QMenu, text: str, name: str, act: Callable[[HeldPreview], object]) -> QAction:
        a = QAction(text, menu)
        a.setShortcuts([QKeySequence(k) for k in PREVIEW_KEYS[name]])
        a.setStatusTip(text.replace("&", ""))
        a.triggered.connect(lambda _checked=False: self._run(act))
        menu.addAction(a)
        return a

    def actions(self) -> list[QAction]:
        return [self.zoom_in, self.zoom_out, self.fit_width, self.fit_page, self.detach]

    def target(self) -> HeldPreview | None:
        """The preview of the active window: a detached preview's, else the current design's."""
        active = QApplication.activeWindow()
        if isinstance(active, PreviewWindow):
            return active.panel
        view = self.window.current()
        return view.preview if view is not None else None

    def _run(self, act: Callable[[HeldPreview], object]) -> None:
        panel = self.target()
        if panel is None:
            self.window.statusBar().showMessage("No preview to act on: open a design (with the preview on)", 5000)
        else:
            act(panel)
        self.update()

    def update(self) -> None:
        """Enabled when there is a design (its preview may still be on its way); ticked when detached."""
        panel = self.target()
        on = self.window.current() is not None and bool(getattr(self.window, "preview_enabled", True))
        for a in self.actions():
            a.setEnabled(on or panel is not None)
        self.detach.setChecked(panel is not None and panel.detached)


def install(window: ActionsHost, menu: QMenu) -> PreviewActions:
    return PreviewActions(window, menu)


def actions_near(widget: QWidget) -> list[QAction]:
    """The preview actions of ``widget``'s main window (none outside one: a preview on its own)."""
    found = widget.window().findChild(PreviewActions, "preview_actions")
    return found.actions() if isinstance(found, PreviewActions) else []
