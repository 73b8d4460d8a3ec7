"""Designs as large as each ruleset's size limits allow, grown from its samples.

For the search budget of ``check --suggest`` and ``fix`` (a test holds the largest design
of each ruleset to it, and bench/bench_suggest.py times it): every list of entries of a
sample (mappings: a gun, a crew member) is filled to ``entries`` (or to its own limit,
whichever is smaller) with copies of its own entries, in every nested list too; lists of
catalog ids (stations) stay as they are, as an id may be listed once.

Every non-empty map is filled too, with copies of its first value: a map whose keys the
ruleset resolves to catalog ids (``CATALOG_KEYS``: Cluster Falk's skills, Wing Commander's
pilot skills) to every id of that kind, as a key unknown to the catalog is refused and an
id may be given once; any other map (Space Fighter Alpha's budgets and options, Future
Perfect's augmented AP) to ``entries`` keys, at most its limit, named "KEY 2", "KEY 3" ...
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def collections(design_model: Any) -> list[tuple[str, str, int | None]]:
    """Every list and map of the model: ``("list" | "map", path, limit or None)``, by field
    path (``crew[].skills``: each crew member's skills)."""
    schema = design_model.model_json_schema()
    defs = schema.get("$defs", {})
    found: list[tuple[str, str, int | None]] = []

    def visit(node: dict[str, Any], path: str, seen: frozenset[str]) -> None:
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[-1]
            if name not in seen:
                visit(defs[name], path, seen | {name})
            return
        for key in ("anyOf", "oneOf", "allOf"):
            for sub in node.get(key, []):
                visit(sub, path, seen)
        if node.get("type") == "array":
            found.append(("list", path, node.get("maxItems")))
            visit(node.get("items", {}), path + "[]", seen)
        extra = node.get("additionalProperties")
        if node.get("type") == "object" and isinstance(extra, dict):
            found.append(("map", path, node.get("maxProperties")))
            visit(extra, path + ".*", seen)
        for name, sub in node.get("properties", {}).items():
            visit(sub, f"{path}.{name}" if path else name, seen)

    visit(schema, "", frozenset())
    return found


def list_limits(design_model: Any) -> dict[str, int]:
    """The limit of every list field of the model, by field path."""
    return {path: int(limit) for kind, path, limit in collections(design_model) if kind == "list" and limit}


def map_limits(design_model: Any) -> dict[str, int]:
    """The limit of every map field of the model, by field path."""
    return {path: int(limit) for kind, path, limit in collections(design_model) if kind == "map" and limit}


# Maps whose keys the ruleset resolves to catalog ids (a key the catalog does not know is
# refused on loading): by ruleset, the map's path and the catalog kind of its keys.
CATALOG_KEYS: dict[str, dict[str, str]] = {
    "cluster-falk": {"skills": "ship_skills", "crew[].skills": "crew_skills"},
    "wing-commander": {"pilot.skills": "skills"},
}


def grown(
    design: dict[str, Any],
    limits: dict[str, int],
    entries: int | None,
    maps: dict[str, int] | None = None,
    map_keys: dict[str, list[str]] | None = None,
) -> dict[str, Any]:
    """``design`` with every non-empty list filled (or cut) to ``entries``, at most its limit;
    ``entries=None``: every list to its limit. Every non-empty map of ``maps`` (path: limit)
    the same, its keys from ``map_keys`` (path: every key the ruleset allows) when given there."""
    maps, map_keys = maps or {}, map_keys or {}

    def visit(node: Any, path: str) -> Any:
        if isinstance(node, dict) and node and path in maps:
            filled = _filled_map(node, maps[path], entries, map_keys.get(path))
            return {k: visit(v, path + ".*") for k, v in filled.items()}
        if isinstance(node, dict):
            return {k: visit(v, f"{path}.{k}" if path else k) for k, v in node.items()}
        if isinstance(node, list) and node and path in limits and all(isinstance(e, dict) for e in node):
            size = limits[path] if entries is None else min(entries, limits[path])
            items = [_copy(node[i % len(node)], i // len(node)) for i in range(size)]
            return [visit(item, path + "[]") for item in items]
        return node

    return visit(design, "")  # type: ignore[no-any-return]


def _filled_map(node: dict[str, Any], limit: int, entries: int | None, allowed: list[str] | None) -> dict[str, Any]:
    """A map filled (or cut) to ``entries`` keys, at most ``limit``: with every allowed key
    (keys of the catalog, each once), or with new keys "KEY 2", "KEY 3" ... of the first key."""
    size = limit if entries is None else min(entries, limit)
    first_key, first = next(iter(node.items()))
    if allowed is not None:
        keys = list(dict.fromkeys([*node, *allowed]))[: max(size, 0)]
        return {k: copy.deepcopy(node.get(k, first)) for k in keys}
    out = dict(list(node.items())[:size])
    n = 2
    while len(out) < size:
        key = f"{first_key} {n}"
        if key not in out:
            out[key] = copy.deepcopy(first)
        n += 1
    return out


def _copy(entry: dict[str, Any], round_: int) -> dict[str, Any]:
    """A copy of a list entry; a named one renamed "NAME 2", "NAME 3" ... (names are unique)."""
    new = copy.deepcopy(entry)
    if round_ and isinstance(new.get("name"), str):
        new["name"] = f"{new['name']} {round_ + 1}"
    return new


# Per ruleset, a design that breaks a rule and stays broken when grown (a search for fixes
# runs only on a design that does not pass): a sample, or a record of the hostile corpus.
CORPUS = ROOT / "tests" / "corpus" / "bad"
FAILING_SEEDS = {
    "space-fighter-alpha": ROOT / "catalogs" / "space-fighter-alpha" / "examples" / "alien-disk-fighter.ship",
    "space-fury": ROOT / "catalogs" / "space-fury" / "examples" / "gunship.ship",
    "future-perfect": ROOT / "catalogs" / "future-perfect" / "examples" / "damaged-frigate.ship",
    "cluster-falk": ROOT / "catalogs" / "cluster-falk" / "examples" / "dominion-carrier.ship",
    "wing-commander": CORPUS / "wc-empty-loadout.ship",
}
# What breaks a seed that passes as written (as tests/corpus/bad/cluster-falk/rules/
# rating-above-legendary.ship does: a rating above Legendary).
BREAKS: dict[str, dict[str, Any]] = {"cluster-falk": {"ratings": {"drives": 2, "guns": 9, "shields": 6, "systems": 5}}}


def largest_failing(ruleset: str, entries: int | None = None) -> dict[str, Any]:
    """The ruleset's failing seed design, every list of entries grown to ``entries`` (None: its limit)."""
    from shipyard.core.registry import ruleset_module

    doc = json.loads(FAILING_SEEDS[ruleset].read_text(encoding="utf-8"))
    model = ruleset_module(ruleset).Design
    body = {**doc["design"], **BREAKS.get(ruleset, {})}
    return {**doc, "design": grown(body, list_limits(model), entries, map_limits(model), catalog_keys(ruleset))}


def catalog_keys(ruleset: str) -> dict[str, list[str]]:
    """Every key each catalog-keyed map of the ruleset allows (its catalog's ids of that kind)."""
    from shipyard.core.catalog import load_catalog

    kinds = CATALOG_KEYS.get(ruleset, {})
    if not kinds:
        return {}
    catalog = load_catalog(ruleset, use_user_folder=False)
    return {path: list(catalog.kind(kind)) for path, kind in kinds.items()}


FURY_SAMPLES = ROOT / "catalogs" / "space-fury" / "examples"


def fury_force(n: int, first: dict[str, Any] | None = None) -> dict[str, Any]:
    """A Space Fury force document of ``n`` sample fighters, each flown by a pilot of its own,
    and ``n`` reserve pilots; ``first``: the body of the first fighter instead of a sample's."""
    samples = [json.loads(p.read_text(encoding="utf-8"))["design"] for p in sorted(FURY_SAMPLES.glob("*.ship"))]
    fighters = []
    for i in range(n):
        d = {k: v for k, v in samples[i % len(samples)].items() if k not in ("published", "notes", "kind")}
        d["name"] = f"{d['name']} {i + 1}"
        d["pilot"] = {"name": f"Pilot {i + 1}", "xp": 3, "skills": ["Basic Combat Pilot", "Speed"]}
        fighters.append(d)
    if first is not None and fighters:
        fighters[0] = {k: v for k, v in first.items() if k not in ("published", "notes", "kind")}
    pilots = [{"name": f"Reserve {i + 1}", "xp": 1, "skills": ["Basic Combat Pilot"]} for i in range(n)]
    return {
        "format_version": 2,
        "ruleset": "space-fury",
        "preset": "as-written",
        "design": {"name": f"Force {n}", "kind": "force", "fighters": fighters, "pilots": pilots},
    }


def largest_failing_force(entries: int | None = None) -> dict[str, Any]:
    """Space Fury's largest design: a force with as many fighters and reserve pilots as its
    lists allow (``entries``: that many), the first fighter Space Fury's failing seed grown
    as :func:`largest_failing` grows it (so the force breaks a rule and a search runs)."""
    from shipyard.core.registry import ruleset_module

    limits = list_limits(ruleset_module("space-fury").Design)
    n = min(limits["fighters"], limits["pilots"]) if entries is None else entries
    return fury_force(n, first=largest_failing("space-fury", entries)["design"])
