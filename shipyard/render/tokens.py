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


FIGURE_BASELINE = 0.2
"""Where the key figure's line stands, in token heights from the top."""


def key_figure(entry: dict[str, Any], spec: TokenSpec | None = None) -> dict[str, Any] | None:
    """The figure the design's table names for its token (``tabletop.key_figure``), as
    ``label`` and ``value`` as the sheet prints it (None when the report lacks it), with
    the font ``size`` and the ``width`` of its dark ground that fit it inside the shape."""
    key = (entry.get("shown") or {}).get("key")
    if not key or key.get("value") in (None, ""):
        return None
    spec = spec or TokenSpec(25.4)
    value, label = drawable(str(key["value"])), drawable(str(key["label"]))
    base = spec.height_mm * FIGURE_BASELINE
    wide = text_width(f"{value} {label}") * 1.04  # the value is bold
    size = spec.size_mm * NAME_SIZES[-1]
    for factor in NAME_SIZES:
        s = spec.size_mm * factor
        if wide * s <= shape_width(spec, base - _ASCENT * s, base + _DESCENT * s):
            size = s
            break
    return {
        "label": label,
        "value": value,
        "size": round(size, 3),
        "width": round(min(spec.size_mm * 0.9, wide * size + spec.size_mm * 0.08), 3),
        "y": round(base, 3),
    }


_NARROW = set("iljIft.,:;'!|()[]-/ ")
_WIDE = set("MWmw@%")
NAME_SIZES = (0.1, 0.095, 0.09, 0.085, 0.08, 0.075, 0.07, 0.065, 0.06)
"""The name's font sizes tried, in token widths, largest first: one line, then two."""
_LINE = 1.12  # line height, in font sizes
_ASCENT, _DESCENT = 0.76, 0.24  # DejaVu Sans Condensed Bold's capitals and descenders, in font sizes
_MIDDLE = {"round": 0.83, "square": 0.86, "hex": 0.81}  # where the name's lines are centred, in heights


def text_width(text: str) -> float:
    """The width of ``text`` in DejaVu Sans Condensed Bold, in font sizes (a close upper estimate)."""
    return sum(0.36 if c in _NARROW else 0.9 if c in _WIDE else 0.69 if c.isupper() else 0.58 for c in text)


def shape_width(spec: TokenSpec, top: float, bottom: float) -> float:
    """How wide the token is over the whole band from ``top`` to ``bottom`` (mm from its top),
    less a margin: a circle's chord or a hexagon's width where the band is narrowest."""
    w, h = spec.size_mm, spec.height_mm
    if spec.shape == "round":
        far = max(abs(top - h / 2), abs(bottom - h / 2))
        full = 2 * math.sqrt(max(0.0, (w / 2) ** 2 - far**2))
    elif spec.shape == "hex":

        def at(y: float) -> float:
            return w * min(1.0, y / (h / 4), (h - y) / (h / 4))

        full = max(0.0, min(at(top), at(bottom)))
    else:
        full = w
    return full - 0.1 * w


def _splits(name: str) -> list[list[str]]:
    """The name on one line, then on two lines split at each space, the most even first."""
    words = name.split()
    twos = [[" ".join(words[:n]), " ".join(words[n:])] for n in range(1, len(words))]
    twos.sort(key=lambda pair: max(text_width(p) for p in pair))
    return [[name], *twos]


def _room(n: int, size: float, spec: TokenSpec) -> list[tuple[float, float]]:
    """Each of ``n`` lines' baseline (mm from the top) and the width the shape has for it at ``size`` mm."""
    middle = spec.height_mm * _MIDDLE[spec.shape]
    top = middle - n * _LINE * size / 2
    out = []
    for i in range(n):
        base = top + (i * _LINE + _ASCENT + (_LINE - 1) / 2) * size
        out.append((base, shape_width(spec, base - _ASCENT * size, base + _DESCENT * size)))
    return out


