"""The start page: new designs and samples of every installed ruleset, and the designs opened last."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QGridLayout, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from shipyard._qt.widgets.scrollpage import ScrollPage
from shipyard.core.designfile import sample_files
from shipyard.core.registry import problems as registry_problems
from shipyard.core.registry import rulesets
from shipyard.core.termtext import escape

if TYPE_CHECKING:
    from shipyard._qt.window.host import WindowHost


def sample_name(path: Path) -> str:
    """A sample's name as the start page and File > New from sample show it."""
    return path.stem.replace("-", " ").title()


class Welcome(ScrollPage):
    """New designs and samples of every installed ruleset, from their manifests (no ruleset is imported).

    The rulesets sit two to a row, so that the page fits a 1280x720 screen (one under
    another it was 770 pixels tall and made the window taller than the screen); a
    smaller window scrolls the page."""

    def __init__(self, window: WindowHost) -> None:
        page = QWidget()
        super().__init__(page)
        lay = QVBoxLayout(page)
        lay.addStretch(1)
        title = QLabel("<h1>Shipyard</h1><p>Build a spacecraft by the rules, or open one of the sample ships.</p>")
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        lay.addWidget(title)
        grid = QGridLayout()
        grid.setHorizontalSpacing(48)
        grid.setVerticalSpacing(16)
        centred = QHBoxLayout()  # the two columns side by side in the middle, not at the window's edges
        centred.addStretch(1)
        centred.addLayout(grid)
        centred.addStretch(1)
        lay.addLayout(centred)
        for n, info in enumerate(rulesets()):
            cell = QVBoxLayout()
            grid.addLayout(cell, n // 2, n % 2, Qt.AlignmentFlag.AlignTop)
            heading = QLabel(f"<b>{info.name}</b>")
            heading.setToolTip(info.manifest.description)
            cell.addWidget(heading, alignment=Qt.AlignmentFlag.AlignCenter)
            row = QWidget()
            buttons = QHBoxLayout(row)
            buttons.setContentsMargins(0, 0, 0, 0)
            for kind in info.kinds:
                b = QPushButton(f"New {kind.name.lower()}")
                b.setAccessibleName(f"New {info.name} {kind.name.lower()}")
                b.setToolTip(kind.description)
                b.setMinimumWidth(120)
                b.clicked.connect(lambda _=False, k=kind.id, r=info.id: window.new(k, r))
                buttons.addWidget(b)
            cell.addWidget(row, alignment=Qt.AlignmentFlag.AlignCenter)
            samples = sample_files(info.samples)
            if samples:
                picker = QComboBox()
                picker.setAccessibleName(f"Open a {info.name} sample")
                picker.addItem(f"Open a sample ({len(samples)})…", None)
                for f in samples:
                    picker.addItem(sample_name(f), str(f))
                picker.activated.connect(
                    lambda i, p=picker: window.open_sample(Path(p.itemData(i))) if p.itemData(i) else None
                )
                cell.addWidget(picker, alignment=Qt.AlignmentFlag.AlignCenter)
            if info.manifest.samples_note:
                note = QLabel(info.manifest.samples_note, wordWrap=True)
                note.setAlignment(Qt.AlignmentFlag.AlignCenter)
                note.setFixedSize(480, note.heightForWidth(480))  # all its lines, in a centred layout
                cell.addWidget(note, alignment=Qt.AlignmentFlag.AlignCenter)
        for problem in registry_problems():
            broken = QLabel(f"Not loaded: {escape(str(problem))}", wordWrap=True)
            broken.setTextFormat(Qt.TextFormat.PlainText)  # a folder name is text, never markup
            broken.setMaximumWidth(560)
            lay.addWidget(broken, alignment=Qt.AlignmentFlag.AlignCenter)
        self.main = window
        self.recent_box = QWidget()  # the designs opened last, filled each time the page shows
        self.recent_box.setAccessibleName("Recent designs")
        self.recent_lay = QVBoxLayout(self.recent_box)
        self.recent_lay.setContentsMargins(0, 8, 0, 0)
        lay.addWidget(self.recent_box, alignment=Qt.AlignmentFlag.AlignCenter)
        lay.addStretch(2)

    def show_recent(self, paths: list[str]) -> list[QPushButton]:
        """A button for each recent design that is still there (the first five)."""
        lay = self.recent_lay
        while lay.count():
            item = lay.takeAt(0)
            old = item.widget() if item is not None else None
            if old is not None:
                old.deleteLater()
        there = [Path(p) for p in paths if Path(p).is_file()][:5]
        buttons = []
        if there:
            lay.addWidget(QLabel("<b>Recent designs</b>"), alignment=Qt.AlignmentFlag.AlignCenter)
        for path in there:
            b = QPushButton(path.name)
            b.setAccessibleName(f"Open {path.name}")
            b.setToolTip(str(path))
            b.setMinimumWidth(240)
            b.clicked.connect(lambda _=False, p=path: self.main.open_file(p))
            lay.addWidget(b, alignment=Qt.AlignmentFlag.AlignCenter)
            buttons.append(b)
        self.recent_box.setVisible(bool(there))
        return buttons
