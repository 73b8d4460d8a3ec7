"""A design's picture (its ``art`` field): read, checked and refused here, once.

``art`` is a path relative to the design file, or the picture itself as a ``data:`` URI.
A picture comes from strangers as often as a design does, so nothing is trusted:

- only PNG, JPEG, WebP and SVG, told apart by their first bytes; a name whose extension
  says one kind over bytes of another (or of none) is refused;
- the size is read from the file's header and refused above :data:`MAX_ART_PIXELS`
  *before* anything decodes it (a 100 kB PNG can claim 50,000 x 50,000 pixels and take
  gigabytes when decoded); a file above :data:`MAX_ART_BYTES`, or an embedded picture
  above :data:`MAX_EMBEDDED_ART_BYTES`, is refused before it is read whole;
- a path must stay inside the design's folder, with ``..`` and every symbolic link
  resolved; absolute paths and URLs are refused: nothing is fetched over the network;
- an SVG holding a script, an event handler, a ``<foreignObject>``, an entity
  declaration or a reference to anything outside itself is refused, naming what it holds.

A design whose art is refused still opens and prints: :func:`art_finding` turns the
problem into a warning of the design's report, and the sheets leave the picture out.

Standard library only: the core never decodes pixels (rendering scales the picture, see
``shipyard.render.art``).
"""

from __future__ import annotations

import base64
import binascii
import re
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shipyard.core.errors import InputError
from shipyard.core.findings import Finding, Severity
from shipyard.core.usertext import read_limited

MAX_ART_BYTES = 8 * 1024 * 1024
"""A picture file beside the design: at most 8 MiB (a 4000 x 3000 photo is 2 to 5 MiB)."""
MAX_EMBEDDED_ART_BYTES = 1024 * 1024
"""A picture embedded in the design: at most 1 MiB, so the design file stays under its 2 MiB."""
MAX_ART_PIXELS = 40_000_000
"""At most 40 million pixels (8000 x 5000): decoded, that is 160 MB of memory at most."""

KINDS = {"png": "image/png", "jpeg": "image/jpeg", "webp": "image/webp", "svg": "image/svg+xml"}
EXTENSIONS = {".png": "png", ".jpg": "jpeg", ".jpeg": "jpeg", ".webp": "webp", ".svg": "svg"}
ALLOWED = "PNG, JPEG or WebP (.png, .jpg, .jpeg, .webp), or SVG without scripts or outside references (.svg)"

_DATA_URI = re.compile(r"^data:(?P<mime>[a-z0-9.+/-]+)(?P<params>(;[a-z0-9=._-]+)*);base64,", re.IGNORECASE)
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]+:")


@dataclass(frozen=True)
class Art:
    """A picture that passed every check: its bytes, its kind and its size in pixels
    (for an SVG, the size it declares, or 0 x 0 when it declares none)."""

    data: bytes
    kind: str
    width: int
    height: int
    source: str

    @property
    def mime(self) -> str:
        return KINDS[self.kind]

    @property
    def digest(self) -> str:
        """What the picture's scaled copies are cached under."""
        import hashlib

        return hashlib.sha256(self.data).hexdigest()

    def data_uri(self) -> str:
        return f"data:{self.mime};base64,{base64.b64encode(self.data).decode('ascii')}"


def _refuse(message: str, source: str, limit: str = ALLOWED) -> InputError:
    return InputError.single(message, file=source, path="art", allowed=limit)


