"""The keyboard: one undo history a document, text boxes Tab leaves, a Tab order that reads.

- :func:`share_undo` makes a text field's Ctrl+Z, Ctrl+Shift+Z / Ctrl+Y and its context
  menu's Undo and Redo act on the document's undo stack: a field never undoes its own
  private history while the document stays changed.
- :class:`TextBox` is a multi-line text field that Tab and Shift+Tab leave (Ctrl+Tab is
  the window's, to the next open design, as everywhere else: :data:`MOVE_KEYS`).
- :func:`reading_order` lists the controls Tab should visit under a widget, in the order
  a reader meets them (layouts top to bottom, left to right; a table's cells row by row);
  :func:`chain` makes that the Tab order.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence, QUndoStack
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QAbstractSpinBox,
    QComboBox,
    QLayout,
    QLineEdit,
    QListWidget,
    QMenu,
    QPlainTextEdit,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    QTableWidget,
    QTabWidget,
    QWidget,
)

from shipyard._qt.document.pending import pending_of

REDO_KEYS = ("Ctrl+Shift+Z", "Ctrl+Y")  # text: a QKeySequence may only be made once Qt's application is


def redo_shortcuts() -> list[QKeySequence]:
    """Redo answers the platform's key and both usual ones (Ctrl+Shift+Z, Ctrl+Y), each once."""
    out: list[QKeySequence] = []
    for seq in (*QKeySequence.keyBindings(QKeySequence.StandardKey.Redo), *map(QKeySequence, REDO_KEYS)):
        if not seq.isEmpty() and seq not in out:
            out.append(seq)
    return out


def _pressed(event: QKeyEvent) -> QKeySequence:
    mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
    return QKeySequence(event.keyCombination().key() | mods)


def undo_or_redo(event: QKeyEvent) -> str | None:
    """'undo' or 'redo' when the key pressed is one of theirs, else None."""
    if event.matches(QKeySequence.StandardKey.Undo):
        return "undo"
    pressed = _pressed(event)
    if event.matches(QKeySequence.StandardKey.Redo) or any(pressed == s for s in redo_shortcuts()):
        return "redo"
    return None


class _SharedUndo(QObject):
    """An event filter giving a text field the document's undo and redo."""

    def __init__(self, stack: QUndoStack, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.stack = stack

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress) and isinstance(event, QKeyEvent):
            which = undo_or_redo(event)
            if which is None:
                return False
            event.accept()
            if kind == QEvent.Type.KeyPress:
                pending = pending_of(self.stack)
                if pending is not None:
                    pending.flush()  # what was just typed is the step to undo
                (self.stack.undo if which == "undo" else self.stack.redo)()
            return True
        if kind == QEvent.Type.ContextMenu and isinstance(watched, QWidget):
            menu = _standard_menu(watched)
            if menu is None:
                return False
            self._share_menu(menu)
            menu.exec(event.globalPos())  # type: ignore[attr-defined]
            menu.deleteLater()
            return True
        return False

    def _share_menu(self, menu: QMenu) -> None:
        for action in list(menu.actions()):
            name = action.objectName()
            if name not in ("edit-undo", "edit-redo"):
                continue
            undo = name == "edit-undo"
            shared = QAction(action.text(), menu)
            shared.setShortcut(action.shortcut())
            shared.setEnabled(self.stack.canUndo() if undo else self.stack.canRedo())
            shared.triggered.connect(self.stack.undo if undo else self.stack.redo)
            shared.setObjectName(name)
            menu.insertAction(action, shared)
            menu.removeAction(action)


def _standard_menu(widget: QWidget) -> QMenu | None:
    if isinstance(widget, QLineEdit | QPlainTextEdit):
        return widget.createStandardContextMenu()
    if isinstance(widget, QAbstractSpinBox):
        edit = widget.lineEdit()
        return edit.createStandardContextMenu() if edit is not None else None
    if isinstance(widget, QComboBox) and widget.lineEdit() is not None:
        return widget.lineEdit().createStandardContextMenu()  # type: ignore[union-attr]
    return None


def share_undo(widget: QWidget, stack: QUndoStack) -> QWidget:
    """Make ``widget``'s undo and redo (keys and context menu) the document's ``stack``."""
    found = stack.findChild(_SharedUndo)
    hook = found if isinstance(found, _SharedUndo) else _SharedUndo(stack, stack)
    widget.installEventFilter(hook)
    inner = widget.lineEdit() if isinstance(widget, QAbstractSpinBox | QComboBox) else None
    if inner is not None:
        inner.installEventFilter(hook)
    if isinstance(widget, QPlainTextEdit):
        widget.setUndoRedoEnabled(False)
    return widget


