"""Stat cards that say more than a card holds continue on the next card.

A card is 63 x 88 mm whatever its design says: a ship of 24 systems, a carrier of 14
stunts. A card's template marks where it may be cut (``part()`` of
templates/common/_cards.html, docs/templates.md "Cards that continue"), and ``card_pages``
draws each part in a block with an id, an empty block after a card's last part and an id
on its footer. Once the sheet is laid out, :class:`CardFit` reads where those stand (the
pages' anchors) and, where a part runs into its card's footer, gives the template the
parts each further card starts at (``card_splits``: by card, in the order the template
drew them); the sheet is drawn and laid out again with them, "NAME (1/2)", "NAME (2/2)",
until every part is above its footer. A card nothing runs over costs nothing more than
reading the anchors.

Imported by the render worker; no WeasyPrint here: the anchors are plain data.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

PREFIX = "shipyard-card-"
_ANCHOR = re.compile(r"^shipyard-card-(\d+)-([pef])(\d+)$")
# Room kept between a card's last part and its footer, in CSS pixels (0.25 mm).
GAP = 0.25 * 96 / 25.4
# Layouts of one sheet at most: the first, and one a further card was needed for (a card
# parts moved to is measured again: a name with " (1/2)" may take another line).
LAYOUTS = 5

Splits = dict[int, list[int]]


def _top(anchor: Sequence[float]) -> float:
    return float(anchor[1])  # (x, y) or (x1, y1, x2, y2) by WeasyPrint's version


def _placed(pages: Sequence[Mapping[str, Any]]) -> dict[int, dict[str, dict[int, tuple[int, float]]]]:
    """By card (its index in the template's list), by kind (p: a part, e: the end of a
    card's parts, f: its footer), by number: the page and the top it stands at."""
    out: dict[int, dict[str, dict[int, tuple[int, float]]]] = {}
    for page, anchors in enumerate(pages):
        for name, anchor in anchors.items():
            match = _ANCHOR.match(name)
            if match is not None:
                card, kind, number = int(match[1]), match[2], int(match[3])
                out.setdefault(card, {"p": {}, "e": {}, "f": {}})[kind][number] = (page, _top(anchor))
    return out


def cuts_needed(pages: Sequence[Mapping[str, Any]], splits: Mapping[int, Sequence[int]]) -> Splits | None:
    """The cuts that put each part above its card's footer, ``splits`` (the cuts the sheet
    was laid out with) and the ones it needs more; None when it needs none.

    Each card's parts that run into its footer start a further card, and the parts after
    them go on it while they fit in the room the first card's parts had (a further card
    has the same head and footer): one layout more finds most designs' cards, and the
    next checks them."""
    more: Splits = {}
    for card, placed in _placed(pages).items():
        parts, ends, feet = placed["p"], placed["e"], placed["f"]
        if not parts:
            continue
        total = max(parts) + 1
        cuts = sorted({c for c in splits.get(card, ()) if 0 < c < total})
        new: set[int] = set()
        for j, (first, stop) in enumerate(zip([0, *cuts], [*cuts, total], strict=True)):
            if j not in ends or j not in feet or any(i not in parts for i in range(first, stop)):
                continue  # not drawn as card_pages draws a card: left as it is
            page, limit = feet[j][0], feet[j][1] - GAP
            tops = [parts[i][1] for i in range(first, stop)] + [ends[j][1]]
            if tops[-1] <= limit or any(parts[i][0] != page for i in range(first, stop)):
                continue  # fits (or not on one page: not a card this module made)
            # the parts go on while they fit in the room the card's own first parts had; a part
            # taller than that room alone gets a card of its own, and the next starts another
            room, start, opens = limit - tops[0], tops[0], first
            for i in range(first, stop):
                if tops[i - first + 1] - start > room and i > opens:
                    new.add(i)
                    start, opens = tops[i - first], i
        if new - set(cuts):
            more[card] = sorted(set(cuts) | new)
    if not more:
        return None
    return {**{int(k): list(v) for k, v in splits.items()}, **more}


class CardFit:
    """Lays a card sheet out again while a card runs into its footer: called with each page's
    anchors after a layout, it answers the sheet's HTML drawn with the cuts it needs (by
    ``draw``, given ``card_splits``), or None when every card fits (or after
    :data:`LAYOUTS` layouts)."""

    def __init__(self, draw: Callable[[Splits], str]) -> None:
        self.draw = draw
        self.splits: Splits = {}
        self.layouts = 1

    def __call__(self, pages: Sequence[Mapping[str, Any]]) -> str | None:
        if self.layouts >= LAYOUTS:
            return None
        splits = cuts_needed(pages, self.splits)
        if splits is None:
            return None
        self.splits = splits
        self.layouts += 1
        return self.draw(splits)


def card_anchor(name: str) -> bool:
    """An anchor drawn only to measure cards: not kept as a destination of the PDF."""
    return name.startswith(PREFIX)
