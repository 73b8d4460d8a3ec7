"""The step pages built from a ruleset's declared form (the catalog's ``form`` section): pages,
sections, fields, lists and their list editor, maps, figures and tables, actions, and the
design's picture, story and tags."""
