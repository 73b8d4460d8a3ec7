"""Helpers for the per-ruleset sheet tests (Future Perfect, Wing Commander): a sample's
report, the HTML a record sheet renders to (where every tick box names its place), and
renamed copies of the samples to fill pages of stat cards.

The PDF side (pages' text, page sizes) is ``tests/test_printing.py``'s; ``cards_printed``
prints a sheet of stat cards.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from shipyard.core.designfile import load_design
from shipyard.core.evaluate import evaluate
from shipyard.core.registry import get
from shipyard.core.report import Report
from shipyard.core.resources import builtin_template_root
from shipyard.render.context import design_entry, sheet_context, template_dirs
from shipyard.render.printing import print_designs
from shipyard.render.templates import render_html
from shipyard.render.worker import RenderWorker


def report_of(file: Path) -> tuple[Any, Report]:
    """The design in ``file`` and what the engine reports on it (no user catalog)."""
    loaded = load_design(file, use_user_folder=False)
    return loaded.design, evaluate(loaded.design, loaded.catalog)


def sheet_html(file: Path, sheet: str = "record.html") -> str:
    """The HTML of ``file``'s record sheet on A4, from its ruleset's templates."""
    loaded = load_design(file, use_user_folder=False)
    report = evaluate(loaded.design, loaded.catalog)
    ctx = sheet_context([design_entry(loaded, report)], loaded.catalog, sheet="record", paper="a4")
    dirs = template_dirs(loaded.ruleset, [], get(loaded.ruleset).templates, builtin_template_root() / "common")
    return render_html(dirs, sheet, ctx)


def renamed_copies(tmp_path: Path, files: list[Path], n: int) -> list[Path]:
    """``n`` design files in ``tmp_path``, the samples ``files`` over and over, the i-th
    renamed "Wing <i> <its name>" (so each card on a page can be found by its name)."""
    out = []
    for i in range(n):
        doc = json.loads(files[i % len(files)].read_text(encoding="utf-8"))
        doc["design"]["name"] = f"Wing {i + 1:02d} {doc['design']['name']}"
        f = tmp_path / f"d{i:03d}.ship"
        f.write_text(json.dumps(doc), encoding="utf-8")
        out.append(f)
    return out


def cards_printed(
    tmp_path: Path, files: list[Path], count: int, paper: str, workers: list[RenderWorker]
) -> tuple[int, Path]:
    """``count`` renamed copies of ``files`` printed as stat cards on ``paper``: the pages the
    print says it made, and the PDF."""
    out = tmp_path / "cards.pdf"
    result = print_designs(
        renamed_copies(tmp_path, files, count), out, sheet="cards", paper=paper, workers=workers, use_user_folder=False
    )
    return result.pages, out


def is_notes_page(text: str) -> bool:
    """A page after a design's sheet that holds the notes its Notes box had to cut, whole
    (``notes_more`` in templates/common/parts.html): "Notes of NAME, continued"."""
    return text.lstrip().lower().startswith("notes of ")


# --- where things are drawn on a printed page (points from the page's top left) -------------

Box = tuple[float, float, float, float]  # left, top, right, bottom


def placed_words(pdf: Path) -> list[tuple[int, Box, str]]:
    """Every word pdftotext reads, in its reading order: (page, its box, the word)."""
    import html
    import re
    import subprocess

    xml = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    out: list[tuple[int, Box, str]] = []
    for n, page in enumerate(xml.split("<page ")[1:]):
        for x0, y0, x1, y1, word in re.findall(
            r'<word xMin="([^"]+)" yMin="([^"]+)" xMax="([^"]+)" yMax="([^"]+)">([^<]*)</word>', page
        ):
            out.append((n, (float(x0), float(y0), float(x1), float(y1)), html.unescape(word)))
    return out


def pictures_placed(pdf: Path) -> list[tuple[int, Box]]:
    """Where each picture is drawn: (page, its box)."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        out = []
        for n, page in enumerate(doc):
            height = page.get_height()
            for obj in page.get_objects(filter=[pdfium.raw.FPDF_PAGEOBJ_IMAGE], max_depth=8):
                left, bottom, right, top = obj.get_bounds()
                out.append((n, (left, height - top, right, height - bottom)))
        return out
    finally:
        doc.close()


