"""Parlour's games: each in its own folder, listed once here.

``GAMES`` holds every game's bundle (games.kit.game.Game: its rules, describer, sampler and
presentation). It is written out explicitly (no registration by import side effect) so that
reading this file tells you every game; everything else that depends on which game is
played looks it up here by the game's name:

- ``REGISTRY``, ``get``: the rules object (the contract games.kit.base.Rules);
- ``game``: the whole bundle;
- ``describe``: the public account of a move, in the words the table's log, the review
  and the transcript all use.

``states`` and ``replay`` rebuild a match from its seed and action log.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from games import coins, cupid, cups, usurp, wifeswap
from games.kit.account import render
from games.kit.base import Action, IllegalAction, Previews, Rules, states
from games.kit.game import Account, Game

GAMES: tuple[Game[Any], ...] = (
    # one line per game, alphabetical:
    coins.GAME,
    cupid.GAME,
    cups.GAME,
    usurp.GAME,
    wifeswap.GAME,
)

_BY_NAME: dict[str, Game[Any]] = {bundle.name: bundle for bundle in GAMES}
REGISTRY: dict[str, Rules[Any]] = {name: bundle.rules for name, bundle in _BY_NAME.items()}


def game(name: str) -> Game[Any]:
    """The game called ``name``, whole; ``KeyError`` names the known games."""
    try:
        return _BY_NAME[name]
    except KeyError:
        known = ", ".join(sorted(_BY_NAME))
        raise KeyError(f"Unknown game {name!r}; known games: {known}.") from None


def get(name: str) -> Rules[Any]:
    """The rules of the game called ``name``; ``KeyError`` names the known games."""
    return game(name).rules


def describe(rules: Rules[Any], before: Any, seat: int, action: Action, after: Any) -> Account:
    """The public account of ``action`` by ``seat``, which took ``before`` to ``after``.

    ``{"says": ..., "text": ...}``: ``says`` is the account as data, message ids with their
    arguments (games.kit.account), for the server to put into each reader's language;
    ``text`` is it in English. Seats are named "Seat n" (the client puts names in). Plus
    ``"trick"`` —
    the trick the action completed, every card face up, with its winner and points — when
    it completes one: the view after it may already show the next deal. It says what
    everyone at the table and every watcher may know (the shared contract test checks that
    it names no card that was not public).
    """
    account = account_of(rules, before, seat, action, after)
    return {"text": render(account["says"]), **account}


def account_of(rules: Rules[Any], before: Any, seat: int, action: Action, after: Any) -> Account:
    """``describe``'s account as data alone, without its English ``text``: for a reader
    who puts ``says`` into words of their own (the server, for each reader's language)."""
    return game(rules.name).describe(before, seat, action, after)


def replay(
    name: str,
    seats: int,
    seed: int | str,
    options: Mapping[str, Any] | None,
    deck: Sequence[str] | None,
    actions: Iterable[tuple[int, Action]],
) -> Any:
    """Rebuild a match: the last of ``states`` (``new_game``, then every action in order)."""
    # A deque of length one keeps only the newest state, not the whole match.
    return deque(states(get(name), seats, seed, options, deck, actions), maxlen=1).pop()


__all__ = [
    "GAMES",
    "REGISTRY",
    "Action",
    "Game",
    "IllegalAction",
    "Previews",
    "Rules",
    "account_of",
    "describe",
    "game",
    "get",
    "replay",
    "states",
]
