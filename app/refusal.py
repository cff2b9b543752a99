"""``Refusal``: the one way the app says no — a code from docs/protocol.md, a sentence for
people (in the language of whoever reads it), and the HTTP status the REST API answers with."""

from __future__ import annotations

from typing import Any

from app.i18n.accounts import account_text
from app.i18n.catalogues import words
from app.i18n.marks import N_, Mark
from games.kit.account import Told


class Refusal(Exception):
    """A refused request. It changes nothing: every check runs before anything is written.

    ``code`` is for programs (docs/protocol.md lists them all, always in English),
    ``message`` for people: the English sentence, whose message id (marked with ``N_`` where
    it is written, ``{placeholders}`` filled from ``params``) is translated when it is
    answered (:meth:`text`); ``status`` the HTTP status the REST API answers with.
    """

    def __init__(self, code: str, message_id: str, status: int = 409, /, **params: Any) -> None:
        self.code = code
        self.message_id = message_id
        self.params = params
        self.message = message_id.format(**params) if params else message_id
        self.status = status
        super().__init__(self.message)

    def text(self, language: str) -> str:
        """The message in ``language`` (a message id the catalogue lacks stays English);
        a param that is a :class:`Mark` is translated first."""
        said = words(language)
        params = {
            name: said.gettext(value) if isinstance(value, Mark) else value
            for name, value in self.params.items()
        }
        return said.gettext(self.message_id, **params)


def unavailable() -> Refusal:
    """The refusal when the database, or the process refereeing the room, cannot be reached
    for now: nothing changed, and the same request may be sent again."""
    return Refusal(
        "unavailable", N_("The server cannot reach this table right now; try again."), 503
    )


def not_owner() -> Refusal:
    """A verb reached a process that does not referee the room (any more): it is sent on to
    the room's owner, never shown to a person (with several processes, app/cluster/)."""
    return Refusal("not_owner", N_("This process does not referee that room."))


class MoveRefusal(Refusal):
    """A move the rules refused (``illegal_action``): ``message`` is the reason in English,
    ``says`` the same told as data (games.IllegalAction), which :meth:`text` words in a
    reader's language; a reason only a program's mistake brings has no ``says`` and stays
    English."""

    def __init__(self, message: str, says: Told = None) -> None:
        super().__init__("illegal_action", message)
        self.says = says

    def text(self, language: str) -> str:
        if self.says is None:
            return self.message
        return account_text(self.says, language)
