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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rounds", type=int, default=2, help="times every job is made each way (default 2)")
    parser.add_argument("--sheets", default="cards,record", help="sheet kinds to make (default cards,record)")
    args = parser.parse_args()

    from _inprocess import JobsHere, swapping

    from shipyard import _speedups
    from shipyard.core.registry import rulesets
    from shipyard.render import worker
    from shipyard.render.pdf import warm_up
    from shipyard.render.printing import print_designs

    if not _speedups.enabled():
        print("SHIPYARD_NO_SPEEDUPS is set: nothing to compare")
        return 1
    import weasyprint.draw as draw_module

    stroked = draw_module.draw_border
    if not getattr(stroked, "_shipyard_stroked", False):
        print("the dotted-rule speed-up is not in place: nothing to compare")
        return 1
    own = stroked._shipyard_original
    size = {"stroked": 0, "dots": 0}

    def seen(mode: str, name: str, pdf: bytes) -> None:
        size[mode] += len(pdf)

    jobs = JobsHere(("stroked", "dots"), swapping(draw_module, "draw_border", {"stroked": stroked, "dots": own}), seen)
    warm_up(worker.WARM_UP_HTML)
    sheets = [s for s in args.sheets.split(",") if s]
    files = [ship for info in rulesets() for ship in sorted(info.samples.glob("*.ship"))]
    out = Path(__file__).resolve().parent / ".dotted-rules-bench.pdf"
    try:
        for round_ in range(args.rounds):
            for ship in files:
                for sheet in sheets:
                    name = f"{ship.parent.parent.name}/{ship.stem} {sheet}"
                    for mode in jobs.turns(round_):
                        job_worker = jobs.worker(mode, name)
                        print_designs([ship], out, sheet=sheet, workers=[job_worker], use_user_folder=False)
    finally:
        out.unlink(missing_ok=True)
    spent = jobs.spent
    cpu, pdf = spent["stroked"] / spent["dots"], size["stroked"] / size["dots"]
    jobs_made = len(files) * len(sheets) * args.rounds
    kinds = ", ".join(sheets)
    print(f"{jobs_made} jobs each way ({kinds}): stroked {spent['stroked']:.2f} CPU-s, dot by dot {spent['dots']:.2f}")
    print(f"PDF bytes: stroked {size['stroked']:,}, dot by dot {size['dots']:,}")
    print(f"SUMMARY bench_dotted_rules: stroked rules {cpu:.3f}x the CPU of dot by dot, {pdf:.3f}x the PDF bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
