"""Building one catalog from a ruleset's folders: each YAML file read and validated, section
by section, in layers.

Layering: the built-in folder, then user folders in order. A later folder's item with an
existing id replaces it whole and the replacement is reported; the same id twice in one
folder is a conflict. A user folder is read with a limit on its total size, and only
through real folders and regular files (:mod:`shipyard.core.safepaths`). The built
catalog passes the cross-entry checks (:mod:`shipyard.core.catalogcheck`) with every
preset applied (:mod:`shipyard.core.presets`) before anyone sees it.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from shipyard.core.catalogcheck import check_items
from shipyard.core.errors import InputError, Problem
from shipyard.core.items import CatalogItem, Preset, RuleDef, RulesetMeta, RulesetSection
from shipyard.core.model import Catalog, Origin, RulesetModule
from shipyard.core.pools import PoolDef
from shipyard.core.presets import apply_preset
from shipyard.core.safepaths import UnsafePath, regular_files, subfolder
from shipyard.core.suggest import did_you_mean
from shipyard.core.termtext import quote
from shipyard.core.usertext import check_total_size

if TYPE_CHECKING:
    from shipyard.core.form import Form
    from shipyard.core.rulesetinfo import RulesetInfo
    from shipyard.core.yamlio import YamlDocument

YAML_SUFFIXES = (".yaml", ".yml")
CORE_SECTIONS = ("ruleset", "pools", "rules", "form", "preset")
# The YAML of one user catalog folder (one ruleset's files), all files together: room for
# several whole built-in rulesets, and a bound on what one folder can make every load read.
MAX_USER_FOLDER_BYTES = 256 * 1024


def _validate(doc: YamlDocument, model: type[BaseModel], data: Any, loc: tuple[object, ...]) -> Any:
    from shipyard.core.yamlio import validate

    return validate(doc, model, data, loc)


def yaml_files(folder: Path) -> list[Path]:
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
        raise refused(exc) from None
    first = [p for p in main if p.stem == "ruleset"]
    return first + [p for p in main if p.stem != "ruleset"] + extra


def refused(exc: UnsafePath) -> InputError:
    return InputError.single(
        f"refused: it is {exc.what}; a catalog folder is read only through real folders and regular files "
        "inside it, never links",
        file=exc.path,
    )


# built-in catalog file -> (its status when read, the document read from it): see _read_builtin
_builtin_read: dict[Path, tuple[tuple[int, ...], YamlDocument]] = {}


def _read_builtin(file: Path, folder: Path) -> YamlDocument:
    """A file of a ruleset's own catalog folder, read again only when it changed (its status,
    as :func:`shipyard.core.catalog._listed` reads a folder's). A catalog with house rules
    is built anew each time a house-rule file changes, and every build read the ruleset's
    whole catalog again, which had not changed: reading YAML with positions is the slow
    part of a build. The documents are only read from, never changed, by a build."""
    from shipyard.core.yamlio import load_yaml

    try:
        st = file.stat()
    except OSError:
        return load_yaml(file, within=folder)  # says what is wrong with it
    status = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    known = _builtin_read.get(file)
    if known is not None and known[0] == status:
        return known[1]
    doc = load_yaml(file, within=folder)
    _builtin_read[file] = (status, doc)
    return doc


class CatalogBuilder:
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
        files = yaml_files(folder)
        if not builtin:  # reading YAML with positions is slow: bound a stranger's folder first
            check_total_size(files, MAX_USER_FOLDER_BYTES, folder, "a user catalog folder")
        for file in files:
            try:
                doc = _read_builtin(file, folder) if builtin else load_yaml(file, within=folder)
                self._load_file(doc, builtin=builtin, seen_here=seen_here)
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
        from shipyard.core.rules import COMPOSITION_TYPE_NAMES, CORE_RULE_TYPES

        own = f"the ruleset package {self.info.package!r} ({_file_of(self.module)})"
        owners = dict.fromkeys(CORE_RULE_TYPES, "Shipyard's core (shipyard.core.rules)")
        owners.update(dict.fromkeys(COMPOSITION_TYPE_NAMES, "Shipyard's composition rules (shipyard.core.composition)"))
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
