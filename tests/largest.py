"""Designs as large as each ruleset's size limits allow, grown from its samples.

For the search budget of ``check --suggest`` and ``fix`` (a test holds the largest design
of each ruleset to it, and bench/bench_suggest.py times it): every list of a sample is
of entries (mappings: a gun, a crew member) is filled to ``entries`` (or to its own limit,
whichever is smaller) with copies of its own entries, in every nested list too; lists of
catalog ids (stations) stay as they are, as an id may be listed once.
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


def grown(design: dict[str, Any], limits: dict[str, int], entries: int | None) -> dict[str, Any]:
    """``design`` with every non-empty list filled (or cut) to ``entries``, at most its limit;
    ``entries=None``: every list to its limit."""

    def visit(node: Any, path: str) -> Any:
        if isinstance(node, dict):
            return {k: visit(v, f"{path}.{k}" if path else k) for k, v in node.items()}
        if isinstance(node, list) and node and path in limits and all(isinstance(e, dict) for e in node):
            size = limits[path] if entries is None else min(entries, limits[path])
            items = [_copy(node[i % len(node)], i // len(node)) for i in range(size)]
            return [visit(item, path + "[]") for item in items]
        return node

    return visit(design, "")  # type: ignore[no-any-return]


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
    limits = list_limits(ruleset_module(ruleset).Design)
    return {**doc, "design": grown({**doc["design"], **BREAKS.get(ruleset, {})}, limits, entries)}
