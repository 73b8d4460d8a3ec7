"""Trinity vessels converted to Space Fighter Alpha, per the table of Appendix 2.

The table is data (the conversion's folder, ``catalogs/trinity/conversion.yaml``, named by
this ruleset's manifest): which vehicle type is which
scale, which statistics carry over, which are kept as notes, what a construction point
is worth, what a scale mark means, which weapons are special. This module holds the
vessel's shape (:class:`TrinityVessel`), reads it from YAML or JSON with the same
standards as design files (file, line/column or path, what is allowed), and applies the
table. The result is a design marked as converted, so its budgets are for information,
plus a conversion report, field by field: converted (from -> to), kept as a note,
assumed, or conflicting.
"""

import math
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictInt,
    ValidationError,
    model_validator,
)

from shipyard.core.catalog import load_catalog
from shipyard.core.designfile import LoadedDesign, parse_json, read_text
from shipyard.core.errors import InputError, Problem, format_path
from shipyard.core.model import Catalog
from shipyard.core.suggest import closest, normalise
from shipyard.core.termtext import quote
from shipyard.core.textformats import loaded_design
from shipyard.core.usertext import NUMBER_RANGE
from shipyard.pointbuy.scales import ladder

# A vessel is a few hundred bytes; reading YAML with positions is slow, so bound it well below the 5 MB of catalogs.
MAX_VESSEL_BYTES = 256 * 1024

RULESET = "space-fighter-alpha"
NoteStatus = Literal["converted", "note", "assumed", "conflict"]
STATUS_WORDS = {"converted": "converted", "note": "kept as note", "assumed": "assumed", "conflict": "conflict"}


CONVERSION_ID = "trinity"


def table_file() -> Path:
    """The conversion table, in the folder this ruleset's manifest gives the conversion."""
    from shipyard.core.registry import get

    info = get(RULESET)
    entry = next(c for c in info.conversions if c.id == CONVERSION_ID)
    assert entry.data is not None, "the manifest names the Trinity conversion's data folder"
    return info.path(entry.data) / "conversion.yaml"


# --- the conversion table -------------------------------------------------------------------


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class VehicleTypeRow(_Data):
    vt: str
    aliases: list[str] = Field(default_factory=list)
    scale: str
    source: str


class TechRow(_Data):
    values: list[str] = Field(min_length=1)
    source: str


class NoteRow(_Data):
    field: str
    label: str
    source: str


class StatRow(_Data):
    field: str
    label: str
    stat: str
    source: str


class CostRow(_Data):
    field: str
    label: str
    result: str
    points_per_resource: dict[str, Annotated[int, Field(ge=1)]]
    source: str


class MarkRow(_Data):
    at_least: int = Field(ge=1)
    scale: str
    source: str


class WeaponRule(_Data):
    attack: list[str] = Field(min_length=1)
    speed: int
    cost: int = Field(ge=0)
    source: str
    out_of_scale_source: str


class SpecialWeapon(_Data):
    name: str
    aliases: list[str] = Field(default_factory=list)
    scale: str
    source: str


class AssumedRow(_Data):
    stat: str
    value: int | None = None
    by_scale: dict[str, int | str] = Field(default_factory=dict)
    why: str
    source: str


class ConversionTable(_Data):
    system: str
    target_ruleset: str
    source_title: str
    source: str
    vehicle_types: list[VehicleTypeRow] = Field(min_length=1)
    tech: TechRow
    notes: list[NoteRow]
    stats: list[StatRow]
    cost: CostRow
    soak_marks: list[MarkRow] = Field(min_length=1)
    weapon_marks: list[MarkRow] = Field(min_length=1)
    weapons: WeaponRule
    special_weapons: list[SpecialWeapon]
    assumed: list[AssumedRow]


@lru_cache(maxsize=4)
def load_table(file: Path | None = None) -> ConversionTable:
    """The conversion table (Appendix 2) from the catalogs folder."""
    from shipyard.core.yamlio import load_yaml

    doc = load_yaml(file or table_file(), "conversion table")
    if not isinstance(doc.data, dict) or "conversion" not in doc.data:
        raise doc.error("a conversion table file holds one 'conversion' section")
    try:
        return ConversionTable.model_validate(doc.data["conversion"])
    except ValidationError as exc:
        raise InputError(_problems(exc, str(doc.file), ("conversion",), doc, ConversionTable)) from None


