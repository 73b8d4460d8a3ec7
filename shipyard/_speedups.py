"""Every speed-up that reaches into a library's or the interpreter's internals, behind one switch.

Each one is an optimisation, never something Shipyard needs: with ``SHIPYARD_NO_SPEEDUPS=1``
in the environment each function here does the plain thing (or nothing) and Shipyard
behaves the same, only slower. ``scripts/run-tests`` runs a subset of the suite that way
(the tests marked ``speedups``), so none of them becomes a dependency unnoticed. The
figures each one earns are printed by ``bench/`` and kept in the closing notes, not here.

The speed-ups, and what each does:

- :func:`quicken_pyside_import_check`: once PySide6 is imported, its import hook asks of
  every module imported after it whether its source names "PySide6" (for its
  ``__feature__`` switches), through ``inspect.getsource`` and linecache. The answer is
  the same when the module's file is read and searched for those bytes; anything without
  a readable ``.py`` file is left to PySide6's own check, and a PySide6 without that hook
  is left alone.
- :func:`libraries_found_quickly`: WeasyPrint opens Pango, HarfBuzz, fontconfig and
  GObject by trying several names for each; every name that does not open goes through
  :func:`ctypes.util.find_library`, which on Linux starts ``ldconfig -p`` and then ``gcc``
  and ``ld``. While WeasyPrint is imported, :func:`find_library` answers the same from
  ``ldconfig -p`` read once a process, and where the cache does not know a name, by looking
  for ``lib<name>.so`` (an ELF file) in the folders ``gcc`` and ``ld`` search.
- :func:`read_types_at_once`: cffi parses each C type WeasyPrint names as a string on its
  first use, one pycparser run each; they are read in one parse as a render worker starts.
- :func:`collection_paused`, :func:`pause_collection` and :func:`freeze_survivors`: cyclic
  garbage collection is paused while the editor builds its window and while a render job
  is laid out and answered (one collection after), and what a process's start made, which
  lives as long as the process, is frozen out of later full passes.
- :func:`fewer_collections` and :func:`end_process_now`: a ``shipyard`` command collects
  its youngest generation less often, and a command that only read, or whose files are
  all on the disk, ends without the interpreter's clean-up of every module and object.
- :func:`weasyprint_subsets_through`: while a preview's PDF is written, WeasyPrint's
  ``Font.subset`` goes through the worker's kept subsets, so a font is subset again only for
  a letter no earlier preview used; without it every preview subsets every font.
- :func:`no_pydantic_plugin_search`: pydantic's plugin loader imports
  :mod:`importlib.metadata` (and with it email, zipfile, csv) when the first model is built,
  though with ``PYDANTIC_DISABLE_PLUGINS`` set, as every Shipyard process sets it, it looks
  for no plug-in. Its place is taken by a loader that answers "no plug-ins" while that
  variable says so, and otherwise hands over to pydantic's own.
- :func:`quicker_default_factories`: for every field with a ``default_factory`` pydantic
  asks whether the factory takes the validated data, through :func:`inspect.signature`; for
  a built-in type (``list``, ``dict``...) that means parsing the text of its signature with
  :mod:`tokenize`, whose first use compiles a large pattern. Those types take no such
  argument, and are answered so at once; any other factory is asked pydantic's way.
- :func:`translations_looked_up_once`: argparse asks :mod:`gettext` for its messages'
  translation for every parser, group and option a command line declares, and gettext
  looks for the catalog file in every folder for every language each time (file checks
  for a file that does not appear while the process runs). Where it looked
  and what it found is remembered for the domain, folder and languages (from the
  environment when not given, as gettext reads them).
- :func:`patterns_kept` and :func:`keep_patterns`: Python compiles every regular expression
  a process uses (its own, the standard library's, PySide6's) from its text, in Python,
  on each start; the editor's start compiles some seventy. The programs ``re`` makes of
  them (the code its C matcher runs) are kept in the user's cache folder, sealed as this
  user's (:func:`shipyard.core.cachefile.write_sealed`), for this Python; a later start
  hands a kept program straight to the matcher, which checks it as it checks any. A
  pattern not kept, or a program the matcher refuses, is compiled as usual.
- :func:`pyside_support_compiled_once`: shiboken carries its support modules (the
  signature and feature machinery, some 150 KB of Python) as source and compiles them on
  every import of PySide6. While the editor imports PySide6, the code of each is kept,
  sealed as this user's, in the user's cache folder for this Python, and a later start
  takes it from there when the source is the same (its SHA-256), as Python's own bytecode
  cache does for the modules in files.
- :func:`generated_code_kept`: :mod:`dataclasses` writes the text of each class's methods and
  compiles it, and :mod:`typing` compiles every forward reference (all annotations of a
  module with postponed annotations), on every start. Their code is kept, sealed as this
  user's, in the user's cache folder for this Python, keyed by the whole text; a later
  start takes the code for the same text from there.
- :func:`keep_parsed_style_sheets`: WeasyPrint parses each ``<style>`` element of each
  document from its text (tokenising it, checking every declaration, compiling every selector
  into Python code); a render worker gets the same sheets job after job. The parsed sheet is
  kept, keyed by its whole text, base URL, media type and font configuration, and the page
  rules its parse gave the document are given to each later one. A sheet whose parse fetched
  anything (an ``@import``, a font) or declared layers, counter styles or colour profiles is
  parsed every time, as WeasyPrint does.
- :func:`dotted_borders_stroked`: WeasyPrint draws a dotted or dashed border side that
  meets no other (a rule under a line of a card, a leader) as a clip path of one circle
  or rectangle per mark, hundreds to a rule; it is drawn as one line stroked with a dash
  pattern, the marks where WeasyPrint puts them, as WeasyPrint itself draws a border
  dotted all round.
- :func:`layout_stops_at_once`: a render job its owner dropped is stopped by the supersede
  signal in the middle of WeasyPrint's layout (the signal handler raises there); without
  it the job runs to its end and its answer is dropped.
"""

