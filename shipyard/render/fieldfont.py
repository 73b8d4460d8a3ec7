"""The font a fillable sheet's fields are typed in: the sheet's own face, cut to the letters people type.

WeasyPrint embeds every font a form field uses whole, with a width and a Unicode entry
for each of its glyphs, so that a viewer can draw whatever is typed. DejaVu Sans
Condensed holds some 6,000 glyphs: a one-page fillable record carried its bold and
oblique faces whole, many times the flat sheet's fonts, and poppler read its structure
tree as a screen reader does (``pdfinfo -struct-text``) many times slower than the flat
one's.

So a fillable sheet's fields use a face of their own: the sheet's body font as fontconfig
finds it (the family the templates ask for first), subset to :data:`TYPED`, the letters
a record is filled in with (Latin with its accented letters, Western and Central
European, the punctuation, dashes, quotes and the signs a record uses), plus every
character of the values the sheet prints into its fields, so a value (a note in Greek,
say) never loses a glyph. That is what form tools do (Acrobat's default field
font, Helvetica, covers Latin-1 only); a character outside it that a person types is
drawn by the viewer from its own fonts. Regular, bold, italic and bold italic faces, so
each field looks as on the flat sheet (a note's field is italic); only the faces a sheet's
fields use are embedded.

The subsets are kept in the user's cache (``field-fonts.json``: the font file's path,
size and modification time and the letters are its key), so a ``print`` does not cut
them again; anything wrong with the fonts (no fontconfig, a font fontTools cannot
subset) leaves the fields in the sheet's font, whole, as WeasyPrint embeds it.
"""

from __future__ import annotations

import base64
import ctypes
import io
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

FAMILY = "DejaVu Sans Condensed"  # templates/common/common.css: the first family of the sheet's body
FIELD_FAMILY = "Shipyard Fields"

# The letters a record is typed in: Basic Latin, Latin-1, Latin Extended-A, General
# Punctuation's dashes, quotes, bullet and ellipsis, the euro and trade mark signs,
# arrows, minus, less/greater or equal, infinity.
TYPED = frozenset(
    [
        *range(0x20, 0x7F),
        *range(0xA0, 0x180),
        *range(0x2010, 0x2028),
        *range(0x2030, 0x203B),
        *(0x20AC, 0x2122, 0x2190, 0x2191, 0x2192, 0x2193, 0x2212, 0x2264, 0x2265, 0x221E),
    ]
)
# (CSS weight, CSS style) -> fontconfig's pattern (FC_WEIGHT_BOLD is 200, FC_SLANT_ITALIC 100)
FACES = {
    (400, "normal"): "",
    (700, "normal"): ":weight=200",
    (400, "italic"): ":slant=100",
    (700, "italic"): ":weight=200:slant=100",
}
CACHE_FILE = "field-fonts.json"
CUT = 2  # how the faces are cut (letters, names): part of the cache's key, so a new way is cut anew
CACHE_LIMIT = 8  # subsets kept: a sheet's own letters outside TYPED make a subset of their own


FONTCONFIG_NAMES = (  # WeasyPrint's own list (weasyprint.text.ffi), in its order
    "libfontconfig-1",
    "fontconfig-1",
    "fontconfig",
    "libfontconfig.so.1",
    "libfontconfig.1.dylib",
    "libfontconfig-1.dll",
)


@lru_cache(maxsize=1)
def _fontconfig() -> Any:
    """fontconfig's library with the signatures :func:`font_file` calls, loaded once a process.
    By the names its builds are installed under (WeasyPrint, imported before, opened it by
    one of them), not by ctypes' search for a library, which starts ``ldconfig -p`` to ask."""
    fc = None
    for name in FONTCONFIG_NAMES:
        try:
            fc = ctypes.CDLL(name)
            break
        except OSError:
            continue
    if fc is None:
        raise OSError(f"fontconfig not found (looked for {', '.join(FONTCONFIG_NAMES)})")
    fc.FcNameParse.restype = ctypes.c_void_p
    fc.FcNameParse.argtypes = [ctypes.c_char_p]
    fc.FcConfigSubstitute.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]
    fc.FcDefaultSubstitute.argtypes = [ctypes.c_void_p]
    fc.FcFontMatch.restype = ctypes.c_void_p
    fc.FcFontMatch.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]
    fc.FcPatternGetString.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]
    fc.FcPatternGetInteger.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_int)]
    fc.FcPatternDestroy.argtypes = [ctypes.c_void_p]
    return fc


