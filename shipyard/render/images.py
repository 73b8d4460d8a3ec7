"""Pictures for virtual tabletops: a design's card, token or record sheet as PNG.

Each is printed from the same templates as the PDFs (``cards.html``, ``tokens.html``,
``record.html``) and the page rasterized with PDFium at the resolution asked for, then
cut to the card's slot (63 x 88 mm), the token's shape or the page. A token's PNG is
transparent outside its shape: the page is rendered onto a transparent ground, and the
token's page draws nothing but the token there.
"""

from __future__ import annotations

import io
import re
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shipyard.core.designfile import LoadedDesign
from shipyard.core.errors import InputError
from shipyard.render.paper import PAPERS
from shipyard.render.tokens import GAP_MM, MARGIN_MM, TokenSpec

IMAGE_FORMATS = ("card-png", "token-png", "sheet-png")
DPIS = (150, 300)
CARD_MM = (63.0, 88.0)
_PT = 72 / 25.4


@dataclass(frozen=True)
class Picture:
    """One PNG to write: its file name (in the output folder) and its bytes."""

    name: str
    data: bytes


def stem(loaded: LoadedDesign, index: int) -> str:
    """A file name's stem for a design: its file's stem, or a slug of its name."""
    if loaded.file is not None:
        return loaded.file.stem
    name = str(getattr(loaded.design, "name", "") or f"design-{index + 1}")
    return re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").lower() or f"design-{index + 1}"


def design_pictures(
    loaded: LoadedDesign,
    kind: str,
    *,
    dpi: int,
    paper: str,
    token: TokenSpec,
    workers: list[Any],
    index: int = 0,
    timeout: float = 60.0,
) -> list[Picture]:
    """The PNGs of one design: each of its cards, its token, or each page of its record sheet."""
    from shipyard.render.printing import print_loaded

    if kind not in IMAGE_FORMATS:
        raise InputError.single(f"unknown image format {kind!r}", path="--format", allowed=", ".join(IMAGE_FORMATS))
    if dpi not in DPIS:
        raise InputError.single(f"{dpi} dpi is not offered", path="--dpi", allowed=", ".join(map(str, DPIS)))
    sheet = {"card-png": "cards", "token-png": "tokens", "sheet-png": "record"}[kind]
    with tempfile.TemporaryDirectory(prefix="shipyard-export-") as tmp:
        pdf = Path(tmp) / "out.pdf"
        print_loaded([loaded], pdf, sheet=sheet, paper=paper, workers=workers, token=token, timeout=timeout)
        data = pdf.read_bytes()
    base = stem(loaded, index)
    if kind == "sheet-png":
        pages = rasterize_pages(data, dpi)
        return [Picture(f"{base}-sheet{'' if n == 0 else f'-{n + 1}'}.png", png) for n, png in enumerate(pages)]
    if kind == "token-png":
        return [Picture(f"{base}-token.png", token_png(data, dpi, paper, token))]
    cards = card_pngs(data, dpi, paper)
    return [Picture(f"{base}-card{'' if n == 0 else f'-{n + 1}'}.png", png) for n, png in enumerate(cards)]


def _png(image: Any) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG", optimize=False)
    return out.getvalue()


def rasterize_pages(pdf: bytes, dpi: int) -> list[bytes]:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        return [_png(page.render(scale=dpi / 72).to_pil()) for page in doc]
    finally:
        doc.close()


def _crop(pdf: bytes, page_no: int, box_mm: tuple[float, float, float, float], dpi: int, transparent: bool) -> Any:
    """The part of a page at ``box_mm`` (left, top, width, height from the top-left corner), as a PIL image."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        page = doc[page_no]
        width, height = page.get_width(), page.get_height()
        left, top, w, h = (v * _PT for v in box_mm)
        crop = (left, height - top - h, width - left - w, top)  # points cut from left, bottom, right, top
        fill = (255, 255, 255, 0) if transparent else (255, 255, 255, 255)
        return page.render(scale=dpi / 72, crop=crop, fill_color=fill).to_pil()
    finally:
        doc.close()


def card_pngs(pdf: bytes, dpi: int, paper: str) -> list[bytes]:
    """Each card a design has (a fighter and its pilot may have one each), in the order printed."""
    import pypdfium2 as pdfium

    page_w, page_h = PAPERS[paper]
    cw, ch = CARD_MM
    left, top = (page_w - 3 * cw) / 2, (page_h - 3 * ch) / 2
    count = len(pdfium.PdfDocument(pdf))
    out: list[bytes] = []
    for page_no in range(count):
        for slot in range(9):
            image = _crop(pdf, page_no, (left + (slot % 3) * cw, top + (slot // 3) * ch, cw, ch), dpi, False)
            if image.convert("L").getextrema()[0] >= 250:  # an empty slot: nothing but paper
                return out
            out.append(_png(image))
    return out


def token_png(pdf: bytes, dpi: int, paper: str, token: TokenSpec) -> bytes:
    """The one token (and its back, beside it) of a one-design tokens page, transparent round it."""
    return token_pngs(pdf, 1, dpi, paper, token)[0]


def token_pngs(pdf: bytes, count: int, dpi: int, paper: str, token: TokenSpec) -> list[bytes]:
    """The ``count`` tokens of a tokens sheet, each cut out where Shipyard placed it, transparent round it."""
    from shipyard.render.tokens import token_pages

    pages = token_pages([_placeholder()] * count, token, paper, None, None)
    pad = 0.3  # the cut line's half width and a hair: the shape's edge is not cut off
    width = token.size_mm * (2 if token.back else 1)
    import pypdfium2 as pdfium

    out = []
    doc = pdfium.PdfDocument(pdf)
    try:
        for page_no, page in enumerate(pages):
            # the page once, onto a transparent ground; each token cut from it
            image = doc[page_no].render(scale=dpi / 72, fill_color=(255, 255, 255, 0)).to_pil()
            scale = dpi / 25.4
            for t in page:
                left, top = (t["x"] - pad) * scale, (t["y"] - pad) * scale
                box = (left, top, left + (width + 2 * pad) * scale, top + (token.height_mm + 2 * pad) * scale)
                out.append(_png(image.crop(tuple(round(v) for v in box))))
    finally:
        doc.close()
    return out


def _placeholder() -> dict[str, Any]:
    return {"design": {"name": "x"}, "file": "", "figures": {}, "art": None}


def export_pictures(
    loaded: Sequence[LoadedDesign],
    kind: str,
    *,
    dpi: int,
    paper: str,
    token: TokenSpec,
    workers: list[Any],
    timeout: float = 60.0,
) -> list[Picture]:
    """Every PNG of every design, named so none overwrites another."""
    out: list[Picture] = []
    for n, ld in enumerate(loaded):
        out += design_pictures(ld, kind, dpi=dpi, paper=paper, token=token, workers=workers, index=n, timeout=timeout)
    names = [p.name for p in out]
    doubles = sorted({n for n in names if names.count(n) > 1})
    if doubles:
        raise InputError.single(
            f"two designs would write the same file ({', '.join(doubles)}); export them into separate folders",
            path="-o",
        )
    return out


__all__ = ["DPIS", "GAP_MM", "IMAGE_FORMATS", "MARGIN_MM", "Picture", "export_pictures"]
