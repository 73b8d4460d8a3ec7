"""The types the catalog, the rules and a ruleset's module speak to each other.

A :class:`Catalog` holds a ruleset's entries and its bound rules; a rule runs over a
:class:`Context` (the catalog, the design, the ruleset's neutral :class:`DesignView` of it,
the ledger of pools, the counts and the findings); a ruleset's module satisfies
:class:`RulesetModule`. These types refer to one another, so they live together: every
other core module imports them from here and nothing here imports back (loading a
catalog is :mod:`shipyard.core.catalog`, finding rulesets :mod:`shipyard.core.registry`).

Point-buy is a capability, not an assumption: its rule types are a capability's
(:mod:`shipyard.core.capability`), a catalog without a ``scales`` section has no scale
ladder (``Catalog.scales`` is None, a view's ``scale`` too), and one without ``pools`` has
an empty ledger.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict

from shipyard.core.findings import FindingSink
from shipyard.core.items import CatalogItem, Preset, RuleDef, RulesetMeta
from shipyard.core.ladder import Ladder, Step
from shipyard.core.plaindata import Raw
from shipyard.core.pools import Ledger, Line, PoolDef
from shipyard.core.report import Derived

if TYPE_CHECKING:
    from shipyard.core.form import Form
    from shipyard.core.schema import Spec

P = TypeVar("P")
T = TypeVar("T")


# --- rules ---------------------------------------------------------------------------------


class Params(BaseModel):
    """The head every rule's parameters share; a rule type adds its own numbers."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    id: str
    type: str
    name: str = ""
    source: str


Handler = Callable[["Context", Any], None]


@dataclass(frozen=True)
class RuleType:
    """A mechanism and the parameters it takes. ``needs`` names the capabilities
    (``scales``, ``pools``) a catalog must have for a rule of this type to make sense:
    a rule that cannot apply is refused when the catalog loads, never skipped."""

    params: type[Params]
    apply: Handler
    needs: frozenset[str] = frozenset()


@dataclass(frozen=True)
class BoundRule:
    definition: RuleDef
    params: Params
    rule_type: RuleType

    def run(self, ctx: Context) -> None:
        self.rule_type.apply(ctx, self.params)

    def with_changes(self, changes: Mapping[str, Any]) -> BoundRule:
        data = {**self.params.model_dump(), **changes}
        params = self.rule_type.params.model_validate(data)
        return replace(self, params=params)


# --- the catalog ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Origin:
    file: Path
    line: int | None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}" if self.line else str(self.file)


