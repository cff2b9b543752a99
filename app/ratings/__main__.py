"""``python -m app.ratings rebuild``: recompute every rating from the match records.

Uses DATABASE_URL (or ``--database-url``). Stop the servers first: the rebuild rewrites
every rating in one transaction.
"""

from __future__ import annotations

import argparse
import sys

from app.config import get_settings
from app.db import make_engine
from app.ratings.ledger import rebuild


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m app.ratings", description=__doc__)
    parser.add_argument("command", choices=["rebuild"])
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args(argv)
    engine = make_engine(args.database_url or get_settings().database_url)
    try:
        count = rebuild(engine)
    finally:
        engine.dispose()
    print(f"rebuilt the ratings from {count} rated matches")


if __name__ == "__main__":
    main(sys.argv[1:])
