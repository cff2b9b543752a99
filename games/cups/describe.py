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
        laid = f"{who} could not play and laid {plural(last['cards'], 'card')} face up"
        laid += " as a graveyard"
        clauses = [f"{laid}, then {_drawn(before, last['cards'], last['drew'], after)}"]
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
        drawn = _drawn(before, last.get("owed", last.get("drew", 0)), last.get("drew", 0), after)
        return f"{played} and {drawn}"
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


def _drawn(before: CupsState, owed: int, drew: int, after: CupsState) -> str:
    """What a draw of ``owed`` cards gave, where the stack held fewer (docs/rules/cups.md,
    "The stack runs out", and the ``shortfall`` option)."""
    if drew >= owed:
        return f"drew {plural(drew, 'card')}"
    held = len(before.stack)
    stack = f"the stack held {plural(held, 'card')}" if held else "the stack was empty"
    short = owed - drew
    if before.shortfall == "democratic_league":
        gone = f"{stack}, which left the game" if held else stack
        took = f"{plural(drew, 'card')} from the bottom of the dump" if drew else "nothing"
        text = f"had to draw {plural(owed, 'card')}: {gone}, so they took {took}"
        return text + (f" ({short} forgiven)" if short else "")
    took = ("they took them" if held > 1 else "they took it") if held else "they drew nothing"
    whole = {1: "it", 2: "both"}.get(short, f"all {short}")
    rest = f"the other {short}" if drew else whole
    verb = "is" if rest == "it" else "are"
    if before.shortfall == "magellan":
        fate = f"{verb} dealt face up onto the dump after the reshuffle"
    else:
        fate = f"{verb} forgiven"
    return f"had to draw {plural(owed, 'card')} but {stack}: {took}, and {rest} {fate}"


def _end_of_turn(before: CupsState, last: dict[str, Any], after: CupsState) -> list[str]:
    clauses = []
    picked = list(last.get("picked_up", []))
    if picked:
        clauses.append(f"{seat_list(picked)} emptied their hand and picked up their graveyard")
    if after.shuffles > before.shuffles:
        left = len(after.out) - len(before.out)
        clause = "with the stack used up, the dump was shuffled into the stack"
        if left:
            clause += f" ({plural(left, 'card')} left the game)"
        if after.active:
            clause += f"; the new active card is {_card(after.active)}"
        clauses.append(clause)
    return clauses
