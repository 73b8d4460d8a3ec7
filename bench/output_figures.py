"""How many figures and states each output of every sample carries as the record sheet does.

For every sample design of every ruleset and three designs with recorded state (damage on
a ship's systems and an empty power bank, consequences taken, a pilot's experience ticked),
each output is made once and checked against the design's table (tests/outputs_agree.py):
per output, the figures and states checked and how many match. Run:

    .venv/bin/python bench/output_figures.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shipyard.core import registry
from shipyard.core.designfile import load_design, sample_files
from shipyard.render.worker import RenderWorker
from tests.outputs_agree import OUTPUTS, Tally, check_design, make_outputs, misses
from tests.state_designs import state_designs


def main() -> int:
    import tempfile

    workers = [RenderWorker(), RenderWorker()]
    totals = {o: Tally() for o in OUTPUTS}
    results = []
    designs = 0
    try:
        with tempfile.TemporaryDirectory() as tmp:
            extra = state_designs(Path(tmp))
            for info in registry.rulesets():
                files = sample_files(info.samples) + [f for f in extra if f.parent.name == info.id]
                loaded = [load_design(f, use_user_folder=False) for f in files]
                out = make_outputs(loaded, workers)
                for n, f in enumerate(files):
                    by = check_design(out, n)
                    results.append((f"{info.id}/{f.name}", by))
                    designs += 1
                    for o, t in by.items():
                        totals[o].checked += t.checked
                        totals[o].misses += t.misses
    finally:
        for w in workers:
            w.close()
    print(f"{designs} designs ({designs - 3} samples + 3 with recorded state)")
    print(f"{'output':10} {'checked':>8} {'match':>8}")
    for o, t in totals.items():
        print(f"{o:10} {t.checked:8} {t.matched:8}")
    for line in misses(results):
        print("MISS", line)
    checked = sum(t.checked for t in totals.values())
    matched = sum(t.matched for t in totals.values())
    print(f"SUMMARY outputs against the sheet: {matched} of {checked} figures and states match")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