class TextBox(QPlainTextEdit):
    """A multi-line text field: Tab and Shift+Tab move on to the next or previous control."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTabChangesFocus(True)


# --- the Tab order ---------------------------------------------------------------------------


def takes_tab(widget: QWidget) -> bool:
    """Whether Tab may stop at ``widget`` (its policy; not whether it is shown now)."""
    target = widget.focusProxy() or widget
    return bool(target.focusPolicy() & Qt.FocusPolicy.TabFocus)


def _layout_widgets(layout: QLayout) -> list[QWidget]:
    out: list[QWidget] = []
    for i in range(layout.count()):
        item = layout.itemAt(i)
        if item is None:
            continue
        w = item.widget()
        if w is not None:
            out.append(w)
            continue
        inner = item.layout()
        if inner is not None:
            out += _layout_widgets(inner)
    return out


def _children(widget: QWidget) -> list[QWidget]:
    """``widget``'s child widgets in reading order."""
    if isinstance(widget, QTabWidget):
        pages = [widget.widget(i) for i in range(widget.count())]
        return [widget.tabBar(), *(p for p in pages if p is not None)]
    if isinstance(widget, QStackedWidget):
        return [w for i in range(widget.count()) if (w := widget.widget(i)) is not None]
    if isinstance(widget, QSplitter):
        return [w for i in range(widget.count()) if (w := widget.widget(i)) is not None]
    if isinstance(widget, QScrollArea):
        inner = widget.widget()
        return [inner] if inner is not None else []
    if isinstance(widget, QTableWidget):
        return [
            w
            for r in range(widget.rowCount())
            for c in range(widget.columnCount())
            if (w := widget.cellWidget(r, c)) is not None
        ]
    layout = widget.layout()
    return _layout_widgets(layout) if layout is not None else []


def reading_order(root: QWidget) -> list[QWidget]:
    """Every control under ``root`` Tab may stop at, in reading order.

    A table with widgets in its cells is the table, then its cells row by row (a list of
    entries is a small form); a list likewise with the widgets in its rows (a finding's
    Fix...); a table or list without is one stop (arrows move inside it). Hidden and
    disabled controls are included: Qt skips them as they are now, so the order stays
    right when a step's page or a disabled field comes back.
    """
    out: list[QWidget] = []

    def walk(w: QWidget) -> None:
        if isinstance(w, QTableWidget) and any(w.cellWidget(r, 0) is not None for r in range(w.rowCount())):
            if takes_tab(w):
                out.append(w)  # the table first (arrows choose a row), then each row's controls
            for cell in _children(w):
                walk(cell)
            return
        if isinstance(w, QScrollArea):
            for child in _children(w):
                walk(child)
            return
        if isinstance(w, QListWidget):  # the list, then the buttons in its rows (a finding's Fix...)
            if takes_tab(w):
                out.append(w)
            for row in range(w.count()):
                cell = w.itemWidget(w.item(row))
                if cell is not None:
                    walk(cell)
            return
        if isinstance(w, QAbstractScrollArea | QAbstractSpinBox | QLineEdit | QComboBox):
            if takes_tab(w):
                out.append(w)
            return
        if takes_tab(w) and not isinstance(w, QTabWidget | QStackedWidget | QSplitter):
            out.append(w)
        for child in _children(w):
            walk(child)

    walk(root)
    return out


def chain(widgets: Iterable[QWidget]) -> None:
    """Make ``widgets`` follow one another in the Tab order, in the order given."""
    previous: QWidget | None = None
    for w in widgets:
        if previous is not None and previous is not w:
            QWidget.setTabOrder(previous, w)
        previous = w


# The live preview's keys (shipyard._qt.preview.viewmenu makes the actions; the sheet's
# strip and the detached window name them in their tooltips). None is a key the editor
# already answers (File, Edit, moving between designs).
PREVIEW_KEYS = {
    "zoom_in": ("Ctrl++", "Ctrl+="),  # Ctrl+= : the same key without Shift
    "zoom_out": ("Ctrl+-",),
    "fit_width": ("Ctrl+9",),
    "fit_page": ("Ctrl+0",),
    "detach": ("Ctrl+Shift+D",),
}


# Moving between the open designs and between a design's step pages (the window's View
# menu makes the actions, shipyard._qt.window.menus). Between documents, the desktops' and the
# browsers' keys (KDE, GNOME, Firefox): Ctrl+Tab and Ctrl+PgDown, with Shift or PgUp back;
# the step pages, tabs inside a design, take Alt with Page Down / Page Up, which nothing
# else answers (Alt and a page's number still goes straight to it).
MOVE_KEYS = {
    "next_design": ("Ctrl+Tab", "Ctrl+PgDown"),
    "previous_design": ("Ctrl+Shift+Tab", "Ctrl+PgUp"),
    "next_step": ("Alt+PgDown",),
    "previous_step": ("Alt+PgUp",),
}


def preview_key_text(name: str) -> str:
    """The keys of the preview's action ``name`` as a tooltip says them."""
    return " or ".join(PREVIEW_KEYS[name])
