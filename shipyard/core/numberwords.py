"""A count and its unit in one agreeing phrase: "1 point", "3 points", "1 Accessory point".

Catalogs and figures write a unit as the plural a count of several reads with ("points",
"hexes", "Power Points"); a ruleset's own nouns are often written singular ("rack",
"missile"). Every place that writes a number beside its unit asks here, so the editor's
panels, the text report, the sheets and the rulesets' messages agree on one reading:
singular for exactly one (or minus one), plural otherwise.
"""

from __future__ import annotations

from fractions import Fraction

# Words whose plural is the word itself, or that are not nouns a count takes (abbreviations
# and measures: "5 AP", "3 XP", "2 Mach", "900 km/h").
_UNCHANGED = {"crew", "spacecraft", "aircraft", "data", "power", "damage", "armor", "mach", "series", "species"}


def is_one(n: object) -> bool:
    """Whether ``n`` reads as one ("1", 1.0, -1, "+1"): the count a singular noun goes with
    (anything else, a word or nothing, does not)."""
    if isinstance(n, bool) or n is None:
        return False
    if isinstance(n, str):
        text = n.strip().lstrip("+-").replace(",", "")
        try:
            return Fraction(text) == 1
        except (ValueError, ZeroDivisionError):
            return False
    return isinstance(n, int | float | Fraction) and abs(n) == 1


def singular(plural: str) -> str:
    """The singular of a unit written plural, its last word changed: "Power Points" ->
    "Power Point", "hexes" -> "hex", "boxes" -> "box", "entries" -> "entry"; words that do
    not change ("crew", "AP", "km/h") and words that are not plurals stay as they are."""
    head, sep, last = plural.rpartition(" ")
    word = _singular_word(last)
    return f"{head}{sep}{word}"


def _singular_word(word: str) -> str:
    lower = word.lower()
    if (
        not word
        or not word.isalpha()
        or lower in _UNCHANGED
        or (word.isupper() and len(word) > 1)
        or not lower.endswith("s")
        or lower.endswith(("ss", "us", "is"))
    ):
        return word
    if lower.endswith("ies") and len(word) > 4:
        return word[:-3] + ("Y" if word[-3].isupper() else "y")
    if lower.endswith(("xes", "ches", "shes", "sses", "zes")):
        return word[:-2]
    return word[:-1]


def plural(noun: str, n: object = 2) -> str:
    """A noun written singular, as a count of ``n`` reads it: "rack" / "racks", "entry" /
    "entries", "box" / "boxes" (an empty noun stays empty)."""
    if not noun or is_one(n):
        return noun
    head, sep, last = noun.rpartition(" ")
    lower = last.lower()
    if not last.isalpha() or lower in _UNCHANGED or (last.isupper() and len(last) > 1):
        return noun
    if lower.endswith("y") and len(last) > 1 and lower[-2] not in "aeiou":
        word = last[:-1] + "ies"
    elif lower.endswith(("x", "ch", "sh", "ss", "z")):
        word = last + "es"
    else:
        word = last + "s"
    return f"{head}{sep}{word}"


def unit_for(n: object, unit: str) -> str:
    """``unit`` (written plural, as catalogs and figures write it) as a count of ``n`` reads it."""
    return singular(unit) if is_one(n) else unit


def quantity(n: object, unit: str, shown: str | None = None) -> str:
    """``n`` and its unit (written plural) in one phrase: "1 point", "0 points", "1 Accessory
    point"; ``shown`` is how the number is written when not plainly (a fraction, a sign)."""
    text = str(n) if shown is None else shown
    return f"{text} {unit_for(n, unit)}" if unit else text


def count_of(n: int, noun: str) -> str:
    """``n`` and a noun written singular: "1 rack", "2 racks", "0 entries"."""
    return f"{n} {plural(noun, n)}"


__all__ = ["count_of", "is_one", "plural", "quantity", "singular", "unit_for"]
