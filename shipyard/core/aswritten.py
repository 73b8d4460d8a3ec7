"""Saving a design the way its file was written: only what changed changes.

A design read from a file is resolved (display names become catalog ids, aliases their
item, defaults are left out when dumped). Writing that resolved form back would turn
"Ejection Seat" into ``ejection-pods`` and drop ``"count": 1`` on every line, so a
one-value fix showed as a diff of the whole file. Instead the file's own document is
kept, and only the places where the design now differs from the design as it was read
are rewritten: a changed number is the only text that changes; an item written by its
name stays named (the new item by its name too); a design re-saved unchanged is the
file's text byte for byte. Pure and ruleset-neutral: it compares JSON values.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from shipyard.core.model import Catalog

_MISSING: Any = object()


@dataclass(frozen=True)
class AsWritten:
    """A design file as it was read: its text, its document, and what saving it then would have written."""

    text: str
    document: dict[str, Any]
    envelope: dict[str, Any]


def kept_text(written: AsWritten, envelope: dict[str, Any], short: dict[str, Any], catalog: Catalog) -> str:
    """The file's text with what ``envelope`` changes made in it, and nothing else changed.

    ``envelope`` and the baseline hold every field (defaults too), so a value written out
    that becomes its default is rewritten in place, not dropped; ``short`` is the same
    envelope without defaults, the form a new entry or field is written in."""
    kept = keep(written.document, written.envelope, envelope, short, catalog)
    return patch_text(written.text, written.document, kept)


def keep(orig: Any, old: Any, new: Any, short: Any, catalog: Catalog) -> Any:
    """``new`` in the words of ``orig``: where the design did not change (``old == new``)
    the value as written; where it did, the new value (an item id by its name, if the
    file named the item it replaces by name). ``short``: ``new`` without its defaults."""
    if old == new:
        return orig
    if isinstance(orig, dict) and isinstance(old, dict) and isinstance(new, dict):
        out: dict[str, Any] = {}
        for key, value in orig.items():
            if key not in new:
                if key not in old:
                    out[key] = value  # not a field the design dumps: kept as written
            elif not (new[key] is None and old.get(key) is not None):  # else cleared: the line goes
                out[key] = keep(value, old.get(key, _MISSING), new[key], _part(short, key), catalog)
        for key, value in new.items():
            brief = _part(short, key)
            if key not in orig and old.get(key, _MISSING) != value and brief is not _MISSING:
                out[key] = brief  # a field no longer at its default, written as saving writes it
        return out
    if isinstance(orig, list) and isinstance(old, list) and isinstance(new, list) and len(orig) == len(old):
        return _keep_list(orig, old, new, short if isinstance(short, list) and len(short) == len(new) else new, catalog)
    if isinstance(new, str) and isinstance(orig, str) and isinstance(old, str) and orig != old:
        return _named(new, catalog)
    return new


def _part(short: Any, key: str) -> Any:
    return short[key] if isinstance(short, dict) and key in short else _MISSING


def _keep_list(orig: list[Any], old: list[Any], new: list[Any], short: list[Any], catalog: Catalog) -> list[Any]:
    """Entries kept, changed, added or removed: the ones that stayed are kept as written."""
    keys = [json.dumps(e, sort_keys=True) for e in old], [json.dumps(e, sort_keys=True) for e in new]
    out: list[Any] = []
    for op, a0, a1, b0, b1 in difflib.SequenceMatcher(None, *keys, autojunk=False).get_opcodes():
        if op == "equal":
            out += orig[a0:a1]
        elif op == "replace" and a1 - a0 == b1 - b0:
            out += [keep(orig[a0 + i], old[a0 + i], new[b0 + i], short[b0 + i], catalog) for i in range(b1 - b0)]
        else:
            out += short[b0:b1]
    return out


def _named(item_id: str, catalog: Catalog) -> str:
    """A catalog id by its item's name (the file named the item it replaces so)."""
    for kind in catalog.items:
        item = catalog.item(kind, item_id)
        if item is not None and item.id == item_id:
            return str(item.name)
    return item_id


def patch_text(text: str, before: Any, after: Any) -> str:
    """``text`` (the JSON of ``before``) with each value that differs in ``after`` rewritten in place.

    A changed value's text is replaced where it stands, indented as its line is; an
    object that gains or loses keys, or a list that changes length, is rewritten whole.
    Everything else (spacing, key order, how numbers were written) stays as it was, the
    file's line ends too: what is rewritten in a file written with CRLF (Windows) ends its
    lines with CRLF, where it had LF lines in a CRLF file.
    """
    if before == after:
        return text
    eol = "\r\n" if "\r\n" in text else "\n"
    spans = _Spans(text)
    try:
        spans.value(0, [])
        edits: list[tuple[int, int, str]] = []
        _changes(before, after, (), spans.at, text, edits, eol)
    except (ValueError, IndexError, KeyError):  # not the JSON it was read as: write it anew
        return json.dumps(after, indent=2, ensure_ascii=False).replace("\n", eol) + eol
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def _changes(
    before: Any,
    after: Any,
    path: tuple[Any, ...],
    at: dict[tuple[Any, ...], tuple[int, int]],
    text: str,
    out: list[Any],
    eol: str = "\n",
) -> None:
    if before == after and type(before) is type(after):
        return
    if isinstance(before, dict) and isinstance(after, dict) and list(before) == list(after):
        for key in before:
            _changes(before[key], after[key], (*path, key), at, text, out, eol)
        return
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for i, (b, a) in enumerate(zip(before, after, strict=True)):
            _changes(b, a, (*path, i), at, text, out, eol)
        return
    start, end = at[path]
    line = text[text.rfind("\n", 0, start) + 1 : start]
    indent = line[: len(line) - len(line.lstrip())]
    new = json.dumps(after, indent=2, ensure_ascii=False).replace("\n", eol + indent)
    out.append((start, end, new))


class _Spans:
    """Where each value of a JSON text starts and ends, by its path (keys and indexes)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at: dict[tuple[Any, ...], tuple[int, int]] = {}
        self.decoder = json.JSONDecoder()

    def _skip(self, i: int) -> int:
        while self.text[i] in " \t\r\n":
            i += 1
        return i

    def value(self, i: int, path: list[Any]) -> int:
        i = self._skip(i)
        start, c = i, self.text[i]
        if c == "{":
            i = self._skip(i + 1)
            while self.text[i] != "}":
                key, i = json.decoder.scanstring(self.text, self._skip(i) + 1)  # type: ignore[attr-defined]
                i = self._skip(self._skip(i) + 1)  # the colon
                i = self._skip(self.value(i, [*path, key]))
                if self.text[i] == ",":
                    i = self._skip(i + 1)
            i += 1
        elif c == "[":
            i, n = self._skip(i + 1), 0
            while self.text[i] != "]":
                i = self._skip(self.value(i, [*path, n]))
                n += 1
                if self.text[i] == ",":
                    i = self._skip(i + 1)
            i += 1
        else:
            _, i = self.decoder.raw_decode(self.text, i)
        self.at[tuple(path)] = (start, i)
        return i
