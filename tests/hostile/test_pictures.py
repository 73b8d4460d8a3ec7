"""Hostile pictures (issue 44, items 4 and 11): an SVG nesting 20,000 groups, an SVG whose
``<use>`` elements draw 10 ** 29 elements, an embedded picture above its limit, and a
picture that crashes the process drawing it.

A refused picture never stops its design: the design is checked, printed and exported
without it, and the user is told which picture and why. Pictures are decoded and drawn
in the picture worker (shipyard.render.pictureworker), so a picture that crashes a
renderer takes that worker down, never the command line or the editor with its unsaved
designs.
"""

from __future__ import annotations

import base64
import io
import json
import os
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from shipyard.core.artcheck import MAX_EMBEDDED_ART_BYTES, MAX_SVG_DEPTH, MAX_SVG_ELEMENTS, check_picture
from shipyard.core.errors import InputError

from ..conftest import ROOT, run_shipyard

ART = ROOT / "tests" / "corpus" / "bad" / "art"
SVG_NS = 'xmlns="http://www.w3.org/2000/svg"'


def deep_svg(depth: int = 20_000) -> str:
    return (
        f'<svg {SVG_NS} width="100" height="100">'
        + "<g>" * depth
        + '<rect width="9" height="9"/>'
        + "</g>" * depth
        + "</svg>"
    )


def use_bomb(levels: int = 30, fan: int = 10) -> str:
    """Each level a group of ``fan`` uses of the level below: ``fan ** levels`` rectangles drawn."""
    parts = [f'<svg {SVG_NS} width="100" height="100"><defs><rect id="a0" width="1" height="1"/>']
    for i in range(1, levels):
        parts.append(f'<g id="a{i}">' + f'<use href="#a{i - 1}"/>' * fan + "</g>")
    parts.append(f'</defs><use href="#a{levels - 1}"/></svg>')
    return "".join(parts)


def css_pattern_bomb(levels: int = 30, fan: int = 10) -> str:
    """The same repeat through a style sheet: each pattern filled, by a class, with the one below."""
    css = "".join(f".c{i}{{fill:url(#p{i})}}" for i in range(levels))
    patterns = "".join(
        f'<pattern id="p{i}" width="1" height="1">'
        + f'<rect class="c{i - 1}" width="1" height="1"/>' * fan
        + "</pattern>"
        for i in range(1, levels)
    )
    return (
        f'<svg {SVG_NS} width="100" height="100"><style>{css}</style><defs>'
        f'<pattern id="p0" width="1" height="1"><rect width="1" height="1"/></pattern>{patterns}</defs>'
        f'<rect class="c{levels - 1}" width="100" height="100"/></svg>'
    )


def design_with_art(folder: Path, name: str, art: str) -> Path:
    """A copy of a clean design (its name "Rebel Fighter") whose ``art`` is ``art``."""
    doc = json.loads((ART / "art-clean-svg.ship").read_text())
    doc["design"]["art"] = art
    path = folder / f"{name}.ship"
    path.write_text(json.dumps(doc))
    return path


def warnings_of(stderr: str) -> list[str]:
    return [ln for ln in stderr.splitlines() if ln.startswith("shipyard: warning: ")]


def assert_clean_exit(proc: Any) -> None:
    assert proc.returncode == 0, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr and "this is a bug" not in proc.stderr, proc.stderr


# --- the SVG is read cheaply before any renderer sees it ----------------------------------


