"""Dragging a catalog item from a browser onto the list that takes it.

The two ends are different widgets (:class:`shipyard._qt.dialogs.catalogbrowser.CatalogBrowser`
starts the drag, :class:`shipyard._qt.form.listeditor.ListEditor` takes the drop) and
agree only on what is dragged: the item's id under a MIME type of Shipyard's own, so that
text or files dropped on a list add nothing. Kept here so that neither end imports the other.
"""

from __future__ import annotations

from PySide6.QtCore import QMimeData, Qt
from PySide6.QtGui import QDrag
from PySide6.QtWidgets import QListWidget

MIME = "application/x-shipyard-item"


class ItemDragList(QListWidget):
    """A list of catalog rows (each row's id as its user data) that drags the current
    row's id; a row greyed out (not for this design) is not dragged."""

    def startDrag(self, actions: Qt.DropAction) -> None:
        item = self.currentItem()
        if item is None or not item.flags() & Qt.ItemFlag.ItemIsEnabled:
            return
        mime = QMimeData()
        mime.setData(MIME, str(item.data(Qt.ItemDataRole.UserRole)).encode())
        drag = QDrag(self)
        drag.setMimeData(mime)
        drag.exec(Qt.DropAction.CopyAction)


def carries_item(mime: QMimeData) -> bool:
    """Whether a drag holds a catalog item (what a list accepts)."""
    return mime.hasFormat(MIME)


def dragged_item(mime: QMimeData) -> str:
    """The id of the catalog item a drag holds (see :func:`carries_item`)."""
    return bytes(mime.data(MIME).data()).decode()
