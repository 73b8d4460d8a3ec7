"""The lists of a stat block: "2 Turreted Fire-Linked Light Lasers, Missile", "Artificial
Intelligence (5)", "Plasma Lance (custom, Damage 9, Cost 3)", each piece taken apart into
its count, mount words, scale, name and parenthesis and resolved through the catalog's
names and aliases (plurals by the format's rules), or reported as not understood with the
closest names."""

import re
from dataclasses import dataclass, field
from typing import Any

from shipyard.core.errors import Problem
from shipyard.core.model import Catalog
from shipyard.core.numberwords import quantity
from shipyard.core.suggest import closest, normalise
from shipyard.core.termtext import quote
from shipyard.core.textformats import ImportEntry, Status

from .text import MAX_NUMBER_DIGITS, SIGNS, Piece, Reader, split_list
from .words import Format


@dataclass
class Phrase:
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
class Entry:
    """A list entry on its way into the design, with where it came from."""

    kind: str
    custom: bool
    data: dict[str, Any]
    label: Any
    piece: Piece
    message: str = ""
    status: Status = "used"
    capacity: tuple[int, Any] | None = None
    group_tag: str | None = None
    has_group: bool = False


class ListReading:
    """The list labels of one block (Weapons, Special Equipment, Accessories): each piece a
    catalog item, an item of the user's own, or not understood (:class:`.block.Block` uses it)."""

    r: Reader
    fmt: Format
    catalog: Catalog
    problems: list[Problem]
    entries: list[ImportEntry]
    list_entries: list[Entry]

    def used(self, lab: Any, text: str, offset: int, path: str, value: str, message: str = "") -> None:
        self.entries.append(
            self.r.entry("used", offset, label=lab.name, text=text, field=path, value=value, message=message)
        )

    def read_list(self, lab: Any, text: str, offset: int) -> None:
        bare = text.strip().rstrip(".,;").strip()
        if not bare or normalise(bare) in self.fmt.none_words:
            home = self.fmt.lists.get(lab.kinds[0]) if lab.kinds else None
            value = self.fmt.none_word if bare else "(empty)"
            self.used(lab, text, offset, home.field if home else "", value, f"no {lab.name.lower()}")
            return
        pieces = [Piece(t.strip(), offset + start + len(t) - len(t.lstrip())) for t, start in split_list(text)]
        pieces = [p for p in pieces if p.text.strip(" \t.")]
        i = 0
        while i < len(pieces):
            taken = 1
            entry: Entry | None = None
            for span in (3, 2):
                if i + span <= len(pieces):
                    joined = Piece(", ".join(p.text for p in pieces[i : i + span]), pieces[i].start)
                    candidate = self._phrase_entry(lab, joined, joins=True)
                    if isinstance(candidate, Entry):
                        entry, taken = candidate, span
                        break
            if entry is None:
                result = self._phrase_entry(lab, pieces[i])
                if isinstance(result, Entry):
                    entry = result
                elif result is not None:
                    self.entries.append(result)
            if entry is not None:
                self.list_entries.append(entry)
            i += taken

    def _phrase(self, piece: Piece) -> Phrase:
        s = piece.text.strip().rstrip(".").strip()
        ph = Phrase(piece.text)
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

    def _phrase_entry(self, lab: Any, piece: Piece, joins: bool = False) -> Entry | ImportEntry | None:
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

    def _capacity_name(self, ph: Phrase, kinds: list[str]) -> tuple[str, str] | None:
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

    def _not_understood(self, lab: Any, piece: Piece, ph: Phrase, why: str) -> ImportEntry:
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

    def _catalog_entry(self, lab: Any, piece: Piece, ph: Phrase, kind: str, item_id: str) -> Entry | ImportEntry:
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
                    notes.append(f"published cost {number} equals the catalog's {quantity(cost, pool)}")
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
        entry = Entry(kind, False, data, lab, piece, "; ".join(notes), status, capacity)
        if ph.group is not None:
            entry.has_group = True
            entry.group_tag = ph.group[1]
        return entry

    def _custom_entry(self, lab: Any, piece: Piece, ph: Phrase) -> Entry | ImportEntry:
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
                data[spec.number_key] = SIGNS[lone.group(1)] * int(lone.group(2))
                continue
            km = re.fullmatch(r"(.*?\S)\s*+:?\s*+([+\-−–]?)\s*+(\d{1,7})", chunk)
            if km is None:
                km2 = re.fullmatch(r"([+\-−–]?)\s*+(\d{1,7})\s*+(.+)", chunk)  # "4 PP"
                if km2 is None or normalise(km2.group(3)) not in keys:
                    return self._not_understood(lab, piece, ph, f"{quote(chunk)} is not one of {_names(spec.keys)}")
                data[keys[normalise(km2.group(3))].field] = SIGNS[km2.group(1)] * int(km2.group(2))
                continue
            key = keys.get(normalise(km.group(1)))
            if key is None:
                return self._not_understood(lab, piece, ph, f"{quote(km.group(1))} is not one of {_names(spec.keys)}")
            data[key.field] = SIGNS[km.group(2)] * int(km.group(3))
        return Entry(spec.kind, True, data, lab, piece, "an item of your own, not from the catalog")


def _names(keys: list[Any]) -> str:
    return ", ".join(k.name for k in keys)
