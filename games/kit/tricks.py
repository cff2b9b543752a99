"""The trick-taking step that Cupid and Coins share: a card played to the trick.

Both games show the last completed trick until the next one starts, then collect it face
down to its winner; a played card leaves its seat's hand, joins the trick, and becomes the
public record of the last action. The game then decides, by its own rules, whether the
trick is complete and who takes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import Field
from typing import Any, ClassVar, Protocol, TypeVar

from games.kit.frozen import Hands, Record, add_at, evolve, remove_card

Trick = tuple[tuple[int, str], ...]  # (seat, card) in play order


class TrickTable(Protocol):
    """The fields of a frozen state dataclass that :func:`play_to_trick` reads and changes."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    @property
    def hands(self) -> Hands: ...

    @property
    def won(self) -> Hands: ...  # collected tricks per seat, face down

    @property
    def trick(self) -> Trick: ...

    @property
    def last_trick(self) -> Trick: ...  # shown until the next trick starts

    @property
    def last_winner(self) -> int: ...  # who took ``last_trick``

    @property
    def last(self) -> Record: ...


T = TypeVar("T", bound=TrickTable)


def play_to_trick(state: T, seat: int, card: str) -> T:
    """``state`` after ``seat`` plays ``card`` to the trick (the trick is not judged here)."""
    won = state.won
    last_trick = state.last_trick
    if not state.trick and last_trick:
        # A new trick starts: the shown trick is collected face down.
        won = add_at(won, state.last_winner, tuple(c for _, c in last_trick))
        last_trick = ()
    return evolve(
        state,
        hands=remove_card(state.hands, seat, card),
        won=won,
        last_trick=last_trick,
        trick=(*state.trick, (seat, card)),
        last=(("seat", seat), ("type", "play"), ("card", card)),
    )


def cards_played(trick: Sequence[tuple[int, str]]) -> list[dict[str, Any]]:
    """A trick's ``(seat, card)`` pairs as a view or an account shows them."""
    return [{"seat": s, "card": c} for s, c in trick]
