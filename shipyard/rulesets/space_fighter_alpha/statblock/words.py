"""The stat-block words of a catalog: its ``statblock`` entry, with the lookups and patterns
built from it once a catalog (the reader and the writer share them, :func:`format_of`)."""

import re
import string
from collections.abc import Iterable
from typing import Any

from shipyard.core.errors import InputError
from shipyard.core.model import Catalog
from shipyard.core.suggest import normalise
from shipyard.pointbuy.scales import ladder

FORMAT_KIND = "statblock"


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


def words_pattern(names: Iterable[str]) -> str:
    alts = sorted({n.strip() for n in names if n.strip()}, key=len, reverse=True)
    return "|".join(r"\s*+".join(re.escape(part) for part in re.split(r"\s+", a)) for a in alts)


class Format:
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
        self.label_re = re.compile(r"(?<![\w/-])(" + words_pattern(names) + r")[ \t]*+:", re.IGNORECASE)
        self.lists = {lst.kind: lst for lst in self.fmt.lists}
        self.custom = {c.kind: c for c in self.fmt.custom}
        self.words = list(self.fmt.words)
        self.word_by_key = {normalise(n): w for w in self.words for n in (w.name, *w.aliases)}
        mod = [n for w in self.words if w.role in ("flag", "group", "filler") for n in (w.name, *w.aliases)]
        self.modifier_re = re.compile(r"(" + words_pattern(mod) + r")(?=[\s(]|$)\s*+", re.IGNORECASE) if mod else None
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
        return ladder(self.catalog).parse(key if key is not None else text)

    def scale_choices(self) -> list[str]:
        names = [e.name for e in ladder(self.catalog).section.ladder if e.designable]
        ext = ladder(self.catalog).section.extension
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


def format_of(catalog: Catalog) -> Format:
    """The catalog's stat-block words, built once a catalog."""
    found: Format = catalog.memo("statblock-format", lambda: Format(catalog))
    return found


def group_names() -> Iterable[str]:
    """Fire-link group names in the order the text gives them: A to Z, then G27, G28 ..."""
    yield from string.ascii_uppercase
    n = 27
    while True:
        yield f"G{n}"
        n += 1
