"""How the parts of a place read in a sentence: labels without accelerators, names kept.

Shared by :mod:`shipyard.core.places` (a place in plain words) and
:mod:`shipyard.core.formplaces` (a place in the words of the declared form).
"""

from __future__ import annotations

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
