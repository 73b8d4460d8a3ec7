"""Art and tokens figures, each as a ratio against a baseline measured in the same run.

1. A record sheet with a 4000 x 3000 JPEG as its art: `shipyard print` (whole process)
   against the same sheet without art (goal: at most 1.3x). The photo is decoded once at
   an eighth of its size (JPEG draft mode) and scaled to 480 pixels before the page sees it.
2. A tokens sheet for the 100 designs of the fleet-book benchmark (bench_print.py):
   `shipyard print --sheet tokens` against `shipyard print --sheet fleet` of the same
   designs (goal: at most 0.3x).
3. Foundry VTT actors of the same 100 designs: `shipyard export --format foundry`
   (actor JSON and token PNG each) against `shipyard check` of them (goal: under 2x), with
   empty caches for both (cold) and again with the caches the cold run filled (warm).

Run: .venv/bin/python bench/bench_art.py [--rounds N] [--designs N] [--only sheet,tokens,foundry]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_print import ENV, SAMPLES, timed, write_designs

SHIPYARD = [sys.executable, "-m", "shipyard"]


def photo(path: Path) -> None:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (4000, 3000), (20, 30, 60))
    draw = ImageDraw.Draw(image)
    for x in range(0, 4000, 150):
        draw.line([(x, 0), (4000 - x, 3000)], fill=(200, 180, 60), width=10)
    draw.ellipse([1200, 700, 2800, 2300], fill=(180, 40, 40))
    image.save(path, quality=92)


def median_time(cmd: list[str], rounds: int) -> float:
    return statistics.median(timed(cmd)[0] for _ in range(rounds))


def sheet_with_art(tmp: Path, rounds: int) -> float:
    photo(tmp / "photo.jpg")
    doc = json.loads(SAMPLES[0].read_text())
    plain = tmp / "plain.ship"
    plain.write_text(json.dumps(doc))
    doc["design"]["art"] = "photo.jpg"
    arted = tmp / "art.ship"
    arted.write_text(json.dumps(doc))
    size = (tmp / "photo.jpg").stat().st_size
    base = arts = 0.0
    for r in range(rounds):  # interleaved, so a change in the machine's load touches both
        base += timed([*SHIPYARD, "print", str(plain), "-o", str(tmp / f"p{r}.pdf"), "--no-user-catalog"])[0]
        arts += timed([*SHIPYARD, "print", str(arted), "-o", str(tmp / f"a{r}.pdf"), "--no-user-catalog"])[0]
    ratio = arts / base
    print(
        f"record sheet: without art {base / rounds:.2f} s, with a 4000x3000 JPEG ({size:,} bytes) "
        f"{arts / rounds:.2f} s: {ratio:.2f}x (goal <= 1.3x) {'PASS' if ratio <= 1.3 else 'MISS'}"
    )
    return ratio


def tokens_vs_fleet(tmp: Path, n: int, rounds: int) -> float:
    files = [str(f) for f in write_designs(tmp, n)]
    fleet = tokens = 0.0
    for r in range(rounds):
        fleet += timed(
            [
                *SHIPYARD,
                "print",
                *files,
                "--sheet",
                "fleet",
                "--timeout",
                "900",
                "-o",
                str(tmp / f"f{r}.pdf"),
                "--no-user-catalog",
            ]
        )[0]
        tokens += timed(
            [
                *SHIPYARD,
                "print",
                *files,
                "--sheet",
                "tokens",
                "--timeout",
                "900",
                "-o",
                str(tmp / f"t{r}.pdf"),
                "--no-user-catalog",
            ]
        )[0]
    ratio = tokens / fleet
    print(
        f"{n} designs: fleet book {fleet / rounds:.2f} s, tokens sheet {tokens / rounds:.2f} s: "
        f"{ratio:.2f}x (goal <= 0.3x) {'PASS' if ratio <= 0.3 else 'MISS'}"
    )
    return ratio


def check_time(cmd: list[str]) -> float:
    """Wall time of `shipyard check`, which exits 1 when a design does not pass (one sample does not)."""
    start = time.perf_counter()
    proc = subprocess.run(cmd, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"check failed ({proc.returncode}): {proc.stderr.decode()}")
    return time.perf_counter() - start


def children_cpu() -> float:
    """CPU seconds (user and system) of the commands run so far: on a machine shared by
    more processes than it has cores, the wall time says as much about the others."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def foundry_vs_check(tmp: Path, n: int, rounds: int) -> float:
    """Each round twice: with an empty cache folder for both commands (check's catalog cache,
    the export's drawn tokens), then again with the caches the first run filled. The goal
    is the wall time's ratio; the CPU time's is printed beside it."""
    files = [str(f) for f in write_designs(tmp, n)]
    totals = {"cold": [0.0, 0.0], "warm": [0.0, 0.0]}
    cpu = {"cold": [0.0, 0.0], "warm": [0.0, 0.0]}
    for r in range(rounds):
        cache = tmp / f"cache{r}"
        for state in ("cold", "warm"):
            ENV["XDG_CACHE_HOME"] = str(cache)
            before = children_cpu()
            totals[state][0] += check_time([*SHIPYARD, "check", *files, "--no-user-catalog"])
            between = children_cpu()
            out = tmp / f"vtt{r}-{state}"
            totals[state][1] += timed(
                [*SHIPYARD, "export", *files, "--format", "foundry", "-o", str(out), "--no-user-catalog"]
            )[0]
            cpu[state][0] += between - before
            cpu[state][1] += children_cpu() - between
    ENV.pop("XDG_CACHE_HOME", None)
    ratios = {}
    for state, (check, export) in totals.items():
        ratios[state] = export / check
        cpu_check, cpu_export = cpu[state]
        print(
            f"{n} designs, {state} caches: shipyard check {check / rounds:.2f} s, Foundry export "
            f"{export / rounds:.2f} s: {ratios[state]:.2f}x (goal < 2x) {'PASS' if ratios[state] < 2 else 'MISS'}; "
            f"CPU {cpu_check / rounds:.2f} s and {cpu_export / rounds:.2f} s: {cpu_export / cpu_check:.2f}x"
        )
    return ratios["cold"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--designs", type=int, default=100)
    ap.add_argument("--only", default="sheet,tokens,foundry")
    args = ap.parse_args()
    only = set(args.only.split(","))
    parts = []
    with tempfile.TemporaryDirectory() as tmp:
        if "sheet" in only:
            (Path(tmp) / "sheet").mkdir()
            parts.append(f"art sheet {sheet_with_art(Path(tmp) / 'sheet', args.rounds):.2f}x (<= 1.3x)")
        if "tokens" in only:
            (Path(tmp) / "tokens").mkdir()
            ratio = tokens_vs_fleet(Path(tmp) / "tokens", args.designs, max(1, args.rounds // 3))
            parts.append(f"tokens/fleet {ratio:.2f}x (<= 0.3x)")
        if "foundry" in only:
            (Path(tmp) / "foundry").mkdir()
            ratio = foundry_vs_check(Path(tmp) / "foundry", args.designs, args.rounds)
            parts.append(f"foundry/check {ratio:.2f}x cold (< 2x)")
    print("SUMMARY " + "; ".join(parts))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
