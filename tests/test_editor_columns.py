"""The name | value panels measure each text's width once per font (shipyard/_qt/widgets/columns.py):
the widths they share out are those Qt measures, in the font the panel has now."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtGui import QFont
from PySide6.QtWidgets import QTreeWidgetItem

from shipyard._qt.widgets.columns import SharedColumns


def measured_anew(panel: SharedColumns) -> tuple[int, int]:
    """The widths of the longest name and value, each measured by Qt now (no kept width)."""
    fm = panel.fontMetrics()
    items = [panel.topLevelItem(i) for i in range(panel.topLevelItemCount())]
    return (
        max(fm.horizontalAdvance(item.text(0)) for item in items if item is not None),
        max(fm.horizontalAdvance(item.text(1)) for item in items if item is not None),
    )


def test_the_widths_shared_out_follow_the_panel_s_font(qapp: Any) -> None:
    panel = SharedColumns()
    panel.setHeaderHidden(True)
    panel.setRootIsDecorated(False)  # no indent: a name's width is its text's and the margin
    for name, value in [("Structure", "12"), ("Free missile decoys", "A: accuracy 0, range 4/8/12")]:
        QTreeWidgetItem(panel, [name, value])
    first = panel.natural()
    name, value = measured_anew(panel)
    margin = first[0] - name
    assert margin > 0 and first[1] - value == margin
    assert panel.natural() == first  # measured again: the same
    font = QFont(panel.font())
    font.setPointSize(font.pointSize() * 2)
    panel.setFont(font)  # a larger font: every width measured in it, none kept from the old one
    bigger = panel.natural()
    name, value = measured_anew(panel)
    assert (bigger[0], bigger[1]) == (name + margin, value + margin)
    assert bigger[0] > first[0] and bigger[1] > first[1]
