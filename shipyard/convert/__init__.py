"""Import and conversion: text and records from elsewhere in, designs out.

``statblock``: a ruleset's printed stat-block text, both ways (read and write), driven by
the ruleset's ``statblock`` catalog entry. ``trinity``: vessels of White Wolf's *Trinity*
converted per the table in ``catalogs/trinity/``. Every function here is pure: it takes
text or data and a catalog and returns a design plus a report (or raises InputError), so
the command line and the editor share it.
"""
