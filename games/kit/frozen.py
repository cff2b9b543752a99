"""Changing states made of frozen dataclasses and tuples, without mutating them.

``evolve`` copies a state with some fields changed; ``add_at`` and ``remove_card`` change one
seat's entry of a per-seat tuple; ``freeze`` and ``thaw`` turn the public record of the last
action into a hashable part of the state and back into JSON for a view. These run on every
action, so each is written for speed as well as for reading.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

S = TypeVar("S")
# What a seat's entry of a tuple can gain: points, or cards (a collected trick).
Gain = TypeVar("Gain", int, tuple[str, ...])

# The public record of an action: (field, value) pairs, lists kept as tuples.
Record = tuple[tuple[str, Any], ...]
Hands = tuple[tuple[str, ...], ...]

__all__ = ["Hands", "InZones", "Record", "add_at", "evolve", "freeze", "remove_card", "thaw"]

if TYPE_CHECKING:
    # mypy checks every call as ``dataclasses.replace``: field names and their types.
    from dataclasses import replace as evolve
else:

    def evolve(state: S, /, **changes: object) -> S:
        """A copy of the frozen dataclass ``state`` with some fields changed.

        The result ``dataclasses.replace`` gives, several times faster: ``replace`` runs
        ``__init__`` again, setting every field one at a time through the frozen guard,
        while this fills the new instance's ``__dict__`` directly. That matters because every
        action makes a state or three. The states have no ``__post_init__`` to skip.
        """
        new = object.__new__(type(state))
        new.__dict__.update(state.__dict__)
        new.__dict__.update(changes)
        return new


def add_at(values: tuple[Gain, ...], seat: int, amount: Gain) -> tuple[Gain, ...]:
    """``values`` with ``amount`` added to ``seat``'s entry (points, or cards appended)."""
    changed = list(values)
    changed[seat] = changed[seat] + amount
    return tuple(changed)


def remove_card(hands: Hands, seat: int, card: str) -> Hands:
    """``hands`` with ``card`` taken out of ``seat``'s hand."""
    changed = list(hands)
    changed[seat] = tuple([c for c in hands[seat] if c != card])
    return tuple(changed)


def freeze(fields: Mapping[str, Any]) -> Record:
    """The record of an action as a hashable value: lists become tuples."""
    return tuple([(k, tuple(v) if isinstance(v, list) else v) for k, v in fields.items()])


class InZones:
    """The cards of some zones, asked about one card at a time: a view asks about one card
    (its last action's), where the set of every card hidden from the seat would cost more
    to build than the question."""

    __slots__ = ("zones",)

    def __init__(self, zones: Iterable[Sequence[str]]) -> None:
        self.zones = tuple(zones)

    def __contains__(self, card: object) -> bool:
        return any(card in zone for zone in self.zones)


def thaw(record: Record | None, hidden: Container[str] = ()) -> dict[str, Any] | None:
    """A record as JSON for a view (``None`` when there is none): tuples become lists.

    A ``card`` in ``hidden`` (one the viewer may not know now, e.g. dealt again since) is
    left out.
    """
    if not record:
        return None
    return {
        k: list(v) if isinstance(v, tuple) else v
        for k, v in record
        if not (k == "card" and v in hidden)
    }
