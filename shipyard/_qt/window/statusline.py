"""A status bar whose messages fit: a long one ("Printed /a/long/folder/kestrel.pdf — ...")
is shown elided in the middle to the room there is, and the whole text is its tooltip.

Before, QStatusBar cut a message off at the permanent widgets (the verdict), so the end
of a printed file's path, the part that names it, was never seen.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import QStatusBar, QStyle, QStyleOption, QWidget

GAP = 6  # pixels between the message and the bar's edge or its permanent widgets


class ElidingStatusBar(QStatusBar):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.messageChanged.connect(self._tip)

    def _tip(self, text: str) -> None:
        self.setToolTip(text if text and self.shown_message() != text else "")

    def message_rect(self) -> QRect:
        """Where a message is drawn: left of the permanent widgets that are shown."""
        right = self.width() - GAP
        for w in self.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly):
            if w.isVisible() and w.x() > self.width() // 3:
                right = min(right, w.x() - GAP)
        return QRect(GAP, 0, max(right - GAP, 0), self.height())

    def shown_message(self) -> str:
        """The message as it is drawn: the whole of it, or elided in the middle to fit."""
        text = self.currentMessage()
        return self.fontMetrics().elidedText(text, Qt.TextElideMode.ElideMiddle, self.message_rect().width())

    def resizeEvent(self, event: object) -> None:
        super().resizeEvent(event)  # type: ignore[arg-type]
        self._tip(self.currentMessage())

    def paintEvent(self, event: QPaintEvent) -> None:
        if not self.currentMessage():
            super().paintEvent(event)
            return
        painter = QPainter(self)
        option = QStyleOption()
        option.initFrom(self)
        self.style().drawPrimitive(QStyle.PrimitiveElement.PE_PanelStatusBar, option, painter, self)
        painter.setPen(self.palette().windowText().color())
        painter.drawText(
            self.message_rect(),
            Qt.AlignmentFlag.AlignLeading | Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextSingleLine,
            self.shown_message(),
        )
