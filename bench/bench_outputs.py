"""Exporting every sample as a Foundry VTT actor against printing their stat cards.

Both in one process, on the same designs read once (all samples of every ruleset): the
export makes each design's actor JSON (from its table) and token PNG with an empty token
cache (every token drawn); the baseline prints each ruleset's stat cards to a PDF with
warm render workers, as `shipyard print --sheet cards` does. Rounds alternate, so the
shared machine's load touches both alike; the figure is the ratio of the medians
(goal: at most 1.5x).

Run: .venv/bin/python bench/bench_outputs.py [--rounds N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    from shipyard.core import registry
    from shipyard.core.designfile import load_design, sample_files
    from shipyard.exports import foundry_files
    from shipyard.render.printing import print_loaded
    from shipyard.render.worker import RenderWorker

    groups = [
        [load_design(f, use_user_folder=False) for f in sample_files(info.samples)] for info in registry.rulesets()
    ]
    every = [ld for g in groups for ld in g]
    workers = [RenderWorker(), RenderWorker()]
    export_times, card_times = [], []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for n in range(-1, args.rounds):  # round -1 warms both up and is not counted
                os.environ["XDG_CACHE_HOME"] = str(Path(tmp) / f"cache{n}")  # no token drawn before
                start = time.perf_counter()
                for r, group in enumerate(groups):  # a folder a ruleset: two rulesets have a scout.ship
                    folder = Path(tmp) / f"vtt{r}"
                    folder.mkdir(exist_ok=True)
                    for name, data in foundry_files(group):
                        (folder / name).write_bytes(data)
                took_export = time.perf_counter() - start
                start = time.perf_counter()
                for r, group in enumerate(groups):
                    print_loaded(group, Path(tmp) / f"cards{r}.pdf", sheet="cards", workers=workers)
                took_cards = time.perf_counter() - start
                if n >= 0:
                    export_times.append(took_export)
                    card_times.append(took_cards)
    finally:
        for w in workers:
            w.close()
    export, cards = statistics.median(export_times), statistics.median(card_times)
    print(f"{len(every)} samples, {args.rounds} rounds (medians)")
    print(f"export foundry (actors + tokens, cold token cache): {export:.3f} s")
    print(f"print their stat cards (warm workers):              {cards:.3f} s")
    ratio = export / cards
    print(f"ratio: {ratio:.2f}x (goal: at most 1.5x)")
    print(f"SUMMARY foundry export / stat cards: {ratio:.2f}x {'ok' if ratio <= 1.5 else 'MISS'} (goal <= 1.5x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
