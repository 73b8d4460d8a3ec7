"""Places in a design as a person names them on a command line: ``weapons[Heavy Laser].count``.

A finding's path (``weapons[1].count``) counts entries from 0; a person scripting a
fleet knows the entry by its name. :func:`resolve` turns a named path into the path the
edits take: an entry by its name or catalog item (``[Heavy Laser]``, ``[heavy-laser]``),
by its position as findings give it (``[1]``) or as the editor counts it (``[#2]``); a
field or map key as written or in other case and spacing (``fire-link``, ``Fire_Link``).
A place that does not exist is refused with the places that do, closest first. Pure and
ruleset-neutral: it reads the design's JSON and the catalog's item names.
"""

from __future__ import annotations

import difflib
import json
import re
from typing import TYPE_CHECKING, Any

from shipyard.core.errors import InputError
from shipyard.core.paths import join_path
from shipyard.core.placewords import entry_name
from shipyard.core.suggest import normalise
from shipyard.core.termtext import quote, shorten

if TYPE_CHECKING:
    from shipyard.core.model import Catalog

_PART = re.compile(r"\[([^\]]*)\]|([^.\[\]]+)|(\.)")
SHOWN = 8  # how many places a refusal lists


def split(path: str) -> list[tuple[str, bool]]:
    """``weapons[Heavy Laser].count`` -> [("weapons", False), ("Heavy Laser", True), ("count", False)]."""
    out: list[tuple[str, bool]] = []
    pos = 0
    for m in _PART.finditer(path):
        if m.start() != pos:
            break
        pos = m.end()
        if m.group(3) is None:
            out.append((m.group(1), True) if m.group(1) is not None else (m.group(2).strip(), False))
    if pos != len(path) or not out or any(not text for text, _ in out):
        raise InputError.single(
            f"not a place in a design: {quote(path)}",
            path=path,
            allowed="field names joined by '.', list entries in brackets: weapons[Heavy Laser].count, weapons[0].count",
        )
    return out


def resolve(path: str, data: Any, catalog: Catalog, *, new_key: bool = True) -> str:
    """The edit path (``weapons[0].count``) of a named path in ``data`` (the design's full JSON dump).

    ``new_key``: the last part may name a key not in the design yet (a map's new entry;
    the design model decides whether it may be there)."""
    parts = split(path)
    node, done = data, list[str | int]()
    for i, (text, bracket) in enumerate(parts):
        last = i == len(parts) - 1
        if isinstance(node, list) and bracket:
            index = _entry(text, node, catalog, join_path(done), path)
            done.append(index)
            node = node[index]
        elif isinstance(node, dict) and not bracket:
            key = _key(text, node)
            if key is None:
                if last and new_key:
                    done.append(text)
                    return join_path(done)
                raise _refused(path, data, catalog, done, text)
            done.append(key)
            node = node[key]
        else:
            raise _refused(path, data, catalog, done, text)
    return join_path(done)


def _key(text: str, node: dict[str, Any]) -> str | None:
    if text in node:
        return text
    wanted = normalise(text)
    return next((k for k in node if normalise(k) == wanted), None)


def _entry(text: str, entries: list[Any], catalog: Catalog, where: str, path: str) -> int:
    """The index of the entry ``text`` names: a position, a name, an id."""
    digits = text.removeprefix("#")
    if digits.isascii() and digits.isdigit():
        # a position past any list's length (thousands of digits, which int() refuses) is simply none there
        index = -1 if len(digits) > 9 else int(digits) - 1 if text.startswith("#") else int(digits)
        if 0 <= index < len(entries):
            return index
        raise InputError.single(
            f"{where} has {len(entries)} entr{'y' if len(entries) == 1 else 'ies'}; there is no entry {shorten(text)}",
            path=path,
            allowed=f"0 to {len(entries) - 1}, #1 to #{len(entries)}, or an entry's name" if entries else "none",
        )
    wanted = normalise(text)
    hits = [i for i, e in enumerate(entries) if wanted in {normalise(n) for n in _names(e, catalog)}]
    if len(hits) == 1:
        return hits[0]
    names = [entry_name(e, catalog) or f"#{i + 1}" for i, e in enumerate(entries)]
    if hits:
        raise InputError.single(
            f"{len(hits)} entries of {where} are named {quote(text)}: say which by position",
            path=path,
            allowed=", ".join(f"{where}[{i}]" for i in hits),
        )
    raise InputError.single(
        f"{where} has no entry {quote(text)}",
        path=path,
        allowed=", ".join(names) if names else "none (the list is empty)",
    )


