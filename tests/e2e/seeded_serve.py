"""The server as ``python -m app.serve`` runs it, except that every match it starts is
dealt from the seed in the environment variable PARLOUR_TEST_SEED.

A live server draws each match's secret seed with ``secrets.randbits`` (the room's opening,
app/rooms/lobby.py; nothing else in the server draws from it), so a browser test cannot
stack the deck through the HTTP API. Run as this module, with a seed the test chose, the
deal and every computer player's choice (they draw from the match seed) are the same on
every run: a scenario the test needs, such as a hand that offers an Uprising, happens
because the seed makes it happen, not by chance. ``tests.e2e.seeded`` starts it.
"""

from __future__ import annotations

import os
import runpy
import secrets
from collections.abc import Callable


def fixed_randbits(seed: int) -> Callable[[int], int]:
    def randbits(_bits: int) -> int:
        return seed

    return randbits


if __name__ == "__main__":
    secrets.randbits = fixed_randbits(int(os.environ["PARLOUR_TEST_SEED"]))
    runpy.run_module("app.serve", run_name="__main__", alter_sys=True)
