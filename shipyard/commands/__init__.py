"""Command-line extensions: each module here adds subcommands to ``shipyard``.

A module defines ``add_commands(sub, catalog_opts)`` where ``sub`` is the argparse
sub-parser collection and ``catalog_opts(parser)`` adds the shared --preset/--catalog
options. Handlers return an exit code and raise InputError for bad input; the main
entry point turns that into a clear message and exit status 2. Keep module-level
imports to the standard library: the parser is built on every start-up. Modules whose
names start with an underscore (``_common``: exit codes, catalog options, refusing to
overwrite) are shared helpers, not commands.
"""
