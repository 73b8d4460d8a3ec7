"""A focus frame every focusable control shows (issue 24).

Fusion draws the keyboard focus on text fields, spin boxes and buttons, but not on a
table, a list, a description box, the preview, a check box without a label (a list row's
cell) or a figure's value (read-only text Tab still stops at, for a screen reader): a
person pressing Tab could not see where they were. The frame has the same width focused
or not (a transparent or quiet border otherwise), so showing it moves nothing.
"""

from __future__ import annotations

FOCUS_STYLE = """
QAbstractItemView, QTextBrowser, QPdfView {
    border: 1px solid palette(mid); padding: 1px;
}
QAbstractItemView:focus, QTextBrowser:focus, QPdfView:focus {
    border: 2px solid palette(highlight); padding: 0px;
}
QCheckBox { border: 1px solid transparent; border-radius: 2px; }
QCheckBox:focus { border: 1px solid palette(highlight); }
QLabel:focus { border: 1px solid palette(highlight); border-radius: 2px; }
"""
