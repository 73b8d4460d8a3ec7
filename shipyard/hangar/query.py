"""``shipyard find``'s query: free text and filters, as SQL over the hangar's index.

Words are matched against names, notes and tags (each word a prefix); a word of no letter
or digit (an emoji, ``(``) is matched as it is written, anywhere in them. Filters:
``ruleset:ID`` (an id, its start, or its name's initials), ``kind:X``, ``tag:X``,
``FIGURE>=N`` (also ``<=``, ``=``, ``>``, ``<``; a figure by its id or label, as in
``structure>=10``), ``fails``, ``passes``, ``changed:7d`` (``h``, ``d``, ``w``). A filter
that cannot be read is an InputError naming it and what is allowed; so is a word holding
``<``, ``>`` or ``=`` that is no comparison (``>=5``, which names no figure).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from shipyard.core.errors import InputError
from shipyard.core.termtext import quote

if TYPE_CHECKING:
    from shipyard.hangar.index import Entries, Index

FILTERS_ALLOWED = (
    "words to match in names, notes and tags; ruleset:ID, kind:KIND, tag:TAG, changed:7d (h, d or w), "
    "fails, passes, FIGURE>=N (also <=, =, >, <; e.g. structure>=10)"
)
_COMPARE = re.compile(r"^([A-Za-z][\w.\-]*?)\s*(>=|<=|=|>|<)\s*(.*)$")
_OPERATOR = re.compile(r"[<>=]")
_LETTER_OR_DIGIT = re.compile(r"[^\W_]")  # what the index's word table keeps of a text
_SPAN = re.compile(r"^(\d{1,5})([hdw])$")
_SECONDS = {"h": 3600, "d": 86400, "w": 7 * 86400}
FILTER_NAMES = ("ruleset", "kind", "tag", "changed")


def initials(name: str) -> str:
    """A ruleset's abbreviation: the first letters of its name's words ("Deep Space Raiders" -> dsr)."""
    return "".join(w[0] for w in re.findall(r"[A-Za-z0-9]+", name)).lower()


@dataclass
class Query:
    words: list[str] = field(default_factory=list)
    where: list[str] = field(default_factory=list)
    params: list[Any] = field(default_factory=list)
    figures: list[str] = field(default_factory=list)  # the name of each FIGURE>=N
    kinds: list[str] = field(default_factory=list)  # the value of each kind:X
    texts: list[str] = field(default_factory=list)  # each word of no letter or digit, matched as written

    def sql(self) -> tuple[str, tuple[Any, ...]]:
        where = ["problem IS NULL", *self.where]
        params = list(self.params)
        if self.words:
            match = " ".join('"' + w.replace('"', '""') + '"*' for w in self.words)
            where.insert(0, "id IN (SELECT rowid FROM words WHERE words MATCH ?)")
            params.insert(0, match)
        for text in self.texts:  # the word table drops symbols: read its texts for this one
            where.append("id IN (SELECT rowid FROM words WHERE instr(name, ?) OR instr(notes, ?) OR instr(tags, ?))")
            params += [text, text, text]
        return " AND ".join(where), tuple(params)


def rulesets_matching(text: str) -> list[str]:
    """The installed rulesets ``text`` names: by id, the start of an id, or the initials of a name."""
    from shipyard.core.registry import rulesets

    want = text.lower()
    infos = rulesets()
    exact = [i.id for i in infos if want in (i.id, initials(i.name), initials(re.sub(r"^(?i:the)\s+", "", i.name)))]
    if exact:
        return exact
    return [i.id for i in infos if i.id.startswith(want)]


def parse(tokens: list[str], now: float | None = None) -> Query:
    """The query the tokens of ``shipyard find`` say."""
    q = Query()
    for raw in tokens:
        token = raw.strip()
        if not token:
            continue
        low = token.lower()
        if low in ("fails", "passes"):
            q.where.append("valid = ?")
            q.params.append(1 if low == "passes" else 0)
            continue
        compare = _COMPARE.match(token)
        name, colon, value = token.partition(":")
        if colon and (not compare or ":" in compare.group(1)):
            _filter(q, name.lower(), value, token, now)
        elif compare:
            name, op, number = compare.groups()
            _figure(q, name, op, number, token)
        elif _OPERATOR.search(token):
            _not_a_comparison(token)
        elif _LETTER_OR_DIGIT.search(token):
            q.words += re.findall(r"\w+", token)
        else:  # an emoji, a bracket: no word the index keeps, so the text itself
            q.texts.append(token)
    return q


def _not_a_comparison(token: str) -> None:
    """A word with ``<``, ``>`` or ``=`` that is no ``FIGURE>=N``: refused, as the figure
    filter it was meant to be (``>=5`` found every design with a word starting "5")."""
    at = next((i for i, c in enumerate(token) if c in "<>="), 0)
    operator = token[at : at + 2] if token[at : at + 2] in (">=", "<=") else token[at]
    before = token[:at].strip()
    why = (
        f"it names no figure before {quote(operator)}"
        if not before
        else f"{quote(before)} is not a figure's name (a figure's name starts with a letter)"
    )
    raise InputError.single(
        f"{quote(token)} is not a comparison Shipyard can read: {why}",
        path="find",
        allowed=FILTERS_ALLOWED,
    )


def _filter(q: Query, name: str, value: str, token: str, now: float | None) -> None:
    if name not in FILTER_NAMES:
        from shipyard.core.suggest import did_you_mean

        hint = did_you_mean(name, list(FILTER_NAMES))
        raise InputError.single(
            f"unknown filter {quote(name + ':')} in {quote(token)}" + (f"; {hint}" if hint else ""),
            path="find",
            allowed=FILTERS_ALLOWED,
        )
    if not value.strip():
        raise InputError.single(f"the filter {quote(token)} says nothing after ':'", path=name, allowed=FILTERS_ALLOWED)
    value = value.strip()
    if name == "ruleset":
        ids = rulesets_matching(value)
        if not ids:
            from shipyard.core.registry import rulesets

            known = ", ".join(f"{i.id} ({initials(i.name)})" for i in rulesets())
            raise InputError.single(
                f"no ruleset matches {quote(value)} in {quote(token)}", path="ruleset", allowed=known
            )
        q.where.append(f"ruleset IN ({', '.join('?' * len(ids))})")
        q.params += ids
    elif name == "kind":  # as written or without its spaces: kind:starship+2 is "Starship + 2"
        q.kinds.append(value)
        plain = _plain_kind(value)
        q.where.append("(replace(lower(kind), ' ', '') = ? OR replace(lower(kind), ' ', '') LIKE ? ESCAPE '\\')")
        q.params += [plain, _like(plain) + "%"]
    elif name == "tag":
        q.where.append("tagline LIKE ? ESCAPE '\\'")
        q.params.append("%|" + _like(value.lower()) + "|%")
    else:  # changed
        span = _SPAN.match(value.lower())
        if not span:
            raise InputError.single(
                f"{quote(token)}: say how recent as a number and h, d or w",
                path="changed",
                allowed="changed:12h, changed:7d, changed:2w",
            )
        since = (now or time.time()) - int(span.group(1)) * _SECONDS[span.group(2)]
        q.where.append("mtime_ns >= ?")
        q.params.append(int(since * 1e9))


def _figure(q: Query, name: str, op: str, number: str, token: str) -> None:
    try:
        value = float(number)
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError
    except ValueError:
        raise InputError.single(
            f"{quote(token)}: a figure is compared with a number, not {quote(number)}",
            path=name,
            allowed=FILTERS_ALLOWED,
        ) from None
    from shipyard.hangar.facts import slug

    key = slug(name)
    q.figures.append(name)
    # a figure of exactly that name wins; only where there is none does the name's start
    # match ("weapon-points" for "weapon-points-spent"): "structure" is the Structure rating,
    # not also its track's boxes
    q.where.append(
        "id IN (SELECT file FROM figures WHERE key IN (SELECT key FROM figure_keys WHERE key = ? OR slug = ? "
        "OR (NOT EXISTS (SELECT 1 FROM figure_keys WHERE key = ? OR slug = ?) "
        f"AND (key LIKE ? ESCAPE '\\' OR slug LIKE ? ESCAPE '\\'))) AND value {op} ?)"
    )
    q.params += [name.lower(), key, name.lower(), key, _like(name.lower()) + "-%", _like(key) + "-%", value]


def _like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def search(index: Index, tokens: list[str], now: float | None = None) -> Entries:
    """The designs in ``index`` the query ``tokens`` finds, by name."""
    q = parse(tokens, now)
    _refuse_unknown_names(index, q)
    where, params = q.sql()
    return index.rows(where, params)


def _plain_kind(text: str) -> str:
    return re.sub(r"\s+", "", text.lower())


def _refuse_unknown_names(index: Index, q: Query) -> None:
    """A figure or kind that no design of the hangar has, nor (a kind) any installed ruleset
    offers, is a mistyped name (``strucure>=1``, ``kind:figher``): refused with the names
    there are, closest first, rather than finding nothing as if none matched. An empty
    hangar knows no figure yet, so it refuses none."""
    from shipyard.core.suggest import did_you_mean
    from shipyard.hangar.facts import slug

    for name in q.figures:
        low, key = name.lower(), slug(name)
        if index.has_figure(low, key, _like(low) + "-%", _like(key) + "-%") is False:
            names = _closest_first(key, index.figure_names())
            hint = did_you_mean(key, names)
            raise InputError.single(
                f"no design in the hangar has a figure {quote(name)}" + (f"; {hint}" if hint else ""),
                path=name,
                allowed=", ".join(names[:SHOWN_NAMES]) + (", ..." if len(names) > SHOWN_NAMES else ""),
            )
    if q.kinds:
        from shipyard.core.registry import rulesets

        offered = {_plain_kind(k) for info in rulesets() for kind in info.kinds for k in (kind.id, kind.name)}
        known = sorted(offered | {_plain_kind(k) for k in index.kinds()})
        for value in q.kinds:
            if not any(k.startswith(_plain_kind(value)) for k in known):
                names = _closest_first(_plain_kind(value), known)
                hint = did_you_mean(_plain_kind(value), names)
                raise InputError.single(
                    f"no design is of a kind {quote(value)}" + (f"; {hint}" if hint else ""),
                    path="kind",
                    allowed=", ".join(names),
                )


SHOWN_NAMES = 12  # names a refusal lists, the closest first


def _closest_first(text: str, names: list[str]) -> list[str]:
    import difflib

    return sorted(names, key=lambda n: (-difflib.SequenceMatcher(None, text, n).ratio(), n))
