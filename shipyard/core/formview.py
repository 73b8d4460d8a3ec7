"""The declared form (:mod:`shipyard.core.form`) against a catalog, a design and its report.

The editor asks this module everything a generated page needs to know — a field's type
and range, its choices, whether it is enabled, what a toggle writes, the help text with
the catalog's numbers in it — so that the Qt layer only draws and never computes a rule.
Everything here is pure and testable without a display.

The design model's schema is read once, when the catalog is built, into a small tree
(``Catalog.form_schema``, see :mod:`shipyard.core.schema`), so opening a design costs no
schema generation.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from shipyard.core.errors import Problem
from shipyard.core.form import (
    ActionRef,
    BudgetsRef,
    Choices,
    Column,
    Condition,
    FieldDecl,
    FigureRef,
    Form,
    ListDecl,
    MapDecl,
    PresetRef,
    Section,
    TableRef,
    Toggle,
)
from shipyard.core.hookspec import optional
from shipyard.core.paths import parse_path, value_at
from shipyard.core.schema import spec_at

if TYPE_CHECKING:
    from shipyard.core.model import Catalog
    from shipyard.core.report import Report
    from shipyard.core.yamlio import YamlDocument


# --- help text with the catalog's numbers -------------------------------------------------------

_REFERENCE = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")


def _shown(value: Any) -> str:
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(_shown(v) for v in value)
    return str(value)


def reference(catalog: Catalog, ref: str) -> Any:
    """What ``{ref}`` in help text stands for; KeyError with the reason when nothing does."""
    if ref == "scales.capacity_multiplier":
        if catalog.scales is None:
            raise KeyError("the ruleset has no scales")
        return catalog.scales.multiplier
    where, colon, rest = ref.partition(":")
    entry, dot, attr = rest.partition(".")
    if not colon or not dot or not entry or not attr:
        raise KeyError(
            "write {kind:id.field}, {rule:id.field}, {stat:id.field}, {pool:id.field} or {scales.capacity_multiplier}"
        )
    target: Any
    if where == "rule":
        found = next((r for r in catalog.rules if r.definition.id == entry), None)
        target = found.params if found is not None else None
    elif where == "stat":
        target = catalog.stat(entry)
    elif where == "pool":
        target = catalog.pool(entry)
    else:
        target = catalog.item(where, entry)
    if target is None:
        raise KeyError(f"no {where} {entry!r}")
    value = target
    walked = f"{where}:{entry}"
    for name in attr.split("."):
        if isinstance(value, Mapping):  # a field that is a table (a pool's budget by scale): a key of it
            if name not in value:
                keys = ", ".join(str(k) for k in value)
                raise KeyError(f"{walked} has no entry {name!r}" + (f" (it has {keys})" if keys else ""))
            value = value[name]
        elif hasattr(value, name):
            value = getattr(value, name)
        else:
            raise KeyError(f"{where} {entry!r} has no field {name!r}")
        walked += f".{name}"
    if isinstance(value, Mapping) and value:
        first = next(iter(value))
        raise KeyError(
            f"{{{ref}}} is a table of values ({', '.join(str(k) for k in value)}), not one number: "
            f"name an entry, e.g. {{{ref}.{first}}}"
        )
    if isinstance(value, BaseModel | Mapping) or (
        isinstance(value, list | tuple) and any(isinstance(v, BaseModel | Mapping) for v in value)
    ):
        raise KeyError(f"{{{ref}}} is not a number or a text: name one of its fields")
    return value


def help_text(text: str, catalog: Catalog) -> str:
    """``text`` with each catalog reference replaced by the number the catalog holds now."""

    def sub(m: re.Match[str]) -> str:
        if m.group(0) in ("{{", "}}"):
            return m.group(0)[0]
        try:
            return _shown(reference(catalog, m.group(1).strip()))
        except KeyError:
            return m.group(0)

    return _REFERENCE.sub(sub, text) if "{" in text or "}" in text else text


def _references(text: str) -> list[str]:
    return [m.group(1).strip() for m in _REFERENCE.finditer(text) if m.group(1) is not None]


# --- the values a page works with -----------------------------------------------------------------


@dataclass
class FormContext:
    """One design as a form sees it: the catalog, the design, its report, its JSON data."""

    catalog: Catalog
    design: Any
    report: Report | None
    data: Any = None

    def __post_init__(self) -> None:
        if self.data is None:
            self.data = self.design.model_dump(mode="json")

    def value(self, path: str) -> Any:
        return value_at(self.data, path)

    def call(self, function: str, /, **params: Any) -> Any:
        """Call the ruleset's ``FORM_CALLS[function](self, **params)`` (a param may be called ``name``)."""
        calls = optional(self.catalog.module, "FORM_CALLS")
        return calls[function](self, **params)