def read_art(ref: str, design_file: Path | str | None) -> Art:
    """The picture ``ref`` names (a ``data:`` URI, or a path relative to ``design_file``).

    Every refusal is an :class:`InputError` naming the file (or "embedded art"), what is
    wrong and what is allowed.
    """
    if ref.startswith("data:"):
        return _embedded(ref)
    if _SCHEME.match(ref) and not re.match(r"^[a-zA-Z]:[\\/]", ref):
        raise _refuse(
            f"art {ref[:80]!r} is a URL; Shipyard fetches nothing over the network",
            ref[:80],
            "a path relative to the design file, or the picture embedded as a data: URI",
        )
    path = Path(ref)
    if path.is_absolute() or re.match(r"^[a-zA-Z]:[\\/]", ref):
        raise _refuse(
            "art must be a path relative to the design file, not an absolute path",
            ref,
            "a path inside the design's folder, or the picture embedded as a data: URI",
        )
    if design_file is None:
        raise _refuse(
            "art is a path, but the design has not been saved: there is no folder to find it in",
            ref,
            "save the design first, or embed the picture",
        )
    folder = Path(design_file).resolve().parent
    target = Path(design_file).parent / path  # as the user would write it, from where they stand
    try:
        real = (folder / path).resolve()
    except (OSError, RuntimeError) as exc:  # a loop of links (RuntimeError before Python 3.13)
        raise _refuse(f"art cannot be followed: {exc}", str(target)) from None
    if not real.is_relative_to(folder):
        raise _refuse(
            f"art leads outside the design's folder (to {real}); a picture must lie in the design's folder "
            "or below it, with every '..' and link resolved",
            str(target),
            f"a file inside {folder}",
        )
    kind = EXTENSIONS.get(path.suffix.lower())
    if kind is None:
        raise _refuse(f"art has the extension {path.suffix or '(none)'!r}, which is not a picture Shipyard reads", ref)
    if not real.exists():
        raise _refuse("art file not found", str(target), f"a {kind.upper()} file at that path")
    try:
        st = real.stat()
    except OSError as exc:
        raise _refuse(f"cannot read the art file: {exc.strerror or exc}", str(target)) from None
    key = (target, real, st.st_mtime_ns, st.st_size)
    if key not in _READ:
        data = read_limited(real, str(target), MAX_ART_BYTES, "a picture")
        if len(_READ) >= 16:
            _READ.pop(next(iter(_READ)))
        _READ[key] = check_picture(data, kind, str(target))
    return _READ[key]


# Pictures read from files, by path, time and size: the editor checks a design's art after
# every edit, and a print reads it again; a changed file is read anew.
_READ: dict[tuple[Path, Path, int, int], Art] = {}


def _embedded(ref: str) -> Art:
    source = "embedded art"
    head = _DATA_URI.match(ref[:200])
    if head is None:
        raise _refuse("embedded art must be a base64 data: URI (data:image/png;base64,...)", source)
    mime = head["mime"].lower()
    kind = next((k for k, m in KINDS.items() if m == mime), None)
    if kind is None:
        raise _refuse(f"embedded art is {mime}, which is not a picture Shipyard reads", source)
    body = ref[head.end() :]
    if len(body) > 4 * MAX_EMBEDDED_ART_BYTES // 3 + 4:
        raise _refuse(
            f"embedded art is about {len(body) * 3 // 4:,} bytes; an embedded picture is limited to "
            f"{MAX_EMBEDDED_ART_BYTES:,}",
            source,
            "a smaller picture, or a file beside the design",
        )
    try:
        data = base64.b64decode(body, validate=True)
    except (binascii.Error, ValueError):
        raise _refuse("embedded art is not valid base64", source) from None
    if len(data) > MAX_EMBEDDED_ART_BYTES:
        raise _refuse(
            f"embedded art is {len(data):,} bytes; an embedded picture is limited to {MAX_EMBEDDED_ART_BYTES:,}",
            source,
            "a smaller picture, or a file beside the design",
        )
    return check_picture(data, kind, source)


