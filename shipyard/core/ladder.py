"""What the core knows of a scale ladder: protocols, not the ladder itself.

A ladder of named steps a design is at (a Fighter, a Capital ship, "Capital + 2") is a
point-buy capability's (``shipyard.pointbuy.scales``, the catalog's ``scales`` section,
read only for a ruleset whose manifest declares the capability). The core reads one
where every ruleset's tools do — a pool's budget by scale, a form's ``scales:`` choice,
``{scales.capacity_multiplier}`` in help text, the report's ``scale`` — and for that it
needs only these shapes, so it never imports the capability.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, Protocol, TypeVar

T = TypeVar("T")


class Step(Protocol):
    """A position on the ladder: ``family`` is the named step it extends (or itself)."""

    @property
    def index(self) -> int: ...
    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def family(self) -> str: ...
    @property
    def steps_above_family(self) -> int: ...
    @property
    def designable(self) -> bool: ...


class Ladder(Protocol):
    """A catalog's scale ladder, as the core and the editor read it."""

    @property
    def multiplier(self) -> int:
        """The capacity multiplier per step (help text's ``{scales.capacity_multiplier}``)."""

    def ids(self) -> list[str]:
        """The named steps' ids, and ``base+N`` for an extension."""

    def parse(self, text: str) -> Step | None:
        """A step from its id, its name or an extension ("Big + 2"); None if not one."""

    def lookup(self, per_scale: Mapping[str, T], scale: Step) -> tuple[T, int] | None:
        """The value for ``scale`` from a per-scale mapping (the nearest step at or below it) and
        how many steps above its key; None when no key is at or below it."""

    def allows(self, allowed: list[str] | None, scale: Step) -> bool:
        """Whether an item limited to ``allowed`` steps may be used at ``scale``."""

    def offered(self, kind: Literal["designable", "component"]) -> list[tuple[str, str]]:
        """The (name, id) a form's ``scales:`` choice offers: the steps a design may be at
        (with a few extension steps), or the named steps, for a component's scale."""
