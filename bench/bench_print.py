"""Printing figures, each as a ratio against a baseline measured in the same run.

1. One record sheet: `shipyard print` (whole process) against a process that imports
   WeasyPrint and renders the same HTML (goal: at most 1.15x).
2. A 100-design fleet book: `shipyard print --sheet fleet` (whole process, both cores)
   against one process rendering the same HTML parts one after another with WeasyPrint
   (goal: at most 0.6x). Reports the page count and the peak memory of the process tree.

Run: .venv/bin/python bench/bench_print.py [--rounds N] [--designs N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "catalogs" / "space-fighter-alpha" / "examples"
SAMPLES = sorted(EXAMPLES.glob("*.ship"))
ENV = {**os.environ, "PYDANTIC_DISABLE_PLUGINS": "__all__"}


def tree_rss_kb(root_pid: int) -> int:
    """Resident memory of a process and all its descendants, from /proc."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            status = (entry / "status").read_text()
        except OSError:
            continue
        pid = int(entry.name)
        parents[pid] = int(stat.rsplit(")", 1)[1].split()[1])
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                rss[pid] = int(line.split()[1])
    total, todo = 0, [root_pid]
    while todo:
        pid = todo.pop()
        total += rss.get(pid, 0)
        todo += [c for c, p in parents.items() if p == pid]
    return total


def timed(cmd: list[str], sample_memory: bool = False) -> tuple[float, int]:
    """Wall time of a command, and the peak RSS of its process tree when asked."""
    peak = 0
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if sample_memory:

        def watch() -> None:
            nonlocal peak
            while proc.poll() is None:
                peak = max(peak, tree_rss_kb(proc.pid))
                time.sleep(0.05)

        t = threading.Thread(target=watch, daemon=True)
        t.start()
    _, err = proc.communicate()
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"command failed ({proc.returncode}): {' '.join(cmd)}\n{err.decode()}")
    return elapsed, peak


def write_designs(folder: Path, n: int) -> list[Path]:
    files = []
    for i in range(n):
        doc = json.loads(SAMPLES[i % len(SAMPLES)].read_text())
        doc["design"]["name"] = f"{doc['design']['name']} {i + 1:03d}"
        f = folder / f"d{i:03d}.ship"
        f.write_text(json.dumps(doc))
        files.append(f)
    return files


def write_html(folder: Path, files: list[Path], sheet: str) -> list[Path]:
    """The exact HTML parts Shipyard renders for these files, for the raw baseline."""
    sys.path.insert(0, str(ROOT))
    from shipyard.core.designfile import load_design
    from shipyard.core.evaluate import evaluate
    from shipyard.core.resources import builtin_template_root
    from shipyard.render.context import design_entry, fleet_layout, sheet_context, template_dirs
    from shipyard.render.templates import render_html

    loaded = [load_design(f, use_user_folder=False) for f in files]
    catalog = loaded[0].catalog
    entries = [design_entry(ld, evaluate(ld.design, ld.catalog)) for ld in loaded]
    dirs = template_dirs(
        catalog.meta.id, [], builtin_template_root() / catalog.meta.id, builtin_template_root() / "common"
    )
    ctx = sheet_context(entries, catalog, sheet=sheet, paper="a4", title="Bench")
    parts: list[tuple[str, dict[str, object]]]
    if sheet == "record":
        parts = [("record.html", {})]
    else:
        layout = fleet_layout(len(entries))
        contents = [
            {
                "name": e["design"]["name"],
                "scale": e["report"]["scale"],
                "valid": e["report"]["valid"],
                "page": layout["first_sheet"] + i,
            }
            for i, e in enumerate(entries)
        ]
        appendix = layout["first_sheet"] + len(entries)
        parts = [
            ("fleet_front.html", {"designs": [], "contents": contents, "layout": {**layout, "appendix": appendix}}),
            ("record.html", {"first_page": layout["first_sheet"]}),
            ("fleet_appendix.html", {"designs": [], "first_page": appendix}),
        ]
    out = []
    for i, (name, extra) in enumerate(parts):
        path = dirs[0] / f".bench-{os.getpid()}-{i}.html"  # beside the templates: same base URL
        path.write_text(render_html(dirs, name, {**ctx, **extra}))
        out.append(path)
    return out


