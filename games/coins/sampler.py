"""Coins for the computer players: the other two hands are unseen (the whole pack
is dealt); collected tricks were played face up, so they stay as they are. Nobody must
follow suit, so play reveals no missing suit."""

from __future__ import annotations

import random

from games.coins.rules import CoinsState, hand_key
from games.kit.frozen import evolve
from games.kit.sampling import deal_unseen, fresh_seed

SCALE = 5.0  # points: a third of the usual target


def sample(state: CoinsState, seat: int, rng: random.Random) -> CoinsState:
    others = [s for s in range(len(state.hands)) if s != seat]
    unseen = [card for s in others for card in state.hands[s]]
    dealt = deal_unseen(unseen, [len(state.hands[s]) for s in others], rng)
    hands = list(state.hands)
    for s, cards in zip(others, dealt, strict=True):
        hands[s] = tuple(sorted(cards, key=hand_key))
    return evolve(state, hands=tuple(hands), seed=fresh_seed(rng))


def standing(state: CoinsState) -> list[float]:
    return [float(s) for s in state.scores]
