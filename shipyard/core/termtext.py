"""Text for a terminal: user text never drives the terminal, and is quoted short.

Design names, catalog entries, imported text and other games' records are a stranger's, and a
terminal obeys what it is sent: ESC sequences move the cursor and clear lines, CR and
backspace overwrite, bidi controls reorder what is shown, and a newline in a design name
prints a line of its own ("Result: PASSES"). Everything the command line prints goes
through :func:`escape_lines`; each piece that must stay on its line (a report line, one
error) through :func:`escape`. Both show such characters as ``\\uXXXX``, which reads the
same in plain text and is the same character again inside a JSON string.

:func:`quote` is how an error names text a user gave: quoted, and cut to its first 80
characters with how many more there were (a 1 MB preset name is not echoed in full).

Standard library only: the command line imports it on every start.
"""

from __future__ import annotations

import re
from typing import TextIO

QUOTE_LIMIT = 80
# One line of an error message is at most this long, whatever text it quotes.
LINE_LIMIT = 2000

# C0 controls, DEL and C1 controls; bidirectional marks, embeddings, overrides and
# isolates; the line and paragraph separators (a new line in some terminals).
_OTHERS = r"\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
_UNSAFE_RE = re.compile(rf"[\x00-\x1f{_OTHERS}]")
_UNSAFE_BUT_NEWLINE_RE = re.compile(rf"[\x00-\x09\x0b-\x1f{_OTHERS}]")


def _visible(m: re.Match[str]) -> str:
    return f"\\u{ord(m.group(0)):04x}"


def escape(text: str) -> str:
    """``text`` on one line: every control, bidi or line-breaking character shown as ``\\uXXXX``."""
    return _UNSAFE_RE.sub(_visible, text)


def escape_lines(text: str) -> str:
    """Like :func:`escape`, but newlines stay newlines (for output made of our own lines)."""
    return _UNSAFE_BUT_NEWLINE_RE.sub(_visible, text)


def shorten(text: str, limit: int = QUOTE_LIMIT) -> str:
    """The first ``limit`` characters of ``text``, then ``... (N more)`` when there were more."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit:,} more)"


def quote(text: object, limit: int = QUOTE_LIMIT) -> str:
    """User text as an error names it: quoted like ``repr``, cut to ``limit`` characters.

    Anything but a string is shown as ``repr`` shows it (a number without quotes), cut alike.
    """
    if not isinstance(text, str):
        try:
            return shorten(repr(text), limit)
        except ValueError:  # an integer too long to convert to text
            return "a number too long to print"
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text) - limit:,} more)"


def error_line(text: str) -> str:
    """One problem as one line of stderr: escaped, and no longer than :data:`LINE_LIMIT`."""
    return shorten(escape(text), LINE_LIMIT)


class TerminalStream:
    """A text stream that passes everything written through :func:`escape_lines`."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(escape_lines(text))
        return len(text)

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)
