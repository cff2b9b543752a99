"""``python -m app.people remove-idle-guests``: remove the idle guests now.

Removes every guest none of whose sessions was used for ``--idle-days`` (default
``GUEST_IDLE_DAYS``, 30) and that played no match (app/people/idle_guests.py), on
DATABASE_URL (or ``--database-url``). The servers may keep running: they do the same now
and then.
"""

from __future__ import annotations

import argparse
import sys

from app.config import get_settings
from app.db import make_engine, make_session_factory
from app.people.idle_guests import remove_idle_guests


def main(argv: list[str]) -> None:
    settings = get_settings()
    parser = argparse.ArgumentParser(prog="python -m app.people", description=__doc__)
    parser.add_argument("command", choices=["remove-idle-guests"])
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--idle-days", type=int, default=settings.guest_idle_days)
    args = parser.parse_args(argv)
    engine = make_engine(args.database_url or settings.database_url)
    try:
        removed = remove_idle_guests(make_session_factory(engine), idle_days=args.idle_days)
    finally:
        engine.dispose()
    print(f"removed {removed} idle guests")


if __name__ == "__main__":
    main(sys.argv[1:])
