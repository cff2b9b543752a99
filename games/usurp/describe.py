"""Usurp's actions told (docs/rules/usurp.md, games.kit.account): the Order declared, each
card played face up with what it scored and for whom, Uprisings (face down: never which
card), the answer to one — a Challenge turns the Downcard and says what it was — the reveal
pile, and a hand's end with the Downcards turned then.

A hand's last card ends it and deals the next at once, so the state after it no longer
holds the play's own record: the describer rebuilds that record with the engine's own
resolving functions (games.usurp.plays), read-only, on the state before.
"""

from __future__ import annotations

from typing import Any

from games.kit.account import N_, Told, card, clauses, commas, say, seat, sentence, text
from games.kit.base import Action, top_scorers
from games.kit.frozen import evolve, remove_card
from games.kit.words import scores, the
from games.usurp.plays import challenge, free_play, give_in, resolve
from games.usurp.table import OVER, UsurpState

ORDER_WORDS = {"regal": N_("Regal (high wins)"), "common": N_("Common (low wins)")}
KIND_WORDS = {"score": N_("a Score"), "usurp": N_("a Usurp"), "sluff": N_("a Sluff Off")}


def _gains(scored: Any) -> Told:
    parts = [
        say(N_("{seat} +{points}"), seat=seat(s), points=p) for s, p in enumerate(scored or ()) if p
    ]
    return commas(parts) if parts else say(N_("nobody scores"))


def _record(before: UsurpState, seat: int, action: Action) -> dict[str, Any]:
    """The play's own record, as the engine writes it before the turn is finished."""
    kind = action["type"]
    if kind in ("score", "usurp", "sluff"):
        card = action["card"]
        moved = evolve(before, hands=remove_card(before.hands, seat, card))
        step = resolve(moved, seat, card, kind, order=action.get("order"), challenged=False)
    elif kind == "free_play":
        step = free_play(before, seat, action["card"])
    elif kind == "give_in":
        step = give_in(before, seat)
    elif kind == "challenge":
        step = challenge(before, seat)
    else:
        return {}
    return dict(step.last or ())


def _play(before: UsurpState, seat_no: int, action: Action, hand_over: bool) -> Told:
    who = seat(seat_no)
    other = seat(1 - seat_no)
    kind = action["type"]
    if kind == "order":
        if before.phase == "order":
            message = N_("{seat} declared the Order: {order}")
        else:
            message = N_("{seat} chose the Order: {order}")
        return say(message, seat=who, order=say(ORDER_WORDS[action["order"]]))
    if kind == "uprise":
        return say(
            N_("{seat} rose up: a card face down on {card}; {other} must give in or challenge"),
            seat=who,
            card=the(before.upcard),
            other=other,
        )
    record = _record(before, seat_no, action)
    gains = _gains(record.get("scored"))
    on = the(record["on"]) if "on" in record else ""
    if kind == "score":
        if record.get("won"):
            message = N_("{seat} scored with {card} on {on}: it beats it — {gains}")
        else:
            message = N_("{seat} scored with {card} on {on}: it does not beat it — {gains}")
        return say(message, seat=who, card=the(action["card"]), on=on, gains=gains)
    if kind == "usurp":
        return say(
            N_("{seat} usurped with {card} on {on}, switching to {order} — {gains}"),
            seat=who,
            card=the(action["card"]),
            on=on,
            order=say(ORDER_WORDS[action["order"]]),
            gains=gains,
        )
    if kind == "sluff":
        if hand_over:
            message = N_("{seat} sluffed off {card} on {on} — {gains}")
        else:
            message = N_("{seat} sluffed off {card} on {on} — {gains}; {other} has the free play")
        return say(message, seat=who, card=the(action["card"]), on=on, gains=gains, other=other)
    if kind == "free_play":
        return say(
            N_("{seat} took the free play with {card} — {gains}"),
            seat=who,
            card=the(action["card"]),
            gains=gains,
        )
    if kind == "give_in":
        return say(
            N_("{seat} gave in: the Downcard stays face down — {gains}"), seat=who, gains=gains
        )
    played_as = record.get("played_as", "")
    if record.get("reneg"):
        what: Told = say(N_("a Reneg (it broke suit)"))
    else:
        what = say(KIND_WORDS[played_as]) if played_as in KIND_WORDS else ""
    if played_as == "usurp" and not hand_over:
        message = N_(
            "{seat} challenged: the Downcard was {card} on {on}, {what} — {gains}; "
            "{other} chooses the Order"
        )
    else:
        message = N_("{seat} challenged: the Downcard was {card} on {on}, {what} — {gains}")
    return say(
        message, seat=who, card=the(record["card"]), on=on, what=what, gains=gains, other=other
    )


def _hand_end(before: UsurpState, after: UsurpState) -> Told:
    result = after.history[-1]
    turned = [
        say(
            # Translators: {card} has no article here ("Seat 1's queen of hearts").
            N_("{seat}'s {card} (a Reneg)") if d.reneg else N_("{seat}'s {card}"),
            seat=seat(d.seat),
            card=card(d.card, "french", bare=True),
        )
        for d in result.turned
    ]
    details = clauses(
        scores(result.hand_points, "Hand Point"),
        say(N_("Downcards turned: {cards}"), cards=commas(turned)) if turned else None,
        say(N_("Renegs: {gains}"), gains=_gains(result.reneg_points))
        if any(result.reneg_points)
        else None,
    )
    if result.winner >= 0:
        over = say(
            N_("Hand {hand} is over ({details}): {seat} wins a Game Point."),
            hand=result.hand,
            details=details,
            seat=seat(result.winner),
        )
    else:
        over = say(
            N_("Hand {hand} is over ({details}): a tie, no Game Point."),
            hand=result.hand,
            details=details,
        )
    if after.phase == OVER:
        return over
    return text(
        over,
        say(
            N_("Hand {hand}: {seat} deals and declares the Order with {card} up."),
            hand=after.hand_no,
            seat=seat(after.dealer),
            card=the(after.upcard),
        ),
    )


def _match_over(after: UsurpState) -> Told:
    won = top_scorers(after.game_points)
    if len(won) == 2:
        return say(N_("The match is over: the Game Points are equal, so it is shared."))
    return say(N_("The match is over: {seat} wins."), seat=seat(won[0]))


def describe(before: UsurpState, seat_no: int, action: Action, after: UsurpState) -> dict[str, Any]:
    hand_over = len(after.history) > len(before.history)
    parts = [_play(before, seat_no, action, hand_over)]
    if not hand_over and len(after.reveal) > len(before.reveal):
        parts.append(say(N_("the reveal pile turns {card}"), card=the(after.reveal[-1])))
    told = text(
        sentence(*parts),
        _hand_end(before, after) if hand_over else None,
        _match_over(after) if after.phase == OVER else None,
    )
    return {"says": told}
