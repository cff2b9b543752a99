"""Royal Wife-Swap for the computer players: the other hands and the whole stock
are unseen, and their cards are dealt afresh together. The last completed trick is face up
for everyone, but that shows only which cards were played: the sampler does not follow them
under the stock and into the draws, so those of them not in the seat's own hand or its
families are dealt afresh with the rest, wherever they really are. Families are face up. A
player who did not follow the led suit in the trick now on the table holds none of it
(hands are refilled only after a trick), so their sampled hand holds none either."""

from __future__ import annotations

import random
from collections.abc import Callable

from games.kit.frozen import evolve
from games.kit.sampling import deal_unseen, fresh_seed
from games.wifeswap.families import SUIT, family_points
from games.wifeswap.rules import WifeSwapState, sorted_hand

SCALE = 60.0  # points: a good family or two


def sample(state: WifeSwapState, seat: int, rng: random.Random) -> WifeSwapState:
    others = [s for s in range(state.seats) if s != seat]
    unseen = [card for s in others for card in state.hands[s]] + list(state.stock)
    barred: list[Callable[[str], bool] | None] = [None] * (len(others) + 1)
    if state.trick:
        led = SUIT[state.trick[0][1]]
        failed = {s for s, card in state.trick if SUIT[card] != led}
        for k, s in enumerate(others):
            if s in failed:
                barred[k] = lambda card, led=led: SUIT[card] == led  # type: ignore[misc]
    sizes = [len(state.hands[s]) for s in others]
    *dealt, stock = deal_unseen(unseen, [*sizes, len(state.stock)], rng, barred)
    hands = list(state.hands)
    for s, cards in zip(others, dealt, strict=True):
        hands[s] = tuple(sorted_hand(cards))
    return evolve(state, hands=tuple(hands), stock=tuple(stock), seed=fresh_seed(rng))


def standing(state: WifeSwapState) -> list[float]:
    """Match points, with the families on the table counted as this round's points."""
    return [
        total + sum(family_points(f) for f in layout)
        for total, layout in zip(state.totals, state.families, strict=True)
    ]
