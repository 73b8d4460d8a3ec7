"""The main window and its parts: tabs of open designs, menus, recent files, autosave and recovery,
drag and drop, the start page, where windows open, the keyboard's shared rules, and the system
libraries the editor needs to start."""
