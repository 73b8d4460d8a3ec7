"""Editor figures, each against a baseline measured in the same run.

1. Cold start to the window showing a sample ship (`shipyard-gui FILE --smoke`: from
   starting the process until its window has painted and said so on stdout) against a
   bare PySide6 window timed the same way (goal: at most 2.5x, issue 25). Three floors are timed too, to
   show where the time goes: the bare window after importing pydantic; that window holding
   what a design's tab shows, built with Qt alone (no Shipyard code); and the bare window
   after loading and evaluating the sample with the engine. Also checks that WeasyPrint is
   not imported on the start-up path.
2. Edit -> budget panel updated: p95 over 200 edits made the way typing makes them
   (goal: at most 16 ms).
3. While the preview re-renders during typing, the longest event-loop stall (goal: no
   stall over 50 ms), measured with a 5 ms heartbeat timer. Every eighth key a pause of
   0.9 s, longer when the sheet is not shown yet (a render slower than that).
4. Keystroke into a list row's text field: p95 over real key events sent 150 ms apart to
   the focused field (a Cluster Falk aspect's name), each timed from the key press until
   the editor is done with it (goal: at most 16 ms); the focus must stay in the field for
   every key. The text commits on a pause, not on each key: the commit -> panels updated
   is timed too, against an edit made without a key on the same design.
5. Keystroke -> preview re-rendered and shown: 12 edits of the name, each timed from the
   edit until the preview shows the sheet with the new name, against WeasyPrint alone
   rendering the same sheet's HTML in a warm process of its own, one render just before
   each edit (goal: median at most 1.3x, p95 at most 1.6x the raw render's median).
6. First preview after start: from starting `shipyard-gui FILE` until its preview shows
   the sheet, against the cold start to shown (figure 1) plus one raw render (goal: at
   most the cold start + 1.3x a raw render).
   Figures 5 and 6 are made in bench/_preview.py; --preview-only gives them alone (about
   a minute), the cold start of figure 6 then timed just before each first preview.

With --instructions (and valgrind installed), the same starts (with --against, its editor too) are also counted in
machine instructions until their window has painted (valgrind's callgrind): a figure the
other programs on a shared machine do not move, to tell a change of a percent or two from
noise. Instructions are not time (Qt's C++ runs more of them a nanosecond than Python), so
the goal stays the timed ratio.

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_gui.py [--start-only | --preview-only] [--instructions]
     [--against DIR] [--rounds N] (the starts' rounds, 11 by default; fewer only to check that the bench runs)
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _editor import editor_window  # bench/ is first on sys.path when a bench runs
from _heartbeat import Heartbeat, pump
from _preview import RawRender, first_preview, keystroke_to_preview, report

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "catalogs" / "space-fighter-alpha" / "examples" / "rebel-frigate.ship"
LIST_SAMPLE = ROOT / "catalogs" / "cluster-falk" / "examples" / "dominion-carrier.ship"

# Every start-up below prints one line starting "shown:" once its window has been painted;
# the time is taken when that line reaches this process, so interpreter exit is not counted.
SHOWN = """
def done():
    app.processEvents(); print("shown:", w.isVisible(), TEXT, flush=True); app.quit()
QTimer.singleShot(0, done)
app.exec()
"""
SHOW = (
    """
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMainWindow, QLabel
app = QApplication(sys.argv)
w = QMainWindow(); w.setCentralWidget(QLabel(TEXT)); w.resize(1400, 900); w.show()
"""
    + SHOWN
)
# The baseline the goal names: a bare PySide6 window.
BARE = "import sys\nTEXT = 'bare'\n" + SHOW
# Three floors, to show where the time goes (not goals). Each starts with the garbage
# collector off, as shipyard-gui does, so they are the best such a start can do.
# 1. The same window after importing pydantic and validating one model: what any
#    pydantic-based engine pays.
PYDANTIC = """
import gc, sys
gc.disable()
from pydantic import BaseModel
class M(BaseModel):
    a: int
