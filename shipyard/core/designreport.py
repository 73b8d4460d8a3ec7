"""A design's report, built in one place: :func:`design_report`.

The report of a design is what the rules say of it (:func:`shipyard.core.evaluate.evaluate`)
and what Shipyard itself says of it beside the rules: that its picture (``art``) is left out,
and why (:func:`shipyard.core.artcheck.art_finding`). Every output shows this report and
computes no rule itself: ``shipyard check`` and its ``--json``, ``set`` and ``compare``,
sheets, cards, tokens, fleet books, the Foundry export, the hangar's facts, a roster's
members, the editor's findings panel and its comparison. A module that calls ``evaluate``
itself would miss the art finding or add it its own way; ``tests/test_one_report.py`` refuses
one (the engine, which evaluates proposals while searching for fixes, is the exception it names).

The picture: the core reads its file facts and never decodes pixels (the picture worker does,
in a process of its own: :mod:`shipyard.render.pictureworker`). So the art finding comes from
the file facts (:func:`shipyard.core.artcheck.art_refusal`: missing, refused kind, too many
pixels by its header, outside the design's folder, a hostile SVG), and an output that draws the
picture passes ``picture_problem``, the renderer's one answer to "can these pixels be shown"
(:func:`shipyard.render.art.page_art_problem`), so a picture whose header is whole but whose
pixels cannot be decoded is reported there too, with the same finding. ``shipyard check``
draws nothing and leaves it out: a finding that needs the picture decoded belongs to the
outputs that decode it (docs/guide/art.md).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from shipyard.core.artcheck import Art, art_finding, art_refusal
from shipyard.core.evaluate import evaluate
from shipyard.core.model import Catalog
from shipyard.core.report import Report

PictureProblem = Callable[[Art], str | None]
"""Why a picture that passed the core's checks cannot be shown after all (None: it can)."""


def design_report(
    design: Any,
    catalog: Catalog,
    design_file: Path | str | None = None,
    *,
    preset: str | None = None,
    picture_problem: PictureProblem | None = None,
) -> Report:
    """The report of ``design`` (read from ``design_file``, which its art is relative to; None
    for a design not saved): the rules' evaluation against ``catalog`` (under ``preset`` when
    given), then the ``art-missing`` warning when its picture is left out. ``picture_problem``:
    what an output that draws the picture learns by decoding it (see the module's docstring).

    Raises :class:`~shipyard.core.errors.InputError` when a ruleset's plug-in refuses the
    design (:mod:`shipyard.core.plugincode`), as evaluation does."""
    report = evaluate(design, catalog, preset)
    problem = art_refusal(design, design_file, picture_problem)
    if problem is None:
        return report
    return report.model_copy(update={"findings": [*report.findings, art_finding(problem)]})


__all__ = ["PictureProblem", "design_report"]
