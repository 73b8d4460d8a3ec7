"""The status bar's verdict: the current design passes or not, its pools' totals, its
preset, in words and colour (the colour only adds), from the engine's report."""

from __future__ import annotations

import html

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QLabel

from shipyard._qt.document.document import Document
from shipyard._qt.widgets.marks import mark_colour


def show_verdict(label: QLabel, doc: Document | None) -> None:
    """Show ``doc``'s verdict on ``label`` (nothing without a design)."""
    if doc is None:
        label.setText("")
        label.setToolTip("")
        return
    text, tone, tip = verdict_text(doc)
    dark = label.palette().color(QPalette.ColorRole.Window).lightness() < 128
    colour = mark_colour("error", label) if tone == "error" else ("#81c784" if dark else "#2e7d32")
    shown = html.escape(text)
    label.setText(f'<span style="color:{colour}"><b>{shown}</b></span>' if tone else shown)
    label.setToolTip(tip)


def verdict_text(doc: Document) -> tuple[str, str, str]:
    """(the verdict line, its tone "error" | "pass" | "", its tooltip): "2 errors · Weapon Points 0 left ·
    Freebie Points OVER by 12 · Preset: Sample ships" — in words, the colour only adds."""
    report = doc.report
    counts = {s: sum(1 for f in report.findings if f.severity.value == s) for s in ("error", "warning")}
    if counts["error"]:
        head = f"{counts['error']} error{'s' if counts['error'] != 1 else ''}: does not pass"
    else:
        head = "Passes" + (
            f" ({counts['warning']} warning{'s' if counts['warning'] != 1 else ''})" if counts["warning"] else ""
        )
    pools = [
        f"{p.name} {p.remaining} left" if p.remaining >= 0 else f"{p.name} OVER by {-p.remaining}" for p in report.pools
    ]
    preset = doc.catalog.presets.get(doc.preset)
    parts = [head, *pools] + ([f"Preset: {preset.name}"] if preset is not None else [])
    tone = "error" if counts["error"] else ("pass" if not counts["warning"] else "")
    return " · ".join(parts), tone, "\n".join(parts)
