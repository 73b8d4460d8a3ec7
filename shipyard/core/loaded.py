"""A design read from a file: what loading gives and saving takes.

Its own module, below :mod:`shipyard.core.designfile`, so that what makes designs from
other files (a ruleset's text formats and conversions, :mod:`shipyard.core.textformats`)
can hand back the loaded design without importing the loader, whose refusal of a file that
is no design asks those formats what the file is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shipyard.core.aswritten import AsWritten
from shipyard.core.model import Catalog

# The version of the design file's format this Shipyard writes (older ones are read and
# brought up to it by the loader).
FORMAT_VERSION = 2


@dataclass
class LoadedDesign:
    """A design read from a file, resolved against the catalog it names.

    ``written`` is the file as it was read (see :mod:`shipyard.core.aswritten`): saving
    keeps its text and changes only what the design changed. Pass it on to the
    LoadedDesign of a changed design (``shipyard fix``, ``set``, the editor)."""

    file: Path | None
    ruleset: str
    preset: str
    design: Any
    catalog: Catalog
    written: AsWritten | None = field(default=None, repr=False, compare=False)
    tags: list[str] = field(default_factory=list)  # the person's own labels (the hangar searches them)

    def envelope(self, *, defaults: bool = False) -> dict[str, Any]:
        """The file's document; ``defaults``: with every field, those at their default too."""
        doc: dict[str, Any] = {"format_version": FORMAT_VERSION, "ruleset": self.ruleset, "preset": self.preset}
        if defaults or self.tags:
            doc["tags"] = list(self.tags)
        doc["design"] = self.design.model_dump(mode="json", exclude_defaults=not defaults)
        return doc
