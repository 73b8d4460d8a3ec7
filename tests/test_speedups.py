"""The speed-ups (shipyard/_speedups.py): each gives the answers the plain way gives, and the
one switch, ``SHIPYARD_NO_SPEEDUPS=1``, turns every one of them off.

The tests marked ``speedups`` (here and in the other modules whose code they speed up) are
run a second time by scripts/run-tests with the switch on, so that each speed-up is known to
be an optimisation, not something Shipyard needs."""

from __future__ import annotations

import contextlib
import ctypes.util
import importlib.util
import io
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cffi
import pytest

from shipyard import _speedups as libraries

from .conftest import ROOT, run_shipyard

# Where WeasyPrint is, found without importing it: its import costs every test process that
# collects this module most of a second of a core, and only the tests that need it import it.
_WEASYPRINT_SPEC = importlib.util.find_spec("weasyprint")
if _WEASYPRINT_SPEC is None or _WEASYPRINT_SPEC.origin is None:
    pytest.skip("WeasyPrint is not installed", allow_module_level=True)
WEASYPRINT = Path(_WEASYPRINT_SPEC.origin).parent
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ldconfig's cache is Linux's")


def weasyprint_library_names() -> list[str]:
    """Every name WeasyPrint tries for a library (text/ffi.py's _dlopen calls)."""
    source = (WEASYPRINT / "text" / "ffi.py").read_text(encoding="utf-8")
    calls = re.findall(r"_dlopen\(\s*ffi,(.*?)\)", source, re.S)
    names = [n for call in calls for n in re.findall(r"'([^']+)'", call)]
    assert len(names) >= 30  # seven libraries, four to six names each
    return names


@linux_only
def test_every_name_weasyprint_tries_is_found_as_ctypes_finds_it() -> None:
    names = [*weasyprint_library_names(), "c", "m", "z", "png16", "stdc++", "no-such-library-anywhere"]
    quick = {n: libraries.find_library(n) for n in names}
    assert quick == {n: ctypes.util.find_library(n) for n in names}
    assert quick["pango-1.0"] is not None and quick["pango-1.0"].startswith("libpango-1.0.so")
    assert quick["libpango-1.0-0"] is None and quick["no-such-library-anywhere"] is None


@linux_only
def test_a_library_outside_the_loader_s_cache_is_found_in_ld_library_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What gcc and ld would find: lib<name>.so, an ELF file, in LD_LIBRARY_PATH's folders;
    a file of that name that is not ELF (a linker script) is not it."""
    real = Path(sys.executable).resolve()  # an ELF file to stand in for a library
    (tmp_path / "libshipyardtest.so").write_bytes(real.read_bytes()[:4096])
    (tmp_path / "libscript.so").write_text("GROUP ( libc.so.6 )\n")
    monkeypatch.setenv("LD_LIBRARY_PATH", f"/nowhere:{tmp_path}")
    assert libraries.find_library("shipyardtest") == str(tmp_path / "libshipyardtest.so")
    assert libraries.find_library("script") is None


def test_find_library_is_ctypes_own_again_after_weasyprint_is_imported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(libraries.SWITCH, raising=False)
    original = ctypes.util.find_library
    with libraries.libraries_found_quickly():
        inside = ctypes.util.find_library
    assert ctypes.util.find_library is original
    if sys.platform.startswith("linux"):
        assert inside is libraries.find_library


def test_every_c_type_weasyprint_names_is_read_at_once() -> None:
    """A WeasyPrint that names another type as a string makes this fail: C_TYPES is then
    updated, or that type's first use parses it alone (slower, not wrong)."""
    named = set()
    for source in WEASYPRINT.rglob("*.py"):
        text = source.read_text(encoding="utf-8")
        named |= set(re.findall(r"ffi\.(?:new|cast|typeof|sizeof)\(\s*'([^']+)'", text))
    assert named and named <= set(libraries.C_TYPES)


