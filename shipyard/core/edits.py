"""Edits to a design as data: set a value at a path, insert or remove a list entry.

An editor (or any tool) changes designs only through these functions: each returns a
new, validated and resolved design, or raises InputError naming the path and what is
allowed. Paths are the ones findings use (``items[1].count``, ``budgets.some-pool``),
so a finding's path leads straight to the field to change.

A rename carries its references: where the catalog's form declares that other fields hold
a list's entries by name (``named_in``: a crew member's station names a turret), setting
an entry's name rewrites every field holding the old name in the same edit, so the
design never names something it no longer has and one undo takes both back.
"""

from __future__ import annotations

import copy
from typing import Any

from pydantic import ValidationError

from shipyard.core.designfile import validation_problems
from shipyard.core.errors import InputError, Problem
from shipyard.core.model import Catalog
from shipyard.core.paths import parse_path
from shipyard.core.usertext import validate_strictly

__all__ = ["apply_all", "get_at", "insert_at", "parse_path", "remove_at", "set_at", "tags_from_text", "tags_text"]


def _container(data: Any, parts: list[str | int], path: str) -> Any:
    node = data
    for part in parts:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            raise InputError.single(f"no such place in the design: {path}", path=path) from None
    return node


def _rebuild(design: Any, data: dict[str, Any], catalog: Catalog, resolve: bool = True, strict: bool = False) -> Any:
    """``data`` validated as the design's model, then resolved. ``strict``: validated exactly as a
    design file is read (:func:`shipyard.core.usertext.validate_strictly`), for values a person
    typed as text (``shipyard set``): ``drv=true`` or ``drv="3"`` is refused, as the file holding
    it is, instead of written as 1 or 3. The editor's widgets give typed values and stay lax."""
    try:
        new = validate_strictly(type(design), data) if strict else type(design).model_validate(data)
    except ValidationError as exc:
        raise InputError(validation_problems(exc, None, ())) from None
    return catalog.module.resolve(new, catalog) if resolve else new


def get_at(design: Any, path: str) -> Any:
    parts = parse_path(path)
    return _container(design.model_dump(mode="json"), parts, path)


def _set(data: Any, path: str, value: Any, *, keep_null: bool = False) -> None:
    parts = parse_path(path)
    if not parts:
        raise InputError([Problem("empty path")])
    parent = _container(data, parts[:-1], path)
    last = parts[-1]
    if isinstance(parent, dict):
        if value is None and not keep_null:
            parent.pop(last, None)
        else:
            parent[last] = copy.deepcopy(value)
    elif isinstance(parent, list) and isinstance(last, int) and 0 <= last < len(parent):
        parent[last] = copy.deepcopy(value)
    else:
        raise InputError.single(f"no such place in the design: {path}", path=path)


def _remove(data: Any, list_path: str, index: int) -> None:
    target = _container(data, parse_path(list_path), list_path)
    if not isinstance(target, list) or not 0 <= index < len(target):
        raise InputError.single(f"no entry {index} in {list_path}", path=f"{list_path}[{index}]")
    del target[index]


def set_at(design: Any, path: str, value: Any, catalog: Catalog, *, strict: bool = False) -> Any:
    """A copy of ``design`` with ``value`` at ``path`` (None removes an optional key); ``strict``:
    the value is taken only if a design file holding it would be read (see :func:`_rebuild`),
    so null only where the place may be null; a
    new name of an entry other fields hold by name is written there too (see the module)."""
    data = design.model_dump(mode="json")
    if strict and value is None:  # null clears a place only where a file may hold null there
        probe = copy.deepcopy(data)
        _set(probe, path, None, keep_null=True)
        _rebuild(design, probe, catalog, strict=True)  # refused in the words a file holding it gets
    holders = _name_holders(path, catalog)
    old = _container(data, parse_path(path), path) if holders and isinstance(value, str) and value.strip() else None
    _set(data, path, value)
    if isinstance(old, str) and old.strip() and isinstance(value, str) and _key(old) != _key(value):
        for holder in holders:
            _rename(data, holder.split("."), old, value)
    return _rebuild(design, data, catalog, strict=strict)


