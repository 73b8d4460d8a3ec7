"""Stat-block text both ways: "Name: Rebel Fighter Scale: Starfighter ... Accessories: ...".

The words belong to the ruleset (its ``statblock`` catalog entry: labels and the design
fields they fill, list words such as "Turreted" or "None", plurals, capacities); this
module is the mechanism. Reading finds the labels (any case, on one line or one per
line, Markdown emphasis and bullets ignored), splits the text into blocks at each name
label, and turns every value into design fields: numbers, the scale, and list entries
whose names are resolved through the catalog and its aliases. Every piece of the text
ends up in the import report, either used (from text to field) or not understood (with
the closest catalog names); a published number that differs from the catalog is
reported too. Writing prints a design in the same format (plain text or Markdown), and
reading what was written gives back the same design for everything the text can hold
(:func:`holdable`).

Problems that leave no design to speak of (no labels, a missing required label, a number
that cannot be, too much text) raise :class:`~shipyard.core.errors.InputError`.
"""

import re
import string
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from shipyard.core.designfile import LoadedDesign
from shipyard.core.errors import InputError, Problem
from shipyard.core.model import Catalog
from shipyard.core.suggest import closest, normalise
from shipyard.core.termtext import quote

FORMAT_KIND = "statblock"
MAX_TEXT_BYTES = 256 * 1024
MAX_BLOCKS = 200
MAX_NUMBER_DIGITS = 7
NOTES_LIMIT = 20_000

Status = Literal["used", "differs", "assumed", "not-understood", "skipped"]


class ImportEntry(BaseModel):
    """What became of one piece of the text."""

    model_config = ConfigDict(frozen=True)

    status: Status
    label: str = Field(default="", description="the label the piece was written under, as the format names it")
    text: str = Field(default="", description="the piece of text, as written")
    field: str = Field(default="", description="where it went in the design (path)")
    value: str = Field(default="", description="what it became")
    message: str = ""
    suggestions: list[str] = Field(default_factory=list, description="closest catalog names")
    line: int | None = None
    column: int | None = None

    def describe(self) -> str:
        where = f" (line {self.line}, column {self.column})" if self.line is not None else ""
        head = f"{self.label}: " if self.label else ""
        text = f'"{_short(self.text)}"' if self.text else "(not given)"
        out = f"{head}{text}{where}"
        if self.field:
            out += f" -> {self.field}"
            if self.value:
                out += f" = {self.value}"
        if self.message:
            out += f"; {self.message}"
        if self.suggestions:
            out += f"; did you mean {', '.join(repr(s) for s in self.suggestions)}?"
        return out


class ImportReport(BaseModel):
    """Every piece of one stat block's text and what became of it."""

    model_config = ConfigDict(frozen=True)

    name: str
    entries: list[ImportEntry]

    def by_status(self, status: Status) -> list[ImportEntry]:
        return [e for e in self.entries if e.status == status]

    @property
    def not_understood(self) -> list[ImportEntry]:
        return self.by_status("not-understood")

    def lines(self) -> list[str]:
        counts = {s: len(self.by_status(s)) for s in ("used", "differs", "assumed", "not-understood", "skipped")}
        summary = ", ".join(f"{n} {s.replace('-', ' ')}" for s, n in counts.items() if n)
        out = [f"{self.name}: {summary}"]
        width = max(len(e.status) for e in self.entries) if self.entries else 0
        out += [f"  {e.status.replace('-', ' '):<{width}}  {e.describe()}" for e in self.entries]
        return out


@dataclass
class StatBlockImport:
    """A design read from a stat block, its report, and the catalog it was read against."""

    design: Any
    report: ImportReport
    catalog: Catalog

    @property
    def ok(self) -> bool:
        """True when every piece of the text was understood."""
        return not self.report.not_understood

    def loaded(self, file: Path | None = None) -> LoadedDesign:
        preset = self.catalog.preset.id if self.catalog.preset else self.catalog.meta.default_preset
        return LoadedDesign(file, self.catalog.meta.id, preset, self.design, self.catalog)

    def design_with_report_notes(self, limit: int = NOTES_LIMIT) -> Any:
        """The design with every piece that was not understood written into its notes."""
        missed = self.report.not_understood
        if not missed:
            return self.design
        lines = [self.design.notes] if self.design.notes else []
        lines.append("Not understood when imported from a stat block:")
        for i, e in enumerate(missed):
            line = f"- {e.describe()}"
            if sum(len(x) + 1 for x in lines) + len(line) > limit - 40:
                lines.append(f"- ... and {len(missed) - i} more")
                break
            lines.append(line)
        return self.design.model_copy(update={"notes": "\n".join(lines)})


# --- the format -----------------------------------------------------------------------------


def statblock_format(catalog: Catalog) -> Any:
    """The ruleset's stat-block format (its first ``statblock`` catalog entry)."""
    formats = list(catalog.kind(FORMAT_KIND).values())
    if not formats:
        raise InputError.single(f"the {catalog.meta.name} catalog has no stat-block format ('{FORMAT_KIND}' entries)")
    return formats[0]


# Every pattern below reads user text, so each runs in time linear in it: no two
# quantifiers can share the characters they match. Whitespace is taken possessively
# (``\s*+``: no giving back), and a lazy name before a suffix ends at a non-space
# (``.*?\S``), so each run of spaces is scanned once, from the character before it.
# tests/test_properties.py feeds each reader growing runs of the characters repeated here.


def _words_pattern(names: Iterable[str]) -> str:
    alts = sorted({n.strip() for n in names if n.strip()}, key=len, reverse=True)
    return "|".join(r"\s*+".join(re.escape(part) for part in re.split(r"\s+", a)) for a in alts)