def joined(base: str, path: str) -> str:
    """``base`` + a relative ``path``: ``weapons[2]`` and ``count`` give ``weapons[2].count``;
    ``aspects[1]`` and ``.`` (the entry itself) give ``aspects[1]``."""
    if path == ".":
        return base
    if not base:
        return path
    return f"{base}{path}" if path.startswith("[") else f"{base}.{path}"


def holds(cond: Condition | None, ctx: FormContext, base: str = "", item: Any = None) -> bool:
    """Whether ``cond`` holds (no condition always does). ``base`` is a list entry's path for
    relative conditions, ``item`` that entry's catalog item for ``item:`` tests."""
    if cond is None:
        return True
    if cond.present is not None:
        return ctx.value(joined(base, cond.present)) is not None
    if cond.absent is not None:
        return ctx.value(joined(base, cond.absent)) is None
    if cond.equals is not None:
        return all(ctx.value(joined(base, p)) == v for p, v in cond.equals.items())
    if cond.item is not None:
        return bool(getattr(item, cond.item, False))
    if cond.call is not None:
        return bool(ctx.call(cond.call, base=base))
    if cond.any_ is not None:
        return any(holds(c, ctx, base, item) for c in cond.any_)
    if cond.all_ is not None:
        return all(holds(c, ctx, base, item) for c in cond.all_)
    assert cond.not_ is not None
    return not holds(cond.not_, ctx, base, item)


def choices(decl: Choices, ctx: FormContext) -> list[tuple[str, Any]]:
    """(label, value) pairs for a choice, in order; ``none`` first when the choice may be unset."""
    out: list[tuple[str, Any]] = [(decl.none, None)] if decl.none else []
    catalog = ctx.catalog
    if decl.options is not None:
        out += [(o.label, o.value) for o in decl.options]
    elif decl.catalog is not None:
        items = catalog.kind(decl.catalog).values()
        if decl.label is not None:
            out += [(str(ctx.call(decl.label, item=item.id)), item.id) for item in items]
        else:
            out += [(item.name, item.id) for item in items]
    elif decl.scales is not None:
        out += catalog.ladder.offered(decl.scales)
    elif decl.call is not None:
        out += [(str(label), value) for label, value in ctx.call(decl.call)]
    return out


def field_range(decl: FieldDecl | Any, ctx: FormContext, path: str) -> tuple[float | None, float | None]:
    """A number's range: the form's own, else its catalog stat's, else the design model's."""
    low, high = getattr(decl, "min", None), getattr(decl, "max", None)
    stat_id = getattr(decl, "stat", None)
    stat = ctx.catalog.stat(stat_id) if isinstance(stat_id, str) else None
    spec = spec_at(ctx.catalog.form_schema, path) if ctx.catalog.form_schema is not None else None
    if low is None:
        low = stat.min if stat is not None and stat.min is not None else (spec.minimum if spec else None)
    if high is None:
        high = stat.max if stat is not None and stat.max is not None else (spec.maximum if spec else None)
    return low, high


def field_help(decl: Any, ctx: FormContext, path: str) -> str:
    """A field's help: the form's text (with catalog numbers), else its stat's description."""
    text = getattr(decl, "help", "")
    if not text and getattr(decl, "stat", None):
        stat = ctx.catalog.stat(decl.stat)
        text = stat.description if stat is not None else ""
    return help_text(text, ctx.catalog)


def widget_for(decl: Any, ctx: FormContext, path: str) -> str:
    """The widget a field gets: the form's choice, else one that suits its type."""
    if decl.widget != "auto":
        return str(decl.widget)
    if getattr(decl, "choices", None) is not None:
        return "choice"
    spec = spec_at(ctx.catalog.form_schema, path) if ctx.catalog.form_schema is not None else None
    if spec is None:
        return "line"
    if spec.enum:
        return "choice"
    return {"integer": "spin", "number": "number", "boolean": "check"}.get(spec.type, "line")


