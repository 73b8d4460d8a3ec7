"""A table of text that fits the width it is given: columns wrap, or rows stack.

``shipyard compare`` of six designs was 293 characters wide whatever the terminal. Here
a table that is too wide first wraps its cells within narrower columns; when even that
leaves a column too narrow to read, each row is stacked: its label on a line, then one
line a column, ``name: value``. ``width=None`` is the table as wide as it needs (asked
for with ``--width 0``). Pure: the caller says the width (see
:func:`shipyard.core.commandline.output_width`).
"""

from __future__ import annotations

import textwrap

GAP = "  "
MIN_COLUMN = 12  # narrower than this, a column of figures and words no longer reads
MAX_LABEL = 70


def fit(head: list[str], body: list[list[str]], width: int | None, *, fixed: int = 1) -> list[str]:
    """``head`` and ``body`` as lines no longer than ``width``.

    The first ``fixed`` columns (a marker) are never wrapped; the next one is the label,
    the rest are values. Stacked rows keep the marker and name each value by its head.
    """
    natural = [max([1, len(h), *(len(r[i]) for r in body)]) for i, h in enumerate(head)]
    natural[fixed] = min(natural[fixed], MAX_LABEL)
    if width is None or _total(natural) <= width:
        return _lines(head, body, natural)
    widths = _shrunk(natural, width, fixed)
    if widths is None:
        return _stacked(head, body, width, fixed)
    return _lines(head, body, widths)


def _total(widths: list[int]) -> int:
    return sum(widths) + len(GAP) * (len(widths) - 1)


def _shrunk(natural: list[int], width: int, fixed: int) -> list[int] | None:
    """Column widths within ``width``: the widest columns give up room first; None if one gets too narrow."""
    widths = list(natural)
    floor = [natural[i] if i < fixed else min(natural[i], MIN_COLUMN) for i in range(len(natural))]
    while _total(widths) > width:
        i = max(range(fixed, len(widths)), key=lambda k: widths[k] - floor[k])
        if widths[i] <= floor[i]:
            return None
        widths[i] -= 1
    return widths


def _wrap(text: str, width: int) -> list[str]:
    return textwrap.wrap(text, width, break_long_words=True, break_on_hyphens=False) or [""]


def _lines(head: list[str], body: list[list[str]], widths: list[int]) -> list[str]:
    out = _row(head, widths)
    out.append(GAP.join("-" * w for w in widths))
    for row in body:
        out += _row(row, widths)
    return out


def _row(cells: list[str], widths: list[int]) -> list[str]:
    wrapped = [_wrap(c, w) for c, w in zip(cells, widths, strict=True)]
    height = max(len(w) for w in wrapped)
    return [
        GAP.join((w[n] if n < len(w) else "").ljust(width) for w, width in zip(wrapped, widths, strict=True)).rstrip()
        for n in range(height)
    ]


def _stacked(head: list[str], body: list[list[str]], width: int, fixed: int) -> list[str]:
    """Each row as a block: marker and label, then ``name: value`` a line, indented."""
    out: list[str] = []
    indent = "    "
    for row in body:
        marker = " ".join(c for c in row[:fixed] if c)
        first = f"{marker or ' '} {row[fixed]}"
        out += _wrap(first, width)
        for name, value in zip(head[fixed + 1 :], row[fixed + 1 :], strict=True):
            out += textwrap.wrap(
                f"{name}: {value}",
                width,
                initial_indent=indent,
                subsequent_indent=indent * 2,
                break_long_words=True,
                break_on_hyphens=False,
            ) or [indent]
    return out
