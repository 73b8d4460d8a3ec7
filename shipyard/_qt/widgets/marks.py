"""How a finding's severity is marked wherever the editor shows it: its order, its sign and
its colour on the palette in use.

A leaf: the form's labels (form/base), list rows (form/listeditor), a refused field (document/refused) and
the verdict line all mark findings, and none of them need import another for it.
"""

from __future__ import annotations

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QWidget

SEVERITY_ORDER = {"error": 0, "warning": 1, "advice": 2}
MARK_GLYPH = {"error": "✖", "warning": "⚠", "advice": "ℹ"}
_MARK_COLOUR = {  # (light, dark) palettes
    "error": ("#b71c1c", "#ff7b72"),
    "warning": ("#8a5a00", "#f0b35a"),
    "advice": ("#0d47a1", "#8ab4f8"),
}


def mark_colour(severity: str, widget: QWidget) -> str:
    """The colour a finding of ``severity`` is marked in, readable on ``widget``'s palette."""
    dark = widget.palette().color(QPalette.ColorRole.Window).lightness() < 128
    return _MARK_COLOUR.get(severity, _MARK_COLOUR["advice"])[1 if dark else 0]


__all__ = ["MARK_GLYPH", "SEVERITY_ORDER", "mark_colour"]
