"""The sizes of a design view's splitters: kept as the user gives them, given back, and room made for the preview.

A view has two splitters, steps | panels ("sides") and the panels among themselves
("panels"). The sizes the user drags them to are kept in the settings under one layout a
ruleset (its pages and panels differ) and given to the next view of that ruleset; a view
with none kept gives the preview, added below the panels, room to show its sheet.
"""

from __future__ import annotations

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QSplitter, QWidget


class SplitSizes:
    """Where a view's splitter sizes are kept (:meth:`remember`), and the moves on them."""

    def __init__(self) -> None:
        self.settings: QSettings | None = None
        self.key = ""  # the layout's name in the settings: the ruleset's

    def remember(self, settings: QSettings, key: str, splitters: dict[str, QSplitter]) -> None:
        """Keep each splitter's sizes in ``settings`` under ``key`` when the user moves it, and
        give it the sizes kept there now."""
        self.settings, self.key = settings, key
        for part, splitter in splitters.items():
            self.restore(splitter, part)
            splitter.splitterMoved.connect(lambda _pos, _i, sp=splitter, name=part: self.keep(sp, name))

    def keep(self, splitter: QSplitter, part: str) -> None:
        if self.settings is not None:
            self.settings.setValue(f"layout/{self.key}/{part}", [str(n) for n in splitter.sizes()])

    def kept(self, part: str) -> bool:
        """Whether the user's sizes for ``part`` are kept (moved in this or an earlier session)."""
        return self.settings is not None and self.settings.value(f"layout/{self.key}/{part}") is not None

    def restore(self, splitter: QSplitter, part: str) -> bool:
        """The sizes kept for ``part``, when the splitter has as many parts as then (the
        panels grow as a design's report and the preview need them); whether there were such."""
        if self.settings is None:
            return False
        value = self.settings.value(f"layout/{self.key}/{part}")
        try:
            sizes = [int(n) for n in value] if isinstance(value, list) else []
        except (TypeError, ValueError):
            sizes = []
        if len(sizes) == splitter.count() and sum(sizes) > 0:
            splitter.setSizes(sizes)
            return True
        return False


PREVIEW_SHARE = 3  # a first layout gives the panels, and the preview among them, a third of the width or more


def room_beside(sides: QSplitter) -> None:
    """A first layout of steps | panels: the panels (the preview's width) get a third of the
    view's width and a little more, where the steps' page can spare it; the steps' own
    size hint gave them three quarters of a wide window and the preview a thumbnail."""
    sizes = sides.sizes()
    total = sum(sizes)
    if len(sizes) != 2 or total <= 0:
        return
    steps = sides.widget(0)
    least = steps.minimumSizeHint().width() if steps is not None else 0
    right = max(sizes[1], min(total // PREVIEW_SHARE + 2 * sides.handleWidth() + 16, total - least))
    if right != sizes[1]:
        sides.setSizes([total - right, right])


def room_for_preview(panels: QSplitter) -> None:
    """A preview added last to the shown panels: the panels above get the heights that show
    their content (a summary's every row) while that leaves the preview a third of the
    height or more; else the preview gets a third and the panels share the rest in the
    proportions of what they hold (a splitter gives a newcomer next to nothing)."""
    sizes = panels.sizes()
    total, above = sum(sizes), sum(sizes[:-1])
    if total <= 0 or above <= 0:
        return
    wanted = [wanted_height(panels.widget(i)) if sizes[i] > 0 else 0 for i in range(len(sizes) - 1)]
    if sum(wanted) <= total * 2 // 3:
        panels.setSizes([*wanted, total - sum(wanted)])
        return
    if sum(wanted) > 0:  # the preview a third, the panels the rest in the proportions of their content
        room = total - total // 3
        panels.setSizes([n * room // sum(wanted) for n in wanted] + [total // 3])
        return
    if sizes[-1] >= total // 2:
        return
    half = total // 2
    panels.setSizes([n * (total - half) // above for n in sizes[:-1]] + [half])


def wanted_height(box: QWidget | None) -> int:
    """The height a right-hand box needs to show its content: its title and, for a list or
    tree, every row (not the few rows of its size hint)."""
    if box is None or box.isHidden():
        return 0
    from PySide6.QtWidgets import QAbstractItemView

    need = box.sizeHint().height()
    for view in box.findChildren(QAbstractItemView):
        rows = view.model().rowCount() if view.model() is not None else 0
        if rows:
            per = max(view.sizeHintForRow(0), view.fontMetrics().height())
            header = getattr(view, "header", None) or getattr(view, "horizontalHeader", None)
            top = header().height() if header is not None and header().isVisible() else 0
            need = max(need, need - view.sizeHint().height() + rows * per + top + 2 * view.frameWidth())
    return need


__all__ = ["SplitSizes", "room_beside", "room_for_preview", "wanted_height"]