# --- the Trinity vessel ---------------------------------------------------------------------

# Linear in the text: whitespace is taken possessively, so no two quantifiers share a run
# of spaces (tests/test_properties.py checks the growth).
_SCALED = re.compile(r"\s*+([+-]?\d{1,6})\s*+(?:\[\s*+(\d{1,4})\s*+\])?\s*+")


class Scaled(BaseModel):
    """A number with an optional scale mark: ``6 [10]``, or ``{value: 6, mark: 10}``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    value: StrictInt = Field(ge=-1000, le=1000)
    mark: StrictInt | None = Field(default=None, ge=1, le=1000, description="scale mark: 5, 10 ...")

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, data: Any) -> Any:
        if isinstance(data, bool):
            raise ValueError("write a number, optionally with its scale mark, e.g. 6 [10]")
        if isinstance(data, int):
            return {"value": data}
        if isinstance(data, str):
            m = _SCALED.fullmatch(data)
            if m is None:
                raise ValueError(f"{data[:40]!r} is not a number with an optional scale mark, e.g. 6 [10]")
            return {"value": int(m.group(1)), "mark": int(m.group(2)) if m.group(2) else None}
        return data

    def __str__(self) -> str:
        return f"{self.value}" + (f" [{self.mark}]" if self.mark is not None else "")


_Short = Annotated[str, Field(max_length=200)]


def _noted_number(value: Any) -> Any:
    if isinstance(value, int | float) and not -NUMBER_RANGE <= value <= NUMBER_RANGE:  # NaN too
        raise ValueError(f"a number here is from {-NUMBER_RANGE:,} to {NUMBER_RANGE:,} (or text)")
    return value


def _one_value(value: Any) -> Any:
    """A mapping or a list where a value kept as a note goes is one problem, said in words,
    not one per kind of value the field takes (text, whole number, number)."""
    if isinstance(value, dict | list):
        kind = "a list" if isinstance(value, list) else "a mapping"
        raise ValueError(f"this is kept as a note: a number or a short text such as '4,800 tons', not {kind}")
    return value


# A value kept as a note (speeds, mass, range): text, or a number within the range every
# number of a user file has (docs/catalog-format.md, Limits).
_Loose = Annotated[_Short | StrictInt | float | None, BeforeValidator(_one_value), AfterValidator(_noted_number)]


class TrinityWeapon(BaseModel):
    """A vessel weapon as Trinity lists it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: _Short = Field(min_length=1)
    accuracy: StrictInt = Field(ge=-50, le=50)
    damage: Scaled
    count: StrictInt = Field(default=1, ge=1, le=100)
    range: _Loose = None
    notes: str = Field(default="", max_length=2000)