def test_the_svg_check_refuses_deep_nesting_and_use_bombs_and_keeps_ordinary_repeats() -> None:
    for svg, says in [
        (deep_svg(), f"nested deeper than {MAX_SVG_DEPTH} levels"),
        (use_bomb(), f"more than {MAX_SVG_ELEMENTS:,} elements once each <use> and url(#...) is drawn"),
        (css_pattern_bomb(), f"more than {MAX_SVG_ELEMENTS:,} elements"),
        # a chain of uses, each one level: shallow as written, deep as drawn
        (
            f'<svg {SVG_NS}><rect id="u0" width="1" height="1"/>'
            + "".join(f'<use id="u{i}" href="#u{i - 1}"/>' for i in range(1, 2 * MAX_SVG_DEPTH))
            + "</svg>",
            "nested deeper than",
        ),
        (f'<svg {SVG_NS}><g id="x"><use href="#x"/></g></svg>', "#x refers to itself"),
        (f"<svg {SVG_NS}><style>rect {{ fill: url(http://x/y) }}</style></svg>", "style refers"),
        ('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "b">]><svg/>', "DOCTYPE or entity"),
        (f"<svg {SVG_NS}>" + "<rect/>" * (MAX_SVG_ELEMENTS + 1) + "</svg>", f"more than {MAX_SVG_ELEMENTS:,}"),
    ]:
        with pytest.raises(InputError) as info:
            check_picture(svg.encode(), "svg", "hostile.svg")
        message = str(info.value)
        assert says in message and "hostile.svg" in message, (says, message)
        assert info.value.problems[0].allowed, message  # the limit is said
    # a tiled background: 400 uses of a 20-element motif, 100 levels deep at most, passes
    motif = '<g id="m">' + '<rect width="1" height="1"/>' * 19 + "</g>"
    tiles = "".join(f'<use href="#m" x="{i}"/>' for i in range(400))
    fine = f'<svg {SVG_NS} width="40" height="30"><defs>{motif}</defs>{tiles}' + "<g>" * 90 + "</g>" * 90 + "</svg>"
    art = check_picture(fine.encode(), "svg", "tiles.svg")
    assert (art.width, art.height) == (40, 30)
    # a drawing program's export: classes for a clip path and a gradient, 2,000 shapes
    exported = (
        f'<svg {SVG_NS} width="90" height="60"><defs><style>.a{{fill:none}}.b{{clip-path:url(#clip)}}'
        '.c{fill:url(#g)}</style><linearGradient id="g"><stop offset="0"/></linearGradient>'
        '<clipPath id="clip"><rect class="a" width="50" height="50"/></clipPath></defs><g class="b">'
        + '<rect class="c" width="9" height="9"/>' * 2000
        + "</g></svg>"
    )
    assert check_picture(exported.encode(), "svg", "exported.svg").width == 90


# --- the command line: the design printed and exported without the picture -------------------


def test_export_token_png_of_a_design_whose_svg_nests_20000_groups_writes_the_token(tmp_path: Path) -> None:
    (tmp_path / "deep.svg").write_text(deep_svg())
    design = design_with_art(tmp_path, "deep", "deep.svg")
    ok = ART / "art-ok.ship"
    out = tmp_path / "tokens"
    proc = run_shipyard("export", "token-png", design, ok, "-o", out, "--no-user-catalog", env={"HOME": str(tmp_path)})
    assert_clean_exit(proc)  # it died with SIGSEGV (exit -11) before
    for name in ("deep-token.png", "art-ok-token.png"):
        with Image.open(out / name) as token:
            assert token.mode == "RGBA" and token.getpixel((1, 1))[3] == 0  # transparent outside the token
    (warning,) = warnings_of(proc.stderr)
    assert "deep.svg" in warning and f"nested deeper than {MAX_SVG_DEPTH} levels" in warning, warning
    assert "(allowed: an SVG at most" in warning


def test_print_of_a_design_whose_svg_nests_20000_groups_writes_the_sheet(tmp_path: Path) -> None:
    from pypdf import PdfReader

    (tmp_path / "deep.svg").write_text(deep_svg())
    design = design_with_art(tmp_path, "deep", "deep.svg")
    pdf = tmp_path / "sheet.pdf"
    proc = run_shipyard("print", design, "-o", pdf, "--no-user-catalog", env={"HOME": str(tmp_path)})
    assert_clean_exit(proc)
    (warning,) = warnings_of(proc.stderr)
    assert "deep.svg" in warning and "nested deeper than" in warning, warning
    assert "Rebel Fighter" in PdfReader(pdf).pages[0].extract_text()


def test_a_use_bomb_is_refused_and_the_sheet_printed_within_a_10_s_limit(tmp_path: Path) -> None:
    from pypdf import PdfReader

    (tmp_path / "bomb.svg").write_text(use_bomb())
    design = design_with_art(tmp_path, "bomb", "bomb.svg")
    pdf = tmp_path / "sheet.pdf"
    proc = run_shipyard("print", design, "-o", pdf, "--timeout", "10", "--no-user-catalog", env={"HOME": str(tmp_path)})
    assert_clean_exit(proc)  # it ran into the time limit and wrote nothing before
    (warning,) = warnings_of(proc.stderr)
    assert "bomb.svg" in warning and f"more than {MAX_SVG_ELEMENTS:,} elements" in warning, warning
    page = PdfReader(pdf).pages[0]
    assert "Rebel Fighter" in page.extract_text()


def embedded_too_large() -> str:
    png = (ART / "ok.png").read_bytes()
    return "data:image/png;base64," + base64.b64encode(png + b"\0" * (MAX_EMBEDDED_ART_BYTES + 100_000)).decode()


