"""Paths into a design, as findings, edits and the form write them: ``weapons[1].count``."""

from __future__ import annotations

import re
from typing import Any

_TOKEN = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def parse_path(path: str) -> list[str | int]:
    """``weapons[1].count`` -> ["weapons", 1, "count"]; dict keys may contain dashes."""
    out: list[str | int] = []
    for name, index in _TOKEN.findall(path):
        out.append(int(index) if index else name)
    return out


def join_path(parts: list[str | int]) -> str:
    """["weapons", 1, "count"] -> ``weapons[1].count``: the inverse of :func:`parse_path`."""
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else p)
    return out


def value_at(data: Any, path: str) -> Any:
    """The value at ``path`` in a design's JSON data, or None where there is none."""
    node = data
    for part in parse_path(path):
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return None
    return node
