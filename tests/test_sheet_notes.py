"""A design's notes on its record sheet: whole where they fit the sheet's Notes box, else cut
in the box with a pointer and printed whole on a page after the sheet.

The boxes cut notes at a length that keeps the sheet on one page (a dense sheet's box holds
less, some have none), and cut them without a word: a Storyteller's 400 letters of session
notes printed as 300 and "...", with a third of the page empty; Space Fury's fighter and
pilot sheets printed no notes at all.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shipyard.core.designfile import new_design, save_design
from shipyard.render.printing import print_designs
from shipyard.render.worker import RenderWorker

from .conftest import ROOT, call_shipyard
from .sheets import is_notes_page
from .test_printing import pages_text

FIRST = {  # a sample of each ruleset
    "space-fighter-alpha": "rebel-fighter",
    "space-fury": "scout",
    "cluster-falk": "brigand-gunboat",
    "wing-commander": "hornet",
    "future-perfect": "frigate",
}
LONG = " ".join(f"Session {n}: the crew held the gate against the raiders." for n in range(1, 25)) + " END-OF-NOTES"


def with_notes(folder: Path, ruleset: str, sample: str, notes: str) -> Path:
    doc = json.loads((ROOT / "catalogs" / ruleset / "examples" / f"{sample}.ship").read_text(encoding="utf-8"))
    doc["design"]["notes"] = notes
    folder.mkdir(exist_ok=True)
    out = folder / f"{ruleset}-{sample}.ship"
    out.write_text(json.dumps(doc), encoding="utf-8")
    return out


SHORT = "Ana flies her on Saturdays; the left thruster sticks. END-OF-NOTES"


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("ruleset", list(FIRST))
def test_notes_are_whole_on_the_sheet_when_they_fit_and_after_it_when_not(
    ruleset: str, paper: str, tmp_path: Path, workers: list[RenderWorker]
) -> None:
    long = with_notes(tmp_path, ruleset, FIRST[ruleset], LONG)
    files = [long, with_notes(tmp_path / "short", ruleset, FIRST[ruleset], SHORT)]
    if ruleset == "space-fury":  # a pilot's sheet, which printed no notes either
        files.append(tmp_path / "ace.ship")
        save_design(new_design("space-fury", "Ace", "pilot", use_user_folder=False), files[-1])
        assert call_shipyard("set", files[-1], f"notes={SHORT}", "--in-place").returncode == 0
    pdf = tmp_path / "sheets.pdf"
    result = print_designs(files, pdf, paper=paper, workers=workers, use_user_folder=False)
    texts = pages_text(pdf)
    # the long notes: cut in the box, saying so, then whole on the next page
    assert result.starts == [1, *range(3, len(files) + 2)]  # the first design takes two pages, the others one
    sheet, notes, *others = texts
    assert not is_notes_page(sheet) and is_notes_page(notes)
    assert "Session 1: the crew held the gate" in sheet and "(continued on the next page)" in sheet
    assert "END-OF-NOTES" not in sheet and LONG in notes
    # the short: whole on the sheet's one page
    assert len(others) == len(files) - 1
    assert all(SHORT in text and not is_notes_page(text) for text in others)


def drawn(pdf: Path, page: int, word: str) -> bool:
    """Whether ``word`` on page ``page`` (from 0) is drawn where it stands, not clipped away:
    a clipped text is still in the page's text (pdftotext reads it), but its place is blank."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        sheet = document[page]
        found = sheet.get_textpage().search(word).get_next()
        assert found is not None, f"{word!r} is not on page {page + 1}"
        first, count = found
        text = sheet.get_textpage()
        boxes = [text.get_charbox(i) for i in range(first, first + count)]
        left, right = min(b[0] for b in boxes), max(b[2] for b in boxes)
        bottom, top = min(b[1] for b in boxes), max(b[3] for b in boxes)
        scale = 2
        image = sheet.render(scale=scale, grayscale=True).to_pil()
        height = sheet.get_height()
        crop = image.crop(
            (int(left * scale), int((height - top) * scale), int(right * scale) + 1, int((height - bottom) * scale) + 1)
        )
        return crop.getextrema()[0] < 128  # the darkest pixel: ink
    finally:
        document.close()


@pytest.mark.parametrize("ruleset", list(FIRST))
def test_notes_too_long_for_their_page_are_drawn_to_the_last_word(
    ruleset: str, tmp_path: Path, workers: list[RenderWorker]
) -> None:
    """The notes page showed a box of the sheet's Notes height (its CSS also matched the
    page's box), so 2,000 letters stopped mid-line after four lines: the words were in the
    PDF's text, clipped from sight."""
    longest = " ".join(f"Sentence {n} about the ship." for n in range(1, 61)) + " FINALWORD"
    pdf = tmp_path / "sheet.pdf"
    print_designs([with_notes(tmp_path, ruleset, FIRST[ruleset], longest)], pdf, workers=workers, use_user_folder=False)
    texts = pages_text(pdf)
    notes = next(n for n, text in enumerate(texts) if is_notes_page(text))
    assert drawn(pdf, notes, "Sentence 2 ") and drawn(pdf, notes, "FINALWORD")
