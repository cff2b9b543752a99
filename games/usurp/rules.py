"""Usurp: a two-player game of following suit, bluffing face down and switching the Order.

Rule source: the published rule text of "Usurp" by Noby Nobriga and Rusty Spell (2002), with
our rulings, which win where the text is silent or ambiguous. docs/rules/usurp.md states for
players exactly what this module implements, rulings included ("Our ruling").

The shape of a hand: the dealer declares the Order (Regal: high wins, Common: low wins); then
the players take turns, each playing one card onto the Discard as a Score, Usurp or Sluff Off
(face up) or as an Uprising (face down, to be answered by Give In or Challenge). Every face-up
card played becomes the Upcard, whose value is what a turn scores. A Sluff Off gives the next
player a free play. When both hands are empty the Downcards never challenged are turned, their
Renegs are scored, and more Hand Points wins a Game Point; the summary of that hand, turned
Downcards included, is public until the next hand ends. The match is first to 3 Game Points
(option), or the most after 15 hands.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.base import Action, IllegalAction, require_legal, top_scorers
from games.cards import (
    FRENCH_SUITS,
    SUIT_NAMES,
    card_name,
    french_deck,
    rank_of,
    rng_for,
    shuffled,
    suit_of,
)
from games.engine import Engine
from games.frozen import Record, add_at, evolve, remove_card, thaw
from games.options import Choice, Flag, IntRange
from games.phrasing import Phrasing, seat_name

# --- constants -------------------------------------------------------------------------

SEATS = 2
HAND_SIZE = 13
MAX_HANDS = 15  # "after 15 hands, more Game Points wins" (our ruling)
ORDERS = ("regal", "common")
SUIT_WORDS = SUIT_NAMES["french"]

# Rank strength with the Crown (A) highest; Common reverses it. The Plow/Crown exception is
# applied in _beats, not here.
HIGH = {
    r: i
    for i, r in enumerate(("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"), 2)
}

# Phases (also the view's "phase"): what the seat in state.turn is awaited for.
ORDER = "order"  # the dealer declares the Leading Order
PLAY = "play"  # a normal turn: Score, Usurp, Sluff Off or Uprise
FREE = "free_play"  # the turn after a Sluff Off: any card face up, scoring the sluffed card
ANSWER = "answer"  # the opponent of an Uprising: Give In or Challenge
USURP_ORDER = "usurp_order"  # a challenged Downcard turned out a Usurp: its player picks the Order
OVER = "over"


@dataclass(frozen=True)
class PointTable:
    """One of the two point tables of the rule text ("Ye Olde" and "Alternative")."""

    values: tuple[tuple[str, int], ...]
    beater: int
    reneg: int
    bonus: int

    def value(self, card: str) -> int:
        return dict(self.values)[rank_of(card)]


def _values(high: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(high.items()))


POINT_TABLES = {
    "standard": PointTable(
        _values({"A": 15, "K": 13, "Q": 12, "J": 11, **{str(n): n for n in range(2, 11)}}),
        beater=20,
        reneg=20,
        bonus=10,
    ),
    "alternative": PointTable(
        _values(
            {"A": 15, "K": 10, "Q": 10, "J": 10, "10": 10, **{str(n): 5 for n in range(2, 10)}}
        ),
        beater=25,
        reneg=25,
        bonus=20,
    ),
}


# --- state -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Downcard:
    """A card played face down in an Uprising, with whether it broke following suit."""

    seat: int
    card: str
    reneg: bool  # its player held the Upcard's suit and it is neither that suit nor rank


@dataclass(frozen=True)
class HandResult:
    """What a finished hand left behind: its totals and the Downcards turned at its end."""

    hand: int
    dealer: int
    hand_points: tuple[int, ...]
    reneg_points: tuple[int, ...]  # scored when unchallenged Downcards were turned at the end
    winner: int  # -1 for a tied hand (no Game Point)
    turned: tuple[Downcard, ...]  # the Downcards never challenged, turned face up at the end


@dataclass(frozen=True)
class UsurpState:
    seed: int | str
    options: tuple[tuple[str, Any], ...]
    counter: int  # random events used so far (first-dealer draw, shuffles)
    hand_no: int  # 1-based
    dealer: int
    phase: str
    turn: int  # the awaited seat (-1 when over)
    hands: tuple[tuple[str, ...], ...]
    discard: tuple[str, ...]  # face-up cards, bottom first; the last one is the Upcard
    stock: tuple[str, ...]  # top first; out of play except as the reveal pile's source
    reveal: tuple[str, ...]  # the reveal pile, oldest first
    order: str  # "regal" | "common"; "" until the dealer declares
    downcards: tuple[Downcard, ...]  # given in, still face down
    pending: Downcard | None  # the Uprising awaiting Give In or Challenge
    hand_points: tuple[int, ...]
    game_points: tuple[int, ...]
    last: Record | None  # public record of the last action
    history: tuple[HandResult, ...]

    def option(self, key: str) -> Any:
        return dict(self.options)[key]

    @property
    def upcard(self) -> str:
        return self.discard[-1]

    @property
    def table(self) -> PointTable:
        return POINT_TABLES[self.option("points")]


# --- helpers -----------------------------------------------------------------------------


def _sort_hand(cards: Sequence[str]) -> tuple[str, ...]:
    """Hands are kept sorted by suit then rank (the deal order carries no information)."""
    return tuple(sorted(cards, key=lambda c: (FRENCH_SUITS.index(suit_of(c)), HIGH[rank_of(c)])))


def _beats(card: str, upcard: str, order: str) -> bool:
    """Does ``card`` (same suit, other rank) win against ``upcard`` in ``order``?"""
    mine, theirs = HIGH[rank_of(card)], HIGH[rank_of(upcard)]
    crown, plow = HIGH["A"], HIGH["2"]
    if order == "regal":
        if (mine, theirs) == (plow, crown):
            return True  # the Plow may win against the Crown
        if (mine, theirs) == (crown, plow):
            return False
        return mine > theirs
    if (mine, theirs) == (crown, plow):
        return True  # the Crown may win against the Plow
    if (mine, theirs) == (plow, crown):
        return False
    return mine < theirs


def _is_beater(card: str, upcard: str, order: str) -> bool:
    """A Crown Upcard beaten by a Plow (Regal) or a Plow Upcard beaten by a Crown (Common)."""
    pair = (rank_of(card), rank_of(upcard))
    return pair == ("2", "A") if order == "regal" else pair == ("A", "2")


def _holds_suit(hand: Sequence[str], suit: str) -> bool:
    return any(suit_of(c) == suit for c in hand)


def _classify(hand: Sequence[str], card: str, upcard: str) -> str:
    """How a face-up ``card`` from ``hand`` plays on ``upcard``: score, usurp, sluff or reneg."""
    if suit_of(card) == suit_of(upcard):
        return "score"
    if rank_of(card) == rank_of(upcard):
        return "usurp"
    return "reneg" if _holds_suit(hand, suit_of(upcard)) else "sluff"


# --- the rules ---------------------------------------------------------------------------


class UsurpRules(Engine[UsurpState]):
    """The Usurp rules engine (games.base.Rules)."""

    name = "usurp"
    title = "Usurp"
    min_seats = SEATS
    max_seats = SEATS
    lower_scores_win = False
    pack = "french"
    blurb = (
        "A duel of bluffs: play by the Order, rise face down with an Uprise, and "
        "dare your opponent to Challenge or Give In."
    )
    table_options = (
        IntRange("game_points", "Game Points to win the match", 3, 1, 8),
        Choice("points", "Point table", "standard", tuple(POINT_TABLES)),
        # Usurp's refusal has always listed the two values.
        Flag(
            "reveal_pile",
            "Reveal pile (turn a Stock card after each turn)",
            False,
            expected="one of False, True",
        ),
    )
    past_deal_keys = ("hand_summary",)

    # --- a new match --------------------------------------------------------------------

    def new_game(
        self,
        seats: int,
        seed: int | str,
        options: Mapping[str, Any] | None = None,
        deck: Sequence[str] | None = None,
    ) -> UsurpState:
        merged, dealer, stacked = self.checked_setup(seats, options, deck)
        merged.pop("dealer", None)  # only the first dealer; it is part of the state
        counter = 0
        if dealer is None:
            dealer = rng_for(seed, counter).randrange(SEATS)
            counter += 1
        if stacked is None:
            cards: Sequence[str] = shuffled(french_deck(), seed, counter)
        else:
            cards = stacked
        counter += 1  # the first deal counts as a shuffle even when the deck was stacked
        empty = UsurpState(
            seed=seed,
            options=tuple(sorted(merged.items())),
            counter=counter,
            hand_no=0,
            dealer=dealer,
            phase=ORDER,
            turn=dealer,
            hands=((), ()),
            discard=(),
            stock=(),
            reveal=(),
            order="",
            downcards=(),
            pending=None,
            hand_points=(0, 0),
            game_points=(0, 0),
            last=None,
            history=(),
        )
        return self._deal(empty, dealer, cards, last=None)

    def _deal(
        self,
        state: UsurpState,
        dealer: int,
        cards: Sequence[str],
        last: tuple[tuple[str, Any], ...] | None,
    ) -> UsurpState:
        """13 each alternately from the non-dealer, then the Upcard; the rest is the Stock."""
        leader = 1 - dealer
        hands: list[list[str]] = [[], []]
        for i, card in enumerate(cards[: 2 * HAND_SIZE]):
            hands[leader if i % 2 == 0 else dealer].append(card)
        return evolve(
            state,
            hand_no=state.hand_no + 1,
            dealer=dealer,
            phase=ORDER,
            turn=dealer,
            hands=(_sort_hand(hands[0]), _sort_hand(hands[1])),
            discard=(cards[2 * HAND_SIZE],),
            stock=tuple(cards[2 * HAND_SIZE + 1 :]),
            reveal=(),
            order="",
            downcards=(),
            pending=None,
            hand_points=(0, 0),
            last=last,
        )

    # --- whose turn, and what they may do ------------------------------------------------

    def to_act(self, state: UsurpState) -> list[int]:
        return [] if state.phase == OVER else [state.turn]

    def legal_actions(self, state: UsurpState, seat: int) -> list[Action]:
        if state.phase == OVER or seat != state.turn:
            return []
        if state.phase in (ORDER, USURP_ORDER):
            return [{"type": "order", "order": o} for o in ORDERS]
        if state.phase == ANSWER:
            return [{"type": "give_in"}, {"type": "challenge"}]
        hand = state.hands[seat]
        if state.phase == FREE:
            # Any card face up; never a Usurp, never an Uprising (our ruling).
            return [{"type": "free_play", "card": c} for c in hand]
        up = state.upcard
        void = not _holds_suit(hand, suit_of(up))
        actions: list[Action] = []
        for card in hand:
            if suit_of(card) == suit_of(up):
                actions.append({"type": "score", "card": card})
            elif rank_of(card) == rank_of(up):
                actions.extend({"type": "usurp", "card": card, "order": o} for o in ORDERS)
            elif void:
                actions.append({"type": "sluff", "card": card})
        actions.extend({"type": "uprise", "card": card} for card in hand)
        return actions

    # --- applying an action -----------------------------------------------------------------

    def apply(self, state: UsurpState, seat: int, action: Action) -> UsurpState:
        act = require_legal(self, state, seat, action, explain=_explain)
        kind = act["type"]
        if kind == "order":
            return self._declare(state, seat, act["order"])
        if kind in ("score", "usurp", "sluff"):
            card = act["card"]
            moved = evolve(state, hands=remove_card(state.hands, seat, card))
            after = _resolve(moved, seat, card, kind, order=act.get("order"), challenged=False)
            return self._finish_turn(after)
        if kind == "free_play":
            return self._finish_turn(_free_play(state, seat, act["card"]))
        if kind == "uprise":
            card = act["card"]
            reneg = _classify(state.hands[seat], card, state.upcard) == "reneg"
            return evolve(
                state,
                hands=remove_card(state.hands, seat, card),
                pending=Downcard(seat, card, reneg),
                phase=ANSWER,
                turn=1 - seat,
                last=(("seat", seat), ("type", "uprise")),
            )
        if kind == "give_in":
            return self._finish_turn(_give_in(state, seat))
        return self._finish_turn(_challenge(state, seat))

    def _declare(self, state: UsurpState, seat: int, order: str) -> UsurpState:
        last = (("seat", seat), ("type", "order"), ("order", order))
        if state.phase == ORDER:
            # The Leading Order; the non-dealer (Leader) then begins.
            return evolve(state, order=order, phase=PLAY, turn=1 - state.dealer, last=last)
        # After a challenged Usurp (never the hand's last card: that ends the hand at once):
        # its player chose the Order, and the answering player plays next.
        return evolve(state, order=order, phase=PLAY, turn=1 - seat, last=last)

    def _finish_turn(self, state: UsurpState) -> UsurpState:
        """After a completed turn: feed the reveal pile, then end the hand when both are empty.

        The reveal pile is fed before a challenged Usurp's Order choice (our ruling): the
        answered Uprising is the completed turn.
        """
        if state.option("reveal_pile") and state.stock:
            state = evolve(state, stock=state.stock[1:], reveal=(*state.reveal, state.stock[0]))
        if state.hands[0] or state.hands[1]:
            return state
        return self._end_hand(state)

    def _end_hand(self, state: UsurpState) -> UsurpState:
        """Turn the unchallenged Downcards, score their Renegs, award the Game Point."""
        table = state.table
        renegs: tuple[int, ...] = (0, 0)
        for down in state.downcards:
            renegs = tuple(r + a for r, a in zip(renegs, _turned_award(down, table), strict=True))
        points = tuple(p + r for p, r in zip(state.hand_points, renegs, strict=True))
        winner = 0 if points[0] > points[1] else 1 if points[1] > points[0] else -1
        game_points = state.game_points if winner < 0 else add_at(state.game_points, winner, 1)
        result = HandResult(state.hand_no, state.dealer, points, renegs, winner, state.downcards)
        ended = evolve(
            state,
            hand_points=points,
            game_points=game_points,
            downcards=(),
            history=(*state.history, result),
        )
        if max(game_points) >= state.option("game_points") or state.hand_no >= MAX_HANDS:
            # The final hand stays on the table; its turned Downcards lie face up.
            return evolve(ended, phase=OVER, turn=-1)
        # A new deal at once. The hand that ended is summed up in the view from its result
        # (turned Downcards included) until the next one ends; the record of this action
        # carries totals only.
        last = (
            ("type", "hand_end"),
            ("hand", result.hand),
            ("hand_points", result.hand_points),
            ("reneg_points", result.reneg_points),
            ("winner", None if winner < 0 else winner),
        )
        cards = shuffled(french_deck(), state.seed, state.counter)
        return self._deal(
            evolve(ended, counter=state.counter + 1), 1 - state.dealer, cards, last=last
        )

    # --- the match ---------------------------------------------------------------------------

    def is_over(self, state: UsurpState) -> bool:
        return state.phase == OVER

    def scores(self, state: UsurpState) -> list[int]:
        return list(state.game_points)

    def winners(self, state: UsurpState) -> list[int]:
        # First to the target holds the most; after the 15-hand cap, equal Game Points share.
        return top_scorers(state.game_points) if self.is_over(state) else []

    # --- views -------------------------------------------------------------------------------

    def view(self, state: UsurpState, seat: int | None) -> dict[str, Any]:
        table = state.table

        def down(d: Downcard) -> dict[str, Any]:
            # A Downcard's face is known only to its own player until it is turned.
            return {"seat": d.seat, "card": d.card} if d.seat == seat else {"seat": d.seat}

        last = thaw(state.last)
        pending = state.pending
        if pending is not None and pending.seat == seat and last is not None:
            last["card"] = pending.card  # the Uprising's own player sees its card
        common = self.common_view(
            state, seat, phase=state.phase, message=_message(state, Phrasing(seat)), last=last
        )
        return common | {
            "hand_number": state.hand_no,
            "max_hands": MAX_HANDS,
            "game_points_to_win": state.option("game_points"),
            "order": state.order or None,
            "upcard": state.upcard,
            "upcard_value": table.value(state.upcard),
            "discard_size": len(state.discard) + len(state.downcards),
            "hand_points": list(state.hand_points),
            "game_points": list(state.game_points),
            "stock_size": len(state.stock),
            "reveal_pile_on": state.option("reveal_pile"),
            "reveal_pile": list(state.reveal),
            "downcards": [down(d) for d in state.downcards],
            "pending_downcard": down(state.pending) if state.pending else None,
            "awaiting_answer": state.phase == ANSWER,
            "free_play": (
                {"seat": state.turn, "value": table.value(state.upcard)}
                if state.phase == FREE
                else None
            ),
            "hand_summary": _hand_summary(state.history[-1], table) if state.history else None,
            "points_table": state.option("points"),
            "card_values": dict(table.values),
            "beater_value": table.beater,
            "reneg_points": table.reneg,
            "challenge_bonus": table.bonus,
            "hands_played": [_hand_totals(r) for r in state.history],
        }

    # --- introspection for the contract test ----------------------------------------------

    def deck(self, seats: int, options: Mapping[str, Any] | None = None) -> list[str]:
        return french_deck()

    def zones(self, state: UsurpState) -> dict[str, list[str]]:
        face_down = [d.card for d in state.downcards]
        if state.pending is not None:
            face_down.append(state.pending.card)
        return {
            "hand0": list(state.hands[0]),
            "hand1": list(state.hands[1]),
            "discard": list(state.discard),
            "downcards": face_down,
            # The final hand's turned Downcards stay on the table when the match is over.
            "turned": [d.card for d in state.history[-1].turned] if state.phase == OVER else [],
            "stock": list(state.stock),
            "reveal": list(state.reveal),
        }

    def hidden_cards(self, state: UsurpState, seat: int | None) -> frozenset[str]:
        hidden = set(state.stock)
        for other in range(SEATS):
            if other != seat:
                hidden.update(state.hands[other])
        downs = [*state.downcards, *([state.pending] if state.pending else [])]
        hidden.update(d.card for d in downs if d.seat != seat)
        return frozenset(hidden)


# --- resolving plays (module functions over the state) ------------------------------------


def _resolve(
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
        won = _beats(card, up, state.order)
        scorer = seat if won else opponent
        value = table.beater if won and _is_beater(card, up, state.order) else table.value(up)
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


def _free_play(state: UsurpState, seat: int, card: str) -> UsurpState:
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


def _give_in(state: UsurpState, seat: int) -> UsurpState:
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


def _challenge(state: UsurpState, seat: int) -> UsurpState:
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
    return _resolve(
        cleared, down.seat, down.card, kind, order=None, challenged=True, reneg=down.reneg
    )


# --- what a finished hand shows ------------------------------------------------------------


def _hand_totals(result: HandResult) -> dict[str, Any]:
    """A finished hand as the scoreboard lists it."""
    return {
        "hand": result.hand,
        "dealer": result.dealer,
        "hand_points": list(result.hand_points),
        "reneg_points": list(result.reneg_points),
        "winner": None if result.winner < 0 else result.winner,
    }


def _hand_summary(result: HandResult, table: PointTable) -> dict[str, Any]:
    """The hand just ended, for everyone: its totals and the Downcards turned at its end.

    Public from the moment the hand ends until the next one ends (our ruling), though the
    same cards are dealt again meanwhile: these name the finished hand's cards, not where
    they are now.
    """
    return _hand_totals(result) | {
        "turned_downcards": [
            {
                "seat": d.seat,
                "card": d.card,
                "reneg": d.reneg,
                "scored": list(_turned_award(d, table)),
            }
            for d in result.turned
        ]
    }


def _turned_award(down: Downcard, table: PointTable) -> tuple[int, ...]:
    """The points a Downcard turned at the end of the hand gives, per seat: a Reneg gives
    its player's opponent the Reneg points; any other Downcard gives nothing."""
    return add_at((0, 0), 1 - down.seat, table.reneg) if down.reneg else (0, 0)


