"""Text formats that any ruleset may use: text and records from elsewhere in, designs out.

``statblock``: a ruleset's printed stat-block text, both ways (read and write), driven by
the ruleset's ``statblock`` catalog entry (its labels, words and fields). A ruleset
offers it by naming this module among the formats of its manifest. Every function here is
pure: it takes text or data and a catalog and returns a design plus a report (or raises
InputError), so the command line and the editor share it. Conversions from other games
belong to the ruleset they convert into (its manifest's ``conversions``).
"""
