"""Menu actions that do a job for the window: File > Export, import and conversion, File > Print to
PDF, View > Compare with."""
