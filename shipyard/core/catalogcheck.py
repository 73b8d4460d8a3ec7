"""The cross-entry checks of a catalog: the pools, scales and names an entry uses exist and
are unambiguous, each problem placed at the entry that has it. Run when a catalog is built
and again on each preset applied to it (a preset may change what an entry uses).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from shipyard.core.errors import Problem
from shipyard.core.items import item_refs
from shipyard.core.model import Catalog
from shipyard.core.suggest import did_you_mean, normalise
from shipyard.core.termtext import quote

if TYPE_CHECKING:
    pass

BUDGET_WITHOUT_SCALES = "all"  # a pool's budget key in a ruleset without scales


def check_items(catalog: Catalog) -> list[tuple[str, str, Problem]]:
    """Cross-entry checks: pools, scales and names an entry uses must exist and be unambiguous."""
    found: list[tuple[str, str, Problem]] = []
    pool_ids = {p.id for p in catalog.pools}

    def where(kind: str, item_id: str) -> tuple[str | None, int | None]:
        o = catalog.origins.get((kind, item_id))
        return (str(o.file), o.line) if o else (None, None)

    for kind, bucket in catalog.items.items():
        seen: dict[str, str] = {}
        for key_id, item in bucket.items():
            f, ln = where(kind, key_id)
            if item.id != key_id:
                found.append((kind, key_id, Problem(f"{kind} {key_id!r} may not change its id to {item.id!r}", f, ln)))
            pool = getattr(item, "pool", None)
            if pool is not None and pool not in pool_ids:
                found.append(
                    (
                        kind,
                        key_id,
                        Problem(
                            f"{kind} {item.id!r} names unknown pool {pool!r}",
                            f,
                            ln,
                            allowed=", ".join(sorted(pool_ids)),
                        ),
                    )
                )
            for scale in getattr(item, "scales", None) or []:
                if catalog.scales is None or catalog.scales.parse(scale) is None:
                    found.append(
                        (
                            kind,
                            key_id,
                            Problem(
                                f"{kind} {item.id!r} names unknown scale {scale!r}",
                                f,
                                ln,
                                allowed=", ".join(catalog.scales.ids()) if catalog.scales else "none: no scales",
                            ),
                        )
                    )
            for ref_kind, ref_id, ref_path in item_refs(item):
                if catalog.item(ref_kind, ref_id) is None:
                    hint = did_you_mean(ref_id, catalog.kind(ref_kind))
                    message = f"{kind} {item.id!r}: {ref_path} names unknown {ref_kind} {quote(ref_id)}"
                    found.append((kind, key_id, Problem(f"{message}; {hint}".rstrip("; "), f, ln)))
            for name in (item.id, item.name, *item.aliases):
                n = normalise(name)
                if n in seen and seen[n] != item.id:
                    found.append(
                        (
                            kind,
                            key_id,
                            Problem(
                                f"{kind} name {name!r} of {item.id!r} is also a name of {seen[n]!r}; "
                                "names must be unambiguous",
                                f,
                                ln,
                            ),
                        )
                    )
                seen.setdefault(n, item.id)
    for pool in catalog.pools:
        if pool.budget_by is not None:
            from shipyard.core.poolchoice import check_pool_choice
            from shipyard.core.schema import design_schema

            f, ln = where("pools", pool.id)
            schema = catalog.form_schema or design_schema(catalog.module.Design)
            found += [("pools", pool.id, replace(p, file=f, line=ln)) for p in check_pool_choice(pool, schema)]
            continue
        for scale in pool.budget:
            if catalog.scales is None:
                if scale != BUDGET_WITHOUT_SCALES:
                    found.append(
                        (
                            "pools",
                            pool.id,
                            Problem(
                                f"pool {pool.id!r} has a budget for scale {scale!r}, but the ruleset has no scales",
                                allowed=BUDGET_WITHOUT_SCALES,
                            ),
                        )
                    )
            elif catalog.scales.parse(scale) is None:
                found.append(("pools", pool.id, Problem(f"pool {pool.id!r} has a budget for unknown scale {scale!r}")))
    return found