def overlap(a: Box, b: Box, by: float = 0.5) -> bool:
    """``a`` and ``b`` share more than a sliver ``by`` points wide."""
    return min(a[2], b[2]) - max(a[0], b[0]) > by and min(a[3], b[3]) - max(a[1], b[1]) > by


def box_fields(pdf: Path) -> dict[str, tuple[int, Box]]:
    """Each check box field of a fillable print by its name: (page, where it lies)."""
    from pypdf import PdfReader

    out: dict[str, tuple[int, Box]] = {}
    for n, page in enumerate(PdfReader(pdf).pages):
        height = float(page.mediabox.height)
        for ref in page.get("/Annots", []):
            annot = ref.get_object()
            if annot.get("/FT") == "/Btn":
                x0, y0, x1, y1 = (float(v) for v in annot["/Rect"])
                out[str(annot["/T"])] = (n, (min(x0, x1), height - max(y0, y1), max(x0, x1), height - min(y0, y1)))
    return out


def card_slot(paper: str, index: int) -> Box:
    """Where the ``index``-th card of a page lies (templates/common/_cards.html: 63 x 88 mm,
    three by three, centred)."""
    from shipyard.render.paper import PAPERS

    mm = 72 / 25.4
    width, height = PAPERS[paper]
    left, top = (width - 3 * 63) / 2 + (index % 3) * 63, (height - 3 * 88) / 2 + (index // 3) * 88
    return (left * mm, top * mm, (left + 63) * mm, (top + 88) * mm)


def inside(a: Box, b: Box, by: float = 0.2) -> bool:
    """``a`` lies within ``b`` (to ``by`` points)."""
    return a[0] >= b[0] - by and a[1] >= b[1] - by and a[2] <= b[2] + by and a[3] <= b[3] + by


def cards_read(pdf: Path, paper: str, footer: str) -> list[dict[str, Any]]:
    """Each card of a printed card sheet, in order, read as a person reads it: ``text``, the
    words inside the card above its footer; ``footer``, the footer's line (found by the words
    it starts with, ``footer``), left to right; ``over``, the words that run into the footer
    or below it (by where they stand: pdftotext reads a row of cards' footers as one line)."""
    words = placed_words(pdf)
    lead = footer.split()
    out: list[dict[str, Any]] = []
    for page in range(max((p for p, _, _ in words), default=-1) + 1):
        for slot in range(9):
            area = card_slot(paper, slot)
            mine = [(n, box, w) for n, (p, box, w) in enumerate(words) if p == page and inside(box, area, 1)]
            if not mine:
                continue
            starts = [
                k
                for k in range(len(mine) - len(lead) + 1)
                if [w for _, _, w in mine[k : k + len(lead)]] == lead
                and len({round(box[1]) for _, box, _ in mine[k : k + len(lead)]}) == 1
            ]
            if not starts:
                out.append({"text": "", "footer": "", "over": [w for _, _, w in mine]})
                continue
            y = mine[starts[-1]][1][1]
            line = [(n, box, w) for n, box, w in mine if abs(box[1] - y) < 1]
            top = min(box[1] for _, box, _ in line)
            others = [(n, box, w) for n, box, w in mine if abs(box[1] - y) >= 1]
            out.append(
                {
                    "text": " ".join(w for _, box, w in others if box[3] <= top),
                    "footer": " ".join(w for _, _, w in sorted(line, key=lambda x: x[1][0])),
                    "over": [w for _, box, w in others if box[3] > top],
                }
            )
    return out
