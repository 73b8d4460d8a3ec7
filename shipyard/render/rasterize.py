"""A printed PDF's pages and stat cards drawn to PNG by PDFium.

Run inside the picture worker (shipyard.render.pictureworker), which imports this module
and nothing else of the renderer's: a leaf, so the worker's side and the side that asks
it for pictures (shipyard.render.images) do not import each other.
"""

from __future__ import annotations

import io
from typing import Any

from shipyard.render.paper import PAPERS

CARD_MM = (63.0, 88.0)
_PT = 72 / 25.4


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
