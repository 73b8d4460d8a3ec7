"""Sheets for play: fillable PDF forms, and tagged PDFs that read in order.

Every sample of every installed ruleset (``registry.rulesets()``, so a ruleset installed
later is covered too) is printed flat and fillable. The fields are read back with two
readers that share no code: pypdf and PDFium (pypdfium2, the engine of Chrome's viewer);
the text with poppler's ``pdftotext``. The structure tree is walked with pikepdf (qpdf) and
its marked content's words read with PDFium (:func:`structure_text`); poppler's ``pdfinfo
-struct-text`` reads the same words of a flat sheet (checked below), but took 5 s of a core
for a fillable sheet of 87 fields, where this takes 25 ms.
"""

from __future__ import annotations

import ctypes
import functools
import html
import io
import json
import re
import shutil
import subprocess
import sys
import unicodedata
from collections.abc import Iterator, Sequence
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pikepdf
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from fontTools.ttLib import TTFont
from pypdf import PdfReader, PdfWriter

from shipyard.core.designfile import load_design
from shipyard.core.evaluate import evaluate
from shipyard.core.registry import rulesets
from shipyard.core.report import Report
from shipyard.core.resources import builtin_template_root
from shipyard.render.context import design_entry, sheet_context, template_dirs
from shipyard.render.printing import PrintResult, print_designs
from shipyard.render.templates import render_html
from shipyard.render.worker import RenderWorker

from .conftest import EXAMPLES, ROOT, call_shipyard
from .test_printing import A4, LETTER, _user_template, page_sizes_mm, pages_text

SAMPLES = [(info.id, ship) for info in rulesets() for ship in sorted(info.samples.glob("*.ship"))]
SAMPLE_IDS = [f"{rid}/{ship.stem}" for rid, ship in SAMPLES]
FIRST_OF_EACH = [next(s for s in SAMPLES if s[0] == info.id) for info in rulesets()]
# a worker group a ruleset (conftest._group): each prints that ruleset's sheets once, and the
# rulesets' minutes of reading structure trees run on both cores
XDIST_GROUP_BY = ("rid",)

needs_poppler = pytest.mark.skipif(
    shutil.which("pdftotext") is None or shutil.which("pdfinfo") is None, reason="poppler-utils not installed"
)


@pytest.fixture(scope="module")
def printed(workers: list[RenderWorker], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """print(files, sheet, paper, fillable) -> (PDF path, result), each print made once a module."""
    folder = tmp_path_factory.mktemp("fillable")
    done: dict[tuple[Any, ...], tuple[Path, PrintResult]] = {}

    def get(
        files: list[Path], sheet: str = "record", paper: str = "a4", fillable: bool = False
    ) -> tuple[Path, PrintResult]:
        key = (tuple(files), sheet, paper, fillable)
        if key not in done:
            out = folder / f"{len(done)}-{sheet}-{paper}{'-fill' if fillable else ''}.pdf"
            result = print_designs(
                files, out, sheet=sheet, paper=paper, workers=workers, use_user_folder=False, fillable=fillable
            )
            done[key] = (out, result)
        return done[key]

    yield get


@functools.lru_cache(maxsize=64)
def _reader(pdf: Path, stamp: tuple[int, int]) -> PdfReader:
    return PdfReader(pdf)


def reader(pdf: Path) -> PdfReader:
    """pypdf's reading of ``pdf``, made once while the file is unchanged: the tests read each
    printed sheet's fields, boxes and tree several times, and a new reader parsed the whole
    object stream each time (about 50 ms a sheet)."""
    stat = pdf.stat()
    return _reader(pdf, (stat.st_mtime_ns, stat.st_size))


def _stamp(file: Path) -> tuple[int, int]:
    stat = file.stat()
    return stat.st_mtime_ns, stat.st_size


@functools.lru_cache(maxsize=64)
def _report_of(file: Path, stamp: tuple[int, int]) -> Report:
    loaded = load_design(file, use_user_folder=False)
    return evaluate(loaded.design, loaded.catalog)


def report_of(file: Path) -> Report:
    """What the engine reports on ``file``, evaluated once while the file is unchanged: a
    sample's report is read by several tests, each of several of its designs' names."""
    return _report_of(file, _stamp(file))


def declared(report: Report, prefix: str = "") -> list[str]:
    """The field names a report's own tracks and slots ask for: a box each, an available slot each."""
    boxes = [f"{prefix}{t.id}.{n}" for t in report.derived.tracks for n in range(1, len(t.boxes) + 1)]
    return boxes + [prefix + s.id for s in report.derived.slots if s.available]


def drawn_fields(rid: str, ship: Path, prefix: str = "") -> list[str]:
    """The field names of every box and write-in the flat record sheet draws (``data-field``
    of each, parts.html field()), the report's and the template's own (a Notes box)."""
    return [prefix + n for n in re.findall(r'data-field="([^"]+)"', record_html(rid, ship))]


VOID_TAGS = frozenset({"input", "br", "img", "meta", "link", "hr", "col", "wbr"})


class _Tree(HTMLParser):
    """The flat sheet's HTML as nested elements: (tag, classes, attributes, children)."""

    def __init__(self) -> None:
        super().__init__()
        self.root: dict[str, Any] = {"tag": "", "classes": set(), "attrs": {}, "children": []}
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = {k: v or "" for k, v in attrs}
        node = {"tag": tag, "classes": set(attr.get("class", "").split()), "attrs": attr, "children": []}
        self.stack[-1]["children"].append(node)
        if tag not in VOID_TAGS:
            self.stack.append(node)

    def handle_endtag(self, tag: str) -> None:
        while len(self.stack) > 1 and self.stack.pop()["tag"] != tag:
            pass


def _walk(node: dict[str, Any], parent: dict[str, Any] | None = None) -> Iterator[tuple[dict[str, Any], Any]]:
    for child in node["children"]:
        yield child, node
        yield from _walk(child, child)


def _holds_field(node: dict[str, Any]) -> bool:
    return "data-field" in node["attrs"] or any("data-field" in n["attrs"] for n, _ in _walk(node))


# What a sheet draws for a person to mark or write in: a tick box, a write-in line, a box to
# write a number in (Future Perfect's AP this round, The Cluster Falk's ratings now).
MARKED_CLASSES = {"chk", "write-in", "write-box", "nowbox"}


def unnamed_boxes(page: str) -> list[str]:
    """The boxes for a person to mark or write in that carry no field name: each element of a
    class above without ``data-field``, and each box of ruled lines (a Notes box) without a
    write-in over them."""
    tree = _Tree()
    tree.feed(page)
    out = []
    for node, parent in _walk(tree.root):
        if node["classes"] & MARKED_CLASSES and "data-field" not in node["attrs"]:
            out.append(f"<{node['tag']} class={' '.join(sorted(node['classes']))}>")
        if "rule" in node["classes"] and not _holds_field(parent):
            out.append(f"ruled lines in <{parent['tag']} class={' '.join(sorted(parent['classes']))}>")
    return sorted(set(out))


def drawn_squares(pdf: Path) -> list[tuple[int, float, float, float]]:
    """The tick boxes a page draws, read from its drawing (PDFium's page objects): each
    square outline 1.8 to 4.5 mm a side, as (page, centre x, centre y, side) in points."""
    doc = pdfium.PdfDocument(str(pdf))
    try:
        out = []
        for i in range(len(doc)):
            for obj in doc[i].get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_PATH], max_depth=8):
                left, bottom, right, top = obj.get_bounds()
                w, h = right - left, top - bottom
                if 5 < w < 13 and abs(w - h) < 0.3:
                    out.append((i, (left + right) / 2, (bottom + top) / 2, w))
        return out
    finally:
        doc.close()


