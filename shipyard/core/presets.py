"""Presets applied to a catalog: a preset is data, field overrides on named entries,
validated exactly like the entries themselves, so a house rule can never sneak in an
unknown key. The result passes the same cross-entry checks as the catalog
(:mod:`shipyard.core.catalogcheck`) and is made once per catalog and preset.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from shipyard.core.catalogcheck import check_items
from shipyard.core.errors import InputError, Problem, format_path
from shipyard.core.model import Catalog
from shipyard.core.suggest import did_you_mean
from shipyard.core.termtext import quote
from shipyard.core.usertext import validate_strictly

if TYPE_CHECKING:
    pass


def with_preset(catalog: Catalog, preset_id: str | None) -> Catalog:
    """``catalog`` with ``preset_id`` applied (the ruleset's default when None)."""
    return apply_preset(catalog, preset_id or catalog.meta.default_preset)


def apply_preset(catalog: Catalog, preset_id: str) -> Catalog:
    """A copy of ``catalog`` with the preset's overrides validated and applied.

    Every problem names the preset file and the line of the override at fault, and the
    result must pass the same cross-entry checks as the catalog itself. The result is made
    once per catalog and preset (a catalog does not change): comparing or checking several
    designs of one ruleset, or switching presets back and forth in the editor, does not
    apply and check the same preset again.
    """
    source = catalog.base or catalog
    if preset_id not in source.applied:
        source.applied[preset_id] = _applied(source, preset_id)
    return source.applied[preset_id]


def _applied(catalog: Catalog, preset_id: str) -> Catalog:
    preset = catalog.presets.get(preset_id)
    if preset is None:
        hint = did_you_mean(preset_id, catalog.presets)
        raise InputError.single(
            f"unknown preset {quote(preset_id)} for ruleset {catalog.meta.id!r}" + (f"; {hint}" if hint else ""),
            allowed=", ".join(sorted(catalog.presets)),
        )
    origin = catalog.origins.get(("preset", preset.id))

    def at(section: str, entry_id: str, name: str | None = None) -> tuple[str | None, int | None, int | None]:
        keys = (
            [(preset.id, section, entry_id, name), (preset.id, section, entry_id)]
            if name
            else [(preset.id, section, entry_id)]
        )
        for key in keys:
            pos = catalog.override_positions.get(tuple(k for k in key if k is not None))
            if pos:
                return pos
        return (str(origin.file) if origin else None, origin.line if origin else None, None)

    problems: list[Problem] = []
    source = catalog.base or catalog
    items = {k: dict(v) for k, v in source.items.items()}
    pools = {p.id: p for p in source.pools}
    rules = list(source.rules)
    for section, entries in preset.overrides.items():
        for entry_id, changes in entries.items():
            where = f"preset.overrides.{section}.{entry_id}"
            field_at: str | None = None
            try:
                if "id" in changes:
                    field_at = "id"
                    raise ValueError(
                        "an override may not change an entry's id (add a new item in a user catalog instead)"
                    )
                if section == "pools":
                    if entry_id not in pools:
                        raise ValueError(f"pools has no entry {entry_id!r}; " + did_you_mean(entry_id, pools))
                    pools[entry_id] = _override(pools[entry_id], changes, section, entry_id)
                elif section == "rules":
                    idx = next((i for i, r in enumerate(rules) if r.definition.id == entry_id), None)
                    if idx is None:
                        raise ValueError(
                            f"no rule {entry_id!r}; " + did_you_mean(entry_id, [r.definition.id for r in rules])
                        )
                    rules[idx] = rules[idx].with_changes(changes)
                elif section in items:
                    old = items[section].get(entry_id)
                    if old is None:
                        raise ValueError(
                            f"{section} has no entry {entry_id!r}; " + did_you_mean(entry_id, items[section])
                        )
                    items[section][entry_id] = _override(old, changes, section, entry_id)
                else:
                    raise ValueError(
                        f"unknown section {section!r}; " + did_you_mean(section, [*items, "pools", "rules"])
                    )
            except ValidationError as exc:
                for err in exc.errors():
                    name = str(err["loc"][0]) if err["loc"] else None
                    file, line, col = at(section, entry_id, name)
                    problems.append(
                        Problem(
                            f"cannot apply override: {format_path(err['loc'])}: {err['msg']}", file, line, col, where
                        )
                    )
            except (ValueError, InputError) as exc:
                file, line, col = at(section, entry_id, field_at)
                problems.append(Problem(f"cannot apply override: {_short(exc)}".rstrip("; "), file, line, col, where))
    if problems:
        raise InputError(problems)
    new = Catalog(
        meta=catalog.meta,
        module=catalog.module,
        scales=catalog.scales,
        pools=list(pools.values()),
        rules=rules,
        items=items,
        presets=catalog.presets,
        folders=catalog.folders,
        origins=catalog.origins,
        overrides=catalog.overrides,
        preset=preset,
        base=source,
        override_positions=catalog.override_positions,
        form_schema=catalog.form_schema,
    )
    changed = {(section, entry_id) for section, entries in preset.overrides.items() for entry_id in entries}
    # Only the entries the preset changed can fail here (the rest passed when the catalog
    # was loaded): a preset that changes no item (only pools or rules) needs no check.
    changed_items = {(section, entry_id) for section, entry_id in changed if section in items}
    for kind, item_id, problem in check_items(new) if changed_items else []:
        if (kind, item_id) in changed_items:
            problem.file, problem.line, problem.column = at(kind, item_id)
            problem.path = f"preset.overrides.{kind}.{item_id}"
            problem.message = f"with preset {preset.id!r} applied: {problem.message}"
            problems.append(problem)
    if problems:
        raise InputError(problems)
    return new


def _override(old: BaseModel, changes: dict[str, Any], section: str, entry_id: str) -> Any:
    unknown = set(changes) - set(type(old).model_fields)
    if unknown:
        raise ValueError(
            f"{section} {entry_id!r} has no field {', '.join(sorted(unknown))}; "
            f"fields: {', '.join(type(old).model_fields)}"
        )
    return validate_strictly(type(old), {**old.model_dump(mode="json"), **changes})


def _short(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        return "; ".join(f"{format_path(e['loc'])}: {e['msg']}" for e in exc.errors())
    return str(exc)
