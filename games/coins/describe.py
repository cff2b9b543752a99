"""Coins' actions in words (docs/rules/coins.md): each play, and for the third card of a
trick who took it and why (the suit cycle, the higher of a pair, the highest of a suit),
the Coins it held, and a hand's end."""

from __future__ import annotations

from typing import Any

from games.coins.rules import CYCLE, SEATS, TRICKS_PER_HAND, CoinsState, coin_points, winning_card
from games.kit.base import Action
from games.kit.cards import SUIT_NAMES, suit_of
from games.kit.phrasing import seat_name
from games.kit.words import points, scoreline, sentence, the, trick

SUITS = SUIT_NAMES["spanish"]


def _card(code: str) -> str:
    return the(code, "spanish")


def why(cards: list[str], won_by: str | None = None) -> str:
    """Why the winning card (the engine's ``winning_card``, or ``won_by`` when the caller
    has it) takes a three-card trick, as the rules put it."""
    suits = [suit_of(c) for c in cards]
    distinct = set(suits)
    if len(distinct) == 3:
        top = suit_of(won_by or winning_card(cards))
        missing = CYCLE[(CYCLE.index(top) - 1) % len(CYCLE)]
        beaten = CYCLE[(CYCLE.index(top) + 1) % len(CYCLE)]
        return (
            f"three suits: {SUITS[missing]} are missing, so {SUITS[top]} win "
            f"({SUITS[top]} beat {SUITS[beaten]} in the cycle)"
        )
    if len(distinct) == 2:
        pair = next(s for s in distinct if suits.count(s) == 2)
        return f"a pair of {SUITS[pair]}: the higher of the pair wins"
    return f"all {SUITS[suits[0]]}: the highest wins"


def describe(before: CoinsState, seat: int, action: Action, after: CoinsState) -> dict[str, Any]:
    card = action["card"]
    played = f"{seat_name(seat)} played {_card(card)}"
    if len(before.trick) < SEATS - 1:
        return {"text": sentence(played)}
    full = (*before.trick, (seat, card))
    cards = [c for _, c in full]
    top = winning_card(cards)
    winner = next(s for s, c in full if c == top)
    worth = coin_points(cards)
    took = f"{seat_name(winner)} took the trick with {_card(top)} — {why(cards, top)}"
    coins = f"{points(worth)} (one for each card of coins)" if worth else "no coins in it"
    text = sentence(played, took, coins)
    if after.over:
        text += f" {seat_name(after.winner)} reached {points(after.target)} and won."
    elif after.hand_no != before.hand_no:
        hand_points = after.previous[1 : 1 + SEATS]
        text += (
            f" Hand {before.hand_no} is over after {TRICKS_PER_HAND} tricks "
            f"({scoreline(hand_points, 'point')}); hand {after.hand_no}: "
            f"{seat_name(after.dealer)} deals."
        )
    return {"text": text, "trick": trick(full, winner, worth)}
