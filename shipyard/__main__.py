"""Allow ``python -m shipyard``."""

from shipyard.cli import run

run()
