"""Editor figures, each against a baseline measured in the same run.

1. Cold start to the window showing a sample ship (`shipyard-gui FILE --smoke`, a whole
   process) against a bare PySide6 window doing the same (goal: at most 2x). Also checks
   that WeasyPrint is not imported on the start-up path.
2. Edit -> budget panel updated: p95 over 200 edits made the way typing makes them
   (goal: at most 16 ms).
3. While the preview re-renders during typing, the longest event-loop stall (goal: no
   stall over 50 ms), measured with a 5 ms heartbeat timer.

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_gui.py
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "catalogs" / "space-fighter-alpha" / "examples" / "rebel-frigate.ship"

BARE = """
import sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMainWindow, QLabel
app = QApplication(sys.argv)
w = QMainWindow(); w.setCentralWidget(QLabel("bare")); w.resize(1400, 900); w.show()
def done():
    app.processEvents(); print("shown:", w.isVisible(), flush=True); app.quit()
QTimer.singleShot(0, done)
app.exec()
"""


def run(cmd: list[str], env: dict[str, str]) -> tuple[float, str]:
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120, check=False)
    elapsed = time.perf_counter() - t
    if p.returncode != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{p.stderr}")
    return elapsed, p.stdout


def cold_start(rounds: int) -> tuple[float, float, str]:
    # Both commands share one bytecode cache, as an installed package has its .pyc files
    # (this machine sets PYTHONDONTWRITEBYTECODE, which would recompile every module).
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_DATA_HOME": tempfile.mkdtemp(),
        "XDG_CONFIG_HOME": tempfile.mkdtemp(),
        "PYTHONPYCACHEPREFIX": tempfile.mkdtemp(),
    }
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    ours_cmd = [sys.executable, "-m", "shipyard._qt.app", str(SAMPLE), "--smoke"]
    bare_cmd = [sys.executable, "-c", BARE]
    run(ours_cmd, env), run(bare_cmd, env)  # warm the disk cache and the catalog cache
    ours, bare = [], []
    line = ""
    for _ in range(rounds):
        t, line = run(ours_cmd, env)
        ours.append(t)
        bare.append(run(bare_cmd, env)[0])
    return statistics.median(ours), statistics.median(bare), line.strip()


def in_process(edits: int, typing_seconds: float) -> tuple[list[float], float, int, int]:
    from PySide6.QtCore import QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    from shipyard._qt.window import MainWindow

    tmp = tempfile.mkdtemp()
    w = MainWindow(QSettings(f"{tmp}/s.ini", QSettings.Format.IniFormat), use_user_folder=False, preview=True)
    w.ask_unsaved = lambda _d: "discard"  # type: ignore[method-assign]
    w.show()
    view = w.open_file(SAMPLE)
    assert view is not None
    deadline = time.time() + 60
    while (view.preview is None or view.preview.renders < 1) and time.time() < deadline:
        app.processEvents()
        time.sleep(0.01)

    # 2. edit -> budget panel
    times = []
    for i in range(edits):
        value = 6 + (i % 10)
        t = time.perf_counter()
        view.doc.edit("structure", value)
        text = view.budget.cell_text(2, 2)
        times.append((time.perf_counter() - t) * 1000)
        assert text == str(view.doc.report.pool("freebies").spent)  # type: ignore[union-attr]

    # 3. stalls while the preview re-renders during typing
    gaps: list[float] = []
    last = [time.perf_counter()]

    def beat() -> None:
        now = time.perf_counter()
        gaps.append((now - last[0]) * 1000)
        last[0] = now

    heart = QTimer(interval=5)
    heart.timeout.connect(beat)
    heart.start()
    renders_before = view.preview.renders
    start = time.perf_counter()
    n = 0
    name = "Rebel Frigate"
    while time.perf_counter() - start < typing_seconds:
        # a keystroke every 120 ms, with a pause now and then so the preview re-renders
        n += 1
        view.doc.edit("name", name + " " + "x" * (n % 7))
        pause = 0.9 if n % 8 == 0 else 0.12
        until = time.perf_counter() + pause
        while time.perf_counter() < until:
            app.processEvents()
            time.sleep(0.001)
    heart.stop()
    renders = view.preview.renders - renders_before
    w.close()
    return times, max(gaps[1:]) if len(gaps) > 1 else 0.0, renders, n


def main() -> int:
    ours, bare, line = cold_start(rounds=5)
    ratio = ours / bare
    heavy_ok = "heavy-imports: []" in line
    print(
        f"cold start: shipyard-gui with a sample ship {ours * 1000:.0f} ms, bare PySide6 window {bare * 1000:.0f} ms "
        f"(medians of 5) -> {ratio:.2f}x (goal <= 2x); {line}"
    )
    times, stall, renders, keys = in_process(edits=200, typing_seconds=12)
    p95 = statistics.quantiles(times, n=20)[18]
    print(
        f"edit -> budget panel: median {statistics.median(times):.2f} ms, p95 {p95:.2f} ms over {len(times)} edits "
        f"(goal p95 <= 16 ms)"
    )
    print(
        f"typing {keys} keystrokes over 12 s with {renders} preview re-renders: longest event-loop stall "
        f"{stall:.1f} ms (goal: none over 50 ms)"
    )
    print(
        "SUMMARY bench_gui: "
        f"cold start {ratio:.2f}x {'PASS' if ratio <= 2 else 'MISS'}; WeasyPrint on start-up path: "
        f"{'no' if heavy_ok else 'YES'}; edit p95 {p95:.2f} ms {'PASS' if p95 <= 16 else 'MISS'}; "
        f"longest stall {stall:.1f} ms with {renders} re-renders {'PASS' if stall <= 50 else 'MISS'}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
