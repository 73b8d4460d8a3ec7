"""Load a ruleset's catalog folder (plus user folders), validate it, apply a preset.

Layering: the built-in folder, then user folders in order. A later folder's item with an
existing id replaces it whole and the replacement is reported; the same id twice in one
folder is a conflict. A preset is data too: field overrides on named entries, validated
exactly like the entries themselves, so a house rule can never sneak in an unknown key.

Which folder is a ruleset's and which Python package holds its mechanisms comes from the
registry (:mod:`shipyard.core.registry`); the catalog's own types are in
:mod:`shipyard.core.model`.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from shipyard.core.errors import InputError, Problem, format_path
from shipyard.core.items import CatalogItem, Preset, RuleDef, RulesetMeta, RulesetSection, item_refs
from shipyard.core.model import Catalog, Origin, RulesetModule
from shipyard.core.pools import PoolDef
from shipyard.core.resources import user_data_folder
from shipyard.core.safepaths import UnsafePath, regular_files, subfolder
from shipyard.core.suggest import did_you_mean, normalise
from shipyard.core.termtext import quote
from shipyard.core.usertext import check_total_size, validate_strictly

if TYPE_CHECKING:
    from shipyard.core.catalog_cache import CacheKey
    from shipyard.core.form import Form
    from shipyard.core.registry import RulesetInfo
    from shipyard.core.yamlio import YamlDocument

YAML_SUFFIXES = (".yaml", ".yml")
CORE_SECTIONS = ("ruleset", "pools", "rules", "form", "preset")
BUDGET_WITHOUT_SCALES = "all"  # a pool's budget key in a ruleset without scales
# The YAML of one user catalog folder (one ruleset's files), all files together: five
# times a whole built-in ruleset, read in a few seconds (docs/catalog-format.md).
MAX_USER_FOLDER_BYTES = 256 * 1024


def _validate(doc: YamlDocument, model: type[BaseModel], data: Any, loc: tuple[object, ...]) -> Any:
    from shipyard.core.yamlio import validate

    return validate(doc, model, data, loc)


def _yaml_files(folder: Path) -> list[Path]:
    """A folder's catalog files in reading order: ruleset.yaml (or .yml) first, the others by
    name, then the presets.

    Read with the safe folder walk (:mod:`shipyard.core.safepaths`): a ``.yaml`` name that
    is a link or not a regular file, or a ``presets`` that is a link, is an input error
    naming it, never followed."""
    try:
        main = regular_files(folder, YAML_SUFFIXES)
        presets = subfolder(folder, "presets")
        extra = regular_files(presets, YAML_SUFFIXES) if presets is not None else []
    except UnsafePath as exc:
        raise _refused(exc) from None
    first = [p for p in main if p.stem == "ruleset"]
    return first + [p for p in main if p.stem != "ruleset"] + extra


def _refused(exc: UnsafePath) -> InputError:
    return InputError.single(
        f"refused: it is {exc.what}; a catalog folder is read only through real folders and regular files "
        "inside it, never links",
        file=exc.path,
    )


class _Builder:
    """Accumulates sections from the layered folders, tracking where each entry came from."""

    def __init__(self, info: RulesetInfo, module: RulesetModule) -> None:
        self.info = info
        self.meta: RulesetMeta | None = None
        self.module = module
        self.parts: dict[str, Any] = {}  # the capabilities' sections, built (scales: a Ladder)
        self._capability_sections: dict[str, Any] | None = None
        # The capabilities in effect: the manifest's, and those an API-1 manifest's catalog uses
        # without declaring them (see _infer), each with what it was inferred from.
        self.capabilities = list(info.manifest.capabilities)
        self.inferred: list[tuple[str, str]] = []
        self.form: Form | None = None
        self.form_doc: YamlDocument | None = None
        self.pools: dict[str, PoolDef] = {}
        self.rules: list[tuple[YamlDocument, int, RuleDef]] = []
        self.items: dict[str, dict[str, CatalogItem]] = {}
        self.presets: dict[str, Preset] = {}
        self.origins: dict[tuple[str, str], Origin] = {}
        self.overrides: list[str] = []
        self.override_positions: dict[tuple[str, ...], tuple[str, int | None, int | None]] = {}
        self.problems: list[Problem] = []

    def load_folder(self, folder: Path, *, builtin: bool) -> None:
        from shipyard.core.yamlio import load_yaml  # ruamel.yaml only when the cache misses

        seen_here: dict[tuple[str, str], Origin] = {}
        self._sections()  # an unknown capability is one error at the manifest, not one a file
        files = _yaml_files(folder)
        if not builtin:  # reading YAML with positions is slow: bound a stranger's folder first
            check_total_size(files, MAX_USER_FOLDER_BYTES, folder, "a user catalog folder")
        for file in files:
            try:
                self._load_file(load_yaml(file, within=folder), builtin=builtin, seen_here=seen_here)
            except InputError as exc:
                self.problems += exc.problems

    def _load_file(self, doc: YamlDocument, *, builtin: bool, seen_here: dict[tuple[str, str], Origin]) -> None:
        if not isinstance(doc.data, dict):
            raise doc.error("a catalog file must be a mapping of section names to entries")
        for section, body in doc.data.items():
            if section not in (*CORE_SECTIONS, *self._sections(), *self.module.ITEM_KINDS):
                from shipyard.core.capability import offering

                self._infer(offering(section=section), f"its section {quote(section)} ({doc.file})")
            if section == "ruleset":
                self._ruleset(doc, body, builtin)
            elif section in self._sections():
                self._only_builtin(doc, section, builtin)
                declared = self._sections()[section]
                self.parts[section] = declared.build(_validate(doc, declared.model, body, (section,)))
            elif section == "pools":
                self._only_builtin(doc, section, builtin)
                for i, entry in enumerate(_as_list(doc, body, section)):
                    pool = _validate(doc, PoolDef, entry, (section, i))
                    self._record(doc, "pools", pool.id, (section, i), seen_here)
                    self.pools[pool.id] = pool
            elif section == "rules":
                self._only_builtin(doc, section, builtin)
                for i, entry in enumerate(_as_list(doc, body, section)):
                    self.rules.append((doc, i, _validate(doc, RuleDef, entry, (section, i))))
            elif section == "form":
                from shipyard.core.form import Form

                self._only_builtin(doc, section, builtin)
                self.form = _validate(doc, Form, body, (section,))
                self.form_doc = doc
            elif section == "preset":
                preset = _validate(doc, Preset, body, (section,))
                self._record(doc, "preset", preset.id, (section,), seen_here)
                self.presets[preset.id] = preset
                self._record_override_positions(doc, preset)
            else:
                self._items(doc, section, body, seen_here)

    def _record_override_positions(self, doc: YamlDocument, preset: Preset) -> None:
        """Where each override (and each of its fields) is written, for precise errors."""
        for section, entries in preset.overrides.items():
            for entry_id, changes in entries.items():
                loc: tuple[object, ...] = ("preset", "overrides", section, entry_id)
                self.override_positions[(preset.id, section, entry_id)] = (str(doc.file), *doc.position(loc))
                for name in changes:
                    self.override_positions[(preset.id, section, entry_id, name)] = (
                        str(doc.file),
                        *doc.position((*loc, name)),
                    )

    def _only_builtin(self, doc: YamlDocument, section: str, builtin: bool) -> None:
        if not builtin:
            raise doc.error(
                f"section {section!r} belongs to the ruleset itself; a user catalog may add or "
                "replace items and presets (use a preset to change budgets or rules)",
                (section,),
            )

    def _ruleset(self, doc: YamlDocument, body: Any, builtin: bool) -> None:
        """The catalog's ``ruleset`` section, joined with who the ruleset is (its manifest)."""
        self._only_builtin(doc, "ruleset", builtin)
        section: RulesetSection = _validate(doc, RulesetSection, body, ("ruleset",))
        m = self.info.manifest
        self.meta = RulesetMeta(
            id=m.id,
            name=m.name,
            version=m.version,
            description=m.description,
            source_file=m.source.file,
            source_title=m.source.title,
            samples_note=m.samples_note,
            **section.model_dump(),
        )

    def _items(self, doc: YamlDocument, kind: str, body: Any, seen_here: dict[tuple[str, str], Origin]) -> None:
        model = self.module.ITEM_KINDS.get(kind)
        if model is None:
            from shipyard.core.capability import offering, undeclared

            known = [*CORE_SECTIONS, *self._sections(), *self.module.ITEM_KINDS]
            givers = offering(section=kind)
            raise doc.error(
                undeclared(f"section {quote(kind)}", givers)
                if givers
                else f"unknown section {quote(kind)}; {did_you_mean(kind, known)}".rstrip("; "),
                (kind,),
                allowed=", ".join(known),
            )
        bucket = self.items.setdefault(kind, {})
        for i, entry in enumerate(_as_list(doc, body, kind)):
            try:
                item = _validate(doc, model, entry, (kind, i))
            except InputError as exc:
                self.problems += exc.problems
                continue
            self._record(doc, kind, item.id, (kind, i), seen_here)
            bucket[item.id] = item

    def _record(
        self,
        doc: YamlDocument,
        kind: str,
        item_id: str,
        loc: tuple[object, ...],
        seen_here: dict[tuple[str, str], Origin],
    ) -> None:
        """Where an entry comes from; the same id twice in one folder is an error, and an
        entry replacing one of an earlier folder (a house rule) is reported."""
        line, _ = doc.position(loc)
        origin = Origin(doc.file, line)
        if (kind, item_id) in seen_here:
            raise doc.error(
                f"{kind} {item_id!r} is defined twice in one catalog folder "
                f"(first at {seen_here[(kind, item_id)]}); ids must be unique within a folder",
                loc,
            )
        seen_here[(kind, item_id)] = origin
        previous = self.origins.get((kind, item_id))
        if previous is not None:
            self.overrides.append(f"{kind} {item_id!r}: {origin} replaces {previous}")
        self.origins[(kind, item_id)] = origin

    def _capability_types(self) -> dict[str, Any]:
        """The rule types of the capabilities the manifest declares; an unknown one is an input
        error at the manifest's ``capabilities``."""
        from shipyard.core.capability import rule_types

        return self._declared(rule_types)

    def _sections(self) -> dict[str, Any]:
        """The catalog sections the declared capabilities read (point-buy: ``scales``)."""
        if self._capability_sections is None:
            from shipyard.core.capability import sections

            self._capability_sections = self._declared(sections)
        return self._capability_sections

    def _infer(self, givers: list[Any], what: str) -> None:
        """Take the capability that gives ``what`` as declared, for a manifest written for
        plug-in API 1: capabilities came after API 1, and a plug-in written for it used
        ``scales`` and the point-buy rule types without declaring anything. docs/rulesets.md
        promises such a manifest keeps working unchanged; ``rulesets --check`` says what
        was inferred and the line to add. A manifest of a later API declares its own."""
        if self.info.manifest.api != 1 or not givers or givers[0].id in self.capabilities:
            return
        self.capabilities.append(givers[0].id)
        self.inferred.append((givers[0].id, what))
        self._capability_sections = None

    def inference_notes(self) -> list[str]:
        """What :meth:`_infer` took as declared, a sentence each, with the line to add."""
        return [
            f"the catalog uses the capability {cap!r} ({what}), which the manifest does not declare; "
            f"as the manifest is written for plug-in API 1, it is taken as declared. Add "
            f"'capabilities: [{', '.join(self.capabilities)}]' to {self.info.manifest_file.name} to say so"
            for cap, what in self.inferred
        ]

    def _declared(self, what: Any) -> dict[str, Any]:
        try:
            found: dict[str, Any] = what(self.capabilities)
        except InputError as exc:
            raise InputError([replace(p, file=p.file or str(self.info.manifest_file)) for p in exc.problems]) from None
        return found

    def _infer_rule_types(self) -> None:
        """The capabilities an API-1 catalog's rules use without the manifest declaring them (_infer)."""
        from shipyard.core.capability import offering
        from shipyard.core.rules import CORE_RULE_TYPES

        for doc, _index, definition in self.rules:
            known = {*CORE_RULE_TYPES, *self._capability_types(), *self.module.RULE_TYPES}
            if definition.type not in known:
                self._infer(offering(rule_type=definition.type), f"rule type {definition.type!r} ({doc.file})")

    def _refuse_clashes(self) -> None:
        """A rule type of the ruleset's own with the name of Shipyard's or of a declared
        capability's is refused, naming both owners: it used to replace theirs silently."""
        from shipyard.core.capability import load
        from shipyard.core.rules import CORE_RULE_TYPES

        own = f"the ruleset package {self.info.package!r} ({_file_of(self.module)})"
        owners = dict.fromkeys(CORE_RULE_TYPES, "Shipyard's core (shipyard.core.rules)")
        for cap in self.capabilities:
            try:
                given = load(cap).rule_types
            except InputError:
                continue  # an unknown capability is its own error (_declared)
            owners.update({name: f"the capability {cap!r}" for name in given if name not in owners})
        problems = [
            Problem(
                f"{own} gives rule type {name!r} in RULE_TYPES, which {owners[name]} gives already; "
                "a ruleset's own rule type needs a name of its own",
                _file_of(self.module),
                allowed=f"any name but {', '.join(sorted(owners))}",
            )
            for name in self.module.RULE_TYPES
            if name in owners
        ]
        if problems:
            raise InputError(problems)

    def build(self, folders: tuple[Path, ...]) -> Catalog:
        from shipyard.core.rules import bind_rules

        if self.meta is None:
            self.problems.append(Problem("ruleset.yaml with a 'ruleset' section is missing", str(folders[0])))
        if self.problems:
            raise InputError(self.problems)
        assert self.meta is not None
        self._infer_rule_types()
        sections = set(self.parts)
        if self.pools:
            sections.add("pools")
        self._refuse_clashes()
        bound = bind_rules(self.rules, self.module, frozenset(sections), self._capability_types())
        catalog = Catalog(
            meta=self.meta,
            module=self.module,
            scales=self.parts.get("scales"),
            pools=list(self.pools.values()),
            rules=bound,
            items=self.items,
            presets=self.presets,
            folders=folders,
            origins=self.origins,
            overrides=self.overrides,
            override_positions=self.override_positions,
            declared_form=self.form,
        )
        if self.form is not None:
            from shipyard.core.formview import check_form
            from shipyard.core.schema import design_schema

            catalog.form_schema = design_schema(self.module.Design)
            problems = check_form(catalog, self.form_doc)
            if problems:
                raise InputError(problems)
        check_references(catalog)
        return catalog


