"""``shipyard export FILES --format card-png | token-png | sheet-png [--dpi] -o DIR``.

The PNGs come from the PDFs' templates, rasterized: a card is 63 x 88 mm at the
resolution asked for, a token is transparent outside its shape, a sheet is the page.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image

from shipyard.core import registry
from shipyard.core.designfile import sample_files

from .conftest import call_shipyard


def px(mm: float, dpi: int) -> int:
    return round(mm / 25.4 * dpi)


def export(*args: object) -> tuple[int, str]:
    proc = call_shipyard("export", *args, "--no-user-catalog")
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, proc.stderr


@pytest.mark.parametrize("ruleset", [r.id for r in registry.rulesets()])
def test_every_ruleset_exports_its_card_at_the_size_of_a_card(ruleset: str, tmp_path: Path) -> None:
    sample = sample_files(registry.get(ruleset).samples)[0]
    code, err = export(sample, "--format", "card-png", "--dpi", "300", "-o", tmp_path / "out")
    assert code == 0, err
    cards = sorted((tmp_path / "out").glob("*.png"))
    assert cards and cards[0].name == f"{sample.stem}-card.png"
    for card in cards:
        with Image.open(card) as im:
            assert abs(im.width - px(63, 300)) <= 1 and abs(im.height - px(88, 300)) <= 1
            assert im.convert("L").getextrema()[0] < 100  # it has something printed on it


def test_a_token_is_transparent_outside_its_shape(tmp_path: Path) -> None:
    sample = sample_files(registry.get("space-fighter-alpha").samples)[0]
    code, err = export("token-png", sample, "--token-size", "1in", "--dpi", "150", "-o", tmp_path)
    assert code == 0, err
    with Image.open(tmp_path / f"{sample.stem}-token.png") as im:
        assert im.mode == "RGBA"
        side = px(25.4 + 0.6, 150)
        assert abs(im.width - side) <= 2 and abs(im.height - side) <= 2  # PDFium rounds the crop
        assert im.getpixel((1, 1))[3] == 0 and im.getpixel((im.width - 2, im.height - 2))[3] == 0  # corners
        assert im.getpixel((im.width // 2, im.height // 2))[3] == 255  # the token itself


def test_a_sheet_is_each_page_at_the_resolution_asked_for(tmp_path: Path) -> None:
    sample = sample_files(registry.get("wing-commander").samples)[0]
    code, err = export(sample, "--format=sheet-png", "--paper", "letter", "-o", tmp_path)
    assert code == 0, err
    with Image.open(tmp_path / f"{sample.stem}-sheet.png") as im:
        assert (abs(im.width - px(215.9, 150)) <= 1, abs(im.height - px(279.4, 150)) <= 1) == (True, True)


def test_an_existing_png_is_kept_unless_forced_and_nothing_else_is_written(tmp_path: Path) -> None:
    samples = sample_files(registry.get("space-fighter-alpha").samples)[:2]
    (tmp_path / f"{samples[1].stem}-card.png").write_bytes(b"mine")
    code, err = export(*samples, "--format", "card-png", "-o", tmp_path)
    assert code == 2 and "exists; use --force" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"{samples[1].stem}-card.png"]
    assert (tmp_path / f"{samples[1].stem}-card.png").read_bytes() == b"mine"
    code, err = export(*samples, "--format", "card-png", "-o", tmp_path, "--force")
    assert code == 0, err
    assert Image.open(io.BytesIO((tmp_path / f"{samples[1].stem}-card.png").read_bytes())).format == "PNG"


def test_a_design_with_bad_art_exports_without_it(tmp_path: Path) -> None:
    corpus = Path(__file__).resolve().parent / "corpus" / "bad" / "art"
    code, err = export(corpus / "art-bomb.ship", "--format", "card-png", "-o", tmp_path)
    assert code == 0, err
    assert (tmp_path / "art-bomb-card.png").exists()
    assert json.loads((corpus / "art-bomb.ship").read_text())["design"]["art"] == "bomb.png"


def test_a_drawn_token_is_taken_from_the_cache_and_a_changed_design_is_drawn_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import dataclasses

    from shipyard.core.designfile import load_design
    from shipyard.core.evaluate import evaluate
    from shipyard.render import tokenimages
    from shipyard.render.tokenimages import token_images
    from shipyard.render.tokens import TokenSpec

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    drawn: list[str] = []
    real = tokenimages.draw_svgs  # what the picture worker is asked to draw
    monkeypatch.setattr(tokenimages, "draw_svgs", lambda svgs, dpi: drawn.extend(svgs) or real(svgs, dpi))
    loaded = [
        load_design(f, use_user_folder=False) for f in sample_files(registry.get("space-fighter-alpha").samples)[:3]
    ]
    reports = [evaluate(ld.design, ld.catalog) for ld in loaded]
    first = token_images(loaded, reports, TokenSpec(25.4), 150)
    assert len(drawn) == 3 and (tmp_path / "cache" / "shipyard" / "token-images.json").is_file()
    assert token_images(loaded, reports, TokenSpec(25.4), 150) == first and len(drawn) == 3  # none drawn again
    renamed = dataclasses.replace(loaded[0], design=loaded[0].design.model_copy(update={"name": "Vega Lancer"}))
    report = evaluate(renamed.design, renamed.catalog)
    again = token_images([renamed, *loaded[1:]], [report, *reports[1:]], TokenSpec(25.4), 150)
    # only the changed design's token is drawn (its name may stand on two lines)
    assert len(drawn) == 4 and ">Vega" in drawn[-1] and "Lancer<" in drawn[-1]
    assert again[0] != first[0] and again[1:] == first[1:]
    assert token_images(loaded, reports, TokenSpec(25.4, "hex"), 150) != first  # another shape, another drawing


def test_export_reads_the_design_under_the_preset_it_is_given(tmp_path: Path) -> None:
    """``export ... --preset`` was accepted and dropped: the Rebel Fighter checked under
    as-written does not pass (freebies over by 2), but its Foundry actor said sample-ships and
    valid, and its pictures showed the sample-ships budgets. Every format reads the preset."""
    from shipyard.core.registry import get

    fighter = get("space-fighter-alpha").samples / "rebel-fighter.ship"
    code, err = export("foundry", fighter, "--preset", "as-written", "-o", tmp_path / "as-written")
    assert code == 0, err
    [actor] = [json.loads(p.read_text()) for p in (tmp_path / "as-written").glob("*.json")]
    flags = actor["flags"]["shipyard"]
    assert (flags["preset"], flags["valid"]) == ("as-written", False)
    # the pictures too: a card under as-written is not the card under the design's own preset
    cards = {}
    for preset in ("as-written", "sample-ships"):
        code, err = export("card-png", fighter, "--preset", preset, "--dpi", "150", "-o", tmp_path / preset)
        assert code == 0, err
        cards[preset] = (tmp_path / preset / "rebel-fighter-card.png").read_bytes()
    assert cards["as-written"] != cards["sample-ships"]
    code, err = export("card-png", fighter, "--dpi", "150", "-o", tmp_path / "own")
    assert (tmp_path / "own" / "rebel-fighter-card.png").read_bytes() == cards["sample-ships"]
