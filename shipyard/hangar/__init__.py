"""The hangar: every design a person keeps, indexed, searched, and gathered into rosters.

Library folders the person chooses (:mod:`shipyard.hangar.library`) are scanned into an
SQLite index under the XDG data folder (:mod:`shipyard.hangar.index`), a cache of the
files and never their only copy; ``shipyard find`` searches it
(:mod:`shipyard.hangar.query`), and a roster (:mod:`shipyard.hangar.roster`) is a force
built from designs by path and content hash. What the hangar knows of a design it reads
from its report (:mod:`shipyard.hangar.facts`), the same for every ruleset: this package
imports the core only, never a ruleset, the editor or rendering.
"""
