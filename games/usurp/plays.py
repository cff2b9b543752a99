"""Usurp's plays resolved: a card face up (Score, Usurp, Sluff Off), the free play, and
the two answers to an Uprising (Give In, Challenge). Each is a function from a state to
the state after it, with the play's public record as its ``last``; the rules run them,
and the describer runs them read-only to rebuild a record the end of a hand replaced.
"""

from __future__ import annotations

from typing import Any

from games.kit.cards import rank_of, suit_of
from games.kit.frozen import add_at, evolve, remove_card
from games.usurp.table import (
    FREE,
    PLAY,
    USURP_ORDER,
    Downcard,
    PointTable,
    UsurpState,
    beats,
    is_beater,
)


def resolve(
    state: UsurpState,
    seat: int,
    card: str,
    kind: str,
    *,
    order: str | None,
    challenged: bool,
    reneg: bool = False,
) -> UsurpState:
    """Play ``card`` (already out of ``seat``'s hand) face up as a Score, Usurp or Sluff Off.

    It becomes the Upcard. ``challenged``: turned by a Challenge, so whoever scores the old
    Upcard also gets the Challenge Bonus; ``reneg``: a challenged Reneg, resolved as a Sluff
    Off and giving the opponent the Reneg points too.
    """
    table = state.table
    up = state.upcard
    opponent = 1 - seat
    bonus = table.bonus if challenged else 0
    points = state.hand_points
    record: list[tuple[str, Any]] = []
    phase, turn = PLAY, opponent
    new_order = state.order
    if kind == "score":
        won = beats(card, up, state.order)
        scorer = seat if won else opponent
        value = table.beater if won and is_beater(card, up, state.order) else table.value(up)
        points = add_at(points, scorer, value + bonus)
        record.append(("won", won))
    elif kind == "usurp":
        points = add_at(points, seat, table.value(up) + bonus)
        if order is None:
            # A challenged Usurp: its player chooses the Order in a follow-up action, unless
            # it was the hand's last card: the hand ends at once and the next dealer declares
            # the Order (our ruling).
            if state.hands[0] or state.hands[1]:
                phase, turn = USURP_ORDER, seat
        else:
            new_order = order
            record.append(("order", order))
    else:  # sluff (a challenged Reneg is resolved as one)
        points = add_at(points, opponent, table.value(up) + bonus)
        if reneg:
            points = add_at(points, opponent, table.reneg)
        phase = FREE
    scored = (points[0] - state.hand_points[0], points[1] - state.hand_points[1])
    if challenged:
        last = [
            ("seat", opponent),
            ("type", "challenge"),
            ("card", card),
            ("played_as", kind),
            ("reneg", reneg),
        ]
    else:
        last = [("seat", seat), ("type", kind), ("card", card)]
    last += [("on", up), *record, ("scored", scored)]
    return evolve(
        state,
        discard=(*state.discard, card),
        hand_points=points,
        order=new_order,
        phase=phase,
        turn=turn,
        last=tuple(last),
    )


def free_play(state: UsurpState, seat: int, card: str) -> UsurpState:
    """The play after a Sluff Off: scores the sluffed card's plain value; no Order switch."""
    value = state.table.value(state.upcard)
    points = add_at(state.hand_points, seat, value)
    return evolve(
        state,
        hands=remove_card(state.hands, seat, card),
        discard=(*state.discard, card),
        hand_points=points,
        phase=PLAY,
        turn=1 - seat,
        last=(
            ("seat", seat),
            ("type", "free_play"),
            ("card", card),
            ("on", state.upcard),
            ("scored", add_at((0, 0), seat, value)),
        ),
    )


def give_in(state: UsurpState, seat: int) -> UsurpState:
    """The Uprising's player scores the Upcard's plain value; the Downcard stays hidden."""
    assert state.pending is not None
    down = state.pending
    value = state.table.value(state.upcard)
    return evolve(
        state,
        hand_points=add_at(state.hand_points, down.seat, value),
        downcards=(*state.downcards, down),
        pending=None,
        phase=PLAY,
        turn=seat,  # the answering player plays next
        last=(("seat", seat), ("type", "give_in"), ("scored", add_at((0, 0), down.seat, value))),
    )


def challenge(state: UsurpState, seat: int) -> UsurpState:
    """Turn the Downcard and resolve it as a normal play, with the Challenge Bonus."""
    assert state.pending is not None
    down = state.pending
    up = state.upcard
    if suit_of(down.card) == suit_of(up):
        kind = "score"
    elif rank_of(down.card) == rank_of(up):
        kind = "usurp"
    else:
        kind = "sluff"  # a Reneg is resolved as a Sluff Off
    cleared = evolve(state, pending=None)
    return resolve(
        cleared, down.seat, down.card, kind, order=None, challenged=True, reneg=down.reneg
    )


def turned_award(down: Downcard, table: PointTable) -> tuple[int, ...]:
    """The points a Downcard turned at the end of the hand gives, per seat: a Reneg gives
    its player's opponent the Reneg points; any other Downcard gives nothing."""
    return add_at((0, 0), 1 - down.seat, table.reneg) if down.reneg else (0, 0)
