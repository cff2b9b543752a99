"""``python -m app.admin grant|revoke moderator NAME``: give an account the moderator's
role, or take it away.

Works on DATABASE_URL (or ``--database-url``); the servers may keep running: each asks the
database whether a caller is a moderator. Every change is written to the moderators' audit
log, as done from the command line. An unknown name, or a guest, exits with status 1.
"""

from __future__ import annotations

import argparse
import sys

from sqlalchemy.orm import Session, sessionmaker

from app.config import get_settings
from app.db import make_engine, make_session_factory
from app.models import ModerationEntry, utcnow
from app.people.lookup import user_by_name
from app.store import moderation as store

ROLES = ("moderator",)


def change_role(sessions: sessionmaker[Session], command: str, username: str) -> str:
    """Grant or revoke the moderator's role (committed, with its audit log entry); what
    happened, in a sentence. ``LookupError`` when there is no such account."""
    with sessions() as session:
        user = user_by_name(session=session, name=username.strip())
        if user is None or user.username is None:
            raise LookupError(f"There is no account called {username}.")
        if command == "grant":
            changed = store.grant_moderator(session=session, user_id=user.id, at=utcnow())
            done = "is now a moderator" if changed else "was a moderator already"
        else:
            changed = store.revoke_moderator(session=session, user_id=user.id)
            done = "is no longer a moderator" if changed else "was not a moderator"
        if changed:
            entry = ModerationEntry(
                at=utcnow(),
                action=f"{command}_moderator",
                target_id=user.id,
                reason="from the command line",
                details={},
            )
            store.record(session=session, entry=entry)
        session.commit()
        return f"{user.username} {done}"


def main(argv: list[str]) -> int:
    settings = get_settings()
    parser = argparse.ArgumentParser(prog="python -m app.admin", description=__doc__)
    parser.add_argument("command", choices=["grant", "revoke"])
    parser.add_argument("role", choices=ROLES)
    parser.add_argument("username")
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args(argv)
    engine = make_engine(args.database_url or settings.database_url)
    try:
        print(change_role(make_session_factory(engine), args.command, args.username))
    except LookupError as error:
        print(error, file=sys.stderr)
        return 1
    finally:
        engine.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
