"""Royal Wife-Swap for the searching computer player: the other hands and the stock are
unseen, except the last trick's cards, which everyone saw go under the stock. Families are
face up. A player who did not follow the led suit in the trick now on the table holds none
of it (hands are refilled only after a trick), so their sampled hand holds none either."""

from __future__ import annotations

import random
from collections.abc import Callable

from games.bots.samplers.common import deal_unseen, fresh_seed
from games.frozen import evolve
from games.wifeswap import WifeSwapState, _sorted_hand
from games.wifeswap.families import SUIT, family_points

SCALE = 60.0  # points: a good family or two


def sample(state: WifeSwapState, seat: int, rng: random.Random) -> WifeSwapState:
    others = [s for s in range(state.seats) if s != seat]
    shown = {card for _, card in state.last_trick}
    hidden_at = [i for i, card in enumerate(state.stock) if card not in shown]
    # A last-trick card drawn since into another hand is known to be there (everyone saw
    # it go under the stock and who drew it).
    kept = [[card for card in state.hands[s] if card in shown] for s in others]
    unseen = [card for s in others for card in state.hands[s] if card not in shown]
    unseen += [state.stock[i] for i in hidden_at]
    barred: list[Callable[[str], bool] | None] = [None] * (len(others) + 1)
    if state.trick:
        led = SUIT[state.trick[0][1]]
        failed = {s for s, card in state.trick if SUIT[card] != led}
        for k, s in enumerate(others):
            if s in failed:
                barred[k] = lambda card, led=led: SUIT[card] == led  # type: ignore[misc]
    sizes = [len(state.hands[s]) - len(k) for s, k in zip(others, kept, strict=True)]
    *dealt, refill = deal_unseen(unseen, [*sizes, len(hidden_at)], rng, barred)
    hands = list(state.hands)
    for s, cards, known in zip(others, dealt, kept, strict=True):
        hands[s] = tuple(_sorted_hand([*known, *cards]))
    stock = list(state.stock)
    for i, card in zip(hidden_at, refill, strict=True):
        stock[i] = card
    return evolve(state, hands=tuple(hands), stock=tuple(stock), seed=fresh_seed(rng))


def standing(state: WifeSwapState) -> list[float]:
    """Match points, with the families on the table counted as this round's points."""
    return [
        total + sum(family_points(f) for f in layout)
        for total, layout in zip(state.totals, state.families, strict=True)
    ]
