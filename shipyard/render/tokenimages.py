"""Token PNGs without a page: the tokens of a ruleset's designs drawn by the one token
drawing the printed sheet uses too (``templates/common/token_face.html``), rasterized by
resvg, transparent outside each token's shape.

resvg draws in the picture worker (:mod:`shipyard.render.pictureworker`), never in the
editor's or the command line's process: an SVG picture that crashes it costs only that
token's art (drawn again without it, with a warning), never the process.

A PNG of a token used to be cut from a printed tokens sheet, which made every export go
through WeasyPrint (a process start, the fonts, the page layout), which cost an export
far more than checking its designs. The token's SVG needs no page: Jinja writes each
token's SVG and resvg draws it straight to a PNG. The printed sheet places the same SVG
of each token on its page, so the look lives in one template.

Drawn tokens are kept in the user's cache folder by the digest of their SVG (and the
resolution and resvg's version), at most :data:`CACHE_LIMIT` of them: exporting a fleet
again after changing one design draws that one token, not all of them. A token whose
design, art or template changed has another SVG, so another digest: nothing stale is
ever used. Within one export each distinct SVG is drawn once: tokens show the name cut to
what fits, so the ships of one class ("Kestrel 001", "Kestrel 002") often have the same
token, and drawing is most of an export's time (43 drawings instead of 100 for the 100
designs of bench/bench_art.py).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from shipyard.core.designfile import LoadedDesign
from shipyard.core.report import Report
from shipyard.render.pictureworker import PictureProblem, draw_svgs
from shipyard.render.tokens import TokenSpec, token_face
from shipyard.render.worker import RenderError

CACHE_LIMIT = 1000
"""Token PNGs the cache keeps (about 6 KB each at 150 dpi), the newest first."""
CACHE_FILE = "token-images.json"
PAD_MM = 0.3
"""Room round a token in its PNG: the cut line's half width and a hair, so its edge is kept."""


def _token_parts(
    loaded: Sequence[LoadedDesign], reports: Sequence[Report], token: TokenSpec
) -> tuple[list[Path], list[dict[str, Any]], dict[str, Any]]:
    """The template folders, each design's token face (from the table of what it shows) and the token's spec."""
    from shipyard.core.registry import get
    from shipyard.core.resources import builtin_template_root
    from shipyard.render.context import design_entry, template_dirs

    ruleset = loaded[0].ruleset
    entries = [design_entry(ld, report) for ld, report in zip(loaded, reports, strict=True)]
    faces = [token_face(e, token) for e in entries]
    dirs = template_dirs(ruleset, [], get(ruleset).templates, builtin_template_root() / "common")
    return list(dirs), faces, token.as_json()


def token_svgs(loaded: Sequence[LoadedDesign], reports: Sequence[Report], token: TokenSpec) -> list[str]:
    """Each design's token as the SVG its PNG is drawn from (all of one ruleset)."""
    from shipyard.render.templates import render_html

    if not loaded:
        return []
    dirs, faces, spec = _token_parts(loaded, reports, token)
    return [render_html(dirs, "token_image.html", {"t": t, "token": spec, "pad": PAD_MM}) for t in faces]


def token_images(
    loaded: Sequence[LoadedDesign],
    reports: Sequence[Report],
    token: TokenSpec,
    dpi: int,
    left_out: list[str] | None = None,
) -> list[bytes]:
    """One PNG per design (all of one ruleset): its token, and its back beside it when asked for.

    Drawn in the picture worker (:mod:`shipyard.render.pictureworker`); a token whose art
    the worker cannot draw (it crashed or ran out of time on it) is drawn again without
    the art, and "NAME: why" is added to ``left_out``."""
    from importlib.metadata import version

    from shipyard.core import cachefile
    from shipyard.render.templates import render_html

    if not loaded:
        return []
    dirs, faces, spec = _token_parts(loaded, reports, token)
    svgs = [render_html(dirs, "token_image.html", {"t": t, "token": spec, "pad": PAD_MM}) for t in faces]
    digests = [hashlib.sha256(svg.encode("utf-8")).hexdigest() for svg in svgs]
    key = ("token-png", version("resvg-py"), dpi)
    kept = cachefile.read(CACHE_FILE, key)
    cached = {d: png for d, png in (kept.items() if isinstance(kept, dict) else ()) if isinstance(png, bytes)}
    # designs whose tokens read alike (a fleet of one class) share one drawing
    wanted = {d: svg for d, svg in zip(digests, svgs, strict=True) if d not in cached}
    drawn = dict(zip(wanted, draw_svgs(list(wanted.values()), dpi), strict=True))
    for n, d in enumerate(digests):
        made = drawn.get(d)
        if isinstance(made, PictureProblem):  # the art made the drawing fail: the token without it
            bare = render_html(dirs, "token_image.html", {"t": {**faces[n], "art": None}, "token": spec, "pad": PAD_MM})
            (again,) = draw_svgs([bare], dpi)
            if isinstance(again, PictureProblem):
                raise RenderError(f"{reports[n].name}: the token cannot be drawn: {again}")
            digests[n] = d = hashlib.sha256(bare.encode("utf-8")).hexdigest()
            drawn[d] = again
            if left_out is not None:
                left_out.append(f"{reports[n].name}: the design's art is left out of its token: {made}")
    pngs: dict[str, bytes] = {}
    for d in digests:
        if d not in pngs:
            made = cached.get(d) or drawn[d]
            assert isinstance(made, bytes)
            pngs[d] = made
    if any(d not in cached for d in pngs):  # the ones used now kept last, so they are dropped last
        newest = {**{d: png for d, png in cached.items() if d not in pngs}, **pngs}
        cachefile.write(CACHE_FILE, key, dict(list(newest.items())[-CACHE_LIMIT:]))
    return [pngs[d] for d in digests]


__all__ = ["CACHE_FILE", "CACHE_LIMIT", "PAD_MM", "token_images", "token_svgs"]
