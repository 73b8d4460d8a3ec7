"""How Space Fury's messages and figures write a count and a modifier."""

from __future__ import annotations

from shipyard.core.numberwords import plural  # "rack" or "racks": one helper for every count's noun

__all__ = ["plural", "signed"]


def signed(n: int) -> str:
    """A modifier as the tables print it: +1, -2, +0."""
    return f"{n:+d}"
