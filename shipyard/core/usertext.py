"""Reading text a user hands us: one place for the size limit, the encoding and the
binary-file checks, so catalogs, design files and pasted text refuse bad input alike.
"""

from __future__ import annotations

from pathlib import Path
from typing import BinaryIO

from shipyard.core.errors import InputError


def read_limited(source: Path | BinaryIO, label: str, max_bytes: int, what: str) -> bytes:
    """At most ``max_bytes`` of a file or stream; bigger input is refused, not truncated."""
    try:
        if isinstance(source, Path):
            size = source.stat().st_size
            if size > max_bytes:
                raise InputError.single(f"file is {size:,} bytes; {what} is limited to {max_bytes:,}", file=label)
            with source.open("rb") as fh:
                raw = fh.read(max_bytes + 1)
        else:
            raw = source.read(max_bytes + 1)
    except OSError as exc:
        raise InputError.single(f"cannot read file: {exc.strerror or exc}", file=label) from None
    if len(raw) > max_bytes:
        raise InputError.single(f"more than {max_bytes:,} bytes; {what} is limited to {max_bytes:,}", file=label)
    return raw


def decode(raw: bytes, label: str) -> str:
    """UTF-8 text (a byte-order mark is dropped); binary files are named as such."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError.single(
            f"not UTF-8 text (byte {exc.start} is 0x{raw[exc.start]:02x}); is this a binary file?", file=label
        ) from None
    if "\x00" in text:
        raise InputError.single("contains NUL bytes; is this a binary file?", file=label)
    return text