def test_an_embedded_picture_above_its_limit_leaves_the_design_readable_and_printed(tmp_path: Path) -> None:
    design = design_with_art(tmp_path, "big", embedded_too_large())
    before = design.read_bytes()
    proc = run_shipyard("check", design, "--json", "--no-user-catalog", env={"HOME": str(tmp_path)})
    assert proc.returncode == 0, proc.stderr  # "String should have at most 1400000 characters" before
    assert "String should have" not in proc.stderr
    (entry,) = json.loads(proc.stdout)
    assert entry["valid"] is True
    (hit,) = [f for f in entry["findings"] if f["code"] == "art-missing"]
    assert (hit["severity"], hit["path"]) == ("warning", "art")
    assert "embedded art" in hit["message"] and f"{MAX_EMBEDDED_ART_BYTES:,}" in hit["limit"], hit
    pdf = tmp_path / "big.pdf"
    printed = run_shipyard("print", design, "-o", pdf, "--no-user-catalog", env={"HOME": str(tmp_path)})
    assert_clean_exit(printed)
    (warning,) = warnings_of(printed.stderr)
    assert "embedded art" in warning and f"limited to {MAX_EMBEDDED_ART_BYTES:,}" in warning, warning
    assert pdf.stat().st_size > 0
    tokens = tmp_path / "tokens"
    exported = run_shipyard(
        "export", "token-png", design, "-o", tokens, "--no-user-catalog", env={"HOME": str(tmp_path)}
    )
    assert_clean_exit(exported)
    assert (tokens / "big-token.png").is_file() and "embedded art" in exported.stderr
    assert design.read_bytes() == before  # the picture is kept in the file, only left out of the pages


# --- the picture worker: a crash, a bomb of memory, a time limit -------------------------------


