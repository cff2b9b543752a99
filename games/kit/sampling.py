"""The dealing every game's sampler shares: unseen cards dealt afresh, a made-up seed."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence


def fresh_seed(rng: random.Random) -> str:
    """A made-up match seed for a sampled state (its future shuffles are guesses)."""
    return f"sampled:{rng.getrandbits(64):016x}"


def deal_unseen(
    unseen: Sequence[str],
    sizes: Sequence[int],
    rng: random.Random,
    barred: Sequence[Callable[[str], bool] | None] | None = None,
) -> list[list[str]]:
    """The ``unseen`` cards dealt at random into places of the given ``sizes``.

    ``barred[i]``, when given, says which cards place ``i`` cannot hold (a suit its player
    showed they lack); those places are filled first. The deal depends only on the set of
    cards (they are sorted first) and on ``rng``.
    """
    pool = sorted(unseen)
    rng.shuffle(pool)
    places: list[list[str]] = [[] for _ in sizes]
    order = sorted(range(len(sizes)), key=lambda i: barred is None or barred[i] is None)
    for i in order:
        rule = barred[i] if barred is not None else None
        if rule is None:
            places[i] = pool[: sizes[i]]
            del pool[: sizes[i]]
            continue
        allowed = [c for c in pool if not rule(c)]
        if len(allowed) < sizes[i]:
            allowed = pool  # the constraints cannot all hold: drop this one
        chosen = allowed[: sizes[i]]
        taken = set(chosen)
        places[i] = chosen
        pool = [c for c in pool if c not in taken]
    return places
