"""A place in a design named as the user sees it: "Weapons, Light Laser: fire-link group".

Findings, fix proposals and undo steps carry paths (``weapons[0].fire_link``); a user
never sees those. :func:`place` names the place with the words of the ruleset's declared
form (its labels, the list's name for an entry, the column's label), the catalog's item
names for the entries, and the catalog's stats and pools where the form has no label.
Pure, like :mod:`shipyard.core.formview`: the editor and any other front end use it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from shipyard.core.errors import Problem
from shipyard.core.paths import join_path, parse_path, value_at
from shipyard.core.placewords import Parts, entry_name, words

if TYPE_CHECKING:
    from shipyard.core.form import Form
    from shipyard.core.model import Catalog

SEVERITY_WORD = {"error": "ERROR", "warning": "WARNING", "advice": "ADVICE"}


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
        return words(path)
    if form is not None:
        from shipyard.core.formplaces import by_form

        named = by_form(form, catalog, data, target)
        if named is not None:
            return named
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


# What the design model's checks say, in a player's words (the checks' own phrases are a
# programmer's: "Field required", "String should have at least 1 character").
_CHECK_WORDS = [
    (re.compile(r"^Field required$"), "cannot be left empty"),
    (re.compile(r"^String should have at least 1 character$"), "cannot be left empty"),
    (re.compile(r"^String should have at most (\d+) characters?$"), r"is at most \1 characters long"),
    (re.compile(r"^Input should be greater than or equal to (\S+)$"), r"is at least \1"),
    (re.compile(r"^Input should be greater than (\S+)$"), r"is more than \1"),
    (re.compile(r"^Input should be less than or equal to (\S+)$"), r"is at most \1"),
    (re.compile(r"^Input should be less than (\S+)$"), r"is less than \1"),
    (re.compile(r"^Input should be a valid (integer|number).*$"), "must be a number"),
    (re.compile(r"^Input should be (.+)$"), r"must be \1"),
    (re.compile(r"^Value error, (.+)$"), r"\1"),
]


def refusal_text(problems: list[Problem], catalog: Catalog, data: Any) -> str:
    """Why an edit was refused, in a player's words: each problem's place as the form
    names it ("Crew, Gunner Ashe: station") and what is wrong, never a path or a check's
    own phrase. ``data`` is the design as JSON, as it was before the edit."""
    out = []
    for problem in problems:
        message = problem.message
        for pattern, said in _CHECK_WORDS:
            if pattern.match(message):
                message = pattern.sub(said, message)
                break
        message = _QUOTED_ID.sub(lambda m: _item_name(m.group(1), catalog) or m.group(0), message)
        where = place(problem.path, catalog, data) if problem.path else ""
        if not where:
            out.append(message[:1].upper() + message[1:])
        elif message.startswith(("cannot ", "is ", "must ")):  # "Crew, Ashe: name cannot be left empty"
            out.append(f"{where} {message}")
        else:
            out.append(f"{where}: {message}")
    return "; ".join(out)


_QUOTED_ID = re.compile(r"'([a-z0-9]+(?:-[a-z0-9]+)*)'")  # a catalog id as a check quotes it: 'command-deck'


def _item_name(item_id: str, catalog: Catalog) -> str:
    """The name a player knows the catalog item ``item_id`` by ("Command deck"); "" when no
    kind of the catalog has one of that id, or kinds differ on its name."""
    names = {item.name for items in catalog.items.values() if (item := items.get(item_id)) is not None}
    return next(iter(names)) if len(names) == 1 else ""


def _plain_words(target: Parts, catalog: Catalog, data: Any) -> str:
    """A place no form declares, in the form's style: "Enhancements, Turbo Laser: count"."""
    head, tail = "", list[str]()
    for i, part in enumerate(target):
        if isinstance(part, int):
            entry = value_at(data, join_path(target[: i + 1]))
            name = entry_name(entry, catalog) or f"#{part + 1}"
            before = " ".join(tail) if not head else (f"{head}: {' '.join(tail)}" if tail else head)
            head, tail = (f"{before}, {name}" if before else name), []
        else:
            tail.append(words(part))
    text = (f"{head}: {' '.join(tail)}" if tail else head) if head else " ".join(tail)
    return text[:1].upper() + text[1:]