def _file_of(module: Any) -> str | None:
    """The file of a ruleset's package (through :class:`shipyard.core.hookspec.HookedModule`)."""
    from shipyard.core.hookspec import HookedModule

    real = module.module if isinstance(module, HookedModule) else module
    file = getattr(real, "__file__", None)
    return str(file) if file else None


def _as_list(doc: YamlDocument, body: Any, section: str) -> list[Any]:
    if not isinstance(body, list):
        raise doc.error(f"section {section!r} must be a list of entries", (section,))
    return body


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


def check_references(catalog: Catalog) -> None:
    """Everything entries refer to exists, and every preset applies cleanly."""
    problems = [p for _, _, p in check_items(catalog)]
    for kind in catalog.meta.sheet_reference:
        if kind not in catalog.module.ITEM_KINDS:
            problems.append(
                Problem(
                    f"sheet_reference names unknown item kind {kind!r}",
                    str(catalog.root / "ruleset.yaml"),
                    allowed=", ".join(catalog.module.ITEM_KINDS),
                )
            )
    if catalog.meta.default_preset not in catalog.presets:
        problems.append(
            Problem(
                f"default preset {catalog.meta.default_preset!r} is not defined",
                str(catalog.root / "ruleset.yaml"),
            )
        )
    for preset in catalog.presets.values():
        try:
            apply_preset(catalog, preset.id)
        except InputError as exc:
            problems += exc.problems
    if problems:
        raise InputError(problems)


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


