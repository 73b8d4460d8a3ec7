"""A design's picture as the pages need it: scaled once, cached, cut to a token's shape.

The core has checked the picture (kind, size from its header, pixels, where the file
lies, an SVG's nesting and what its ``<use>`` elements draw: :mod:`shipyard.core.artcheck`);
Pillow decodes it only through this module, and only in the picture worker
(:mod:`shipyard.render.pictureworker`): never in the editor's or the command line's own
process, where a decoder's crash would take unsaved designs with it. A 4000 x 3000
photo would make every page that shows it carry 5 MB and make WeasyPrint decode and
downsample it for each: instead it is decoded once (a JPEG at the smallest of its
built-in reductions that is still large enough), turned the way its EXIF orientation
says, stripped of its metadata and scaled to :data:`ART_PIXELS` on its long side (the
largest box any sheet, card or token draws it in, a comparison's 36 mm or a token of
1.5 in, at 300 dpi), and the
result kept by the picture's digest, so a fleet book, a preview redrawn after each edit
or a sheet of tokens scales it once.

An SVG is vectors: it goes to the page as it is (the core refused scripts, outside
references and nesting or repeats no renderer should be handed), drawn by WeasyPrint in
the render worker. A picture the worker cannot decode after all (a whole header over
broken pixels, or the worker crashed or ran out of time or memory on it) is left out of
the pages with the same warning a picture the core refused gets, saying why: the outputs
that draw it hand :func:`page_art_problem` to the one report builder
(:func:`shipyard.core.designreport.design_report`). The editor's thumbnail is drawn by the worker too
(:func:`thumbnail`).
"""

from __future__ import annotations

import base64
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shipyard.core.artcheck import Art, art_finding, art_of, art_refusal
from shipyard.core.errors import InputError

ART_PIXELS = 480
"""The long side of the copy every page draws: 40 mm at 300 dpi, more than any box needs."""
_CACHE_SIZE = 64


@dataclass(frozen=True)
class PageArt:
    """The picture the pages draw: a ``data:`` URI and its size in pixels."""

    src: str
    width: int
    height: int

    def as_json(self) -> dict[str, Any]:
        return {"src": self.src, "width": self.width, "height": self.height}


_SCALED: OrderedDict[str, PageArt | str] = OrderedDict()  # by digest: the page's copy, or why there is none


def page_art(art: Art) -> PageArt | None:
    """``art`` scaled for the pages (None when it cannot be decoded), from the cache after the first time."""
    made = _page_art(art)
    return made if isinstance(made, PageArt) else None


def page_art_problem(art: Art) -> str | None:
    """Why ``art`` passed the core's checks but cannot be shown on the pages (None: it can)."""
    made = _page_art(art)
    return made if isinstance(made, str) else None


def _page_art(art: Art) -> PageArt | str:
    key = art.digest
    if key in _SCALED:
        _SCALED.move_to_end(key)
        return _SCALED[key]
    made = _scale(art)
    _SCALED[key] = made
    if len(_SCALED) > _CACHE_SIZE:
        _SCALED.popitem(last=False)
    return made


def _scale(art: Art) -> PageArt | str:
    """The page's copy of ``art``, decoded and scaled in the picture worker, or why it cannot be."""
    from shipyard.render.pictureworker import PictureProblem, run

    if art.kind == "svg":
        return PageArt(art.data_uri(), art.width, art.height)
    try:
        made = run("scale", art.data, art.kind, ART_PIXELS, False)
    except PictureProblem as exc:
        return f"the {art.kind.upper()} picture cannot be decoded: {exc}"
    if made is None:
        return f"the {art.kind.upper()} picture's header is whole but its pixels cannot be decoded"
    data, mime, width, height = made
    return PageArt(f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}", width, height)


THUMBNAILS: OrderedDict[tuple[str, tuple[int, int]], bytes | str] = OrderedDict()


