"""WeasyPrint's C libraries: found with one look at the loader's cache, their types read at once.

WeasyPrint opens Pango, HarfBuzz, fontconfig and GObject by trying, for each, the names it
has on every platform (``libpango-1.0-0``, ``pango-1.0-0``, ``pango-1.0``, ...). Each name
that does not open as it is goes through :func:`ctypes.util.find_library`, which on Linux
starts ``ldconfig -p`` and, when that does not know the name, ``gcc`` and then ``ld``: two
of every three names are misses, and HarfBuzz's vector library (newer than Debian 12's) is
tried under six. Measured on the 2-core machine: 22 lookups, 167 ms of the 440 ms that
importing WeasyPrint took, on the path of every render worker's start and so of the
editor's first preview (with this module: 309 ms).

Inside :func:`libraries_found_quickly`, ``find_library`` answers from ``ldconfig -p``
read once a process, with the regular expression ctypes itself uses; a name the cache does
not hold is looked for as ``lib<name>.so``, an ELF file, in the folders ``gcc`` and ``ld``
would search (``LD_LIBRARY_PATH``'s, the cache's, ``/usr/local/lib``, ``/usr/lib``,
``/lib``), where those two look. Outside Linux, and outside the block, nothing changes.

A fresh worker's first sheet also waits on cffi reading each C type WeasyPrint names as a
string (``ffi.new("PangoRectangle *")``): pycparser parses each as a declaration behind
every type name of WeasyPrint's bindings, 2.5-3.3 ms apiece. :func:`read_types_at_once`
reads them all in one such parse (3 ms) as the worker starts; the first sheet came 15-25 ms
sooner (a fresh process rendering the editor's first preview, three runs each way).
"""

from __future__ import annotations

import contextlib
import ctypes.util
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

ABI = {"x86_64": "libc6,x86-64", "ppc64": "libc6,64bit", "sparc64": "libc6,64bit", "s390x": "libc6,64bit"}
ELF_MAGIC = b"\x7fELF"
# Every C type WeasyPrint 70 names as a string literal (tests/test_render_libraries.py finds
# them in its source, so a WeasyPrint that names another makes that test fail).
C_TYPES = (
    "PangoRectangle *", "unsigned int *", "PangoFcFontMap *", "hb_tag_t[100]", "char[]",
    "char[4]", "PangoLogAttr[]", "FcResult *", "FcChar8 **",
)  # fmt: skip


@cache
def loader_cache() -> bytes:
    """``ldconfig -p`` as ctypes runs it (C locale); empty where it cannot run."""
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


def _folders(listing: bytes) -> list[Path]:
    """Where the linker would look: LD_LIBRARY_PATH's folders, then the cache's, then the usual."""
    given = [Path(d) for d in os.environ.get("LD_LIBRARY_PATH", "").split(":") if d]
    cached = [Path(os.fsdecode(m)).parent for m in re.findall(rb"=> (\S+)", listing)]
    usual = [Path("/usr/local/lib"), Path("/usr/lib"), Path("/lib")]
    return list(dict.fromkeys([*given, *cached, *usual]))


def _is_elf(path: Path) -> bool:
    try:
        with path.open("rb") as f:
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
        candidate = folder / f"lib{name}.so"
        if _is_elf(candidate):
            return str(candidate)
    return None


@contextlib.contextmanager
def libraries_found_quickly() -> Iterator[None]:
    """While WeasyPrint is imported: ``ctypes.util.find_library`` is :func:`find_library`."""
    if not sys.platform.startswith("linux"):
        yield
        return
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
