"""Cupid for the computer players: the opponent's hand, the stock and the prize
trick are unseen; collected tricks were played face up, so they stay as they are."""

from __future__ import annotations

import random

from games.cupid.rules import CupidState, sorted_hand
from games.kit.frozen import evolve
from games.kit.sampling import deal_unseen, fresh_seed

SCALE = 30.0  # points: a few good tricks


def sample(state: CupidState, seat: int, rng: random.Random) -> CupidState:
    other = 1 - seat
    unseen = [*state.hands[other], *state.stock, *state.prize]
    hand, stock, prize = deal_unseen(
        unseen, (len(state.hands[other]), len(state.stock), len(state.prize)), rng
    )
    hands = list(state.hands)
    hands[other] = sorted_hand(hand)
    return evolve(
        state, hands=tuple(hands), stock=tuple(stock), prize=tuple(prize), seed=fresh_seed(rng)
    )


def standing(state: CupidState) -> list[float]:
    return [float(s) for s in state.scores]
