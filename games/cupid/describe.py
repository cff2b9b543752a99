"""Cupid's actions in words (docs/rules/cupid.md): plays, the trick each second card
decides, the prize trick and a round's end; draws say which card became public."""

from __future__ import annotations

from typing import Any

from games.cupid.rules import JACK, TRICKS_PER_ROUND, CupidState, beats, trick_value
from games.kit.base import Action
from games.kit.phrasing import seat_name
from games.kit.words import points, scoreline, sentence, the, trick

# The character cards' Cupid names, as their faces show them (docs/rules/cupid.md).
TITLES = {"QD": "Anima", "JC": "Monster", "KH": "Cupid", "JK": "Zephyr"}


def _card(code: str) -> str:
    return the(code, "french", TITLES)


def describe(before: CupidState, seat: int, action: Action, after: CupidState) -> dict[str, Any]:
    who = seat_name(seat)
    if action["type"] == "draw":
        return {"text": _draw(before, seat, action["source"], after)}
    card = action["card"]
    played = f"{who} played {_card(card)}"
    if not before.trick:
        return {"text": sentence(played)}
    (lead_seat, lead_card) = before.trick[0]
    winner = seat if beats(card, lead_card) else lead_seat
    worth = trick_value(lead_card, card)
    took = f"{seat_name(winner)} took the trick ({points(worth)})"
    clauses = [played, took]
    winning = card if winner == seat else lead_card
    # The Monster hands the next lead to the trick's loser; a trick that ends the round or
    # the match has no next trick in this round to lead (the round's end says who leads).
    next_trick = after.phase != "over" and after.round == before.round
    if winning == JACK and next_trick:
        clauses.append(f"won with the Monster, so {seat_name(after.next_leader)} leads")
    if before.tricks_played + 1 == TRICKS_PER_ROUND and not (
        after.phase == "over" and after.prize_points < 0
    ):
        prize = trick_value(*before.prize)
        clauses.append(f"{seat_name(winner)} also took the prize trick ({points(prize)})")
    text = sentence(*clauses)
    if after.phase == "over":
        text += f" {seat_name(after.winner)} reached {points(after.target)} and won."
    elif after.round != before.round:
        rnd, p0, p1 = after.previous[:3]
        text += (
            f" Round {rnd} is over ({scoreline((p0, p1), 'point')}); "
            f"round {after.round}: {seat_name(after.dealer)} deals and leads."
        )
    return {"text": text, "trick": trick((*before.trick, (seat, card)), winner, worth)}


def _draw(before: CupidState, seat: int, source: str, after: CupidState) -> str:
    who, other = seat_name(seat), seat_name(1 - seat)
    turnup = _card(before.turnup[0])
    if source == "turnup":
        first = f"{who} took the turn-up, {turnup}; {other} got the stock's top card"
    else:
        first = f"{who} took the stock's top card; {other} got the turn-up, {turnup}"
    then = (
        f"the new turn-up is {_card(after.turnup[0])}" if after.turnup else "the stock is used up"
    )
    return sentence(first, then)
