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
  declaration or a reference to anything outside itself is refused, naming what it holds;
  so is one nesting deeper than :data:`MAX_SVG_DEPTH` or drawing more than
  :data:`MAX_SVG_ELEMENTS` elements, each ``<use>`` counted with what it draws (20,000
  nested groups overflow a renderer's stack; ``<use>`` of ``<use>`` draws exponentially
  many). The SVG is read as a stream by expat and the reading stops at the first thing
  refused, so a hostile SVG costs no more than reading it up to there.

A design whose art is refused still opens and prints: :func:`art_finding` turns the
problem into a warning of the design's report (:func:`shipyard.core.designreport.design_report`
adds it), and the sheets leave the picture out.

Standard library only: the core never decodes pixels nor draws an SVG (the picture worker
does, see ``shipyard.render.art`` and ``shipyard.render.pictureworker``).
"""

from __future__ import annotations

import base64
import binascii
import re
import struct
from collections.abc import Callable
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
        raise _refuse("art file not found", str(target), f"a picture file at that path: {ALLOWED}")
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


_EMBEDDED_LIMIT = (
    f"an embedded picture of at most {MAX_EMBEDDED_ART_BYTES:,} bytes (Embed makes a smaller copy), "
    "or a picture file beside the design"
)


def _embedded(ref: str) -> Art:
    """The embedded picture, checked once: the editor asks after every edit of the design."""
    if ref not in _EMBEDDED:
        try:
            made: Art | InputError = _read_embedded(ref)
        except InputError as exc:
            made = exc
        if len(_EMBEDDED) >= 8:
            _EMBEDDED.pop(next(iter(_EMBEDDED)))
        _EMBEDDED[ref] = made
    made = _EMBEDDED[ref]
    if isinstance(made, InputError):
        raise made
    return made


_EMBEDDED: dict[str, Art | InputError] = {}


def _read_embedded(ref: str) -> Art:
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
            _EMBEDDED_LIMIT,
        )
    try:
        data = base64.b64decode(body, validate=True)
    except (binascii.Error, ValueError):
        raise _refuse("embedded art is not valid base64", source) from None
    if len(data) > MAX_EMBEDDED_ART_BYTES:
        raise _refuse(
            f"embedded art is {len(data):,} bytes; an embedded picture is limited to {MAX_EMBEDDED_ART_BYTES:,}",
            source,
            _EMBEDDED_LIMIT,
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
_OUTSIDE_URL = re.compile(r"url\(\s*['\"]?(?!#)", re.IGNORECASE)


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1].lower()


MAX_SVG_DEPTH = 100
"""How deep an SVG's elements may nest, counting what each ``<use>`` (or other reference)
draws where it stands: drawing programs nest a few dozen deep at most, and a renderer
walks the nesting by recursion (20,000 nested groups overflow its stack)."""
MAX_SVG_ELEMENTS = 100_000
"""How many elements an SVG may draw, each ``<use>`` counted with everything it draws:
a few dozen ``<use>`` of ``<use>`` make 10 ** 30 (a "billion laughs" of vectors)."""

# Elements a reference to which draws nothing by itself: a gradient is a colour.
_PAINT_ONLY = {"lineargradient", "radialgradient", "stop", "solidcolor"}
_LOCAL_URL = re.compile(r"url\(\s*['\"]?#([^)'\"\s]+)", re.IGNORECASE)


_STYLE_BLOCK = re.compile(rb"<style[^>]*>(.*?)</style\s*>", re.IGNORECASE | re.DOTALL)
_CSS_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")


class _StyleRefs:
    """What the SVG's style sheets make each element refer to (``url(#id)``), by class, by
    element name, and for every element (a selector neither names): so a ``<use>`` of a
    pattern filled by a class is counted as one whose attribute says so."""

    def __init__(self, data: bytes) -> None:
        self.by_class: dict[str, set[str]] = {}
        self.by_name: dict[str, set[str]] = {}
        self.everywhere: set[str] = set()
        self.any = False  # a style sheet refers to something: each element is looked up
        for block in _STYLE_BLOCK.findall(data):
            css = re.sub(r"/\*.*?\*/", "", block.decode("utf-8", "replace"), flags=re.DOTALL)
            css = css.replace("<![CDATA[", "").replace("]]>", "")
            for selectors, body in _CSS_RULE.findall(css):
                targets = set(_LOCAL_URL.findall(body))
                if targets:
                    for selector in selectors.split(","):
                        self._add(selector, targets)

    def _add(self, selector: str, targets: set[str]) -> None:
        last = re.split(r"[\s>+~]+", selector.strip())[-1]  # the element the rule styles
        classes = re.findall(r"\.([\w-]+)", last)
        name = re.match(r"[A-Za-z][\w-]*", last)
        for c in classes:
            self.by_class.setdefault(c, set()).update(targets)
        if name is not None:
            self.by_name.setdefault(name[0].lower(), set()).update(targets)
        if not classes and name is None:  # *, #id, :root, [attr]: taken as every element
            self.everywhere |= targets
        self.any = True

    def of(self, name: str, attrs: dict[str, str]) -> set[str]:
        found = set(self.everywhere) | self.by_name.get(name, set())
        for c in attrs.get("class", "").split():
            found |= self.by_class.get(c, set())
        return found


class _Frame:
    """One open element of an SVG as it is read: what its subtree holds so far."""

    __slots__ = ("count", "height", "ident", "name", "refs", "text")

    def __init__(self, name: str, ident: str | None) -> None:
        self.name, self.ident = name, ident
        self.count = 1  # elements in the subtree, itself included
        self.height = 1  # levels in the subtree, itself included
        self.refs: dict[str, tuple[int, int]] = {}  # id referred to -> (times, deepest level it is referred at)
        self.text: list[str] = []


def _svg_size(data: bytes, source: str) -> tuple[int, int]:
    """The size an SVG declares, once it is known to hold no script, reach nothing outside,
    and nest and draw no more than a renderer can take (:data:`MAX_SVG_DEPTH`,
    :data:`MAX_SVG_ELEMENTS`, references drawn where they stand).

    Read by expat as a stream, never as a tree: a DOCTYPE, an entity or an external
    reference stops it, and so does the first element past a limit, so a hostile SVG costs
    no more than reading it up to there."""
    from xml.parsers import expat

    head = data[:4096].lower()
    if b"<!doctype" in head or b"<!entity" in data.lower():
        raise _refuse("art is an SVG with a DOCTYPE or entity declarations; Shipyard refuses those", source)

    def declared(*_: object) -> int:
        raise _refuse("art is an SVG with a DOCTYPE or entity declarations; Shipyard refuses those", source)

    parser = expat.ParserCreate(namespace_separator="}")
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.StartDoctypeDeclHandler = declared
    parser.EntityDeclHandler = declared
    parser.ExternalEntityRefHandler = declared
    styled = _StyleRefs(data)
    stack = [_Frame("", None)]  # the document: it collects everything
    defined: dict[str, tuple[str, int, int, dict[str, tuple[int, int]]]] = {}
    size = [0, 0]
    counted = [0]

    names: dict[str, str] = {}  # tag and attribute names as read -> their local names (they repeat)

    def start(tag: str, attrs: dict[str, str]) -> None:
        name = names.get(tag) or names.setdefault(tag, _local(tag))
        if len(stack) == 1 and name != "svg":
            raise _refuse(f"art is an XML file whose root is <{name}>, not an SVG picture", source)
        if len(stack) > MAX_SVG_DEPTH:
            raise _refuse(_too_deep(), source, _svg_limits())
        counted[0] += 1
        if counted[0] > MAX_SVG_ELEMENTS:
            raise _refuse(f"art is an SVG of more than {MAX_SVG_ELEMENTS:,} elements", source, _svg_limits())
        if name in _FORBIDDEN_ELEMENTS:
            raise _refuse(
                f"art is an SVG holding a <{name}> element; Shipyard refuses scripts and embedded content", source
            )
        frame = _Frame(name, attrs.get("id"))
        if styled.any:
            for target in styled.of(name, attrs):
                _refer(frame, target, 0)
        if len(stack) == 1:
            size[:] = [_svg_length(attrs.get("width")), _svg_length(attrs.get("height"))]
        for attr, value in attrs.items():
            local = names.get(attr) or names.setdefault(attr, _local(attr))
            if local[:2] == "on":
                raise _refuse(f"art is an SVG with an event handler ({local}); Shipyard refuses scripts", source)
            if local == "href":
                if not value.strip().startswith("#"):
                    raise _refuse(
                        f"art is an SVG referring to {value[:60]!r} outside itself; Shipyard refuses outside "
                        "references",
                        source,
                    )
                _refer(frame, value.strip()[1:], 0)
            if "url" in value or "URL" in value.upper():  # cheap first: most values hold none
                if _OUTSIDE_URL.search(value):
                    raise _refuse(
                        f"art is an SVG whose {local} refers to something outside it; Shipyard refuses that", source
                    )
                for target in _LOCAL_URL.findall(value):
                    _refer(frame, target, 0)
        stack.append(frame)

    def text(chars: str) -> None:
        if stack[-1].name == "style":
            stack[-1].text.append(chars)

    def end(_tag: str) -> None:
        frame = stack.pop()
        if frame.name == "style":
            css = "".join(frame.text)
            if _OUTSIDE_URL.search(css) or "@import" in css:
                raise _refuse("art is an SVG whose style refers to something outside it; Shipyard refuses that", source)
        if frame.ident is not None and frame.ident not in defined:
            defined[frame.ident] = (frame.name, frame.count, frame.height, frame.refs)
        parent = stack[-1]
        parent.count += frame.count
        parent.height = max(parent.height, frame.height + 1)
        for target, (times, level) in frame.refs.items():
            _refer(parent, target, level + 1, times)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise _refuse(f"art is a broken SVG: {exc}", source) from None
    except RecursionError:  # not reached by expat's own nesting; kept for a parser that recurses
        raise _refuse(_too_deep(), source, _svg_limits()) from None
    _expanded(stack[0], defined, source)
    return size[0], size[1]


def _refer(frame: _Frame, target: str, level: int, times: int = 1) -> None:
    """Note in ``frame`` that ``times`` references to ``target`` stand ``level`` levels below it."""
    had_times, had_level = frame.refs.get(target, (0, 0))
    frame.refs[target] = (had_times + times, max(had_level, level))


def _too_deep() -> str:
    return (
        f"art is an SVG nested deeper than {MAX_SVG_DEPTH} levels (counting what its <use> elements draw); "
        "a renderer would overflow its stack"
    )


def _svg_limits() -> str:
    return f"an SVG at most {MAX_SVG_DEPTH} levels deep drawing at most {MAX_SVG_ELEMENTS:,} elements"


def _expanded(
    document: _Frame, defined: dict[str, tuple[str, int, int, dict[str, tuple[int, int]]]], source: str
) -> None:
    """Refuse an SVG whose references (``<use>``, ``url(#...)``), drawn where they stand,
    nest too deep, draw too many elements, or refer to themselves."""
    done: dict[str, tuple[int, int]] = {}
    cap = MAX_SVG_ELEMENTS + 1

    def drawn(count: int, height: int, refs: dict[str, tuple[int, int]], path: list[str]) -> tuple[int, int]:
        for target, (times, level) in refs.items():
            if target not in defined or defined[target][0] in _PAINT_ONLY:
                continue  # a reference to nothing draws nothing; a gradient is a colour
            if target in path:
                raise _refuse(f"art is an SVG whose #{target[:40]} refers to itself", source, _svg_limits())
            if len(path) > MAX_SVG_DEPTH:  # each reference adds a level at least
                raise _refuse(_too_deep(), source, _svg_limits())
            if target not in done:
                _, t_count, t_height, t_refs = defined[target]
                done[target] = drawn(t_count, t_height, t_refs, [*path, target])
            t_count, t_height = done[target]
            count = min(cap, count + times * t_count)
            height = max(height, level + 1 + t_height)
            if count >= cap:
                raise _refuse(
                    f"art is an SVG drawing more than {MAX_SVG_ELEMENTS:,} elements once each <use> and "
                    "url(#...) is drawn where it stands (each repeats what it refers to)",
                    source,
                    _svg_limits(),
                )
            if height > MAX_SVG_DEPTH + 1:  # the document itself is one level
                raise _refuse(_too_deep(), source, _svg_limits())
        return count, height

    drawn(document.count, document.height, document.refs, [])


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


def art_refusal(
    design: Any, design_file: Path | str | None, picture_problem: Callable[[Art], str | None] | None = None
) -> InputError | None:
    """Why the design's art is left out (None: it is shown, or there is none): the core's checks
    refused it, or it passed them and ``picture_problem`` (given by an output that decodes the
    picture, :func:`shipyard.render.art.page_art_problem`) says its pixels cannot be shown."""
    art, problem = art_of(design, design_file)
    if problem is not None or art is None or picture_problem is None:
        return problem
    why = picture_problem(art)
    if why is None:
        return None
    return InputError.single(why, file=art.source, path="art", allowed=ALLOWED)


__all__ = [
    "ALLOWED",
    "MAX_ART_BYTES",
    "MAX_ART_PIXELS",
    "MAX_EMBEDDED_ART_BYTES",
    "MAX_SVG_DEPTH",
    "MAX_SVG_ELEMENTS",
    "Art",
    "art_finding",
    "art_of",
    "art_refusal",
    "check_picture",
    "design_art",
    "design_story",
    "read_art",
]