def font_file(pattern: str) -> tuple[Path, int]:
    """The file (and face index in it) fontconfig gives for ``pattern``, as Pango would."""
    fc = _fontconfig()
    wanted = fc.FcNameParse(pattern.encode())
    if not wanted:
        raise OSError(f"fontconfig cannot read the pattern {pattern!r}")
    try:
        fc.FcConfigSubstitute(None, wanted, 0)  # FcMatchPattern
        fc.FcDefaultSubstitute(wanted)
        result = ctypes.c_int()
        match = fc.FcFontMatch(None, wanted, ctypes.byref(result))
        if not match:
            raise OSError(f"fontconfig finds no font for {pattern!r}")
        try:
            file, index = ctypes.c_char_p(), ctypes.c_int()
            if fc.FcPatternGetString(match, b"file", 0, ctypes.byref(file)) != 0 or not file.value:
                raise OSError(f"fontconfig names no file for {pattern!r}")
            fc.FcPatternGetInteger(match, b"index", 0, ctypes.byref(index))
            return Path(file.value.decode()), index.value
        finally:
            fc.FcPatternDestroy(match)
    finally:
        fc.FcPatternDestroy(wanted)


def subset_font(path: Path, index: int, letters: frozenset[int]) -> bytes:
    """``path``'s face ``index`` holding only ``letters`` (what it has of them), as TrueType bytes."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    options = subset.Options()
    options.notdef_outline = True  # a letter the face lacks shows as a box, not as nothing
    options.hinting = False
    options.layout_features = ["kern", "liga"]
    options.name_IDs = ["*"]
    options.drop_tables += ["FFTM"]  # FontForge's timestamps: nothing a viewer reads
    font = TTFont(path, fontNumber=index, lazy=False)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=letters)
    subsetter.subset(font)
    _rename(font)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def _rename(font: Any) -> None:
    """Give the cut face a family of its own. Under its own names (DejaVu Sans Condensed)
    fontconfig offered it for the sheet's text too, which then lost the letters the cut
    leaves out (the "fi" of "fighter" read as nothing); the font's licence (Bitstream Vera's)
    also asks that a changed font carry another name."""
    names = font["name"]
    style = names.getDebugName(2) or "Regular"
    given = {
        1: FIELD_FAMILY,
        16: FIELD_FAMILY,
        3: f"{FIELD_FAMILY} {style}",
        4: f"{FIELD_FAMILY} {style}",
        6: f"{FIELD_FAMILY.replace(' ', '')}-{style.replace(' ', '')}",
        17: style,
    }
    for record in names.names:
        if record.nameID in given:
            record.string = given[record.nameID]


def _cached_subset(path: Path, index: int, letters: frozenset[int]) -> bytes:
    from importlib.metadata import version

    from shipyard.core import cachefile

    stat = path.stat()
    face = (CUT, str(path), index, stat.st_size, stat.st_mtime_ns, version("fonttools"))
    entry = (face, tuple(sorted(letters - TYPED)))
    kept = cachefile.read(CACHE_FILE, "field-fonts")
    stored = dict(kept) if isinstance(kept, dict) else {}
    data = stored.get(entry)
    if isinstance(data, bytes):
        return data
    data = subset_font(path, index, letters)
    stored.pop(entry, None)
    stored[entry] = data  # the newest last, so the oldest is dropped first
    cachefile.write(CACHE_FILE, "field-fonts", dict(list(stored.items())[-CACHE_LIMIT:]))
    return data


class _FieldValues(HTMLParser):
    """The text a sheet's fields hold: each ``<input>``'s value and each ``<textarea>``'s words."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self._in_textarea = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "input":
            self.text.extend(v or "" for k, v in attrs if k == "value")
        self._in_textarea = self._in_textarea or tag == "textarea"

    def handle_endtag(self, tag: str) -> None:
        self._in_textarea = self._in_textarea and tag != "textarea"

    def handle_data(self, data: str) -> None:
        if self._in_textarea:
            self.text.append(data)


def field_font_rules(html: str) -> str | None:
    """The CSS that sets every field of the sheet ``html`` in its own cut faces
    (``@font-face`` rules with the fonts as data: URLs), or None when the fonts cannot be
    had (the fields then keep the sheet's font, whole). The letters are :data:`TYPED` and
    those of the values printed in the fields: most sheets need no letter beyond TYPED, so
    one cut serves them all."""
    values = _FieldValues()
    values.feed(html)
    values.close()
    letters = TYPED | {ord(c) for c in "".join(values.text) if ord(c) >= 0x20}
    return _rules(frozenset(letters))


@lru_cache(maxsize=CACHE_LIMIT)
def _rules(letters: frozenset[int]) -> str | None:
    faces = []
    try:
        for (weight, style), pattern in FACES.items():
            path, index = font_file(FAMILY + pattern)
            data = base64.b64encode(_cached_subset(path, index, letters)).decode("ascii")
            faces.append(
                f'@font-face {{ font-family: "{FIELD_FAMILY}"; font-weight: {weight}; font-style: {style}; '
                f"src: url(data:font/ttf;base64,{data}); }}"
            )
    except Exception:  # no fontconfig, an unreadable font: the fields keep the sheet's font
        return None
    # weight and style are the field's own: bold where the sheet sets it bold, a note's italic
    return "\n".join(faces) + f'\n.field {{ font-family: "{FIELD_FAMILY}" !important; }}'


__all__ = ["FIELD_FAMILY", "TYPED", "field_font_rules", "font_file", "subset_font"]
