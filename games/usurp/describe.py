"""Usurp's actions in words (docs/rules/usurp.md): the Order declared, each card played
face up with what it scored and for whom, Uprisings (face down: never which card), the
answer to one — a Challenge turns the Downcard and says what it was — the reveal pile, and
a hand's end with the Downcards turned then.

A hand's last card ends it and deals the next at once, so the state after it no longer
holds the play's own record: the describer rebuilds that record with the engine's own
resolving functions (games.usurp.plays), read-only, on the state before.
"""

from __future__ import annotations

from typing import Any

from games.kit.base import Action
from games.kit.cards import card_name
from games.kit.frozen import evolve, remove_card
from games.kit.phrasing import seat_name
from games.kit.words import scoreline, sentence, the
from games.usurp.plays import challenge, free_play, give_in, resolve
from games.usurp.rules import RULES
from games.usurp.table import UsurpState

ORDER_WORDS = {"regal": "Regal (high wins)", "common": "Common (low wins)"}
KIND_WORDS = {"score": "a Score", "usurp": "a Usurp", "sluff": "a Sluff Off"}


def _gains(scored: Any) -> str:
    parts = [f"{seat_name(s)} +{p}" for s, p in enumerate(scored or ()) if p]
    return ", ".join(parts) if parts else "nobody scores"


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


def _play(before: UsurpState, seat: int, action: Action, hand_over: bool) -> str:
    who = seat_name(seat)
    kind = action["type"]
    if kind == "order":
        verb = "declared" if before.phase == "order" else "chose"
        return f"{who} {verb} the Order: {ORDER_WORDS[action['order']]}"
    if kind == "uprise":
        return (
            f"{who} rose up: a card face down on {the(before.upcard)}; "
            f"{seat_name(1 - seat)} must give in or challenge"
        )
    record = _record(before, seat, action)
    gains = _gains(record.get("scored"))
    on = the(record["on"]) if "on" in record else ""
    if kind == "score":
        result = "beats it" if record.get("won") else "does not beat it"
        return f"{who} scored with {the(action['card'])} on {on}: it {result} — {gains}"
    if kind == "usurp":
        order = ORDER_WORDS[action["order"]]
        return f"{who} usurped with {the(action['card'])} on {on}, switching to {order} — {gains}"
    if kind == "sluff":
        text = f"{who} sluffed off {the(action['card'])} on {on} — {gains}"
        return text if hand_over else f"{text}; {seat_name(1 - seat)} has the free play"
    if kind == "free_play":
        return f"{who} took the free play with {the(action['card'])} — {gains}"
    if kind == "give_in":
        return f"{who} gave in: the Downcard stays face down — {gains}"
    played_as = record.get("played_as", "")
    what = "a Reneg (it broke suit)" if record.get("reneg") else KIND_WORDS.get(played_as, "")
    text = f"{who} challenged: the Downcard was {the(record['card'])} on {on}, {what} — {gains}"
    if played_as == "usurp" and not hand_over:
        text += f"; {seat_name(1 - seat)} chooses the Order"
    return text


def _hand_end(before: UsurpState, after: UsurpState) -> str:
    result = after.history[-1]
    text = f" Hand {result.hand} is over ({scoreline(result.hand_points, 'Hand Point')}"
    turned = [
        f"{seat_name(d.seat)}'s {card_name(d.card)}" + (" (a Reneg)" if d.reneg else "")
        for d in result.turned
    ]
    if turned:
        text += "; Downcards turned: " + ", ".join(turned)
    renegs = _gains(result.reneg_points)
    if any(result.reneg_points):
        text += f"; Renegs: {renegs}"
    text += ")"
    if result.winner >= 0:
        text += f": {seat_name(result.winner)} wins a Game Point."
    else:
        text += ": a tie, no Game Point."
    if after.phase != "over":
        text += (
            f" Hand {after.hand_no}: {seat_name(after.dealer)} deals and declares the Order "
            f"with {the(after.upcard)} up."
        )
    return text


def describe(before: UsurpState, seat: int, action: Action, after: UsurpState) -> dict[str, Any]:
    hand_over = len(after.history) > len(before.history)
    clauses = [_play(before, seat, action, hand_over)]
    if not hand_over and len(after.reveal) > len(before.reveal):
        clauses.append(f"the reveal pile turns {the(after.reveal[-1])}")
    text = sentence(*clauses)
    if hand_over:
        text += _hand_end(before, after)
    if after.phase == "over":
        text += " " + RULES.view(after, None)["message"]
    return {"text": text}
