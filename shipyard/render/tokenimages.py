"""Token PNGs without a page: the tokens of a ruleset's designs drawn by the one token
drawing the printed sheet uses too (``templates/common/token_face.html``), rasterized by
resvg, transparent outside each token's shape.

A PNG of a token used to be cut from a printed tokens sheet, which made every export go
through WeasyPrint (a process start, the fonts, the page layout): 100 Foundry actors took
6.7 times as long as checking their designs. The token's SVG needs no page: Jinja writes
each token's SVG and resvg draws it straight to a PNG (a few milliseconds a token). The
printed sheet places the same SVG of each token on its page, so the look lives in one
template.
"""

from __future__ import annotations

from collections.abc import Sequence

from shipyard.core.designfile import LoadedDesign
from shipyard.core.report import Report
from shipyard.render.tokens import TokenSpec, token_face

PAD_MM = 0.3
"""Room round a token in its PNG: the cut line's half width and a hair, so its edge is kept."""


def token_images(loaded: Sequence[LoadedDesign], reports: Sequence[Report], token: TokenSpec, dpi: int) -> list[bytes]:
    """One PNG per design (all of one ruleset): its token, and its back beside it when asked for."""
    import resvg_py

    from shipyard.core.registry import get
    from shipyard.core.resources import builtin_template_root
    from shipyard.render.context import design_entry, template_dirs
    from shipyard.render.templates import render_html

    if not loaded:
        return []
    ruleset = loaded[0].ruleset
    tabletop = get(ruleset).manifest.tabletop
    figure, label = (tabletop.key_figure, tabletop.key_label) if tabletop else (None, None)
    entries = [design_entry(ld, report) for ld, report in zip(loaded, reports, strict=True)]
    faces = [token_face(e, figure, label) for e in entries]
    dirs = template_dirs(ruleset, [], get(ruleset).templates, builtin_template_root() / "common")
    spec = token.as_json()
    return [
        bytes(
            resvg_py.svg_to_bytes(
                svg_string=render_html(dirs, "token_image.html", {"t": t, "token": spec, "pad": PAD_MM}), dpi=dpi
            )
        )
        for t in faces
    ]


__all__ = ["PAD_MM", "token_images"]
