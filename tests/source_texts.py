"""The rules' source texts, for tests that hold Shipyard to the words it cites.

The texts are not shipped with Shipyard; they are found where ``conftest.SOURCES`` says
($SHIPYARD_SOURCES, else ``shared/seeds`` beside the checkout), each ruleset's file named
by its manifest (``source.file``). A test that needs them skips, saying why and how to
provide them, where they are not.
"""

from __future__ import annotations

import re

import pytest

from .conftest import SOURCES, missing_source_reason

SOURCE_TEXTS = SOURCES


def source_text(file: str, title: str = "a ruleset") -> str:
    """The source text ``file`` (a manifest's ``source.file``); skips the test without it."""
    path = SOURCE_TEXTS / file
    if not path.is_file():
        pytest.skip(missing_source_reason(file, title))
    return path.read_text(encoding="utf-8")


def squeezed(text: str) -> str:
    """Text to find words in whatever the line breaks and case: single spaces, lower case,
    typographic quotes and apostrophes plain."""
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    return re.sub(r"\s+", " ", text).strip().lower()


def heading_at(text: str, heading: str, start: int = 0) -> int:
    """Where a line of ``text`` opens with ``heading`` (after a bullet), from ``start``; -1 if none."""
    want = squeezed(heading)
    pos = start
    for line in text[start:].splitlines(keepends=True):
        if squeezed(line).lstrip("•*- ").startswith(want):
            return pos
        pos += len(line)
    return -1


def quoted(message: str) -> list[str]:
    """The words a message quotes in double quotes, each piece of an elided quote ("a ... b") apart."""
    pieces = []
    for quote in re.findall(r'"([^"]+)"', message):
        pieces += [p.strip(" .,;") for p in quote.split("...") if p.strip(" .,;")]
    return pieces
