"""Writing stat blocks: a design as the rules print it (plain text, or a Markdown list for
forums), and what of a design the text can hold (:func:`holdable`, :func:`lost_in_text`), so
that reading what was written gives back the same design for everything it holds."""

import re
from typing import Any

from shipyard.core.errors import InputError
from shipyard.core.model import Catalog
from shipyard.pointbuy.scales import ladder

from .text import text_value
from .words import Format, format_of, group_names

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#])")


def export_statblock(design: Any, catalog: Catalog, *, markdown: bool = False) -> str:
    """The design as stat-block text (one label a line), or as a Markdown list for forums.

    Written from the design, not from the table of what a design shows (core.shown) that the
    sheet, cards, tokens and Foundry actor print: ``shipyard import statblock`` reads this text
    back into the same design, so it must hold what the design is made of as written (each
    item with its count and place, each number with the parts it is given as), which the
    table's figures, the sheet's derived values, do not. Nothing here computes a figure: every
    value is the design's own."""
    fmt = format_of(catalog)
    d = holdable(design, catalog)
    lines: list[tuple[str, str]] = []
    for lab in fmt.labels:
        if lab.value == "text":
            value = getattr(d, lab.field, "") or ""
            if not value and not lab.required:
                continue
            lines.append((lab.name, value))
        elif lab.value == "scale":
            scale = ladder(catalog).parse(getattr(d, lab.field))
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


def _label_escape(fmt: Format, text: str) -> str:
    """A label inside a value ("Alpha Scale: Beta") written "Scale\\:", so reading it back does not
    take it for a label; the reader turns "\\:" back into ":"."""
    return fmt.label_re.sub(lambda m: m.group(0)[:-1] + "\\:", text)


def _scale_prefix(fmt: Format, scale_id: str | None) -> str:
    if not scale_id:
        return ""
    scale = ladder(fmt.catalog).parse(scale_id)
    return f"{scale.name if scale else scale_id}{fmt.scale_suffix} "


def _list_phrases(fmt: Format, d: Any, lab: Any) -> list[str]:
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


def _group_sizes(fmt: Format, spec: Any, entries: list[Any]) -> dict[str, int]:
    sizes: dict[str, int] = {}
    for w in fmt.word_fields(spec.kind):
        if w.role == "group":
            for e in entries:
                g = getattr(e, w.field, None)
                if g:
                    sizes[g] = sizes.get(g, 0) + 1
    return sizes


def _item_phrase(fmt: Format, spec: Any, e: Any, groups: dict[str, int]) -> str:
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


def _custom_phrase(fmt: Format, spec: Any, e: Any) -> str:
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
    fmt = format_of(catalog)
    dump = design.model_dump()
    keep: dict[str, Any] = {}
    for lab in fmt.labels:
        if lab.field and lab.field in dump:
            v = dump[lab.field]
            keep[lab.field] = text_value(v) if isinstance(v, str) and lab.value == "text" else v
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
                letters = iter(group_names())
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
    fmt = format_of(catalog)
    renamed = {w.field for kind in fmt.lists for w in fmt.word_fields(kind) if w.role == "group"}
    kept = holdable(design, catalog).model_dump()
    lost = _diff(design.model_dump(), kept, "", renamed)
    # What the text holds in principle may still not come back as written: a custom weapon
    # named "Gauss Cannon, Mk II" (a comma ends a list entry), a name with Markdown's marks
    # (`...`, **...**) or one that is a catalog item's. The text is read back, in both forms
    # export writes, and every place that does not come back as held is named too.
    for markdown in (False, True):
        lost += [p for p in _read_back(design, catalog, kept, markdown, renamed) if p not in lost]
    return lost


def _read_back(design: Any, catalog: Catalog, kept: dict[str, Any], markdown: bool, renamed: set[str]) -> list[str]:
    """The places of ``kept`` (the design as the text holds it) that reading the text written
    of ``design`` does not give back: a list that comes back shorter is named as the list."""
    from .block import import_statblocks

    try:
        results = import_statblocks(export_statblock(design, catalog, markdown=markdown), catalog)
    except InputError:
        return ["the stat block (it does not read back)"]
    if len(results) != 1:
        return ["name (it reads back as several stat blocks)"]
    back = holdable(results[0].design, catalog).model_dump()
    return _diff(kept, back, "", renamed)


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
