"""The hangar: every design a person keeps, indexed, searched, and gathered into rosters.

Library folders the person chooses (:mod:`shipyard.hangar.library`) are scanned into an
SQLite index under the XDG data folder (:mod:`shipyard.hangar.index`), a cache of the
files and never their only copy, each entry read again when its file or the rules it was
checked by changed (:mod:`shipyard.hangar.freshness`); ``shipyard find`` searches it
(:mod:`shipyard.hangar.query`), and a roster (:mod:`shipyard.hangar.roster`) is a force
built from designs by path and content hash. What the hangar knows of a design it reads
from its report (:mod:`shipyard.hangar.facts`), the same for every ruleset: this package
imports the core only, never a ruleset, the editor or rendering.
"""

from __future__ import annotations

from pathlib import Path

ROSTER_EXTENSION = (
    ".roster"  # here, not in roster.py, so the editor knows a roster file without loading the roster model
)


def follow_saves() -> None:
    """The index follows every save of design files in this process (the editor's Save,
    ``shipyard set``, ``fix``, ``new``, an import): those in a library folder are indexed
    at once (:func:`shipyard.hangar.index.note_saved`)."""
    from shipyard.core.saved import after_save

    after_save(_note_saved)


def _note_saved(paths: list[Path]) -> None:
    from shipyard.hangar.index import note_saved

    note_saved(paths)
