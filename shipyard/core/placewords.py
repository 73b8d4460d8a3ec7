"""How the parts of a place read in a sentence: labels without accelerators, names kept.

Shared by :mod:`shipyard.core.places` (a place in plain words) and
:mod:`shipyard.core.formplaces` (a place in the words of the declared form), so neither
imports the other for a list entry's name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from shipyard.core.model import Catalog

Parts = list[str | int]


def plain(label: str) -> str:
    """A label without its accelerator marks ("&Name" -> "Name", "R&&D" -> "R&D")."""
    return label.replace("&&", "\0").replace("&", "").replace("\0", "&")


def lower_in_sentence(label: str) -> str:
    """A label inside a sentence: "Fire-link group" -> "fire-link group"; "AI Dex" and
    "Power Points" (names) stay."""
    if len(label) > 1 and label[0].isupper() and not any(c.isupper() for c in label[1:]):
        return label[0].lower() + label[1:]
    return label


def words(part: str) -> str:
    return part.replace("_", " ").replace("-", " ")


def rest_words(rest: Parts) -> str:
    """What is left of a path after its named place: "count", "#2 damage"."""
    return " ".join(words(p) if isinstance(p, str) else f"#{p + 1}" for p in rest)


def entry_name(entry: Any, catalog: Catalog) -> str:
    """A list entry's name: its ``name``, else the catalog item one of its values names."""
    if isinstance(entry, str):
        return next((i.name for k in catalog.items if (i := catalog.item(k, entry)) is not None), entry)
    if not isinstance(entry, dict):
        return ""
    name = entry.get("name")
    if isinstance(name, str) and name.strip():
        return name.strip()
    for value in entry.values():
        if isinstance(value, str):
            for kind in catalog.items:
                item = catalog.item(kind, value)
                if item is not None:
                    return item.name
    return ""
