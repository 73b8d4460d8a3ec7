"""A catalog item's facts as the editor shows them: a tooltip's lines and a detail box's.

Both catalog browsers show them (the plain one of a catalog kind, and the one listing a
ruleset's own rows: :mod:`shipyard._qt.form.browse`), after whatever the ruleset's
listing says of the item already; a fact that listing has word for word is not said twice.
Which facts an item has is the core's (:func:`shipyard.core.items.facts`); here is only
how they read.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from shipyard.core.items import CatalogItem, facts


def _unsaid(item: CatalogItem, said: Sequence[str]) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The item's facts (:func:`shipyard.core.items.facts`), less those ``said`` already
    has word for word ("Notes: Speed +1" in a ruleset's listing of the item)."""
    text = "\n".join(said).lower()
    short, long = facts(item)
    return [(k, v) for k, v in short if f"{k}: {v}".lower() not in text], [
        (k, v) for k, v in long if f"{k}: {v}".lower() not in text
    ]


def facts_text(item: CatalogItem, said: Sequence[str] = ()) -> str:
    """An item's facts as a tooltip, one a line, after what ``said`` says of it (a ruleset's listing)."""
    short, long = _unsaid(item, said)
    return "\n".join([item.name, *said, *(f"{k}: {v}" for k, v in short), *(f"{k}: {v}" for k, v in long)])


def facts_html(item: CatalogItem, said: Sequence[str] = ()) -> list[str]:
    """An item's facts as the lines of a detail box, after ``said``: the short ones on one
    line ("Speed **1** · Damage **5**"), each longer text on its own."""
    short, long = _unsaid(item, said)
    parts = [html.escape(line) for line in said]
    if short:
        parts.append(" · ".join(f"{html.escape(k)} <b>{html.escape(v)}</b>" for k, v in short))
    parts += [f"<i>{html.escape(k)}:</i> {html.escape(v)}" for k, v in long]
    return parts