# The editor imports this module before it spawns its render worker, and pathlib is not
# imported by then: os.path and open() keep that start as it was.
# ruff: noqa: PTH118, PTH120, PTH123

from __future__ import annotations

import contextlib
import gc
import math
import os
import re
import sys
from collections.abc import Callable, Iterator
from functools import cache
from types import ModuleType
from typing import Any, cast

SWITCH = "SHIPYARD_NO_SPEEDUPS"


def enabled() -> bool:
    """Whether the speed-ups are on: unless ``SHIPYARD_NO_SPEEDUPS`` is set to anything but
    "" or "0". Read at each call, so a test (or a process that sets it) changes it at once."""
    return os.environ.get(SWITCH, "") in ("", "0")


def quicken_pyside_import_check() -> None:
    """Replace PySide6's check with :func:`uses_pyside`, once (call after PySide6 is imported)."""
    if not enabled():
        return
    feature: Any = sys.modules.get("shibokensupport.feature")
    original = getattr(feature, "_mod_uses_pyside", None)
    if original is None or getattr(original, "quickened", False):
        return

    def check(module: ModuleType) -> bool:
        found = uses_pyside(module)
        return bool(original(module)) if found is None else found

    check.quickened = True  # type: ignore[attr-defined]
    feature._mod_uses_pyside = check


def uses_pyside(module: ModuleType) -> bool | None:
    """Whether ``module``'s source file names PySide6; None when it has no readable ``.py`` file."""
    file = getattr(module, "__file__", None)
    if not isinstance(file, str) or not file.endswith(".py"):
        return None
    try:
        with open(file, "rb") as source:
            return b"PySide6" in source.read()
    except OSError:
        return None


ABI = {"x86_64": "libc6,x86-64", "ppc64": "libc6,64bit", "sparc64": "libc6,64bit", "s390x": "libc6,64bit"}
ELF_MAGIC = b"\x7fELF"
# Every C type WeasyPrint 70 names as a string literal (tests/test_speedups.py finds them in
# its source, so a WeasyPrint that names another makes that test fail).
C_TYPES = (
    "PangoRectangle *", "unsigned int *", "PangoFcFontMap *", "hb_tag_t[100]", "char[]",
    "char[4]", "PangoLogAttr[]", "FcResult *", "FcChar8 **",
)  # fmt: skip


@cache
def loader_cache() -> bytes:
    """``ldconfig -p`` as ctypes runs it (C locale); empty where it cannot run."""
    import subprocess  # here: the editor imports this module on its start, which needs no process

    try:
        return subprocess.run(
            ["/sbin/ldconfig", "-p"],
            stdin=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            env={"LC_ALL": "C", "LANG": "C"},
            check=False,
        ).stdout
    except OSError:
        return b""


def _abi() -> str:
    machine = os.uname().machine
    return ABI.get(machine, "libc6") if sys.maxsize > 2**32 else "libc6"


def _folders(listing: bytes) -> list[str]:
    """Where the linker would look: LD_LIBRARY_PATH's folders, then the cache's, then the usual."""
    given = [d for d in os.environ.get("LD_LIBRARY_PATH", "").split(":") if d]
    usual = ["/usr/local/lib", "/usr/lib", "/lib"]
    return list(dict.fromkeys([*given, *_cache_folders(listing), *usual]))


@cache
def _cache_folders(listing: bytes) -> tuple[str, ...]:
    """The folders of the loader cache's libraries, in its order, each once: read once a
    process (each of WeasyPrint's names that the cache lacks asks again, and the cache lists
    hundreds of libraries)."""
    return tuple(dict.fromkeys(os.path.dirname(os.fsdecode(m)) for m in re.findall(rb"=> (\S+)", listing)))


