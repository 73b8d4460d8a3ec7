"""Sheets whose dotted rules are stroked as one line each, against the same sheets drawn dot by dot.

Every sample of every installed ruleset is made into its card sheet and its record sheet,
the way a render worker makes a job (``shipyard.render.worker._run``), in this one process.
Each job is done twice in a row: once with WeasyPrint's border drawing as
:func:`shipyard._speedups.dotted_borders_stroked` leaves it (a dotted or dashed side that
meets no other is one stroked line) and once with WeasyPrint's own (a clip path of one
circle or rectangle per mark), in turns (stroked first, then dot by dot first), so that
the machine's drift reaches both alike. CPU seconds and PDF bytes of each are summed; the
figures are stroked / dot by dot (lower is better).

Run: .venv/bin/python bench/bench_dotted_rules.py [--rounds N] [--sheets cards,record]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rounds", type=int, default=2, help="times every job is made each way (default 2)")
    parser.add_argument("--sheets", default="cards,record", help="sheet kinds to make (default cards,record)")
    args = parser.parse_args()

    from shipyard import _speedups
    from shipyard.core.registry import rulesets
    from shipyard.render import worker
    from shipyard.render.pdf import html_to_pdf, warm_up
    from shipyard.render.printing import print_designs
    from shipyard.render.templates import render_html

    if not _speedups.enabled():
        print("SHIPYARD_NO_SPEEDUPS is set: nothing to compare")
        return 1
    import weasyprint.draw as draw_module

    stroked = draw_module.draw_border
    if not getattr(stroked, "_shipyard_stroked", False):
        print("the dotted-rule speed-up is not in place: nothing to compare")
        return 1
    own = stroked._shipyard_original
    spent = {"stroked": 0.0, "dots": 0.0}
    size = {"stroked": 0, "dots": 0}

    class InThisProcess:
        """A worker's job done here, timed as the mode it is made in."""

        def __init__(self, mode: str, name: str) -> None:
            self.mode, self.name = mode, name

        def render(self, job: Any, timeout: float = 60) -> Any:
            draw_module.draw_border = stroked if self.mode == "stroked" else own
            started = time.process_time()
            try:
                answer = worker._run(job, render_html, html_to_pdf)
            finally:
                draw_module.draw_border = stroked
            spent[self.mode] += time.process_time() - started
            if answer[0] != "ok":
                raise SystemExit(f"{self.name}: {answer}")
            size[self.mode] += len(answer[1])
            return worker.RenderResult(answer[1], [tuple(s) for s in answer[2]], answer[3], answer[4])

        def kill(self) -> None:
            pass

    warm_up(worker.WARM_UP_HTML)
    sheets = [s for s in args.sheets.split(",") if s]
    files = [ship for info in rulesets() for ship in sorted(info.samples.glob("*.ship"))]
    out = Path(__file__).resolve().parent / ".dotted-rules-bench.pdf"
    try:
        for round_ in range(args.rounds):
            for ship in files:
                for sheet in sheets:
                    name = f"{ship.parent.parent.name}/{ship.stem} {sheet}"
                    for mode in ("stroked", "dots") if round_ % 2 == 0 else ("dots", "stroked"):
                        job_worker: Any = InThisProcess(mode, name)
                        print_designs([ship], out, sheet=sheet, workers=[job_worker], use_user_folder=False)
    finally:
        out.unlink(missing_ok=True)
    cpu, pdf = spent["stroked"] / spent["dots"], size["stroked"] / size["dots"]
    jobs = len(files) * len(sheets) * args.rounds
    kinds = ", ".join(sheets)
    print(f"{jobs} jobs each way ({kinds}): stroked {spent['stroked']:.2f} CPU-s, dot by dot {spent['dots']:.2f}")
    print(f"PDF bytes: stroked {size['stroked']:,}, dot by dot {size['dots']:,}")
    print(f"SUMMARY bench_dotted_rules: stroked rules {cpu:.3f}x the CPU of dot by dot, {pdf:.3f}x the PDF bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
