"""Allow ``python -m shipyard``."""

from shipyard.cli import run

if __name__ == "__main__":  # a worker process started from a command imports this module without running it
    run()
