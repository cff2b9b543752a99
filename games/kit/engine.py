"""What every rules engine derives from the facts it declares, written once.

A game's rules class states its facts as class attributes — name, title, seat range,
``lower_scores_win``, ``pack``, ``blurb``, ``table_options`` and, if its view sums up a
deal already over, ``past_deal_keys`` — and implements the verbs of the contract.
Subclassing :class:`Engine` then gives it the option members of the contract, the checks
every ``new_game`` starts with, and the keys every view shares; and, as an explicit
subclass of ``Rules[S]``, it is checked by mypy against the contract with its own state
type.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, Protocol, TypeVar

from games.base import Rules, check_dealer, check_deck, check_seats
from games.frozen import Hands
from games.options import Option, defaults, schema, settle


class Dealt(Protocol):
    """What the common view reads from any game's state."""

    @property
    def hands(self) -> Hands: ...

    @property
    def dealer(self) -> int: ...


S = TypeVar("S", bound=Dealt)


class Setup(NamedTuple):
    """The checked settings of a new match."""

    options: dict[str, Any]  # the defaults updated with the given options
    dealer: int | None  # the fixed first dealer, or None to choose as the rules say
    deck: list[str] | None  # the stacked card order, or None to shuffle


class Engine(Rules[S]):
    """The shared part of every game's rules; see the module docstring."""

    table_options: tuple[Option, ...] = ()
    past_deal_keys: tuple[str, ...] = ()

    def default_options(self) -> dict[str, Any]:
        return defaults(self.table_options)

    def options_schema(self) -> list[dict[str, Any]]:
        return schema(self.table_options)

    def checked_setup(
        self, seats: int, options: Mapping[str, Any] | None, deck: Sequence[str] | None
    ) -> Setup:
        """The checks every ``new_game`` starts with: seats, options, first dealer, deck."""
        check_seats(self, seats)
        settled = settle(self.table_options, options)
        dealer = check_dealer(settled, seats)
        return Setup(settled, dealer, check_deck(deck, self.deck(seats, settled)))

    def common_view(
        self,
        state: S,
        seat: int | None,
        *,
        phase: str,
        message: str,
        last: dict[str, Any] | None,
    ) -> dict[str, Any]:
        """The keys every game's view starts with; the game adds what is its own.

        ``phase``, ``message`` and ``last`` (the last action as this seat may see it) are
        the game's words; the rest follows from the contract and the hands. A seat that is
        not at the table sees no hand and may do nothing, like a spectator.
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
            "message": message,
            "last": last,
        }


def cards_played(trick: Sequence[tuple[int, str]]) -> list[dict[str, Any]]:
    """A trick's ``(seat, card)`` pairs as a view shows them."""
    return [{"seat": s, "card": c} for s, c in trick]
