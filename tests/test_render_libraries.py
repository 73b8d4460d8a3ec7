"""WeasyPrint's C libraries found from one read of the loader's cache, and its C types read
in one parse (shipyard/render/libraries.py): the same answers as ctypes and cffi give, in
less of a render worker's start (the figures are bench_gui's first preview)."""

from __future__ import annotations

import ctypes.util
import re
import sys
from pathlib import Path

import cffi
import pytest

from shipyard.render import libraries

WEASYPRINT = Path(pytest.importorskip("weasyprint").__file__).parent
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


def test_find_library_is_ctypes_own_again_after_weasyprint_is_imported() -> None:
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


def test_the_types_read_at_once_are_the_ones_cffi_reads_one_by_one() -> None:
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


def test_weasyprint_s_types_are_read_when_the_renderer_is_imported() -> None:
    from weasyprint.text.ffi import ffi

    import shipyard.render.pdf  # noqa: F401 - its import reads them

    assert set(libraries.C_TYPES) <= set(ffi._parsed_types)
