"""The editor's windows built with the focus frames drawn by a style, against a style sheet.

Each round starts two processes in turn (the order swapped every round, so the machine's
drift reaches both alike), each with Qt's offscreen platform: one as the editor is (the
focus frames drawn by :class:`shipyard._qt.window.focusstyle.FocusFrameStyle`, no style
sheet), one as it was (the application's own style, and the window's style sheet below,
which drew the same frames through Qt's style-sheet engine, set on the window where it now
installs the style). Each opens a window at 1280x720, opens every sample of every
installed ruleset in it, builds all its pages and lets them lay themselves out, and says
the CPU seconds that took. The figure is the sum of the style's seconds over the sum of
the style sheet's (lower is better).

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_focus_style.py [--rounds N]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# The window's style sheet before the focus frames became a style: the baseline.
STYLE_SHEET_BEFORE = """
QAbstractItemView, QTextBrowser, QPdfView {
    border: 1px solid palette(mid); padding: 1px;
}
QAbstractItemView:focus, QTextBrowser:focus, QPdfView:focus {
    border: 2px solid palette(highlight); padding: 0px;
}
QCheckBox { border: 1px solid transparent; border-radius: 2px; }
QCheckBox:focus { border: 1px solid palette(highlight); }
QLabel:focus { border: 1px solid palette(highlight); border-radius: 2px; }
"""

BUILD = """
import sys, tempfile, time
from pathlib import Path
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
app = QApplication([sys.argv[0]])
from shipyard._qt.window import window as window_module
from shipyard.core.registry import rulesets
from shipyard._qt.window.focusstyle import FocusFrameStyle
sheet = sys.argv[1]
if sheet:  # where the window installed the focus frames, it set the style sheet on itself
    def on_the_window_being_made(app):
        made = [w for w in app.topLevelWidgets() if isinstance(w, window_module.MainWindow) and not w.styleSheet()]
        made[-1].setStyleSheet(sheet)
    window_module.install_focus_frames = on_the_window_being_made
samples = [ship for info in rulesets() for ship in sorted(info.samples.glob("*.ship"))]
start = time.process_time()
w = window_module.MainWindow(
    QSettings(str(Path(tempfile.mkdtemp()) / "settings.ini"), QSettings.Format.IniFormat),
    use_user_folder=False,
    preview=False,
)
w.recovery.ask_restore = lambda _items: False
assert (w.styleSheet() == sheet) and (isinstance(app.style(), FocusFrameStyle) != bool(sheet)), "not the way asked"
w.resize(1280, 720)
w.show()
for ship in samples:
    view = w.open_file(ship)
    view.finish_building()
    for index in range(view.tabs.count()):
        view.tabs.setCurrentIndex(index)
        app.processEvents()
print(f"{time.process_time() - start:.3f} {len(samples)}")
"""


def build(sheet: str) -> tuple[float, int]:
    """CPU seconds of one process's windows (see the module docstring), and how many samples."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "QT_NO_GUI_THREADPOOL": "1"}  # as the tests run it
    done = subprocess.run(
        [sys.executable, "-c", BUILD, sheet], capture_output=True, text=True, env=env, cwd=ROOT, check=False
    )
    last = done.stdout.strip().splitlines()[-1:] if done.returncode == 0 else []
    if not last:
        raise SystemExit(f"the build failed:\n{done.stderr[-2000:]}")
    seconds, samples = last[0].split()
    return float(seconds), int(samples)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rounds", type=int, default=4, help="processes each way (default 4)")
    args = parser.parse_args()
    spent = {"style": 0.0, "style sheet": 0.0}
    samples = 0
    for round_ in range(args.rounds):
        order = ["style", "style sheet"] if round_ % 2 == 0 else ["style sheet", "style"]
        for way in order:
            seconds, samples = build(STYLE_SHEET_BEFORE if way == "style sheet" else "")
            spent[way] += seconds
            print(f"round {round_ + 1} {way:11s} {seconds:6.2f} CPU-s")
    ratio = spent["style"] / spent["style sheet"]
    print(
        f"{samples} samples opened, every page built and shown, {args.rounds} processes each way: "
        f"style {spent['style']:.2f} CPU-s, style sheet {spent['style sheet']:.2f} CPU-s"
    )
    print(f"SUMMARY bench_focus_style: the window's pages built in {ratio:.2f}x the CPU of the style sheet's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