TEXT = str(M(a=1).a)
"""
PYDANTIC_FLOOR = PYDANTIC + SHOW
# 2. After pydantic, a window holding what a design's tab shows (a menu bar with shortcuts,
#    a form of fields in a scroll area, a budget tree, a findings list, a splitter, tabs, a
#    status bar), built with Qt alone and no Shipyard code: the least a Qt editor on a
#    pydantic engine pays before a line of Shipyard runs.
WIDGETS_FLOOR = (
    PYDANTIC
    + """
TEXT = "widgets " + TEXT
from PySide6.QtCore import QTimer, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (QApplication, QComboBox, QFormLayout, QLineEdit, QListWidget, QMainWindow,
    QPlainTextEdit, QScrollArea, QSpinBox, QSplitter, QTabWidget, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget)
app = QApplication(sys.argv)
w = QMainWindow(); w.resize(1400, 900)
menu = w.menuBar().addMenu("&File")
for key in (QKeySequence.StandardKey.New, QKeySequence.StandardKey.Open, QKeySequence.StandardKey.Save):
    a = QAction(str(key), w); a.setShortcut(key); menu.addAction(a)
page = QWidget(); form = QFormLayout(page)
for i in range(8):
    form.addRow(f"Field {i}", QSpinBox() if i % 2 else QLineEdit(TEXT))
form.addRow("Kind", QComboBox()); form.addRow("Notes", QPlainTextEdit())
scroll = QScrollArea(); scroll.setWidget(page); scroll.setWidgetResizable(True)
side = QWidget(); column = QVBoxLayout(side)
tree = QTreeWidget(); tree.setHeaderLabels(["Pool", "Budget", "Spent", "Left"])
for i in range(5):
    QTreeWidgetItem(tree, [f"pool {i}", "10", "5", "5"])
findings = QListWidget(); findings.addItems([f"finding {i}" for i in range(4)])
column.addWidget(tree); column.addWidget(findings)
split = QSplitter(Qt.Orientation.Horizontal); split.addWidget(scroll); split.addWidget(side)
tabs = QTabWidget(); tabs.addTab(split, "design"); w.setCentralWidget(tabs); w.statusBar().showMessage(TEXT); w.show()
"""
    + SHOWN
)
# 3. The bare window after Shipyard's engine has loaded the sample and evaluated it: the
#    engine's share of a start that shows a ship, with no editor around it.
ENGINE_FLOOR = (
    "import gc, sys\ngc.disable()\nfrom pathlib import Path\nfrom shipyard.core.designfile import load_design\n"
    "from shipyard.core.designreport import design_report\n"
    "loaded = load_design(Path(sys.argv[1]))\nreport = design_report(loaded.design, loaded.catalog, loaded.file)\n"
    "TEXT = f'{loaded.design.name}: freebies {report.pool(\"freebies\").spent}'\n" + SHOW
)


def run(cmd: list[str], env: dict[str, str]) -> tuple[float, str]:
    """Seconds from starting ``cmd`` until its "shown:" line arrives, and that line."""
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert p.stdout is not None
    line = ""
    for line in p.stdout:
        if line.startswith("shown:"):
            break
    elapsed = time.perf_counter() - t
    _, err = p.communicate(timeout=120)
    if p.returncode != 0 or not line.startswith("shown:"):
        raise SystemExit(f"failed: {' '.join(cmd)}\n{err}")
    return elapsed, line


# Runs a start as given, and ends its process as soon as its "shown:" line is printed, so an
# instruction count stops where the timed start stops (not after the interpreter's clean-up).
EXIT_AT_SHOWN = """
import builtins, os, runpy, sys
_print = builtins.print
def _shown(*a, **k):
    _print(*a, **k)
    if a and str(a[0]).startswith("shown:"):
        sys.stdout.flush(); os._exit(0)
