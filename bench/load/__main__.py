"""``python -m bench.load``: run the load benchmark from the command line."""

import sys

from bench.load.cli import cli

if __name__ == "__main__":
    sys.exit(cli())
