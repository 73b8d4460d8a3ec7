"""Large inputs: how printing a big design and loading a big user catalog grow with size.

Issue 18: 50 x High Powered Lasers printed in 3 s, 100 in 7 s, 200 in 35 s (superlinear),
and a 60,000-item catalog took 46 s without the cache. This script prints the Rebel Fighter
with n weapons, n technologies and n accessories for growing n, and loads a user catalog
of growing size with the cache off, and reports each time as a ratio to the smallest size
measured in the same run (linear growth: the ratio stays at or below the size ratio).

A Space Fury force of n fighters, each with its pilot, and n reserve pilots (issue 25:
200 x 200 printed in about 14 s) is printed for the same n, and the largest is also timed
as `shipyard print` against `shipyard check` of the same file, both whole processes (goal:
at most 2x, or at most 3 s).

    .venv/bin/python bench/bench_large.py            # ~2 min
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from shipyard.core.catalog import load_catalog  # noqa: E402
from shipyard.core.catalogbuild import MAX_USER_FOLDER_BYTES  # noqa: E402
from shipyard.render.printing import print_designs  # noqa: E402
from shipyard.render.worker import RenderWorker  # noqa: E402
from tests.largest import fury_force  # noqa: E402

SIZES = (25, 50, 100, 200)
REBEL = ROOT / "catalogs" / "space-fighter-alpha" / "examples" / "rebel-fighter.ship"


def cpu() -> float:
    """CPU seconds of this process and its finished children (the render worker's share is in the wall time)."""
    r, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime + c.ru_utime + c.ru_stime


def design(folder: Path, n: int) -> Path:
    doc = json.loads(REBEL.read_text())
    doc["design"]["weapons"] = [{"weapon": "light-laser"}] * n
    doc["design"]["technology"] = [{"id": "high-powered-lasers"}] * n
    doc["design"]["accessories"] = [{"id": "landing-gear"}] * n
    path = folder / f"big-{n}.ship"
    path.write_text(json.dumps(doc))
    return path


Row = tuple[str, float, float, str]  # what, seconds, ratio to the smallest, note


def bench_print(folder: Path) -> list[Row]:
    rows: list[Row] = []
    with RenderWorker() as worker:
        print_designs([REBEL], folder / "warm.pdf", workers=[worker], use_user_folder=False)
        base = None
        for n in SIZES:
            path = design(folder, n)
            best = float("inf")
            for i in range(2):
                start = time.perf_counter()
                result = print_designs([path], folder / f"{n}-{i}.pdf", workers=[worker], use_user_folder=False)
                best = min(best, time.perf_counter() - start)
            base = base or best
            rows.append((f"print n={n}", best, best / base, f"size x{n / SIZES[0]:g}, {result.pages} pages"))
    return rows


def force(folder: Path, n: int) -> Path:
    """A force of ``n`` sample fighters, each flown by a pilot of its own, and ``n`` reserves."""
    path = folder / f"force-{n}.ship"
    path.write_text(json.dumps(fury_force(n)))
    return path


def bench_force(folder: Path) -> tuple[list[Row], str]:
    rows: list[Row] = []
    with RenderWorker() as worker:
        base = None
        for n in SIZES:
            path = force(folder, n)
            start = time.perf_counter()
            result = print_designs([path], folder / f"force-{n}.pdf", workers=[worker], use_user_folder=False)
            took = time.perf_counter() - start
            base = base or took
            rows.append((f"fury force {n}x{n}", took, took / base, f"size x{n / SIZES[0]:g}, {result.pages} pages"))
    path = folder / f"force-{SIZES[-1]}.ship"
    py = [sys.executable, "-m", "shipyard"]
    check = [*py, "check", str(path), "--no-user-catalog"]
    printed = [*py, "print", str(path), "-o", str(folder / "f.pdf"), "--no-user-catalog", "--force", "--paper", "a4"]
    times: dict[str, list[float]] = {"check": [], "print": []}
    for _ in range(3):
        for what, cmd in (("check", check), ("print", printed)):
            start = time.perf_counter()
            subprocess.run(cmd, capture_output=True, check=what == "print")
            times[what].append(time.perf_counter() - start)
    c, p = statistics.median(times["check"]), statistics.median(times["print"])
    line = (
        f"fury force {SIZES[-1]}x{SIZES[-1]}: shipyard print {p:.2f} s, shipyard check {c:.2f} s "
        f"(medians of 3) -> {p / c:.2f}x (goal <= 2x or <= 3 s: {'PASS' if p / c <= 2 or p <= 3 else 'MISS'}); "
        f"load {os.getloadavg()[0]:.1f}"
    )
    return rows, line


def user_catalog(folder: Path, entries: int) -> Path:
    house = folder / f"house-{entries}" / "space-fighter-alpha"
    house.mkdir(parents=True)
    lines = [f"  - {{id: acc-{i}, name: Accessory {i}, cost: 1, source: House}}" for i in range(entries)]
    (house / "many.yaml").write_text("accessories:\n" + "\n".join(lines) + "\n")
    return house.parent


def bench_catalog(folder: Path) -> list[Row]:
    os.environ["SHIPYARD_NO_CACHE"] = "1"
    rows: list[Row] = []
    entry_bytes = len("  - {id: acc-1000, name: Accessory 1000, cost: 1, source: House}\n")
    most = MAX_USER_FOLDER_BYTES // entry_bytes
    base = None
    for entries in (most // 8, most // 4, most // 2, most):
        house = user_catalog(folder, entries)
        start = cpu()
        load_catalog("space-fighter-alpha", [house], use_user_folder=False)
        took = cpu() - start
        base = base or took
        rows.append((f"catalog {entries} entries", took, took / base, f"size x{entries / (most // 8):g}, CPU s"))
    return rows


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        forces, fury = bench_force(Path(tmp))
        rows = bench_print(Path(tmp)) + forces + bench_catalog(Path(tmp))
    for what, seconds, ratio, note in rows:
        print(f"{what:<24} {seconds:7.2f} s  x{ratio:5.2f}  ({note})")
    print(fury)
    print("SUMMARY " + "; ".join(f"{what} x{ratio:.2f}" for what, _, ratio, _ in rows) + "; " + fury.split(": ", 1)[1])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
