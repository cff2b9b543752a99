"""Cups' actions told (docs/rules/cups.md, games.kit.account): each card played with what
it did (a draw and how many cards, a take from the dump, a reversal, an Ace's gifts),
graveyards laid and picked up, gifts (how many, never which), and the reshuffle — only on
the turn it happens."""

from __future__ import annotations

from typing import Any

from games.cups.rules import ENDINGS, RIGHT, TURN_CAP, CupsState
from games.kit.account import (
    N_,
    Told,
    clauses,
    ngettext,
    say,
    seat,
    seats,
    sentence,
    text,
)
from games.kit.base import Action
from games.kit.words import the


def _card(code: str) -> Told:
    return the(code, "tarot")


def describe(before: CupsState, seat_no: int, action: Action, after: CupsState) -> dict[str, Any]:
    last = dict(after.last or ())
    kind = action["type"]
    who = seat(seat_no)
    parts: list[Told]
    if kind == "gift":
        if "to" not in last:
            return {"says": sentence(say(N_("{seat} chose a gift"), seat=who))}
        givers = list(last.get("givers", []))
        if givers:
            received = ngettext(
                "{seat} received {n} gift from {givers}",
                "{seat} received {n} gifts from {givers}",
                len(givers),
                seat=seat(last["to"]),
                givers=seats(givers),
            )
        else:
            received = say(N_("{seat} received 0 gifts: nobody gave a card"), seat=seat(last["to"]))
        parts = [received]
    elif kind == "graveyard":
        parts = [
            ngettext(
                "{seat} could not play and laid {n} card face up as a graveyard, then {drawn}",
                "{seat} could not play and laid {n} cards face up as a graveyard, then {drawn}",
                last["cards"],
                seat=who,
                drawn=_drawn(before, last["cards"], last["drew"]),
            )
        ]
    else:
        parts = [_play(before, seat_no, action["card"], last, after)]
    parts.extend(_end_of_turn(before, last, after))
    ending: Told = None
    if after.phase == "over":
        one, several = ENDINGS[after.ended]
        message = one if len(after.winners) == 1 else several
        args: dict[str, Told] = {"seats": seats(after.winners)}
        if after.ended == "cap":
            args["turns"] = TURN_CAP
        ending = say(message, **args)
    return {"says": text(sentence(*parts), ending)}


def _play(
    before: CupsState, seat_no: int, card: str, last: dict[str, Any], after: CupsState
) -> Told:
    who = seat(seat_no)
    effect = last.get("effect")
    if before.active:
        played = say(
            N_("{seat} played {card} on {active}"),
            seat=who,
            card=_card(card),
            active=_card(before.active),
        )
    else:
        played = say(N_("{seat} played {card} on the empty dump"), seat=who, card=_card(card))
    if effect == "draw":
        drawn = _drawn(before, last.get("owed", last.get("drew", 0)), last.get("drew", 0))
        return say(N_("{played} and {drawn}"), played=played, drawn=drawn)
    if effect == "take":
        return ngettext(
            "{played}: the Cup of the same value takes {n} card from the dump into their hand",
            "{played}: the Cup of the same value takes {n} cards from the dump into their hand",
            last.get("took", 0),
            played=played,
        )
    if effect == "reverse":
        if after.direction == RIGHT:
            message = N_("{played}, the active Cup: play reverses and now goes right")
        else:
            message = N_("{played}, the active Cup: play reverses and now goes left")
        return say(message, played=played)
    if effect == "ace":
        return say(
            N_("{played}: an ace — everyone else gives {seat} a card or none"),
            played=played,
            seat=who,
        )
    return played


def _drawn(before: CupsState, owed: int, drew: int) -> Told:
    """What a draw of ``owed`` cards gave, where the stack held fewer (docs/rules/cups.md,
    "The stack runs out", and the ``shortfall`` option)."""
    if drew >= owed:
        return ngettext("drew {n} card", "drew {n} cards", drew)
    held = len(before.stack)
    stack = (
        ngettext("the stack held {n} card", "the stack held {n} cards", held)
        if held
        else say(N_("the stack was empty"))
    )
    short = owed - drew
    if before.shortfall == "democratic_league":
        gone = say(N_("{stack}, which left the game"), stack=stack) if held else stack
        took = (
            ngettext(
                "{n} card from the bottom of the dump",
                "{n} cards from the bottom of the dump",
                drew,
            )
            if drew
            else say(N_("nothing"))
        )
        had = ngettext(
            "had to draw {n} card: {gone}, so they took {took}",
            "had to draw {n} cards: {gone}, so they took {took}",
            owed,
            gone=gone,
            took=took,
        )
        return (
            ngettext("{drawn} ({n} forgiven)", "{drawn} ({n} forgiven)", short, drawn=had)
            if short
            else had
        )
    if held:
        took = say(N_("they took them")) if held > 1 else say(N_("they took it"))
    else:
        took = say(N_("they drew nothing"))
    return ngettext(
        "had to draw {n} card but {stack}: {took}, and {rest}",
        "had to draw {n} cards but {stack}: {took}, and {rest}",
        owed,
        stack=stack,
        took=took,
        rest=_rest(short, drew > 0, before.shortfall == "magellan"),
    )


def _rest(short: int, drew: bool, dealt: bool) -> Told:
    """What becomes of the ``short`` cards the stack lacked: dealt onto the dump after the
    reshuffle (``dealt``), or forgiven; ``drew``: some were drawn (the others are not)."""
    if drew:
        if dealt:
            return ngettext(
                "the other {n} is dealt face up onto the dump after the reshuffle",
                "the other {n} are dealt face up onto the dump after the reshuffle",
                short,
            )
        return ngettext("the other {n} is forgiven", "the other {n} are forgiven", short)
    if short == 1:
        if dealt:
            return say(N_("it is dealt face up onto the dump after the reshuffle"))
        return say(N_("it is forgiven"))
    if short == 2:
        if dealt:
            return say(N_("both are dealt face up onto the dump after the reshuffle"))
        return say(N_("both are forgiven"))
    if dealt:
        return ngettext(
            "all {n} are dealt face up onto the dump after the reshuffle",
            "all {n} are dealt face up onto the dump after the reshuffle",
            short,
        )
    return ngettext("all {n} are forgiven", "all {n} are forgiven", short)


def _end_of_turn(before: CupsState, last: dict[str, Any], after: CupsState) -> list[Told]:
    told: list[Told] = []
    picked = list(last.get("picked_up", []))
    if picked:
        told.append(
            ngettext(
                "{seats} emptied their hand and picked up their graveyard",
                "{seats} emptied their hand and picked up their graveyard",
                len(picked),
                seats=seats(picked),
            )
        )
    if after.shuffles > before.shuffles:
        left = len(after.out) - len(before.out)
        shuffled = (
            ngettext(
                "with the stack used up, the dump was shuffled into the stack "
                "({n} card left the game)",
                "with the stack used up, the dump was shuffled into the stack "
                "({n} cards left the game)",
                left,
            )
            if left
            else say(N_("with the stack used up, the dump was shuffled into the stack"))
        )
        active = (
            say(N_("the new active card is {card}"), card=_card(after.active))
            if after.active
            else None
        )
        told.append(clauses(shuffled, active))
    return told