# --- words for players ---------------------------------------------------------------------


def _explain(state: UsurpState, seat: int, act: dict[str, Any]) -> str | None:
    """Why a refused action is wrong, in a sentence a player understands."""
    kind = act.get("type")
    if state.phase in (ORDER, USURP_ORDER):
        if kind == "order":
            return "The Order must be 'regal' or 'common'."
        return "First choose the Order: regal (high wins) or common (low wins)."
    if state.phase == ANSWER:
        return f"{seat_name(1 - seat)} played a Downcard: answer with give_in or challenge."
    if "card" not in act:
        return None
    card = act["card"]
    hand = state.hands[seat]
    if not isinstance(card, str) or card not in hand:
        return "You do not hold that card."
    up = state.upcard
    suit = SUIT_WORDS[suit_of(up)]
    if state.phase == FREE:
        if kind != "free_play":
            return "After the Sluff Off you have the free play: play any card face up (free_play)."
        return None
    if kind == "free_play":
        return "There is no free play now: Score, Usurp, Sluff Off or Uprise."
    if kind == "score" and suit_of(card) != suit_of(up):
        return f"To Score you must play a card of {suit}, the Upcard's suit."
    if kind == "usurp":
        if rank_of(card) != rank_of(up):
            return f"To Usurp you must play a card of the Upcard's rank ({rank_of(up)})."
        return "A Usurp names the Order after it: 'regal' or 'common'."
    if kind == "sluff":
        if suit_of(card) == suit_of(up):
            return "That card follows suit: play it as a Score."
        if rank_of(card) == rank_of(up):
            return "That card has the Upcard's rank: play it as a Usurp."
        if _holds_suit(hand, suit_of(up)):
            return f"You hold {suit}: you must follow suit (or Usurp, or Uprise face down)."
    return None