def _fits(lines: list[str], size: float, spec: TokenSpec) -> list[float] | None:
    """Each line's baseline (mm from the top) when every line fits inside the shape at ``size`` mm."""
    room = _room(len(lines), size, spec)
    if any(text_width(line) * size > wide for line, (_, wide) in zip(lines, room, strict=True)):
        return None
    return [base for base, _ in room]


def name_layout(name: str, spec: TokenSpec) -> dict[str, Any]:
    """The name's lines, their baselines and font size, fitted inside the token's shape:
    the largest size on one line, else on two, else the smallest size, cut (:func:`_cut`).
    The dark band behind it starts above the first line."""
    name = " ".join(name.split()) or "?"
    w = spec.size_mm
    for factor in NAME_SIZES:
        size = w * factor
        for lines in _splits(name):
            baselines = _fits(lines, size, spec)
            if baselines is not None:
                return _layout(lines, baselines, size, spec)
    return _cut(name, w * NAME_SIZES[-1], spec)


def _cut(name: str, size: float, spec: TokenSpec) -> dict[str, Any]:
    """A name too long for two lines, cut so that it still reads in its order: the first
    line holds as many whole words as fit (as much of the first word as fits, when even
    that one does not, its rest going on), the second line the words after them, cut at
    the end with "…" where it runs out of room. No word is left out of the middle: what is
    shown is the name's beginning, and the "…" says that more follows."""
    (base1, room1), (base2, room2) = _room(2, size, spec)

    def fits(text: str, room: float) -> bool:
        return text_width(text) * size <= room

    words = name.split()
    taken = 0
    while taken < len(words) and fits(" ".join(words[: taken + 1]), room1):
        taken += 1
    if taken:
        first, rest = " ".join(words[:taken]), " ".join(words[taken:])
    else:  # the first word alone is wider than the line: as much of it as fits, then on
        word = words[0]
        k = max((n for n in range(2, len(word) + 1) if fits(word[:n], room1)), default=1)  # one letter at least
        first, rest = word[:k], " ".join([word[k:], *words[1:]]).strip()
    if not rest:
        return _layout([first], [base1], size, spec)
    if fits(rest, room2):  # a long first word broken, the rest whole
        return _layout([first, rest], [base1, base2], size, spec)
    second = rest
    while second and not fits(second + "…", room2):
        second = second[:-1].rstrip()
    return _layout([first, second + "…"], [base1, base2], size, spec)


def _layout(lines: list[str], baselines: list[float], size: float, spec: TokenSpec) -> dict[str, Any]:
    band = min(spec.height_mm * 0.74, baselines[0] - (_ASCENT + 0.25) * size)
    return {
        "lines": [{"text": t, "y": round(y, 3)} for t, y in zip(lines, baselines, strict=True)],
        "size": round(size, 3),
        "band": round(band, 3),
    }


_UNDRAWABLE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]")


def drawable(text: str) -> str:
    """``text`` without the control characters a drawing (SVG, XML) cannot hold: a name
    written with a bell or an escape in it is drawn without them, never refused halfway."""
    return _UNDRAWABLE.sub("", text)


def token_face(entry: dict[str, Any], spec: TokenSpec | None = None) -> dict[str, Any]:
    """What a design's token shows (``token_face.html`` draws it): its name fitted inside the
    shape, initials, colour, art and the key figure of the design's table."""
    name = drawable(str(entry["design"].get("name") or entry["file"]))
    return {
        "name": name,
        "name_layout": name_layout(name, spec or TokenSpec(25.4)),
        "initials": initials(name),
        "colour": colour(name),
        "art": entry["art"]["src"] if entry.get("art") else None,
        "figure": key_figure(entry, spec),
    }


def token_pages(entries: list[dict[str, Any]], spec: TokenSpec, paper: str) -> list[list[dict[str, Any]]]:
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
            **token_face(entry, spec),
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
    "name_layout",
    "token_face",
    "token_pages",
    "token_spec",
]
