"""Small pictures of the designs' art, kept in the hangar's index beside the entries.

A thumbnail is kept by what it shows: the design's content hash, and for a picture in a
file beside the design that file's modification time and size too (the design may stay
as it is while its picture is replaced). The index keeps either the PNG or why there is
none ("the process drawing it crashed ..."), so a broken or hostile picture costs its own
thumbnail once and is not tried again until it changes.

This module draws nothing: the caller passes the drawing (the editor's picture worker,
:func:`shipyard.render.art.thumbnail`, a process of its own), so the hangar stays apart
from rendering, and no picture is decoded in the caller's process.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from shipyard.core.errors import InputError

if TYPE_CHECKING:
    from shipyard.core.artcheck import Art
    from shipyard.hangar.index import Index

BOX = (64, 48)
"""The thumbnail's box in pixels: a list row's height shows it whole."""

Draw = Callable[["Art", tuple[int, int]], "bytes | str"]


def thumb_key(entry: dict[str, Any]) -> str | None:
    """What the thumbnail of ``entry`` (a design as ``find --json`` gives it) is kept by;
    None when the design has no art."""
    art, digest = entry.get("art"), entry.get("hash")
    if not art or not digest:
        return None
    if art == "embedded":
        return str(digest)
    try:
        st = (Path(entry["file"]).parent / art).stat()
    except (OSError, ValueError):
        return f"{digest}:missing"
    return f"{digest}:{st.st_mtime_ns}:{st.st_size}"


def stored(index: Index, keys: Iterable[str]) -> dict[str, tuple[bytes | None, str | None]]:
    """The thumbnails kept of ``keys``: key -> (PNG, or None and why)."""
    wanted = list(dict.fromkeys(keys))
    out: dict[str, tuple[bytes | None, str | None]] = {}
    for i in range(0, len(wanted), 500):
        part = wanted[i : i + 500]
        for key, png, problem in index.db.execute(
            f"SELECT key, png, problem FROM thumbs WHERE key IN ({', '.join('?' * len(part))})", part
        ):
            out[key] = (png, problem)
    return out


def missing(index: Index) -> list[tuple[str, dict[str, Any]]]:
    """(key, entry) of every indexed design with art and no thumbnail kept yet."""
    entries = index.rows("art IS NOT NULL AND problem IS NULL")
    keyed = [(k, e) for e in entries if (k := thumb_key(e)) is not None]
    have = stored(index, [k for k, _ in keyed])
    return [(k, e) for k, e in keyed if k not in have]


def draw_one(entry: dict[str, Any], draw: Draw) -> tuple[bytes | None, str | None]:
    """The thumbnail of one design's art (PNG, None) or why there is none (None, reason):
    the design file read again for its ``art``, the picture checked by the core, drawn by ``draw``."""
    from shipyard.core.artcheck import read_art
    from shipyard.core.designfile import MAX_DESIGN_BYTES, parse_document
    from shipyard.core.usertext import decode, read_limited

    file = Path(entry["file"])
    try:
        doc = parse_document(decode(read_limited(file, str(file), MAX_DESIGN_BYTES, "a design file"), str(file)))
        body = doc.get("design")
        ref = body.get("art") if isinstance(body, dict) else None
        if not isinstance(ref, str) or not ref:
            return None, "the design has no art"
        art = read_art(ref, file)
    except InputError as exc:
        return None, str(exc.problems[0].message)
    except (OSError, ValueError) as exc:
        return None, f"the design file cannot be read again: {exc}"
    made = draw(art, BOX)
    return (made, None) if isinstance(made, bytes) else (None, made)


def store(index: Index, key: str, digest: str, png: bytes | None, problem: str | None) -> None:
    index.db.execute(
        "INSERT OR REPLACE INTO thumbs (key, hash, png, problem) VALUES (?, ?, ?, ?)", (key, digest, png, problem)
    )


def make_missing(index: Index, draw: Draw, stop: Callable[[], bool] = lambda: False) -> int:
    """Draw and keep every thumbnail the index lacks (until ``stop`` says so); how many were made."""
    made = 0
    for key, entry in missing(index):
        if stop():
            break
        png, problem = draw_one(entry, draw)
        store(index, key, str(entry["hash"]), png, problem)
        made += 1
    return made