builtins.print = _shown
how, what, *sys.argv[1:] = sys.argv[1:]
sys.argv[0] = what
if how == "-m":
    runpy.run_module(what, run_name="__main__", alter_sys=True)
else:
    exec(compile(what, "<start>", "exec"), {"__name__": "__main__"})
"""


def instructions(commands: dict[str, list[str]], env: dict[str, str]) -> dict[str, int] | None:
    """Machine instructions each start runs until it has painted (None: no valgrind here)."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None
    counts = {}
    for name, cmd in commands.items():
        how, what, *rest = cmd[1:]  # [python, "-c", SCRIPT, ...] or [python, "-m", MODULE, ...]
        with tempfile.TemporaryDirectory() as out:
            counted = [valgrind, "--tool=callgrind", f"--callgrind-out-file={out}/cg", sys.executable]
            p = subprocess.run(
                [*counted, "-c", EXIT_AT_SHOWN, how, what, *rest],
                capture_output=True,
                text=True,
                env=env,
                timeout=600,
            )
        found = re.search(r"Collected : (\d+)", p.stderr)
        if p.returncode != 0 or found is None or "shown:" not in p.stdout:
            raise SystemExit(f"failed under valgrind: {name}\n{p.stderr[-2000:]}")
        counts[name] = int(found.group(1))
    return counts


def start_env() -> dict[str, str]:
    """The environment every start runs in: fresh settings, one shared bytecode cache, and
    a cache folder of its own (the validated manifests and catalogs), written by the warm-up
    runs: as an installed Shipyard reads its caches. The shared ~/.cache/shipyard is
    rewritten by every checkout that runs on this machine (each with its own key for the
    manifests), so a start timed there read the YAML again whenever another had run."""
    # All commands share one bytecode cache, as an installed package has its .pyc files
    # (this machine sets PYTHONDONTWRITEBYTECODE, which would recompile every module).
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_DATA_HOME": tempfile.mkdtemp(),
        "XDG_CONFIG_HOME": tempfile.mkdtemp(),
        "XDG_CACHE_HOME": tempfile.mkdtemp(),
        "PYTHONPYCACHEPREFIX": tempfile.mkdtemp(),
        "PYDANTIC_DISABLE_PLUGINS": "__all__",  # as shipyard-gui sets it
    }
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


# The editor of another source tree (``--against DIR``: an earlier commit, `git archive REV |
# tar -x -C DIR`), started the same way, its Shipyard found first on the path, with a cache
# folder of its own (its manifests' cache key differs: the two would overwrite each other's).
AGAINST = """
import os, runpy, sys
sys.path.insert(0, sys.argv.pop(1))
os.environ["XDG_CACHE_HOME"] = os.path.join(os.environ["XDG_CACHE_HOME"], "against")
runpy.run_module("shipyard._qt.app", run_name="__main__")
"""


def start_commands(against: str | None = None) -> dict[str, list[str]]:
    commands = {
        "bare": [sys.executable, "-c", BARE],
        "pydantic floor": [sys.executable, "-c", PYDANTIC_FLOOR],
        "widgets floor": [sys.executable, "-c", WIDGETS_FLOOR],
        "engine floor": [sys.executable, "-c", ENGINE_FLOOR, str(SAMPLE)],
        "shipyard-gui": [sys.executable, "-m", "shipyard._qt.app", str(SAMPLE), "--smoke"],
    }
    if against:
        commands["gui at --against"] = [sys.executable, "-c", AGAINST, against, str(SAMPLE), "--smoke"]
    return commands


def cold_start(rounds: int, env: dict[str, str], against: str | None = None) -> dict[str, tuple[float, str]]:
    """Median seconds to "shown" and the last line, per start-up, alternating in each round."""
    commands = start_commands(against)
    for cmd in commands.values():  # warm the disk cache, the bytecode and the catalog cache
        run(cmd, env)
    times: dict[str, list[float]] = {name: [] for name in commands}
    lines: dict[str, str] = {}
    for _ in range(rounds):
        for name, cmd in commands.items():
            t, lines[name] = run(cmd, env)
            times[name].append(t)
    for name, ts in times.items():
        print(f"  {name:15s} ms: " + " ".join(f"{t * 1000:.0f}" for t in ts), file=sys.stderr)
    return {name: (statistics.median(ts), lines[name].strip()) for name, ts in times.items()}


