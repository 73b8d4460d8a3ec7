"""Dialogs and extra windows: Fix..., the compare view, import and conversion dialogs, the catalog
browser, the Hangar, and the question before files are replaced."""