class _Format:
    """The catalog entry plus the lookups and patterns built from it."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.fmt = statblock_format(catalog)
        self.labels = list(self.fmt.labels)
        self.label_by_key: dict[str, Any] = {}
        for lab in self.labels:
            for n in (lab.name, *lab.aliases):
                self.label_by_key[normalise(n)] = lab
        names = [n for lab in self.labels for n in (lab.name, *lab.aliases)]
        self.label_re = re.compile(r"(?<![\w/-])(" + _words_pattern(names) + r")[ \t]*+:", re.IGNORECASE)
        self.lists = {lst.kind: lst for lst in self.fmt.lists}
        self.custom = {c.kind: c for c in self.fmt.custom}
        self.words = list(self.fmt.words)
        self.word_by_key = {normalise(n): w for w in self.words for n in (w.name, *w.aliases)}
        mod = [n for w in self.words if w.role in ("flag", "group", "filler") for n in (w.name, *w.aliases)]
        self.modifier_re = re.compile(r"(" + _words_pattern(mod) + r")(?=[\s(]|$)\s*+", re.IGNORECASE) if mod else None
        suffixes = [n for w in self.words if w.role == "scale-suffix" for n in (w.name, *w.aliases)]
        # " scale" needs a space before it, "-scale" may have one ("Starfighter -scale")
        suffix_alts = "|".join(
            (r"\s++" + re.escape(s.strip())) if s[:1].isspace() else (r"\s*+" + re.escape(s))
            for s in sorted(suffixes, key=len, reverse=True)
        )
        self.scale_prefix_re = (
            re.compile(r"(.*?\S)(?:" + suffix_alts + r")\b\s*+", re.IGNORECASE) if suffix_alts else None
        )
        # searched at every position: only where a run of spaces starts (or none is)
        self.scale_suffix_re = (
            re.compile(r"(?<!\s)(?:" + suffix_alts + r")\s*+$", re.IGNORECASE) if suffix_alts else None
        )
        self.scale_suffix = next((w.name for w in self.words if w.role == "scale-suffix"), "-scale")
        self.none_words = {normalise(n) for w in self.words if w.role == "none" for n in (w.name, *w.aliases)}
        self.none_word = next((w.name for w in self.words if w.role == "none"), "None")
        self.custom_words = [n for w in self.words if w.role == "custom" for n in (w.name, *w.aliases)]
        self.custom_word = self.custom_words[0] if self.custom_words else "custom"
        self.capacities = list(self.fmt.capacities)
        self.print_names = {(n.kind, n.id): n for n in self.fmt.names}
        self.scale_names = {normalise(s.name): s.scale for s in self.fmt.scale_names}

    # names ----------------------------------------------------------------------------------

    def singulars(self, name: str) -> list[str]:
        out = [name]
        low = name.lower()
        for rule in self.fmt.plurals:
            if rule.plural and low.endswith(rule.plural.lower()) and len(name) > len(rule.plural):
                out.append(name[: len(name) - len(rule.plural)] + rule.singular)
        return list(dict.fromkeys(out))

    def plural(self, name: str) -> str:
        low = name.lower()
        for rule in self.fmt.plurals:
            if low.endswith(rule.singular.lower()):
                return name[: len(name) - len(rule.singular)] + str(rule.plural)
        return name

    def resolve(self, name: str, kinds: list[str]) -> tuple[str, str] | None:
        for kind in kinds:
            for candidate in self.singulars(name):
                found = self.catalog.resolve(kind, candidate)
                if found is not None:
                    return kind, found
        return None

    def scale(self, text: str) -> Any:
        text = text.strip()
        if self.scale_suffix_re is not None:
            text = self.scale_suffix_re.sub("", text).strip()
        key = self.scale_names.get(normalise(text))
        return self.catalog.ladder.parse(key if key is not None else text)

    def scale_choices(self) -> list[str]:
        names = [e.name for e in self.catalog.ladder.section.ladder if e.designable]
        ext = self.catalog.ladder.section.extension
        if ext is not None:
            names.append(ext.name.format(n=1))
        return names

    def pool_name(self, kind: str, item: Any) -> str:
        pool_id = getattr(item, "pool", None)
        if pool_id is None:
            for rule in self.catalog.rules:
                if getattr(rule.params, "kind", None) == kind and getattr(rule.params, "pool", None):
                    pool_id = getattr(rule.params, "pool", None)
                    break
        pool = self.catalog.pool(pool_id) if pool_id else None
        return pool.name if pool else "points"

    def home_label(self, kind: str, custom: bool = False) -> Any:
        for lab in self.labels:
            if lab.value != "list":
                continue
            if (custom and lab.custom == kind) or (not custom and lab.kinds and lab.kinds[0] == kind):
                return lab
        return None

    def word_fields(self, kind: str) -> list[Any]:
        return [w for w in self.words if w.role in ("flag", "group") and kind in w.kinds and w.field]


# --- reading ----------------------------------------------------------------------------------


_BOLD = re.compile(r"(?<!\\)(\*\*|__)")
_BULLET = re.compile(r"(?m)^([ \t]*+)[-*+][ \t]++")
_ESCAPE = re.compile(r"\\([\\`*_\[\]<>|#{}()+.!-])")
_BLANK_LINE = re.compile(r"\n[ \t]*+\n")
_NUMBER = re.compile(r"([+\-−–]?)[ \t]*+(\d++)")
_SIGNS = {"": 1, "+": 1, "-": -1, "−": -1, "–": -1}


def _clean(text: str) -> str:
    """Plain text with the same lines: Markdown bold, bullets and escapes removed."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\ufeff", "")
    text = _BOLD.sub("  ", text)
    text = _BULLET.sub(lambda m: m.group(1) + "  ", text)
    text = text.replace("`", " ")
    return _ESCAPE.sub(r"\1", text)


