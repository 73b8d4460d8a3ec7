"""Paths into a design, as findings, edits and the form write them: ``weapons[1].count``."""

from __future__ import annotations

import re

_TOKEN = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def parse_path(path: str) -> list[str | int]:
    """``weapons[1].count`` -> ["weapons", 1, "count"]; dict keys may contain dashes."""
    out: list[str | int] = []
    for name, index in _TOKEN.findall(path):
        out.append(int(index) if index else name)
    return out
