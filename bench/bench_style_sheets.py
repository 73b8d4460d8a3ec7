"""A worker's jobs with their ``<style>`` sheets kept, against the same jobs parsing every sheet.

Every sample of every installed ruleset is made into its record sheet, flat and fillable,
the way a render worker makes a job (``shipyard.render.worker._run``), in this one process.
Each job is done twice in a row: once with the parsed sheets kept
(:func:`shipyard._speedups.keep_parsed_style_sheets`) and once with WeasyPrint parsing
them, in turns (kept first, then plain first), so that the machine's drift reaches both
alike. CPU seconds of each are summed; the figure is kept / plain (lower is better) and
the PDFs of both are checked to be the same bytes.

Run: .venv/bin/python bench/bench_style_sheets.py [--rounds N]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rounds", type=int, default=2, help="times every job is made each way (default 2)")
    args = parser.parse_args()

    import weasyprint
    import weasyprint.css as css_module
    from _inprocess import JobsHere, swapping

    from shipyard import _speedups
    from shipyard.core.registry import rulesets
    from shipyard.render import worker
    from shipyard.render.pdf import warm_up
    from shipyard.render.printing import print_designs

    if not _speedups.enabled():
        print("SHIPYARD_NO_SPEEDUPS is set: nothing to compare")
        return 1
    kept, plain = css_module.CSS, weasyprint.CSS
    made: dict[str, bytes] = {}
    differ: list[str] = []

    def seen(mode: str, name: str, pdf: bytes) -> None:
        if made.setdefault(name, pdf) != pdf:
            differ.append(name)

    jobs = JobsHere(("kept", "plain"), swapping(css_module, "CSS", {"kept": kept, "plain": plain}), seen)
    warm_up(worker.WARM_UP_HTML)
    files = [ship for info in rulesets() for ship in sorted(info.samples.glob("*.ship"))]
    out = Path(__file__).resolve().parent / ".style-sheets-bench.pdf"
    try:
        for round_ in range(args.rounds):
            for ship in files:
                for fillable in (False, True):
                    name = f"{ship.parent.parent.name}/{ship.stem}{' fillable' if fillable else ''}"
                    for mode in jobs.turns(round_):
                        job_worker = jobs.worker(mode, name)
                        print_designs([ship], out, workers=[job_worker], use_user_folder=False, fillable=fillable)
    finally:
        out.unlink(missing_ok=True)
    spent = jobs.spent
    ratio = spent["kept"] / spent["plain"]
    jobs = len(files) * 2 * args.rounds
    print(f"{jobs} jobs each way: kept {spent['kept']:.2f} CPU-s, parsed every time {spent['plain']:.2f} CPU-s")
    print(f"style sheets kept: {ratio:.3f}x the CPU of parsing them for every job (lower is better)")
    print(f"PDFs the same bytes both ways: {'yes' if not differ else 'NO: ' + ', '.join(differ)}")
    same = "same" if not differ else "DIFFER"
    print(f"SUMMARY bench_style_sheets: kept sheets {ratio:.3f}x the CPU of parsing every job's, PDFs {same}")
    return 0 if not differ else 1


if __name__ == "__main__":
    sys.exit(main())