def enum_choices(ctx: FormContext, path: str) -> list[tuple[str, Any]]:
    """A field's fixed values from the design model (a Literal), as choices."""
    spec = spec_at(ctx.catalog.form_schema, path) if ctx.catalog.form_schema is not None else None
    values = spec.enum if spec is not None and spec.enum else []
    return [(str(v).replace("_", " ").capitalize() if isinstance(v, str) else str(v), v) for v in values]


def resolve_value(value: Any, ctx: FormContext, base: str = "") -> Any:
    """A value a toggle or a new entry writes: as written, ``{from: PATH}`` or ``{call: NAME}``."""
    if isinstance(value, dict) and len(value) == 1:
        if "from" in value:
            return ctx.value(joined(base, str(value["from"])))
        if "call" in value:
            return ctx.call(str(value["call"]), base=base)
    return value


def toggle_changes(toggle: Toggle, ctx: FormContext, on: bool, base: str = "") -> dict[str, Any]:
    """The values a toggle writes when it is switched on (or off), path by path."""
    return {joined(base, p): resolve_value(v, ctx, base) for p, v in (toggle.on if on else toggle.off).items()}


def new_entry(decl: ListDecl, item_id: str | None, number: int = 1) -> Any:
    """The entry a list adds: ``new`` with ``"{id}"`` replaced by the chosen catalog item's id
    and ``"{n}"`` by the number the entry gets in the list (1 for the first)."""

    def fill(v: Any) -> Any:
        if isinstance(v, str):
            return v.replace("{id}", item_id or "").replace("{n}", str(number))
        if isinstance(v, dict):
            return {k: fill(x) for k, x in v.items()}
        if isinstance(v, list):
            return [fill(x) for x in v]
        return v

    return fill(decl.new)


def custom_entry(decl: ListDecl) -> Any:
    """The entry a catalog list's ``add`` button adds (one not from the catalog), or None."""
    return copy.deepcopy(decl.custom)


def is_call(value: Any) -> bool:
    """Whether a declared value is ``{call: NAME}`` (what a ruleset function returns)."""
    return isinstance(value, dict) and len(value) == 1 and "call" in value


def list_entry(decl: ListDecl, ctx: FormContext, list_path: str, item_id: str | None, number: int) -> Any:
    """The entry adding to a list makes: ``new`` as declared (see :func:`new_entry`), or what
    the ruleset function of ``new: {call: NAME}`` makes (called with ``base`` the list's path)."""
    if is_call(decl.new):
        return resolve_value(decl.new, ctx, list_path)
    return new_entry(decl, item_id, number)


def cell_text(function: str, ctx: FormContext, base: str) -> tuple[str, str]:
    """A read-only cell (a column's ``show``): the text and tooltip the ruleset function
    gives for the entry at ``base``."""
    shown = ctx.call(function, base=base)
    if isinstance(shown, tuple):
        text, tip = shown
        return str(text), str(tip)
    return ("" if shown is None else str(shown)), ""


def figures_for(ref: str, report: Report | None) -> list[Any]:
    """The report's figures a form's ``figure:`` shows: the one with that id, or with an id
    ending in ``*``, every figure whose id starts with the rest, in the report's order."""
    if report is None:
        return []
    if ref.endswith("*"):
        return [f for f in report.derived.figures if f.id.startswith(ref[:-1])]
    found = report.derived.figure(ref)
    return [found] if found is not None else []


@dataclass(frozen=True)
class Listing:
    """How a catalog browser shows one item: its line, the lines of its description, the
    groups it is in (filter choices), and why it may not be added (shown disabled)."""

    text: str
    detail: tuple[str, ...] = ()
    groups: tuple[str, ...] = ()
    refused: str = ""


@dataclass(frozen=True)
class Browse:
    """What a list's ``browse`` function returns: a :class:`Listing` by item id (items it
    leaves out are shown as usual), and the groups to filter by as (label, id)."""

    items: dict[str, Listing] = field(default_factory=dict)
    groups: list[tuple[str, str]] = field(default_factory=list)
    all_groups: str = "All"


def browse(decl: ListDecl, ctx: FormContext) -> Browse | None:
    """The browser's listing of a catalog list with ``browse``, else None."""
    if decl.browse is None:
        return None
    found = ctx.call(decl.browse)
    if not isinstance(found, Browse):
        raise TypeError(f"the form function {decl.browse!r} returns a Browse, not {type(found).__name__}")
    return found


def ladder_words(kind: str, catalog: Catalog) -> dict[int, str]:
    """A ladder's words by value (Fate: 4 -> Great), from catalog items with ``value`` and ``name``."""
    return {int(getattr(i, "value")): i.name for i in catalog.kind(kind).values() if hasattr(i, "value")}  # noqa: B009


