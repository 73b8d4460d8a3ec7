"""Shipyard: a construction kit for tabletop spacecraft.

The package is split so that the engine never pulls in a GUI or a PDF renderer:
``shipyard.core`` holds the ruleset-neutral mechanisms (catalogs, pools, findings,
design files, evaluation), ``shipyard.rulesets`` one module per rule system for what
its catalog data cannot say, and ``shipyard.cli`` the command line over both.
"""

__version__ = "0.1.0"
