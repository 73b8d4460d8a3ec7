"""HTML to PDF with WeasyPrint, locked down: no network, no files outside known folders.

Only ``data:`` URLs and regular files under the template and catalog folders (resolved
real paths) may be loaded. No redirects, no attachments, presentational hints off.
Imported only inside the render worker process.

A printed PDF is tagged (WeasyPrint's ``pdf_tags``: a structure tree in document order, the
``<html lang>`` as its language, the ``<title>`` shown as its title). A fillable sheet
asks WeasyPrint for its forms (``pdf_forms``), and keeps only the fields a sheet makes
(check boxes, one-line and multi-line text): a button would become a submit action with
a URL, so none is kept, and a flat sheet keeps no field at all.

WeasyPrint draws each check box's ticked look but gives it no default appearance string,
and asks viewers to redraw every field (``NeedAppearances``); poppler (Evince, Okular,
pdftoppm) then cannot redraw check boxes and shows a ticked box empty. So the form says
that its fields look as drawn: check boxes keep WeasyPrint's look, and text fields, which
WeasyPrint leaves without one, are drawn by viewers from their value.

A *preview* (``draft``: the editor's live sheet, shown and thrown away) looks the same but
is made with less work, since it is rendered again at every edit: no structure tree (no
screen reader reads the preview's PDF; the printed one has it), pictures decoded once and
kept, and each font subset once and kept (:class:`_Subsets`, through
:func:`shipyard._speedups.weasyprint_subsets_through`). Subsetting is most of
what writing a sheet costs (fontTools parsing the font's tables again each time, about
twice the page's layout where HarfBuzz's subsetter is not installed); a kept subset holds
every glyph the previews have used so far, each at its own glyph id, so a later sheet that
uses no new glyph embeds it as it is, and one that does subsets again with the new ones.
"""

from __future__ import annotations

import contextlib
import hashlib
import mimetypes
import re
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from shipyard._speedups import (
    dotted_borders_stroked,
    keep_parsed_style_sheets,
    libraries_found_quickly,
    read_types_at_once,
    weasyprint_subsets_through,
)
from shipyard.core.safepaths import UnsafePath, walk_below
from shipyard.render.cardfit import card_anchor

with libraries_found_quickly():  # no gcc or ld started for each library name (see that module)
    from weasyprint import CSS, HTML
    from weasyprint.text.ffi import ffi
    from weasyprint.text.fonts import FontConfiguration
    from weasyprint.urls import URLFetcher, URLFetcherResponse
read_types_at_once(ffi)
keep_parsed_style_sheets()  # a worker's jobs share their sheets' <style> text: parsed once a worker
dotted_borders_stroked()  # a dotted rule is one stroked line, not a clip path of a circle per dot


class RefusedResource(Exception):
    """A sheet asked for something outside what sheets may load."""


class SafeFetcher(URLFetcher):
    """Serve ``data:`` URLs and files under ``roots``; refuse everything else, loudly."""

    def __init__(self, roots: list[Path]) -> None:
        super().__init__(timeout=5, allowed_protocols={"data", "file"}, allow_redirects=False, fail_on_errors=True)
        self.roots = [r.resolve() for r in roots]

    def fetch(self, url: str, headers: dict[str, str] | None = None) -> URLFetcherResponse:
        scheme = url.split(":", 1)[0].lower()
        if scheme == "data":
            return super().fetch(url, headers)
        if scheme != "file":
            raise RefusedResource(
                f"refused {url!r}: sheets may not load anything from the network; "
                "use data: URLs or files in the template folder"
            )
        path = Path(unquote(urlparse(url).path))
        try:
            path = walk_below(path, self.roots)
        except (OSError, UnsafePath):
            raise RefusedResource(
                f"refused {url!r}: only regular files inside the template and catalog folders may be loaded, "
                f"never through a link ({', '.join(str(r) for r in self.roots)})"
            ) from None
        mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": mime})


FIELD_TYPES = {("input", "checkbox"), ("input", "text"), ("textarea", None)}


def _kept_field(box: Any) -> bool:
    element = box.element
    kind = element.get("type", "text").lower() if element.tag == "input" else None
    return (element.tag, kind) in FIELD_TYPES