def user_catalog_folder() -> Path:
    """The user's own catalog folder (house rules), per the XDG base directory spec."""
    return user_data_folder() / "catalogs"


def available_rulesets() -> list[str]:
    """The ids of the installed rulesets (see :mod:`shipyard.core.registry`)."""
    from shipyard.core.registry import ids

    return ids()


def load_catalog(
    ruleset_id: str,
    extra_folders: tuple[Path, ...] | list[Path] = (),
    *,
    preset: str | None = None,
    use_user_folder: bool = True,
) -> Catalog:
    """The catalog of ``ruleset_id`` with user folders layered on, and ``preset`` applied."""
    folders = [*([user_catalog_folder()] if use_user_folder else []), *map(Path, extra_folders)]
    try:  # D/RULESET must be a real folder: a link (to /etc, say) is refused, not followed
        layers = tuple(layer for f in folders if (layer := subfolder(f, ruleset_id)) is not None)
    except UnsafePath as exc:
        raise _refused(exc) from None
    for f in extra_folders:
        if not Path(f).is_dir():
            raise InputError.single("catalog folder does not exist", file=f)
    base = _load_layers(ruleset_id, layers, _cache_key(ruleset_id, layers))
    return apply_preset(base, preset or base.meta.default_preset)


def _cache_key(ruleset_id: str, layers: tuple[Path, ...]) -> CacheKey | None:
    """What the catalog of these folders is made from (see :mod:`shipyard.core.catalog_cache`);
    None when its ruleset.yaml is missing (:func:`_load_layers` says so)."""
    from shipyard.core import catalog_cache
    from shipyard.core.registry import get

    info = get(ruleset_id)
    root = info.catalog
    if not (root / "ruleset.yaml").is_file():
        return None
    folders = (root, *layers)
    files = [info.manifest_file, *(f for d in folders for f in _listed(d))]
    return catalog_cache.key(ruleset_id, folders, files, catalog_cache.code_digests(root, info.code_files))