def _name_holders(path: str, catalog: Catalog) -> list[str]:
    """The fields holding the entry's name by which ``path`` names a list's entry, if it does."""
    form = catalog.form if "[" in path else None
    if form is None:
        return []
    for list_path, name, holders in form.renames():
        head, bracket, rest = path.partition("[")
        index, _, field = rest.partition("].")
        if bracket and head == list_path and index.isdigit() and field == name:
            return holders
    return []


def _key(name: str) -> str:
    """A name as the rules compare names: case and surrounding spaces do not count."""
    return name.strip().casefold()


def _rename(node: Any, steps: list[str], old: str, new: str) -> None:
    """Rewrite ``old`` to ``new`` in the fields ``steps`` lead to: ``crew[]`` is every entry
    of a list, ``augmented{}`` the keys of a map, a last step the field holding the name."""
    if not steps or not isinstance(node, dict):
        return
    step, rest = steps[0], steps[1:]
    if step.endswith("{}"):
        mapping = node.get(step[:-2])
        if isinstance(mapping, dict) and not any(_key(k) == _key(new) for k in mapping):
            node[step[:-2]] = {(new if _key(k) == _key(old) else k): v for k, v in mapping.items()}
        return
    if step.endswith("[]"):
        entries = node.get(step[:-2])
        if not isinstance(entries, list):
            return
        for i, entry in enumerate(entries):
            if rest:
                _rename(entry, rest, old, new)
            elif isinstance(entry, str) and _key(entry) == _key(old):
                entries[i] = new
        return
    if rest:
        _rename(node.get(step), rest, old, new)
    elif isinstance(node.get(step), str) and _key(node[step]) == _key(old):
        node[step] = new


def insert_at(design: Any, list_path: str, item: Any, catalog: Catalog, index: int | None = None) -> Any:
    """A copy of ``design`` with ``item`` inserted in the list at ``list_path``."""
    data = design.model_dump(mode="json")
    target = _container(data, parse_path(list_path), list_path)
    if not isinstance(target, list):
        raise InputError.single(f"{list_path} is not a list", path=list_path)
    target.insert(len(target) if index is None else index, copy.deepcopy(item))
    return _rebuild(design, data, catalog)


def remove_at(design: Any, list_path: str, index: int, catalog: Catalog) -> Any:
    data = design.model_dump(mode="json")
    _remove(data, list_path, index)
    return _rebuild(design, data, catalog)


def apply_all(
    design: Any,
    sets: list[tuple[str, Any]],
    removes: list[tuple[str, int]],
    catalog: Catalog,
    *,
    resolve: bool = True,
) -> Any:
    """Several edits as one: values set, then list entries removed (give them last first, so
    each path still points where it did), validated once. ``resolve=False`` skips resolving
    names, for edits that only change numbers and drop entries of a design already resolved."""
    data = design.model_dump(mode="json")
    for path, value in sets:
        _set(data, path, value)
    for list_path, index in removes:
        _remove(data, list_path, index)
    return _rebuild(design, data, catalog, resolve)


def tags_from_text(raw: str, path: str = "tags") -> list[str]:
    """A design file's tags as a person writes them: words or short phrases separated by
    commas (``pirates, raiders``; nothing clears them), or a JSON list; checked as a file's
    tags are (:func:`shipyard.core.designfile.check_tags`), every problem an InputError."""
    import json

    from shipyard.core.designfile import check_tags

    raw = raw.strip()
    if raw.startswith("["):
        try:
            value = json.loads(raw)
        except ValueError:
            raise InputError.single(f"not a JSON list: {raw!r}", path=path, allowed='["pirates", "raiders"]') from None
    else:
        value = [t for t in (w.strip() for w in raw.split(",")) if t]
    return check_tags(value, path=path)


def tags_text(tags: list[str] | tuple[str, ...]) -> str:
    """Tags as :func:`tags_from_text` reads them back."""
    return ", ".join(tags)