def _short(text: str, limit: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass
class _Hit:
    label: Any
    written: str
    start: int
    value_start: int
    value_end: int = 0


@dataclass
class _Piece:
    text: str
    start: int


@dataclass
class _Phrase:
    """One list entry taken apart: "2 Turreted Starfighter-scale Medium Lasers (custom, ...)"."""

    text: str
    number: int | None = None
    flags: list[Any] = field(default_factory=list)
    group: tuple[Any, str | None] | None = None
    fillers: list[str] = field(default_factory=list)
    scale: Any = None
    scale_text: str = ""
    name: str = ""
    paren: str | None = None
    unit: str = ""
    problem: str = ""


@dataclass
class _Entry:
    """A list entry on its way into the design, with where it came from."""

    kind: str
    custom: bool
    data: dict[str, Any]
    label: Any
    piece: _Piece
    message: str = ""
    status: Status = "used"
    capacity: tuple[int, Any] | None = None
    group_tag: str | None = None
    has_group: bool = False


class _Reader:
    def __init__(self, text: str, fmt: _Format, source: str | None) -> None:
        self.raw = text
        self.text = _clean(text)
        self.fmt = fmt
        self.catalog = fmt.catalog
        self.source = source
        self._line_starts = [0] + [m.end() for m in re.finditer("\n", self.text)]

    def position(self, offset: int) -> tuple[int, int]:
        lo, hi = 0, len(self._line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self._line_starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1, offset - self._line_starts[lo] + 1

    def problem(self, message: str, offset: int | None = None, label: Any = None, **kw: Any) -> Problem:
        line, col = self.position(offset) if offset is not None else (None, None)
        return Problem(message, self.source, line, col, path=label.name if label is not None else None, **kw)

    def entry(self, status: Status, offset: int | None, **kw: Any) -> ImportEntry:
        line, col = self.position(offset) if offset is not None else (None, None)
        return ImportEntry(status=status, line=line, column=col, **kw)

    # blocks --------------------------------------------------------------------------------

    def blocks(self) -> tuple[list[list[_Hit]], list[ImportEntry]]:
        hits = []
        for m in self.fmt.label_re.finditer(self.text):
            lab = self.fmt.label_by_key.get(normalise(m.group(1)))
            if lab is not None:
                hits.append(_Hit(lab, m.group(1), m.start(), m.end()))
        if not hits:
            labels = ", ".join(f"{lab.name}:" for lab in self.fmt.labels)
            raise InputError([self.problem(f"no stat-block labels found; a stat block has labels such as {labels}")])
        for h, nxt in zip(hits, [*hits[1:], None], strict=True):
            h.value_end = nxt.start if nxt is not None else len(self.text)
        skipped = []
        before = self.text[: hits[0].start]
        if before.strip():
            skipped.append(self._outside(before, 0, "text before the first label"))
        blocks: list[list[_Hit]] = []
        for h in hits:
            starts = h.label.starts_block
            if not blocks or (starts and any(x.label.starts_block for x in blocks[-1])):
                blocks.append([h])
            else:
                blocks[-1].append(h)
        if len(blocks) > MAX_BLOCKS:
            raise InputError([self.problem(f"{len(blocks)} stat blocks in one text; at most {MAX_BLOCKS} are read")])
        return blocks, skipped

    def _outside(self, text: str, offset: int, why: str) -> ImportEntry:
        lead = len(text) - len(text.lstrip())
        return self.entry(
            "skipped", offset + lead, text=text.strip(), message=f"{why}; not part of any stat-block value"
        )

    def value(self, hit: _Hit) -> tuple[str, int, ImportEntry | None]:
        """A label's value: up to the next label, or to a blank line (what follows is outside)."""
        text = self.text[hit.value_start : hit.value_end]
        rest = None
        m = _BLANK_LINE.search(text)
        if m is not None:
            after = text[m.end() :]
            if after.strip():
                rest = self._outside(after, hit.value_start + m.end(), f"text after {hit.label.name}'s value")
            text = text[: m.start()]
        lead = len(text) - len(text.lstrip())
        return text.strip().replace("\\:", ":"), hit.value_start + lead, rest  # "Scale\\:" in a value


def import_statblocks(text: str, catalog: Catalog, *, source: str | Path | None = None) -> list[StatBlockImport]:
    """Every stat block in ``text``, each as a design plus its import report.

    Raises InputError (naming ``source``, line and column) when the text cannot make a
    design at all; pieces that are merely not understood are in each report instead.
    """
    src = str(source) if source is not None else None
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_TEXT_BYTES:
        raise InputError.single(f"text is {size:,} bytes; stat-block text is limited to {MAX_TEXT_BYTES:,}", file=src)
    if "\x00" in text:
        raise InputError.single("contains NUL bytes; is this a binary file?", file=src)
    if not text.strip():
        raise InputError.single("no text to import", file=src)
    fmt = catalog.memo("statblock-format", lambda: _Format(catalog))
    reader = _Reader(text, fmt, src)
    blocks, skipped = reader.blocks()
    results: list[StatBlockImport] = []
    problems: list[Problem] = []
    for i, block in enumerate(blocks):
        try:
            results.append(_Block(reader, block, i + 1, skipped if i == 0 else []).build())
        except InputError as exc:
            problems += exc.problems
    if problems:
        raise InputError(problems)
    return results


def import_statblock(text: str, catalog: Catalog, *, source: str | Path | None = None) -> StatBlockImport:
    """The one stat block in ``text`` (an InputError if there are several)."""
    results = import_statblocks(text, catalog, source=source)
    if len(results) > 1:
        names = ", ".join(repr(r.design.name) for r in results)
        raise InputError.single(
            f"the text holds {len(results)} stat blocks ({names}); import them one at a time or all together",
            file=str(source) if source is not None else None,
        )
    return results[0]


class _Block:
    """One stat block: from its name label to the next block's."""

    def __init__(self, reader: _Reader, hits: list[_Hit], number: int, skipped: list[ImportEntry]) -> None:
        self.r = reader
        self.fmt = reader.fmt
        self.catalog = reader.catalog
        self.hits = hits
        self.number = number
        self.entries: list[ImportEntry] = list(skipped)
        self.problems: list[Problem] = []
        self.data: dict[str, Any] = {}
        self.list_entries: list[_Entry] = []
        self.scale: Any = None
        self.origin: dict[str, tuple[Any, int]] = {}

    # ------------------------------------------------------------------------------------------

    def build(self) -> StatBlockImport:
        values: dict[str, tuple[_Hit, str, int]] = {}
        for h in self.hits:
            if h.label.id in values:
                first = values[h.label.id][0]
                line, _ = self.r.position(first.start)
                self.problems.append(
                    self.r.problem(
                        f"{h.label.name} is given twice in one stat block (first on line {line})", h.start, h.label
                    )
                )
                continue
            text, offset, outside = self.r.value(h)
            values[h.label.id] = (h, text, offset)
            if outside is not None:
                self.entries.append(outside)
        name_hit = next((v for k, v in values.items() if self._label(k).starts_block), None)
        self.name = " ".join(name_hit[1].split()) if name_hit else f"stat block {self.number}"
        missing = [lab for lab in self.fmt.labels if lab.required and lab.id not in values]
        if missing:
            start = self.hits[0].start
            self.problems.append(
                self.r.problem(
                    f"stat block {quote(self.name)} lacks {', '.join(lab.name + ':' for lab in missing)}",
                    start,
                    allowed="labels " + ", ".join(lab.name for lab in self.fmt.labels),
                )
            )
        scale_label = next((lab for lab in self.fmt.labels if lab.value == "scale"), None)
        if scale_label is not None and scale_label.id in values:
            self._scale(scale_label, *values[scale_label.id][1:])
        for lab in self.fmt.labels:
            if lab.value == "scale":
                continue
            if lab.id in values:
                h, text, offset = values[lab.id]
                if lab.value == "text":
                    self._text(lab, text, offset)
                elif lab.value == "number":
                    self._number(lab, text, offset)
                else:
                    self._list(lab, text, offset)
            elif not lab.required:
                self._missing(lab)
        if self.problems:
            raise InputError(self.problems + self._scalar_problems())
        return self._finish()

    def _scalar_problems(self) -> list[Problem]:
        """Impossible values among the labels that were read, so one run reports them all."""
        try:
            self.catalog.module.Design.model_validate(self.data)
        except ValidationError as exc:
            return [
                self._validation_problem(err, {})
                for err in exc.errors()
                if err["type"] != "missing" and err["loc"] and str(err["loc"][0]) in self.origin
            ]
        return []

    def _label(self, label_id: str) -> Any:
        return next(lab for lab in self.fmt.labels if lab.id == label_id)

    def _used(self, lab: Any, text: str, offset: int, path: str, value: str, message: str = "") -> None:
        self.entries.append(
            self.r.entry("used", offset, label=lab.name, text=text, field=path, value=value, message=message)
        )

    # text, scale, numbers ----------------------------------------------------------------------

    def _text(self, lab: Any, text: str, offset: int) -> None:
        value = _text_value(text)
        if not value and lab.required:
            self.problems.append(self.r.problem(f"{lab.name} is empty", offset, lab))
            return
        self.data[lab.field] = value
        self.origin[lab.field] = (lab, offset)
        self._used(lab, text, offset, lab.field, value)

    def _scale(self, lab: Any, text: str, offset: int) -> None:
        found = self.fmt.scale(text)
        if found is None or not found.designable:
            choices = self.fmt.scale_choices()
            why = "is not a scale" if found is None else "is not a scale a spacecraft can be designed at"
            hint = closest(text, choices)
            self.problems.append(
                self.r.problem(
                    f"{lab.name} {quote(text)} {why}"
                    + (f"; did you mean {', '.join(repr(h) for h in hint)}?" if hint else ""),
                    offset,
                    lab,
                    allowed=", ".join(choices),
                )
            )
            return
        self.scale = found
        self.data[lab.field] = found.id
        self.origin[lab.field] = (lab, offset)
        self._used(lab, text, offset, lab.field, found.name)

    def _parse_int(self, lab: Any, text: str, offset: int, what: str) -> tuple[int, str] | None:
        m = _NUMBER.match(text)
        if m is None:
            self.problems.append(self.r.problem(f"{what} {quote(text)} is not a whole number", offset, lab))
            return None
        if len(m.group(2).lstrip("0")) > MAX_NUMBER_DIGITS:
            self.problems.append(self.r.problem(f"{what} {_short(m.group(0), 20)} is impossibly large", offset, lab))
            return None
        return _SIGNS[m.group(1)] * int(m.group(2)), text[m.end() :].strip()

    def _number(self, lab: Any, text: str, offset: int) -> None:
        parsed = self._parse_int(lab, text, offset, lab.name)
        if parsed is None:
            return
        value, rest = parsed
        rest = rest.rstrip(".,;").strip()
        self.data[lab.field] = value
        self.origin[lab.field] = (lab, offset)
        parts_text = ""
        if rest and lab.parts:
            parts_text, rest = self._parts(lab, rest, offset)
        used = text[: text.rfind(rest)].strip() if rest else text
        self._used(lab, used, offset, lab.field, f"{value}{parts_text}", self._range_note(lab.field, value))
        if rest:
            self.entries.append(
                self.r.entry(
                    "not-understood",
                    offset + text.rfind(rest),
                    label=lab.name,
                    text=rest,
                    message=f"{lab.name} takes a whole number"
                    + (f" and optionally ({', '.join(p.name + ' N' for p in lab.parts)})" if lab.parts else ""),
                )
            )

    def _parts(self, lab: Any, rest: str, offset: int) -> tuple[str, str]:
        m = re.fullmatch(r"\((.*)\)\s*+[.,;]?", rest.strip(), re.DOTALL)
        if m is None:
            return "", rest
        by_key = {normalise(n): p for p in lab.parts for n in (p.name, *p.aliases)}
        pattern = re.compile(
            r"\s*+(" + _words_pattern(_part_names(lab)) + r")\s*+:?\s*+([+\-−–]?\s*+\d{1,7})\s*+", re.I
        )
        found: dict[str, int] = {}
        for chunk in re.split(r"[,;]|\band\b", m.group(1)):
            if not chunk.strip():
                continue
            pm = pattern.fullmatch(chunk)
            if pm is None:
                return "", rest
            part = by_key[normalise(pm.group(1))]
            number = pm.group(2).replace(" ", "")
            found[part.field] = _SIGNS[number[0]] * int(number[1:]) if number[0] in _SIGNS else int(number)
        for part_field, v in found.items():
            self.data[part_field] = v
            self.origin[part_field] = (lab, offset)
        names = {p.field: p.name for p in lab.parts}
        return " (" + ", ".join(f"{names[k]} {v}" for k, v in found.items()) + ")", ""

    def _range_note(self, field_name: str, value: int) -> str:
        for stat in self.catalog.meta.stats:
            if stat.path != field_name:
                continue
            low = stat.min is not None and value < stat.min
            high = stat.max is not None and value > stat.max
            if low or high:
                rng = f"{stat.min if stat.min is not None else '…'} to {stat.max if stat.max is not None else '…'}"
                return f"outside the rules' range {rng}; `shipyard check` reports it"
        return ""

    def _missing(self, lab: Any) -> None:
        """A label the block does not give: say what is taken instead."""
        if lab.value == "list":
            self._assumed(lab, "", self.fmt.none_word, f"no {lab.name} label; read as {self.fmt.none_word}")
            return
        if lab.field is None:
            return
        found = self.catalog.ladder.lookup(lab.assume, self.scale) if lab.assume and self.scale else None
        if found is not None:
            self.data[lab.field] = found[0]
            why = f"no {lab.name} label; {found[0]} assumed for a {self.scale.name}-scale craft"
            self._assumed(lab, lab.field, str(found[0]), why)
        elif lab.value == "text":
            self._assumed(lab, lab.field, "(empty)", f"no {lab.name} label; left empty")
        elif self.scale is not None:
            # no value to assume: the design model's own default (or its error, if it has none)
            self._assumed(lab, lab.field, "(default)", f"no {lab.name} label; the design's default is used")

    def _assumed(self, lab: Any, path: str, value: str, message: str) -> None:
        self.entries.append(self.r.entry("assumed", None, label=lab.name, field=path, value=value, message=message))

    # lists -------------------------------------------------------------------------------------

    def _list(self, lab: Any, text: str, offset: int) -> None:
        bare = text.strip().rstrip(".,;").strip()
        if not bare or normalise(bare) in self.fmt.none_words:
            home = self.fmt.lists.get(lab.kinds[0]) if lab.kinds else None
            value = self.fmt.none_word if bare else "(empty)"
            self._used(lab, text, offset, home.field if home else "", value, f"no {lab.name.lower()}")
            return
        pieces = [_Piece(t.strip(), offset + start + len(t) - len(t.lstrip())) for t, start in _split(text)]
        pieces = [p for p in pieces if p.text.strip(" \t.")]
        i = 0
        while i < len(pieces):
            taken = 1
            entry: _Entry | None = None
            for span in (3, 2):
                if i + span <= len(pieces):
                    joined = _Piece(", ".join(p.text for p in pieces[i : i + span]), pieces[i].start)
                    candidate = self._phrase_entry(lab, joined, joins=True)
                    if isinstance(candidate, _Entry):
                        entry, taken = candidate, span
                        break
            if entry is None:
                result = self._phrase_entry(lab, pieces[i])
                if isinstance(result, _Entry):
                    entry = result
                elif result is not None:
                    self.entries.append(result)
            if entry is not None:
                self.list_entries.append(entry)
            i += taken

    def _phrase(self, piece: _Piece) -> _Phrase:
        s = piece.text.strip().rstrip(".").strip()
        ph = _Phrase(piece.text)
        m = re.match(r"(\d++)(?:\s*+[x×](?=\s))?\s++", s)
        if m is not None:
            if len(m.group(1).lstrip("0")) > MAX_NUMBER_DIGITS:
                ph.problem = f"{m.group(1)[:20]} is impossibly large"
                return ph
            ph.number = int(m.group(1))
            s = s[m.end() :]
        for _ in range(20):
            if self.fmt.modifier_re is not None:
                mm = self.fmt.modifier_re.match(s)
                if mm is not None:
                    word = self.fmt.word_by_key.get(normalise(mm.group(1)))
                    s = s[mm.end() :]
                    if word is None:
                        continue
                    if word.role == "flag":
                        ph.flags.append(word)
                    elif word.role == "group":
                        tag = re.match(r"\(\s*+group\s++([A-Za-z0-9]{1,10})\s*+\)\s*+", s, re.IGNORECASE)
                        if tag is not None:
                            s = s[tag.end() :]
                        ph.group = (word, tag.group(1).upper() if tag else None)
                    else:
                        ph.fillers.append(mm.group(1))
                    continue
            if self.fmt.scale_prefix_re is not None and ph.scale is None:
                sm = self.fmt.scale_prefix_re.match(s)
                if sm is not None:
                    found = self.fmt.scale(sm.group(1))
                    if found is not None:
                        ph.scale, ph.scale_text = found, sm.group(1).strip()
                        s = s[sm.end() :]
                        continue
            break
        pm = re.search(r"\(([^()]*+)\)\s*+$", s)
        if pm is not None:
            ph.paren = pm.group(1).strip()
            s = s[: pm.start()]
        ph.name = s.strip()
        return ph

    def _phrase_entry(self, lab: Any, piece: _Piece, joins: bool = False) -> _Entry | ImportEntry | None:
        """A list entry from one piece; with ``joins``, only a catalog name that has a comma in it."""
        ph = self._phrase(piece)
        if joins and (ph.problem or "," not in ph.name):
            return None
        if ph.problem:
            self.problems.append(self.r.problem(f"{quote(piece.text)}: {ph.problem}", piece.start, lab))
            return self._not_understood(lab, piece, ph, ph.problem)
        if not ph.name:
            return self._not_understood(lab, piece, ph, "no name")
        found = self.fmt.resolve(ph.name, lab.kinds)
        if found is None and ph.fillers:
            found = self.fmt.resolve(" ".join([*ph.fillers, ph.name]), lab.kinds)
        if found is None and ph.number is not None:
            found = self._capacity_name(ph, lab.kinds)
        if found is not None:
            return self._catalog_entry(lab, piece, ph, *found)
        if joins:
            return None
        if ph.paren is not None and lab.custom and self._is_custom(ph.paren):
            return self._custom_entry(lab, piece, ph)
        return self._not_understood(lab, piece, ph, "")

    def _capacity_name(self, ph: _Phrase, kinds: list[str]) -> tuple[str, str] | None:
        """ "250 cubic-meter Cargo Bay": a capacity unit before the name; the name is the rest."""
        name = ph.name
        low = name.lower()
        for cap in self.fmt.capacities:
            if cap.kind not in kinds:
                continue
            for unit in sorted(cap.units, key=len, reverse=True):
                if low.startswith(unit.lower()) and len(name) > len(unit) and name[len(unit)] in " -":
                    rest = name[len(unit) :].strip(" -")
                    found = self.fmt.resolve(rest, [cap.kind])
                    if found == (cap.kind, cap.item):
                        ph.name, ph.unit = rest, name[: len(unit)]
                        return found
        return None

    def _not_understood(self, lab: Any, piece: _Piece, ph: _Phrase, why: str) -> ImportEntry:
        names = [n for kind in lab.kinds for n in self._display_names(kind)]
        hints = closest(ph.name or piece.text, names) if ph.name or piece.text else []
        kinds = " or ".join(self.fmt.lists[k].noun if k in self.fmt.lists else k for k in lab.kinds)
        message = why or f"no {kinds} by this name in the {self.catalog.meta.name} catalog"
        if not why and lab.custom:
            message += f" (for an item of your own write '{ph.name or piece.text} ({self.fmt.custom_word}, Cost N)')"
        return self.r.entry(
            "not-understood", piece.start, label=lab.name, text=piece.text, message=message, suggestions=hints
        )

    def _display_names(self, kind: str) -> list[str]:
        out: list[str] = []
        for item in self.catalog.kind(kind).values():
            out += [item.name, *item.aliases]
        return out

    def _is_custom(self, paren: str) -> bool:
        first = re.split(r"[\s,:;]+", paren.strip(), maxsplit=1)[0]
        return normalise(first) in {normalise(w) for w in self.fmt.custom_words}

    def _catalog_entry(self, lab: Any, piece: _Piece, ph: _Phrase, kind: str, item_id: str) -> _Entry | ImportEntry:
        spec = self.fmt.lists.get(kind)
        item = self.catalog.item(kind, item_id)
        if spec is None or item is None:
            return self._not_understood(lab, piece, ph, f"the stat block has no place for {kind}")
        data: dict[str, Any] = {spec.id_key: item_id}
        notes: list[str] = []
        status: Status = "used"
        capacity = None
        allowed_words = {w.id for w in self.fmt.word_fields(kind)}
        stray = [w.name for w in ph.flags if w.id not in allowed_words]
        if ph.group is not None and ph.group[0].id not in allowed_words:
            stray.append(ph.group[0].name)
        if stray:
            return self._not_understood(lab, piece, ph, f"{', '.join(stray)} does not apply to {item.name}")
        if ph.number is not None:
            if spec.count_key:
                if ph.number < 1:
                    why = f"{quote(piece.text)}: a count of {ph.number} is impossible"
                    self.problems.append(self.r.problem(why, piece.start, lab))
                data[spec.count_key] = ph.number
            else:
                cap = next((c for c in self.fmt.capacities if (c.kind, c.item) == (kind, item_id)), None)
                if cap is None:
                    return self._not_understood(lab, piece, ph, f"a number before {item.name} means nothing here")
                capacity = (ph.number, cap)
        elif spec.count_key:
            data[spec.count_key] = 1
        for w in ph.flags:
            data[w.field] = True
        if ph.group is not None:
            data[ph.group[0].field] = True
        if ph.scale is not None:
            if not spec.scale_key:
                return self._not_understood(lab, piece, ph, f"{item.name} takes no scale")
            data[spec.scale_key] = ph.scale.id
        if ph.paren is not None:
            if self._is_custom(ph.paren):
                return self._not_understood(
                    lab, piece, ph, f"{item.name} is in the catalog; an item of your own needs a name of its own"
                )
            n = re.fullmatch(r"(\d{1,7})", ph.paren.strip())
            if n is None:
                return self._not_understood(lab, piece, ph, f"({ph.paren}) after {item.name} is not a number")
            number = int(n.group(1))
            per_level = bool(getattr(item, "per_level", False))
            if spec.level_key and per_level:
                if number < 1:
                    self.problems.append(
                        self.r.problem(f"{quote(piece.text)}: level {number} is impossible", piece.start, lab)
                    )
                data[spec.level_key] = number
                cost = getattr(item, "cost", None)
                if cost is not None:
                    pool = self.fmt.pool_name(kind, item)
                    notes.append(f"level {number} ({number} x {cost} = {number * cost} {pool})")
            elif spec.level_key:
                cost = getattr(item, "cost", None)
                pool = self.fmt.pool_name(kind, item)
                preset = self.catalog.preset.id if self.catalog.preset else ""
                if cost == number:
                    notes.append(f"published cost {number} equals the catalog's {cost} {pool}")
                else:
                    status = "differs"
                    notes.append(
                        f"published cost {number}, the catalog's is {cost} {pool} (preset {preset}); "
                        "the design uses the catalog's"
                    )
            else:
                return self._not_understood(lab, piece, ph, f"a number after {item.name} is not part of the format")
        written = " ".join([*ph.fillers, ph.name]) if ph.fillers else ph.name
        if normalise(written) not in {normalise(item.name), normalise(item.id)} and not any(
            normalise(c) == normalise(item.name) for c in self.fmt.singulars(ph.name)
        ):
            notes.insert(0, f"{quote(written)} is a name of {item.name}")
        if lab.kinds and kind != lab.kinds[0]:
            where = getattr(item, "pool", None)
            paid = f", paid from {self.fmt.pool_name(kind, item)}" if where else ""
            notes.append(f"listed under {lab.name}; the catalog has {item.name} under {kind}{paid}")
        entry = _Entry(kind, False, data, lab, piece, "; ".join(notes), status, capacity)
        if ph.group is not None:
            entry.has_group = True
            entry.group_tag = ph.group[1]
        return entry

    def _custom_entry(self, lab: Any, piece: _Piece, ph: _Phrase) -> _Entry | ImportEntry:
        spec = self.fmt.custom.get(lab.custom)
        if spec is None:
            return self._not_understood(lab, piece, ph, "")
        if ph.flags or ph.group is not None:
            return self._not_understood(lab, piece, ph, "mount words do not apply to an item of your own")
        name = " ".join([*ph.fillers, ph.name])
        data: dict[str, Any] = {spec.name_key: name}
        if ph.number is not None:
            if not spec.count_key:
                return self._not_understood(lab, piece, ph, f"a number before {name} means nothing here")
            data[spec.count_key] = ph.number
        if ph.scale is not None and spec.scale_key:
            data[spec.scale_key] = ph.scale.id
        body = re.sub(r"\A\s*+\w++\s*+[,:;]?\s*+", "", ph.paren or "", count=1)
        keys = {normalise(n): k for k in spec.keys for n in (k.name, *k.aliases)}
        for chunk in [c.strip() for c in re.split(r"[,;]", body) if c.strip()]:
            lone = re.fullmatch(r"([+\-−–]?)\s*+(\d{1,7})", chunk)
            if lone is not None:
                data[spec.number_key] = _SIGNS[lone.group(1)] * int(lone.group(2))
                continue
            km = re.fullmatch(r"(.*?\S)\s*+:?\s*+([+\-−–]?)\s*+(\d{1,7})", chunk)
            if km is None:
                km2 = re.fullmatch(r"([+\-−–]?)\s*+(\d{1,7})\s*+(.+)", chunk)  # "4 PP"
                if km2 is None or normalise(km2.group(3)) not in keys:
                    return self._not_understood(lab, piece, ph, f"{quote(chunk)} is not one of {_names(spec.keys)}")
                data[keys[normalise(km2.group(3))].field] = _SIGNS[km2.group(1)] * int(km2.group(2))
                continue
            key = keys.get(normalise(km.group(1)))
            if key is None:
                return self._not_understood(lab, piece, ph, f"{quote(km.group(1))} is not one of {_names(spec.keys)}")
            data[key.field] = _SIGNS[km.group(2)] * int(km.group(3))
        return _Entry(spec.kind, True, data, lab, piece, "an item of your own, not from the catalog")

    # the design --------------------------------------------------------------------------------

    def _finish(self) -> StatBlockImport:
        self._name_groups()
        lists: dict[str, list[dict[str, Any]]] = {}
        entry_at: dict[str, _Entry] = {}
        for e in self.list_entries:
            spec = self.fmt.custom[e.kind] if e.custom else self.fmt.lists[e.kind]
            bucket = lists.setdefault(spec.field, [])
            path = f"{spec.field}[{len(bucket)}]"
            bucket.append(e.data)
            entry_at[path] = e
        for spec in [*self.fmt.lists.values(), *self.fmt.custom.values()]:
            self.data.setdefault(spec.field, [])
        self.data.update(lists)
        design_model = self.catalog.module.Design
        try:
            design = design_model.model_validate(self.data)
        except ValidationError as exc:
            raise InputError([self._validation_problem(err, entry_at) for err in exc.errors()]) from None
        try:
            design = self.catalog.module.resolve(design, self.catalog)
        except InputError as exc:
            for p in exc.problems:
                p.file = self.r.source
            raise
        checks = self._capacities(design, entry_at)
        for path, e in entry_at.items():
            status, message = e.status, e.message
            if path in checks:
                check_status, note = checks[path]
                message = "; ".join(x for x in (message, note) if x)
                status = "differs" if check_status == "differs" else status
            self.entries.append(
                self.r.entry(
                    status,
                    e.piece.start,
                    label=e.label.name,
                    text=e.piece.text,
                    field=path,
                    value=self._describe(e),
                    message=message,
                )
            )
        self.entries.sort(key=lambda x: (x.line or 0, x.column or 0) if x.line is not None else (10**9, 0))
        return StatBlockImport(design, ImportReport(name=design.name, entries=self.entries), self.catalog)

    def _name_groups(self) -> None:
        tags = {e.group_tag for e in self.list_entries if e.has_group and e.group_tag}
        used = set(tags)
        for e in self.list_entries:
            if not e.has_group:
                continue
            word = next(w for w in self.fmt.word_fields(e.kind) if w.role == "group")
            if e.group_tag:
                e.data[word.field] = e.group_tag
                continue
            letter = next(x for x in _group_names() if x not in used)
            used.add(letter)
            e.data[word.field] = letter

    def _validation_problem(self, err: Any, entry_at: dict[str, _Entry]) -> Problem:
        loc = list(err["loc"])
        msg = err["msg"]
        if len(loc) >= 2 and isinstance(loc[1], int):
            path = f"{loc[0]}[{loc[1]}]"
            e = entry_at.get(path)
            if e is not None:
                what = f".{loc[2]}" if len(loc) > 2 else ""
                return self.r.problem(f"{quote(e.piece.text)}: {path}{what}: {msg}", e.piece.start, e.label)
        origin = self.origin.get(str(loc[0])) if loc else None
        if origin is not None:
            lab, offset = origin
            value = self.data.get(str(loc[0]))
            return self.r.problem(f"{lab.name} {value} is impossible: {msg}", offset, lab)
        return self.r.problem(f"{'.'.join(map(str, loc))}: {msg}", self.hits[0].start)

    def _capacities(self, design: Any, entry_at: dict[str, _Entry]) -> dict[str, tuple[str, str]]:
        wanted = {p: e for p, e in entry_at.items() if e.capacity is not None}
        if not wanted:
            return {}
        from shipyard.core.evaluate import evaluate

        report = evaluate(design, self.catalog)
        out = {}
        for path, e in wanted.items():
            assert e.capacity is not None
            number, cap = e.capacity
            fig = report.derived.figure(cap.figure)
            have = fig.value if fig is not None else None
            unit = f" {fig.unit}" if fig is not None and fig.unit else ""
            if have == number:
                out[path] = ("used", f"published capacity {number} equals the design's {have}{unit}")
            else:
                out[path] = ("differs", f"published capacity {number}, the design holds {have}{unit}")
        return out

    def _describe(self, e: _Entry) -> str:
        d = e.data
        if e.custom:
            spec = self.fmt.custom[e.kind]
            bits = [f"{k.name} {d[k.field]}" for k in spec.keys if d.get(k.field) is not None]
            count = f"{d[spec.count_key]} x " if spec.count_key and d.get(spec.count_key, 1) != 1 else ""
            out = f"{count}{d[spec.name_key]} ({self.fmt.custom_word}" + (f": {', '.join(bits)}" if bits else "") + ")"
            if spec.scale_key and d.get(spec.scale_key):
                scale = self.catalog.ladder.parse(d[spec.scale_key])
                out += f", {scale.name if scale else d[spec.scale_key]} scale"
            return out
        spec = self.fmt.lists[e.kind]
        item = self.catalog.item(e.kind, d[spec.id_key])
        name = item.name if item is not None else d[spec.id_key]
        out = f"{d[spec.count_key]} x {name}" if spec.count_key else name
        for w in self.fmt.word_fields(e.kind):
            if w.role == "flag" and d.get(w.field):
                out += f", {w.name.lower()}"
            elif w.role == "group" and d.get(w.field):
                out += f", {w.name.lower()} (group {d[w.field]})"
        if spec.level_key and d.get(spec.level_key) is not None:
            out += f", level {d[spec.level_key]}"
        if spec.scale_key and d.get(spec.scale_key):
            scale = self.catalog.ladder.parse(d[spec.scale_key])
            out += f", {scale.name if scale else d[spec.scale_key]} scale"
        return out


def _split(text: str) -> list[tuple[str, int]]:
    """List pieces split at commas, semicolons and line ends outside parentheses."""
    out: list[tuple[str, int]] = []
    depth = start = 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(depth - 1, 0)
        elif ch in ",;\n" and depth == 0:
            out.append((text[start:i], start))
            start = i + 1
    out.append((text[start:], start))
    return out


def _text_value(text: str) -> str:
    """A text value as the stat block holds it: one line, no trailing comma or semicolon."""
    return " ".join(text.split()).rstrip(",;").strip()


def _part_names(lab: Any) -> list[str]:
    return [n for p in lab.parts for n in (p.name, *p.aliases)]


def _names(keys: list[Any]) -> str:
    return ", ".join(k.name for k in keys)


def _group_names() -> Iterable[str]:
    yield from string.ascii_uppercase
    n = 27
    while True:
        yield f"G{n}"
        n += 1


# --- writing ----------------------------------------------------------------------------------


_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#])")


def export_statblock(design: Any, catalog: Catalog, *, markdown: bool = False) -> str:
    """The design as stat-block text (one label a line), or as a Markdown list for forums."""
    fmt = catalog.memo("statblock-format", lambda: _Format(catalog))
    d = holdable(design, catalog)
    lines: list[tuple[str, str]] = []
    for lab in fmt.labels:
        if lab.value == "text":
            value = getattr(d, lab.field, "") or ""
            if not value and not lab.required:
                continue
            lines.append((lab.name, value))
        elif lab.value == "scale":
            scale = catalog.ladder.parse(getattr(d, lab.field))
            lines.append((lab.name, scale.name if scale else str(getattr(d, lab.field))))
        elif lab.value == "number":
            value = getattr(d, lab.field)
            parts = [(p.name, getattr(d, p.field, None)) for p in lab.parts]
            given = [f"{n} {v}" for n, v in parts if v is not None]
            lines.append((lab.name, f"{value}" + (f" ({', '.join(given)})" if given else "")))
        else:
            phrases = _list_phrases(fmt, d, lab)
            lines.append((lab.name, ", ".join(phrases) if phrases else fmt.none_word))
    if markdown:
        return "".join(f"- **{name}:** {_label_escape(fmt, _md_escape(value))}\n" for name, value in lines)
    return "".join(f"{name}: {_label_escape(fmt, value)}\n" for name, value in lines)


def _md_escape(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", text)


def _label_escape(fmt: _Format, text: str) -> str:
    """A label inside a value ("Alpha Scale: Beta") written "Scale\\:", so reading it back does not
    take it for a label; the reader turns "\\:" back into ":"."""
    return fmt.label_re.sub(lambda m: m.group(0)[:-1] + "\\:", text)


def _scale_prefix(fmt: _Format, scale_id: str | None) -> str:
    if not scale_id:
        return ""
    scale = fmt.catalog.ladder.parse(scale_id)
    return f"{scale.name if scale else scale_id}{fmt.scale_suffix} "


def _list_phrases(fmt: _Format, d: Any, lab: Any) -> list[str]:
    out: list[str] = []
    kind = lab.kinds[0] if lab.kinds else None
    spec = fmt.lists.get(kind) if kind else None
    if spec is not None and fmt.home_label(spec.kind) is lab:
        entries = getattr(d, spec.field)
        groups = _group_sizes(fmt, spec, entries)
        for e in entries:
            out.append(_item_phrase(fmt, spec, e, groups))
    custom = fmt.custom.get(lab.custom) if lab.custom else None
    if custom is not None:
        for e in getattr(d, custom.field):
            out.append(_custom_phrase(fmt, custom, e))
    return out


def _group_sizes(fmt: _Format, spec: Any, entries: list[Any]) -> dict[str, int]:
    sizes: dict[str, int] = {}
    for w in fmt.word_fields(spec.kind):
        if w.role == "group":
            for e in entries:
                g = getattr(e, w.field, None)
                if g:
                    sizes[g] = sizes.get(g, 0) + 1
    return sizes


def _item_phrase(fmt: _Format, spec: Any, e: Any, groups: dict[str, int]) -> str:
    item_id = getattr(e, spec.id_key)
    item = fmt.catalog.item(spec.kind, item_id)
    words: list[str] = []
    for w in fmt.word_fields(spec.kind):
        v = getattr(e, w.field, None)
        if w.role == "flag" and v:
            words.append(w.name)
        elif w.role == "group" and v:
            words.append(w.name + (f" (group {v})" if groups.get(v, 0) > 1 else ""))
    prefix = _scale_prefix(fmt, getattr(e, spec.scale_key) if spec.scale_key else None)
    name = item.name if item is not None else item_id
    if spec.count_key:
        count = getattr(e, spec.count_key)
        printed = fmt.print_names.get((spec.kind, item_id))
        if printed is not None:
            name = printed.one if count == 1 else printed.many
        elif count != 1:
            name = fmt.plural(name)
        return " ".join([str(count), *words, prefix + name]).replace("  ", " ")
    phrase = " ".join([*words, prefix + name]).strip()
    if spec.level_key and getattr(item, "per_level", False):
        phrase += f" ({getattr(e, spec.level_key)})"
    elif spec.print_cost and getattr(item, "cost", None) is not None:
        phrase += f" ({getattr(item, 'cost', '')})"
    return phrase


def _custom_phrase(fmt: _Format, spec: Any, e: Any) -> str:
    prefix = _scale_prefix(fmt, getattr(e, spec.scale_key) if spec.scale_key else None)
    bits = [f"{k.name} {getattr(e, k.field)}" for k in spec.keys if getattr(e, k.field, None) is not None]
    head = f"{getattr(e, spec.count_key)} " if spec.count_key else ""
    return f"{head}{prefix}{getattr(e, spec.name_key)} ({', '.join([fmt.custom_word, *bits])})"


def holdable(design: Any, catalog: Catalog) -> Any:
    """The design reduced to what its stat-block text can hold.

    Exporting and importing again gives exactly this. Fire-link groups are renamed A, B,
    C ... in order of first appearance (the text numbers them so); a level on an item
    without levels, notes, budgets, pilot, forms and descriptions are not in the text.
    """
    fmt = catalog.memo("statblock-format", lambda: _Format(catalog))
    dump = design.model_dump()
    keep: dict[str, Any] = {}
    for lab in fmt.labels:
        if lab.field and lab.field in dump:
            v = dump[lab.field]
            keep[lab.field] = _text_value(v) if isinstance(v, str) and lab.value == "text" else v
        for p in lab.parts:
            if p.field in dump:
                keep[p.field] = dump[p.field]
    for spec in fmt.lists.values():
        keys = [k for k in (spec.id_key, spec.count_key, spec.level_key, spec.scale_key) if k]
        keys += [w.field for w in fmt.word_fields(spec.kind)]
        rows = []
        for row in dump.get(spec.field, []):
            kept = {k: row[k] for k in keys if k in row}
            item = catalog.item(spec.kind, row[spec.id_key])
            if spec.level_key and item is not None and not getattr(item, "per_level", False):
                kept[spec.level_key] = 1
            rows.append(kept)
        for w in fmt.word_fields(spec.kind):
            if w.role == "group":
                names: dict[str, str] = {}
                letters = iter(_group_names())
                for kept in rows:
                    g = kept.get(w.field)
                    if g:
                        if g not in names:
                            names[g] = next(letters)
                        kept[w.field] = names[g]
        keep[spec.field] = rows
    for spec in fmt.custom.values():
        keys = [k for k in (spec.name_key, spec.count_key, spec.scale_key) if k] + [k.field for k in spec.keys]
        keep[spec.field] = [
            {**{k: row[k] for k in keys if k in row}, spec.name_key: " ".join(str(row[spec.name_key]).split())}
            for row in dump.get(spec.field, [])
        ]
    return type(design).model_validate(keep)


def lost_in_text(design: Any, catalog: Catalog) -> list[str]:
    """Paths of what the stat-block text cannot hold of this design (for a warning).

    Fire-link group names are not listed: the text keeps the groups and only renames them.
    """
    fmt = catalog.memo("statblock-format", lambda: _Format(catalog))
    renamed = {w.field for kind in fmt.lists for w in fmt.word_fields(kind) if w.role == "group"}
    return _diff(design.model_dump(), holdable(design, catalog).model_dump(), "", renamed)


def _diff(a: Any, b: Any, path: str, renamed: set[str]) -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        out: list[str] = []
        for k in a:
            if k in renamed and a[k] and b.get(k):
                continue
            out += _diff(a[k], b.get(k), f"{path}.{k}" if path else k, renamed)
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        out = []
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            out += _diff(x, y, f"{path}[{i}]", renamed)
        return out
    return [] if a == b else [path]


# --- the text-format face (a ruleset's manifest names this module; docs/rulesets.md) -----------

read = import_statblocks
write = export_statblock
lost = lost_in_text
