"""One error type for every piece of bad input a user can hand us.

Why one type: the command line and the editor show bad input the same way — file,
line/column or path into the document, what is wrong, what is allowed — and never a
traceback. Everything that reads user files raises :class:`InputError` and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

WHERE_LIMIT = 300
"""Characters of a file name or a place an error line shows before "... (N more)"."""


@dataclass
class Problem:
    """One thing wrong with an input: where, what, and what would have been accepted."""

    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None
    path: str | None = None
    allowed: str | None = None

    def where(self) -> str:
        """The file (line, column) and the place, each cut to :data:`WHERE_LIMIT` characters: a
        file name thousands of characters long still leaves room in the line for what is wrong."""
        from shipyard.core.termtext import shorten

        parts = []
        if self.file:
            loc = shorten(self.file, WHERE_LIMIT)
            if self.line is not None:
                loc += f":{self.line}"
                if self.column is not None:
                    loc += f":{self.column}"
            parts.append(loc)
        if self.path:
            parts.append(f"at {shorten(self.path, WHERE_LIMIT)}")
        return " ".join(parts)

    def __str__(self) -> str:
        text = self.message
        if self.allowed:
            text += f" (allowed: {self.allowed})"
        where = self.where()
        return f"{where}: {text}" if where else text


# An input error lists at most this many problems, then "... and N more": every list and
# map of a design has a size limit, but 200 crew members each named twice still said 200
# things (and 100,000 skills said 100,000 before pilot.skills had a limit).
MAX_LISTED_PROBLEMS = 50


@dataclass
class InputError(Exception):
    """Bad input: a file, a catalog or a design that cannot be used as it is.

    Its problems are capped at :data:`MAX_LISTED_PROBLEMS`, the rest counted in a last one."""

    problems: list[Problem] = field(default_factory=list)

    def __post_init__(self) -> None:
        more = len(self.problems) - MAX_LISTED_PROBLEMS
        if more > 0:
            shown = self.problems[:MAX_LISTED_PROBLEMS]
            files = {p.file for p in self.problems}
            file = next(iter(files)) if len(files) == 1 else None
            more_text = f"... and {more:,} more problem{'' if more == 1 else 's'}"
            self.problems = [*shown, Problem(more_text, file)]

    @classmethod
    def single(
        cls,
        message: str,
        *,
        file: str | Path | None = None,
        line: int | None = None,
        column: int | None = None,
        path: str | None = None,
        allowed: str | None = None,
    ) -> InputError:
        return cls(
            [
                Problem(
                    message,
                    file=str(file) if file is not None else None,
                    line=line,
                    column=column,
                    path=path,
                    allowed=allowed,
                )
            ]
        )

    def with_file(self, file: str | Path) -> InputError:
        """Name ``file`` in every problem that does not name one yet (a reader that had only text)."""
        for p in self.problems:
            if p.file is None:
                p.file = str(file)
        return self

    def __str__(self) -> str:
        return "\n".join(str(p) for p in self.problems)


TOP_LEVEL = "(top level)"
"""The place :func:`format_path` gives an error of the whole document or design."""


def format_path(loc: tuple[object, ...] | list[object]) -> str:
    """Turn a location tuple such as ``("weapons", 1, "count")`` into ``weapons[1].count``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or TOP_LEVEL
