"""Cups for the computer players: the other hands, the stack and the discarded
stacks are unseen. Every graveyard batch was laid face up before it was covered, so the
graveyards stay as they are; so do the dump, the side pile and the cards out of the game.
Gifts already chosen in a gift step are unseen too: each such giver gives a card of the
hand they are dealt."""

from __future__ import annotations

import random

from games.cups.rules import RULES, CupsState
from games.kit.frozen import evolve
from games.kit.sampling import deal_unseen, fresh_seed

SCALE = 6.0  # cards: fewer is better


def sample(state: CupsState, seat: int, rng: random.Random) -> CupsState:
    others = [s for s in range(state.seats) if s != seat]
    unseen = [card for s in others for card in state.hands[s]]
    unseen += [*state.stack, *state.discarded]
    sizes = [len(state.hands[s]) for s in others] + [len(state.stack), len(state.discarded)]
    *dealt, stack, discarded = deal_unseen(unseen, sizes, rng)
    hands = list(state.hands)
    for s, cards in zip(others, dealt, strict=True):
        hands[s] = tuple(cards)
    gifts = list(state.gifts)
    if state.phase == "gift":
        for s in others:
            chosen = s != state.current and s not in state.waiting
            gifts[s] = rng.choice(hands[s]) if chosen and hands[s] else ""
    return evolve(
        state,
        hands=tuple(hands),
        stack=tuple(stack),
        discarded=tuple(discarded),
        gifts=tuple(gifts),
        seed=fresh_seed(rng),
    )


def standing(state: CupsState) -> list[float]:
    return [-float(s) for s in RULES.scores(state)]
