"""Royal Wife-Swap's actions told (docs/rules/wifeswap.md, games.kit.account): each card
played, who won a trick and with which card, what the winner laid into their families (the
cards, now face up) or that they passed, and a round's end with its scores."""

from __future__ import annotations

from typing import Any

from games.kit.account import (
    LAST_JOINT,
    N_,
    Told,
    commas,
    ngettext,
    render,
    say,
    seat,
    sentence,
    text,
)
from games.kit.base import Action, top_scorers
from games.kit.words import points, scores, the, trick
from games.wifeswap.families import (
    NEMESIS,
    RANK,
    beaten_court,
    family_points,
    nemesis_of,
    strength,
    trick_winner,
)
from games.wifeswap.rules import IDLE_TRICK_CAP, TRICK_CAP, WifeSwapState

# A court card beaten by its nemesis (docs/rules/wifeswap.md, "Tricks"), by the court's rank.
NEMESIS_WINS = {
    "K": N_("a 2 beats the king of its own suit, its nemesis"),
    "Q": N_("a 3 beats the queen of its own suit, its nemesis"),
    "J": N_("a 4 beats the jack of its own suit, its nemesis"),
    "10": N_("a 5 beats the 10 of its own suit, its nemesis"),
}
assert {court: text[2] for court, text in NEMESIS_WINS.items()} == NEMESIS

# Why a round ended, by the reason the rules record (WifeSwapState.end_reason).
ROUND_ENDS: dict[str, Told] = {
    "a player had no cards at the start of a trick": say(
        N_("a player had no cards at the start of a trick")
    ),
    f"{IDLE_TRICK_CAP} tricks in a row without a card newly laid": ngettext(
        "{n} trick in a row without a card newly laid",
        "{n} tricks in a row without a card newly laid",
        IDLE_TRICK_CAP,
    ),
    f"{TRICK_CAP} tricks were played": ngettext(
        "{n} trick was played", "{n} tricks were played", TRICK_CAP
    ),
}


def reason(trick: tuple[tuple[int, str], ...]) -> Told:
    """Why the winning card takes a complete trick, as the rules put it
    (docs/rules/wifeswap.md, "Tricks")."""
    court = beaten_court(trick)
    cards = [card for _, card in trick]
    if court is not None:
        beaten = say(NEMESIS_WINS[RANK[court]])
        pairs = [c for c in cards if RANK[c] in NEMESIS and nemesis_of(c) in cards]
        if len(pairs) > 1:
            return say(
                N_("{why}, and that is the highest court card meeting its nemesis"), why=beaten
            )
        return beaten
    top = max(cards, key=strength)
    if any(RANK[c] == RANK[top] for c in cards if c != top):
        return say(N_("the highest card; equal ranks go by suit (spades, hearts, clubs, diamonds)"))
    return say(N_("the highest card"))


def why(trick: tuple[tuple[int, str], ...]) -> str:
    """:func:`reason` in English."""
    return render(reason(trick))


def describe(
    before: WifeSwapState, seat_no: int, action: Action, after: WifeSwapState
) -> dict[str, Any]:
    who = seat(seat_no)
    kind = action["type"]
    if kind == "play":
        card = action["card"]
        played = say(N_("{seat} played {card}"), seat=who, card=the(card))
        full = (*before.trick, (seat_no, card))
        if len(full) < before.seats:
            return {"says": sentence(played)}
        winner = trick_winner(full)
        top = next(c for s, c in full if s == winner)
        took = say(
            N_("{seat} won the trick with {card} — {why} — and may arrange their families or pass"),
            seat=seat(winner),
            card=the(top),
            why=reason(full),
        )
        return {"says": sentence(played, took), "trick": trick(full, winner, None)}
    round_over = after.round_no != before.round_no or after.over
    done = _arranged(before, seat_no, kind, after, round_over)
    refill = say(N_("everyone refills to seven cards"))
    if not round_over:
        return {"says": sentence(done, refill)}
    totals = after.history[-1]
    ended = say(
        N_("Round {round} is over — {reason} ({scores})."),
        round=len(after.history),
        reason=ROUND_ENDS.get(after.end_reason, after.end_reason),
        scores=scores(totals, "point"),
    )
    if after.over:
        follows = _match_over(after)
    else:
        follows = say(
            N_("Round {round}: {seat} deals."), round=after.round_no, seat=seat(after.dealer)
        )
    return {"says": text(sentence(done, refill), ended, follows)}


def _arranged(
    before: WifeSwapState, seat_no: int, kind: str, after: WifeSwapState, round_over: bool
) -> Told:
    """What the trick's winner did with it: passed, or laid (which cards, while the round
    goes on) and what their families are worth now."""
    who = seat(seat_no)
    if kind == "pass":
        return say(N_("{seat} passed: nothing laid"), seat=who)
    last = dict(after.last or ())
    count = last.get("laid_count", 0)
    if count and not round_over:
        done = ngettext(
            "{seat} laid {n} card into their families: {cards}",
            "{seat} laid {n} cards into their families: {cards}",
            count,
            seat=who,
            cards=commas([the(c) for c in last.get("laid", ())]),
        )
    elif count:
        done = ngettext(
            "{seat} laid {n} card into their families",
            "{seat} laid {n} cards into their families",
            count,
            seat=who,
        )
    else:
        done = say(N_("{seat} rearranged their families without laying a new card"), seat=who)
    orphans = last.get("orphans", 0)
    if orphans:
        done = ngettext(
            "{done} and left {n} orphan under the stock",
            "{done} and left {n} orphans under the stock",
            orphans,
            done=done,
        )
    if not round_over:
        worth = sum(family_points(f) for f in after.families[seat_no])
        done = say(
            N_("{done} (their families are worth {points})"), done=done, points=points(worth)
        )
    return done


def _match_over(after: WifeSwapState) -> Told:
    won = top_scorers(after.totals)
    if len(won) == 1:
        return say(N_("The match is over: {seat} wins."), seat=seat(won[0]))
    names: Told = seat(won[0])
    for other in won[1:]:
        names = say(LAST_JOINT, items=names, last=seat(other))
    return say(N_("The match is over: {seats} share the win."), seats=names)
