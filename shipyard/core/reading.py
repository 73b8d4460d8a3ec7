"""A ruleset's rules reading as a player reads it: the developer's parts left out.

The reading a manifest names (``reading``, a Markdown file of the ruleset's) is one file
for two readers: the GM or player who wants to know how Shipyard applies the rules, and
the developer who wants the catalog files, the report's JSON, the commands and the tests.
Help > Rules reading shows the first reader's part. The file marks the second's:

- a heading followed, on its next line, by ``<!-- reading: developer -->`` marks its whole
  section (up to the next heading of the same or a higher level) for developers;
- ``<!-- developer -->`` ... ``<!-- /developer -->`` marks any stretch inside a section, a
  paragraph, a code block or a few words of a sentence;
- ``<!-- developer column -->`` in a cell of a table's header row marks that column
  (where in the catalog a decision lives) for developers, in every row of the table.

Both are HTML comments, so the file reads whole on GitHub. What is left is Markdown.
"""

from __future__ import annotations

import re

SECTION_MARK = "<!-- reading: developer -->"
SPAN = re.compile(r"<!-- developer -->.*?<!-- /developer -->", re.S)
COLUMN_MARK = "<!-- developer column -->"
_CELL_BORDER = re.compile(r"(?<!\\)\|")
_HEADING = re.compile(r"^(#{1,6})\s")
_FENCE = re.compile(r"^\s*(```|~~~)")


def _cells(line: str) -> list[str]:
    return _CELL_BORDER.split(line.strip().strip("|"))


def _without_columns(lines: list[str]) -> list[str]:
    """Each table whose header marks a column for developers, without that column."""
    out: list[str] = []
    dropped: set[int] = set()
    for line in lines:
        if not line.lstrip().startswith("|"):
            dropped = set()
        elif COLUMN_MARK in line:
            dropped = {i for i, cell in enumerate(_cells(line)) if COLUMN_MARK in cell}
        if dropped and line.lstrip().startswith("|"):
            kept = [cell for i, cell in enumerate(_cells(line)) if i not in dropped]
            line = "|" + "|".join(kept) + "|"
        out.append(line)
    return out


def user_reading(markdown: str) -> str:
    """``markdown`` without the sections, stretches and table columns marked for developers."""
    lines = _without_columns(SPAN.sub("", markdown).splitlines())
    out: list[str] = []
    dropping: int | None = None  # the level of the heading whose section is being left out
    fenced = False
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            fenced = not fenced
        heading = None if fenced else _HEADING.match(line)
        if heading is not None:
            level = len(heading.group(1))
            if dropping is not None and level <= dropping:
                dropping = None
            if dropping is None and i + 1 < len(lines) and lines[i + 1].strip() == SECTION_MARK:
                dropping = level
        if dropping is None and line.strip() != SECTION_MARK:
            out.append(line)
    text = re.sub(r"<!--.*?-->", "", "\n".join(out), flags=re.S)  # what is left of the file's own markers
    text = re.sub(r"(?:\n\s*---\s*)+(\n\s*---\s*\n)", r"\1", text)  # one rule between sections, not a run of them
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip() + "\n"
