"""Stat-block text both ways: "Name: Rebel Fighter Scale: Starfighter ... Accessories: ...".

Space Fighter Alpha's text format (its manifest's ``formats:`` entry names this package,
which provides the calls of :class:`shipyard.core.textformats.TextFormatModule`). The words
belong to the catalog (its ``statblock`` entry, :mod:`.words`: labels and the design fields
they fill, list words such as "Turreted" or "None", plurals, capacities); the package is the
mechanism. Reading (:mod:`.text`, :mod:`.block`, :mod:`.lists`) finds the labels (any case,
on one line or one per line, Markdown emphasis and bullets ignored), splits the text into
blocks at each name label, and turns every value into design fields: numbers, the scale,
and list entries whose names are resolved through the catalog and its aliases. Every
piece of the text ends up in the neutral import report
(:class:`shipyard.core.textformats.ImportReport`), either used (from text to field) or not
understood (with the closest catalog names); a published number that differs from the
catalog is reported too. Writing (:mod:`.writer`) prints a design in the same format (plain
text or Markdown), and reading what was written gives back the same design for everything
the text can hold (:func:`holdable`).

Problems that leave no design to speak of (no labels, a missing required label, a number
that cannot be, too much text) raise :class:`~shipyard.core.errors.InputError`.
"""

from .block import import_statblock, import_statblocks
from .text import MAX_TEXT_BYTES
from .writer import export_statblock, holdable, lost_in_text

__all__ = [
    "MAX_TEXT_BYTES",
    "export_statblock",
    "holdable",
    "import_statblock",
    "import_statblocks",
    "lost",
    "lost_in_text",
    "read",
    "write",
]

# the text-format face (shipyard.core.textformats.TextFormatModule)
read = import_statblocks
write = export_statblock
lost = lost_in_text
