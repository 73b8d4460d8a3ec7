"""Ruleset-neutral core: nothing here knows a particular game.

Import the pieces from their modules (``shipyard.core.catalog``, ``shipyard.core.evaluate``
...); this package imports nothing at start-up so ``shipyard check`` stays light.
"""
