"""Allow ``python -m shipyard``."""

from shipyard.cli import main

raise SystemExit(main())
