"""Cut-out tokens: ``shipyard print FILES --sheet tokens`` for every ruleset.

Every token is measured in the PDF: the shape it is cut from (its filled ground, drawn
without a stroke) must be the size asked for within 0.2 mm, on A4 and Letter, round,
square and hexagonal (a hexagon's size is across its flats, its height 2/sqrt(3) of it).
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pytest
from PIL import Image
from pypdf import PdfReader

from shipyard.core import registry
from shipyard.core.designfile import load_design, sample_files
from shipyard.core.errors import InputError
from shipyard.core.evaluate import evaluate
from shipyard.render.paper import PAPERS
from shipyard.render.printing import print_designs
from shipyard.render.tokens import initials, token_spec

from .conftest import ROOT, call_shipyard

MM = 25.4 / 72
TOLERANCE_MM = 0.2


def shapes(pdf: Path, page: int = 0) -> list[tuple[float, float, float, float]]:
    """Every filled path on a page: left, top (mm from the page's top-left corner), width and height in mm."""
    doc = pdfium.PdfDocument(pdf)
    p = doc[page]
    height = p.get_height()
    out = []
    for obj in p.get_objects(max_depth=6):
        if obj.type == pdfium.raw.FPDF_PAGEOBJ_PATH:
            left, bottom, right, top = obj.get_bounds()
            out.append((left * MM, (height - top) * MM, (right - left) * MM, (top - bottom) * MM))
    doc.close()
    return out


def tokens_of(pdf: Path, width: float, height: float) -> list[tuple[float, float, float, float]]:
    return [s for s in shapes(pdf) if abs(s[2] - width) <= TOLERANCE_MM and abs(s[3] - height) <= TOLERANCE_MM]


CASES = [  # ruleset, size, shape, paper, back
    ("space-fighter-alpha", "1in", "round", "a4", False),
    ("space-fury", "0.75in hex", None, "letter", True),
    ("cluster-falk", "25mm", "square", "a4", True),
    ("future-perfect", "1.5in", "hex", "a4", False),
    ("wing-commander", "0.75in", "round", "letter", True),
]


@pytest.mark.parametrize(("ruleset", "size", "shape", "paper", "back"), CASES, ids=[c[0] for c in CASES])
def test_every_token_is_the_size_asked_for(
    ruleset: str, size: str, shape: str | None, paper: str, back: bool, workers: list[Any], tmp_path: Path
) -> None:
    samples = sample_files(registry.get(ruleset).samples)
    spec = token_spec(size, shape, back)
    out = tmp_path / "tokens.pdf"
    result = print_designs(
        samples, out, sheet="tokens", paper=paper, token=spec, workers=workers, use_user_folder=False
    )
    assert result.pages == 1 and result.sizes == [PAPERS[paper]]
    expected_h = spec.size_mm * 2 / math.sqrt(3) if spec.shape == "hex" else spec.size_mm
    found = tokens_of(out, spec.size_mm, expected_h)
    assert len(found) == len(samples) * (2 if back else 1), (len(found), sorted(shapes(out))[:5])
    width, height = PAPERS[paper]
    for left, top, w, h in found:  # on the page, inside the margins every printer prints to
        assert left >= 9.9 and left + w <= width - 9.9 and top >= 9.9 and top + h <= height - 9.9
    # no two tokens overlap (a back touches its front along the fold, never more)
    boxes = sorted(found)
    for a, b in itertools.pairwise(boxes):
        if abs(a[1] - b[1]) < 0.01:
            assert b[0] >= a[0] + a[2] - 0.01


@pytest.mark.parametrize("ruleset", [r.id for r in registry.rulesets()])
def test_a_token_shows_the_initials_the_name_and_the_rulesets_key_figure(
    ruleset: str, workers: list[Any], tmp_path: Path
) -> None:
    info = registry.get(ruleset)
    assert info.manifest.tabletop is not None, "every ruleset declares its tokens' key figure"
    file = sample_files(info.samples)[0]
    loaded = load_design(file, use_user_folder=False)
    report = evaluate(loaded.design, loaded.catalog)
    figure = next(f for f in report.derived.figures if f.id == info.manifest.tabletop.key_figure)
    out = tmp_path / "t.pdf"
    print_designs([file], out, sheet="tokens", token=token_spec("1.5in", "square"), workers=workers)
    text = " ".join(PdfReader(out).pages[0].extract_text().split())
    assert initials(report.name) in text
    assert f"{figure.shown()} {info.manifest.tabletop.key_label}" in text, text
    assert report.name[:10] in text


def test_a_token_prints_its_key_figure_as_the_table_and_the_card_do(workers: list[Any], tmp_path: Path) -> None:
    """The Broadsword's DRV is +2: its card printed "+2" and its token "2 DRV", the sign
    lost, as the table gave the figure as a plain number. The table gives a modifier with
    its sign, and the token and the card print what the table gives."""
    from shipyard.core.shown import design_table

    file = ROOT / "catalogs" / "wing-commander" / "examples" / "broadsword.ship"
    loaded = load_design(file, use_user_folder=False)
    key = design_table(evaluate(loaded.design, loaded.catalog)).key
    assert key is not None and (key.value, key.number) == ("+2", 2)
    out = tmp_path / "t.pdf"
    print_designs([file], out, sheet="tokens", token=token_spec("1in"), workers=workers)
    assert "+2 DRV" in " ".join(PdfReader(out).pages[0].extract_text().split())
    print_designs([file], out, sheet="cards", workers=workers)
    assert "+2" in PdfReader(out).pages[0].extract_text().split()


LONG_NAMES = [
    "Alpha Bravo Charlie Delta Echo Foxtrot Golf Hotel India Juliet",
    "Supercalifragilisticexpialidociousandevenmoreletters Rocket",
    "A Supercalifragilisticexpialidociousandevenmoreletters",
    "Nine Hundred And Ninety Nine Starships Of The Outer Rim Patrol",
]


@pytest.mark.parametrize("shape", ["round", "square", "hex"])
@pytest.mark.parametrize("name", LONG_NAMES, ids=range(len(LONG_NAMES)))
def test_a_cut_name_reads_in_its_order(shape: str, name: str) -> None:
    """A name too long for the token was cut at the end of each line: "Alpha Bravo Ch… /
    Foxtrot Golf Ho…" left Delta and Echo out with no mark. What a token shows is now the
    name's beginning, its words in order, the first line whole words (or as much of a
    first word as fits), and one "…" at the end of the last line where the rest is cut."""
    from shipyard.render.tokens import name_layout

    lines = [line["text"] for line in name_layout(name, token_spec("1in", shape))["lines"]]
    assert len(lines) == 2 and lines[-1].endswith("…") and "…" not in lines[0], lines
    shown = lines[1].removesuffix("…")
    assert name.startswith(f"{lines[0]} {shown}") or name.startswith(lines[0] + shown), lines
    whole_words = " ".join(name.split()[: len(lines[0].split())])
    assert lines[0] == whole_words or name.split()[0].startswith(lines[0]), lines


def test_a_token_shows_the_art_instead_of_the_initials(workers: list[Any], tmp_path: Path) -> None:
    Image.new("RGB", (300, 200), (10, 120, 200)).save(tmp_path / "ship.png")
    sample = sample_files(registry.get("space-fighter-alpha").samples)[0]
    doc = json.loads(sample.read_text())
    doc["design"]["art"] = "ship.png"
    file = tmp_path / "with-art.ship"
    file.write_text(json.dumps(doc))
    out = tmp_path / "t.pdf"
    print_designs([file], out, sheet="tokens", token=token_spec("1in"), workers=workers, use_user_folder=False)
    page = PdfReader(out).pages[0]
    assert len(page.images) == 1
    assert initials(doc["design"]["name"]) not in page.extract_text().split()


def test_token_sizes_are_read_in_mm_cm_and_inches() -> None:
    assert token_spec("1in").size_mm == 25.4
    assert token_spec("25mm").size_mm == 25.0
    assert (token_spec("0.75in hex").size_mm, token_spec("0.75in hex").shape) == (19.05, "hex")
    assert token_spec("2.5cm", "square").shape == "square"
    for bad, says in [("2ft", "is not a length"), ("5mm", "12.7 to 76.2 mm"), ("1in star", "is not a length")]:
        with pytest.raises(InputError) as info:
            token_spec(bad)
        assert says in str(info.value) and "--token-size" in str(info.value)


def test_a_bad_token_size_on_the_command_line_writes_nothing(tmp_path: Path) -> None:
    sample = sample_files(registry.get("space-fighter-alpha").samples)[0]
    out = tmp_path / "t.pdf"
    proc = call_shipyard("print", sample, "--sheet", "tokens", "--token-size", "4in", "-o", out, "--no-user-catalog")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "token size '4in' is 101.6 mm" in proc.stderr and "12.7 to 76.2 mm" in proc.stderr
    assert not out.exists()


@pytest.mark.parametrize("shape", ["round", "square", "hex"])
def test_every_samples_name_fits_inside_its_token_whole(shape: str) -> None:
    """The name is never cut by the token's edge: at 1 inch every sample's name stands whole
    (on one line or two) and each line, measured with the font the token is drawn in, is
    narrower than the shape where the line stands (a circle's chord, a hexagon's width)."""
    import subprocess

    from PIL import ImageFont

    from shipyard.render.tokens import _ASCENT, _DESCENT, name_layout, shape_width

    found = subprocess.run(
        ["fc-match", "-f", "%{file}", "DejaVu Sans Condensed:bold"], capture_output=True, text=True, check=False
    ).stdout
    if "DejaVuSansCondensed-Bold" not in found:
        pytest.skip("the token's font is not installed")
    font = ImageFont.truetype(found, 1000)
    spec = token_spec("1in", shape)
    for info in registry.rulesets():
        for file in sample_files(info.samples):
            name = load_design(file, use_user_folder=False).design.name
            layout = name_layout(name, spec)
            assert " ".join(line["text"] for line in layout["lines"]) == name, (name, layout)
            size = layout["size"]
            for line in layout["lines"]:
                width = font.getlength(line["text"]) / 1000 * size
                room = shape_width(spec, line["y"] - _ASCENT * size, line["y"] + _DESCENT * size) + 0.1 * spec.size_mm
                assert width <= room, (name, line, width, room)
