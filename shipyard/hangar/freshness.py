"""When the hangar's index entry of a design is stale: the stamps a scan compares.

An entry is worked out from two things, and is read again when either changed:

- **the design file's bytes**: a scan reads the file again when its status stamp
  (:func:`file_stamp`) differs from the one indexed. The stamp is the whole status a
  program cannot keep while changing the bytes: not only the modification time and size
  (an edit of the same length with the time set back, as ``touch -d`` or ``git checkout``
  can leave it, kept both) but the change time, which no program can set back, and the
  inode and device (a file replaced by another, under the same name);
- **the rules it was checked by** (:class:`RulesStamps`): its ruleset's catalog with the
  user's house rules and presets layered on, the code that builds and judges it, and the
  hangar's own code that sums it up, as one digest a ruleset. A house rule raising a
  weapon's cost changes every verdict of that ruleset's designs without changing a file:
  the index showed the old verdicts, and ``hangar scan`` called them unchanged.

Both are cheap to make: the status is one ``stat`` a file, and a ruleset's digest is the
key its cached catalog is kept by (:func:`shipyard.core.catalog.catalog_digest`), made
from small files once a process; an unchanged design is not evaluated again.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from shipyard.core.errors import InputError

# the hangar's code that turns a report into an entry: a change of it changes entries
_OWN_CODE = ("facts.py", "index.py", "freshness.py")
NOT_INSTALLED = "not installed"


def file_stamp(st: os.stat_result) -> str:
    """A design file's status as the index keeps it: read again when it differs."""
    return f"{st.st_dev}:{st.st_ino}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}"


def _sha(parts: list[str]) -> str:
    return hashlib.sha256("\n".join(parts).encode("utf-8", "surrogateescape")).hexdigest()


class RulesStamps:
    """The rules stamp of each installed ruleset, made together the first time one is asked
    for and then kept, so that every file a scan reads is stamped with the rules as they
    were before it was read (a catalog edited during the scan: the next scan reads again
    what this one judged by the old rules, never the other way round).

    ``stamps(ruleset)``: the stamp of the designs of ``ruleset``; ``stamps(None)``: of a
    file that could not be read as a design of any ruleset (an unknown ruleset, a catalog
    that cannot be loaded), made of every ruleset's, so that installing a ruleset or
    correcting a house rule reads such files again."""

    def __init__(self) -> None:
        self._stamps: dict[str | None, str] | None = None

    def __call__(self, ruleset: str | None) -> str:
        if self._stamps is None:
            self._stamps = _every_stamp()
        return self._stamps.get(ruleset, NOT_INSTALLED)


def _every_stamp() -> dict[str | None, str]:
    import shipyard
    from shipyard.core import cachefile
    from shipyard.core.catalog import catalog_digest
    from shipyard.core.registry import ids

    here = Path(__file__).resolve().parent
    own = [shipyard.__version__, *(f"{name}:{cachefile.digest(here / name)}" for name in _OWN_CODE)]
    stamps: dict[str | None, str] = {}
    for ruleset in ids():
        try:
            made = catalog_digest(ruleset)
        except InputError as exc:  # the designs cannot be loaded: read again when that changes
            made = f"refused: {exc.problems[0]}"
        except OSError as exc:
            made = f"unreadable: {exc}"
        stamps[ruleset] = _sha([*own, ruleset, made])
    stamps[None] = _sha([*own, *(f"{r}={s}" for r, s in sorted((r, s) for r, s in stamps.items() if r))])
    return stamps
