"""Cut-out counters: a design's token, laid out on pages of A4 or Letter.

A token is the design's art (or its name's initials on a colour of its own), its name and
the one figure its ruleset declares for the table (``tabletop.key_figure`` in the
manifest: Structure, Scale, Durability ...), round, square or hexagonal at a size the
user gives (``1in``, ``25mm``, ``0.75in``). With a back, each token is printed beside
its damaged face, to be folded along the line between them and glued.

The positions are worked out here, in millimetres, so the template only places them: a
test measures every token in the PDF against the size asked for.
"""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass
from typing import Any

from shipyard.core.errors import InputError
from shipyard.render.paper import PAPERS

SHAPES = ("round", "square", "hex")
MIN_TOKEN_MM, MAX_TOKEN_MM = 12.7, 76.2  # half an inch to three inches
MARGIN_MM = 10.0  # what every printer can print to
GAP_MM = 3.0  # room for the scissors between two tokens
_UNITS = {"mm": 1.0, "cm": 10.0, "in": 25.4}
_SIZE = re.compile(r"^\s*(?P<n>[0-9]+(\.[0-9]+)?)\s*(?P<unit>mm|cm|in)\s*(?P<shape>round|square|hex)?\s*$")
SIZE_HELP = "a length in mm, cm or in (25mm, 1in, 0.75in), optionally with a shape: '0.75in hex'"
# Colours a token without art is drawn on: dark enough for white initials, told apart in print.
PALETTE = ("#1f4e79", "#7a2e2e", "#2e6b3a", "#5b3a7a", "#7a5a1f", "#2e5e6b", "#6b2e58", "#3d4a5c")


@dataclass(frozen=True)
class TokenSpec:
    """A token's size (its width across, flat to flat for a hexagon) and shape, and whether it has a back."""

    size_mm: float
    shape: str = "round"
    back: bool = False

    @property
    def height_mm(self) -> float:
        """A hexagon stands on a point: it is taller than wide by 2/sqrt(3)."""
        return self.size_mm * 2 / math.sqrt(3) if self.shape == "hex" else self.size_mm

    def as_json(self) -> dict[str, Any]:
        return {"size_mm": self.size_mm, "height_mm": self.height_mm, "shape": self.shape, "back": self.back}


def token_spec(size: str = "1in", shape: str | None = None, back: bool = False) -> TokenSpec:
    """The token ``--token-size`` and ``--token-shape`` ask for; a bad one is an InputError naming the option."""
    match = _SIZE.match(size.lower())
    if match is None:
        raise InputError.single(f"token size {size!r} is not a length", path="--token-size", allowed=SIZE_HELP)
    mm = round(float(match["n"]) * _UNITS[match["unit"]], 3)
    if not MIN_TOKEN_MM <= mm <= MAX_TOKEN_MM:
        raise InputError.single(
            f"token size {size!r} is {mm:g} mm",
            path="--token-size",
            allowed=f"{MIN_TOKEN_MM:g} to {MAX_TOKEN_MM:g} mm (0.5 to 3 in)",
        )
    chosen = shape or match["shape"] or "round"
    if chosen not in SHAPES:
        raise InputError.single(f"unknown token shape {chosen!r}", path="--token-shape", allowed=", ".join(SHAPES))
    return TokenSpec(mm, chosen, back)


def initials(name: str) -> str:
    """What a token without art shows: the first letters of the name's first two words (RF)."""
    words = [w for w in re.split(r"[\s\-_/]+", name) if w and w[0].isalnum()]
    return "".join(w[0] for w in words[:2]).upper() or name[:1].upper()


def colour(name: str) -> str:
    """A colour of the palette the name always gets, so a design keeps its colour between prints."""
    return PALETTE[int(hashlib.sha256(name.encode("utf-8")).hexdigest(), 16) % len(PALETTE)]


def key_figure(entry: dict[str, Any], figure_id: str | None, label: str | None) -> dict[str, Any] | None:
    """The figure a ruleset declares for its tokens, as ``label`` and ``value`` (None when the report lacks it)."""
    if not figure_id:
        return None
    fig = entry["figures"].get(figure_id)
    if fig is None or fig.get("value") in (None, "") or isinstance(fig.get("value"), (dict, list)):
        return None
    return {"label": label or fig.get("label") or figure_id, "value": str(fig["value"])}


def token_face(entry: dict[str, Any], figure_id: str | None, figure_label: str | None) -> dict[str, Any]:
    """What a design's token shows (``token_face.html`` draws it): its name, initials,
    colour, art and key figure."""
    name = str(entry["design"].get("name") or entry["file"])
    return {
        "name": name,
        "initials": initials(name),
        "colour": colour(name),
        "art": entry["art"]["src"] if entry.get("art") else None,
        "figure": key_figure(entry, figure_id, figure_label),
    }


def token_pages(
    entries: list[dict[str, Any]], spec: TokenSpec, paper: str, figure_id: str | None, figure_label: str | None
) -> list[list[dict[str, Any]]]:
    """The tokens of ``entries``, each placed (``x``, ``y`` in mm from the page's corner), page by page."""
    width, height = PAPERS[paper]
    cell_w = spec.size_mm * (2 if spec.back else 1) + GAP_MM
    cell_h = spec.height_mm + GAP_MM
    columns = max(1, int((width - 2 * MARGIN_MM + GAP_MM) // cell_w))
    rows = max(1, int((height - 2 * MARGIN_MM + GAP_MM) // cell_h))
    left = (width - (columns * cell_w - GAP_MM)) / 2
    top = (height - (rows * cell_h - GAP_MM)) / 2
    pages: list[list[dict[str, Any]]] = []
    for n, entry in enumerate(entries):
        slot = n % (columns * rows)
        if slot == 0:
            pages.append([])
        pages[-1].append({
            **token_face(entry, figure_id, figure_label),
            "x": round(left + (slot % columns) * cell_w, 3),
            "y": round(top + (slot // columns) * cell_h, 3),
        })  # fmt: skip
    return pages


__all__ = [
    "SHAPES",
    "SIZE_HELP",
    "TokenSpec",
    "colour",
    "initials",
    "key_figure",
    "token_face",
    "token_pages",
    "token_spec",
]
