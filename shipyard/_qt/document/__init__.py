"""An open design and the widgets bound to it: the document (design, file, undo stack, report), the
binding of widgets to design paths, typed text before it commits, refused text, the keyboard's
one undo history and Tab order, and the step pages' shared base; an open roster (rosterdoc)."""
