"""Where windows open: inside the screen's available area, never past its edges.

A first window of a fixed size (1400x900) was larger than a 1280x720 screen (its close
button and status bar off the screen) and a small part of a 1920x1080 one (its live
preview a thumbnail). A first main window takes most of the screen it opens on
(:func:`fill_first`); a geometry remembered on a larger screen, or on a monitor no longer
there, is made to fit the screen it opens on (:func:`clamp`); a detached preview opens
:func:`beside` the main window.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize
from PySide6.QtGui import QGuiApplication, QScreen
from PySide6.QtWidgets import QWidget

MARGIN = 0.04  # of the screen kept free around a first window: the desktop stays in sight


def screen_of(window: QWidget) -> QScreen:
    """The screen the window's centre is on (the primary one when it is on none)."""
    found = QGuiApplication.screenAt(window.geometry().center())
    return found or window.screen() or QGuiApplication.primaryScreen()


def available(window: QWidget) -> QRect:
    return screen_of(window).availableGeometry()


def fill_first(window: QWidget) -> None:
    """A first main window: the screen's available area but a margin, at its top left, the
    margin left right and below for the frame the window manager adds (a window manager
    may still place it as it likes; :func:`clamp` once shown keeps its frame in)."""
    room = available(window)
    width = max(int(room.width() * (1 - MARGIN)), 1)
    height = max(int(room.height() * (1 - MARGIN)), 1)
    window.resize(width, height)
    window.move(room.topLeft())


def _frame(window: QWidget) -> QSize:
    """What the window manager's frame adds to the window's size (nothing before it is shown)."""
    frame = window.frameGeometry()
    return QSize(max(frame.width() - window.width(), 0), max(frame.height() - window.height(), 0))


def clamp(window: QWidget) -> None:
    """A window restored to a remembered geometry: made to fit the screen it opens on and
    moved inside it (a window remembered on a larger or an absent monitor), its frame too."""
    room = available(window)
    if window.isMaximized() or window.isFullScreen():
        return
    extra = _frame(window)
    width = min(window.width(), room.width() - extra.width())
    height = min(window.height(), room.height() - extra.height())
    if (width, height) != (window.width(), window.height()):
        window.resize(width, height)
    frame = window.frameGeometry()
    x = min(max(frame.x(), room.left()), room.right() + 1 - frame.width())
    y = min(max(frame.y(), room.top()), room.bottom() + 1 - frame.height())
    if (x, y) != (frame.x(), frame.y()):
        window.move(x, y)


def beside(window: QWidget, main: QWidget, wanted: QSize) -> None:
    """A window of ``wanted`` size opened next to ``main``, inside the screen: right of it
    where there is room (or nearly: a sheet shown at fit width may be somewhat narrower),
    else left of it, else over the main window's right-hand side (the panels, not the form)."""
    room = available(main)
    height = min(wanted.height(), room.height())
    frame = main.frameGeometry()
    right = room.right() - frame.right()
    left = frame.left() - room.left()
    least = int(wanted.width() * 0.6)
    if right >= least:
        width, x = min(wanted.width(), right), frame.right() + 1
    elif left >= least:
        width = min(wanted.width(), left)
        x = frame.left() - width
    else:
        width = min(wanted.width(), room.width())
        x = room.right() + 1 - width
    y = min(max(frame.top(), room.top()), room.bottom() + 1 - height)
    window.resize(width, height)
    window.move(x, y)
