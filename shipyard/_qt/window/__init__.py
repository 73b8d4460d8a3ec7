"""The main window and the parts it holds: the menu bar, the Help menu, recent files, autosave and
recovery, dropped files, the roster tabs, the start page, the status line, the system libraries
the editor needs to start. The top of the editor: nothing below imports it."""