@dataclass
class Catalog:
    """Everything one ruleset's rules need, with a preset applied (or not yet)."""

    meta: RulesetMeta
    module: RulesetModule
    scales: Ladder | None
    pools: list[PoolDef]
    rules: list[BoundRule]
    items: dict[str, dict[str, CatalogItem]]
    presets: dict[str, Preset]
    folders: tuple[Path, ...]
    origins: dict[tuple[str, str], Origin] = field(default_factory=dict)
    overrides: list[str] = field(default_factory=list)
    preset: Preset | None = None
    # The catalog before any preset: presets replace each other rather than pile up.
    base: Catalog | None = None
    override_positions: dict[tuple[str, ...], tuple[str, int | None, int | None]] = field(default_factory=dict)
    # The editor's declared form (see the ``form`` property): a Form, or its cached plain
    # data (plaindata.Raw) in a catalog read from the cache until something first asks for it.
    declared_form: Form | Raw | None = None
    form_schema: Spec | None = None  # the design model's schema, for the form (see core.schema)
    # This catalog with each preset applied, made once (see presets.apply_preset); a cached
    # catalog comes with every preset already applied.
    applied: dict[str, Catalog] = field(default_factory=dict)
    _index: dict[str, dict[str, str]] = field(default_factory=dict)
    _memo: dict[str, Any] = field(default_factory=dict)

    @property
    def root(self) -> Path:
        return self.folders[0]

    @property
    def form(self) -> Form | None:
        """The editor's declared form, made from the cached data the first time it is asked for.

        A command such as ``shipyard check`` never looks at the form; making it would import
        the form language's models and cost every start-up for nothing.
        """
        if self.base is not None:  # a preset changes no form: the catalog's own
            return self.base.form
        form = self.declared_form
        if isinstance(form, Raw):
            import shipyard.core.form  # noqa: F401 - its classes are looked up, never imported, by decode
            from shipyard.core.plaindata import decode

            form = self.declared_form = decode(form.tree)  # our own cache, see __getstate__
        return form

    @property
    def ladder(self) -> Ladder:
        """The scale ladder, for code that only runs where the ruleset has scales."""
        if self.scales is None:
            raise LookupError(f"ruleset {self.meta.id!r} has no scales")
        return self.scales

    def kind(self, kind: str) -> dict[str, CatalogItem]:
        return self.items.get(kind, {})

    def item(self, kind: str, item_id: str) -> CatalogItem | None:
        return self.items.get(kind, {}).get(item_id)

    def resolve(self, kind: str, name: str) -> str | None:
        """The id an id, name or alias refers to, ignoring case, spacing and punctuation."""
        from shipyard.core.suggest import normalise

        if kind not in self._index:
            index: dict[str, str] = {}
            for item in self.kind(kind).values():
                for key in (item.id, item.name, *item.aliases):
                    index.setdefault(normalise(key), item.id)
            self._index[kind] = index
        return self._index[kind].get(normalise(name))

    def names(self, kind: str) -> list[str]:
        out: list[str] = []
        for item in self.kind(kind).values():
            out += [item.id, item.name, *item.aliases]
        return out

    def pool(self, pool_id: str) -> PoolDef | None:
        return next((p for p in self.pools if p.id == pool_id), None)

    def rule(self, rule_type: str) -> BoundRule | None:
        """The first rule of ``rule_type`` (as the catalog names it), if the ruleset has one."""
        return next((r for r in self.rules if r.definition.type == rule_type), None)

    def params(self, params_type: type[P]) -> P | None:
        """The parameters of the first rule whose parameters are a ``params_type``."""
        return next((r.params for r in self.rules if isinstance(r.params, params_type)), None)

    def stat(self, stat_id: str) -> Any:
        """The catalog's definition of a stat (range, base, path), or None."""
        return next((s for s in self.meta.stats if s.id == stat_id), None)

    def cite(self, section: str) -> str:
        return f"{self.meta.source_title}, {section}" if section else self.meta.source_title

    def memo(self, key: str, make: Callable[[], T]) -> T:
        """What ``make`` builds from this catalog, built once (a catalog does not change)."""
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]  # type: ignore[no-any-return]

    def attach(self, module: RulesetModule) -> None:
        """Give a catalog read from the cache its ruleset's module again (with its presets)."""
        self.module = module
        for applied in self.applied.values():
            applied.module = module

    def __getstate__(self) -> dict[str, Any]:
        """What the catalog cache keeps (:mod:`shipyard.core.plaindata`): the module is left
        out (the loader that reads the cache attaches the ruleset's module again, see
        ``shipyard.core.catalog``) and the declared form is encoded on its own, to be made
        when asked for (see ``form``)."""
        state = dict(self.__dict__)
        state["module"] = None
        if state["declared_form"] is not None and not isinstance(state["declared_form"], Raw):
            from shipyard.core.plaindata import encode

            state["declared_form"] = Raw(encode(state["declared_form"]))
        state["_index"] = {}
        state["_memo"] = {}
        return state


# --- what a rule sees -----------------------------------------------------------------------


@dataclass(frozen=True)
class Selection:
    """One chosen catalog item: how many, at what level, and where it sits in the design."""

    kind: str
    id: str
    path: str
    level: int = 1
    count: int = 1
    component_scale: Step | None = None