def sniff(data: bytes) -> str | None:
    """The kind of picture ``data`` is by its first bytes, or None."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if data.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    start = data[:1024].lstrip(b"\xef\xbb\xbf \t\r\n")
    if start.startswith((b"<?xml", b"<svg", b"<!--")) and b"<svg" in data[:4096]:
        return "svg"
    return None


def check_picture(data: bytes, kind: str, source: str) -> Art:
    """``data`` as an :class:`Art` of ``kind`` (what its name says), or why it is refused."""
    found = sniff(data)
    if found is None:
        raise _refuse(f"art is not a readable {kind.upper()} picture (its first bytes are no known picture's)", source)
    if found != kind:
        raise _refuse(f"art is named as a {kind.upper()} picture but holds a {found.upper()} one", source)
    if kind == "svg":
        width, height = _svg_size(data, source)
    else:
        size = _raster_size(data, kind)
        if size is None:
            raise _refuse(f"art is a broken {kind.upper()} picture: its header does not give its size", source)
        width, height = size
        if not _complete(data, kind):
            raise _refuse(f"art is a broken {kind.upper()} picture: the file ends before the picture does", source)
        if width <= 0 or height <= 0:
            raise _refuse(f"art is a broken {kind.upper()} picture: it says it is {width} x {height} pixels", source)
        if width * height > MAX_ART_PIXELS:
            raise _refuse(
                f"art is {width:,} x {height:,} pixels ({width * height:,}); a picture is limited to "
                f"{MAX_ART_PIXELS:,} pixels",
                source,
                f"at most {MAX_ART_PIXELS:,} pixels (8000 x 5000)",
            )
    return Art(data, kind, width, height, source)


def _raster_size(data: bytes, kind: str) -> tuple[int, int] | None:
    if kind == "png":
        if len(data) < 24 or data[12:16] != b"IHDR":
            return None
        w, h = struct.unpack(">II", data[16:24])
        return int(w), int(h)
    if kind == "webp":
        return _webp_size(data)
    return _jpeg_size(data)


def _complete(data: bytes, kind: str) -> bool:
    """Does the file hold its picture to the end? (A download cut short does not.)"""
    if kind == "png":
        return data[-8:-4] == b"IEND"
    if kind == "webp":
        return int.from_bytes(data[4:8], "little") + 8 <= len(data)
    # In a JPEG's coded data 0xFF is always followed by 0x00 or a restart marker, so the
    # end marker cannot appear there; some cameras add a trailer after it.
    return b"\xff\xd9" in data[-65536:]


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8 " and len(data) >= 30 and data[23:26] == b"\x9d\x01\x2a":
        w, h = struct.unpack("<HH", data[26:30])
        return w & 0x3FFF, h & 0x3FFF
    if chunk == b"VP8L" and len(data) >= 25 and data[20] == 0x2F:
        b = data[21:25]
        w = 1 + (((b[1] & 0x3F) << 8) | b[0])
        h = 1 + (((b[3] & 0x0F) << 10) | (b[2] << 2) | ((b[1] & 0xC0) >> 6))
        return w, h
    if chunk == b"VP8X" and len(data) >= 30:
        w = 1 + int.from_bytes(data[24:27], "little")
        h = 1 + int.from_bytes(data[27:30], "little")
        return w, h
    return None


_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """The size a JPEG's frame header (SOFn) gives, walking its markers."""
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        (length,) = struct.unpack(">H", data[i + 2 : i + 4])
        if length < 2:
            return None
        if marker in _SOF:
            if i + 9 > len(data):
                return None
            h, w = struct.unpack(">HH", data[i + 5 : i + 9])
            return int(w), int(h)
        if marker == 0xDA:  # the scan starts before any frame header
            return None
        i += 2 + length
    return None


# --- SVG -------------------------------------------------------------------------------------

_SVG_NS = "{http://www.w3.org/2000/svg}"
_FORBIDDEN_ELEMENTS = {"script", "foreignobject", "iframe", "embed", "object", "audio", "video", "handler", "listener"}
_HREF = re.compile(r"(^|})href$")
_OUTSIDE_URL = re.compile(r"url\(\s*['\"]?(?!#)", re.IGNORECASE)


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1].lower()