class Spans:
    """Milliseconds of timed spans (``with spans: ...``), twice: by the wall clock, what a
    person waits and what the goals are about; and in CPU time of this thread, the work
    done, which the other programs of a shared machine do not stretch. Under load the
    wall clock's p95 is mostly the wait for a core (2 cores here, load 4-7 when other
    sessions test), so the CPU figure is the one to compare code by."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def __enter__(self) -> Spans:
        self._wall, self._cpu = time.perf_counter(), time.thread_time()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.cpu.append((time.thread_time() - self._cpu) * 1000)
        self.wall.append((time.perf_counter() - self._wall) * 1000)

    def said(self) -> str:
        """ "median 4.10 ms, p95 6.20 ms (CPU: median 3.90 ms, p95 5.00 ms)"."""
        return (
            f"median {statistics.median(self.wall):.2f} ms, p95 {p95(self.wall):.2f} ms "
            f"(CPU: median {statistics.median(self.cpu):.2f} ms, p95 {p95(self.cpu):.2f} ms)"
        )


def p95(xs: list[float]) -> float:
    return statistics.quantiles(xs, n=20)[18]


def window_with_first_sheet() -> tuple[Any, Any, Any]:
    """The editor with the sample open, once its preview has shown the first sheet (a minute at most)."""
    app, w = editor_window(preview=True)
    view = w.open_file(SAMPLE)
    assert view is not None
    deadline = time.time() + 60
    while (view.preview is None or view.preview.renders < 1) and time.time() < deadline:
        app.processEvents()
        time.sleep(0.01)
    return app, w, view


def in_process(edits: int, typing_seconds: float) -> tuple[Spans, float, int, int]:
    app, w, view = window_with_first_sheet()

    # 2. edit -> budget panel
    times = Spans()
    for i in range(edits):
        value = 6 + (i % 10)
        with times:
            view.doc.edit("structure", value)
            text = view.budget.cell_text(2, 2)
        assert text == str(view.doc.report.pool("freebies").spent)  # type: ignore[union-attr]

    # 3. stalls while the preview re-renders during typing
    heart = Heartbeat()
    heart.start()
    renders_before = view.preview.renders
    start = time.perf_counter()
    n = 0
    name = "Rebel Frigate"
    while time.perf_counter() - start < typing_seconds:
        # a keystroke every 120 ms, with a pause now and then so the preview re-renders: 0.9 s,
        # or until the sheet is shown when a render takes longer (a loaded machine; the
        # preview never shows the sheet of an edit made before the last, so without a pause
        # as long as a render it would show none)
        n += 1
        view.doc.edit("name", name + " " + "x" * (n % 7))
        if n % 8:
            pump(app, 0.12)
            continue
        shown = view.preview.renders
        pump(app, 0.9)
        until = time.perf_counter() + 10
        while view.preview.renders == shown and time.perf_counter() < until:
            pump(app, 0.05)
    heart.stop()
    renders = view.preview.renders - renders_before
    global KEYSTROKES, RAWS
    KEYSTROKES, RAWS = preview_figure(app, view)
    w.close()
    return times, heart.longest_stall(), renders, n


def preview_figure(app: object, view: object) -> tuple[list[float], list[float]]:
    """5. 12 edits of the name, each after a raw render of the same sheet (bench/_preview.py)."""
    raw = RawRender(ROOT, SAMPLE)
    try:
        return keystroke_to_preview(app, view, raw, 12)
    finally:
        raw.close()


def preview_only(env: dict[str, str]) -> str:
    """Figures 5 and 6 alone (``--preview-only``): the first preview's cold starts timed beside it."""
    app, w, view = window_with_first_sheet()
    keys, raws = preview_figure(app, view)
    w.close()
    cmd = start_commands()["shipyard-gui"]
    first, cold = first_preview(7, SAMPLE, env, lambda: run(cmd, env)[0])
    return report(keys, raws, first, cold)


