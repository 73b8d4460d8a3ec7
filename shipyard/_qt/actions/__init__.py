"""Menu actions that do a job for the window: File > Export, import and conversion, File > Print to
PDF, View > Compare with. Each asks of the window only what its own Protocol says."""