def test_the_types_read_at_once_are_the_ones_cffi_reads_one_by_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(libraries.SWITCH, raising=False)
    cdef = (
        "typedef struct { int x, y, width, height; } PangoRectangle;"
        "typedef int FcResult; typedef unsigned char FcChar8;"
    )
    at_once, one_by_one = cffi.FFI(), cffi.FFI()
    at_once.cdef(cdef)
    one_by_one.cdef(cdef)
    types = ("PangoRectangle *", "unsigned int *", "char[]", "char[4]", "FcResult *", "FcChar8 **", "int(*)(int)")
    assert libraries.read_types_at_once(at_once, types) == len(types)
    assert libraries.read_types_at_once(at_once, types) == 0  # all there already
    for t in types:
        assert at_once.getctype(at_once.typeof(t)) == one_by_one.getctype(one_by_one.typeof(t))
    rect = at_once.new("PangoRectangle *", [1, 2, 3, 4])
    assert (rect.x, rect.height) == (1, 4)
    assert libraries.read_types_at_once(at_once, ("NoSuchType *",)) == 0  # unknown: left to cffi, which refuses it
    with pytest.raises(cffi.CDefError):
        at_once.typeof("NoSuchType *")


@pytest.mark.skipif(not libraries.enabled(), reason="SHIPYARD_NO_SPEEDUPS: cffi reads each type on first use")
def test_weasyprint_s_types_are_read_when_the_renderer_is_imported() -> None:
    from weasyprint.text.ffi import ffi

    import shipyard.render.pdf  # noqa: F401 - its import reads them

    assert set(libraries.C_TYPES) <= set(ffi._parsed_types)


# --- the switch ---------------------------------------------------------------------------

pytestmark = pytest.mark.speedups


@pytest.fixture
def switched_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(libraries.SWITCH, "1")


