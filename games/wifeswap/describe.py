"""Royal Wife-Swap's actions in words (docs/rules/wifeswap.md): each card played, who won a
trick and with which card, what the winner laid into their families (the cards, now face
up) or that they passed, and a round's end with its scores."""

from __future__ import annotations

from typing import Any

from games.kit.base import Action
from games.kit.phrasing import plural, seat_name
from games.kit.words import scoreline, sentence, the, trick
from games.wifeswap.families import (
    NEMESIS,
    RANK,
    beaten_court,
    family_points,
    nemesis_of,
    strength,
    trick_winner,
)
from games.wifeswap.rules import RULES, WifeSwapState

# How the rules name a court card's rank in a sentence.
COURT_WORD = {"K": "king", "Q": "queen", "J": "jack", "10": "10"}


def why(trick: tuple[tuple[int, str], ...]) -> str:
    """Why the winning card takes a complete trick, as the rules put it
    (docs/rules/wifeswap.md, "Tricks")."""
    court = beaten_court(trick)
    cards = [card for _, card in trick]
    if court is not None:
        rank = RANK[court]
        text = f"a {NEMESIS[rank]} beats the {COURT_WORD[rank]} of its own suit, its nemesis"
        pairs = [c for c in cards if RANK[c] in NEMESIS and nemesis_of(c) in cards]
        if len(pairs) > 1:
            text += ", and that is the highest court card meeting its nemesis"
        return text
    top = max(cards, key=strength)
    if any(RANK[c] == RANK[top] for c in cards if c != top):
        return "the highest card; equal ranks go by suit (spades, hearts, clubs, diamonds)"
    return "the highest card"


def describe(
    before: WifeSwapState, seat: int, action: Action, after: WifeSwapState
) -> dict[str, Any]:
    who = seat_name(seat)
    kind = action["type"]
    if kind == "play":
        card = action["card"]
        played = f"{who} played {the(card)}"
        full = (*before.trick, (seat, card))
        if len(full) < before.seats:
            return {"text": sentence(played)}
        winner = trick_winner(full)
        top = next(c for s, c in full if s == winner)
        took = (
            f"{seat_name(winner)} won the trick with {the(top)} — {why(full)} — and may "
            "arrange their families or pass"
        )
        return {"text": sentence(played, took), "trick": trick(full, winner, None)}
    round_over = after.round_no != before.round_no or after.over
    if kind == "pass":
        done = f"{who} passed: nothing laid"
    else:
        last = dict(after.last or ())
        count = last.get("laid_count", 0)
        if count and not round_over:
            laid = ", ".join(the(c) for c in last.get("laid", ()))
            done = f"{who} laid {plural(count, 'card')} into their families: {laid}"
        elif count:
            done = f"{who} laid {plural(count, 'card')} into their families"
        else:
            done = f"{who} rearranged their families without laying a new card"
        orphans = last.get("orphans", 0)
        if orphans:
            done += f" and left {plural(orphans, 'orphan')} under the stock"
        if not round_over:
            worth = sum(family_points(f) for f in after.families[seat])
            done += f" (their families are worth {plural(worth, 'point')})"
    text = sentence(done, "everyone refills to seven cards")
    if round_over:
        scores = after.history[-1]
        text += (
            f" Round {len(after.history)} is over — {after.end_reason} "
            f"({scoreline(scores, 'point')})."
        )
        if after.over:
            text += " " + RULES.view(after, None)["message"]
        else:
            text += f" Round {after.round_no}: {seat_name(after.dealer)} deals."
    return {"text": text}
