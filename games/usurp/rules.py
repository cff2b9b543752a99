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
from typing import Any

from games.kit.account import N_, Told, say, seat
from games.kit.account import seat as seat_ref
from games.kit.account import suit as suit_ref
from games.kit.base import Action, require_legal, top_scorers
from games.kit.cards import french_deck, rank_of, shuffled, suit_of
from games.kit.engine import Engine
from games.kit.frozen import add_at, evolve, remove_card, thaw
from games.kit.options import Choice, Flag, IntRange
from games.kit.phrasing import addressed
from games.kit.words import the
from games.usurp.plays import challenge, free_play, give_in, resolve, turned_award
from games.usurp.table import (
    ANSWER,
    FREE,
    HAND_SIZE,
    MAX_HANDS,
    ORDER,
    ORDERS,
    OVER,
    PLAY,
    POINT_TABLES,
    SEATS,
    USURP_ORDER,
    Downcard,
    HandResult,
    PointTable,
    UsurpState,
    classify,
    holds_suit,
    sort_hand,
)

# --- the rules ---------------------------------------------------------------------------


class UsurpRules(Engine[UsurpState]):
    """The Usurp rules engine (games.kit.base.Rules)."""

    name = "usurp"
    title = "Usurp"
    min_seats = SEATS
    max_seats = SEATS
    lower_scores_win = False
    reserve_opening_counters = False  # only a first-dealer draw actually made takes a counter
    table_options = (
        IntRange("game_points", N_("Game Points to win the match"), 3, 1, 8),
        Choice(
            "points",
            N_("Point table"),
            "standard",
            tuple(POINT_TABLES),
            names=(("standard", N_("standard")), ("alternative", N_("alternative"))),
        ),
        # Usurp's refusal has always listed the two values.
        Flag(
            "reveal_pile",
            N_("Reveal pile (turn a Stock card after each turn)"),
            False,
            expected="one of False, True",
            caption=N_("Reveal pile"),
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
        merged, dealer, cards, counter = self.opening(seats, seed, options, deck)
        merged.pop("dealer", None)  # only the first dealer; it is part of the state
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
            hands=(sort_hand(hands[0]), sort_hand(hands[1])),
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
        void = not holds_suit(hand, suit_of(up))
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
            after = resolve(moved, seat, card, kind, order=act.get("order"), challenged=False)
            return self._finish_turn(after)
        if kind == "free_play":
            return self._finish_turn(free_play(state, seat, act["card"]))
        if kind == "uprise":
            card = act["card"]
            reneg = classify(state.hands[seat], card, state.upcard) == "reneg"
            return evolve(
                state,
                hands=remove_card(state.hands, seat, card),
                pending=Downcard(seat, card, reneg),
                phase=ANSWER,
                turn=1 - seat,
                last=(("seat", seat), ("type", "uprise")),
            )
        if kind == "give_in":
            return self._finish_turn(give_in(state, seat))
        return self._finish_turn(challenge(state, seat))

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
            renegs = tuple(r + a for r, a in zip(renegs, turned_award(down, table), strict=True))
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

    def view_says(self, state: UsurpState, seat: int | None) -> dict[str, Any]:
        table = state.table

        def down(d: Downcard) -> dict[str, Any]:
            # A Downcard's face is known only to its own player until it is turned.
            return {"seat": d.seat, "card": d.card} if d.seat == seat else {"seat": d.seat}

        last = thaw(state.last)
        pending = state.pending
        if pending is not None and pending.seat == seat and last is not None:
            last["card"] = pending.card  # the Uprising's own player sees its card
        common = self.common_view(
            state, seat, phase=state.phase, message=_message(state, seat), last=last
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
                "scored": list(turned_award(d, table)),
            }
            for d in result.turned
        ]
    }


# --- words for players ---------------------------------------------------------------------


