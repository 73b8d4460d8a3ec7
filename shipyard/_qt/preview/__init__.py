"""The live preview of the record sheet: the panel, the zoomable sheet, its own window, its View
menu actions, and rendering in the editor's one render worker process (``sharedworker`` imports
no Qt: the app starts the worker before PySide6 is imported)."""