def _fields_look_as_drawn(document: Any, pdf: Any) -> None:
    """WeasyPrint's finisher: the form's fields keep the appearance WeasyPrint gave them,
    and the form's default resources hold only the fonts its fields are typed in
    (:func:`_fields_fonts_only`)."""
    form = pdf.catalog.get("AcroForm")
    if form is not None:
        form["NeedAppearances"] = "false"
        _fields_fonts_only(pdf, form)


_TYPED_IN = re.compile(rb"/(\S+)\s+[-\d.]+\s+Tf")  # a default appearance's "/Font size Tf"


def _fields_fonts_only(pdf: Any, form: Any) -> None:
    """Give the form default resources (``DR``) of its own: the fonts its fields'
    appearances name, nothing else. WeasyPrint hands the form the document's whole
    resources (every font of the sheet, its patterns and pictures), and poppler, which
    Evince, Okular and screen readers on Linux read forms with, went through them for
    each field as it read the structure tree, so a fillable record with many fields was
    slow to open for a screen reader."""

    def at(reference: Any) -> Any:
        return pdf.objects[int(bytes(reference).split()[0])]

    try:
        resources = at(form["DR"])
        fonts = at(resources["Font"])
    except (KeyError, IndexError, TypeError, ValueError):
        return  # not the form WeasyPrint makes: left as it is
    named: set[str] = set()
    for reference in form["Fields"]:
        appearance = at(reference).get("DA")
        if appearance is not None:
            text = appearance.string
            named |= {m.decode() for m in _TYPED_IN.findall(text.encode() if isinstance(text, str) else bytes(text))}
    dictionary = type(form)  # pydyf's, WeasyPrint's PDF writer
    own = dictionary({"Font": dictionary({name: fonts[name] for name in sorted(named) if name in fonts})})
    pdf.add_object(own)
    form["DR"] = own.reference


_fonts: FontConfiguration | None = None


def font_configuration() -> FontConfiguration:
    """One font configuration for every job of this worker: building Pango's font map
    and asking fontconfig for the families is a good part of a first render."""
    global _fonts
    if _fonts is None:
        _fonts = FontConfiguration()
    return _fonts


_field_sheets: dict[str, CSS] = {}


def field_stylesheets(html: str) -> list[CSS]:
    """The stylesheet that sets a fillable sheet's fields in their own small faces
    (:mod:`shipyard.render.fieldfont`), made once a worker for each set of letters: its
    ``@font-face`` rules are added to the worker's one font configuration when it is parsed."""
    from shipyard.render.fieldfont import field_font_rules

    rules = field_font_rules(html)
    if rules is None:
        return []
    if rules not in _field_sheets:
        _field_sheets.clear()  # a sheet's own letters made another subset: the old one is not wanted again soon
        _field_sheets[rules] = CSS(string=rules, font_config=font_configuration())
    return [_field_sheets[rules]]


class _Subsets:
    """Font subsets kept across a worker's preview jobs: per font file (its bytes' digest and
    face index) and hinting, the glyph ids kept and the subset font made with them.

    They are kept on disk too (the user's cache folder, :mod:`shipyard.core.cachefile`), so
    the first preview after the editor starts finds them made: subsetting a font the
    first time is about as long as the rest of that first render. A font changed on disk
    is another digest, so it is subset again; a cache that cannot be read or written is
    only slower."""

    def __init__(self) -> None:
        self.kept: dict[tuple[bytes, int, bool], tuple[frozenset[int], bytes]] = {}
        self.made = 0  # subsets made (a font with new glyphs), for tests
        self._read = False

    def subset(self, font: Any, to_unicode: dict[int, str], hinting: bool, original: Callable[..., None]) -> None:
        if not to_unicode or font.missing:  # no glyph, or glyphs the font lacks: WeasyPrint's own way
            original(font, to_unicode, hinting)
            return
        self._load()
        key = (hashlib.md5(font.file_content, usedforsecurity=False).digest(), font.index, bool(hinting))
        glyphs, made = self.kept.get(key, (frozenset(), b""))
        if not to_unicode.keys() <= glyphs:
            glyphs = glyphs.union(to_unicode)
            original(font, dict.fromkeys(sorted(glyphs), ""), hinting)
            made = font.file_content
            self.kept[key] = (glyphs, made)
            self.made += 1
            self._keep()
        font.file_content = made

    @staticmethod
    def _where() -> tuple[str, tuple[str, ...]]:
        from importlib.metadata import version

        return SUBSETS_FILE, ("font-subsets", version("weasyprint"), version("fonttools"))

    def _load(self) -> None:
        if self._read:
            return
        self._read = True
        from shipyard.core import cachefile

        path, key = self._where()
        stored = cachefile.read(path, key)
        if isinstance(stored, dict):
            for k, v in stored.items():
                if isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], frozenset) and isinstance(v[1], bytes):
                    self.kept.setdefault(k, v)

    def _keep(self) -> None:
        from shipyard.core import cachefile

        path, key = self._where()
        cachefile.write(path, key, dict(list(self.kept.items())[-SUBSETS_KEPT:]))


