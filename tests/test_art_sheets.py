"""A design's art and story on the sheets of every ruleset: record sheet, fleet book page,
stat card and comparison, all drawn by templates/common/art.html.

A design with art shows its picture (scaled once: a 4000 x 3000 photo reaches the PDF at
most 600 pixels on its long side) and its story, and keeps to the pages it took without
them; a design without art has no picture box at all.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageDraw

from shipyard.core import registry
from shipyard.core.artcheck import read_art
from shipyard.core.designfile import sample_files
from shipyard.render.art import ART_PIXELS, page_art
from shipyard.render.printing import print_designs

from .sheets import overlap, pictures_placed, placed_words, sheet_html
from .test_printing import pages_text

STORY = (
    "Laid down at the Vesta yards in the last year of the war, she flew her first sortie against the "
    "picket at Tau Ceti and came home with half her crew. Notable crew: Lt. Mara Voss, who flew her "
    "through the Kessel shoals; Chief Adeyemi, who kept her engines alive with parts from three wrecks. "
) * 4


def photo(path: Path, size: tuple[int, int] = (4000, 3000)) -> Path:
    image = Image.new("RGB", size, (20, 30, 60))
    draw = ImageDraw.Draw(image)
    draw.ellipse([size[0] // 4, size[1] // 4, 3 * size[0] // 4, 3 * size[1] // 4], fill=(200, 40, 40))
    image.save(path, quality=90)
    return path


def with_art(samples: list[Path], folder: Path, art: str | None = "photo.jpg") -> list[Path]:
    """Copies of ``samples`` in ``folder``, each with ``art`` and a long story (or neither)."""
    out = []
    for file in samples:
        doc = json.loads(file.read_text())
        if art is not None:
            doc["design"] = {**doc["design"], "art": art, "story": STORY}
        copy = folder / file.name
        copy.write_text(json.dumps(doc))
        out.append(copy)
    return out


def images(pdf: Path) -> list[tuple[int, int]]:
    """The size in pixels of every picture drawn on every page (each time it is drawn)."""
    doc = pdfium.PdfDocument(pdf)
    sizes = []
    for page in doc:
        for obj in page.get_objects(filter=[pdfium.raw.FPDF_PAGEOBJ_IMAGE], max_depth=6):
            sizes.append(tuple(obj.get_px_size()))
    doc.close()
    return sizes


RULESETS = registry.rulesets()
# a worker group a ruleset (conftest._group): each ruleset's fleet books print on a core of their own
XDIST_GROUP_BY = ("ruleset",)


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], tuple[list[Path], list[Path]]]:
    """For a ruleset: its samples as they are, and the same with a 4000 x 3000 photo and a
    story, made the first time a test of the module asks (a worker group holds one ruleset)."""

    @functools.cache
    def of(ruleset: str) -> tuple[list[Path], list[Path]]:
        base = tmp_path_factory.mktemp(ruleset)
        (base / "plain").mkdir()
        (base / "art").mkdir()
        photo(base / "art" / "photo.jpg")
        samples = sample_files(registry.get(ruleset).samples)
        return with_art(samples, base / "plain", None), with_art(samples, base / "art")

    return of


@pytest.mark.parametrize("ruleset", [r.id for r in RULESETS])
def test_the_fleet_book_shows_each_designs_art_and_keeps_its_pages(
    ruleset: str, folders: Callable[[str], Any], workers: list[Any], tmp_path: Path
) -> None:
    plain, arted = folders(ruleset)
    before = print_designs(plain, tmp_path / "plain.pdf", sheet="fleet", workers=workers, use_user_folder=False)
    after = print_designs(arted, tmp_path / "art.pdf", sheet="fleet", workers=workers, use_user_folder=False)
    assert after.pages == before.pages and after.starts == before.starts
    shown = images(tmp_path / "art.pdf")
    assert len(shown) == len(arted) and len(images(tmp_path / "plain.pdf")) == 0
    assert all(max(size) <= ART_PIXELS for size in shown), shown  # scaled once, not the 4000 x 3000 photo
    assert "Laid down at the Vesta yards" in " ".join(pages_text(tmp_path / "art.pdf"))


@pytest.mark.parametrize("ruleset", [r.id for r in RULESETS])
def test_cards_and_the_comparison_show_the_art(
    ruleset: str, folders: Callable[[str], Any], workers: list[Any], tmp_path: Path
) -> None:
    plain, arted = folders(ruleset)
    cards = print_designs(arted, tmp_path / "cards.pdf", sheet="cards", workers=workers, use_user_folder=False)
    plain_cards = print_designs(plain, tmp_path / "p.pdf", sheet="cards", workers=workers, use_user_folder=False)
    assert cards.pages == plain_cards.pages
    # every design's own card shows its picture (a force's members' cards are theirs, not the force's)
    assert len(images(tmp_path / "cards.pdf")) >= 1
    assert len(images(tmp_path / "p.pdf")) == 0
    pair = arted[:2]
    print_designs(pair, tmp_path / "cmp.pdf", sheet="compare", workers=workers, use_user_folder=False)
    assert len(images(tmp_path / "cmp.pdf")) == len(pair)


@pytest.mark.parametrize("ruleset", [r.id for r in RULESETS])
def test_a_card_s_picture_hides_none_of_its_words(ruleset: str, workers: list[Any], tmp_path: Path) -> None:
    """A wide picture (400 x 200) in a card's top-right corner hid the end of the line under
    the name ("Starfighter · crew 1 · does not pass" of the Alien Disk Fighter): only the
    name made room for it."""
    Image.new("RGB", (400, 200), (20, 30, 60)).save(tmp_path / "wide.png")
    samples = sample_files(registry.get(ruleset).samples)
    (file,) = with_art(samples[:1], tmp_path, "wide.png")
    if ruleset == "space-fighter-alpha":  # the one of the report: the longest line under the name
        (file,) = with_art([s for s in samples if s.name == "alien-disk-fighter.ship"], tmp_path, "wide.png")
    out = tmp_path / "cards.pdf"
    print_designs([file], out, sheet="cards", workers=workers, use_user_folder=False)
    pictures = pictures_placed(out)
    assert pictures
    hidden = [w for p, box, w in placed_words(out) for q, art in pictures if p == q and overlap(box, art)]
    assert hidden == []


@pytest.mark.parametrize("ruleset", [r.id for r in RULESETS])
def test_without_art_the_sheet_has_no_picture_box(ruleset: str, folders: Callable[[str], Any]) -> None:
    plain, arted = folders(ruleset)
    html = sheet_html(plain[0])
    # the style sheet names the classes; no element carries them
    assert '<div class="art-cell">' not in html and "<img" not in html and '<div class="story' not in html
    html = sheet_html(arted[0])
    assert html.count('<div class="art-cell"><img class="art head-art"') == 1 and html.count('<div class="story') == 1


def test_a_big_photo_is_scaled_once_and_kept(tmp_path: Path) -> None:
    photo(tmp_path / "big.jpg")
    art = read_art("big.jpg", tmp_path / "d.ship")
    first = page_art(art)
    assert first is not None and (first.width, first.height) == (ART_PIXELS, ART_PIXELS * 3 // 4)
    assert page_art(read_art("big.jpg", tmp_path / "d.ship")) is first  # the second sheet reuses it


def test_broken_pixels_are_refused_in_a_process_that_has_rendered_a_page() -> None:
    """WeasyPrint, once imported, makes Pillow pass broken pixels as whatever it could read;
    a process that has imported it (the render worker, a test worker that printed) must leave
    the picture out as a fresh process does (the editor's thumbnail showed the garbage in a
    test worker that had printed before, and "left out" in one that had not)."""
    import weasyprint  # noqa: F401 (what sets Pillow lenient)
    from PIL import ImageFile

    from shipyard.render.art import decode

    corpus = Path(__file__).parent / "corpus" / "bad" / "art"
    assert ImageFile.LOAD_TRUNCATED_IMAGES is True  # as WeasyPrint leaves it
    assert decode(read_art("undecodable.png", corpus / "art-undecodable.ship"), ART_PIXELS) is None
    assert ImageFile.LOAD_TRUNCATED_IMAGES is True  # WeasyPrint's own pictures as it wants them
    assert decode(read_art("ok.png", corpus / "art-ok.ship"), ART_PIXELS) is not None


def test_an_upright_photo_is_turned_as_its_exif_says(tmp_path: Path) -> None:
    image = Image.new("RGB", (400, 200), (0, 0, 255))
    exif = image.getexif()
    exif[0x0112] = 6  # orientation: rotate 90 degrees clockwise to show
    image.save(tmp_path / "turned.jpg", exif=exif)
    scaled = page_art(read_art("turned.jpg", tmp_path / "d.ship"))
    assert scaled is not None and (scaled.width, scaled.height) == (200, 400)
    assert scaled.src.startswith("data:image/jpeg;base64,")


def test_embedding_turns_the_picture_upright_and_drops_its_metadata(tmp_path: Path) -> None:
    import base64
    import io

    from shipyard.render.art import embedded_uri

    image = Image.new("RGB", (400, 200), (0, 0, 255))
    exif = image.getexif()
    exif[0x0112] = 6  # orientation: rotate 90 degrees clockwise to show
    exif[0x010F] = "PhoneMaker"  # the camera's maker
    exif[0x9286] = "taken at home"  # a user comment
    image.save(tmp_path / "phone.jpg", exif=exif)
    uri = embedded_uri(read_art("phone.jpg", tmp_path / "d.ship"))
    assert uri.startswith("data:image/jpeg;base64,")
    data = base64.b64decode(uri.split(",", 1)[1])
    with Image.open(io.BytesIO(data)) as kept:
        assert kept.size == (200, 400) and len(kept.getexif()) == 0
    assert b"PhoneMaker" not in data and b"taken at home" not in data
