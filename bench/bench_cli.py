"""Time ``shipyard check`` as a whole process, against a baseline process.

Run from the repository root::

    .venv/bin/python bench/bench_cli.py [--rounds 15] [--file SAMPLE.ship]

Commands timed (wall clock of the whole process, output discarded):

* ``python -m shipyard check FILE --no-user-catalog``
* ``.venv/bin/shipyard check FILE --no-user-catalog`` (the console script, when present)
* baseline: ``python -c "import pydantic, jinja2"`` (start-up of the interpreter plus
  the libraries any Shipyard command needs at least)

After two warm-up runs of each command, the commands run alternately, round after round,
so a busy neighbour on the shared machine slows all of them alike. The goal is that
``shipyard check`` takes at most 2.5x the baseline (ratio of medians).

Then the script reports what ``shipyard check`` imports: the top imports by cumulative
time from ``python -X importtime``, a rough breakdown of where the process spends its
time (imports, catalog loading, design loading, evaluation), how long building the command
line takes in a fresh process (the whole list, a built-in command, an extension's command)
with the speed-ups on and off, and it asserts that neither
PySide6 nor weasyprint is imported by the command line (exit status 1 if one is).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "catalogs" / "space-fighter-alpha" / "examples"
DEFAULT_FILE = EXAMPLES / "rebel-fighter.ship"
GOAL_RATIO = 2.5
WARMUP_RUNS = 2
TIMEOUT = 120  # seconds for any one process
FORBIDDEN = ("PySide6", "weasyprint")
# `shipyard check` exits 0 (all valid) or 1 (findings); anything else is a failure here.
CHECK_OK = (0, 1)

# Runs the CLI in-process, then prints what is in sys.modules (one JSON object).
MODULES_SNIPPET = """
import contextlib, io, json, sys
from shipyard.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    rc = main(sys.argv[1:])
print(json.dumps({"rc": rc, "modules": sorted(sys.modules)}))
"""

# Times the phases of `shipyard check` in one fresh process (milliseconds).
PHASES_SNIPPET = """
import json, sys, time
t = [time.perf_counter()]
import shipyard.cli
t.append(time.perf_counter())
from shipyard.core.designfile import load_design
from shipyard.core.designreport import design_report
from shipyard.core.textreport import render
t.append(time.perf_counter())
from shipyard.core.catalog import load_catalog
catalog = load_catalog("space-fighter-alpha", use_user_folder=False)
t.append(time.perf_counter())
loaded = load_design(sys.argv[1], use_user_folder=False)
t.append(time.perf_counter())
render(design_report(loaded.design, loaded.catalog, loaded.file), sys.argv[1])
t.append(time.perf_counter())
names = ["import shipyard.cli", "import designfile, designreport, textreport",
         "load_catalog (YAML + validation + ruleset module)", "load_design", "evaluate + render"]
print(json.dumps({n: 1000 * (b - a) for n, a, b in zip(names, t, t[1:])}))
"""

# Building the command line in a fresh process, as `shipyard COMMAND` builds it: the whole
# list (`shipyard --help`), a built-in command, and an extension command (whose module
# shipyard.commands.hangar is imported with the other extension modules).
PARSER_SNIPPET = """
import json, sys, time
from shipyard._speedups import translations_looked_up_once
translations_looked_up_once()
from shipyard.cli import build_parser
imported = time.perf_counter()
build_parser(None if sys.argv[1] == "-" else sys.argv[1])
print(json.dumps((time.perf_counter() - imported) * 1000))
"""
PARSER_COMMANDS = ("-", "check", "hangar")
PARSER_ROUNDS = 9

# Times the import of the ruleset module alone: the catalog imports it through
# importlib.import_module, which `python -X importtime` does not report.
RULESET_IMPORT_SNIPPET = """
import json, time
import shipyard.core.catalog, shipyard.core.rules, shipyard.core.report, shipyard.core.model
t0 = time.perf_counter()
import shipyard.rulesets.space_fighter_alpha
print(json.dumps(1000 * (time.perf_counter() - t0)))
"""


def child_env(pycache_prefix: str | None) -> dict[str, str]:
    """The environment of every timed process: the caller's, minus what would skew it."""
    env = dict(os.environ)
    for var in ("PYTHONPATH", "PYTHONHOME", "PYTHONPROFILEIMPORTTIME", "PYTHONSTARTUP"):
        env.pop(var, None)
    if pycache_prefix is not None:
        # An installed wheel has its bytecode compiled by pip; a source checkout run with
        # PYTHONDONTWRITEBYTECODE=1 would recompile every Shipyard module on every run and
        # charge that to Shipyard alone (the libraries in site-packages have their .pyc).
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = pycache_prefix
    return env


def run(
    cmd: list[str], env: dict[str, str], *, check_codes: tuple[int, ...] = (0,)
) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False)
    if proc.returncode not in check_codes:
        raise SystemExit(f"bench_cli: {' '.join(cmd)} exited {proc.returncode}\n{proc.stderr}")
    return proc