def check_box_areas(pdf: Path) -> list[tuple[int, float, float, float, float]]:
    """Where each check box field lies: (page, left, bottom, right, top) in points."""
    out = []
    for i, page in enumerate(reader(pdf).pages):
        for ref in page.get("/Annots", []):
            annot = ref.get_object()
            if annot.get("/FT") == "/Btn":
                x0, y0, x1, y1 = (float(v) for v in annot["/Rect"])
                out.append((i, min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)))
    return out


def pypdf_fields(pdf: Path) -> dict[str, Any]:
    """Each field's value as pypdf reads it: True/False for a check box, the text of a text field."""
    fields = reader(pdf).get_fields() or {}
    return {
        name: (f.get("/V") == "/on") if f.get("/FT") == "/Btn" else str(f.get("/V", "")) for name, f in fields.items()
    }


def multiline_values(pdf: Path) -> list[str]:
    """The words written in each multi-line text field (a Notes box), as pypdf reads them."""
    fields = reader(pdf).get_fields() or {}
    multiline = 1 << 12  # the text field flag "Multiline"
    return [
        str(f["/V"])
        for f in fields.values()
        if f.get("/FT") == "/Tx" and int(f.get("/Ff", 0)) & multiline and f.get("/V")
    ]


def _pdfium_text(fn: Any, *args: Any) -> str:
    size = fn(*args, None, 0)
    buf = ctypes.create_string_buffer(size)
    fn(*args, ctypes.cast(buf, ctypes.POINTER(pdfium_c.FPDF_WCHAR)), size)
    return buf.raw[: max(0, size - 2)].decode("utf-16-le")


def pdfium_fields(pdf: Path) -> dict[str, Any]:
    """The same, read by PDFium through its form API."""
    doc = pdfium.PdfDocument(str(pdf))
    try:
        doc.init_forms()
        if doc.formenv is None:  # no form at all
            return {}
        env = doc.formenv.raw
        out: dict[str, Any] = {}
        for i in range(len(doc)):
            page = doc[i]
            for k in range(pdfium_c.FPDFPage_GetAnnotCount(page.raw)):
                annot = pdfium_c.FPDFPage_GetAnnot(page.raw, k)
                try:
                    if pdfium_c.FPDFAnnot_GetSubtype(annot) != pdfium_c.FPDF_ANNOT_WIDGET:
                        continue
                    name = _pdfium_text(pdfium_c.FPDFAnnot_GetFormFieldName, env, annot)
                    if pdfium_c.FPDFAnnot_GetFormFieldType(env, annot) == pdfium_c.FPDF_FORMFIELD_CHECKBOX:
                        out[name] = bool(pdfium_c.FPDFAnnot_IsChecked(env, annot))
                    else:
                        out[name] = _pdfium_text(pdfium_c.FPDFAnnot_GetFormFieldValue, env, annot)
                finally:
                    pdfium_c.FPDFPage_CloseAnnot(annot)
        return out
    finally:
        doc.close()


