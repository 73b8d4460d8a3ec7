"""A design's picture (``art``) and history (``story``): neutral fields of every ruleset.

The hostile pictures (broken, bombs, links out of the folder, scripts in SVG) are in
tests/corpus/bad/art and tests/test_bad_input.py; here: every ruleset carries the fields,
saves and reads them back, and the picture checks give their numbers.
"""

from __future__ import annotations

import base64
import io
import json
import struct
from pathlib import Path

import pytest
from PIL import Image

from shipyard.core import registry
from shipyard.core.artcheck import (
    MAX_ART_PIXELS,
    MAX_EMBEDDED_ART_BYTES,
    art_of,
    check_picture,
    design_art,
    design_story,
    read_art,
)
from shipyard.core.designfile import load_design, sample_files, save_design
from shipyard.core.errors import InputError
from shipyard.core.evaluate import evaluate

CORPUS_ART = Path(__file__).resolve().parent / "corpus" / "bad" / "art"


def picture(kind: str, size: tuple[int, int] = (40, 30)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, (180, 40, 40)).save(buf, {"png": "PNG", "jpeg": "JPEG", "webp": "WEBP"}[kind])
    return buf.getvalue()


def first_samples() -> list[Path]:
    return [sample_files(info.samples)[0] for info in registry.rulesets()]


@pytest.mark.parametrize("file", first_samples(), ids=lambda p: p.parent.parent.name)
def test_every_ruleset_keeps_art_and_story_beside_the_name(file: Path, tmp_path: Path) -> None:
    (tmp_path / "ship.png").write_bytes(picture("png"))
    doc = json.loads(file.read_text())
    doc["design"] = {**doc["design"], "art": "ship.png", "story": "Built at Vesta yards; lost at Tau Ceti."}
    design = tmp_path / "with-art.ship"
    design.write_text(json.dumps(doc))
    loaded = load_design(design, use_user_folder=False)
    assert design_art(loaded.design) == "ship.png"
    assert design_story(loaded.design) == "Built at Vesta yards; lost at Tau Ceti."
    art, problem = art_of(loaded.design, loaded.file)
    assert problem is None and art is not None and (art.kind, art.width, art.height) == ("png", 40, 30)
    # the rules do not look at them: the same findings as the sample without them
    plain = load_design(file, use_user_folder=False)
    assert evaluate(loaded.design, loaded.catalog).codes() == evaluate(plain.design, plain.catalog).codes()
    again = tmp_path / "again.ship"
    save_design(loaded, again)
    saved = json.loads(again.read_text())["design"]
    assert (saved["art"], saved["story"]) == ("ship.png", "Built at Vesta yards; lost at Tau Ceti.")
    # and a design without them saves no empty fields
    save_design(plain, again)
    assert "art" not in json.loads(again.read_text())["design"]
    assert "story" not in json.loads(again.read_text())["design"]


@pytest.mark.parametrize("kind", ["png", "jpeg", "webp"])
def test_each_raster_kind_gives_its_size_from_its_header(kind: str) -> None:
    art = check_picture(picture(kind, (123, 45)), kind, "x")
    assert (art.kind, art.width, art.height) == (kind, 123, 45)
    assert art.data_uri().startswith(f"data:image/{kind};base64,")


def test_an_embedded_picture_is_read_without_a_file() -> None:
    uri = "data:image/webp;base64," + base64.b64encode(picture("webp", (20, 10))).decode()
    art = read_art(uri, None)
    assert (art.kind, art.width, art.height, art.source) == ("webp", 20, 10, "embedded art")


def test_an_embedded_picture_above_its_limit_is_refused_with_the_limit() -> None:
    uri = "data:image/png;base64," + base64.b64encode(picture("png") + b"\0" * MAX_EMBEDDED_ART_BYTES).decode()
    with pytest.raises(InputError) as info:
        read_art(uri, None)
    assert f"limited to {MAX_EMBEDDED_ART_BYTES:,}" in str(info.value)


def test_a_path_in_an_unsaved_design_says_to_save_or_embed() -> None:
    with pytest.raises(InputError) as info:
        read_art("ship.png", None)
    assert "has not been saved" in str(info.value) and "embed" in str(info.value)


def test_a_jpeg_bomb_is_refused_from_its_header_alone() -> None:
    data = bytearray(picture("jpeg", (16, 16)))
    sof = next(i for i in range(2, len(data)) if data[i] == 0xFF and data[i + 1] == 0xC0)
    data[sof + 5 : sof + 9] = struct.pack(">HH", 60000, 60000)  # height, width
    with pytest.raises(InputError) as info:
        check_picture(bytes(data), "jpeg", "bomb.jpg")
    assert "60,000 x 60,000 pixels" in str(info.value) and f"{MAX_ART_PIXELS:,}" in str(info.value)


def test_a_link_inside_the_folder_is_followed(tmp_path: Path) -> None:
    (tmp_path / "pictures").mkdir()
    (tmp_path / "pictures" / "real.png").write_bytes(picture("png"))
    (tmp_path / "alias.png").symlink_to(tmp_path / "pictures" / "real.png")
    art = read_art("alias.png", tmp_path / "d.ship")
    assert (art.width, art.height) == (40, 30)


def test_an_svg_with_an_event_handler_or_outside_style_is_refused() -> None:
    for svg, says in [
        (b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', "event handler (onload)"),
        (b'<svg xmlns="http://www.w3.org/2000/svg"><rect fill="url(http://x/y)"/></svg>', "refers to something"),
        (b'<svg xmlns="http://www.w3.org/2000/svg"><style>@import "http://x";</style></svg>', "style refers"),
        (b'<svg xmlns="http://www.w3.org/2000/svg"><foreignObject/></svg>', "<foreignobject>"),
    ]:
        with pytest.raises(InputError) as info:
            check_picture(svg, "svg", "s.svg")
        assert says in str(info.value), (says, str(info.value))
    clean = check_picture((CORPUS_ART / "clean.svg").read_bytes(), "svg", "clean.svg")
    assert (clean.width, clean.height) == (120, 80)


def test_a_loop_of_links_or_a_pipe_is_refused_by_name(tmp_path: Path) -> None:
    import os

    (tmp_path / "loop.png").symlink_to(tmp_path / "loop.png")
    os.mkfifo(tmp_path / "pipe.png")
    for name, says in [("loop.png", "cannot be followed"), ("pipe.png", "named pipe (FIFO)")]:
        with pytest.raises(InputError) as info:
            read_art(name, tmp_path / "d.ship")
        assert name in str(info.value) and says in str(info.value), str(info.value)
