"""One open design: the document (design, file, undo stack, report), its view (step pages beside
the panels), the binding of widgets to design paths, typed text before it commits, refused text,
and the step pages' shared frame."""