def _names(entry: Any, catalog: Catalog) -> set[str]:
    """What names an entry: its name, its own words (ids), and their catalog items' names and aliases."""
    values = entry.values() if isinstance(entry, dict) else [entry]
    out = {entry_name(entry, catalog), *(v for v in values if isinstance(v, str))}
    for value in [v for v in out if v]:
        for kind in catalog.items:
            item = catalog.item(kind, value)
            if item is not None:
                out |= {item.name, *item.aliases}
    return {n for n in out if n}


def named_paths(data: Any, catalog: Catalog, base: list[str | int] | None = None) -> list[str]:
    """Every place in ``data``, entries by name where the name is unique in its list."""
    out: list[str] = []
    base = base or []

    def walk(node: Any, prefix: str) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                here = f"{prefix}.{key}" if prefix else key
                out.append(here)
                walk(value, here)
        elif isinstance(node, list):
            names = [entry_name(e, catalog) for e in node]
            for i, entry in enumerate(node):
                unique = names[i] and names.count(names[i]) == 1 and "]" not in names[i]
                here = f"{prefix}[{names[i] if unique else i}]"
                out.append(here)
                walk(entry, here)

    node = data
    for part in base:
        node = node[part]
    walk(node, _named_prefix(data, catalog, base))
    return out


def _named_prefix(data: Any, catalog: Catalog, parts: list[str | int]) -> str:
    text, node = "", data
    for part in parts:
        if isinstance(part, int):
            names = [entry_name(e, catalog) for e in node]
            name = names[part]
            text += f"[{name if name and names.count(name) == 1 and ']' not in name else part}]"
        else:
            text += f".{part}" if text else part
        node = node[part]
    return text


def _refused(path: str, data: Any, catalog: Catalog, done: list[str | int], text: str) -> InputError:
    """No such place: the places there are under the deepest part that exists, closest first."""
    prefix = _named_prefix(data, catalog, done)

    def rank(candidate: str) -> tuple[int, float]:
        tail = split(candidate[len(prefix) :].lstrip("."))
        close = difflib.SequenceMatcher(None, normalise(text), normalise(tail[-1][0])).ratio()
        return len(tail), -close  # the places right here first, each level closest first

    ranked = sorted(named_paths(data, catalog, done), key=rank)
    where = f" under {_named_prefix(data, catalog, done)}" if done else ""
    return InputError.single(
        f"no such place in the design: {shorten(path)} ({quote(text)} is not a place{where})",
        path=path,
        allowed=", ".join(ranked[:SHOWN]) + (", ..." if len(ranked) > SHOWN else ""),
    )


def parse_value(text: str, current: Any) -> Any:
    """A value as typed: JSON where the place holds a number, true/false, a list or an
    object (``4``, ``true``, ``null`` to clear an optional place), the text itself where it
    holds text (``name=Red Five``; ``"4"`` in JSON quotes is text too)."""
    from shipyard.core.designfile import DuplicateKey, no_duplicate_keys

    try:
        parsed = json.loads(text, object_pairs_hook=no_duplicate_keys)
    except DuplicateKey as exc:  # as a design file's reader refuses it
        raise InputError.single(f"malformed JSON: the key {quote(exc.args[0])} appears twice in one object") from None
    except RecursionError:
        raise InputError.single("malformed JSON: nested too deeply") from None
    except json.JSONDecodeError as exc:
        if isinstance(current, list | dict) and text.lstrip().startswith(("[", "{")):  # a list or object, mistyped
            where = (
                "it ends before the list or object is closed (a ] or } is missing)"
                if exc.pos >= len(text)
                else f"{exc.msg} at character {exc.pos + 1} of {len(text)}"
            )
            raise InputError.single(
                f"malformed JSON in the value: {where}",
                allowed="a JSON list [...] or object {...}, whole, in single quotes so the shell keeps it",
            ) from None
        return text
    except ValueError:
        return text
    if isinstance(current, str) and not isinstance(parsed, str) and parsed is not None:
        return text
    return parsed
