"""What every rules engine derives from the facts it declares, written once.

A game's rules class states its facts as class attributes — name, title, seat range,
``lower_scores_win``, ``table_options`` and, if its view sums up a deal already over,
``past_deal_keys`` — and implements the verbs of the contract. Subclassing :class:`Engine`
then gives it the option members of the contract, the opening every ``new_game`` starts
with (checked settings, the first dealer, the first deal's cards), and the keys every view
shares; and, as an explicit subclass of ``Rules[S]``, it is checked by mypy against the
contract with its own state type.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, Protocol, TypeVar

from games.kit.account import Told, render
from games.kit.base import Rules, check_dealer, check_deck, check_seats
from games.kit.cards import rng_for, shuffled
from games.kit.frozen import Hands
from games.kit.options import Option, defaults, described, schema, settle, told


class Dealt(Protocol):
    """What the common view reads from any game's state."""

    @property
    def hands(self) -> Hands: ...

    @property
    def dealer(self) -> int: ...


S = TypeVar("S", bound=Dealt)


class Opening(NamedTuple):
    """How a new match begins: its settings, its first dealer and the first deal's cards."""

    options: dict[str, Any]  # the defaults updated with the given options
    dealer: int  # the first dealer: fixed by the ``dealer`` option or chosen by the rules
    cards: list[str]  # the first deal's cards, top first: stacked, or shuffled from the seed
    counter: int  # the next shuffle's counter (games.kit.cards.shuffled)


class Engine(Rules[S]):
    """The shared part of every game's rules; see the module docstring."""

    table_options: tuple[Option, ...] = ()
    past_deal_keys: tuple[str, ...] = ()
    # Which shuffle counters a match's opening uses. True: counter 0 always belongs to the
    # choice of the first dealer and counter 1 to the first deal, whether or not either
    # was fixed, so later deals never depend on how the first were made. False: only a
    # choice actually made takes a counter (Usurp's matches have always counted so).
    reserve_opening_counters: bool = True

    def default_options(self) -> dict[str, Any]:
        return defaults(self.table_options)

    def options_schema(self) -> list[dict[str, Any]]:
        return schema(self.table_options)

    def options_text(self, options: Mapping[str, Any]) -> list[str]:
        return described(self.table_options, options)

    def options_says(self, options: Mapping[str, Any]) -> list[Told]:
        return told(self.table_options, options)

    def choose_dealer(self, rng: random.Random, seats: int) -> int:
        """The first dealer when no ``dealer`` option fixes it: by default a seat at random.
        ``rng`` is the match's own for this choice (games.kit.cards.rng_for)."""
        return rng.randrange(seats)

    def opening(
        self,
        seats: int,
        seed: int | str,
        options: Mapping[str, Any] | None,
        deck: Sequence[str] | None,
    ) -> Opening:
        """The set-up every ``new_game`` starts with: the checked settings, the first
        dealer (``choose_dealer`` unless fixed) and the first deal's cards (the stacked
        ``deck``, or ``deck(...)`` shuffled with the seed)."""
        check_seats(self, seats)
        settled = settle(self.table_options, options)
        dealer = check_dealer(settled, seats)
        cards = check_deck(deck, self.deck(seats, settled))
        counter = 0
        if dealer is None or self.reserve_opening_counters:
            if dealer is None:
                dealer = self.choose_dealer(rng_for(seed, counter), seats)
            counter += 1
        if cards is None:
            cards = list(shuffled(self.deck(seats, settled), seed, counter))
        # The first deal takes its counter even when a stacked deck replaced it.
        return Opening(settled, dealer, cards, counter + 1)

    def common_view(
        self,
        state: S,
        seat: int | None,
        *,
        phase: str,
        message: Told,
        last: dict[str, Any] | None,
    ) -> dict[str, Any]:
        """The keys every game's view starts with; the game adds what is its own.

        ``phase``, ``message`` and ``last`` (the last action as this seat may see it) are
        the game's words; the rest follows from the contract and the hands. A seat that is
        not at the table sees no hand and may do nothing, like a spectator.

        ``message`` is told as data (games.kit.account): the view carries the data itself
        as ``message_says``; ``view`` adds its English as ``message``, and the server
        renders it in each reader's language instead (app/i18n/accounts.py ``view_in``).
        """
        hands = state.hands
        at_table = isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(hands)
        player = seat if at_table else None
        return {
            "game": self.name,
            "seats": len(hands),
            "seat": seat,
            "to_act": self.to_act(state),
            "scores": self.scores(state),
            "legal_actions": [] if player is None else self.legal_actions(state, player),
            "over": self.is_over(state),
            "winners": self.winners(state),
            "dealer": state.dealer,
            "hand": [] if player is None else list(hands[player]),
            "hand_sizes": [len(h) for h in hands],
            "phase": phase,
            "message_says": message,
            "last": last,
        }

    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """The seat's view (the contract): ``view_says`` with its message in English."""
        view = self.view_says(state, seat)
        view["message"] = render(view["message_says"])
        return view