def test_the_switch_is_read_at_each_call(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(libraries.SWITCH, raising=False)
    assert libraries.enabled()
    monkeypatch.setenv(libraries.SWITCH, "0")
    assert libraries.enabled()  # "0" is not "turn them off"
    monkeypatch.setenv(libraries.SWITCH, "1")
    assert not libraries.enabled()


class FakeFeatureModule:
    """Stands in for PySide6's ``shibokensupport.feature``, whose hook the speed-up replaces."""

    def __init__(self) -> None:
        self.asked: list[str] = []

        def original(module: object) -> bool:
            self.asked.append(getattr(module, "__name__", "?"))
            return False

        self._mod_uses_pyside = original


def test_pyside_s_check_is_replaced_with_a_read_of_the_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(libraries.SWITCH, raising=False)
    fake = FakeFeatureModule()
    original = fake._mod_uses_pyside
    monkeypatch.setitem(sys.modules, "shibokensupport.feature", fake)
    libraries.quicken_pyside_import_check()
    quick = fake._mod_uses_pyside
    assert quick is not original
    assert quick(libraries) is True  # this module's source names PySide6
    assert quick(re) is False and fake.asked == []  # a plain read answered both
    assert quick(sys) is False and fake.asked == ["sys"]  # no source file: PySide6's own check
    libraries.quicken_pyside_import_check()
    assert fake._mod_uses_pyside is quick  # once


def test_switched_off_pyside_s_check_is_left_alone(switched_off: None, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeFeatureModule()
    original = fake._mod_uses_pyside
    monkeypatch.setitem(sys.modules, "shibokensupport.feature", fake)
    libraries.quicken_pyside_import_check()
    assert fake._mod_uses_pyside is original


def test_switched_off_find_library_is_ctypes_own_inside_the_block(switched_off: None) -> None:
    original = ctypes.util.find_library
    with libraries.libraries_found_quickly():
        assert ctypes.util.find_library is original


def test_switched_off_no_c_type_is_read_ahead(switched_off: None) -> None:
    ffi = cffi.FFI()
    assert libraries.read_types_at_once(ffi, ("unsigned int *",)) == 0
    assert "unsigned int *" not in ffi._parsed_types


def test_the_collector_is_paused_and_frozen_only_with_the_speed_ups(monkeypatch: pytest.MonkeyPatch) -> None:
    import gc

    monkeypatch.delenv(libraries.SWITCH, raising=False)
    assert gc.isenabled()
    with libraries.collection_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    libraries.pause_collection()
    assert not gc.isenabled()
    frozen = gc.get_freeze_count()
    kept = [object() for _ in range(10)]  # made while paused: frozen on resume
    libraries.resume_collection()
    assert gc.isenabled() and gc.get_freeze_count() > frozen
    gc.unfreeze()
    assert kept and libraries.layout_stops_at_once()

    monkeypatch.setenv(libraries.SWITCH, "1")
    frozen = gc.get_freeze_count()
    with libraries.collection_paused():
        assert gc.isenabled()
    libraries.pause_collection()
    assert gc.isenabled()
    libraries.resume_collection()
    assert gc.isenabled() and gc.get_freeze_count() == frozen
    assert not libraries.layout_stops_at_once()
    threshold = gc.get_threshold()
    libraries.fewer_collections()
    assert gc.get_threshold() == threshold


def test_a_command_switched_off_ends_the_ordinary_way(tmp_path: Path) -> None:
    """``end_process_now`` with the switch off returns; the command still prints and ends 0,
    and a print renders its sheet in a worker that has none of the speed-ups."""
    sample = ROOT / "catalogs" / "wing-commander" / "examples" / "arrow.ship"
    checked = run_shipyard("check", sample, env={libraries.SWITCH: "1"})
    assert checked.returncode == 0, checked.stderr
    assert "Traceback" not in checked.stderr
    out = tmp_path / "arrow.pdf"
    printed = run_shipyard("print", sample, "-o", out, "--no-user-catalog", env={libraries.SWITCH: "1"})
    assert printed.returncode == 0, printed.stderr
    assert out.read_bytes().startswith(b"%PDF-")


def test_weasyprint_s_font_subset_goes_through_the_kept_subsets_only_with_the_speed_ups(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from weasyprint.pdf.fonts import Font

    original = Font.subset
    calls: list[tuple[Any, ...]] = []

    def kept(font: object, to_unicode: dict[int, str], hinting: bool, own: object) -> None:
        calls.append((font, to_unicode, hinting, own))

    monkeypatch.delenv(libraries.SWITCH, raising=False)
    with libraries.weasyprint_subsets_through(kept):
        Font.subset("font", {1: "a"}, True)  # type: ignore[arg-type]
    assert Font.subset is original and calls == [("font", {1: "a"}, True, original)]
    monkeypatch.setenv(libraries.SWITCH, "1")
    with libraries.weasyprint_subsets_through(kept):
        assert Font.subset is original  # WeasyPrint's own, untouched
    assert len(calls) == 1


# --- dotted rules stroked as one line (dotted_borders_stroked) ------------------------------

RULES_PAGE = """<html lang=en><title>rules</title><style>@page {{ size: 120mm 90mm; margin: 5mm }}
div {{ margin: 2mm 0; height: 3mm; }} {rules}</style>{boxes}</html>"""
LONE_RULES = {  # borders whose every drawn side meets no other, square-cornered
    "under": "border-bottom: 0.3pt dotted #555",
    "over-and-under": "border-top: 1pt dotted #a00; border-bottom: 2pt dotted #a00",
    "sides": "border-left: 1.5pt dashed #05a; border-right: 0.8pt dashed #05a; height: 9mm",
    "dashed-under": "border-bottom: 1pt dashed rgba(0, 0, 0, 0.6); width: 37.3mm",
    "thick-over": "border-top: 3pt dotted navy; width: 41.7mm",
    "whole-periods": "border-bottom: 1pt dotted #555; width: 40pt",  # a length of whole periods: 21 dots
    "whole-dashes": "border-bottom: 0.5pt dashed #555; width: 45pt",
}
DASH_PATTERNS_STROKED = 10  # a stroked line each: the sides of LONE_RULES and the leader
LEFT_TO_WEASYPRINT = {  # borders WeasyPrint draws its own way, speed-ups or not
    "rounded": "border-bottom: 1pt dotted #555; border-radius: 2mm",
    "corner": "border-bottom: 1pt dotted #555; border-left: 1pt dotted #555",
    "mixed": "border-bottom: 1pt dotted #555; border-top: 1pt solid #555",
    "short": "border-bottom: 2pt dotted #555; width: 3pt",
}


def rules_page(rules: dict[str, str]) -> str:
    return RULES_PAGE.format(
        rules=" ".join(f".{name} {{ {css} }}" for name, css in rules.items()),
        boxes="".join(f'<div class="{name}"></div>' for name in rules)
        + '<p>Name <span style="border-bottom: 0.8pt dotted #777; padding-right: 30mm"></span> end</p>',
    )


def printed_both_ways(html: str, folder: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[bytes, bytes]:
    """``html`` printed with the speed-ups on, then off (the PDF bytes of each)."""
    from shipyard.render.pdf import html_to_pdf

    monkeypatch.delenv(libraries.SWITCH, raising=False)
    on = html_to_pdf(html, folder, [folder])[0]
    monkeypatch.setenv(libraries.SWITCH, "1")
    off = html_to_pdf(html, folder, [folder])[0]
    monkeypatch.delenv(libraries.SWITCH)
    return on, off


def operators(pdf: bytes, name: str) -> int:
    """How many times the first page's content uses the operator ``name`` ("c": a curve
    segment, four to a dot drawn alone; "d": a dash pattern set)."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf)) as doc:
        return sum(str(op) == name for _, op in pikepdf.parse_content_stream(doc.pages[0]))


def ink(pdf: bytes, folder: Path, darker_than: int) -> Any:
    """Where the first page, painted by poppler at 600 dpi, is darker than ``darker_than``
    (white there, black elsewhere). Poppler, not the PDFium of shipyard.render.rasterize:
    PDFium spaces a dash pattern's marks slightly apart from where it paints the same marks
    drawn one by one, so it could not tell a mark out of place from its own drift."""
    from PIL import Image

    source = folder / "page.pdf"
    source.write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-r", "600", "-gray", "-f", "1", "-l", "1", "-singlefile", source, folder / "page"], check=True
    )
    with Image.open(folder / "page.pgm") as page:
        return page.point(lambda v: 255 if v < darker_than else 0)


def marks_missing(one: Any, other: Any) -> tuple[int, int, int, int] | None:
    """Where ``one`` has ink that ``other`` has not within a pixel (a 600th of an inch)."""
    from PIL import ImageChops, ImageFilter

    return ImageChops.subtract(one, other.filter(ImageFilter.MaxFilter(3))).getbbox()


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils not installed")
def test_a_dotted_rule_meeting_no_other_side_is_one_stroked_line_with_its_marks_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rules under a card's lines and the leaders of a sheet: with the speed-ups off
    WeasyPrint writes every dot as a circle of four curves; on, each side is one line with
    a dash pattern, and painted at 600 dpi every mark of either is where the other has one,
    to the pixel (the 0.3 pt rule's dots are five pixels apart)."""
    on, off = printed_both_ways(rules_page(LONE_RULES), tmp_path, monkeypatch)
    assert operators(on, "c") == 0
    assert operators(on, "d") == DASH_PATTERNS_STROKED  # every side stroked, none left to WeasyPrint
    assert operators(off, "c") > 4 * 500  # hundreds of dots, four curves each
    assert len(on) < len(off) / 3
    for darker_than in (224, 128):  # the edges of the marks, and their middles
        with_speedups, without = ink(on, tmp_path, darker_than), ink(off, tmp_path, darker_than)
        assert without.getbbox() is not None
        lost, added = marks_missing(without, with_speedups), marks_missing(with_speedups, without)
        assert lost is None, f"marks lost inside {lost}"
        assert added is None, f"marks added inside {added}"


def test_borders_that_meet_at_a_corner_or_round_it_are_left_to_weasyprint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    html = rules_page(LEFT_TO_WEASYPRINT).replace("<p>", "<p hidden>")
    on, off = printed_both_ways(html, tmp_path, monkeypatch)
    assert on == off
    assert operators(on, "c") > 0  # drawn dot by dot, as WeasyPrint draws them


def test_a_box_the_speed_up_cannot_read_is_left_to_weasyprint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A later WeasyPrint whose boxes or styles hold other than the speed-up reads costs
    the speed-up, never the sheet: every border is then drawn WeasyPrint's way."""

    def unreadable(box: Any) -> None:
        raise KeyError("border_image_source")

    html = rules_page(LONE_RULES)
    off = printed_both_ways(html, tmp_path, monkeypatch)[1]
    monkeypatch.setattr(libraries, "_lone_dotted_sides", unreadable)
    on = printed_both_ways(html, tmp_path, monkeypatch)[0]
    assert on == off


class RecordedStream:
    """Stands in for WeasyPrint's PDF stream: notes the drawing calls made on it."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []

    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kwargs: self.calls.append((name, args))

    @contextlib.contextmanager
    def artifact(self) -> Iterator[None]:
        yield

    stacked = artifact


class SquareBox:
    """A box with only what the border drawing reads: its border box, corners square."""

    def __init__(self, length: float, side: str) -> None:
        self.length = length
        along = side in ("top", "bottom")
        self.box = (10.0, 20.0, length, 5.0) if along else (10.0, 20.0, 5.0, length)

    def rounded_border_box(self) -> tuple[Any, ...]:
        return (*self.box, (0, 0), (0, 0), (0, 0), (0, 0))


def weasyprint_marks(kind: str, side: str, width: float, box: SquareBox) -> list[float]:
    """Where WeasyPrint's own drawing puts the marks of ``side``, along the side: each dot's
    centre, each dash's start (the mark it cuts off past the end left out)."""
    from weasyprint.draw.border import clip_border_segment

    widths = [width if s == side else 0 for s in libraries.BORDER_SIDES]
    stream = RecordedStream()
    clip_border_segment(stream, kind, width, side, box.box, widths, [(0, 0)] * 4)
    names = [name for name, _ in stream.calls]
    marks = stream.calls[names.index("end") + 1 :]  # after the side's clip
    horizontal = side in ("top", "bottom")
    if kind == "dotted":  # a dot's path starts at its right edge, level with its centre
        places = [args[0] - width / 2 if horizontal else args[1] for name, args in marks if name == "move_to"]
    else:
        places = [args[0] if horizontal else args[1] for name, args in marks if name == "rectangle"]
    end = box.box[0 if horizontal else 1] + box.length
    reach = width / 2 if kind == "dotted" else 0  # from a place back to where its mark starts
    return [at for at in places if at - reach < end - 1e-9]


def stroked_marks(kind: str, side: str, width: float, box: SquareBox) -> list[float]:
    """Where the stroked line puts the marks of ``side``: each dot's centre, each dash's start."""
    stream = RecordedStream()
    pattern = libraries._dash_pattern(kind, box.length, width)
    assert pattern is not None, (kind, box.length, width)
    libraries._stroke_side(stream, box.box, side, width, "ink", pattern)
    calls = dict(stream.calls)
    along = 0 if side in ("top", "bottom") else 1
    first, last = calls["move_to"][along], calls["line_to"][along]
    on, off = calls["set_dash"][0]
    marks, at = [], first
    while at <= last + 1e-9 and (kind == "dotted" or at < last - 1e-9):
        marks.append(at)
        at += on + off
    return marks


@pytest.mark.parametrize("kind", ["dotted", "dashed"])
def test_a_stroked_side_has_weasyprint_s_marks_at_weasyprint_s_places_whatever_its_length(kind: str) -> None:
    """Every width a sheet uses (in CSS pixels, as WeasyPrint lays out: 0.3 pt is 0.4 px),
    on sides of a whole number of periods (where a count made another way than WeasyPrint's
    is one mark short) and of lengths in between."""
    period = 2 if kind == "dotted" else 6
    checked = 0
    for width in (0.3, 0.4, 0.5, 0.8, 1.0, 1.0666666666666667, 4 / 3, 2.0, 8 / 3, 4.0, 0.39999999999999997):
        for n in range(1, 41):
            for length in (n * width * period, n * period * width, n * 0.75, n * 4 / 3, n * 1.0):
                if width * period > length:
                    continue
                for side in libraries.BORDER_SIDES:
                    box = SquareBox(length, side)
                    theirs, ours = weasyprint_marks(kind, side, width, box), stroked_marks(kind, side, width, box)
                    where = (kind, side, width, length)
                    assert len(ours) == len(theirs), where
                    assert max(abs(a - b) for a, b in zip(ours, theirs, strict=True)) < 1e-6, where
                    checked += 1
    assert checked > 5_000
