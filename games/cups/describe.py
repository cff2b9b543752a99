"""Cups' actions in words (docs/rules/cups.md): each card played with what it did (a draw
and how many cards, a take from the dump, a reversal, an Ace's gifts), graveyards laid and
picked up, gifts (how many, never which), and the reshuffle — only on the turn it happens."""

from __future__ import annotations

from typing import Any

from games.cups.rules import RIGHT, RULES, CupsState
from games.kit.base import Action
from games.kit.phrasing import plural, seat_list, seat_name
from games.kit.words import sentence, the


def _card(code: str) -> str:
    return the(code, "tarot")


def _direction(state: CupsState) -> str:
    return "right" if state.direction == RIGHT else "left"


def describe(before: CupsState, seat: int, action: Action, after: CupsState) -> dict[str, Any]:
    last = dict(after.last or ())
    kind = action["type"]
    who = seat_name(seat)
    if kind == "gift":
        if "to" not in last:
            return {"text": sentence(f"{who} chose a gift")}
        givers = list(last.get("givers", []))
        clauses = [
            f"{seat_name(last['to'])} received {plural(len(givers), 'gift')}"
            + (f" from {seat_list(givers)}" if givers else ": nobody gave a card")
        ]
    elif kind == "graveyard":
        clauses = [
            f"{who} could not play and laid {plural(last['cards'], 'card')} face up as a "
            f"graveyard, then drew {plural(last['drew'], 'card')}"
        ]
    else:
        clauses = [_play(before, seat, action["card"], last, after)]
    clauses.extend(_end_of_turn(before, last, after))
    text = sentence(*clauses)
    if after.phase == "over":
        text += " " + RULES.view(after, None)["message"]
    return {"text": text}


def _play(before: CupsState, seat: int, card: str, last: dict[str, Any], after: CupsState) -> str:
    who = seat_name(seat)
    effect = last.get("effect")
    on = f"on {_card(before.active)}" if before.active else "on the empty dump"
    played = f"{who} played {_card(card)} {on}"
    if effect == "draw":
        return f"{played} and drew {plural(last.get('drew', 0), 'card')}"
    if effect == "take":
        return (
            f"{played}: the Cup of the same value takes {plural(last.get('took', 0), 'card')} "
            "from the dump into their hand"
        )
    if effect == "reverse":
        return f"{played}, the active Cup: play reverses and now goes {_direction(after)}"
    if effect == "ace":
        return f"{played}: an ace — everyone else gives {who} a card or none"
    return played


def _end_of_turn(before: CupsState, last: dict[str, Any], after: CupsState) -> list[str]:
    clauses = []
    picked = list(last.get("picked_up", []))
    if picked:
        clauses.append(f"{seat_list(picked)} emptied their hand and picked up their graveyard")
    if after.shuffles > before.shuffles:
        left = len(after.out) - len(before.out)
        clause = "the stack ran short, so the dump was shuffled into the stack"
        if left:
            clause += f" ({plural(left, 'card')} left the game)"
        if after.active:
            clause += f"; the new active card is {_card(after.active)}"
        clauses.append(clause)
    return clauses
