"""What happened, in words: every game's public account of one action.

``describe(rules, before, seat, action, after)`` says what ``action`` by ``seat`` did,
taking the match from ``before`` to ``after``, as everyone at the table and every watcher
may know it: the card where it was played face up, the points scored, the cards drawn (how
many, never which), reversals, reveals, reshuffles when they happen, and a deal's end. The
server sends it with every state message and the review shows it beside every move, so the
table's log and the review say the same thing in the same words.

An account is ``{"text": ...}``, seats named "Seat n" (the client puts names in), plus
``"trick"`` — the trick the action completed, every card face up, with its winner and
points — when the action completes one: the view after it may already show the next deal.

Each game's describer lives in its own module here and reads the two states; it never
changes them. Hidden information stays hidden: the shared contract test checks that no
account names a card that was not public.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.base import Action, Rules
from games.describe import coins, cupid, cups, usurp, wifeswap

Account = dict[str, Any]
Describer = Callable[[Any, int, Action, Any], Account]

DESCRIBERS: dict[str, Describer] = {
    "cupid": cupid.describe,
    "coins": coins.describe,
    "cups": cups.describe,
    "wifeswap": wifeswap.describe,
    "usurp": usurp.describe,
}


def describe(rules: Rules[Any], before: Any, seat: int, action: Action, after: Any) -> Account:
    """The public account of ``action`` by ``seat``, which took ``before`` to ``after``."""
    return DESCRIBERS[rules.name](before, seat, action, after)