def pages(form: Form, ctx: FormContext) -> list[Any]:
    """The form's pages this design shows (a page may be for some designs only)."""
    return [p for p in form.pages if holds(p.when, ctx)]


# --- checking a form when its catalog loads ---------------------------------------------------------


def _walk(sections: list[Section], base: str) -> list[tuple[str, Any, str]]:
    """Every section and element with its location in the form and the path its paths are
    relative to (a list's detail sections are relative to an entry of the list)."""
    out: list[tuple[str, Any, str]] = []
    for si, section in enumerate(sections):
        out.append((f"sections[{si}]", section, base))
        for fi, el in enumerate(section.fields):
            out.append((f"sections[{si}].fields[{fi}]", el, base))
            if isinstance(el, ListDecl):
                for loc, sub, b in _walk(el.detail, joined(base, el.list_) + "[0]"):
                    out.append((f"sections[{si}].fields[{fi}].detail.{loc}", sub, b))
    return out


def check_form(catalog: Catalog, doc: YamlDocument | None = None) -> list[Problem]:
    """Everything the form names must exist: paths in the design, catalog kinds, stats,
    ladder kinds, item attributes, the ruleset's functions and every catalog reference in
    help text, titles and labels."""
    form = catalog.form
    if form is None:
        return []
    schema = catalog.form_schema
    kinds = set(catalog.module.ITEM_KINDS)
    calls = set(optional(catalog.module, "FORM_CALLS"))
    problems: list[Problem] = []

    def bad(loc: str, message: str, allowed: str | None = None) -> None:
        full = ("form", *parse_path(loc))
        line, col = doc.position(full) if doc is not None else (None, None)
        problems.append(Problem(message, str(doc.file) if doc else None, line, col, f"form.{loc}", allowed))

    def path_ok(loc: str, path: str, want: tuple[str, ...] = ()) -> None:
        spec = spec_at(schema, path) if schema is not None else None
        if spec is None:
            bad(loc, f"the design has no field {path!r}")
        elif want and spec.type not in want:
            bad(loc, f"{path!r} is a {spec.type}, not a {' or '.join(want)}")

    def text_ok(loc: str, text: str) -> None:
        for ref in _references(text):
            try:
                reference(catalog, ref)
            except KeyError as exc:
                bad(loc, f"help text refers to {{{ref}}}: {exc.args[0]}")

    def cond_ok(loc: str, cond: Condition | None, base: str, item_kind: str | None = None) -> None:
        if cond is None:
            return
        for p in [cond.present, cond.absent, *(cond.equals or {})]:
            if p is not None:
                path_ok(loc, joined(base, p))
        if cond.call is not None and cond.call not in calls:
            bad(loc, f"no form function {cond.call!r} in the ruleset", ", ".join(sorted(calls)) or "none")
        if cond.item is not None:
            model = catalog.module.ITEM_KINDS.get(item_kind) if item_kind else None
            if model is None:
                bad(loc, f"'item: {cond.item}' tests a catalog item, but this is not a row of a catalog list")
            elif cond.item not in getattr(model, "model_fields", {}) and not hasattr(model, cond.item):
                fields = sorted(n for n in getattr(model, "model_fields", {}) if n not in ("id", "name", "aliases"))
                bad(loc, f"{item_kind} items have no attribute {cond.item!r}", ", ".join(fields))
        for sub in [cond.not_, *(cond.any_ or []), *(cond.all_ or [])]:
            cond_ok(loc, sub, base, item_kind)

    def choices_ok(loc: str, ch: Choices | None, column: bool = False) -> None:
        if ch is None:
            return
        if ch.unset is not None and not column:
            bad(loc, "unset is for a list's columns (what a row shows while its value is not set)", "none")
        if ch.catalog is not None and ch.catalog not in kinds:
            bad(loc, f"unknown item kind {ch.catalog!r}", ", ".join(sorted(kinds)))
        if ch.scales is not None and catalog.scales is None:
            bad(loc, "the ruleset has no scales to choose from")
        for name in (ch.call, ch.label):
            if name is not None and name not in calls:
                bad(loc, f"no form function {name!r} in the ruleset", ", ".join(sorted(calls)) or "none")

    def call_ok(loc: str, name: str) -> None:
        if name not in calls:
            bad(loc, f"no form function {name!r} in the ruleset", ", ".join(sorted(calls)) or "none")

    def value_ok(loc: str, value: Any) -> None:
        if isinstance(value, dict) and len(value) == 1:
            if "call" in value and value["call"] not in calls:
                bad(loc, f"no form function {value['call']!r} in the ruleset", ", ".join(sorted(calls)) or "none")
            if "from" in value:
                path_ok(loc, str(value["from"]))

    actions = [a.id for a in form.actions]
    for pi, page in enumerate(form.pages):
        text_ok(f"pages[{pi}].help", page.help)
        cond_ok(f"pages[{pi}].when", page.when, "")
        for loc, el, base in _walk(page.sections, ""):
            loc = f"pages[{pi}].{loc}"
            if isinstance(el, Section):
                text_ok(f"{loc}.title", el.title)
                text_ok(f"{loc}.help", el.help)
                cond_ok(f"{loc}.when", el.when, base)
                if el.optional is not None:
                    path_ok(f"{loc}.optional", joined(base, el.optional.path), ("object",))
                    cond_ok(f"{loc}.optional.enabled", el.optional.enabled, base)
                    text_ok(f"{loc}.optional.why", el.optional.why)
                continue
            text_ok(loc, getattr(el, "help", ""))
            text_ok(loc, getattr(el, "label", None) or getattr(el, "toggle", None) or "")
            if isinstance(el, FieldDecl):
                path_ok(loc, joined(base, el.path))
                choices_ok(loc, el.choices)
                cond_ok(loc, el.enabled, base)
                text_ok(f"{loc}.why", el.why)
                if el.stat is not None and catalog.stat(el.stat) is None:
                    bad(loc, f"unknown stat {el.stat!r}", ", ".join(s.id for s in catalog.meta.stats))
                if el.ladder is not None and el.ladder not in kinds:
                    bad(loc, f"unknown ladder kind {el.ladder!r}", ", ".join(sorted(kinds)))
            elif isinstance(el, Toggle):
                cond_ok(loc, el.checked, base)
                for p, v in [*el.on.items(), *el.off.items()]:
                    path_ok(loc, joined(base, p))
                    value_ok(loc, v)
            elif isinstance(el, ListDecl):
                list_path = joined(base, el.list_)
                path_ok(loc, list_path, ("array",))
                if el.catalog is not None and el.catalog not in kinds:
                    bad(loc, f"unknown item kind {el.catalog!r}", ", ".join(sorted(kinds)))
                col: Column
                for ci, col in enumerate(el.columns):
                    path_ok(f"{loc}.columns[{ci}]", joined(list_path + "[0]", col.path))
                    choices_ok(f"{loc}.columns[{ci}]", col.choices, column=True)
                    cond_ok(f"{loc}.columns[{ci}]", col.enabled, list_path + "[0]", el.catalog)
                    text_ok(f"{loc}.columns[{ci}]", col.help)
                    text_ok(f"{loc}.columns[{ci}].why", col.why)
                    text_ok(f"{loc}.columns[{ci}]", col.label)
                    if col.show is not None:
                        call_ok(f"{loc}.columns[{ci}]", col.show)
                value_ok(f"{loc}.new", el.new)
                for name in (el.adding, el.browse):
                    if name is not None:
                        call_ok(loc, name)
            elif isinstance(el, MapDecl):
                path_ok(loc, joined(base, el.map), ("map", "object"))
                choices_ok(loc, el.keys)
                text_ok(f"{loc}.none", el.none or "")
            elif isinstance(el, BudgetsRef):
                path_ok(loc, joined(base, el.budgets), ("map", "object"))
            elif isinstance(el, ActionRef):
                if el.action not in actions:
                    bad(loc, f"no action {el.action!r} in the form", ", ".join(actions) or "none")
            elif isinstance(el, FigureRef | TableRef | PresetRef):
                pass
    for ai, action in enumerate(form.actions):
        text_ok(f"actions[{ai}].help", action.help)
        cond_ok(f"actions[{ai}].when", action.when, "")
        if action.call not in calls:
            bad(
                f"actions[{ai}].call",
                f"no form function {action.call!r} in the ruleset",
                ", ".join(sorted(calls)) or "none",
            )
        for qi, param in enumerate(action.params):
            choices_ok(f"actions[{ai}].params[{qi}]", param.choices)
            value_ok(f"actions[{ai}].params[{qi}].default", param.default)
            text_ok(f"actions[{ai}].params[{qi}]", param.help)
    return problems