def thumbnail(art: Art, box: tuple[int, int]) -> bytes | str:
    """A PNG of ``art`` fitting ``box`` pixels, drawn in the picture worker (an SVG too), or why
    it cannot be: the editor shows it without decoding the user's picture itself."""
    from shipyard.render.pictureworker import PictureProblem, run

    key = (art.digest, box)
    if key not in THUMBNAILS:
        try:
            png = run("thumbnail", art.data, art.kind, art.width, art.height, box)
            made: bytes | str = png if png is not None else f"its {art.kind.upper()} pixels cannot be decoded"
        except PictureProblem as exc:
            made = str(exc)
        THUMBNAILS[key] = made
        if len(THUMBNAILS) > _CACHE_SIZE:
            THUMBNAILS.popitem(last=False)
    THUMBNAILS.move_to_end(key)
    return THUMBNAILS[key]


def decode(art: Art, long_side: int) -> Any:
    """The picture decoded, turned upright and scaled to fit ``long_side`` pixels (a PIL image), or None.

    What the picture worker runs (:func:`shipyard.render.pictureworker.decode`); called here
    it decodes in the caller's process, which the editor and the commands never do."""
    from shipyard.render.pictureworker import decode as decode_bytes

    return decode_bytes(art.data, art.kind, long_side)


EMBED_PIXELS = 1600
"""The long side an embedded picture is kept at: enough for any sheet, small enough for a design file."""


def embedded_uri(art: Art) -> str:
    """``art`` as a ``data:`` URI to keep in the design: turned upright, its metadata (EXIF,
    GPS, comments) dropped by decoding and encoding it again, at most :data:`EMBED_PIXELS`
    on its long side and :data:`~shipyard.core.artcheck.MAX_EMBEDDED_ART_BYTES` in all. An SVG
    (already free of scripts and outside references) is kept as it is."""
    from shipyard.core.artcheck import MAX_EMBEDDED_ART_BYTES

    if art.kind == "svg":
        data, mime = art.data, art.mime
    else:
        from shipyard.render.pictureworker import PictureProblem, run

        try:
            made = run("scale", art.data, art.kind, EMBED_PIXELS, True)
        except PictureProblem as exc:
            raise InputError.single(f"the picture cannot be decoded: {exc}", file=art.source, path="art") from None
        if made is None:
            raise InputError.single("the picture cannot be decoded", file=art.source, path="art")
        data, mime = made[0], made[1]
    if len(data) > MAX_EMBEDDED_ART_BYTES:
        raise InputError.single(
            f"the picture is {len(data):,} bytes embedded; an embedded picture is limited to "
            f"{MAX_EMBEDDED_ART_BYTES:,}",
            file=art.source,
            path="art",
            allowed="a smaller picture, or a file beside the design",
        )
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def art_left_out(loaded: Any) -> list[str]:
    """ "NAME: why" for each of ``loaded`` (designs as read) whose art the pages and pictures
    leave out: what an export tells the user beside the files it wrote."""
    notes = []
    for ld in loaded:
        problem = art_refusal(ld.design, ld.file, page_art_problem)
        if problem is not None:
            name = getattr(ld.design, "name", None) or getattr(getattr(ld.design, "root", None), "name", None)
            notes.append(f"{name or ld.file or 'a design'}: {art_finding(problem).message}")
    return notes


def entry_art(design: Any, design_file: Path | str | None) -> dict[str, Any] | None:
    """What a design entry of the templates carries as ``art``: the scaled picture, or None."""
    art, _ = art_of(design, design_file)
    if art is None:
        return None
    scaled = page_art(art)
    return scaled.as_json() if scaled is not None else None


__all__ = [
    "ART_PIXELS",
    "EMBED_PIXELS",
    "PageArt",
    "art_left_out",
    "decode",
    "embedded_uri",
    "entry_art",
    "page_art",
    "page_art_problem",
    "thumbnail",
]
