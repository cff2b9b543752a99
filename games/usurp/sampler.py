"""Usurp for the computer players: the opponent's hand, the stock and the
opponent's Downcards (given in or awaiting an answer) are unseen. Whether an unseen
Downcard broke following suit is unseen too: a sampled one is taken to be honest. The face-up
discard pile and the reveal pile stay as they are."""

from __future__ import annotations

import random

from games.kit.frozen import evolve
from games.kit.sampling import deal_unseen, fresh_seed
from games.usurp.table import Downcard, UsurpState, sort_hand

SCALE = 1.0  # Game Points: one hand won
HAND_POINTS_PER_GAME_POINT = 150.0  # Hand Points that usually win a hand


def sample(state: UsurpState, seat: int, rng: random.Random) -> UsurpState:
    other = 1 - seat
    downs = list(state.downcards)
    theirs = [i for i, d in enumerate(downs) if d.seat == other]
    pending_theirs = state.pending is not None and state.pending.seat == other
    unseen = [*state.hands[other], *state.stock, *(downs[i].card for i in theirs)]
    if pending_theirs and state.pending is not None:
        unseen.append(state.pending.card)
    down_count = len(theirs) + (1 if pending_theirs else 0)
    hand, stock, faces = deal_unseen(
        unseen, (len(state.hands[other]), len(state.stock), down_count), rng
    )
    for i, face in zip(theirs, faces, strict=False):
        downs[i] = Downcard(other, face, False)
    pending = state.pending
    if pending_theirs:
        pending = Downcard(other, faces[-1], False)
    hands = list(state.hands)
    hands[other] = sort_hand(hand)
    return evolve(
        state,
        hands=tuple(hands),
        stock=tuple(stock),
        downcards=tuple(downs),
        pending=pending,
        seed=fresh_seed(rng),
    )


def standing(state: UsurpState) -> list[float]:
    """Game Points, with this hand's Hand Points as a fraction of one."""
    return [
        game + hand / HAND_POINTS_PER_GAME_POINT
        for game, hand in zip(state.game_points, state.hand_points, strict=True)
    ]
