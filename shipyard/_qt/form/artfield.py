"""The design's picture and story on the first page of every generated form: a neutral
part, the same for every ruleset (``art`` and ``story`` are fields of every design, see
shipyard.core.designtypes).

The story is a multi-line text bound like every other text field of a form (the binder:
typing in it is one undo step, undo and redo show the text as it was).

It shows a thumbnail (or why the picture is left out), drawn in the picture worker
(:mod:`shipyard.render.pictureworker`): the editor never decodes the user's picture
itself. It offers Choose... (a picture in the design's folder is kept as a path
relative to the design; one elsewhere, or in a design not saved yet, is embedded),
Embed (the picture into the design, upright and without its metadata), Remove, and a
picture file dropped on it. Every change is one
edit of the document, so one undo step.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QPixmap
from PySide6.QtWidgets import QGroupBox, QHBoxLayout, QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from shipyard.core.artcheck import art_of, design_art, read_art
from shipyard.core.errors import InputError

THUMB = (120, 90)
PICTURES = "Pictures (*.png *.jpg *.jpeg *.webp *.svg)"


def presentation_row(doc: Any, binder: Any, report_error: Any) -> tuple[QWidget, ArtField, QWidget]:
    """The art box and, beside it, the story box: the row every design's first page ends with."""
    from shipyard._qt.document.keys import TextBox

    art = ArtField(doc, report_error)
    story_box = QGroupBox()
    story = TextBox()
    story.setPlaceholderText("The design's history: where it served, its notable crew (printed in the fleet book)")
    story.setAccessibleName("Story")
    story.setToolTip("The design's history, printed on its record sheet where there is room and in the fleet book")
    # as tall as the art box beside it, no taller: the first page keeps the height it had
    story.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Ignored)
    binder.text("story", story)
    label = QLabel("Sto&ry")
    label.setBuddy(story)
    inner = QVBoxLayout(story_box)
    inner.addWidget(label)
    inner.addWidget(story, 1)
    row = QWidget()
    lay = QHBoxLayout(row)
    lay.setContentsMargins(0, 0, 0, 0)
    lay.addWidget(art, 1)
    lay.addWidget(story_box, 1)
    return row, art, story


class ArtField(QGroupBox):
    def __init__(self, doc: Any, report_error: Any) -> None:
        super().__init__("Art")
        self.doc, self.report_error = doc, report_error
        self.setAcceptDrops(True)
        self.setToolTip("The design's picture, on its sheets, card and token. Drop a picture file here.")
        self.thumb = QLabel()
        self.thumb.setFixedSize(*THUMB)
        self.thumb.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.thumb.setFrameShape(QLabel.Shape.StyledPanel)
        self.thumb.setAccessibleName("Art thumbnail")
        self.where = QLabel(wordWrap=True)
        self.where.setTextFormat(Qt.TextFormat.PlainText)
        self.choose = QPushButton("C&hoose…")
        self.embed = QPushButton("E&mbed")
        self.remove = QPushButton("Remo&ve")
        for button, text in (
            (self.choose, "Choose a picture (PNG, JPEG, WebP or SVG)"),
            (self.embed, "Keep the picture inside the design file, upright and without its metadata"),
            (self.remove, "Remove the picture from the design"),
        ):
            button.setAccessibleName(button.text().replace("&", "").rstrip("…"))
            button.setToolTip(text)
        self.choose.clicked.connect(self.ask)
        self.embed.clicked.connect(self.embed_current)
        self.remove.clicked.connect(lambda: self._set(None, "Remove the art"))
        buttons = QVBoxLayout()
        for b in (self.choose, self.embed, self.remove):
            buttons.addWidget(b)
        buttons.addStretch(1)
        words = QVBoxLayout()
        words.addWidget(self.where)
        words.addStretch(1)
        row = QHBoxLayout(self)
        row.addWidget(self.thumb)
        row.addLayout(words, 1)
        row.addLayout(buttons)
        self.update_from_design()

    # --- showing --------------------------------------------------------------------------

    def update_from_design(self, _ctx: object = None) -> None:
        ref = design_art(self.doc.design)
        art, problem = art_of(self.doc.design, self.doc.path)
        self.remove.setEnabled(ref is not None)
        self.embed.setEnabled(art is not None and not (ref or "").startswith("data:"))
        if ref is None:
            self.thumb.setPixmap(QPixmap())
            self.thumb.setText("no art")
            self.where.setText("No picture. Choose one, or drop a picture file here.")
            return
        if problem is not None:
            self.thumb.setPixmap(QPixmap())
            self.thumb.setText("left out")
            self.where.setText(f"Left out of the sheets: {problem.problems[0]}")
            return
        assert art is not None
        from shipyard.render.art import page_art_problem, thumbnail

        # decoded and drawn in the picture worker, never here: a picture that crashes a
        # decoder takes that worker down, not the editor and its unsaved designs
        why = page_art_problem(art)
        drawn = thumbnail(art, THUMB) if why is None else why
        if isinstance(drawn, str):
            self.thumb.setPixmap(QPixmap())
            self.thumb.setText("left out")
            self.where.setText(
                f"Left out of the sheets: {ref if not ref.startswith('data:') else 'embedded art'}: {drawn}"
            )
            return
        pixmap = QPixmap()
        pixmap.loadFromData(drawn, "PNG")  # the worker's own PNG, no larger than the thumbnail
        self.thumb.setPixmap(pixmap)
        size = f"{art.width} x {art.height} pixels" if art.width else "vector"
        shown = "embedded in the design" if ref.startswith("data:") else ref
        self.where.setText(f"{shown} ({art.kind.upper()}, {size})")

    # --- changing -------------------------------------------------------------------------

    def _set(self, value: str | None, text: str) -> None:
        error = self.doc.edit("art", value, merge=False, text=text)
        if error:
            self.report_error(error)

    def ask(self) -> None:
        from PySide6.QtWidgets import QFileDialog  # made on first use, off the start-up path

        start = str(self.doc.path.parent) if self.doc.path else ""
        name, _ = QFileDialog.getOpenFileName(self, "Choose the design's picture", start, PICTURES)
        if name:
            self.use_file(Path(name))

    def use_file(self, file: Path) -> None:
        """The picture ``file``: by its path when it lies in the design's folder, else embedded."""
        design = self.doc.path
        folder = design.resolve().parent if design is not None else None
        real = file.resolve()
        try:
            if folder is not None and real.is_relative_to(folder):
                ref = real.relative_to(folder).as_posix()
                read_art(ref, design)  # refused now, with its reason, rather than left out later
                self._set(ref, "Choose the art")
            else:
                from shipyard.render.art import embedded_uri

                art = read_art(real.name, real.parent / "design.ship")
                self._set(embedded_uri(art), "Embed the art")
        except InputError as exc:
            self.report_error(str(exc.problems[0]))

    def embed_current(self) -> None:
        from shipyard.render.art import embedded_uri

        art, problem = art_of(self.doc.design, self.doc.path)
        if art is None:
            if problem is not None:
                self.report_error(str(problem.problems[0]))
            return
        try:
            self._set(embedded_uri(art), "Embed the art")
        except InputError as exc:
            self.report_error(str(exc.problems[0]))

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        urls = event.mimeData().urls()
        if urls and urls[0].isLocalFile():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        urls = event.mimeData().urls()
        if urls and urls[0].isLocalFile():
            event.acceptProposedAction()
            self.use_file(Path(urls[0].toLocalFile()))
