"""Time fix proposals (they run when the user clicks "Fix...") and ``shipyard compare`` as a process.

Run from the repository root::

    .venv/bin/python bench/bench_compare_fix.py [--rounds 11]

1. ``propose(design, catalog)`` for every sample that does not pass, per ruleset:
   median and max of ``--rounds`` calls after one warm-up, beside the median of one
   ``evaluate`` of the same design (the unit of work the search repeats). Goal: the worst
   sample's median under 200 ms.
2. ``shipyard compare A B`` of two samples as a whole process, against
   ``python -c "import pydantic, jinja2"``, alternating round by round; goal: at most
   2.5x (as ``shipyard check`` is). Both commands run with the bytecode cache a user's
   installation has (see ``bench_cli.child_env``: a fresh PYTHONPYCACHEPREFIX shared by
   both, instead of recompiling every Shipyard module when PYTHONDONTWRITEBYTECODE is set).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_cli import child_env  # the same process environment as the check benchmark

ROOT = Path(__file__).resolve().parents[1]
GOAL_MS = 200.0
GOAL_RATIO = 2.5


def _median_ms(fn, rounds: int) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    fn()
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), max(times)


def bench_proposals(rounds: int) -> float:
    from shipyard.core.designfile import load_design
    from shipyard.core.evaluate import evaluate
    from shipyard.core.fixes import propose
    from shipyard.core.registry import rulesets

    worst = 0.0
    print(f"{'sample':<40} {'proposals':>9} {'median ms':>10} {'max ms':>8} {'evaluate ms':>12} {'ratio':>7}")
    for info in rulesets():
        for file in sorted(info.samples.glob("*.ship")):
            presets = load_design(file, use_user_folder=False).catalog.presets
            for preset in sorted(presets):
                loaded = load_design(file, preset=preset, use_user_folder=False)
                if evaluate(loaded.design, loaded.catalog).valid:
                    continue
                found = propose(loaded.design, loaded.catalog)
                med, top = _median_ms(lambda ld=loaded: propose(ld.design, ld.catalog), rounds)
                ev, _ = _median_ms(lambda ld=loaded: evaluate(ld.design, ld.catalog), max(rounds, 21))
                worst = max(worst, med)
                label = f"{file.stem} ({loaded.preset})"
                print(f"{label:<40} {len(found):>9} {med:>10.1f} {top:>8.1f} {ev:>12.2f} {med / ev:>6.0f}x")
    return worst


def bench_compare(rounds: int) -> float:
    examples = ROOT / "catalogs" / "space-fighter-alpha" / "examples"
    compare = [
        sys.executable,
        "-m",
        "shipyard",
        "compare",
        str(examples / "rebel-fighter.ship"),
        str(examples / "rebel-frigate.ship"),
        "--no-user-catalog",
    ]
    baseline = [sys.executable, "-c", "import pydantic, jinja2"]
    runs: dict[str, list[float]] = {"compare": [], "baseline": []}
    with tempfile.TemporaryDirectory(prefix="shipyard-bench-pyc-") as prefix:
        env = child_env(prefix)
        for cmd in (compare, baseline, compare, baseline):  # warm-up (and the bytecode cache written)
            subprocess.run(cmd, capture_output=True, check=False, env=env, cwd=ROOT)
        for _ in range(rounds):
            _round(runs, (("compare", compare), ("baseline", baseline)), env)
    c, b = statistics.median(runs["compare"]), statistics.median(runs["baseline"])
    print(
        f"shipyard compare (process)   {c:8.1f} ms\npython -c 'import pydantic, jinja2' {b:8.1f} ms\nratio {c / b:.2f}x"
    )
    return c / b


def _round(runs: dict[str, list[float]], commands: tuple[tuple[str, list[str]], ...], env: dict[str, str]) -> None:
    """One run of each command, one after the other, so a busy neighbour slows both alike."""
    for name, cmd in commands:
        t = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, check=False, env=env, cwd=ROOT)
        runs[name].append((time.perf_counter() - t) * 1000)
        if name == "compare" and proc.returncode not in (0, 1):
            raise SystemExit(f"shipyard compare failed: {proc.stderr.decode()[-2000:]}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=11)
    args = parser.parse_args()
    worst = bench_proposals(args.rounds)
    ratio = bench_compare(args.rounds)
    print(
        f"SUMMARY proposals worst median {worst:.1f} ms "
        f"(goal < {GOAL_MS:.0f}: {'PASS' if worst < GOAL_MS else 'MISS'}); "
        f"compare {ratio:.2f}x baseline (goal <= {GOAL_RATIO}: {'PASS' if ratio <= GOAL_RATIO else 'MISS'})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