class TrinityVessel(BaseModel):
    """A vessel with the statistics of the Appendix 2 table."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: _Short = Field(min_length=1)
    vt: _Short = Field(description="vehicle type: Hybrid Fighter, Hybrid Transport, Hybrid Shuttle, Frigate, Freighter")
    tech: _Short | None = Field(default=None, description="Hardtech or Organic")
    cs: _Loose = Field(default=None, description="Cruising Speed")
    ts: _Loose = Field(default=None, description="Top Speed")
    vs: StrictInt = Field(ge=-1000, le=1000, description="Vacuum Speed")
    handling: StrictInt = Field(ge=-1000, le=1000)
    mass: _Loose = None
    tolerance: _Loose = None
    cost: StrictInt | None = Field(default=None, ge=0, le=100_000_000, description="construction points")
    soak: Scaled
    weapons: list[TrinityWeapon] = Field(default_factory=list, max_length=40)
    notes: str = Field(default="", max_length=2000)


def _problems(
    exc: ValidationError, file: str | None, prefix: tuple[object, ...], doc: Any, model: type[BaseModel]
) -> list[Problem]:
    out = []
    for err in exc.errors():
        loc = tuple(x for x in err["loc"] if not (isinstance(x, str) and x.startswith("function-")))
        full = (*prefix, *loc)
        line, col = doc.position(full) if doc is not None else (None, None)
        path = format_path(full)
        if err["type"] == "extra_forbidden":
            allowed = _fields_at(model, loc[:-1])
            name = str(loc[-1])
            hint = closest(name, allowed)
            msg = f"unknown field {quote(name)}"
            msg += f"; did you mean {', '.join(repr(h) for h in hint)}?" if hint else ""
            out.append(Problem(msg, file, line, col, path, allowed=", ".join(allowed)))
        elif err["type"] == "missing":
            out.append(Problem(f"{loc[-1]!r} is missing", file, line, col, path))
        else:
            msg = err["msg"].removeprefix("Value error, ")
            given = err.get("input")
            if err["type"] != "value_error" and isinstance(given, str | int | float | bool):
                msg += f", not {quote(given)}"
            out.append(Problem(msg, file, line, col, path))
    return out


def _fields_at(model: type[BaseModel], loc: tuple[object, ...]) -> list[str]:
    """The fields of the model found at ``loc`` (for 'allowed:' in an unknown-field error)."""
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            continue
        info = current.model_fields.get(str(part)) if hasattr(current, "model_fields") else None
        if info is None:
            break
        ann = info.annotation
        args = getattr(ann, "__args__", ()) or (ann,)
        current = next((a for a in args if isinstance(a, type) and issubclass(a, BaseModel)), current)
    return list(current.model_fields)


def parse_vessel(data: Any, *, file: str | Path | None = None, doc: Any = None) -> TrinityVessel:
    """Validate vessel data (already parsed); InputError with positions for every problem."""
    src = str(file) if file is not None else None
    if not isinstance(data, dict):
        kind = "a list" if isinstance(data, list) else type(data).__name__
        raise InputError.single(f"a Trinity vessel file holds one mapping of fields, not {kind}", file=src)
    try:
        return TrinityVessel.model_validate(data)
    except ValidationError as exc:
        raise InputError(_problems(exc, src, (), doc, TrinityVessel)) from None


def _bounds(catalog: Catalog, path: str) -> tuple[int, int] | None:
    """The least and most the design's number at ``path`` takes, as the design model's schema
    says (:func:`shipyard.core.schema.spec_at`, the tree the editor's form reads its ranges
    from); an open end is any number a file holds. None where the design has no such place."""
    from shipyard.core.schema import design_schema, spec_at

    spec = spec_at(catalog.form_schema or design_schema(catalog.module.Design), path)
    if spec is None:
        return None
    least = -NUMBER_RANGE if spec.minimum is None else int(spec.minimum)
    most = NUMBER_RANGE if spec.maximum is None else int(spec.maximum)
    return least, most


OPTIONS = ("structure", "power", "crew")
"""The conversion's options (its manifest declares them): a problem at one of these is
with a value the person gave beside the file (``--crew``), not with the file."""


def locate(exc: InputError, file: Path | str, doc: Any = None) -> InputError:
    """Name the file in every problem and, for YAML, the line and column of its path; a
    problem with one of the :data:`OPTIONS` is left to name the option."""
    from shipyard.core.edits import parse_path

    for p in exc.problems:
        if p.path in OPTIONS:
            continue
        if p.file is None:
            p.file = str(file)
        if doc is not None and p.path and p.line is None:
            loc = parse_path(p.path)
            if loc and isinstance(doc.data, dict) and loc[0] in doc.data:
                p.line, p.column = doc.position(loc)
    return exc


def load_vessel(file: Path | str) -> tuple[TrinityVessel, Any]:
    """Read a vessel from a .yaml/.yml or .json file: the vessel and, for YAML, its document
    (positions for :func:`locate`)."""
    file = Path(file)
    if file.suffix.lower() == ".json":
        return parse_vessel(parse_json(read_text(file, MAX_VESSEL_BYTES), file), file=file), None
    from shipyard.core.yamlio import load_yaml

    doc = load_yaml(file, "Trinity vessel file", max_bytes=MAX_VESSEL_BYTES)
    return parse_vessel(doc.data, file=file, doc=doc), doc


# --- the conversion -------------------------------------------------------------------------


@dataclass
class ConversionResult:
    """The converted design (marked as converted), its report and the catalog it is for
    (a :class:`shipyard.core.textformats.ConversionResult`)."""

    design: Any
    notes: list[Any]
    catalog: Catalog
    vessel: TrinityVessel

    def loaded(self, file: Path | None = None) -> LoadedDesign:
        return loaded_design(self.design, self.catalog, file)

    def report_lines(self) -> list[str]:
        return report_lines(self.notes, self.vessel.name)


NOTES_LIMIT = 20_000  # a design's notes hold at most this (the design model's limit)


def design_notes(notes: list[Any], vessel: TrinityVessel, table: ConversionTable, limit: int = NOTES_LIMIT) -> str:
    """The converted design's notes: what a person at the table needs first, then the report.

    First the values the rules give no conversion (Tech, speeds, Mass, Tolerance), what was
    assumed and what was clamped, in a few short lines, and the vessel's own notes: the
    record sheet's notes box shows the start of the notes, and those are what the design
    itself does not show. Then the conversion report, line by line, as far as the notes
    hold it: the whole report is the design file's conversion record (``converted.report``)
    and what ``shipyard convert`` printed; a vessel of forty weapons made a report longer
    than a design's notes may be, and its conversion failed on a limit the vessel never met.
    """
    head = f"Converted from {table.system} ({table.source_title}, {table.source}). Budgets are for information."
    kept = [f"{n.field}: {n.original}" for n in notes if n.status == "note" and n.original]
    assumed = [f"{n.field}: {n.value}" for n in notes if n.status == "assumed"]
    lines = [head]
    if kept:
        lines.append(f"Kept from {table.system}, with no conversion: {'; '.join(kept)}.")
    if assumed:
        lines.append(f"Assumed: {'; '.join(assumed)}.")
    for n in notes:
        if n.status == "conflict":
            arrow = " -> ".join(x for x in (n.original, n.value) if x)
            lines.append(f"Conflict: {n.field}: {arrow}" + (f"; {n.message}" if n.message else ""))
    if vessel.notes:
        lines.append(f"{table.system} notes: {vessel.notes}")
    lines += ["", "Conversion report:"]
    report = report_lines(notes, vessel.name)
    for i, line in enumerate(report):
        if sum(len(x) + 1 for x in lines) + len(line) > limit - 80:
            lines.append(f"  ... and {len(report) - i} more (the whole report is the design file's conversion record)")
            break
        lines.append(line)
    return "\n".join(lines)


def report_lines(notes: list[Any], name: str) -> list[str]:
    width = max((len(STATUS_WORDS[n.status]) for n in notes), default=0)
    out = [f"{name}: converted from Trinity"]
    for n in notes:
        arrow = " -> ".join(x for x in (n.original, n.value) if x)
        text = f"{n.field}: {arrow}" if arrow else n.field
        if n.message:
            text += f"; {n.message}"
        if n.source:
            text += f" [{n.source}]"
        out.append(f"  {STATUS_WORDS[n.status]:<{width}}  {text}")
    return out


class _Converter:
    def _rule_param(self, rule_type: str, name: str) -> Any:
        """A parameter of the target ruleset's rule of ``rule_type`` (None if it has none)."""
        rule = self.catalog.rule(rule_type)
        return getattr(rule.params, name, None) if rule is not None else None

    def _pool_name(self, rule_type: str) -> str:
        """The name of the pool the target ruleset's ``rule_type`` rule charges (e.g. Weapon Points)."""
        pool_id = self._rule_param(rule_type, "pool")
        pool = self.catalog.pool(pool_id) if pool_id else None
        return pool.name if pool is not None else str(pool_id)

    def __init__(self, vessel: TrinityVessel, catalog: Catalog, table: ConversionTable) -> None:
        self.v = vessel
        self.catalog = catalog
        self.t = table
        self.notes: list[dict[str, Any]] = []
        self.design: dict[str, Any] = {"name": vessel.name}
        self.stats = {s.id: s for s in catalog.meta.stats}

    def note(
        self, field: str, status: NoteStatus, original: Any = "", value: Any = "", message: str = "", source: str = ""
    ) -> None:
        self.notes.append(
            {
                "field": field,
                "status": status,
                "original": _text(original),
                "value": _text(value),
                "message": message,
                "source": source,
            }
        )

    def scale(self, scale_id: str) -> Any:
        found = ladder(self.catalog).parse(scale_id)
        if found is None:
            raise InputError.single(f"the conversion table names unknown scale {scale_id!r}", file=table_file())
        return found

    def vehicle_type(self) -> Any:
        key = normalise(self.v.vt)
        for row in self.t.vehicle_types:
            if key in {normalise(n) for n in (row.vt, *row.aliases)}:
                scale = self.scale(row.scale)
                self.note("VT", "converted", self.v.vt, f"{scale.name} scale", "", row.source)
                return scale
        names = [row.vt for row in self.t.vehicle_types]
        hint = closest(self.v.vt, names)
        raise InputError.single(
            f"VT {self.v.vt!r} is not in the Appendix 2 table, so it has no {self.catalog.meta.name} scale"
            + (f"; did you mean {', '.join(repr(h) for h in hint)}?" if hint else ""),
            path="vt",
            allowed=", ".join(names),
        )

    def mark_scale(self, mark: int, rows: list[MarkRow], what: str, path: str) -> tuple[Any, MarkRow]:
        fitting = [r for r in sorted(rows, key=lambda r: r.at_least) if mark >= r.at_least]
        if not fitting:
            known = ", ".join(f"[{r.at_least}] or more: {self.scale(r.scale).name}" for r in rows)
            raise InputError.single(f"{what} scale mark [{mark}] is not in the Appendix 2 table ({known})", path=path)
        return self.scale(fitting[-1].scale), fitting[-1]

    def stat(self, row: StatRow, value: int, original: str) -> int:
        stat = self.stats.get(row.stat)
        name = stat.name if stat else row.stat
        low = stat.min if stat and stat.min is not None else value
        high = stat.max if stat and stat.max is not None else value
        kept = min(max(value, low), high)
        if kept != value:
            self.note(
                row.label,
                "conflict",
                original,
                f"{name} {kept}",
                f"{value} is outside the {name} range {low} to {high}; clamped to {kept}",
                row.source,
            )
        else:
            self.note(row.label, "converted", original, f"{name} {kept}", "", row.source)
        return kept

    def run(self, structure: int | None, power: int | None, crew: int | None) -> dict[str, Any]:
        v, t = self.v, self.t
        scale = self.vehicle_type()
        self.design["scale"] = scale.id
        self.design["concept"] = f"{v.vt} converted from {t.system}"
        if v.tech is not None and normalise(v.tech) not in {normalise(x) for x in t.tech.values}:
            raise InputError.single(
                f"Tech {v.tech!r} is neither {' nor '.join(t.tech.values)}",
                path="tech",
                allowed=", ".join(t.tech.values),
            )
        for note_row in t.notes:
            value = getattr(v, note_row.field, None)
            if value is None:
                self.note(note_row.label, "note", "", "", "not given", note_row.source)
            else:
                self.note(note_row.label, "note", value, "", "no conversion; kept in the notes", note_row.source)
        paths = {s.id: s.path for s in self.catalog.meta.stats}
        for row in t.stats:
            raw = getattr(v, row.field)
            value = raw.value if isinstance(raw, Scaled) else raw
            self.design[paths.get(row.stat, row.stat)] = self.stat(row, value, str(raw))
            if isinstance(raw, Scaled):
                self.soak_mark(raw, scale)
        self.cost(scale)
        given = {"structure": structure, "power": power, "crew": crew}
        for assumed in t.assumed:
            self.assume(assumed, scale, given.get(assumed.stat), paths)
        self.weapons(scale)
        return self.design

    def soak_mark(self, soak: Scaled, scale: Any) -> None:
        if soak.mark is None:
            self.note("Soak mark", "assumed", "", scale.name, f"no scale mark; the VT's {scale.name} scale is used")
            return
        mark_scale, row = self.mark_scale(soak.mark, self.t.soak_marks, "Soak", "soak")
        if mark_scale.id != scale.id:
            self.note(
                "Soak mark",
                "conflict",
                f"[{soak.mark}]",
                f"{scale.name} scale",
                f"VT {self.v.vt!r} says {scale.name} but the Soak mark [{soak.mark}] says {mark_scale.name}; "
                "the VT decides",
                row.source,
            )
        else:
            self.note(
                "Soak mark", "converted", f"[{soak.mark}]", f"{mark_scale.name} scale", "agrees with the VT", row.source
            )

    def cost(self, scale: Any) -> None:
        row = self.t.cost
        if self.v.cost is None:
            self.note(row.label, "note", "", "", f"not given; no {row.result}", row.source)
            return
        found = ladder(self.catalog).lookup(row.points_per_resource, scale)
        if found is None:
            raise InputError.single(f"the conversion table prices no {scale.name}-scale vessel", file=table_file())
        per = found[0]
        resources = math.ceil(self.v.cost / per)
        self.note(
            row.label,
            "converted",
            f"{self.v.cost} CP",
            f"{row.result} {resources}",
            f"{self.v.cost} / {per} construction points per point at {scale.name} scale, rounded up",
            row.source,
        )

    def assume(self, row: AssumedRow, scale: Any, given: int | None, paths: dict[str, str]) -> None:
        stat = self.stats.get(row.stat)
        name = stat.name if stat else row.stat
        field = paths.get(row.stat, row.stat)
        if given is not None:
            if stat is not None and (
                (stat.min is not None and given < stat.min) or (stat.max is not None and given > stat.max)
            ):
                low = "" if stat.min is None else f" from {stat.min}"
                high = "" if stat.max is None else f" up to {stat.max}"
                raise InputError.single(
                    f"the {name} given, {given}, is outside the {self.catalog.meta.name} range",
                    path=row.stat,  # the option's name (a problem of what the person gave, not of the file)
                    allowed=f"{name}{low}{high}",
                )
            bounds = _bounds(self.catalog, field)  # beyond the rules: what the design's field holds
            if bounds is not None:
                least, most = bounds
                if not least <= given <= most:
                    raise InputError.single(
                        f"the {name} given, {given:,}, is more than a design holds"
                        if given > most
                        else f"the {name} given, {given:,}, is less than a design holds",
                        path=row.stat,
                        allowed=f"{name} from {least:,} up to {most:,}",
                    )
            self.design[field] = given
            self.note(name, "assumed", "", given, f"{self.t.system} has no {name}; given by you", row.source)
            return
        value: int | None = row.value
        why = row.why
        if row.by_scale:
            found = ladder(self.catalog).lookup(row.by_scale, scale)
            if found is not None:
                raw = found[0]
                if isinstance(raw, str):
                    value = int(self.design.get(paths.get(raw, raw), 0))
                    why = f"{why} (= {raw} {value})"
                else:
                    value = raw
        if value is None:
            raise InputError.single(f"the conversion table assumes no {name} for {scale.name} scale")
        self.design[field] = value
        self.note(name, "assumed", "", value, f"{self.t.system} has no {name}; {why}", row.source)

    def special(self, weapon: TrinityWeapon) -> SpecialWeapon | None:
        key = normalise(weapon.name)
        for sw in self.t.special_weapons:
            if any(normalise(n) in key for n in (sw.name, *sw.aliases)):
                return sw
        return None

    def weapons(self, vessel_scale: Any) -> None:
        rule = self.t.weapons
        custom_weapons: list[dict[str, Any]] = []
        custom_tech: list[dict[str, Any]] = []
        for i, w in enumerate(self.v.weapons):
            parts = {"accuracy": w.accuracy, "damage": w.damage.value}
            attack = sum(parts[p] for p in rule.attack)
            sums = " + ".join(f"{p.capitalize()} {parts[p]}" for p in rule.attack)
            low, high = _bounds(self.catalog, "custom_weapons[0].damage") or (-NUMBER_RANGE, NUMBER_RANGE)
            if not low <= attack <= high:  # each within the vessel's own limits, their sum beyond a weapon's
                raise InputError.single(
                    f"{w.name}: {sums} = {attack:+d}, beyond the damage a converted weapon may have",
                    path=f"weapons[{i}]",
                    allowed=f"{' + '.join(p.capitalize() for p in rule.attack)} from {low:+d} to {high:+d}",
                )
            original = f"{w.count} x {w.name}: Accuracy {w.accuracy}, Damage {w.damage}"
            label = f"weapons[{i}] {w.name}"
            special = self.special(w)
            if special is not None:
                scale = self.scale(special.scale)
                how = f"recognised as {special.name}: {scale.name} scale"
                if w.damage.mark is not None:
                    how += f" (its mark [{w.damage.mark}] does not decide)"
                source = special.source
            elif w.damage.mark is not None:
                scale, row = self.mark_scale(w.damage.mark, self.t.weapon_marks, w.name, f"weapons[{i}].damage")
                how, source = f"[{w.damage.mark}]: {scale.name} scale", row.source
            else:
                scale, how, source = vessel_scale, "", rule.source
                self.note(
                    label,
                    "assumed",
                    "no scale mark",
                    f"{scale.name} scale",
                    "no scale mark; the vessel's scale is used",
                    rule.source,
                )
            extras = [f"{self.t.system}: {sums} = {attack:+d} [{w.damage.mark if w.damage.mark else '-'}]"]
            if w.range is not None:
                extras.append(f"range {w.range} (no conversion)")
            if w.notes:
                extras.append(w.notes)
            detail = "; ".join(extras)
            stats = f"Damage {attack:+d}, Speed {rule.speed:+d}"
            if scale.index > vessel_scale.index:
                name = w.name if w.count == 1 else f"{w.name} (x{w.count})"
                custom_tech.append(
                    {"name": name, "cost": rule.cost, "scale": scale.id, "description": f"{stats}. {detail}"}
                )
                self.note(
                    label,
                    "converted",
                    original,
                    f"custom technology at {scale.name} scale: {stats}, {rule.cost} "
                    f"{self._pool_name('custom-technology-cost')}",
                    f"{sums}; {how}; larger than this {vessel_scale.name}-scale vessel, so bought as advanced "
                    f"technology; cost {rule.cost} assumed (the Storyteller assigns it)",
                    f"{source}; {rule.out_of_scale_source}",
                )
            else:
                smaller = scale.index < vessel_scale.index
                custom_weapons.append(
                    {
                        "name": w.name,
                        "count": w.count,
                        "speed": rule.speed,
                        "damage": attack,
                        "cost": rule.cost,
                        "scale": scale.id if smaller else None,
                        "notes": detail,
                    }
                )
                where = (
                    f"out-of-scale component ({scale.name} scale on a {vessel_scale.name}: cost / "
                    f"{self._rule_param('weapon-cost', 'smaller_scale_divisor')} per step)"
                    if smaller
                    else f"{scale.name} scale, as the vessel"
                )
                self.note(
                    label,
                    "converted",
                    original,
                    f"custom weapon: {stats}, {where}",
                    f"{sums}; {how + '; ' if how else ''}cost {rule.cost} {self._pool_name('weapon-cost')} assumed "
                    "(the Storyteller assigns it)",
                    f"{source}; {rule.out_of_scale_source}" if smaller else source,
                )
        self.design["custom_weapons"] = custom_weapons
        self.design["custom_technology"] = custom_tech
        if not self.v.weapons:
            self.note("Weapons", "converted", "none", "none", "", rule.source)


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def convert_vessel(
    vessel: TrinityVessel,
    catalog: Catalog | None = None,
    *,
    structure: int | None = None,
    power: int | None = None,
    crew: int | None = None,
    table: ConversionTable | None = None,
) -> ConversionResult:
    """Convert a Trinity vessel; the design is marked converted and carries the report."""
    table = table or load_table()
    if catalog is None:
        catalog = load_catalog(table.target_ruleset, use_user_folder=False)
    if catalog.meta.id != table.target_ruleset:
        raise InputError.single(
            f"the {table.system} conversion table converts to {table.target_ruleset!r}, not {catalog.meta.id!r}"
        )
    conv = _Converter(vessel, catalog, table)
    data = conv.run(structure, power, crew)
    original = vessel.model_dump(mode="json", exclude_none=True)
    data["notes"] = design_notes([_Note(**n) for n in conv.notes], vessel, table)
    data["converted"] = {"system": table.system, "source": original, "report": conv.notes}
    try:
        design = catalog.module.Design.model_validate(data)
    except ValidationError as exc:
        raise InputError([Problem(f"{format_path(e['loc'])}: {e['msg']}") for e in exc.errors()]) from None
    design = catalog.module.resolve(design, catalog)
    return ConversionResult(design, list(design.converted.report), catalog, vessel)


@dataclass
class _Note:
    field: str
    status: NoteStatus
    original: str
    value: str
    message: str
    source: str


def convert_file(file: Path, catalog: Catalog, options: dict[str, Any]) -> ConversionResult:
    """The conversion as ``shipyard convert trinity`` and the editor run it: a vessel file
    (YAML or JSON) converted with the options the manifest declares (structure, power, crew);
    bad input names the file and its line/column."""
    vessel, doc = load_vessel(file)
    try:
        return convert_vessel(
            vessel, catalog, structure=options.get("structure"), power=options.get("power"), crew=options.get("crew")
        )
    except InputError as exc:
        raise locate(exc, file, doc) from None
