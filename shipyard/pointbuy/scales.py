"""The scale ladder: named steps, plus an open-ended extension above the top step.

Rule systems size things by scale and multiply capacities per step; some let the
Storyteller extend the ladder past its top step ("Top + 1", "+2", ...). Values given per scale in a
catalog apply to that scale and every scale above it until another value is given.

The ladder is the point-buy capability's: its catalog section (``scales``) is read only
for a ruleset that declares the capability. The core reads a ladder through the
protocols of :mod:`shipyard.core.ladder`, which :class:`ScaleLadder` and :class:`Scale`
satisfy; a ruleset's own code reaches the whole ladder with :func:`ladder`.
"""

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from shipyard.core.ladder import Step

if TYPE_CHECKING:
    from shipyard.core.model import Catalog

T = TypeVar("T")


class ScaleEntry(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)

    id: str = Field(pattern=r"^[a-z][a-z0-9-]*$")
    name: str
    designable: bool = True
    source: str


class ScaleExtension(BaseModel):
    """How the ladder continues above its last named step."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    base: str
    name: str = Field(description="display name with {n}, e.g. 'Big + {n}'")
    max_steps: int = Field(ge=1, le=100)
    source: str


class ScalesSection(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)

    ladder: list[ScaleEntry] = Field(min_length=1)
    capacity_multiplier: int = Field(ge=1)
    capacity_multiplier_source: str
    extension: ScaleExtension | None = None


@dataclass(frozen=True, order=True)
class Scale:
    """A position on the ladder. ``family`` is the named step it extends (or itself)."""

    index: int
    id: str
    name: str
    family: str
    steps_above_family: int
    designable: bool


class ScaleLadder:
    def __init__(self, section: ScalesSection) -> None:
        self.section = section
        self._named = {e.id: Scale(i, e.id, e.name, e.id, 0, e.designable) for i, e in enumerate(section.ladder)}
        ext = section.extension
        self._ext_base = self._named[ext.base] if ext else None
        self._parsed: dict[str, Scale | None] = {}

    @property
    def multiplier(self) -> int:
        return self.section.capacity_multiplier

    def ids(self) -> list[str]:
        names = [e.id for e in self.section.ladder]
        if self.section.extension:
            names.append(f"{self.section.extension.base}+N")
        return names

    def designable_ids(self) -> list[str]:
        return [e.id for e in self.section.ladder if e.designable]

    def designable_allowed(self) -> str:
        """The scales a design may be at, for an error's "allowed" (the extension written 'base+N')."""
        ids = self.designable_ids()
        ext = self.section.extension
        if ext and ext.base in ids:
            ids.append(f"{ext.base}+N")
        return ", ".join(ids)

    def parse(self, text: str) -> Scale | None:
        """Parse an id, a name, or an extension such as 'Big + 2' / 'big+2'; None if not a scale."""
        if text in self._parsed:
            return self._parsed[text]
        found = self._parse(text)
        if len(self._parsed) < 512:
            self._parsed[text] = found
        return found

    def _parse(self, text: str) -> Scale | None:
        key = re.sub(r"[\s_]+", "", text.strip().lower()).replace("-scale", "")
        for s in self._named.values():
            if key in (s.id, re.sub(r"\s+", "", s.name.lower())):
                return s
        ext, base = self.section.extension, self._ext_base
        if ext is None or base is None:
            return None
        m = re.fullmatch(rf"{re.escape(base.id)}\+(\d{{1,4}})", key)
        if not m:
            return None
        n = int(m.group(1))
        if n == 0:
            return base
        if not 1 <= n <= ext.max_steps:
            return None
        return Scale(base.index + n, f"{base.id}+{n}", ext.name.format(n=n), base.id, n, base.designable)

    def at_index(self, index: int) -> Scale | None:
        for s in self._named.values():
            if s.index == index:
                return s
        if self._ext_base is not None and index > self._ext_base.index:
            return self.parse(f"{self._ext_base.id}+{index - self._ext_base.index}")
        return None

    def lookup(self, per_scale: Mapping[str, T], scale: Step) -> tuple[T, int] | None:
        """Value for ``scale`` from a per-scale mapping, and how many steps above its key.

        The nearest listed scale at or below ``scale`` wins; the step count lets a caller
        multiply capacities per step or leave budgets as they are.
        """
        best: tuple[T, int] | None = None
        for key, value in per_scale.items():
            s = self.parse(key)
            if s is None or s.index > scale.index:
                continue
            steps = scale.index - s.index
            if best is None or steps < best[1]:
                best = (value, steps)
        return best

    def lookup_family(self, per_scale: Mapping[str, T], scale: Step) -> tuple[T, int] | None:
        """Value for ``scale``'s own named step, and how many extension steps above it.

        Capacities are given for named scales only and grow along the extension
        (multiplied per extension step); a capacity given only for a small scale never
        leaks up to a larger one the way a budget carries upward.
        """
        for key, value in per_scale.items():
            s = self.parse(key)
            if s is not None and s.id == scale.family:
                return value, scale.steps_above_family
        return None

    def allows(self, allowed: list[str] | None, scale: Step) -> bool:
        """Whether an item limited to ``allowed`` scales may be used at ``scale``."""
        if not allowed:
            return True
        return scale.family in allowed or scale.id in allowed

    def offered(self, kind: Literal["designable", "component"]) -> list[tuple[str, str]]:
        """The (name, id) a form's ``scales:`` choice offers: for a component, the named steps;
        for a design, the steps it may be at and the first extension steps (up to 6)."""
        if kind == "component":
            return [(e.name, e.id) for e in self.section.ladder]
        out = []
        for sid in self.designable_ids():
            s = self.parse(sid)
            out.append((s.name if s else sid, sid))
        ext = self.section.extension
        if ext is not None:
            for n in range(1, min(ext.max_steps, 6) + 1):
                s = self.parse(f"{ext.base}+{n}")
                if s is not None:
                    out.append((s.name, s.id))
        return out


def ladder(catalog: "Catalog") -> ScaleLadder:
    """The catalog's whole scale ladder, for a ruleset's code (the core sees only its protocol);
    LookupError when the catalog has none."""
    found = catalog.ladder
    if not isinstance(found, ScaleLadder):
        raise LookupError(f"ruleset {catalog.meta.id!r} has no point-buy scale ladder")
    return found