SUBSETS_FILE = "preview-font-subsets.json"
SUBSETS_KEPT = 16  # fonts whose subsets the cache file keeps (a sheet uses a few, each small)


subsets = _Subsets()


_pictures: dict[str, Any] = {}  # WeasyPrint's image cache, kept across a worker's previews
PICTURES_KEPT = 32  # pictures (a design's art, by its URL) kept; beyond, the cache starts again


def warm_up(html: str) -> None:
    """Render a small page and throw it away, so the first real job finds fonts, the
    user-agent stylesheet and WeasyPrint's lazily built tables ready."""
    HTML(string=html).render(font_config=font_configuration(), pdf_tags=True).write_pdf(pdf_tags=True)


def html_to_pdf(
    html: str,
    base: Path,
    roots: list[Path],
    fillable: bool = False,
    between: Callable[[], None] | None = None,
    draft: bool = False,
    laying_out: Callable[[], AbstractContextManager[None]] | None = None,
    refit: Callable[[list[dict[str, Any]]], str | None] | None = None,
) -> tuple[bytes, list[tuple[float, float]], dict[str, int], int]:
    """Render ``html``: the PDF bytes, each page's size in mm, the page each anchor is on,
    and how many form fields it has. ``between`` runs after the layout, before the PDF is
    written (where a job no longer wanted stops); ``laying_out`` is entered around the
    parsing and layout (where the worker may stop such a job at once). ``draft``: a
    preview (see the module docstring). ``refit``, given each page's anchors after a
    layout, answers the HTML to lay out instead, or None to keep it (a card sheet whose
    cards continue on further cards: :mod:`shipyard.render.cardfit`)."""
    options: dict[str, Any] = {"presentational_hints": False, "pdf_forms": fillable, "pdf_tags": not draft}
    if draft:
        if len(_pictures) > PICTURES_KEPT:  # art changed many times: what the old URLs held goes
            _pictures.clear()
        options["cache"] = _pictures
    stylesheets = field_stylesheets(html) if fillable else []

    def laid_out(text: str) -> Any:
        with laying_out() if laying_out is not None else contextlib.nullcontext():
            return HTML(string=text, base_url=base.resolve().as_uri() + "/", url_fetcher=SafeFetcher(roots)).render(
                font_config=font_configuration(), stylesheets=stylesheets, **options
            )

    document = laid_out(html)
    while refit is not None and (again := refit([page.anchors for page in document.pages])) is not None:
        if between is not None:
            between()
        document = laid_out(again)
    if between is not None:
        between()
    document.metadata.attachments = []
    fields = 0
    for page in document.pages:
        page.links = [link for link in page.links if link[0] != "attachment"]
        page.anchors = {name: at for name, at in page.anchors.items() if not card_anchor(name)}  # measures, not places
        kept = {form: [i for i in inputs if fillable and _kept_field(i[0])] for form, inputs in page.forms.items()}
        page.forms = {form: inputs for form, inputs in kept.items() if inputs}
        fields += sum(len(inputs) for inputs in page.forms.values())
    with weasyprint_subsets_through(subsets.subset) if draft else contextlib.nullcontext():
        pdf: Any = document.write_pdf(finisher=_fields_look_as_drawn, **options)
    px_to_mm = 25.4 / 96
    sizes = [(round(p.width * px_to_mm, 1), round(p.height * px_to_mm, 1)) for p in document.pages]
    anchors: dict[str, int] = {}
    for index, page in enumerate(document.pages):
        for name in page.anchors:
            anchors.setdefault(name, index)
    return bytes(pdf), sizes, anchors, fields
