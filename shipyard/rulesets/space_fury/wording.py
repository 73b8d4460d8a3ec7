"""How Space Fury's messages and figures write a count and a modifier."""

from __future__ import annotations


def plural(word: str, n: int) -> str:
    """ "rack" or "racks": the rules' nouns take an s (an empty word stays empty)."""
    return word if n == 1 or not word else f"{word}s"


def signed(n: int) -> str:
    """A modifier as the tables print it: +1, -2, +0."""
    return f"{n:+d}"
