"""The names that the editor's art field, the exports and the sheets' context still import
from here; the pictures are read and checked in :mod:`shipyard.core.artcheck`.

Those three modules were being changed by others while the check moved; once they import
from :mod:`shipyard.core.artcheck`, this module goes (``tests/test_module_names.py`` lists who
may still import it).
"""

from shipyard.core.artcheck import art_of, design_art, design_story, read_art

__all__ = ["art_of", "design_art", "design_story", "read_art"]
