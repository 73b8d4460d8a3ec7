"""Pictures for virtual tabletops: a design's card, token or record sheet as PNG.

Cards and sheets are printed from the same templates as the PDFs (``cards.html``,
``record.html``) and the page rasterized with PDFium at the resolution asked for, then
cut to the card's slot (63 x 88 mm) or kept whole: in the picture worker
(:mod:`shipyard.render.pictureworker`), since the pages carry the design's art. A token is drawn by the token drawing
the printed tokens sheet uses (``token_face.html``) without a page, transparent outside
its shape (:mod:`shipyard.render.tokenimages`).
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shipyard.core.designfile import LoadedDesign
from shipyard.core.errors import InputError
from shipyard.core.report import Report
from shipyard.render.tokens import TokenSpec

IMAGE_FORMATS = ("card-png", "token-png", "sheet-png")
DPIS = (150, 300)


@dataclass(frozen=True)
class Picture:
    """One PNG to write: its file name (in the output folder) and its bytes."""

    name: str
    data: bytes


# C0 and C1 controls, DEL, U+FFFE and U+FFFF: characters a design file's name may hold but an
# output's name should not (a new line in a file name breaks every "wrote NAME" line and script)
_NOT_IN_NAMES_RE = re.compile("[\x00-\x1f\x7f-\x9f\ufffe\uffff]")


def stem(loaded: LoadedDesign, index: int) -> str:
    """A file name's stem for a design: its file's stem, or a slug of its name."""
    if loaded.file is not None:  # control characters would go on into the output's name: each made a "-"
        return _NOT_IN_NAMES_RE.sub("-", loaded.file.stem)
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
    """The PNGs of one design: each of its cards, or each page of its record sheet (tokens: :func:`token_pictures`)."""
    from shipyard.render.printing import print_loaded

    if kind not in ("card-png", "sheet-png"):
        raise InputError.single(f"unknown image format {kind!r}", path="--format", allowed="card-png, sheet-png")
    _check_dpi(dpi)
    sheet = {"card-png": "cards", "sheet-png": "record"}[kind]
    with tempfile.TemporaryDirectory(prefix="shipyard-export-") as tmp:
        pdf = Path(tmp) / "out.pdf"
        print_loaded([loaded], pdf, sheet=sheet, paper=paper, workers=workers, token=token, timeout=timeout)
        data = pdf.read_bytes()
    base = stem(loaded, index)
    from shipyard.render.pictureworker import PictureProblem, run
    from shipyard.render.worker import RenderError

    try:  # rasterised in the picture worker: the pages hold the design's art
        if kind == "sheet-png":
            pages = run("pages", data, dpi, timeout=timeout)
        else:
            cards = run("cards", data, dpi, paper, timeout=timeout)
    except PictureProblem as exc:
        raise RenderError(f"{base}: the printed pages cannot be rasterised: {exc}") from None
    if kind == "sheet-png":
        return [Picture(f"{base}-sheet{'' if n == 0 else f'-{n + 1}'}.png", png) for n, png in enumerate(pages)]
    return [Picture(f"{base}-card{'' if n == 0 else f'-{n + 1}'}.png", png) for n, png in enumerate(cards)]


def _check_dpi(dpi: int) -> None:
    if dpi not in DPIS:
        raise InputError.single(f"{dpi} dpi is not offered", path="--dpi", allowed=", ".join(map(str, DPIS)))


def token_pictures(
    loaded: Sequence[LoadedDesign],
    token: TokenSpec,
    dpi: int,
    reports: Sequence[Report] | None = None,
    left_out: list[str] | None = None,
) -> list[Picture]:
    """Each design's token PNG, drawn without a page (:mod:`shipyard.render.tokenimages`), in the
    designs' order; ``reports``: the designs' reports when the caller has them already;
    ``left_out`` gets "NAME: why" for a token drawn without art the picture worker could not draw."""
    from shipyard.core.designreport import design_report
    from shipyard.render.art import page_art_problem
    from shipyard.render.tokenimages import token_images

    _check_dpi(dpi)
    made: dict[int, Picture] = {}
    for ruleset in dict.fromkeys(ld.ruleset for ld in loaded):  # a ruleset's tokens show its key figure
        group = [(n, ld) for n, ld in enumerate(loaded) if ld.ruleset == ruleset]
        group_reports = [
            reports[n]
            if reports is not None
            else design_report(ld.design, ld.catalog, ld.file, picture_problem=page_art_problem)
            for n, ld in group
        ]
        pngs = token_images([ld for _, ld in group], group_reports, token, dpi, left_out)
        for (n, ld), png in zip(group, pngs, strict=True):
            made[n] = Picture(f"{stem(ld, n)}-token.png", png)
    return [made[n] for n in range(len(loaded))]


def export_pictures(
    loaded: Sequence[LoadedDesign],
    kind: str,
    *,
    dpi: int,
    paper: str,
    token: TokenSpec,
    workers: list[Any],
    timeout: float = 60.0,
    left_out: list[str] | None = None,
) -> list[Picture]:
    """Every PNG of every design, named so none overwrites another (``left_out``: as for
    :func:`token_pictures`)."""
    out: list[Picture] = []
    if kind == "token-png":
        out = token_pictures(loaded, token, dpi, left_out=left_out)
    else:
        for n, ld in enumerate(loaded):
            out += design_pictures(
                ld, kind, dpi=dpi, paper=paper, token=token, workers=workers, index=n, timeout=timeout
            )
    names = [p.name for p in out]
    doubles = sorted({n for n in names if names.count(n) > 1})
    if doubles:
        raise InputError.single(
            f"two designs would write the same file ({', '.join(doubles)}); export them into separate folders",
            path="-o",
        )
    return out


__all__ = ["DPIS", "IMAGE_FORMATS", "Picture", "export_pictures", "token_pictures"]
