"""A name | value tree in a narrow panel: the two columns share the width and both wrap.

The Summary and the Tracks panels sit beside the step pages in a third of the window.
With the name column stretched and the value column sized to its contents, a long value
("A: accuracy 0, range 4/8/12, attack step -3") squeezed the names to "Free missile
dec..."; with the names sized to their contents, a track's row of boxes ran past the
panel's edge. Here each column gets what its longest text needs when both fit, else the
name column at most half the width and the value column the rest, and a text longer than
its column wraps onto further lines of its row (Qt's tree does not grow a row for wrapped
text by itself: :class:`_Wrap` measures it at the column's width).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtWidgets import (
    QHeaderView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

Index = QModelIndex | QPersistentModelIndex

# A text's width in a font at a resolution, measured once: the panels measure the same few
# texts (their rows, and each word of them) each time they share their width again.
_ADVANCES: dict[tuple[str, int], dict[str, int]] = {}
MAX_ADVANCES = 4000  # texts kept for one font; past it they are measured again from nothing


def _advances(widget: QWidget) -> Callable[[str], int]:
    """The width of a text in ``widget``'s font on its screen (QFontMetrics.horizontalAdvance)."""
    fm = widget.fontMetrics()
    known = _ADVANCES.setdefault((widget.font().key(), widget.logicalDpiX()), {})
    if len(known) > MAX_ADVANCES:
        known.clear()

    def advance(text: str) -> int:
        width = known.get(text)
        if width is None:
            width = known[text] = fm.horizontalAdvance(text)
        return width

    return advance


class _Wrap(QStyledItemDelegate):
    """Rows as tall as their texts wrapped at their columns' widths."""

    def __init__(self, tree: SharedColumns) -> None:
        super().__init__(tree)
        self.tree = tree

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        opt = QStyleOptionViewItem(option)
        width = self.tree.columnWidth(index.column()) - (self.tree.indent(index) if index.column() == 0 else 0)
        opt.rect = QRect(0, 0, max(width, 20), max(opt.rect.height(), 1))
        return super().sizeHint(opt, index)


class SharedColumns(QTreeWidget):
    """A two-column tree whose columns share the width and wrap (see the module)."""

    NAME_SHARE = 0.5  # the most of the width the names take while the values need more than the rest

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setColumnCount(2)
        self.setWordWrap(True)
        self.setUniformRowHeights(False)
        self.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.setItemDelegate(_Wrap(self))
        self.header().setStretchLastSection(False)
        for column in (0, 1):
            self.header().setSectionResizeMode(column, QHeaderView.ResizeMode.Fixed)
        self._expanding = False  # expand_all under way: the width is shared once, after it
        self.itemExpanded.connect(lambda _i: self._opened_or_closed())
        self.itemCollapsed.connect(lambda _i: self._opened_or_closed())

    def _opened_or_closed(self) -> None:
        if not self._expanding:
            self.share_width()

    def expand_all(self) -> None:
        """Open every row and share the width once (``expandAll`` opens them one by one,
        and measuring every row after each cost a start a few milliseconds)."""
        self._expanding = True
        try:
            self.expandAll()
        finally:
            self._expanding = False
        self.share_width()

    def indent(self, index: Index) -> int:
        """How far the tree indents the first column of ``index``'s row (its depth, the branch)."""
        depth = 0
        parent = index.parent()
        while parent.isValid():
            depth += 1
            parent = parent.parent()
        return self.indentation() * (depth + (1 if self.rootIsDecorated() else 0))

    def _rows(self) -> list[tuple[QTreeWidgetItem, int]]:
        """Every row shown (the children of open rows), with its depth."""
        out: list[tuple[QTreeWidgetItem, int]] = []

        def walk(item: QTreeWidgetItem, depth: int) -> None:
            for i in range(item.childCount()):
                child = item.child(i)
                if child is None:
                    continue
                out.append((child, depth))
                if child.isExpanded():
                    walk(child, depth + 1)

        walk(self.invisibleRootItem(), 0)
        return out

    def natural(self) -> tuple[int, int, int, int]:
        """The widths the names and the values need on one line each, and the widths of
        their longest words (less than that, a word would be cut: it cannot wrap); a
        column's header counts as one of its words (a ruleset whose values are all short
        had the Summary's "Value" header cut to "Va")."""
        advance = _advances(self)
        margin = 2 * (self.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, self) + 1) + 2
        decorated = 1 if self.rootIsDecorated() else 0
        names = values = name_word = value_word = 0
        for item, depth in self._rows():
            indent = self.indentation() * (depth + decorated)
            name, value = item.text(0), item.text(1)
            names = max(names, advance(name) + margin + indent)
            values = max(values, advance(value) + margin)
            name_word = max([name_word, *(advance(w) + margin + indent for w in name.split(" "))])
            value_word = max([value_word, *(advance(w) + margin for w in value.split(" "))])
        # a column's header ("Value") is shown whole too: it does not wrap, so it counts as a word
        header = self.header()
        head_name, head_value = (
            header.sectionSizeFromContents(c).width() if not header.isHidden() else 0 for c in (0, 1)
        )
        return max(names, head_name), max(values, head_value), max(name_word, head_name), max(value_word, head_value)

    def share_width(self) -> None:
        """Each column its texts' width when both fit; else the names at most
        ``NAME_SHARE`` of the width (as much as the values leave), the values the rest,
        neither narrower than its longest word while the width allows."""
        width = self.viewport().width()
        if width <= 0:
            return
        names, values, name_word, value_word = self.natural()
        if names + values <= width:
            first = width - values
        else:
            first = min(names, max(int(width * self.NAME_SHARE), width - values))
        first = max(first, min(name_word, width - value_word))
        first = min(first, max(width - value_word, min(name_word, width)))
        if (self.columnWidth(0), self.columnWidth(1)) != (first, width - first):
            self.setColumnWidth(0, first)
            self.setColumnWidth(1, width - first)
        self.scheduleDelayedItemsLayout()  # the rows' heights for the texts wrapped anew

    def resizeEvent(self, event: object) -> None:
        super().resizeEvent(event)  # type: ignore[arg-type]
        self.share_width()
