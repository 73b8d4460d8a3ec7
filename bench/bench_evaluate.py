"""Time ``evaluate(design, catalog)`` on every sample design, against a baseline.

Run from the repository root::

    .venv/bin/python bench/bench_evaluate.py [--min-seconds 0.5] [--min-runs 200]

Each sample design in ``catalogs/space-fighter-alpha/examples/*.ship`` is loaded once
(catalog loading is *not* timed), then ``evaluate`` is called repeatedly, one
``perf_counter_ns`` reading per call, until at least ``--min-seconds`` of calls and
``--min-runs`` calls have been timed. The same loop times the baseline,
``json.loads`` of the same design file's text, right before the design's own loop.

The machine this runs on is shared and noisy, so absolute microseconds are only a rough
indication; the evaluate/baseline ratio, measured in the same run, is the figure to
compare between runs. The goal is an absolute one: median evaluate under 1 ms per design.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from shipyard.core.designfile import load_design
from shipyard.core.evaluate import evaluate

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "catalogs" / "space-fighter-alpha" / "examples"
GOAL_MEDIAN_US = 1000.0  # median evaluate() under 1 ms per design
WARMUP_RUNS = 20
MAX_RUNS = 500_000  # a cap so a very fast baseline cannot loop for ever


@dataclass
class Timing:
    runs: int
    median_us: float
    p95_us: float


def percentile(sorted_values: list[int], fraction: float) -> float:
    """Nearest-rank percentile of already sorted values."""
    if not sorted_values:
        raise ValueError("no samples")
    rank = max(1, min(len(sorted_values), round(fraction * len(sorted_values) + 0.5)))
    return float(sorted_values[rank - 1])


def time_calls(fn: Callable[[], object], *, min_seconds: float, min_runs: int) -> Timing:
    """Warm up, then time single calls of ``fn`` with the garbage collector off."""
    for _ in range(WARMUP_RUNS):
        fn()
    samples: list[int] = []
    budget_ns = int(min_seconds * 1e9)
    clock = time.perf_counter_ns
    gc.collect()
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        total = 0
        while (total < budget_ns or len(samples) < min_runs) and len(samples) < MAX_RUNS:
            start = clock()
            fn()
            elapsed = clock() - start
            samples.append(elapsed)
            total += elapsed
    finally:
        if gc_was_enabled:
            gc.enable()
    gc.collect()
    samples.sort()
    return Timing(
        runs=len(samples),
        median_us=statistics.median(samples) / 1000.0,
        p95_us=percentile(samples, 0.95) / 1000.0,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--min-seconds", type=float, default=0.5, help="timed seconds per design and per baseline (default 0.5)"
    )
    parser.add_argument("--min-runs", type=int, default=200, help="at least this many timed calls (default 200)")
    parser.add_argument("--strict", action="store_true", help="exit with status 1 when some design misses the goal")
    args = parser.parse_args(argv)

    files = sorted(EXAMPLES.glob("*.ship"))
    if not files:
        print(f"bench_evaluate: no sample designs in {EXAMPLES}", file=sys.stderr)
        return 2

    print(f"bench_evaluate: {len(files)} sample designs from {EXAMPLES.relative_to(ROOT)}")
    print(
        f"python {platform.python_version()} ({sys.executable}) on {platform.machine()}; "
        f"gc off while timing; {WARMUP_RUNS} warm-up calls; >= {args.min_runs} calls "
        f"and >= {args.min_seconds:g} s per loop"
    )
    print("baseline: json.loads(<the design file's text>), timed the same way just before each design")
    print()

    header = (
        f"{'design':<28} {'runs':>7} {'median µs':>10} {'p95 µs':>9} "
        f"{'base runs':>9} {'base med µs':>11} {'ratio':>7}  goal <1 ms"
    )
    print(header)
    print("-" * len(header))

    rows: list[tuple[str, Timing, Timing, float, bool]] = []
    for file in files:
        text = file.read_text(encoding="utf-8")
        loaded = load_design(file, use_user_folder=False)
        design, catalog = loaded.design, loaded.catalog
        base = time_calls(lambda text=text: json.loads(text), min_seconds=args.min_seconds, min_runs=args.min_runs)
        timing = time_calls(
            lambda d=design, c=catalog: evaluate(d, c), min_seconds=args.min_seconds, min_runs=args.min_runs
        )
        ratio = timing.median_us / base.median_us
        ok = timing.median_us < GOAL_MEDIAN_US
        rows.append((file.stem, timing, base, ratio, ok))
        print(
            f"{file.stem:<28} {timing.runs:>7} {timing.median_us:>10.1f} {timing.p95_us:>9.1f} "
            f"{base.runs:>9} {base.median_us:>11.2f} {ratio:>6.0f}x  {'PASS' if ok else 'MISS'}"
        )

    print("-" * len(header))
    worst = max(rows, key=lambda r: r[1].median_us)
    ratios = [r[3] for r in rows]
    misses = [r[0] for r in rows if not r[4]]
    verdict = "PASS" if not misses else f"MISS ({', '.join(misses)})"
    print("ratio = evaluate median / json.loads median of the same file (compare ratios between runs, not µs)")
    print()
    print(
        f"SUMMARY bench_evaluate: goal median < 1 ms per design: {verdict}; "
        f"worst median {worst[1].median_us:.1f} µs (p95 {worst[1].p95_us:.1f} µs, {worst[0]}); "
        f"evaluate/json.loads ratio median {statistics.median(ratios):.0f}x "
        f"(range {min(ratios):.0f}x-{max(ratios):.0f}x)"
    )
    return 1 if misses and args.strict else 0


if __name__ == "__main__":
    raise SystemExit(main())
