"""``Refusal``: the one way the app says no — a code from docs/protocol.md, a sentence for
people, and the HTTP status the REST API answers with."""

from __future__ import annotations


class Refusal(Exception):
    """A refused request. It changes nothing: every check runs before anything is written.

    ``code`` is for programs (docs/protocol.md lists them all), ``message`` for people,
    ``status`` the HTTP status the REST API answers with.
    """

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def unavailable() -> Refusal:
    """The refusal when the database, or the process refereeing the room, cannot be reached
    for now: nothing changed, and the same request may be sent again."""
    return Refusal("unavailable", "The server cannot reach this table right now; try again.", 503)


def not_owner() -> Refusal:
    """A verb reached a process that does not referee the room (any more): it is sent on to
    the room's owner, never shown to a person (with several processes, app/cluster/)."""
    return Refusal("not_owner", "This process does not referee that room.")
