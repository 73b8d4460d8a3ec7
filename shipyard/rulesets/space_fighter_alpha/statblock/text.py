"""Stat-block text taken apart: Markdown removed, positions by line and column, the labels
found and the text split into blocks at each name label, each label's value cut out.

What the values mean is :mod:`.block`'s and :mod:`.lists`'.
"""

import re
from dataclasses import dataclass
from typing import Any

from shipyard.core.errors import InputError, Problem
from shipyard.core.suggest import normalise
from shipyard.core.textformats import ImportEntry, Status

from .words import Format

MAX_TEXT_BYTES = 256 * 1024
MAX_BLOCKS = 200
MAX_NUMBER_DIGITS = 7

_BOLD = re.compile(r"(?<!\\)(\*\*|__)")
_BULLET = re.compile(r"(?m)^([ \t]*+)[-*+][ \t]++")
_ESCAPE = re.compile(r"\\([\\`*_\[\]<>|#{}()+.!-])")
_BLANK_LINE = re.compile(r"\n[ \t]*+\n")
NUMBER = re.compile(r"([+\-−–]?)[ \t]*+(\d++)")
SIGNS = {"": 1, "+": 1, "-": -1, "−": -1, "–": -1}


def clean(text: str) -> str:
    """Plain text with the same lines: Markdown bold, bullets and escapes removed."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\ufeff", "")
    text = _BOLD.sub("  ", text)
    text = _BULLET.sub(lambda m: m.group(1) + "  ", text)
    text = text.replace("`", " ")
    return _ESCAPE.sub(r"\1", text)


@dataclass
class Hit:
    label: Any
    written: str
    start: int
    value_start: int
    value_end: int = 0


@dataclass
class Piece:
    text: str
    start: int


class Reader:
    """The whole text, cleaned, with what every piece of it needs: its line and column."""

    def __init__(self, text: str, fmt: Format, source: str | None) -> None:
        self.raw = text
        self.text = clean(text)
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

    def blocks(self) -> tuple[list[list[Hit]], list[ImportEntry]]:
        hits = []
        for m in self.fmt.label_re.finditer(self.text):
            lab = self.fmt.label_by_key.get(normalise(m.group(1)))
            if lab is not None:
                hits.append(Hit(lab, m.group(1), m.start(), m.end()))
        if not hits:
            labels = ", ".join(f"{lab.name}:" for lab in self.fmt.labels)
            raise InputError([self.problem(f"no stat-block labels found; a stat block has labels such as {labels}")])
        for h, nxt in zip(hits, [*hits[1:], None], strict=True):
            h.value_end = nxt.start if nxt is not None else len(self.text)
        skipped = []
        before = self.text[: hits[0].start]
        if before.strip():
            skipped.append(self._outside(before, 0, "text before the first label"))
        blocks: list[list[Hit]] = []
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

    def value(self, hit: Hit) -> tuple[str, int, ImportEntry | None]:
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


def split_list(text: str) -> list[tuple[str, int]]:
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


def text_value(text: str) -> str:
    """A text value as the stat block holds it: one line, no trailing comma or semicolon."""
    return " ".join(text.split()).rstrip(",;").strip()
