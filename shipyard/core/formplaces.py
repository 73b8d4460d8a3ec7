"""A place in a design named in the words of the ruleset's declared form.

"Weapons, Light Laser: fire-link group": the form's labels, the list's name for an entry,
the column's label, the catalog's item names. Split from :mod:`shipyard.core.places` so
that naming a place without a form (``shipyard compare`` of designs whose findings name
no place, the text of a pool's finding) does not import the form language.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shipyard.core.form import BudgetsRef, FieldDecl, ListDecl, MapDecl, Section
from shipyard.core.formview import help_text
from shipyard.core.paths import join_path, parse_path, value_at
from shipyard.core.placewords import Parts, lower_in_sentence, plain, rest_words, words
from shipyard.core.placewords import entry_name as catalog_name

if TYPE_CHECKING:
    from shipyard.core.form import Form
    from shipyard.core.model import Catalog


def by_form(form: Form, catalog: Catalog, data: Any, target: Parts) -> str | None:
    """The name of the deepest place of ``form`` covering ``target``, or None if it shows none."""
    namer = _Namer(catalog, data)
    best: tuple[int, str] | None = None
    for page in form.pages:
        found = namer.sections(page.sections, [], target)
        if found is not None:
            best = _better(best, *found)
    return best[1] if best is not None else None


class _Namer:
    def __init__(self, catalog: Catalog, data: Any) -> None:
        self.catalog, self.data = catalog, data

    def label(self, raw: str) -> str:
        return plain(help_text(raw, self.catalog))

    def entry_name(self, decl: ListDecl, where: Parts, index: int) -> str:
        entry = value_at(self.data, join_path(where))
        if decl.catalog is not None and decl.key is not None:
            item_id = entry if decl.key == "." else value_at(entry, decl.key)
            item = self.catalog.item(decl.catalog, str(item_id)) if item_id is not None else None
            if item is not None:
                return item.name
        if decl.name is not None:
            named = entry if decl.name == "." else value_at(entry, decl.name)
            if isinstance(named, str) and named.strip():
                return named.strip()
        if isinstance(entry, str) and entry.strip():  # a plain id (a gun a Turret carries): its item's name
            return catalog_name(entry.strip(), self.catalog)
        for col in decl.columns:  # a row named by the catalog item one of its columns picks (an action bought)
            kind = col.choices.catalog if col.choices is not None else None
            item_id = value_at(entry, col.path) if kind is not None and isinstance(entry, dict) else None
            item = self.catalog.item(kind, str(item_id)) if kind is not None and item_id is not None else None
            if item is not None:
                return item.name
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
                return len(here), text + (f": {rest_words(rest)}" if rest else "")
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
                return len(here) + 1, f"{label}: {item.name if item is not None else words(key)}"
        elif isinstance(el, BudgetsRef):
            here = base + parse_path(el.budgets)
            if _starts(target, here) and len(target) > len(here):
                pool = self.catalog.pool(str(target[len(here)]))
                name = pool.name if pool is not None else words(str(target[len(here)]))
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
                text = f"{named}: {lower_in_sentence(self.label(col.label))}" + (
                    f" ({rest_words(extra)})" if extra else ""
                )
                best = _better(best, len(entry) + len(cp), text)
        found = self.sections(decl.detail, entry, target)
        if found is not None:
            best = _better(best, found[0], f"{named}: {lower_in_sentence(found[1])}")
        if best is None:
            return len(entry), f"{named}: {rest_words(inner)}"
        return best


def _rel(path: str) -> Parts:
    return [] if path == "." else parse_path(path)


def _starts(target: Parts, prefix: Parts) -> bool:
    return target[: len(prefix)] == prefix


def _better(best: tuple[int, str] | None, depth: int, text: str) -> tuple[int, str]:
    return (depth, text) if best is None or depth > best[0] else best
