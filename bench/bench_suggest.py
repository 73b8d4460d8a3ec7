"""The hardening figures of issue 28: the fix search's budget, and a huge plug-in manifest.

1. ``shipyard check --suggest`` of the largest design each ruleset's size limits allow
   (tests/largest.py: a design that breaks a rule, every list of entries filled to its
   limit, every map as far as its limit or its catalog allows; for Space Fury also a force
   of 500 fighters and 500 reserve pilots, its lists' limits), as a process: wall time and
   peak memory (the process's own maximum resident
   set, from ``wait4``). Goals: under 2 s (of CPU time: the machines are shared) and
   under 300 MB. The baseline in the same run
   is ``shipyard check`` of the same file without ``--suggest``.
2. Growth from 10 to 200 entries a list (the same designs with each list cut to 10): the
   time ratio against the design's size ratio; the goal is at most linear (time ratio at
   most the size ratio).
3. ``shipyard --help`` with a plug-in whose manifest is 5 MB of invalid YAML installed
   (on PYTHONPATH, with its dist-info) against ``shipyard --help`` without it, runs
   interleaved, medians compared. Goal: at most 1.2x.

Every process runs with the bytecode cache an installed Shipyard has (``bench_cli.child_env``):
with PYTHONDONTWRITEBYTECODE set, as on this machine, each run would otherwise compile every
Shipyard module again (~0.3 s CPU) and charge it to the command.

Run from the repository root: ``.venv/bin/python bench/bench_suggest.py`` (~1-2 min).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_cli import child_env  # noqa: E402  (the same process environment as the check benchmark)

from tests.largest import FAILING_SEEDS, largest_failing, largest_failing_force  # noqa: E402

GOAL_SECONDS, GOAL_MB, GOAL_HELP_RATIO = 2.0, 300, 1.2


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, peak MB) of one process.

    The goal of 2 s is judged on CPU time (user + system): on a machine shared by several
    jobs the wall time of a process waiting for a core says more about the others."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def env_without_pythonpath() -> dict[str, str]:
    """The timed processes' environment: with the bytecode cache a user's installation has
    (``bench_cli.child_env``: one PYTHONPYCACHEPREFIX for every run, written by the first),
    not recompiling every Shipyard module each run when PYTHONDONTWRITEBYTECODE is set."""
    env = child_env(os.environ["SHIPYARD_BENCH_PYCACHE"])
    env.pop("SHIPYARD_DEBUG", None)
    return env


def shipyard(*args: str | Path) -> list[str]:
    return [sys.executable, "-m", "shipyard", *map(str, args)]


def suggest_figures(folder: Path, runs: int) -> tuple[list[str], bool]:
    env = env_without_pythonpath()
    lines, ok = [], True
    builders = {r: partial(largest_failing, r) for r in sorted(FAILING_SEEDS)}
    builders["space-fury force"] = largest_failing_force
    for ruleset, build in builders.items():
        sizes, times = {}, {}
        for entries in (10, 200):
            doc = build(None if entries == 200 else entries)
            path = folder / f"{ruleset.replace(' ', '-')}-{entries}.ship"
            path.write_text(json.dumps(doc), encoding="utf-8")
            sizes[entries] = path.stat().st_size
            suggest = [timed(shipyard("check", path, "--suggest", "--no-user-catalog"), env) for _ in range(runs)]
            times[entries] = statistics.median(cpu for _, cpu, _ in suggest)
            if entries == 200:
                plain = statistics.median(
                    timed(shipyard("check", path, "--no-user-catalog"), env)[1] for _ in range(runs)
                )
                wall = statistics.median(w for w, _, _ in suggest)
                peak = max(m for _, _, m in suggest)
                hit = times[200] < GOAL_SECONDS and peak < GOAL_MB
                ok &= hit
                lines.append(
                    f"{ruleset:20} largest ({sizes[200] / 1024:5.1f} KB): check --suggest {times[200]:.2f} s CPU "
                    f"({wall:.2f} s wall), {peak:.0f} MB; {times[200] / plain:.2f}x plain check ({plain:.2f} s CPU)  "
                    f"{'ok' if hit else 'MISS'} (goal < {GOAL_SECONDS} s, < {GOAL_MB} MB)"
                )
        growth, size_ratio = times[200] / times[10], sizes[200] / sizes[10]
        linear = growth <= size_ratio
        ok &= linear
        lines.append(
            f"{'':20} 10 entries a list -> the limits: size {size_ratio:.1f}x, time {growth:.2f}x  "
            f"{'ok' if linear else 'MISS'} (goal: time ratio <= size ratio)"
        )
    return lines, ok


def help_figure(folder: Path, runs: int) -> tuple[list[str], bool]:
    site = folder / "site"
    package = site / "huge_rules"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "manifest.yaml").write_text("id: huge\nkinds: [\n" + "  {id: x, name: [unclosed\n" * 200_000)
    dist = site / "huge_rules-1.0.dist-info"
    dist.mkdir()
    (dist / "entry_points.txt").write_text("[shipyard.rulesets]\nhuge = huge_rules:manifest.yaml\n", encoding="utf-8")
    size_mb = (package / "manifest.yaml").stat().st_size / 1e6
    plain_env = env_without_pythonpath()
    with_env = {**plain_env, "PYTHONPATH": str(site)}
    timed(shipyard("--help"), with_env)  # the first run may write the manifest cache
    without, with_plugin = [], []
    for _ in range(runs):
        without.append(timed(shipyard("--help"), plain_env)[1])
        with_plugin.append(timed(shipyard("--help"), with_env)[1])
    ratio = statistics.median(with_plugin) / statistics.median(without)
    hit = ratio <= GOAL_HELP_RATIO
    median = statistics.median(with_plugin)
    return [
        f"shipyard --help with a {size_mb:.1f} MB invalid plug-in manifest: {median:.3f} s CPU, "
        f"{ratio:.2f}x without ({statistics.median(without):.3f} s CPU)  {'ok' if hit else 'MISS'} "
        f"(goal <= {GOAL_HELP_RATIO}x)"
    ], hit


def main() -> int:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")  # a cache of its own, warmed by the first runs
        os.environ["SHIPYARD_BENCH_PYCACHE"] = str(Path(tmp) / "pycache")  # the bytecode, likewise
        suggest, ok_suggest = suggest_figures(Path(tmp), runs)
        helped, ok_help = help_figure(Path(tmp), max(runs, 7))
    for line in [*suggest, *helped]:
        print(line)
    verdicts = f"suggest-budget {'ok' if ok_suggest else 'MISS'}; help-with-huge-manifest {'ok' if ok_help else 'MISS'}"
    print(f"SUMMARY {verdicts}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
