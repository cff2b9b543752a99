"""The games' accounts of moves in a reader's language.

A game tells a move as data — message ids with their arguments (games.kit.account) — and
this module puts it into words with the ``games`` catalogue of the reader's language; so
too a view's ``message`` (what is awaited now), which a view carries as data in
``message_says``.
Seats are named "Seat n" on the wire, in every language, for the reader's client to put
the player's name in (docs/protocol.md); a text the server finishes itself, such as the
transcript, is given the players' names instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from app.i18n.catalogues import words
from games.kit.account import Told, render, seat_token

# Accounts told with "Seat n" as worded, per language and the account's JSON: a table tells
# the same few sentences ("Seat 2 to play") over and over, each reader's state message
# carries one, and wording one takes many times longer than encoding it. Emptied when full.
KEPT_ACCOUNTS = 10_000
_worded: dict[tuple[str, str], str] = {}


def account_text(says: Told, language: str, names: Sequence[str] | None = None) -> str:
    """``says`` in ``language``; ``names``: each seat's player, in seat order, put in for
    "Seat n" (a seat past the list keeps its "Seat n")."""
    if names is None:
        # Decoded: the bytes orjson returns keep the whole buffer it wrote into (8 KB for
        # an account of 200 bytes), and the cache holds thousands of keys.
        key = (language, orjson.dumps(says).decode())
        text = _worded.get(key)
        if text is None:
            text = render(says, words(language, "games"))
            if len(_worded) >= KEPT_ACCOUNTS:
                _worded.clear()
            _worded[key] = text
        return text

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else seat_token(seat)

    return render(says, words(language, "games"), name)


def told_in(account: Mapping[str, Any], language: str) -> dict[str, Any]:
    """An account as the wire carries it to a reader of ``language``: its ``text`` in that
    language, and without the data it was rendered from (``says``)."""
    told = {key: value for key, value in account.items() if key != "says"}
    if "says" in account:
        told["text"] = account_text(account["says"], language)
    return told


def view_in(view: Mapping[str, Any], language: str) -> dict[str, Any]:
    """A game's view (``Rules.view_says`` is the one to word) as the wire carries it to a
    reader of ``language``: its ``message`` in that language, and without the data it was
    worded from (``message_says``)."""
    shown = dict(view)
    says = shown.pop("message_says", None)
    if says is not None:
        shown["message"] = account_text(says, language)
    return shown