def _is_elf(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(4) == ELF_MAGIC
    except OSError:
        return False


def find_library(name: str) -> str | None:
    """What :func:`ctypes.util.find_library` answers on Linux, without starting gcc or ld."""
    listing = loader_cache()
    pattern = rb"\s+(lib%s\.[^\s]+)\s+\(%s" % (re.escape(os.fsencode(name)), _abi().encode())
    found = re.search(pattern, listing)
    if found:
        return os.fsdecode(found.group(1))
    for folder in _folders(listing):
        candidate = os.path.join(folder, f"lib{name}.so")
        if _is_elf(candidate):
            return candidate
    return None


@contextlib.contextmanager
def libraries_found_quickly() -> Iterator[None]:
    """While WeasyPrint is imported: ``ctypes.util.find_library`` is :func:`find_library`."""
    if not enabled() or not sys.platform.startswith("linux"):
        yield
        return
    import ctypes.util  # here: only a process that imports WeasyPrint needs it

    original = ctypes.util.find_library
    ctypes.util.find_library = find_library
    try:
        yield
    finally:
        ctypes.util.find_library = original


def read_types_at_once(ffi: Any, types: tuple[str, ...] = C_TYPES) -> int:
    """Put ``types`` in ``ffi``'s cache of parsed types, as ``ffi.typeof`` would, from one
    parse; how many it added. It reads cffi's own parser the way ``typeof`` does
    (``parse_type_and_quals``: each type a parameter of a dummy function), one parameter a
    type. Anything unexpected (another cffi) adds nothing: cffi then parses each on first use."""
    if not enabled():
        return 0
    try:
        parser, cache_of = ffi._parser, ffi._parsed_types
        wanted = [t for t in types if t not in cache_of]
        if not wanted:
            return 0
        with ffi._lock:
            ast, macros, _ = parser._parse("void __dummy(\n" + ",\n".join(wanted) + "\n);")
            params = ast.ext[-1].type.args.params
            if macros or len(params) != len(wanted):
                return 0
            parsed = []
            for cdecl, node in zip(wanted, params, strict=True):
                tp, _quals = parser._get_type_and_quals(node.type)
                raw = tp.is_raw_function
                parsed.append((cdecl, (ffi._get_cached_btype(tp.as_function_pointer() if raw else tp), raw)))
            for cdecl, entry in parsed:
                cache_of[cdecl] = entry
        return len(parsed)
    except Exception:  # a speed-up only: cffi parses each type itself on first use
        return 0


@contextlib.contextmanager
def collection_paused(collect_after: bool = True) -> Iterator[None]:
    """No cyclic garbage collection inside the block; one collection after it (unless
    ``collect_after`` is false: the caller resumes with :func:`freeze_survivors`).

    A layout makes boxes by the hundred thousand and keeps them all until the PDF is
    written, so the collector's passes walk a heap that only grows; a window being built
    makes objects that live as long as the program. A job leaves objects in cycles, freed
    by the collection after it (left uncollected, a worker would grow with every sheet)."""
    was = gc.isenabled()
    if enabled():
        gc.disable()
    try:
        yield
    finally:
        if was and not gc.isenabled():
            gc.enable()
            if collect_after:
                gc.collect()


def pause_collection() -> None:
    """Pause cyclic garbage collection until :func:`resume_collection` (while a window is built)."""
    if enabled():
        gc.disable()


def resume_collection(freeze: bool = True) -> None:
    """Collection resumes; with ``freeze``, what was made while it was paused is first frozen
    out of later full passes (see :func:`freeze_survivors`)."""
    if freeze:
        freeze_survivors()
    gc.enable()


def freeze_survivors() -> None:
    """Move every object alive now out of the collector's full passes: what a process's
    start made (modules, classes, the catalog, WeasyPrint's tables) lives as long as the
    process, and walking it again in each pass costs the next job or keystroke."""
    if enabled():
        gc.freeze()


@contextlib.contextmanager
def weasyprint_subsets_through(subset: Any) -> Iterator[None]:
    """While inside: WeasyPrint's ``Font.subset(font, to_unicode, hinting)`` calls
    ``subset(font, to_unicode, hinting, original)``, ``original`` being WeasyPrint's own (left
    alone where WeasyPrint has no such method, or with the speed-ups off)."""
    try:
        from weasyprint.pdf.fonts import Font
    except ImportError:
        Font = None
    original = getattr(Font, "subset", None)
    if not enabled() or original is None:
        yield
        return

    def through(font: Any, to_unicode: dict[int, str], hinting: bool) -> None:
        subset(font, to_unicode, hinting, original)

    Font.subset = through
    try:
        yield
    finally:
        Font.subset = original


STYLE_SHEETS_KEPT = 16  # parsed <style> sheets a worker keeps (a sheet kind's and its paper's each)


class _KeptSheet:
    """A ``<style>`` sheet parsed once: the CSS object (its selectors compiled) and the page
    rules its parse added to the document, which every later document gets added again."""

    def __init__(self, sheet: Any, page_rules: list[Any], font_config: Any) -> None:
        self.sheet = sheet
        self.page_rules = page_rules
        self.font_config = font_config  # kept alive: the key holds its id


def keep_parsed_style_sheets() -> None:
    """From now on, WeasyPrint parses the text of a ``<style>`` element once a process: a
    later document with the same text, base URL, media type and font configuration is given
    the parsed sheet again (see the module docstring). Left alone where WeasyPrint does not
    make its style sheets as this expects, and done the plain way with the speed-ups off."""
    try:
        import weasyprint.css as css_module
    except ImportError:
        return
    original = getattr(css_module, "CSS", None)
    if original is None or getattr(original, "_shipyard_kept", False):
        return
    kept: dict[tuple[str, Any, Any, int], _KeptSheet | None] = {}

    def parsed(*args: Any, **kwargs: Any) -> Any:
        string, page_rules, font_config = kwargs.get("string"), kwargs.get("page_rules"), kwargs.get("font_config")
        asked = set(kwargs) - {"string", "base_url", "url_fetcher", "media_type", "font_config"}
        asked -= {"counter_style", "color_profiles", "page_rules", "layers"}
        if args or asked or not isinstance(string, str) or page_rules is None or not enabled():
            return original(*args, **kwargs)
        key = (string, kwargs.get("base_url"), kwargs.get("media_type", "print"), id(font_config))
        entry = kept.get(key)
        if entry is not None and entry.font_config is font_config:  # the same configuration, not one at its address
            page_rules.extend(entry.page_rules)  # as WeasyPrint's parse adds them to the document's
            return entry.sheet
        if key in kept and entry is None:  # it reached outside itself: parsed each time
            return original(*args, **kwargs)
        entry, keep = _parse_alone(original, kwargs)
        if len(kept) >= STYLE_SHEETS_KEPT:
            kept.pop(next(iter(kept)))
        kept[key] = entry if keep else None  # None: parsed each time, the plain way
        if entry is None:  # it declared what the document's own containers must get in order
            return original(*args, **kwargs)
        page_rules.extend(entry.page_rules)
        return entry.sheet

    parsed._shipyard_kept = True  # type: ignore[attr-defined]
    css_module.CSS = parsed


class _NotedFetches:
    """A document's URL fetcher that notes each URL asked of it."""

    def __init__(self, fetcher: Any) -> None:
        self._fetcher = fetcher
        self.urls: list[str] = []

    def __call__(self, url: str, *args: Any, **kwargs: Any) -> Any:
        self.urls.append(url)
        return self._fetcher(url, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._fetcher, name)


def _parse_alone(original: Any, kwargs: dict[str, Any]) -> tuple[_KeptSheet | None, bool]:
    """Parse a sheet into containers of its own, and whether it may be kept. Not kept: a
    sheet whose parse fetched something (an ``@import`` or a font, through this document's
    fetcher, which keeps each job to its own folders), though this document uses it. None:
    a sheet that declared layers, counter styles or colour profiles, which the document's own
    containers must get, in their order; it is parsed again the plain way."""
    if kwargs.get("url_fetcher") is None:
        return None, False
    noted = _NotedFetches(kwargs["url_fetcher"])
    own_rules: list[Any] = []
    layers: list[Any] = []
    counters: dict[Any, Any] = {}
    profiles: dict[Any, Any] = {}
    alone = {**kwargs, "url_fetcher": noted, "page_rules": own_rules, "layers": layers}
    alone.update(counter_style=counters, color_profiles=profiles)
    try:
        sheet = original(**alone)
    except Exception:
        return None, False  # the plain parse says what is wrong, as it would have
    if layers or counters or profiles:
        return None, False
    return _KeptSheet(sheet, own_rules, kwargs.get("font_config")), not noted.urls


BORDER_SIDES = ("top", "right", "bottom", "left")
DOTTED_OR_DASHED = ("dotted", "dashed")
_Pattern = tuple[float, float, list[float], int]  # a side's stroked line: what _dash_pattern gives


def _dash_pattern(kind: str, length: float, width: float) -> _Pattern | None:
    """The line that draws a ``kind`` side of ``length`` and ``width`` with its marks where
    WeasyPrint's per-mark drawing puts them, as (where it starts along the side, how far it
    runs, its dash pattern, its line cap); None for a side too short for a gap between two
    marks. A mark at each end and the gaps between them equal: a dot of the side's width
    every (length - width) / gaps; a dash and a gap of length / (2 dashes - 1) each. The
    counts are WeasyPrint's own expressions, floating point and all: where a side's length
    is a whole number of periods, ``length // (2 * width)`` and ``floor(length / width / 2)``
    can differ by one."""
    if kind == "dotted":
        gaps = math.floor(length / width / 2)
        if gaps < 1:
            return None
        period = (length - width) / gaps
        return width / 2, gaps * period + period / 2, [0, period], 1
    dashes = math.floor(length / (3 * width) / 2) + 1
    if dashes < 2:
        return None
    dash = length / (2 * dashes - 1)
    return 0.0, length, [dash, dash], 0


def _lone_dotted_sides(
    box: Any,
) -> tuple[tuple[float, float, float, float], list[tuple[str, float, Any, _Pattern]]] | None:
    """``box``'s border box (x, y, width, height) and the sides of its border to draw as
    one stroked line each, as (side, width, colour, :func:`_dash_pattern`); None where
    WeasyPrint's own drawing is needed. Only a
    border whose drawn sides are all dotted or dashed, no two of them meeting at a corner,
    square-cornered, without a border image or column rules: there each side's clip is the
    side's own rectangle, and the dots or dashes WeasyPrint cuts out of it one by one are
    the marks of one line stroked with a dash pattern."""
    style = box.style
    if style["visibility"] != "visible" or style["border_image_source"][0] != "none":
        return None
    if style["column_width"] != "auto" or style["column_count"] != "auto":
        return None
    x, y, w, h, *radii = box.rounded_border_box()
    if any(rx or ry for rx, ry in radii):
        return None
    sides = []
    for side in BORDER_SIDES:
        width = getattr(box, f"border_{side}_width")
        if not width:
            continue
        colour = style[f"border_{side}_color"]
        colour = style["color"] if colour == "currentcolor" else colour
        kind = style[f"border_{side}_style"]
        if kind not in DOTTED_OR_DASHED or not colour.alpha:
            return None
        pattern = _dash_pattern(kind, w if side in ("top", "bottom") else h, width)
        if pattern is None:
            return None
        sides.append((side, width, colour, pattern))
    drawn = {side for side, *_ in sides}
    if not sides or not (drawn <= {"top", "bottom"} or drawn <= {"left", "right"}):
        return None
    return (x, y, w, h), sides


def _stroke_side(
    stream: Any, border_box: tuple[float, float, float, float], side: str, width: float, colour: Any, pattern: _Pattern
) -> None:
    """One side of the border box (x, y, width, height) as one line stroked with
    ``pattern`` (:func:`_dash_pattern`)."""
    x, y, w, h = border_box
    start, run, dashes, cap = pattern
    half = width / 2
    if side == "top":
        line = (x + start, y + half, x + start + run, y + half)
    elif side == "bottom":
        line = (x + start, y + h - half, x + start + run, y + h - half)
    elif side == "left":
        line = (x + half, y + start, x + half, y + start + run)
    else:
        line = (x + w - half, y + start, x + w - half, y + start + run)
    with stream.artifact(), stream.stacked():
        stream.set_color(colour, stroke=True)
        stream.set_line_width(width)
        stream.set_line_cap(cap)
        stream.set_dash(dashes, 0)
        stream.move_to(line[0], line[1])
        stream.line_to(line[2], line[3])
        stream.stroke()


def dotted_borders_stroked() -> None:
    """From now on, WeasyPrint draws a dotted or dashed border side that meets no other
    (a dotted rule under a line of a card, a leader) as one line stroked with a dash
    pattern, as it already draws a border dotted all round. Its own way cuts a clip path of
    one circle or rectangle per mark: a thin dotted rule across a card is hundreds of
    circles of four curves each, written into the page and compressed. The marks land where
    WeasyPrint puts them (:func:`_dash_pattern`); any other border is left to it, and
    all of them are with the speed-ups off."""
    try:
        import weasyprint.draw as draw_module
        import weasyprint.draw.border as border_module
    except ImportError:
        return
    original = getattr(border_module, "draw_border", None)
    if original is None or getattr(original, "_shipyard_stroked", False) or draw_module.draw_border is not original:
        return

    def draw_border(stream: Any, box: Any) -> None:
        try:
            lone = _lone_dotted_sides(box) if enabled() else None
        except Exception:  # a WeasyPrint whose boxes hold other than this reads: its own drawing
            lone = None
        if lone is None:
            original(stream, box)
            return
        border_box, sides = lone
        for side, width, colour, pattern in sides:
            _stroke_side(stream, border_box, side, width, colour, pattern)

    draw_border._shipyard_stroked = True  # type: ignore[attr-defined]
    draw_border._shipyard_original = original  # type: ignore[attr-defined]  # for bench/bench_dotted_rules.py
    border_module.draw_border = draw_module.draw_border = draw_border


def layout_stops_at_once() -> bool:
    """Whether a dropped render job is stopped inside the layout by its signal (else it
    runs to its end and its answer is dropped)."""
    return enabled()


PYDANTIC_PLUGIN_LOADER = "pydantic.plugin._loader"
PYDANTIC_PLUGINS_OFF = ("__all__", "1", "true")  # the values pydantic's loader reads as "no plug-ins"


def _pydantic_plugins_off() -> bool:
    return os.environ.get("PYDANTIC_DISABLE_PLUGINS") in PYDANTIC_PLUGINS_OFF


def no_pydantic_plugin_search() -> None:
    """Before pydantic builds its first model, with ``PYDANTIC_DISABLE_PLUGINS`` saying "no
    plug-ins": its plug-in loader (``pydantic.plugin._loader``, imported on that first build)
    is one that answers no plug-ins without importing :mod:`importlib.metadata`. Should the
    variable say otherwise later, it imports pydantic's own loader in its place and asks it."""
    if not enabled() or not _pydantic_plugins_off() or PYDANTIC_PLUGIN_LOADER in sys.modules:
        return
    loader = ModuleType(PYDANTIC_PLUGIN_LOADER, "A stand-in for pydantic's plug-in loader (shipyard._speedups).")

    def get_plugins() -> Any:
        if _pydantic_plugins_off():
            return ()
        if sys.modules.get(PYDANTIC_PLUGIN_LOADER) is loader:
            del sys.modules[PYDANTIC_PLUGIN_LOADER]
        import importlib  # here: only once plug-ins are wanted after all

        return importlib.import_module(PYDANTIC_PLUGIN_LOADER).get_plugins()

    loader.get_plugins = get_plugins  # type: ignore[attr-defined]
    sys.modules[PYDANTIC_PLUGIN_LOADER] = loader


# Built-in types used as default factories: called with no argument, never with the validated
# data (pydantic's own check answers False for each; tests/test_start_imports.py holds that).
NO_DATA_FACTORIES = (list, dict, set, frozenset, tuple, str, int, float, bool, bytes)


def quicker_default_factories() -> None:
    """pydantic's ``takes_validated_data_argument`` answers False for :data:`NO_DATA_FACTORIES`
    without reading their signatures; other factories go to pydantic's own (which is left
    alone where it is not where this pydantic keeps it)."""
    if not enabled():
        return
    try:
        from pydantic._internal import _fields, _generate_schema
    except ImportError:
        return
    original: Any = getattr(_fields, "takes_validated_data_argument", None)
    if original is None or getattr(original, "quickened", False):
        return
    if getattr(_generate_schema, "takes_validated_data_argument", None) is not original:
        return
    own: Callable[[Any], Any] = cast("Callable[[Any], Any]", original)

    def takes_validated_data_argument(default_factory: Any) -> bool:
        if type(default_factory) is type and default_factory in NO_DATA_FACTORIES:
            return False
        return bool(own(default_factory))

    takes_validated_data_argument.quickened = True  # type: ignore[attr-defined]
    takes_validated_data_argument.__wrapped__ = own  # type: ignore[attr-defined]
    for module in (_fields, _generate_schema):  # the function, and the name the schema builder imported
        setattr(module, "takes_validated_data_argument", takes_validated_data_argument)  # noqa: B010


LANGUAGE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")  # what gettext.find reads, in its order


def translations_looked_up_once() -> None:
    """:func:`gettext.find` answers a lookup it made before from memory: the same domain,
    folder, languages (or the same language variables, when none are given) and ``all``."""
    if not enabled():
        return
    import gettext

    original: Any = gettext.find
    if getattr(original, "remembered", False):
        return
    found: dict[tuple[Any, ...], Any] = {}

    def find(domain: Any, localedir: Any = None, languages: Any = None, all: bool = False) -> Any:
        asked = tuple(languages) if languages is not None else tuple(os.environ.get(v) for v in LANGUAGE_VARIABLES)
        key = (domain, localedir, languages is None, asked, all)
        try:
            hash(key)
        except TypeError:  # something unhashable: looked up as gettext does, and not kept
            return original(domain, localedir, languages, all)
        if key not in found:
            found[key] = original(domain, localedir, languages, all)
        answer = found[key]
        return list(answer) if isinstance(answer, list) else answer  # a caller's change is its own

    find.remembered = True  # type: ignore[attr-defined]
    find.__wrapped__ = original  # type: ignore[attr-defined]
    gettext.find = find


# In the user's cache folder (shipyard.core.cachefile), sealed; marshal, not JSON: the file is
# read at every start and holds thousands of integers, which JSON reads several times slower.
PATTERNS_FILE = "regex-programs.bin"
MAX_KEPT_PATTERNS = 2000
_programs: dict[tuple[str, str, int], list[Any]] = {}  # (kind, text, flags) -> [flags, code, groups, index]
_made: dict[tuple[str, str, int], list[Any]] = {}  # compiled by this process, not kept yet
_recording = [False]


def _pattern_key(pattern: Any, flags: Any) -> tuple[str, str, int] | None:
    if type(flags) is not int:
        return None
    if type(pattern) is str:
        return ("s", pattern, flags)
    if type(pattern) is bytes:
        return ("b", pattern.decode("latin-1"), flags)
    return None  # a parsed pattern (re's own Scanner): compiled as usual


def _python_tag() -> str:
    """The Python whose programs these are: their code is this interpreter's matcher's."""
    _sre: Any = sys.modules["_sre"]  # re's matcher, imported with re

    return f"{sys.version}|{_sre.MAGIC}|{_sre.CODESIZE}|{sys.maxunicode}"


def _read_programs() -> None:
    import marshal

    from shipyard.core.cachefile import read_sealed

    data = read_sealed(PATTERNS_FILE)  # sealed: written by this user's Shipyard, nobody else's
    try:
        stored = marshal.loads(data) if data else None
    except (EOFError, ValueError, TypeError):
        return
    if (
        not isinstance(stored, dict)
        or stored.get("python") != _python_tag()
        or not isinstance(stored.get("kept"), list)
    ):
        return
    for entry in stored["kept"]:
        if (
            isinstance(entry, list)
            and len(entry) == 7
            and entry[0] in ("s", "b")
            and isinstance(entry[1], str)
            and type(entry[2]) is int
            and type(entry[3]) is int
            and type(entry[4]) is bytes
            and type(entry[5]) is int
            and isinstance(entry[6], dict)
        ):
            _programs[(entry[0], entry[1], entry[2])] = entry[3:]


def _words(data: bytes) -> list[int]:
    """A program's words from the bytes :func:`_word_bytes` made of them."""
    from array import array

    words = array(_word_type())
    words.frombytes(data)
    return words.tolist()


def _word_bytes(code: list[int]) -> bytes:
    from array import array

    return array(_word_type(), code).tobytes()


def _word_type() -> str:
    """The array type of the matcher's words (its code units): unsigned, of its size."""
    from array import array

    size = sys.modules["_sre"].CODESIZE
    return next(t for t in ("I", "L", "Q", "H") if array(t).itemsize == size)


def _from_program(pattern: Any, kept: list[Any]) -> Any:
    """The compiled pattern from a kept program; None when the matcher refuses it."""
    _sre: Any = sys.modules["_sre"]  # re's matcher, imported with re

    flags, code, groups, index = kept
    try:
        if type(code) is bytes:  # as kept: the program's words, read back only when used
            code = _words(code)
        indexgroup = [None] * (groups + 1)
        for name, at in index.items():
            indexgroup[at] = name
        return _sre.compile(pattern, flags, code, groups, dict(index), tuple(indexgroup))
    except Exception:  # a program this matcher does not take: compiled as usual
        return None


def patterns_kept() -> None:
    """From now on in this process, ``re`` compiles a pattern kept by an earlier process
    from its kept program; what it compiles from text is recorded for
    :func:`keep_patterns`. Once a process; not with ``SHIPYARD_NO_CACHE`` set."""
    if not enabled() or os.environ.get("SHIPYARD_NO_CACHE"):
        return
    import importlib  # re's compiler module: re._compiler (sre_compile before Python 3.11)

    compiler: Any = importlib.import_module("re._compiler")

    original = compiler.compile
    if getattr(original, "kept", False):
        return
    with contextlib.suppress(OSError):
        _read_programs()

    def compile(p: Any, flags: Any = 0) -> Any:
        key = _pattern_key(p, flags)
        kept = _programs.get(key) if key is not None else None
        if kept is not None:
            made = _from_program(p, kept)
            if made is not None:
                return made
        made = original(p, flags)
        if key is not None and _recording[0] and len(_made) < MAX_KEPT_PATTERNS and not flags & compiler.SRE_FLAG_DEBUG:
            code = _code_of(p, flags, compiler)
            if code is not None:
                _made[key] = [made.flags, code, made.groups, dict(made.groupindex)]
        return made

    compile.kept = True  # type: ignore[attr-defined]
    _recording[0] = True
    compiler.compile = compile


def _code_of(p: Any, flags: int, compiler: Any) -> list[int] | None:
    """The program ``re`` makes of ``p``, as its compiler makes it (None: another ``re``)."""
    try:
        parser: Any = sys.modules["re._parser"]
        return [
            int(op) for op in compiler._code(parser.parse(p, flags), flags)
        ]  # plain ints: its opcodes are a subclass
    except Exception:  # a speed-up only: the pattern is not kept
        return None


def keep_patterns() -> None:
    """Keep the programs of the patterns this process compiled from text with those kept
    before (at most :data:`MAX_KEPT_PATTERNS`), and record no more."""
    _recording[0] = False
    if not enabled() or not _made:
        return
    import marshal

    from shipyard.core.cachefile import write_sealed

    kept = {**_programs, **_made}
    _made.clear()
    entries = [[*key, *value] for key, value in list(kept.items())[-MAX_KEPT_PATTERNS:]]
    try:
        for entry in entries:  # each program as its words' bytes: a list of ints is slow to read back
            entry[4] = entry[4] if type(entry[4]) is bytes else _word_bytes(entry[4])
        data = marshal.dumps({"python": _python_tag(), "kept": entries})
    except (ValueError, OverflowError, TypeError):  # a value marshal or a word cannot hold: nothing kept
        return
    if write_sealed(PATTERNS_FILE, data):
        _programs.update(kept)


SUPPORT_CODE_FILE = "pyside-support-code.bin"  # in the user's cache folder, sealed
_support_code: dict[str, Any] = {}  # key -> code object: kept, or compiled by this process
_support_new: list[str] = []  # the keys compiled by this process, not kept yet
_support_used: set[str] = set()  # the keys this process asked for: what is kept (no other PySide's)
_FUTURE_FLAGS = 0x1FE0000  # the __future__ flags compile() takes from its caller's code (CPython's PyCF_MASK)


def _compile_taking(kept: Callable[[Any, Any, str, int], Any], plain: Callable[..., Any]) -> Callable[..., Any]:
    """A ``compile()`` that does what the built-in ``plain`` does, taking the code ``kept``
    gives (source, filename, mode, the caller's ``__future__`` flags) for a call with no
    flags or options of its own; ``kept`` returns None for a call it does not keep. Like
    the built-in, it compiles with its caller's ``__future__`` flags unless told not to."""

    def compile(
        source: Any, filename: Any, mode: Any, flags: Any = 0, dont_inherit: Any = False, *more: Any, **named: Any
    ) -> Any:
        # ``named``: optimize= or _feature_version=, as importlib passes them when it compiles
        # a module without bytecode
        if dont_inherit:
            return plain(source, filename, mode, flags, dont_inherit, *more, **named)
        inherited = sys._getframe(1).f_code.co_flags & _FUTURE_FLAGS  # what compile() takes from its caller
        if not (flags or more or named):
            found = kept(source, filename, mode, inherited)
            if found is not None:
                return found
        return plain(source, filename, mode, flags | inherited, True, *more, **named)

    return compile


def _support_file(filename: Any) -> bool:
    return isinstance(filename, str) and (
        filename == "signature_bootstrap.py" or (filename.startswith("shibokensupport/") and filename.endswith(".py"))
    )


def _support_key(source: str | bytes, filename: str, inherited: int) -> str:
    import hashlib

    raw = source.encode("utf-8", "surrogatepass") if isinstance(source, str) else source
    return f"{filename}|{inherited}|{hashlib.sha256(raw).hexdigest()}"


def _code_tag() -> str:
    """The Python whose code these are: its bytecode's magic number, and -O."""
    from importlib.util import MAGIC_NUMBER

    return f"{MAGIC_NUMBER.hex()}|{sys.flags.optimize}|{sys.version}"


def _read_kept_code(file: str) -> dict[Any, Any]:
    """The code kept in ``file`` of the user's cache folder for this Python, by key; nothing
    when the file is missing, not sealed as this user's, unreadable or for another Python."""
    import marshal

    from shipyard.core.cachefile import read_sealed

    data = read_sealed(file)  # sealed: code this user's Shipyard compiled, nobody else's
    if not data:
        return {}
    try:
        stored = marshal.loads(data)
    except (EOFError, ValueError, TypeError):
        return {}
    if not isinstance(stored, dict) or stored.get("python") != _code_tag() or not isinstance(stored.get("code"), dict):
        return {}
    code: dict[Any, Any] = stored["code"]
    return code


def _keep_code(file: str, code: dict[Any, Any]) -> None:
    """Keep ``code`` in ``file`` of the user's cache folder, sealed, for this Python; nothing
    when a value cannot be written as marshal."""
    import marshal

    from shipyard.core.cachefile import write_sealed

    try:
        data = marshal.dumps({"python": _code_tag(), "code": code})
    except ValueError:
        return
    write_sealed(file, data)


def _read_support_code() -> None:
    code_type = type(_read_support_code.__code__)
    kept = _read_kept_code(SUPPORT_CODE_FILE)
    _support_code.update({k: v for k, v in kept.items() if isinstance(k, str) and type(v) is code_type})


@contextlib.contextmanager
def pyside_support_compiled_once() -> Iterator[None]:
    """While inside (the first import of PySide6): a ``compile()`` of one of shiboken's
    support modules, as its bootstrap makes it, returns the code kept for the same source
    by an earlier start, and what is compiled anew is kept by :func:`keep_pyside_support`."""
    import builtins

    original = builtins.compile
    if not enabled() or os.environ.get("SHIPYARD_NO_CACHE"):
        yield
        return
    with contextlib.suppress(OSError):
        _read_support_code()

    def support_code(source: Any, filename: Any, mode: str, inherited: int) -> Any:
        if mode != "exec" or not _support_file(filename) or not isinstance(source, str | bytes):
            return None
        key = _support_key(source, filename, inherited)
        _support_used.add(key)
        found = _support_code.get(key)
        if found is None:
            found = _support_code[key] = original(source, filename, mode, inherited, True)
            _support_new.append(key)
        return found

    builtins.compile = _compile_taking(support_code, original)
    try:
        yield
    finally:
        builtins.compile = original


def keep_pyside_support() -> None:
    """Keep the support modules' code this process used, once it compiled some (see above):
    the code of a PySide6 installed before is not kept with it."""
    if not enabled() or not _support_new:
        return
    _support_new.clear()
    _keep_code(SUPPORT_CODE_FILE, {key: code for key, code in _support_code.items() if key in _support_used})


GENERATED_CODE_FILE = "generated-code.bin"  # in the user's cache folder, sealed
MAX_GENERATED_CODE = 5000
_generated: dict[tuple[str, str, int], Any] = {}  # (source, mode, __future__ flags) -> code: kept or compiled here
_generated_new: set[tuple[str, str, int]] = set()  # compiled by this process, not kept yet
_generated_used: set[tuple[str, str, int]] = set()  # asked for by this process: what is kept


def _read_generated_code() -> None:
    code_type = type(_read_generated_code.__code__)
    for key, code in _read_kept_code(GENERATED_CODE_FILE).items():
        if (
            type(key) is tuple
            and len(key) == 3
            and type(key[0]) is str
            and key[1] in ("exec", "eval")
            and type(key[2]) is int
            and type(code) is code_type
        ):
            _generated[key] = code


def _generated_code_for(source: str, mode: str, flags: int) -> Any:
    """The code of ``source`` as ``compile(source, "<string>", mode, flags, True)`` makes it."""
    key = (source, mode, flags)
    found = _generated.get(key)
    if found is None:
        import builtins

        found = builtins.compile(source, "<string>", mode, flags, True)  # a SyntaxError as compile() says it
        if len(_generated) < MAX_GENERATED_CODE:
            _generated[key] = found
            _generated_new.add(key)
    if len(_generated_used) < MAX_GENERATED_CODE:
        _generated_used.add(key)
    return found


def generated_code_kept() -> None:
    """From now on in this process, the functions :mod:`dataclasses` writes for each class
    (``__init__``, ``__eq__``, ``__repr__``...) and the forward references :mod:`typing`
    reads (every annotation of a module with postponed annotations) are compiled from their
    text once: their code is kept by :func:`keep_generated_code` and taken for the same
    text (the whole text is the key) by a later process of the same Python. Both modules
    call the built-in ``exec``/``compile`` by name; each gets one of its own that does the
    same with the kept code. Once a process; not with ``SHIPYARD_NO_CACHE`` set."""
    if not enabled() or os.environ.get("SHIPYARD_NO_CACHE"):
        return
    import builtins
    import dataclasses
    import typing

    if getattr(vars(dataclasses).get("exec"), "kept", False):
        return
    with contextlib.suppress(OSError):
        _read_generated_code()
    plain_exec, plain_compile = builtins.exec, builtins.compile

    def exec_(source: Any, globals: Any = None, locals: Any = None, /, **named: Any) -> Any:
        caller = sys._getframe(1)
        if globals is None:  # the caller's namespaces, as exec() takes them
            globals, locals = caller.f_globals, caller.f_locals if locals is None else locals
        if isinstance(source, str | bytes | bytearray):  # compiled with the caller's __future__ flags, as exec() does
            flags = caller.f_code.co_flags & _FUTURE_FLAGS
            if type(source) is str:
                source = _generated_code_for(source, "exec", flags)
            else:
                source = plain_compile(source, "<string>", "exec", flags, True)
        return plain_exec(source, globals, locals, **named)

    def generated_code(source: Any, filename: Any, mode: str, inherited: int) -> Any:
        if type(source) is str and filename == "<string>" and mode in ("eval", "exec"):
            return _generated_code_for(source, mode, inherited)
        return None

    compile_ = _compile_taking(generated_code, plain_compile)

    exec_.kept = True  # type: ignore[attr-defined]
    setattr(dataclasses, "exec", exec_)  # noqa: B010 - the name dataclasses' _create_fn calls
    setattr(typing, "compile", compile_)  # noqa: B010 - the name typing.ForwardRef calls


def keep_generated_code() -> None:
    """Keep the code this process asked for, once it compiled some (see above): code no
    process of this Shipyard asks for any more is not kept with it."""
    if not enabled() or not _generated_new:
        return
    _generated_new.clear()
    _keep_code(GENERATED_CODE_FILE, {key: code for key, code in _generated.items() if key in _generated_used})


# Objects allocated (less those freed) between two collections of the youngest generation.
GC_YOUNG_THRESHOLD = 200_000


def fewer_collections() -> None:
    """Let the cyclic garbage collector run less often in a process that runs one command.

    Reference counting frees nearly all a command makes; the collector's passes only walk
    the live objects, and on a large design (a force of hundreds of members, whose report
    is tens of thousands of models) its full passes over them are a real share of a
    command. As mypy does, the youngest generation is collected every 200,000 allocations
    instead of 700. Only for the ``shipyard`` console script: a caller of ``cli.main`` in
    its own process (the tests, a script) keeps its collector as it set it.
    """
    if enabled():
        gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])


def end_process_now(code: int) -> None:
    """End the process at once, its output flushed, without the interpreter's clean-up of
    every module and object; with the speed-ups off, only flush (the caller returns and
    the process ends as usual).

    Only for a command that only reads and prints (nothing it made needs that clean-up; it
    wrote no file and started no process) or one whose every file is synced and renamed into
    place before it returns and that started no process.
    """
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe: nothing more to say
            stream.flush()
    if enabled():
        os._exit(code)
