"""Dialogs and extra windows: Fix..., the compare view, import and conversion dialogs, the catalog
browser, the Hangar and its watch on the library folders, and the question before files are
replaced."""
