"""What Fix... may try for a consequence filled in a slot the ship's Scale lacks.

Lowering numbers and dropping list entries cannot reach it: the cure is to raise the
Scale to the slot's ``min_scale`` (the catalog's: Extreme from Scale 6) or to leave the
consequence out (untick it). Both read the finding's own figures: ``actual`` is the
ship's Scale, ``limit`` the slot's lowest Scale.
"""

from __future__ import annotations

from typing import Any

from shipyard.core.model import Catalog
from shipyard.core.report import Report


def fix_hints(design: Any, report: Report, catalog: Catalog) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for f in report.findings:
        if f.code == "consequence-not-available" and f.path:
            if isinstance(f.limit, int) and isinstance(f.actual, int) and f.limit > f.actual:
                out.append(("scale", f.limit))
            out.append((f.path, None))
    return out
