"""Cupid's actions told (docs/rules/cupid.md, games.kit.account): plays, the trick each
second card decides, the prize trick and a round's end; draws say which card became
public."""

from __future__ import annotations

from typing import Any

from games.cupid.rules import JACK, TRICKS_PER_ROUND, CupidState, beats, trick_value
from games.kit.account import N_, Told, say, seat, sentence, text
from games.kit.base import Action
from games.kit.words import points, scores, the, trick

# The character cards' Cupid names, as their faces show them (docs/rules/cupid.md): proper
# names, the same in every language.
TITLES = {"QD": "Anima", "JC": "Monster", "KH": "Cupid", "JK": "Zephyr"}


def _card(code: str) -> Told:
    return the(code, "french", TITLES)


def describe(before: CupidState, seat_no: int, action: Action, after: CupidState) -> dict[str, Any]:
    if action["type"] == "draw":
        return {"says": _draw(before, seat_no, action["source"], after)}
    card = action["card"]
    played = say(N_("{seat} played {card}"), seat=seat(seat_no), card=_card(card))
    if not before.trick:
        return {"says": sentence(played)}
    (lead_seat, lead_card) = before.trick[0]
    winner = seat_no if beats(card, lead_card) else lead_seat
    worth = trick_value(lead_card, card)
    took = say(N_("{seat} took the trick ({points})"), seat=seat(winner), points=points(worth))
    clauses = [played, took]
    winning = card if winner == seat_no else lead_card
    # The Monster hands the next lead to the trick's loser; a trick that ends the round or
    # the match has no next trick in this round to lead (the round's end says who leads).
    next_trick = after.phase != "over" and after.round == before.round
    if winning == JACK and next_trick:
        clauses.append(
            say(N_("won with the Monster, so {seat} leads"), seat=seat(after.next_leader))
        )
    if before.tricks_played + 1 == TRICKS_PER_ROUND and not (
        after.phase == "over" and after.prize_points < 0
    ):
        prize = trick_value(*before.prize)
        clauses.append(
            say(
                N_("{seat} also took the prize trick ({points})"),
                seat=seat(winner),
                points=points(prize),
            )
        )
    ending: Told = None
    if after.phase == "over":
        ending = say(
            N_("{seat} reached {points} and won."),
            seat=seat(after.winner),
            points=points(after.target),
        )
    elif after.round != before.round:
        rnd, p0, p1 = after.previous[:3]
        ending = say(
            N_("Round {round} is over ({scores}); round {next}: {seat} deals and leads."),
            round=rnd,
            scores=scores((p0, p1), "point"),
            next=after.round,
            seat=seat(after.dealer),
        )
    told = text(sentence(*clauses), ending)
    return {"says": told, "trick": trick((*before.trick, (seat_no, card)), winner, worth)}


def _draw(before: CupidState, seat_no: int, source: str, after: CupidState) -> Told:
    who, other = seat(seat_no), seat(1 - seat_no)
    turnup = _card(before.turnup[0])
    if source == "turnup":
        first = say(
            N_("{seat} took the turn-up, {card}; {other} got the stock's top card"),
            seat=who,
            card=turnup,
            other=other,
        )
    else:
        first = say(
            N_("{seat} took the stock's top card; {other} got the turn-up, {card}"),
            seat=who,
            card=turnup,
            other=other,
        )
    then = (
        say(N_("the new turn-up is {card}"), card=_card(after.turnup[0]))
        if after.turnup
        else say(N_("the stock is used up"))
    )
    return sentence(first, then)
