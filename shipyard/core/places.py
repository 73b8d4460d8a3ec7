"""A place in a design named as the user sees it: "Weapons, Light Laser: fire-link group".

Findings, fix proposals and undo steps carry paths (``weapons[0].fire_link``); a user
never sees those. :func:`place` names the place with the words of the ruleset's declared
form (its labels, the list's name for an entry, the column's label), the catalog's item
names for the entries, and the catalog's stats and pools where the form has no label.
Pure, like :mod:`shipyard.core.formview`: the editor and any other front end use it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shipyard.core.form import BudgetsRef, FieldDecl, ListDecl, MapDecl, Section
from shipyard.core.formview import help_text, value_at
from shipyard.core.paths import parse_path

if TYPE_CHECKING:
    from shipyard.core.form import Form
    from shipyard.core.model import Catalog

Parts = list[str | int]
SEVERITY_WORD = {"error": "ERROR", "warning": "WARNING", "advice": "ADVICE"}


def plain(label: str) -> str:
    """A label without its accelerator marks ("&Name" -> "Name", "R&&D" -> "R&D")."""
    return label.replace("&&", "\0").replace("&", "").replace("\0", "&")


def _lower(label: str) -> str:
    """A label inside a sentence: "Fire-link group" -> "fire-link group"; "AI Dex" and
    "Power Points" (names) stay."""
    if len(label) > 1 and label[0].isupper() and not any(c.isupper() for c in label[1:]):
        return label[0].lower() + label[1:]
    return label


def _words(part: str) -> str:
    return part.replace("_", " ").replace("-", " ")


class _Namer:
    def __init__(self, catalog: Catalog, data: Any) -> None:
        self.catalog, self.data = catalog, data

    def label(self, raw: str) -> str:
        return plain(help_text(raw, self.catalog))

    def entry_name(self, decl: ListDecl, where: Parts, index: int) -> str:
        entry = value_at(self.data, _joined(where))
        if decl.catalog is not None and decl.key is not None:
            item_id = entry if decl.key == "." else value_at(entry, decl.key)
            item = self.catalog.item(decl.catalog, str(item_id)) if item_id is not None else None
            if item is not None:
                return item.name
        if decl.name is not None:
            named = entry if decl.name == "." else value_at(entry, decl.name)
            if isinstance(named, str) and named.strip():
                return named.strip()
        if isinstance(entry, str) and entry.strip():
            return entry.strip()
        return f"#{index + 1}"

    def sections(self, sections: list[Section], base: Parts, target: Parts) -> tuple[int, str] | None:
        """The deepest declared place covering ``target``: (how many parts it matched, its name)."""
        best: tuple[int, str] | None = None
        for section in sections:
            if section.optional is not None:
                opt = base + parse_path(section.optional.path)
                if target == opt:
                    best = _better(best, len(opt), self.label(section.optional.label))
            for el in section.fields:
                found = self.element(el, base, target)
                if found is not None:
                    best = _better(best, *found)
        return best

    def element(self, el: Any, base: Parts, target: Parts) -> tuple[int, str] | None:
        if isinstance(el, FieldDecl):
            here = base + _rel(el.path)
            if _starts(target, here):
                rest = target[len(here) :]
                text = self.label(el.label)
                return len(here), text + (f": {_rest_words(rest)}" if rest else "")
        elif isinstance(el, ListDecl):
            return self.list(el, base, target)
        elif isinstance(el, MapDecl):
            here = base + parse_path(el.map)
            if _starts(target, here):
                label = self.label(el.label)
                rest = target[len(here) :]
                if not rest:
                    return len(here), label
                key = str(rest[0])
                item = self.catalog.item(el.keys.catalog, key) if el.keys.catalog else None
                return len(here) + 1, f"{label}: {item.name if item is not None else _words(key)}"
        elif isinstance(el, BudgetsRef):
            here = base + parse_path(el.budgets)
            if _starts(target, here) and len(target) > len(here):
                pool = self.catalog.pool(str(target[len(here)]))
                name = pool.name if pool is not None else _words(str(target[len(here)]))
                return len(here) + 1, f"Storyteller budget: {name}"
        return None

    def list(self, decl: ListDecl, base: Parts, target: Parts) -> tuple[int, str] | None:
        here = base + parse_path(decl.list_)
        if not _starts(target, here):
            return None
        label = self.label(decl.label)
        rest = target[len(here) :]
        if not rest or not isinstance(rest[0], int):
            return len(here), label
        index = rest[0]
        entry = [*here, index]
        named = f"{label}, {self.entry_name(decl, entry, index)}"
        inner = rest[1:]
        if not inner:
            return len(entry), named
        best: tuple[int, str] | None = None
        for col in decl.columns:
            cp = _rel(col.path)
            if cp and _starts(inner, cp):
                extra = inner[len(cp) :]
                text = f"{named}: {_lower(self.label(col.label))}" + (f" ({_rest_words(extra)})" if extra else "")
                best = _better(best, len(entry) + len(cp), text)
        found = self.sections(decl.detail, entry, target)
        if found is not None:
            best = _better(best, found[0], f"{named}: {_lower(found[1])}")
        if best is None:
            return len(entry), f"{named}: {_rest_words(inner)}"
        return best


def _rel(path: str) -> Parts:
    return [] if path == "." else parse_path(path)


def _starts(target: Parts, prefix: Parts) -> bool:
    return target[: len(prefix)] == prefix


def _better(best: tuple[int, str] | None, depth: int, text: str) -> tuple[int, str]:
    return (depth, text) if best is None or depth > best[0] else best


def _joined(parts: Parts) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else p)
    return out


def _rest_words(rest: Parts) -> str:
    return " ".join(_words(p) if isinstance(p, str) else f"#{p + 1}" for p in rest)


def place(path: str, catalog: Catalog, data: Any, form: Form | None = None) -> str:
    """``path`` in the words of the form (``form``, default the catalog's), its catalog
    items and stats: "Weapons, Light Laser: fire-link group", "Armor", "Structure".

    ``data`` is the design as JSON (``design.model_dump(mode="json")``). A path the form
    does not show is named by the catalog's stat of that path, else in plain words.
    """
    if not path:
        return ""
    form = form if form is not None else catalog.form
    try:
        target = parse_path(path)
    except ValueError:
        return _words(path)
    namer = _Namer(catalog, data)
    if form is not None:
        best: tuple[int, str] | None = None
        for page in form.pages:
            found = namer.sections(page.sections, [], target)
            if found is not None:
                best = _better(best, *found)
        if best is not None:
            return best[1]
    stat = next((s for s in catalog.meta.stats if getattr(s, "path", None) == path), None)
    if stat is not None:
        return str(stat.name)
    return _plain_words(target, catalog, data)


def pool_path(path: str, catalog: Catalog) -> bool:
    """Whether ``path`` is where the engine puts a pool's findings (over budget, unspent):
    ``budgets.<pool id>``, the Storyteller's setting for that pool."""
    head, _, pool_id = path.rpartition(".")
    return head == "budgets" and bool(pool_id) and catalog.pool(pool_id) is not None


def finding_text(severity: str, message: str, path: str, catalog: Catalog, data: Any, form: Form | None = None) -> str:
    """A finding in words: "ERROR: <message> — at Weapons, Light Laser: fire-link group".

    A pool's finding names no place: its message names the pool, and the place it is
    kept at (the Storyteller's budget setting) is not what caused it."""
    head = f"{SEVERITY_WORD.get(severity, severity.upper())}: {message}"
    if not path or pool_path(path, catalog):
        return head
    where = place(path, catalog, data, form)
    return f"{head} — at {where}" if where else head


def _plain_words(target: Parts, catalog: Catalog, data: Any) -> str:
    """A place no form declares, in the form's style: "Enhancements, Turbo Laser: count"."""
    head, tail = "", list[str]()
    for i, part in enumerate(target):
        if isinstance(part, int):
            entry = value_at(data, _joined(target[: i + 1]))
            name = entry_name(entry, catalog) or f"#{part + 1}"
            before = " ".join(tail) if not head else (f"{head}: {' '.join(tail)}" if tail else head)
            head, tail = (f"{before}, {name}" if before else name), []
        else:
            tail.append(_words(part))
    text = (f"{head}: {' '.join(tail)}" if tail else head) if head else " ".join(tail)
    return text[:1].upper() + text[1:]


def entry_name(entry: Any, catalog: Catalog) -> str:
    """A list entry's name: its ``name``, else the catalog item one of its values names."""
    if isinstance(entry, str):
        return next((i.name for k in catalog.items if (i := catalog.item(k, entry)) is not None), entry)
    if not isinstance(entry, dict):
        return ""
    name = entry.get("name")
    if isinstance(name, str) and name.strip():
        return name.strip()
    for value in entry.values():
        if isinstance(value, str):
            for kind in catalog.items:
                item = catalog.item(kind, value)
                if item is not None:
                    return item.name
    return ""
