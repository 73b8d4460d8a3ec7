"""Reading stat blocks: each block's labels turned into design fields (text, the scale,
numbers and their named parts; the lists are :mod:`.lists`'), what a missing label is taken
as, and the design made, resolved and checked against the published capacities, with every
piece of the text in its import report."""

import re
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from shipyard.core.errors import InputError, Problem
from shipyard.core.model import Catalog
from shipyard.core.numberwords import unit_for
from shipyard.core.suggest import closest, normalise
from shipyard.core.termtext import quote
from shipyard.core.textformats import ImportEntry, ImportReport, TextImport, short
from shipyard.pointbuy.scales import ladder

from .lists import Entry, ListReading
from .text import MAX_NUMBER_DIGITS, MAX_TEXT_BYTES, NUMBER, SIGNS, Hit, Reader, text_value
from .words import format_of, group_names, words_pattern

ORIGIN = "a stat block"  # what the notes say the text was, for the parts not understood


def import_statblocks(text: str, catalog: Catalog, *, source: str | Path | None = None) -> list[TextImport]:
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
    fmt = format_of(catalog)
    reader = Reader(text, fmt, src)
    blocks, skipped = reader.blocks()
    results: list[TextImport] = []
    problems: list[Problem] = []
    for i, block in enumerate(blocks):
        try:
            results.append(Block(reader, block, i + 1, skipped if i == 0 else []).build())
        except InputError as exc:
            problems += exc.problems
    if problems:
        raise InputError(problems)
    return results


def import_statblock(text: str, catalog: Catalog, *, source: str | Path | None = None) -> TextImport:
    """The one stat block in ``text`` (an InputError if there are several)."""
    results = import_statblocks(text, catalog, source=source)
    if len(results) > 1:
        names = ", ".join(repr(r.design.name) for r in results)
        raise InputError.single(
            f"the text holds {len(results)} stat blocks ({names}); import them one at a time or all together",
            file=str(source) if source is not None else None,
        )
    return results[0]


class Block(ListReading):
    """One stat block: from its name label to the next block's."""

    def __init__(self, reader: Reader, hits: list[Hit], number: int, skipped: list[ImportEntry]) -> None:
        self.r = reader
        self.fmt = reader.fmt
        self.catalog = reader.catalog
        self.hits = hits
        self.number = number
        self.entries: list[ImportEntry] = list(skipped)
        self.problems: list[Problem] = []
        self.data: dict[str, Any] = {}
        self.list_entries: list[Entry] = []
        self.scale: Any = None
        self.origin: dict[str, tuple[Any, int]] = {}

    # ------------------------------------------------------------------------------------------

    def build(self) -> TextImport:
        values: dict[str, tuple[Hit, str, int]] = {}
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
                    self.read_list(lab, text, offset)
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

    # text, scale, numbers ----------------------------------------------------------------------

    def _text(self, lab: Any, text: str, offset: int) -> None:
        value = text_value(text)
        if not value and lab.required:
            self.problems.append(self.r.problem(f"{lab.name} is empty", offset, lab))
            return
        self.data[lab.field] = value
        self.origin[lab.field] = (lab, offset)
        self.used(lab, text, offset, lab.field, value)

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
        self.used(lab, text, offset, lab.field, found.name)

    def _parse_int(self, lab: Any, text: str, offset: int, what: str) -> tuple[int, str] | None:
        m = NUMBER.match(text)
        if m is None:
            self.problems.append(self.r.problem(f"{what} {quote(text)} is not a whole number", offset, lab))
            return None
        if len(m.group(2).lstrip("0")) > MAX_NUMBER_DIGITS:
            self.problems.append(self.r.problem(f"{what} {short(m.group(0), 20)} is impossibly large", offset, lab))
            return None
        return SIGNS[m.group(1)] * int(m.group(2)), text[m.end() :].strip()

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
        self.used(lab, used, offset, lab.field, f"{value}{parts_text}", self._range_note(lab.field, value))
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
        pattern = re.compile(r"\s*+(" + words_pattern(_part_names(lab)) + r")\s*+:?\s*+([+\-−–]?\s*+\d{1,7})\s*+", re.I)
        found: dict[str, int] = {}
        for chunk in re.split(r"[,;]|\band\b", m.group(1)):
            if not chunk.strip():
                continue
            pm = pattern.fullmatch(chunk)
            if pm is None:
                return "", rest
            part = by_key[normalise(pm.group(1))]
            number = pm.group(2).replace(" ", "")
            found[part.field] = SIGNS[number[0]] * int(number[1:]) if number[0] in SIGNS else int(number)
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
        found = ladder(self.catalog).lookup(lab.assume, self.scale) if lab.assume and self.scale else None
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

    # the design --------------------------------------------------------------------------------

    def _finish(self) -> TextImport:
        self._name_groups()
        lists: dict[str, list[dict[str, Any]]] = {}
        entry_at: dict[str, Entry] = {}
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
        return TextImport(design, ImportReport(name=design.name, entries=self.entries), self.catalog, ORIGIN)

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
            letter = next(x for x in group_names() if x not in used)
            used.add(letter)
            e.data[word.field] = letter

    def _validation_problem(self, err: Any, entry_at: dict[str, Entry]) -> Problem:
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

    def _capacities(self, design: Any, entry_at: dict[str, Entry]) -> dict[str, tuple[str, str]]:
        wanted = {p: e for p, e in entry_at.items() if e.capacity is not None}
        if not wanted:
            return {}
        from shipyard.core.designreport import design_report

        report = design_report(design, self.catalog)
        out = {}
        for path, e in wanted.items():
            assert e.capacity is not None
            number, cap = e.capacity
            fig = report.derived.figure(cap.figure)
            have = fig.value if fig is not None else None
            unit = f" {unit_for(have, fig.unit)}" if fig is not None and fig.unit else ""
            if have == number:
                out[path] = ("used", f"published capacity {number} equals the design's {have}{unit}")
            else:
                out[path] = ("differs", f"published capacity {number}, the design holds {have}{unit}")
        return out

    def _describe(self, e: Entry) -> str:
        d = e.data
        if e.custom:
            spec = self.fmt.custom[e.kind]
            bits = [f"{k.name} {d[k.field]}" for k in spec.keys if d.get(k.field) is not None]
            count = f"{d[spec.count_key]} x " if spec.count_key and d.get(spec.count_key, 1) != 1 else ""
            out = f"{count}{d[spec.name_key]} ({self.fmt.custom_word}" + (f": {', '.join(bits)}" if bits else "") + ")"
            if spec.scale_key and d.get(spec.scale_key):
                scale = ladder(self.catalog).parse(d[spec.scale_key])
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
            scale = ladder(self.catalog).parse(d[spec.scale_key])
            out += f", {scale.name if scale else d[spec.scale_key]} scale"
        return out


def _part_names(lab: Any) -> list[str]:
    return [n for p in lab.parts for n in (p.name, *p.aliases)]