def test_a_picture_that_crashes_its_renderer_costs_only_its_art(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the check's depth limit lifted, 20,000 nested groups reach resvg, which overflows
    its stack: in the picture worker, so this process lives on, the token is drawn again
    without the art, and the note says what happened."""
    import shipyard.core.artcheck as core_art
    from shipyard.render.images import token_pictures
    from shipyard.render.pictureworker import shared_pid
    from shipyard.render.printing import load_for_print
    from shipyard.render.tokens import TokenSpec

    monkeypatch.setattr(core_art, "MAX_SVG_DEPTH", 10**6)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (tmp_path / "deep.svg").write_text(deep_svg())
    design = design_with_art(tmp_path, "deep", "deep.svg")
    loaded = load_for_print(
        [str(design), str(ART / "art-ok.ship")], preset=None, catalog_dirs=[], use_user_folder=False
    )
    left_out: list[str] = []
    pictures = token_pictures(loaded, TokenSpec(25.4), 150, left_out=left_out)
    assert [p.name for p in pictures] == ["deep-token.png", "art-ok-token.png"]
    (note,) = left_out
    assert note.startswith("Rebel Fighter: the design's art is left out of its token") and "crashed" in note, note
    assert "SIGSEGV" in note, note
    worker = shared_pid()
    assert worker is not None and worker != os.getpid()  # a new worker took over after the crash
    with Image.open(io.BytesIO(pictures[1].data)) as token:
        assert token.size[0] > 100


def test_the_picture_worker_has_a_memory_and_a_time_limit() -> None:
    from shipyard.core.artcheck import MAX_ART_PIXELS
    from shipyard.render.pictureworker import MAX_PIXELS, MEMORY_LIMIT, PictureProblem, PictureWorker

    assert MAX_PIXELS == MAX_ART_PIXELS  # Pillow's limit in the worker, the core's from the header
    worker = PictureWorker()
    try:
        small = f'<svg {SVG_NS} width="10" height="10"><rect width="5" height="5"/></svg>'
        assert worker.run("draw", [small], 96)[0].startswith(b"\x89PNG")
        pid = worker.pid()
        assert pid is not None
        limits = Path(f"/proc/{pid}/limits").read_text()
        (line,) = [ln for ln in limits.splitlines() if ln.startswith("Max address space")]
        assert int(line.split()[3]) == MEMORY_LIMIT
        huge = f'<svg {SVG_NS} width="100000" height="100000"><rect width="5" height="5"/></svg>'  # 40 GB of pixels
        with pytest.raises(PictureProblem) as info:
            worker.run("draw", [huge], 96)
        assert "memory" in str(info.value) and "Traceback" not in str(info.value), str(info.value)
        with pytest.raises(PictureProblem) as info:
            worker.run("draw", [small] * 50, 96, timeout=0.01)  # a new worker's start alone takes longer
        assert "0.01 s time limit" in str(info.value)
        assert worker.run("draw", [small], 96)[0].startswith(b"\x89PNG")  # and the next job is served
    finally:
        worker.close()


# --- the editor: exporting a token of a bomb's design loses nothing ---------------------------


@pytest.mark.parametrize("lifted", [False, True], ids=["refused-by-the-check", "crashing-the-renderer"])
def test_the_editor_exports_a_token_of_a_bomb_art_design_and_keeps_the_other_designs_edit(
    lifted: bool, qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PySide6.QtCore import QSettings, Qt
    from PySide6.QtWidgets import QFileDialog

    import shipyard.core.artcheck as core_art
    from shipyard._qt.window.window import MainWindow

    from ..test_editor import _quiet, field, type_into

    if lifted:  # the art passes the check and crashes resvg in the picture worker
        monkeypatch.setattr(core_art, "MAX_SVG_DEPTH", 10**6)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    window = _quiet(
        MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), use_user_folder=False, preview=False)
    )
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    other = design_with_art(tmp_path, "other", "clean.svg")
    (tmp_path / "clean.svg").write_bytes((ART / "clean.svg").read_bytes())
    (tmp_path / "deep.svg").write_text(deep_svg())
    bomb = design_with_art(tmp_path, "bomb", "deep.svg")
    first = window.open_file(other)
    assert first is not None
    first.tabs.setCurrentIndex(0)
    qtbot.wait(150)
    type_into(qtbot, field(first, "name"), "Kept Edit")
    qtbot.keyClick(field(first, "name"), Qt.Key.Key_Tab)
    qtbot.wait(800)  # longer than the commit delay
    assert first.doc.design.name == "Kept Edit" and first.doc.modified
    view = window.open_file(bomb)  # its art field draws a thumbnail: in the worker, which may crash
    assert view is not None
    qtbot.wait(150)
    art_field = view.steps.art_field  # type: ignore[attr-defined]
    assert art_field.thumb.text() == "left out"
    assert ("crashed" if lifted else "nested deeper") in art_field.where.text(), art_field.where.text()
    folder = tmp_path / "vtt"
    folder.mkdir()
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(folder))
    done: list[str] = []
    window.export_bridge.done.connect(lambda _path, error: done.append(error))
    (token,) = [a for a in window.menus.export_menu.actions() if a.data() == "token-png"]
    token.trigger()
    qtbot.waitUntil(lambda: len(done) == 1, timeout=90_000)
    qtbot.wait(200)
    assert done == [""] and window.errors == []  # type: ignore[attr-defined]
    assert (folder / "bomb-token.png").is_file()
    said = window.statusBar().currentMessage()
    assert "without art" in said and ("SIGSEGV" if lifted else "nested deeper") in said, said
    # the editor is alive, and the other design's unsaved edit with it
    assert first.doc.design.name == "Kept Edit" and first.doc.modified
    assert field(first, "name").text() == "Kept Edit"


def test_no_decoder_or_rasteriser_is_loaded_in_the_process_that_prints_and_exports(tmp_path: Path) -> None:
    """Token, card and sheet exports and a print of designs with PNG and SVG art: Pillow, resvg
    and PDFium run in the picture worker only, never in the command's (or the editor's) process."""
    import subprocess
    import sys

    out = tmp_path / "out"
    code = (
        "import sys\n"
        "from shipyard.cli import main\n"
        f"designs = [{str(ART / 'art-ok.ship')!r}, {str(ART / 'art-clean-svg.ship')!r}]\n"
        f"for kind in ('token-png', 'card-png'):\n"
        f"    assert main(['export', kind, *designs, '-o', {str(out)!r}, '--no-user-catalog']) == 0\n"
        f"assert main(['print', designs[0], '-o', {str(out / 'x.pdf')!r}, '--no-user-catalog']) == 0\n"
        "decoders = {'PIL', 'resvg_py', 'pypdfium2', 'PySide6'}\n"
        "print('LOADED', sorted({m.split('.')[0] for m in sys.modules} & decoders))\n"
    )
    env = {**os.environ, "HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert "LOADED []" in proc.stdout, proc.stdout
    assert sorted(p.name for p in out.glob("*.png")) == [
        "art-clean-svg-card.png",
        "art-clean-svg-token.png",
        "art-ok-card.png",
        "art-ok-token.png",
    ]


def test_a_frozen_app_serves_pictures_from_its_render_worker_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    """A frozen bundle has no ``-m``: it starts the picture worker as ``ENTRY --render-worker FD``
    with the picture worker's variable set; the entry the bundle runs serves pictures then."""
    import sys

    from shipyard.render import pictureworker

    entry = ROOT / "packaging" / "entry_cli.py"
    monkeypatch.setattr(pictureworker, "_command", lambda fd: [sys.executable, str(entry), "--render-worker", str(fd)])
    worker = pictureworker.PictureWorker()
    try:
        small = f'<svg {SVG_NS} width="10" height="10"><rect width="5" height="5"/></svg>'
        assert worker.run("draw", [small], 96)[0].startswith(b"\x89PNG")
    finally:
        worker.close()