def _explain(state: UsurpState, seat: int, act: dict[str, Any]) -> Told | None:
    """Why a refused action is wrong, in a sentence a player understands."""
    kind = act.get("type")
    if state.phase in (ORDER, USURP_ORDER):
        if kind == "order":
            return "The Order must be 'regal' or 'common'."
        return say(N_("First choose the Order: regal (high wins) or common (low wins)."))
    if state.phase == ANSWER:
        return say(
            N_("{seat} played a Downcard: answer with Give In or Challenge."),
            seat=seat_ref(1 - seat),
        )
    if "card" not in act:
        return None
    card = act["card"]
    hand = state.hands[seat]
    if not isinstance(card, str) or card not in hand:
        return say(N_("You do not hold that card."))
    up = state.upcard
    suit = suit_ref(suit_of(up), "french")
    if state.phase == FREE:
        if kind != "free_play":
            return say(N_("After the Sluff Off you have the free play: play any card face up."))
        return None
    if kind == "free_play":
        return say(N_("There is no free play now: Score, Usurp, Sluff Off or Uprise."))
    if kind == "score" and suit_of(card) != suit_of(up):
        return say(N_("To Score you must play a card of {suit}, the Upcard's suit."), suit=suit)
    if kind == "usurp":
        if rank_of(card) != rank_of(up):
            return say(
                N_("To Usurp you must play a card of the Upcard's rank ({rank})."),
                rank=rank_of(up),
            )
        return "A Usurp names the Order after it: 'regal' or 'common'."
    if kind == "sluff":
        if suit_of(card) == suit_of(up):
            return say(N_("That card follows suit: play it as a Score."))
        if rank_of(card) == rank_of(up):
            return say(N_("That card has the Upcard's rank: play it as a Usurp."))
        if holds_suit(hand, suit_of(up)):
            return say(
                N_("You hold {suit}: you must follow suit (or Usurp, or Uprise face down)."),
                suit=suit,
            )
    return None


# The Leading Order by the name the view gives it.
ORDER_NAMES = {"regal": N_("Regal"), "common": N_("Common")}


def _message(state: UsurpState, viewer: int | None) -> Told:
    """One sentence on what is awaited now, addressing the viewer as "You"."""
    up = the(state.upcard)
    turn = state.turn
    if state.phase == OVER:
        won = top_scorers(state.game_points)
        if len(won) == 2:
            return say(N_("The match is over: the Game Points are equal, so it is shared."))
        return addressed(
            viewer, won[0], N_("The match is over: you win."), N_("The match is over: {seat} wins.")
        )
    if state.phase == ORDER:
        return addressed(
            viewer,
            turn,
            N_("You deal and declare the Order (regal or common) with {card} up."),
            N_("{seat} deals and declares the Order (regal or common) with {card} up."),
            card=up,
        )
    if state.phase == USURP_ORDER:
        return addressed(
            viewer,
            turn,
            N_("Your Downcard was a Usurp: you choose the Order."),
            N_("{seat}'s Downcard was a Usurp: {seat} chooses the Order."),
        )
    if state.phase == ANSWER:
        assert state.pending is not None
        player = state.pending.seat
        if player == viewer:
            message = N_("You played a Downcard on {card}: {other} must Give In or Challenge.")
        elif turn == viewer:
            message = N_("{seat} played a Downcard on {card}: you must Give In or Challenge.")
        else:
            message = N_("{seat} played a Downcard on {card}: {other} must Give In or Challenge.")
        return say(message, seat=seat(player), other=seat(turn), card=up)
    if state.phase == FREE:
        return addressed(
            viewer,
            turn,
            N_("You have the free play after the Sluff Off: any card scores {value}."),
            N_("{seat} has the free play after the Sluff Off: any card scores {value}."),
            value=state.table.value(state.upcard),
        )
    return addressed(
        viewer,
        turn,
        N_("Your turn on {card} ({order})."),
        N_("{seat} to play on {card} ({order})."),
        card=up,
        order=say(ORDER_NAMES[state.order]),
    )


RULES = UsurpRules()

__all__ = ["RULES", "UsurpRules", "UsurpState"]
