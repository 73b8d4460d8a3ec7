"""Pydantic building blocks every ruleset's ``Design`` model is made of.

A design file is user input: its models forbid unknown keys (a typo is an error, not a
silently dropped value) and are frozen (an edit makes a new design, so undo can keep the
old one). A name must hold something besides spaces: the editor and the sheets show a
design's entries by name, and a blank one could not be told apart or found. A name that
keys a map becomes part of paths, so it may not hold what separates their parts. These
live here, once, so every ruleset rejects the same input with the same message.
"""

from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from shipyard.core.paths import map_key

__all__ = ["ArtRef", "KeyName", "MapKey", "Name", "Presentation", "Story", "Strict", "not_blank"]


class Strict(BaseModel):
    """A part of a design file: unknown keys are errors, and it is never changed in place."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def not_blank(v: str) -> str:
    """``v`` unchanged, unless it is only white space."""
    if not v.strip():
        raise ValueError("must not be blank")
    return v


Name = Annotated[str, Field(min_length=1, max_length=200), AfterValidator(not_blank)]
"""A name of a design or one of its entries: 1 to 200 characters, not only spaces.
A ruleset that wants other lengths writes its own ``Annotated[str, Field(...),
AfterValidator(not_blank)]``: narrowing ``Name`` with a second ``Field`` would change
pydantic's message for a name too long."""

MapKey = Annotated[str, AfterValidator(map_key)]
"""A key of a map in the design: paths name it as a part (``skills.Main drive``),
so it holds no ``.``, ``[`` or ``]`` (``shipyard.core.paths``)."""

KeyName = Annotated[Name, AfterValidator(map_key)]
"""A name that a map of the design is keyed by (an entry that other values are kept under)."""


ArtRef = Annotated[
    str,
    Field(min_length=1, description="a picture: a path relative to the design file, or the picture as a data: URI"),
]
"""A design's ``art``: what it may hold, its length too, is checked when the picture is read
(shipyard.core.artcheck), so a picture that is missing, too large or refused leaves the design
readable and printable without it, with a warning. No length here: a limit of the model
would refuse the whole design over its picture (the design file's own size limit bounds it)."""

Story = Annotated[str, Field(max_length=20_000, description="the design's history: deployment, notable crew")]


class Presentation(Strict):
    """The fields every ruleset's design carries beside its name, whatever its rules: its
    picture (``art``) and its history (``story``). The sheets, tokens and exports show
    them; no rule reads them."""

    art: ArtRef | None = None
    story: Story = ""
