"""Every extra window closes the same ways: Escape, and a Close button.

The Compare and Keyboard shortcuts windows had neither (with no window manager, as in a
kiosk or a bare X session, they could not be closed at all). Dialogs (QDialog) close on
Escape by themselves; windows that are plain widgets get both here.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QBoxLayout, QPushButton, QWidget


def closable(window: QWidget, layout: QBoxLayout) -> QPushButton:
    """Escape closes ``window``; a Close button at the end of ``layout`` too (returned)."""
    from PySide6.QtWidgets import QDialogButtonBox  # made on first use, off the start-up path

    escape = QShortcut(QKeySequence(Qt.Key.Key_Escape), window)
    escape.setContext(Qt.ShortcutContext.WindowShortcut)
    escape.activated.connect(window.close)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    buttons.rejected.connect(window.close)
    layout.addWidget(buttons)
    close = buttons.button(QDialogButtonBox.StandardButton.Close)
    close.setAccessibleName(f"Close {window.windowTitle() or 'the window'}".replace(" — Shipyard", ""))
    return close
