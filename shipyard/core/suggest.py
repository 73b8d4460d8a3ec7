"""Did-you-mean: the closest known names to a name we could not resolve."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable


def normalise(name: str) -> str:
    """Compare names the way a reader does: case, spaces and punctuation do not matter."""
    return re.sub(r"[^a-z0-9+]", "", name.lower())


def closest(name: str, candidates: Iterable[str], limit: int = 3) -> list[str]:
    """Up to ``limit`` candidates that look like ``name``, best first."""
    pool = list(dict.fromkeys(candidates))
    by_norm: dict[str, str] = {}
    for c in pool:
        by_norm.setdefault(normalise(c), c)
    hits = difflib.get_close_matches(normalise(name), list(by_norm), n=limit, cutoff=0.6)
    out = [by_norm[h] for h in hits]
    # A substring match ("laser" -> "light-laser") is a useful hint even when short.
    if len(out) < limit:
        key = normalise(name)
        for norm, original in by_norm.items():
            if key and key in norm and original not in out:
                out.append(original)
            if len(out) >= limit:
                break
    return out


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    hits = closest(name, candidates)
    return f"did you mean {', '.join(repr(h) for h in hits)}?" if hits else ""
