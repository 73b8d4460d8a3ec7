"""The Qt editor. The only package that imports PySide6.

Widgets bind to a design through undoable commands that call ``shipyard.core.edits``;
panels show the engine's Report. No rule is computed here.
"""
