"""Coins' actions told (docs/rules/coins.md, games.kit.account): each play, and for the
third card of a trick who took it and why (the suit cycle, the higher of a pair, the
highest of a suit), the Coins it held, and a hand's end."""

from __future__ import annotations

from typing import Any

from games.coins.rules import CYCLE, SEATS, TRICKS_PER_HAND, CoinsState, coin_points, winning_card
from games.kit.account import N_, Told, ngettext, render, say, seat, sentence, suit, text
from games.kit.base import Action
from games.kit.cards import suit_of
from games.kit.words import points, scores, the, trick

# Three suits in a trick: the one missing, and so which wins, by the winning suit
# (the cycle is cups, coins, swords, clubs: each beats the next and loses to the one before).
THREE_SUITS = {
    "C": N_("three suits: clubs are missing, so cups win (cups beat coins in the cycle)"),
    "O": N_("three suits: cups are missing, so coins win (coins beat swords in the cycle)"),
    "S": N_("three suits: coins are missing, so swords win (swords beat clubs in the cycle)"),
    "B": N_("three suits: swords are missing, so clubs win (clubs beat cups in the cycle)"),
}
assert tuple(THREE_SUITS) == CYCLE


def _card(code: str) -> Told:
    return the(code, "spanish")


def reason(cards: list[str], won_by: str | None = None) -> Told:
    """Why the winning card (the engine's ``winning_card``, or ``won_by`` when the caller
    has it) takes a three-card trick, as the rules put it."""
    suits = [suit_of(c) for c in cards]
    distinct = set(suits)
    if len(distinct) == 3:
        return say(THREE_SUITS[suit_of(won_by or winning_card(cards))])
    if len(distinct) == 2:
        pair = next(s for s in distinct if suits.count(s) == 2)
        return say(N_("a pair of {suit}: the higher of the pair wins"), suit=suit(pair, "spanish"))
    return say(N_("all {suit}: the highest wins"), suit=suit(suits[0], "spanish"))


def why(cards: list[str], won_by: str | None = None) -> str:
    """:func:`reason` in English."""
    return render(reason(cards, won_by))


def describe(before: CoinsState, seat_no: int, action: Action, after: CoinsState) -> dict[str, Any]:
    card = action["card"]
    played = say(N_("{seat} played {card}"), seat=seat(seat_no), card=_card(card))
    if len(before.trick) < SEATS - 1:
        return {"says": sentence(played)}
    full = (*before.trick, (seat_no, card))
    cards = [c for _, c in full]
    top = winning_card(cards)
    winner = next(s for s, c in full if c == top)
    worth = coin_points(cards)
    took = say(
        N_("{seat} took the trick with {card} — {why}"),
        seat=seat(winner),
        card=_card(top),
        why=reason(cards, top),
    )
    coins = (
        say(N_("{points} (one for each card of coins)"), points=points(worth))
        if worth
        else say(N_("no coins in it"))
    )
    ending: Told = None
    if after.over:
        ending = say(
            N_("{seat} reached {points} and won."),
            seat=seat(after.winner),
            points=points(after.target),
        )
    elif after.hand_no != before.hand_no:
        hand_points = after.previous[1 : 1 + SEATS]
        ending = say(
            N_("Hand {hand} is over after {tricks} ({scores}); hand {next}: {seat} deals."),
            hand=before.hand_no,
            tricks=ngettext("{n} trick", "{n} tricks", TRICKS_PER_HAND),
            scores=scores(hand_points, "point"),
            next=after.hand_no,
            seat=seat(after.dealer),
        )
    told = text(sentence(played, took, coins), ending)
    return {"says": told, "trick": trick(full, winner, worth)}