# folder -> (its status and its presets folder's, its catalog files): see _listed
_listings: dict[Path, tuple[tuple[tuple[int, ...] | None, ...], list[Path]]] = {}


def _listed(folder: Path) -> list[Path]:
    """:func:`_yaml_files` of ``folder``, listed again only when the folder or its presets
    folder changed (a file added, removed or renamed changes its folder's modification and
    change times): every load of a catalog checks its files, and most loads in a process
    are of a catalog whose folders did not change."""
    status = (_status(folder), _status(folder / "presets"))
    known = _listings.get(folder)
    if known is not None and known[0] == status:
        return known[1]
    files = _yaml_files(folder)
    _listings[folder] = (status, files)
    return files


def _status(path: Path) -> tuple[int, ...] | None:
    try:
        st = path.lstat()
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_mode, st.st_mtime_ns, st.st_ctime_ns)


@lru_cache(maxsize=16)
def _load_layers(ruleset_id: str, layers: tuple[Path, ...], key: CacheKey | None) -> Catalog:
    """The catalog of these folders, made from exactly what ``key`` says: kept in this
    process by that key (a file changed since is another key, so it is read again, never a
    stale catalog), and in the user's cache between processes."""
    from shipyard.core import catalog_cache
    from shipyard.core.registry import get, ruleset_module

    info = get(ruleset_id)
    root = info.catalog
    if key is None:
        raise InputError.single(
            f"ruleset {quote(ruleset_id)} has no catalog: its ruleset.yaml is missing", file=root / "ruleset.yaml"
        )
    folders = (root, *layers)
    # The package first, under the plug-in guard (plugincode): the cache names its classes,
    # never imports them, and a plug-in's import is guarded wherever it happens.
    module = ruleset_module(ruleset_id)
    import shipyard.core.schema  # noqa: F401 - the same: the form's schema is made of its classes

    trusted = ("shipyard", info.package.split(".")[0])
    cached = catalog_cache.read(key, trusted)
    if (  # the catalog says whose it is, as its key did
        isinstance(cached, Catalog)
        and cached.base is None
        and isinstance(cached.meta, RulesetMeta)
        and cached.meta.id == ruleset_id
    ):
        cached.attach(module)  # modules are not cached
        return cached
    builder = _Builder(info, module)
    builder.load_folder(root, builtin=True)
    for layer in layers:
        builder.load_folder(layer, builtin=False)
    catalog = builder.build(folders)  # every preset applied (checked), and cached with it
    catalog_cache.write(key, catalog, trusted)
    return catalog