def fill(pdf: Path, out: Path, values: dict[str, Any], flatten: bool = False) -> None:
    """Fill in fields as a user would in a viewer (check boxes True/False, text as text)."""
    writer = PdfWriter(clone_from=pdf)
    answers = {k: ("/on" if v else "/Off") if isinstance(v, bool) else v for k, v in values.items()}
    writer.update_page_form_field_values(None, answers, auto_regenerate=False, flatten=flatten)
    if flatten:
        writer.remove_annotations(subtypes="/Widget")
        del writer.root_object["/AcroForm"]
    buf = io.BytesIO()
    writer.write(buf)
    out.write_bytes(buf.getvalue())


def _marked_texts(pdf: Path) -> list[dict[int, str]]:
    """Each page's words by marked-content id, as PDFium reads its text objects."""
    doc = pdfium.PdfDocument(str(pdf))
    try:
        out = []
        for i in range(len(doc)):
            page = doc[i]
            textpage = page.get_textpage()
            texts: dict[int, str] = {}
            for obj in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_TEXT], max_depth=16):
                mcid = pdfium_c.FPDFPageObj_GetMarkedContentID(obj.raw)
                texts[mcid] = texts.get(mcid, "") + _pdfium_text(pdfium_c.FPDFTextObj_GetText, obj.raw, textpage.raw)
            out.append(texts)
        return out
    finally:
        doc.close()


def structure_text(pdf: Path) -> tuple[list[str], list[str]]:
    """The structure tree in its order: the words of each piece of marked content it holds,
    and the type of each element (``/Form`` for a field's)."""
    texts = _marked_texts(pdf)
    words: list[str] = []
    kinds: list[str] = []
    with pikepdf.open(pdf) as doc:
        pages = {p.objgen: i for i, p in enumerate(doc.pages)}

        def walk(node: Any, page: int) -> None:
            if isinstance(node, int):  # marked content on the element's page
                words.append(texts[page].get(node, ""))
            elif isinstance(node, pikepdf.Array):
                for kid in node:
                    walk(kid, page)
            elif isinstance(node, pikepdf.Dictionary):
                page = pages.get(node.Pg.objgen, page) if "/Pg" in node else page
                if node.get("/Type") == "/MCR":  # marked content on a page of its own
                    words.append(texts[page].get(int(node.MCID), ""))
                elif node.get("/Type") != "/OBJR":  # an element (an OBJR is an annotation's reference)
                    kinds.append(str(node.get("/S", "")))
                    if "/K" in node:
                        walk(node.K, page)

        walk(doc.Root.StructTreeRoot.K, 0)
    return words, kinds