@dataclass
class DesignView:
    """A design as the neutral rules see it: stats by id, item selections by kind.

    ``scale`` is None for a ruleset without scales. Stats are numbers (a Fate rating, a
    percentage, a point value); the rules compare and cost them, never interpret them.
    """

    scale: Step | None
    stats: Mapping[str, int | float]
    selections: list[Selection]
    # Keyword-only: what the design sets beyond its stats and items. The budgets the
    # Storyteller set for this design, by pool id; marks the ruleset puts on a design (e.g.
    # "converted" from another system), for which rules may take another severity.
    budget_overrides: dict[str, int] = field(default_factory=dict, kw_only=True)
    marks: frozenset[str] = field(default=frozenset(), kw_only=True)
    # The design's value of each choice a pool's budget follows (``budget_by``), by the
    # choice's path (hull class -> "sloop"); see PoolDef.budget_by.
    choices: Mapping[str, str] = field(default_factory=dict, kw_only=True)

    def selected(self, kind: str) -> list[Selection]:
        return [s for s in self.selections if s.kind == kind]

    def has(self, kind: str, item_id: str) -> bool:
        return any(s.kind == kind and s.id == item_id for s in self.selections)


@dataclass
class Count:
    """A figure that is counted up from parts while the rules run (how many enhancements a
    fighter has, what it costs): each part says what counted, where, and by which rule."""

    id: str
    name: str
    unit: str = ""
    source: str = ""
    lines: list[Line] = field(default_factory=list)

    def add(self, label: str, amount: Fraction | int, **kw: str) -> None:
        self.lines.append(Line(label, Fraction(amount), "cost", **kw))

    def take(self, label: str, amount: Fraction | int, **kw: str) -> None:
        self.lines.append(Line(label, Fraction(amount), "gain", **kw))

    @property
    def total(self) -> int:
        """What the parts add up to, rounded up (a part may be a fraction)."""
        import math

        return math.ceil(sum((ln.amount if ln.kind == "cost" else -ln.amount for ln in self.lines), Fraction(0)))


@dataclass
class Context:
    catalog: Catalog
    design: Any
    view: DesignView
    ledger: Ledger
    findings: FindingSink
    counts: dict[str, Count] = field(default_factory=dict)
    notes: dict[str, Any] = field(default_factory=dict)

    @property
    def scale(self) -> Step:
        """The design's scale; only rules that need the scales capability ask for it."""
        if self.view.scale is None:
            raise LookupError(f"ruleset {self.catalog.meta.id!r} has no scales")
        return self.view.scale

    def count(self, count_id: str, name: str = "", unit: str = "", source: str = "") -> Count:
        """The count ``count_id``, started (with its name, unit and source) the first time."""
        if count_id not in self.counts:
            self.counts[count_id] = Count(count_id, name or count_id, unit, source)
        return self.counts[count_id]

    def stat_path(self, stat_id: str) -> str:
        s = self.catalog.stat(stat_id)
        return str(s.path) if s is not None else stat_id

    def stat_name(self, stat_id: str) -> str:
        s = self.catalog.stat(stat_id)
        return str(s.name) if s is not None else stat_id


# --- a ruleset's module ----------------------------------------------------------------------


class RulesetModule(Protocol):
    """The required hooks of a ruleset's Python package, for the type checker: what its
    catalog data cannot say. The specification, the optional hooks with it, is
    :data:`shipyard.core.hookspec.HOOKS`; the import checks the package against it.

    Written out rather than made from that table at import: mypy reads a Protocol from the
    source, and a class built while the program runs (``type()``, attributes set in a loop)
    is unknown to it, so every caller of a ruleset's hooks would be checked against
    ``Any``. ``tests/test_plugin_contract.py`` holds the two equal instead: the same
    required names, values as annotations and functions as methods, each function with the
    arguments Shipyard passes by the same names.

    The package is imported the first time a design of the ruleset is read or made (see
    :mod:`shipyard.core.registry`); its manifest says everything else without an import.
    """

    ITEM_KINDS: Mapping[str, type[CatalogItem]]
    RULE_TYPES: Mapping[str, RuleType]
    Design: type[BaseModel]

    def resolve(self, design: Any, catalog: Catalog) -> Any:
        """Design with every item reference resolved to a catalog id; InputError if not."""

    def view(self, design: Any, catalog: Catalog) -> DesignView:
        """The neutral view of a design that the core rules work on."""

    def derive(self, ctx: Context) -> Derived:
        """Figures, tables, tracks, slots and actions computed after the rules ran."""

    def new_design(self, kind: str, name: str, catalog: Catalog) -> Any:
        """An empty design of one of the kinds the manifest offers (a fighter, a pilot, a fleet ...)."""