def list_typing(keys: int) -> tuple[list[float], Spans, Spans]:
    """4. Real key events 150 ms apart into a list row's text field (an aspect's name),
    each timed from the key press until the editor is done with it (a key is typing, not
    yet an edit: shipyard._qt.document.pending). Every eight keys the person pauses and the text
    commits: timed from the commit (the pending text's flush, what its timer runs) until
    every panel was refreshed. The baseline, timed on the same design: the edit of another
    field made without a key (the ship's name), its panels refreshed the same way."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication, QLineEdit

    app, w = editor_window(preview=True)
    view = w.open_sample(LIST_SAMPLE)
    assert view is not None
    view.finish_building()
    w.activateWindow()
    pump(app, 1.0)
    editor = next(e for e in view.steps.lists if e.list_path == "aspects")  # type: ignore[attr-defined]
    field = editor.cellWidget(0, 0)
    assert isinstance(field, QLineEdit)
    field.setFocus(Qt.FocusReason.MouseFocusReason)
    field.selectAll()
    pump(app, 0.2)
    times: list[float] = []
    commits, edits = Spans(), Spans()
    text = "The Long Watch Over Falk "
    for i in range(keys):
        target = QApplication.focusWidget()
        assert target is field, f"key {i}: the focus left the aspect's name for {target!r}"
        t = time.perf_counter()
        QTest.keyClick(target, text[i % len(text)])
        times.append((time.perf_counter() - t) * 1000)
        pump(app, 0.15)
        if i % 8 == 7:  # a pause: what was typed commits, and the panels follow it once
            assert view.doc.pending.waiting, "a key 150 ms after the last one committed"
            with commits:
                view.doc.flush()
            assert view.doc.design.aspects[0] == field.text()  # type: ignore[attr-defined]
            if len(field.text()) > 100:  # the person starts the aspect again, within its length limit
                field.selectAll()  # (a text the design refuses now stays in the field, marked, issue 46)
            pump(app, 0.1)
            with edits:
                view.doc.edit("name", f"Dominion Carrier {i}")
            pump(app, 0.1)
    w.close()
    return times, commits, edits


KEYSTROKES: list[float] = []
RAWS: list[float] = []
GOAL = 2.5  # the cold start, at most this many bare PySide6 windows (issue 25)
GOAL_NOW = 3.0  # the figure issue 47 asks of it: at most this many bare windows


def main() -> int:
    args = sys.argv[1:]
    if "-h" in args or "--help" in args:
        print(__doc__)
        return 0
    rounds = int(args[args.index("--rounds") + 1]) if "--rounds" in args else 11
    env = start_env()
    print("load average at the start: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    if "--preview-only" in args:
        previews = preview_only(env)
        print("load average at the end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
        print(f"SUMMARY bench_gui --preview-only: {previews}")
        return 0
    against = args[args.index("--against") + 1] if "--against" in args else None
    starts = cold_start(rounds, env, against)
    only_start = "--start-only" in sys.argv[1:]
    bare = starts["bare"][0]
    for name, (t, line) in starts.items():
        print(f"cold start to shown: {name:15s} {t * 1000:6.0f} ms  {t / bare:4.2f}x bare  | {line}")
    ours, line = starts["shipyard-gui"]
    ratio = ours / bare
    heavy_ok = "heavy-imports: []" in line
    print(
        f"cold start: shipyard-gui with a sample ship {ratio:.2f}x a bare PySide6 window "
        f"(medians of {rounds}; goal <= {GOAL}x, issue 25)"
    )
    if against:
        theirs = starts["gui at --against"][0]
        print(f"cold start: this tree's editor {ours / theirs:.2f}x the editor of {against} (medians of {rounds})")
    widgets = starts["widgets floor"][0] / bare
    print(
        f"room the goal leaves for Shipyard's own code above the widgets floor: {GOAL - widgets:+.2f}x bare "
        f"(the widgets floor, pydantic and Qt alone, is {widgets:.2f}x)"
    )
    if "--instructions" in sys.argv[1:]:
        counts = instructions(start_commands(against), env)  # the bytecode cache the timed runs made
        if counts is None:
            print("instructions: valgrind is not installed (apt-get install valgrind)")
        else:
            for name, n in counts.items():
                print(f"instructions to shown: {name:15s} {n / 1e6:7.1f} M  {n / counts['bare']:4.2f}x bare")
            if against:
                mine, theirs = counts["shipyard-gui"], counts["gui at --against"]
                print(f"instructions: this tree's editor {mine / theirs:.3f}x the editor of {against}")
            room = GOAL * counts["bare"] - counts["widgets floor"]
            print(f"instructions the goal leaves for Shipyard's own code above the widgets floor: {room / 1e6:+.1f} M")
    if only_start:
        verdict = "PASS" if ratio <= GOAL_NOW else "MISS"
        print(f"cold start against issue 47's goal: {ratio:.2f}x, {verdict} (<= {GOAL_NOW}x)")
        issue_25 = "PASS" if ratio <= GOAL else "MISS"
        print(
            f"SUMMARY bench_gui: cold start {ratio:.2f}x: issue 47's <= {GOAL_NOW}x {verdict}, "
            f"issue 25's <= {GOAL}x {issue_25}"
        )
        return 0
    times, stall, renders, keys = in_process(edits=200, typing_seconds=12)
    edit_budget_p95 = p95(times.wall)
    print(f"edit -> budget panel: {times.said()} over {len(times.wall)} edits (goal p95 <= 16 ms)")
    print(
        f"typing {keys} keystrokes over 12 s with {renders} preview re-renders: longest event-loop stall "
        f"{stall:.1f} ms (goal: none over 50 ms)"
    )
    row_keys, row_commits, row_edits = list_typing(keys=320)  # 40 pauses: the p95 of 20 is nearly their largest
    row_p95 = p95(row_keys)
    commit_p95, edit_p95 = p95(row_commits.wall), p95(row_edits.wall)
    print(
        f"keystroke into a list row's text field: median {statistics.median(row_keys):.2f} ms, "
        f"p95 {row_p95:.2f} ms over {len(row_keys)} keys 150 ms apart, the focus kept (goal p95 <= 16 ms)"
    )
    print(
        f"typed text committed on a pause -> panels updated: {row_commits.said()} over {len(row_commits.wall)} "
        f"pauses (goal p95 <= 16 ms); {commit_p95 / edit_p95:.2f}x the p95 of an edit without a key on the same "
        f"design ({row_edits.said()})"
    )
    first, _cold = first_preview(5, SAMPLE, env)
    previews = report(KEYSTROKES, RAWS, first, ours)
    print(
        "SUMMARY bench_gui: "
        f"cold start {ratio:.2f}x {'PASS' if ratio <= GOAL else 'MISS'}; WeasyPrint on start-up path: "
        f"{'no' if heavy_ok else 'YES'}; edit p95 {edit_budget_p95:.2f} ms (CPU {p95(times.cpu):.2f}) "
        f"{'PASS' if edit_budget_p95 <= 16 else 'MISS'}; "
        f"longest stall {stall:.1f} ms with {renders} re-renders {'PASS' if stall <= 50 else 'MISS'}; "
        f"list-row keystroke p95 {row_p95:.2f} ms {'PASS' if row_p95 <= 16 else 'MISS'}; "
        f"{previews}; "
        f"commit on a pause p95 {commit_p95:.2f} ms (CPU {p95(row_commits.cpu):.2f}) "
        f"{'PASS' if commit_p95 <= 16 else 'MISS'}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
