"""Reading text a user hands us: one place for the size limit, the encoding and the
binary-file checks, so catalogs, design files and pasted text refuse bad input alike.
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, TypeVar

from shipyard.core.errors import InputError

if TYPE_CHECKING:
    from pydantic import BaseModel

M = TypeVar("M", bound="BaseModel")
# Every number in a file a user hands us that no narrower rule bounds (catalogs, presets,
# other games' records) lies in this range, and a decimal is finite; docs/catalog-format.md.
# Costs, budgets and counts multiply one another: far beyond any rule's numbers, far below
# any overflow or a number too long to print.
NUMBER_RANGE = 1_000_000_000


def read_limited(source: Path | BinaryIO, label: str, max_bytes: int, what: str) -> bytes:
    """At most ``max_bytes`` of a file or stream; bigger input is refused, not truncated.

    A path must be a regular file: a named pipe, a device or a folder is refused before it
    is opened (a pipe nobody writes to would wait forever, ``/dev/zero`` never ends). It
    is opened without blocking and checked again, in case it was swapped meanwhile.
    """
    try:
        if isinstance(source, Path):
            _refuse_non_regular(source.stat().st_mode, label)
            size = source.stat().st_size
            if size > max_bytes:
                raise InputError.single(f"file is {size:,} bytes; {what} is limited to {max_bytes:,}", file=label)
            fd = os.open(source, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
            with os.fdopen(fd, "rb") as fh:
                _refuse_non_regular(os.fstat(fh.fileno()).st_mode, label)
                raw = fh.read(max_bytes + 1)
        else:
            raw = source.read(max_bytes + 1)
    except OSError as exc:
        raise InputError.single(f"cannot read file: {exc.strerror or exc}", file=label) from None
    if len(raw) > max_bytes:
        raise InputError.single(f"more than {max_bytes:,} bytes; {what} is limited to {max_bytes:,}", file=label)
    return raw


def _refuse_non_regular(mode: int, label: str) -> None:
    if not stat.S_ISREG(mode):
        from shipyard.core.safepaths import kind_of

        raise InputError.single(f"cannot read file: it is {kind_of(mode)}, not a regular file", file=label)


def check_total_size(files: list[Path], max_bytes: int, label: str | Path, what: str) -> None:
    """Refuse a set of files (one catalog folder) bigger than ``max_bytes`` together, before reading any."""
    total = 0
    for f in files:
        try:
            total += f.stat().st_size
        except OSError:
            continue  # reading it will say why
    if total > max_bytes:
        raise InputError.single(
            f"{len(files)} file{'' if len(files) == 1 else 's'} of {total:,} bytes together; "
            f"{what} is limited to {max_bytes:,} bytes",
            file=label,
        )


# The byte-order marks a text saved as UTF-16 or UTF-32 starts with (Windows' Notepad
# "Unicode", PowerShell's ">"), the longer first: UTF-32's little-endian mark starts with UTF-16's.
_OTHER_ENCODINGS = (
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe", "UTF-16"),
    (b"\xfe\xff", "UTF-16"),
)


def decode(raw: bytes, label: str) -> str:
    """UTF-8 text (a byte-order mark is dropped); text saved as UTF-16 or UTF-32 (by its
    byte-order mark) is named as that, with what to do; binary files are named as such."""
    encoding = next((name for mark, name in _OTHER_ENCODINGS if raw.startswith(mark)), None)
    if encoding is not None:
        raise InputError.single(
            f"saved as {encoding} (it starts with a {encoding} byte-order mark); save it as UTF-8",
            file=label,
        )
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError.single(
            f"not UTF-8 text (byte {exc.start} is 0x{raw[exc.start]:02x}); is this a binary file?", file=label
        ) from None
    if "\x00" in text:
        raise InputError.single("contains NUL bytes; is this a binary file?", file=label)
    return text


def validate_strictly(model: type[M], data: Any) -> M:
    """``data`` read from a user's file as ``model``, as strictly as JSON is read.

    Lax validation turns ``cost: true`` into 1, ``"5"`` into 5 and ``5.0`` into 5. Strict
    JSON validation takes a number only as a number, a string only as a string, and still
    an enum by its value and a list where a tuple is declared. Values YAML has and JSON
    has not (dates) are given as their text.
    """
    return model.model_validate_json(json.dumps(data, default=str), strict=True)


# Characters no document may hold (XML 1.0 forbids them even escaped, and a text file with
# them is read back as binary): C0 controls but tab, new line and return; lone surrogates;
# U+FFFE and U+FFFF.
_NOT_IN_DOCUMENTS_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_AS_SPACE = {"\x0b": " ", "\x0c": " "}  # a vertical tab or form feed is a space in running text


def document_text(text: str) -> str:
    """``text`` fit for a document Shipyard writes (a sheet's HTML, a token's SVG, stat-block
    text): the characters no document may hold removed, a vertical tab or form feed made a
    space. A design's name or notes may hold them (pasted in, or typed as JSON escapes such
    as ``\\u0000``); the design keeps them, only what is made from it is cleaned."""
    return _NOT_IN_DOCUMENTS_RE.sub(lambda m: _AS_SPACE.get(m.group(0), ""), text)