def _check_editor_pages(info: RulesetInfo) -> None:
    """The manifest's hand-written editor pages, ``module:Class``: the module imported under the
    plug-in guard (it imports PySide6: only ``rulesets --check`` and the editor do this) and the
    class able to be built as the editor builds it (:data:`shipyard.core.hookspec.EDITOR_PAGES_HOOK`)."""
    import importlib

    from shipyard.core import hookspec
    from shipyard.core.registry import plugin_guard

    named = info.manifest.editor_pages or ""
    module_name, _, attribute = named.partition(":")
    what = f"ruleset {info.id!r}: editor pages {named!r}"
    with plugin_guard(f"{what} cannot be imported", file=info.manifest_file, package=module_name):
        module = importlib.import_module(module_name)
    if attribute not in vars(module):
        raise InputError.single(
            f"{what}: the module {module_name!r} defines no {attribute!r}", file=info.manifest_file, path="editor_pages"
        )
    from types import SimpleNamespace

    named_class = SimpleNamespace(editor_pages=vars(module)[attribute], __file__=module.__file__, __name__=module_name)
    hookspec.check_contribution(named_class, (hookspec.EDITOR_PAGES_HOOK,), what)


def check_folder(folder: Path, notes: list[str] | None = None) -> RulesetInfo:
    """Read a ruleset package folder (its manifest, its Python package, its catalog) as an
    installed ruleset is read, without the cache; raise every problem at once.

    For ``shipyard rulesets --check PATH``: a homebrew author checks a ruleset before
    installing it. An installed ruleset's own folder is read as installed. Its text formats'
    and conversions' modules are checked by the command, after this
    (:func:`shipyard.core.textformats.check_contributions`: they load designs through
    :mod:`shipyard.core.designfile`, which loads catalogs through this module).
    """
    from shipyard.core.registry import (
        RulesetInfo,
        import_package,
        plugin_guard,
        read_manifest,
        ruleset_module,
        rulesets,
    )

    manifest_file = (folder / "manifest.yaml") if folder.is_dir() else folder
    manifest = read_manifest(manifest_file)
    installed = next((i for i in rulesets() if i.manifest_file.resolve() == manifest_file.resolve()), None)
    if installed is not None:
        from shipyard.core import hookspec

        info, module = installed, ruleset_module(installed.id)
        with plugin_guard(f"the ruleset package {installed.package!r}", file=manifest_file):
            hookspec.check(module, installed.package, lazy=True)  # the hooks given when asked, too
    else:
        package = manifest_file.parent.name
        module = import_package(
            package, manifest_file.parent, path=str(manifest_file.parent.parent), lazy=True, ruleset_id=manifest.id
        )
        info = RulesetInfo(manifest, manifest_file, package, "(not installed)", "")
    if not (info.catalog / "ruleset.yaml").is_file():
        raise InputError.single("the catalog's ruleset.yaml is missing", file=info.catalog / "ruleset.yaml")
    from shipyard.core.registry import command_module

    for command in info.commands:
        command_module(info, command)
    if info.manifest.editor_pages:
        _check_editor_pages(info)
    builder = _Builder(info, module)
    builder.load_folder(info.catalog, builtin=True)
    builder.build((info.catalog,))
    if notes is not None:
        notes += builder.inference_notes()
    return info