RAW = (
    "import sys, weasyprint\n"
    "for i, f in enumerate(sys.argv[2:]):\n"
    "    weasyprint.HTML(filename=f).write_pdf(sys.argv[1] + str(i) + '.pdf')\n"
)


def pdf_pages(path: Path) -> int:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(path))
    try:
        return len(doc)
    finally:
        doc.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--designs", type=int, default=100)
    ap.add_argument("--fleet-rounds", type=int, default=2)
    args = ap.parse_args()
    py = sys.executable
    summary = []
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        html_files: list[Path] = []
        try:
            # 1. one record sheet
            one = SAMPLES[0]
            html_files += write_html(tmp, [one], "record")
            ship_cmd = [
                py,
                "-m",
                "shipyard",
                "print",
                str(one),
                "-o",
                str(tmp / "s.pdf"),
                "--paper",
                "a4",
                "--no-user-catalog",
            ]
            raw_cmd = [py, "-c", RAW, str(tmp / "raw"), str(html_files[0])]
            timed(ship_cmd), timed(raw_cmd)  # warm caches
            ours, raw = [], []
            for _ in range(args.rounds):
                ours.append(timed(ship_cmd)[0])
                raw.append(timed(raw_cmd)[0])
            r = statistics.median(ours) / statistics.median(raw)
            print(
                f"record sheet: shipyard {statistics.median(ours) * 1000:.0f} ms, raw WeasyPrint "
                f"{statistics.median(raw) * 1000:.0f} ms (medians of {args.rounds}) -> {r:.2f}x (goal <= 1.15x)"
            )
            summary.append(f"record sheet {r:.2f}x {'PASS' if r <= 1.15 else 'MISS'}")

            # 2. a fleet book of many designs
            files = write_designs(tmp, args.designs)
            parts = write_html(tmp, files, "fleet")
            html_files += parts
            ship_cmd = [
                py,
                "-m",
                "shipyard",
                "print",
                *map(str, files),
                "--sheet",
                "fleet",
                "-o",
                str(tmp / "fleet.pdf"),
                "--paper",
                "a4",
                "--no-user-catalog",
                "--timeout",
                "600",
            ]
            raw_cmd = [py, "-c", RAW, str(tmp / "rawfleet"), *map(str, parts)]
            ours_f, raw_f, peaks, raw_peaks = [], [], [], []
            for _ in range(args.fleet_rounds):
                t, m = timed(ship_cmd, sample_memory=True)
                ours_f.append(t)
                peaks.append(m)
                t, m = timed(raw_cmd, sample_memory=True)
                raw_f.append(t)
                raw_peaks.append(m)
            pages = pdf_pages(tmp / "fleet.pdf")
            raw_pages = sum(pdf_pages(tmp / f"rawfleet{i}.pdf") for i in range(len(parts)))
            r = statistics.median(ours_f) / statistics.median(raw_f)
            print(
                f"fleet book of {args.designs}: shipyard {statistics.median(ours_f):.1f} s ({pages} pages, peak "
                f"{max(peaks) / 1024:.0f} MB over all processes), single-process raw WeasyPrint "
                f"{statistics.median(raw_f):.1f} s ({raw_pages} pages, peak {max(raw_peaks) / 1024:.0f} MB) "
                f"-> {r:.2f}x (goal <= 0.6x) on {os.cpu_count()} cores"
            )
            summary.append(
                f"fleet book {r:.2f}x {'PASS' if r <= 0.6 else 'MISS'} ({pages} pages, peak {max(peaks) / 1024:.0f} MB)"
            )
        finally:
            for f in html_files:
                f.unlink(missing_ok=True)
    print("SUMMARY bench_print: " + "; ".join(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