def _message(state: UsurpState, you: Phrasing) -> str:
    """One sentence on what is awaited now, addressing the viewer as "You"."""
    up = card_name(state.upcard)
    turn = state.turn
    if state.phase == OVER:
        won = top_scorers(state.game_points)
        if len(won) == 2:
            return "The match is over: the Game Points are equal, so it is shared."
        return f"The match is over: {you.who_does(won[0], 'win', 'wins', start=False)}."
    if state.phase == ORDER:
        deals = you.who_does(turn, "deal and declare", "deals and declares")
        return f"{deals} the Order (regal or common) with the {up} up."
    if state.phase == USURP_ORDER:
        chooses = you.who_does(turn, "choose", "chooses", start=False)
        return f"{you.whose(turn)} Downcard was a Usurp: {chooses} the Order."
    if state.phase == ANSWER:
        assert state.pending is not None
        return (
            f"{you.who(state.pending.seat)} played a Downcard on the {up}: "
            f"{you.who(turn, start=False)} must Give In or Challenge."
        )
    if state.phase == FREE:
        value = state.table.value(state.upcard)
        has = you.who_does(turn, "have", "has")
        return f"{has} the free play after the Sluff Off: any card scores {value}."
    turn_text = "Your turn" if turn == you.viewer else f"{seat_name(turn)} to play"
    return f"{turn_text} on the {up} ({state.order.capitalize()})."


RULES = UsurpRules()

__all__ = ["RULES", "IllegalAction", "UsurpRules", "UsurpState"]