def time_process(cmd: list[str], check_codes: tuple[int, ...], env: dict[str, str]) -> float:
    """Wall-clock milliseconds of one run of ``cmd``, output discarded."""
    start = time.perf_counter_ns()
    proc = subprocess.run(
        cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=TIMEOUT, check=False
    )
    elapsed = time.perf_counter_ns() - start
    if proc.returncode not in check_codes:
        raise SystemExit(f"bench_cli: {' '.join(cmd)} exited {proc.returncode}\n{proc.stderr.decode(errors='replace')}")
    return elapsed / 1e6


def parse_importtime(stderr: str) -> list[tuple[str, int, int, int]]:
    """(name, self µs, cumulative µs, depth) per line of ``-X importtime`` output."""
    rows = []
    pattern = re.compile(r"^import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)\s*$")
    for line in stderr.splitlines():
        m = pattern.match(line)
        if m:
            depth = (len(m.group(3)) - 1) // 2
            rows.append((m.group(4), int(m.group(1)), int(m.group(2)), depth))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15, help="timed runs of each command (default 15)")
    parser.add_argument("--file", type=Path, default=DEFAULT_FILE, help="design to check")
    parser.add_argument("--strict", action="store_true", help="exit with status 1 when the goal is missed")
    parser.add_argument(
        "--keep-env",
        action="store_true",
        help="run the commands with the caller's environment as it is; by default "
        "they share a fresh bytecode cache (PYTHONPYCACHEPREFIX in a temporary "
        "folder), so source modules are not recompiled on every run",
    )
    args = parser.parse_args(argv)
    if args.keep_env:
        return measure(args, None)
    with tempfile.TemporaryDirectory(prefix="shipyard-bench-pyc-") as prefix:
        return measure(args, prefix)