def squeeze(text: str) -> str:
    """Text to compare whatever the layout: no spaces or line breaks (letter-spaced headings
    come out as "AT TRIBUTES"), ligatures undone, one case."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", html.unescape(text))).lower()


def pdftotext(pdf: Path) -> str:
    return subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout


def text_field_areas(pdf: Path) -> dict[str, tuple[float, float, float, float]]:
    """Where the text fields of the first page lie, by name (left, top, right, bottom, from
    the top left as pdftotext measures). A viewer draws a field's text itself, wrapped its
    own way."""
    page = reader(pdf).pages[0]
    height = float(page.mediabox.height)
    areas = {}
    for ref in page.get("/Annots", []):
        annot = ref.get_object()
        if annot.get("/FT") == "/Tx":
            x0, y0, x1, y1 = (float(v) for v in annot["/Rect"])
            areas[str(annot["/T"])] = (min(x0, x1), height - max(y0, y1), max(x0, x1), height - min(y0, y1))
    return areas


def placed_words(pdf: Path, leave_out: Sequence[tuple[float, float, float, float]] = ()) -> list[tuple[int, str]]:
    """Each word of the first page with the height it stands at, in page order, leaving out
    the words inside the areas given. Two renderings of one layout compare equal even where
    pdftotext would read their columns in a different order (a fillable sheet embeds whole
    fonts, which moves glyphs by hundredths of a point)."""
    xml = subprocess.run(
        ["pdftotext", "-bbox", "-f", "1", "-l", "1", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    words = []
    for x0, y0, x1, y1, word in re.findall(
        r'<word xMin="([^"]+)" yMin="([^"]+)" xMax="([^"]+)" yMax="([^"]+)">([^<]*)</word>', xml
    ):
        x, y = (float(x0) + float(x1)) / 2, (float(y0) + float(y1)) / 2
        if not any(left <= x <= right and top <= y <= bottom for left, top, right, bottom in leave_out):
            words.append((round(float(y0)), squeeze(word)))
    return sorted(words)


def lines_of(pdf: Path) -> list[str]:
    """The first page's text a line at a time (words at one height, left to right)."""
    xml = subprocess.run(
        ["pdftotext", "-bbox", "-f", "1", "-l", "1", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    rows: dict[int, list[tuple[float, str]]] = {}
    for x0, y0, word in re.findall(r'<word xMin="([^"]+)" yMin="([^"]+)"[^>]*>([^<]*)</word>', xml):
        rows.setdefault(round(float(y0)), []).append((float(x0), html.unescape(word)))
    return [" ".join(w for _, w in sorted(words)) for _, words in sorted(rows.items())]


def record_html(rid: str, ship: Path) -> str:
    """The flat record sheet's HTML of ``ship`` on A4, rendered once while the file is
    unchanged: five tests read each sample's, for its panels, its boxes and its fields."""
    return _record_html(rid, ship, _stamp(ship))


@functools.lru_cache(maxsize=64)
def _record_html(rid: str, ship: Path, stamp: tuple[int, int]) -> str:
    loaded = load_design(ship, use_user_folder=False)
    info = next(i for i in rulesets() if i.id == rid)
    dirs = template_dirs(rid, [], info.templates, builtin_template_root() / "common")
    entry = design_entry(loaded, evaluate(loaded.design, loaded.catalog))
    return render_html(dirs, "record.html", sheet_context([entry], loaded.catalog, sheet="record", paper="a4"))


def in_order(text: str, parts: list[str]) -> tuple[list[str], int]:
    """The parts not found in ``text`` one after another (empty: all in order), and where
    the last one found ends."""
    missing, pos = [], 0
    for part in parts:
        at = text.find(part, pos)
        if at < 0:
            missing.append(part)
        else:
            pos = at + len(part)
    return missing, pos


# --------------------------------------------------------------------------- the fields


@pytest.mark.parametrize(("rid", "ship"), SAMPLES, ids=SAMPLE_IDS)
def test_every_box_the_sheet_draws_for_a_person_to_mark_is_a_field(rid: str, ship: Path, printed: Any) -> None:
    """Not only the boxes the report declares: every tick box drawn on the flat page (read
    from the PDF's drawing) has a check box field over it on the fillable one, and every box
    drawn to mark or write in (the HTML: a tick box, a write-in, a box for a number, a Notes
    box's ruled lines) is a field of the sheet — Wing Commander's box after each numbered
    component and its Notes box among them."""
    flat, _ = printed([ship])
    sheet, _ = printed([ship], fillable=True)
    checks = check_box_areas(sheet)
    squares = drawn_squares(flat)
    assert squares
    bare = [
        (page, round(x), round(y), round(side * 25.4 / 72, 1))
        for page, x, y, side in squares
        if not any(
            p == page and left - 1 <= x <= right + 1 and bottom - 1 <= y <= top + 1
            for p, left, bottom, right, top in checks
        )
    ]
    assert bare == [], f"tick boxes drawn with no field over them (page, x, y in pt, side in mm): {bare}"
    assert unnamed_boxes(record_html(rid, ship)) == []
    fields = pypdf_fields(sheet)
    if "notes" in drawn_fields(rid, ship):  # a Notes box to write in holds the design's notes
        assert fields["notes"] == (load_design(ship, use_user_folder=False).design.notes or "")


def test_the_wing_commander_rapier_has_a_field_for_each_component_and_its_notes(printed: Any) -> None:
    """rapier.ship: 3 x 2 missile boxes, durability 4 + 5 + 4 and 14 numbered components
    (4 in the cockpit, 4 in the engines, 6 in the weapons bay), and the Notes box: 34 fields."""
    ship = next(s for r, s in SAMPLES if r == "wing-commander" and s.stem == "rapier")
    sheet, result = printed([ship], fillable=True)
    fields = pypdf_fields(sheet)
    components = sorted(n for n in fields if n.endswith(".offline"))
    assert [n.split(".")[1] for n in components].count("0") == 4 and len(components) == 14
    assert "compartments.2.components.5.offline" in components and fields[components[0]] is False
    assert result.fields == len(fields) == 34 and "notes" in fields


@needs_poppler
@pytest.mark.parametrize(("rid", "ship"), SAMPLES, ids=SAMPLE_IDS)
def test_every_box_and_slot_of_the_report_is_one_field_named_after_its_place(
    rid: str, ship: Path, printed: Any
) -> None:
    report = report_of(ship)
    flat, flat_result = printed([ship])
    sheet, result = printed([ship], fillable=True)
    names = list(pypdf_fields(sheet))
    assert names == list(dict.fromkeys(names))  # unique
    assert set(declared(report)) <= set(names) and result.fields == len(names)
    assert sorted(names) == sorted(drawn_fields(rid, ship))  # and the template's own boxes (a Notes box)
    # the same page: one page, the same words; the flat sheet has no form at all
    assert result.pages == flat_result.pages == 1
    fields = list(text_field_areas(sheet).values())  # their text is checked below, as the fields' values
    assert placed_words(sheet, fields) == placed_words(flat, fields)
    assert reader(flat).get_fields() is None and flat_result.fields == 0
    # a box the report marks (damage already taken, experience earned) comes ticked, the others not
    marked = {f"{t.id}.{n}": b.marked for t in report.derived.tracks for n, b in enumerate(t.boxes, 1)}
    values = pypdf_fields(sheet)
    assert {k: values[k] for k in marked} == marked
    assert {s.id: values[s.id] for s in report.derived.slots if s.available} == {
        s.id: s.text for s in report.derived.slots if s.available
    }


@pytest.mark.parametrize(("rid", "ship"), FIRST_OF_EACH, ids=[r for r, _ in FIRST_OF_EACH])
def test_fields_filled_in_one_reader_read_the_same_in_another(
    rid: str, ship: Path, printed: Any, tmp_path: Path
) -> None:
    sheet, _ = printed([ship], fillable=True)
    assert pdfium_fields(sheet) == pypdf_fields(sheet)
    values: dict[str, Any] = {}
    for i, (name, value) in enumerate(pypdf_fields(sheet).items()):
        values[name] = (i % 3 == 0) if isinstance(value, bool) else f"Hit by {name} in round {i}"
    filled = tmp_path / "filled.pdf"
    fill(sheet, filled, values)
    assert pypdf_fields(filled) == values
    assert pdfium_fields(filled) == values


@needs_poppler
def test_a_filled_sheet_flattened_prints_what_was_written(printed: Any, tmp_path: Path) -> None:
    ship = EXAMPLES / "rebel-fighter.ship"
    sheet, _ = printed([ship], fillable=True)
    flat = tmp_path / "flattened.pdf"
    fill(sheet, flat, {"notes": "Lost two points to the Imperial frigate", "structure.1": True}, flatten=True)
    assert reader(flat).get_fields() is None and pdfium_fields(flat) == {}
    # the words are printed on the page now, on one line in the order they were written
    assert any("Lost two points to the Imperial frigate" in line for line in lines_of(flat))


def field_faces(pdf: Path) -> dict[str, tuple[str, bytes]]:
    """The font each text field is drawn in (its /DA names a font of the form's /DR): by
    field name, the font's name and its embedded TrueType bytes."""
    form = reader(pdf).trailer["/Root"]["/AcroForm"]
    fonts = form["/DR"]["/Font"]
    out = {}
    for ref in form["/Fields"]:
        field = ref.get_object()
        if field.get("/FT") != "/Tx":
            continue
        resource = re.findall(r"/(\S+)\s+[\d.]+\s+Tf", str(field["/DA"]))[-1]
        font = fonts[f"/{resource}"].get_object()
        descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"].get_object()
        out[str(field["/T"])] = (str(font["/BaseFont"]), descriptor["/FontFile2"].get_object().get_data())
    return out


def test_a_fillable_sheet_s_fields_type_in_small_faces_that_hold_what_people_write(tmp_path: Path) -> None:
    """The Future Perfect cruiser's fillable record embedded DejaVu Sans Condensed's bold
    and oblique whole (770 KB; poppler read its structure tree in 46 s of CPU). Its fields
    now type in "Shipyard Fields" faces cut to the letters a record is written in, plus
    the values printed in them (a note in Greek keeps its letters)."""
    data = json.loads((ROOT / "catalogs" / "future-perfect" / "examples" / "cruiser.ship").read_text())
    data["design"]["notes"] = "Δ-wing refit: Łódź yards, café à la carte"
    ship = tmp_path / "cruiser.ship"
    ship.write_text(json.dumps(data))
    sheet = tmp_path / "cruiser.pdf"
    assert call_shipyard("print", str(ship), "--fillable", "-o", str(sheet)).returncode == 0
    faces = field_faces(sheet)
    assert "notes" in faces and len(faces) == len([f for f in pypdf_fields(sheet).values() if isinstance(f, str)])
    for name, (font, embedded) in faces.items():
        assert "Shipyard-Fields" in font, (name, font)
        assert len(embedded) < 80_000, (name, font, len(embedded))  # DejaVu Sans Condensed Oblique whole: 601,448
        cmap = TTFont(io.BytesIO(embedded)).getBestCmap()
        typed = "Łódź café — “Hit” 3×2 ±1 € … ≤ ≥ → ő ž"
        assert [c for c in typed if ord(c) not in cmap] == [], (name, font)
    assert ord("Δ") in TTFont(io.BytesIO(faces["notes"][1])).getBestCmap()  # the note as printed in its field
    assert pypdf_fields(sheet)["notes"] == data["design"]["notes"]
    assert sheet.stat().st_size < 200_000  # it was 770,139 bytes with the faces embedded whole
    # the form's default resources are those fonts and nothing else (they were the whole
    # sheet's resources, which poppler went through for every field: 6.4-6.7 s, now 4.7-5 s)
    form = reader(sheet).trailer["/Root"]["/AcroForm"]
    assert list(form["/DR"].keys()) == ["/Font"]
    named = {
        f"/{n}"
        for ref in form["/Fields"]
        for n in re.findall(r"/(\S+)\s+[\d.]+\s+Tf", str(ref.get_object().get("/DA", "")))
    }
    assert set(form["/DR"]["/Font"].keys()) == named and len(named) == len({font for font, _ in faces.values()})


FONT_LOOKUP_IN_A_NEW_PROCESS = """
import subprocess, sys
import shipyard.render.pdf  # as a render worker has it before its first fillable sheet
started = []
plain = subprocess.Popen.__init__
def noted(self, *args, **kwargs):
    started.append(args[0] if args else kwargs.get("args"))
    plain(self, *args, **kwargs)
subprocess.Popen.__init__ = noted
from shipyard.render import fieldfont
path, index = fieldfont.font_file(fieldfont.FAMILY + ":weight=200")
print(path.is_file(), index, started)
"""


def test_the_fields_faces_are_found_without_starting_a_process() -> None:
    """fontconfig's library is opened by the names it is installed under, as WeasyPrint
    opens it: ``ctypes.util.find_library`` started ``ldconfig -p`` in each render worker
    to look for it, at the worker's first fillable sheet."""
    done = subprocess.run(
        [sys.executable, "-c", FONT_LOOKUP_IN_A_NEW_PROCESS], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "0", "[]"], done.stdout


@pytest.mark.parametrize(("paper", "size"), [("a4", A4), ("letter", LETTER)])
@pytest.mark.parametrize(("rid", "ship"), FIRST_OF_EACH, ids=[r for r, _ in FIRST_OF_EACH])
def test_fields_sit_on_the_page_on_a4_and_letter(
    rid: str, ship: Path, paper: str, size: tuple[float, float], printed: Any
) -> None:
    sheet, result = printed([ship], paper=paper, fillable=True)
    assert page_sizes_mm(sheet) == [size] * result.pages
    assert sorted(pypdf_fields(sheet)) == sorted(drawn_fields(rid, ship))
    for page in reader(sheet).pages:
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        for annot in page.get("/Annots", []):
            rect = [float(v) for v in annot.get_object()["/Rect"]]
            (x0, x1), (y0, y1) = sorted(rect[::2]), sorted(rect[1::2])
            assert 0 < x0 < x1 < width and 0 < y0 < y1 < height


def _prefixed(files: list[Path], rid: str = "", drawn: bool = False) -> list[str]:
    """Each design's field names after its prefix: those its report declares, or (``drawn``)
    every box its record sheet draws."""
    names = [report_of(f).name for f in files]
    slugs = [re.sub(r"[^a-z0-9]+", "-", n.lower()).strip("-") for n in names]
    return [
        n
        for f, s in zip(files, slugs, strict=True)
        for n in (drawn_fields(rid, f, f"{s}.") if drawn else declared(report_of(f), f"{s}."))
    ]


@pytest.mark.parametrize("rid", [info.id for info in rulesets()])
def test_a_fleet_book_s_fields_start_with_their_design(rid: str, printed: Any) -> None:
    files = [ship for r, ship in SAMPLES if r == rid]
    book, result = printed(files, sheet="fleet", fillable=True)
    names = list(pypdf_fields(book))
    assert len(names) == len(set(names)) == result.fields
    assert sorted(names) == sorted(_prefixed(files, rid, drawn=True))
    assert pdfium_fields(book) == pypdf_fields(book)


@pytest.mark.parametrize("rid", [info.id for info in rulesets()])
def test_a_card_sheet_s_fields_are_unique_and_belong_to_their_design(rid: str, printed: Any) -> None:
    files = [ship for r, ship in SAMPLES if r == rid]
    cards, result = printed(files, sheet="cards", fillable=True)
    names = list(pypdf_fields(cards))
    assert names and len(names) == len(set(names)) == result.fields
    prefixes = [re.sub(r"[^a-z0-9]+", "-", report_of(f).name.lower()).strip("-") + "." for f in files]
    assert all(any(n.startswith(p) for p in prefixes) for n in names), names
    own = set(_prefixed(files))
    # a card shows the design's own boxes (a member of a force shows its own, under the member's name)
    assert {n for n in names if n in own} or not own


def test_two_designs_of_one_name_get_numbered_prefixes(printed: Any, tmp_path: Path) -> None:
    doc = json.loads((EXAMPLES / "rebel-fighter.ship").read_text())
    files = []
    for i in range(2):
        f = tmp_path / f"copy{i}.ship"
        f.write_text(json.dumps(doc))
        files.append(f)
    sheet, result = printed(files, fillable=True)
    names = list(pypdf_fields(sheet))
    assert result.pages == 2 and len(names) == len(set(names))
    assert "rebel-fighter.structure.1" in names and "rebel-fighter-2.structure.1" in names


# --------------------------------------------------------------------------- read in order


@needs_poppler
@pytest.mark.parametrize("fillable", [False, True], ids=["flat", "fillable"])
@pytest.mark.parametrize(("rid", "ship"), SAMPLES, ids=SAMPLE_IDS)
def test_a_sheet_reads_its_name_then_its_panels_then_the_footer(
    rid: str, ship: Path, fillable: bool, printed: Any
) -> None:
    page = record_html(rid, ship)
    panels = [squeeze(t) for t in re.findall(r'<div class="box-title">([^<]*)', page)]
    footer = [squeeze(t) for t in re.findall(r'class="foot-(?:left|right)" data-text="([^"]*)"', page)]
    assert len(panels) >= 3 and len(footer) == 2
    sheet, _ = printed([ship], fillable=fillable)
    text = squeeze(pdftotext(sheet))
    if fillable:  # a Notes field's words are the field's, drawn after the page's own: checked as its value
        for value in multiline_values(sheet):
            text = text.replace(squeeze(value), "")
    name = squeeze(report_of(ship).name)
    assert text.startswith(name), text[:80]
    missing, end = in_order(text, [name, *panels])
    assert missing == []
    # the footer's words come once each, whole, after the last panel's heading; the page ends with its number
    assert text.count(footer[0]) == text.count(footer[1] + "page1") == 1
    assert text.endswith(footer[1] + "page1")
    # poppler guesses a column's order from the layout; a Notes field's drawn words beside a
    # column (Future Perfect) move its guess of the footer's left half on a fillable sheet. The
    # order a reader meets there is the structure tree's (test_a_sheet_is_tagged_...).
    assert text.find(footer[0]) > end or fillable


@needs_poppler
@pytest.mark.parametrize(("rid", "ship"), FIRST_OF_EACH, ids=[r for r, _ in FIRST_OF_EACH])
def test_a_sheet_is_tagged_with_its_title_and_language(rid: str, ship: Path, printed: Any) -> None:
    report = report_of(ship)
    for fillable in (False, True):
        sheet, _ = printed([ship], fillable=fillable)
        doc = reader(sheet)
        root = doc.trailer["/Root"]
        assert "/StructTreeRoot" in root and bool(root["/MarkInfo"]["/Marked"])
        assert root["/Lang"] == "en" and doc.metadata.title == report.name
        assert bool(root["/ViewerPreferences"]["/DisplayDocTitle"])
        info = subprocess.run(["pdfinfo", str(sheet)], capture_output=True, text=True, check=True).stdout
        assert re.search(r"^Tagged:\s+yes$", info, re.M) and re.search(r"^Form:\s+AcroForm$|^Form:\s+none$", info, re.M)
        # the structure tree reads as the page does: the name, then each panel
        pieces, kinds = structure_text(sheet)
        words = squeeze(" ".join(pieces))
        panels = [squeeze(t) for t in re.findall(r'<div class="box-title">([^<]*)', record_html(rid, ship))]
        assert words.startswith(squeeze(report.name)) and in_order(words, panels)[0] == []
        # each field is a Form element of the tree
        assert kinds.count("/Form") == (len(drawn_fields(rid, ship)) if fillable else 0)


@needs_poppler
def test_poppler_reads_a_sheet_s_structure_tree_as_the_tests_do(printed: Any) -> None:
    """structure_text against poppler's own reading of the tree, on a flat sheet (poppler
    takes seconds over a fillable one's): the same words in the same order."""
    ship = next(s for r, s in SAMPLES if r == "future-perfect")
    sheet, _ = printed([ship])
    tree = subprocess.run(["pdfinfo", "-struct-text", str(sheet)], capture_output=True, text=True, check=True)
    theirs = squeeze("".join(re.findall(r'^\s*"(.*)"$', tree.stdout, re.M)))
    assert len(theirs) > 1000 and squeeze("".join(structure_text(sheet)[0])) == theirs


@needs_poppler
@pytest.mark.parametrize("fillable", [False, True], ids=["flat", "fillable"])
def test_a_fleet_book_joined_from_parts_keeps_one_structure_tree(fillable: bool, printed: Any) -> None:
    # two designs make a book of parts joined (contents, sheets, reference)
    files = [ship for r, ship in SAMPLES if r == "space-fighter-alpha"][:2]
    book, result = printed(files, sheet="fleet", fillable=fillable, paper="letter")
    doc = reader(book)
    root = doc.trailer["/Root"]
    tree = root["/StructTreeRoot"]
    assert root["/Lang"] == "en" and bool(root["/MarkInfo"]["/Marked"]) and doc.metadata.title == "Fleet book"
    # every page, and every field, has its own key into one parent tree
    nums = tree["/ParentTree"]["/Nums"]
    keys = [int(k) for k in nums[::2]]
    page_keys = [int(p["/StructParents"]) for p in doc.pages]
    annot_keys = [int(a.get_object()["/StructParent"]) for p in doc.pages for a in p.get("/Annots", [])]
    assert len(page_keys) == result.pages and len(set(page_keys + annot_keys)) == len(page_keys + annot_keys)
    assert set(page_keys + annot_keys) <= set(keys) and int(tree["/ParentTreeNextKey"]) > max(keys)
    assert len(annot_keys) >= result.fields
    words = squeeze(" ".join(structure_text(book)[0]))
    names = [squeeze(report_of(f).name) for f in files]
    assert in_order(words, ["contents", *names, "referencecharts"])[0] == []


# --------------------------------------------------------------------------- safety


def _objects(reader: PdfReader) -> Iterator[dict[str, Any]]:
    """Every dictionary reachable from the document's trailer."""
    seen: set[int] = set()
    todo: list[Any] = [reader.trailer]
    while todo:
        obj = todo.pop()
        ref = getattr(obj, "indirect_reference", None)
        obj = obj.get_object() if hasattr(obj, "get_object") else obj
        if ref is not None:
            if ref.idnum in seen:
                continue
            seen.add(ref.idnum)
        if isinstance(obj, dict):
            yield obj
            todo += [v for k, v in obj.items() if k not in ("/Parent", "/P")]
        elif isinstance(obj, list):
            todo += obj


HOSTILE = {
    "name": '<script>app.alert("name")</script><link rel="attachment" href="file:///etc/passwd">',
    "concept": '<a href="javascript:app.alert(1)">x</a><a rel="attachment" href="file:///etc/hostname">y</a>',
    "notes": 'javascript:app.alert(2) <form action="javascript:app.alert(3)"><button>go</button></form>',
}


@pytest.mark.parametrize("sheet", ["record", "cards", "fleet"])
def test_hostile_design_names_embed_nothing_in_a_fillable_sheet(sheet: str, printed: Any, tmp_path: Path) -> None:
    doc = json.loads((EXAMPLES / "rebel-fighter.ship").read_text())
    doc["design"].update(HOSTILE)
    evil = tmp_path / "evil.ship"
    evil.write_text(json.dumps(doc))
    files = [evil, EXAMPLES / "rebel-frigate.ship"] if sheet != "record" else [evil]
    out, _ = printed(files, sheet=sheet, fillable=True)
    printed_pdf = reader(out)
    keys = {k for d in _objects(printed_pdf) for k in d}
    assert not keys & {"/JavaScript", "/JS", "/AA", "/OpenAction", "/EmbeddedFile", "/EmbeddedFiles", "/URI"}
    assert not [d for d in _objects(printed_pdf) if d.get("/S") in ("/JavaScript", "/SubmitForm", "/Launch")]
    pdf = pdfium.PdfDocument(str(out))
    try:
        assert pdf.count_attachments() == 0
    finally:
        pdf.close()
    names = list(pypdf_fields(out))
    assert names and all(re.fullmatch(r"[a-z0-9][a-z0-9._-]*", n) for n in names), names
    if sheet == "record":
        assert squeeze(pages_text(out)[0]).startswith(squeeze(HOSTILE["name"]))  # printed as words
        assert pypdf_fields(out)["notes"] == HOSTILE["notes"]  # words in a field, nothing more


def test_a_template_s_own_buttons_and_forms_become_no_field(workers: list[RenderWorker], tmp_path: Path) -> None:
    mine = [
        _user_template(
            tmp_path,
            '<!DOCTYPE html><html lang="en"><head><title>t</title></head><body>'
            '<form action="javascript:app.alert(1)"><input type="submit" value="Send">'
            "<button>Push</button><select name=s><option>a</option></select>"
            '<input type="checkbox" name="mine.1"></form></body></html>',
        )
    ]
    out = tmp_path / "own.pdf"
    result = print_designs(
        [EXAMPLES / "rebel-fighter.ship"],
        out,
        user_template_dirs=mine,
        workers=workers,
        use_user_folder=False,
        fillable=True,
    )
    assert list(pypdf_fields(out)) == ["mine.1"] and result.fields == 1
    assert not [d for d in _objects(reader(out)) if "/A" in d or "/AA" in d]
    flat = tmp_path / "own-flat.pdf"
    print_designs(
        [EXAMPLES / "rebel-fighter.ship"],
        flat,
        user_template_dirs=mine,
        workers=workers,
        use_user_folder=False,
    )
    assert reader(flat).get_fields() is None  # a flat sheet has no form, whatever its template says


# --------------------------------------------------------------------------- where users ask for it


def test_the_print_command_writes_a_fillable_form(tmp_path: Path) -> None:
    out = tmp_path / "sheet.pdf"
    proc = call_shipyard(
        "print", EXAMPLES / "rebel-fighter.ship", "--fillable", "-o", out, "--paper", "a4", "--no-user-catalog"
    )
    assert proc.returncode == 0, proc.stderr
    n = len(declared(report_of(EXAMPLES / "rebel-fighter.ship")))
    assert proc.stdout.strip() == f"wrote {out}: 1 page(s), 1 design(s), {n} form field(s)"
    assert len(pypdf_fields(out)) == n and "structure.31" in pypdf_fields(out)
    plain = tmp_path / "plain.pdf"
    proc = call_shipyard("print", EXAMPLES / "rebel-fighter.ship", "-o", plain, "--paper", "a4", "--no-user-catalog")
    assert proc.stdout.strip() == f"wrote {plain}: 1 page(s), 1 design(s)" and reader(plain).get_fields() is None


def test_the_editor_s_print_dialog_offers_a_fillable_form(qtbot: Any, tmp_path: Path) -> None:
    from PySide6.QtCore import QSettings

    from shipyard._qt.window.window import MainWindow, PrintDialog

    window = MainWindow(
        QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat), use_user_folder=False, preview=False
    )
    qtbot.addWidget(window)
    window.ask_unsaved = lambda _doc: "discard"  # type: ignore[method-assign]
    errors: list[tuple[str, str]] = []
    window.show_error = lambda title, text: errors.append((title, text))  # type: ignore[method-assign]
    dialog = PrintDialog(window, "a4", several=False)
    assert dialog.fillable.text() == "&Fillable form" and not dialog.fillable.isChecked()  # flat unless asked
    window.open_file(EXAMPLES / "rebel-fighter.ship")
    opened: list[str] = []
    window.printing.open_url = lambda url: opened.append(url.toLocalFile())  # type: ignore[method-assign]
    out = tmp_path / "form.pdf"
    window.printing.print_to(out, window.documents(), "record", "a4", fillable=True)
    qtbot.waitUntil(lambda: bool(opened), timeout=60_000)
    assert errors == [] and sorted(pypdf_fields(out)) == sorted(declared(report_of(EXAMPLES / "rebel-fighter.ship")))