def _svg_size(data: bytes, source: str) -> tuple[int, int]:
    """The size an SVG declares, once it is known to hold no script and reach nothing outside."""
    head = data[:4096].lower()
    if b"<!doctype" in head or b"<!entity" in data.lower():
        raise _refuse("art is an SVG with a DOCTYPE or entity declarations; Shipyard refuses those", source)
    import xml.etree.ElementTree as ET

    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise _refuse(f"art is a broken SVG: {exc}", source) from None
    if _local(root.tag) != "svg":
        raise _refuse(f"art is an XML file whose root is <{_local(root.tag)}>, not an SVG picture", source)
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        name = _local(el.tag)
        if name in _FORBIDDEN_ELEMENTS:
            raise _refuse(
                f"art is an SVG holding a <{name}> element; Shipyard refuses scripts and embedded content", source
            )
        if name == "style" and (_OUTSIDE_URL.search(el.text or "") or "@import" in (el.text or "")):
            raise _refuse("art is an SVG whose style refers to something outside it; Shipyard refuses that", source)
        for attr, value in el.attrib.items():
            local = _local(attr)
            if local.startswith("on"):
                raise _refuse(f"art is an SVG with an event handler ({local}); Shipyard refuses scripts", source)
            if _HREF.search(attr) and not value.strip().startswith("#"):
                raise _refuse(
                    f"art is an SVG referring to {value[:60]!r} outside itself; Shipyard refuses outside references",
                    source,
                )
            if _OUTSIDE_URL.search(value):
                raise _refuse(
                    f"art is an SVG whose {local} refers to something outside it; Shipyard refuses that", source
                )
    return _svg_length(root.get("width")), _svg_length(root.get("height"))


def _svg_length(value: str | None) -> int:
    match = re.match(r"^\s*([0-9]+(\.[0-9]+)?)\s*(px)?\s*$", value or "")
    return round(float(match[1])) if match else 0


# --- a design's art --------------------------------------------------------------------------


def design_art(design: Any) -> str | None:
    """The ``art`` value of a design model (None when it has none, or its ruleset no field)."""
    ref = getattr(design, "art", None)
    if ref is None and hasattr(design, "root"):  # a RootModel (a ruleset with several kinds)
        ref = getattr(design.root, "art", None)
    return ref if isinstance(ref, str) and ref else None


def design_story(design: Any) -> str:
    story = getattr(design, "story", None)
    if story is None and hasattr(design, "root"):
        story = getattr(design.root, "story", None)
    return story if isinstance(story, str) else ""


def art_of(design: Any, design_file: Path | str | None) -> tuple[Art | None, InputError | None]:
    """A design's picture, or why it cannot be shown (never raises)."""
    ref = design_art(design)
    if ref is None:
        return None, None
    try:
        return read_art(ref, design_file), None
    except InputError as exc:
        return None, exc


def art_finding(problem: InputError) -> Finding:
    """The warning a design's report carries when its art cannot be shown."""
    first = problem.problems[0]
    return Finding(
        severity=Severity.WARNING,
        code="art-missing",
        message=f"the design's art is left out: {first}",
        path="art",
        limit=first.allowed or None,
        rule="art",
        source="Shipyard: a design's art",
    )


def with_art_finding(report: Any, design: Any, design_file: Path | str | None) -> Any:
    """``report`` with the warning that the design's art is left out, when it is."""
    _, problem = art_of(design, design_file)
    if problem is None:
        return report
    return report.model_copy(update={"findings": [*report.findings, art_finding(problem)]})


__all__ = [
    "ALLOWED",
    "MAX_ART_BYTES",
    "MAX_ART_PIXELS",
    "MAX_EMBEDDED_ART_BYTES",
    "Art",
    "art_finding",
    "art_of",
    "check_picture",
    "design_art",
    "design_story",
    "read_art",
    "with_art_finding",
]