def measure(args: argparse.Namespace, pycache_prefix: str | None) -> int:
    env = child_env(pycache_prefix)
    sample = str(args.file.resolve())
    py = sys.executable

    commands: dict[str, tuple[list[str], tuple[int, ...]]] = {
        "python -m shipyard check": ([py, "-m", "shipyard", "check", sample, "--no-user-catalog"], CHECK_OK),
    }
    script = Path(py).with_name("shipyard")
    if script.is_file() and os.access(script, os.X_OK):
        commands["shipyard check (console script)"] = ([str(script), "check", sample, "--no-user-catalog"], CHECK_OK)
    else:
        print(f"note: no console script at {script}; timing python -m shipyard only")
    baseline = "baseline: import pydantic, jinja2"
    commands[baseline] = ([py, "-c", "import pydantic, jinja2"], (0,))

    print(
        f"bench_cli: {Path(sample).relative_to(ROOT) if Path(sample).is_relative_to(ROOT) else sample}; "
        f"{WARMUP_RUNS} warm-up runs then {args.rounds} interleaved rounds of each command"
    )
    print(f"python: {py}")
    if pycache_prefix is not None:
        print(
            "bytecode: a fresh cache shared by all commands (PYTHONPYCACHEPREFIX in a temporary "
            "folder), filled by the warm-up runs; --keep-env to run as the environment says"
            + (" (PYTHONDONTWRITEBYTECODE=1 is set here)" if os.environ.get("PYTHONDONTWRITEBYTECODE") else "")
        )
    else:
        print(
            f"bytecode: as the environment says (PYTHONDONTWRITEBYTECODE="
            f"{os.environ.get('PYTHONDONTWRITEBYTECODE', '')!s}, PYTHONPYCACHEPREFIX="
            f"{os.environ.get('PYTHONPYCACHEPREFIX', '')!s})"
        )
    for cmd, codes in commands.values():
        for _ in range(WARMUP_RUNS):
            time_process(cmd, codes, env)
    times: dict[str, list[float]] = {name: [] for name in commands}
    names = list(commands)
    for r in range(args.rounds):
        # Alternate the order every round so no command always runs first.
        for name in names if r % 2 == 0 else reversed(names):
            cmd, codes = commands[name]
            times[name].append(time_process(cmd, codes, env))

    base_median = statistics.median(times[baseline])
    print()
    print(f"{'command':<36} {'median ms':>9} {'min ms':>7} {'max ms':>7} {'ratio':>6}  goal <= {GOAL_RATIO}x")
    print("-" * 80)
    verdicts: dict[str, tuple[float, float, bool]] = {}
    for name in names:
        median = statistics.median(times[name])
        ratio = median / base_median
        if name == baseline:
            print(f"{name:<36} {median:>9.1f} {min(times[name]):>7.1f} {max(times[name]):>7.1f} {'1.00x':>6}")
            continue
        ok = ratio <= GOAL_RATIO
        verdicts[name] = (median, ratio, ok)
        print(
            f"{name:<36} {median:>9.1f} {min(times[name]):>7.1f} {max(times[name]):>7.1f} "
            f"{ratio:>5.2f}x  {'PASS' if ok else 'MISS'}"
        )

    # --- what `shipyard check` imports ----------------------------------------------------
    proc = run(
        [py, "-X", "importtime", "-m", "shipyard", "check", sample, "--no-user-catalog"], env, check_codes=CHECK_OK
    )
    rows = parse_importtime(proc.stderr)
    print()
    print("top 10 imports of `python -X importtime -m shipyard check` by cumulative time:")
    print(f"  {'module':<44} {'cumulative ms':>13} {'self ms':>8}")
    for name, self_us, cum_us, depth in sorted(rows, key=lambda r: -r[2])[:10]:
        print(f"  {'  ' * min(depth, 4) + name:<44} {cum_us / 1000:>13.1f} {self_us / 1000:>8.1f}")
    total_top = sum(cum for _, _, cum, depth in rows if depth == 0) / 1000
    print(
        f"  (all top-level imports together: {total_top:.1f} ms; imports made through "
        "importlib.import_module, like the ruleset module, are not in this list)"
    )
    packages: dict[str, int] = {}
    for name, _, cum_us, _ in rows:
        top = name.split(".")[0]
        if name == top:
            packages[top] = max(packages.get(top, 0), cum_us)
    heavy = sorted(((p, us) for p, us in packages.items() if us >= 5000), key=lambda x: -x[1])
    print("  top-level modules costing >= 5 ms cumulative: " + ", ".join(f"{p} {us / 1000:.1f} ms" for p, us in heavy))
    ruleset_ms = json.loads(run([py, "-c", RULESET_IMPORT_SNIPPET], env).stdout)
    print(f"  shipyard.rulesets.space_fighter_alpha (imported by the catalog): {ruleset_ms:.1f} ms")

    # --- where a check's time goes ---------------------------------------------------------
    phases = json.loads(run([py, "-c", PHASES_SNIPPET, sample], env).stdout)
    print()
    print("phases of one check, in one fresh process (ms):")
    for name, ms in phases.items():
        print(f"  {name:<52} {ms:>7.1f}")

    # --- building the command line --------------------------------------------------------------
    # The command being run is the only one given its options (shipyard.cli._OnlyOneBuilt), and
    # argparse's translation lookups are answered once (a speed-up: compared with it off).
    built: dict[tuple[str, bool], list[float]] = {}
    for _ in range(PARSER_ROUNDS):
        for command in PARSER_COMMANDS:
            for on in (True, False):
                env_here = env if on else {**env, "SHIPYARD_NO_SPEEDUPS": "1"}
                ms = json.loads(run([py, "-c", PARSER_SNIPPET, command], env_here).stdout)
                built.setdefault((command, on), []).append(ms)
    print()
    print(
        f"building the command line in a fresh process, once shipyard.cli is imported (ms, medians of {PARSER_ROUNDS}):"
    )
    for command in PARSER_COMMANDS:
        on = statistics.median(built[command, True])
        off = statistics.median(built[command, False])
        shown = "the whole list (--help)" if command == "-" else f"shipyard {command}"
        print(f"  {shown:<28} {on:6.1f} with the speed-ups, {off:6.1f} without: {on / off:.2f}x")

    # --- nothing heavy in sys.modules ----------------------------------------------------------
    proc = run([py, "-c", MODULES_SNIPPET, "check", sample, "--no-user-catalog"], env)
    info = json.loads(proc.stdout.strip().splitlines()[-1])
    if info["rc"] not in CHECK_OK:
        raise SystemExit(f"bench_cli: in-process check returned {info['rc']}")
    modules: list[str] = info["modules"]
    found = [m for m in modules if m.split(".")[0] in FORBIDDEN]
    tops = {m.split(".")[0] for m in modules if not m.startswith("_")}
    third_party = sorted(tops - set(sys.stdlib_module_names) - {"shipyard"})
    print()
    print(
        f"sys.modules after an in-process check: {len(modules)} modules; third-party top-level: "
        f"{', '.join(third_party)}"
    )
    if found:
        print(f"ASSERTION FAILED: {', '.join(found)} imported by `shipyard check`")
    else:
        print(f"assert OK: neither {' nor '.join(FORBIDDEN)} is in sys.modules")

    misses = [n for n, (_, _, ok) in verdicts.items() if not ok]
    figures = "; ".join(f"{n} {m:.1f} ms = {r:.2f}x" for n, (m, r, _) in verdicts.items())
    print()
    print(
        f"SUMMARY bench_cli: goal <= {GOAL_RATIO}x baseline: {'PASS' if not misses else 'MISS'}; "
        f"{figures}; baseline {base_median:.1f} ms; "
        f"{'no' if not found else ', '.join(found)} forbidden modules imported"
    )
    if found:
        return 1
    return 1 if misses and args.strict else 0


if __name__ == "__main__":
    raise SystemExit(main())
