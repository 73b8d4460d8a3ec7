"""Paths into a design, as findings, edits and the form write them: ``weapons[1].count``.

A map's key is a part of the path as it is (``skills.Main drive``), so a key may
not hold what separates the parts: ``.``, ``[`` and ``]``. There is no quoting; a design
model refuses such keys when it reads them (``map_key``), so every path stays readable.
"""

from __future__ import annotations

import re
from typing import Any

_TOKEN = re.compile(r"([^.\[\]]+)|\[(\d+)\]")
RESERVED = ".[]"  # what separates a path's parts


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


def map_key(key: str) -> str:
    """``key`` unchanged if a path can name it as a map's key; else a ValueError saying what is allowed
    (a pydantic ``AfterValidator`` for the keys of a design's maps and the names that become them)."""
    if any(c in key for c in RESERVED):
        raise ValueError(
            "may not contain '.', '[' or ']': they separate the parts of a place in the design, "
            "where this is a key; letters, digits, spaces, dashes and other punctuation are allowed"
        )
    return key
