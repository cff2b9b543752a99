"""Cupid: a two-player racing trick-taking game with a 24-card deck.

Rule source: the published rule text of "Cupid" by Mark S. Ball, v1.1.9, with our rulings
in docs/rules/cupid.md, which win where the text is silent or ambiguous ("Our ruling").

Shape (OpenSpiel style): constants, the card order and trick arithmetic, the frozen state,
then the contract's verbs in order. A round is 11 two-card tricks; after each of the first
six, the trick winner chooses the stock's top card or the face-up turn-up and the other
player gets the other one. The last trick's winner also takes the face-down prize trick.
Points are scored after every trick and the match ends the moment a player reaches the
target, even in the middle of a round.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.kit.account import N_, Told, ngettext, say, sentence, text
from games.kit.base import Action, is_card_action, require_legal
from games.kit.cards import JOKER, rank_of, shuffled, suit_of
from games.kit.engine import Engine
from games.kit.frozen import InZones, Record, add_at, evolve, thaw
from games.kit.options import IntRange
from games.kit.phrasing import addressed
from games.kit.tricks import cards_played, play_to_trick
from games.kit.words import points

SEATS = 2
HAND_SIZE = 5
PRIZE_SIZE = 2
TRICKS_PER_ROUND = 11
DEFAULT_TARGET = 121
TARGET_MIN = 10
TARGET_MAX = 500
CHARACTER_VALUE = 11  # each character card in a character + character trick

QUEEN, JACK, KING = "QD", "JC", "KH"
CHARACTERS = frozenset({QUEEN, JACK, KING})

# The ruled order, low to high (docs/rules/cupid.md): every card has its own place, so two cards
# never tie. The one exception to "higher takes the trick" is the Queen taking the King.
ORDER: tuple[str, ...] = (
    JOKER,
    QUEEN,
    "AH",
    "AS",
    *(f"{n}{s}" for n in range(2, 6) for s in "HS"),
    JACK,
    *(f"{n}{s}" for n in range(6, 11) for s in "HS"),
    KING,
)
POSITION = {card: i for i, card in enumerate(ORDER)}

SOURCES = ("stock", "turnup")


# --- card arithmetic ----------------------------------------------------------------


def beats(card: str, other: str) -> bool:
    """Whether ``card`` takes a trick against ``other``."""
    if card == QUEEN and other == KING:
        return True
    if card == KING and other == QUEEN:
        return False
    return POSITION[card] > POSITION[other]


def number_value(card: str) -> int:
    """The face value of a number card (Ace = 1)."""
    rank = rank_of(card)
    return 1 if rank == "A" else int(rank)


def trick_value(first: str, second: str) -> int:
    """The points a two-card trick is worth (the SCORE section and our rulings)."""
    if JOKER in (first, second):
        return 0
    first_char, second_char = first in CHARACTERS, second in CHARACTERS
    if first_char and second_char:
        return 2 * CHARACTER_VALUE
    if first_char:
        return number_value(second)
    if second_char:
        return number_value(first)
    a, b = number_value(first), number_value(second)
    if suit_of(first) != suit_of(second):
        return a + b
    if suit_of(first) == "H":
        return abs(a - b)
    return 1  # spade + spade


def sorted_hand(cards: Sequence[str]) -> tuple[str, ...]:
    """A hand in the ruled order, low to high."""
    return tuple(sorted(cards, key=POSITION.__getitem__))


# --- state ----------------------------------------------------------------------------


@dataclass(frozen=True)
class CupidState:
    """Everything about a Cupid match; immutable, so ``==`` compares matches."""

    seed: int | str
    options: tuple[tuple[str, Any], ...]
    target: int
    counter: int  # the next shuffle's counter (games.kit.cards.shuffled)
    round: int  # 1-based
    dealer: int
    hands: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]  # top first
    turnup: tuple[str, ...]  # the face-up card beside the stock, or () once used up
    prize: tuple[str, ...]  # face down until the last trick's winner collects it
    won: tuple[tuple[str, ...], ...]  # collected tricks per seat, face down
    trick: tuple[tuple[int, str], ...]  # (seat, card) in play order
    last_trick: tuple[tuple[int, str], ...]  # shown until the next trick starts
    last_winner: int  # winner of ``last_trick``; -1 when none this round
    last_points: int
    prize_points: int  # -1 until the prize trick is scored this round
    phase: str  # "play", "draw" or "over"
    turn: int  # the seat awaited
    next_leader: int  # who leads once the draw is done
    tricks_played: int  # this round
    scores: tuple[int, ...]
    round_points: tuple[int, ...]
    tricks_taken: tuple[int, ...]  # this round
    last: Record  # the last action, publicly; () at the start
    previous: tuple[int, ...]  # last round: (round, points 0, points 1, last-trick winner, prize)
    winner: int  # -1 until someone reaches the target


def _other(seat: int) -> int:
    return 1 - seat


def _deal(cards: Sequence[str], dealer: int) -> dict[str, Any]:
    """Deal from the top: 5 each alternately from the non-dealer, 2 prize, the turn-up."""
    hands: list[list[str]] = [[], []]
    order = (_other(dealer), dealer)
    for i in range(2 * HAND_SIZE):
        hands[order[i % 2]].append(cards[i])
    rest = list(cards[2 * HAND_SIZE :])
    return {
        "hands": tuple(sorted_hand(h) for h in hands),
        "prize": tuple(rest[:PRIZE_SIZE]),
        "turnup": (rest[PRIZE_SIZE],),
        "stock": tuple(rest[PRIZE_SIZE + 1 :]),
    }


def _start_round(
    state: CupidState, cards: Sequence[str], dealer: int, round_no: int, counter: int
) -> CupidState:
    """A fresh deal; the dealer leads the first trick."""
    return evolve(
        state,
        counter=counter,
        round=round_no,
        dealer=dealer,
        **_deal(cards, dealer),
        won=((), ()),
        trick=(),
        last_trick=(),
        last_winner=-1,
        last_points=0,
        prize_points=-1,
        phase="play",
        turn=dealer,
        next_leader=dealer,
        tricks_played=0,
        round_points=(0, 0),
        tricks_taken=(0, 0),
    )


class CupidRules(Engine[CupidState]):
    """The Cupid rules engine (games.kit.base.Rules)."""

    name = "cupid"
    title = "Cupid"
    min_seats = SEATS
    max_seats = SEATS
    lower_scores_win = False
    table_options = (
        IntRange("target", N_("Points to win"), DEFAULT_TARGET, TARGET_MIN, TARGET_MAX),
    )

    # --- setup ------------------------------------------------------------------------

    def deck(self, seats: int, options: Mapping[str, Any] | None = None) -> list[str]:
        return list(ORDER)

    def new_game(
        self,
        seats: int,
        seed: int | str,
        options: Mapping[str, Any] | None = None,
        deck: Sequence[str] | None = None,
    ) -> CupidState:
        opts, dealer, cards, counter = self.opening(seats, seed, options, deck)
        blank = CupidState(
            seed=seed,
            options=tuple(sorted(opts.items())),
            target=opts["target"],
            counter=counter,
            round=1,
            dealer=dealer,
            hands=((), ()),
            stock=(),
            turnup=(),
            prize=(),
            won=((), ()),
            trick=(),
            last_trick=(),
            last_winner=-1,
            last_points=0,
            prize_points=-1,
            phase="play",
            turn=dealer,
            next_leader=dealer,
            tricks_played=0,
            scores=(0, 0),
            round_points=(0, 0),
            tricks_taken=(0, 0),
            last=(),
            previous=(),
            winner=-1,
        )
        return _start_round(blank, cards, dealer, 1, counter)

    def choose_dealer(self, rng: random.Random, seats: int) -> int:
        # Each player draws a card from a shuffled deck; the lower card deals. The ruled
        # order is total, so the two cards never tie and no redraw is needed.
        drawn = rng.sample(ORDER, SEATS)
        return 0 if POSITION[drawn[0]] < POSITION[drawn[1]] else 1

    # --- whose turn and what they may do --------------------------------------------

    def to_act(self, state: CupidState) -> list[int]:
        return [] if state.phase == "over" else [state.turn]

    def legal_actions(self, state: CupidState, seat: int) -> list[Action]:
        if state.phase == "over" or seat != state.turn:
            return []
        if state.phase == "draw":
            return [{"type": "draw", "source": source} for source in SOURCES]
        return [{"type": "play", "card": card} for card in state.hands[seat]]

    def _explain(self, state: CupidState, seat: int, action: Action) -> Told | None:
        kind = action.get("type")
        if state.phase == "draw":
            if kind == "draw":
                return "Draw from the stock or take the turn-up: source 'stock' or 'turnup'."
            return say(
                N_("You won the trick: first draw a card (the stock's top card or the turn-up).")
            )
        if kind == "draw":
            return say(N_("There is nothing to draw now: play a card."))
        if kind == "play":
            card = action.get("card")
            if set(action) != {"type", "card"}:
                return "A play names one card and nothing else."
            if isinstance(card, str) and card in POSITION:
                return say(N_("You do not hold {card}."), card=card)
            return f"{card!r} is not a Cupid card."
        return None

    # --- the verbs --------------------------------------------------------------------

    def apply(self, state: CupidState, seat: int, action: Action) -> CupidState:
        act = require_legal(
            self, state, seat, action, explain=self._explain, plainly_legal=_plainly_legal
        )
        if act["type"] == "draw":
            return self._draw(state, seat, act["source"])
        return self._play(state, seat, act["card"])

    def _play(self, state: CupidState, seat: int, card: str) -> CupidState:
        state = play_to_trick(state, seat, card)
        if len(state.trick) < SEATS:
            return evolve(state, turn=_other(seat))
        return self._finish_trick(state)

    def _finish_trick(self, state: CupidState) -> CupidState:
        (lead_seat, lead_card), (follow_seat, follow_card) = state.trick
        winner = follow_seat if beats(follow_card, lead_card) else lead_seat
        winning_card = follow_card if winner == follow_seat else lead_card
        points = trick_value(lead_card, follow_card)
        # Won with the Jack: the Jack's owner still draws first, but the loser leads.
        next_leader = _other(winner) if winning_card == JACK else winner
        state = evolve(
            state,
            trick=(),
            last_trick=state.trick,
            last_winner=winner,
            last_points=points,
            scores=add_at(state.scores, winner, points),
            round_points=add_at(state.round_points, winner, points),
            tricks_taken=add_at(state.tricks_taken, winner, 1),
            tricks_played=state.tricks_played + 1,
            next_leader=next_leader,
        )
        if state.scores[winner] >= state.target:
            return evolve(state, phase="over", winner=winner)
        if state.tricks_played == TRICKS_PER_ROUND:
            return self._award_prize(state, winner)
        if state.turnup:
            return evolve(state, phase="draw", turn=winner)
        return evolve(state, phase="play", turn=next_leader)

    def _award_prize(self, state: CupidState, winner: int) -> CupidState:
        """The last trick's winner takes the prize trick and scores it like a trick."""
        points = trick_value(*state.prize)
        state = evolve(
            state,
            won=add_at(state.won, winner, state.prize),
            prize=(),
            prize_points=points,
            scores=add_at(state.scores, winner, points),
            round_points=add_at(state.round_points, winner, points),
        )
        if state.scores[winner] >= state.target:
            return evolve(state, phase="over", winner=winner)
        # More points deals and leads the next round; equal scores: the last trick's taker.
        a, b = state.scores
        dealer = winner if a == b else (0 if a > b else 1)
        previous = (
            state.round,
            *state.round_points,
            winner,
            points,
        )
        cards = shuffled(ORDER, state.seed, state.counter)
        state = evolve(state, previous=previous)
        return _start_round(state, cards, dealer, state.round + 1, state.counter + 1)

    def _draw(self, state: CupidState, seat: int, source: str) -> CupidState:
        top, turnup = state.stock[0], state.turnup[0]
        mine, theirs = (top, turnup) if source == "stock" else (turnup, top)
        hands = tuple(
            sorted_hand((*hand, mine if i == seat else theirs))
            for i, hand in enumerate(state.hands)
        )
        stock = state.stock[1:]
        # A new turn-up is turned while the stock still has cards.
        new_turnup = stock[:1]
        return evolve(
            state,
            hands=hands,
            stock=stock[1:],
            turnup=new_turnup,
            phase="play",
            turn=state.next_leader,
            last=(("seat", seat), ("type", "draw"), ("source", source)),
        )

    # --- what each seat sees ---------------------------------------------------------

    def view_says(self, state: CupidState, seat: int | None) -> dict[str, Any]:
        last_trick = None
        if state.last_trick:
            last_trick = {
                "cards": cards_played(state.last_trick),
                "winner": state.last_winner,
                "points": state.last_points,
            }
        prize = None
        if state.prize_points >= 0:
            prize = {"winner": state.last_winner, "points": state.prize_points}
        previous = None
        if state.previous:
            rnd, p0, p1, taker, prize_pts = state.previous
            previous = {
                "round": rnd,
                "points": [p0, p1],
                "last_trick_winner": taker,
                "prize_points": prize_pts,
            }
        common = self.common_view(
            state,
            seat,
            phase=state.phase,
            message=_message(state, seat),
            last=thaw(state.last, InZones(_hidden_zones(state, seat))),
        )
        return common | {
            "target": state.target,
            "round": state.round,
            "trick_number": state.tricks_played + (1 if state.phase == "play" else 0),
            "tricks_per_round": TRICKS_PER_ROUND,
            "leader": state.trick[0][0] if state.trick else state.next_leader,
            "trick": cards_played(state.trick),
            "turnup": state.turnup[0] if state.turnup else None,
            "stock_size": len(state.stock),
            "prize_size": len(state.prize),
            "last_trick": last_trick,
            "prize_trick": prize,
            "round_points": list(state.round_points),
            "tricks_taken": list(state.tricks_taken),
            "previous_round": previous,
        }

    def is_over(self, state: CupidState) -> bool:
        return state.phase == "over"

    def scores(self, state: CupidState) -> list[int]:
        return list(state.scores)

    def winners(self, state: CupidState) -> list[int]:
        return [state.winner] if state.phase == "over" else []

    # --- introspection for the contract test ------------------------------------------

    def zones(self, state: CupidState) -> dict[str, list[str]]:
        return {
            "hand0": list(state.hands[0]),
            "hand1": list(state.hands[1]),
            "stock": list(state.stock),
            "turnup": list(state.turnup),
            "prize": list(state.prize),
            "trick": [c for _, c in state.trick],
            "last_trick": [c for _, c in state.last_trick],
            "won0": list(state.won[0]),
            "won1": list(state.won[1]),
        }

    def hidden_cards(self, state: CupidState, seat: int | None) -> frozenset[str]:
        return frozenset(card for zone in _hidden_zones(state, seat) for card in zone)


def _hidden_zones(state: CupidState, seat: int | None) -> tuple[tuple[str, ...], ...]:
    """The zones ``seat`` may not see. Collected tricks (both players', "not allowed to look
    at") and the prize trick are face down; the turn-up, the trick and the last completed
    trick are public."""
    hands = state.hands
    if seat is None or not 0 <= seat < len(hands):
        return (state.stock, state.prize, *state.won, *hands)
    return (state.stock, state.prize, *state.won, *hands[:seat], *hands[seat + 1 :])


def _message(state: CupidState, viewer: int | None) -> Told:
    """One sentence on what is awaited now, addressing the viewer as "You"."""
    if state.phase == "over":
        return addressed(
            viewer,
            state.winner,
            N_("You reached {points} and won."),
            N_("{seat} reached {points} and won."),
            points=points(state.target),
        )
    if state.phase == "draw":
        return sentence(
            addressed(
                viewer,
                state.last_winner,
                N_("You won the trick ({points})"),
                N_("{seat} won the trick ({points})"),
                points=points(state.last_points),
            ),
            addressed(
                viewer,
                state.turn,
                N_("you choose the stock's top card or the turn-up"),
                N_("{seat} chooses the stock's top card or the turn-up"),
            ),
        )
    if state.trick:
        return addressed(
            viewer, state.turn, N_("You answer the lead."), N_("{seat} answers the lead.")
        )
    if state.tricks_played == 0:
        opening = say(
            N_("Round {round}: {deals}."),
            round=state.round,
            deals=addressed(
                viewer, state.dealer, N_("you deal and lead"), N_("{seat} deals and leads")
            ),
        )
        if not state.previous:
            return opening
        prize = ngettext(
            "Last round's prize trick: {n} point.",
            "Last round's prize trick: {n} points.",
            state.previous[4],
        )
        return text(opening, prize)
    if state.next_leader != state.last_winner:
        return addressed(
            viewer,
            state.turn,
            N_("You lead the next trick (the trick was won with the Jack, so the loser leads)."),
            N_(
                "{seat} leads the next trick (the trick was won with the Jack, so the loser leads)."
            ),
        )
    return addressed(
        viewer, state.turn, N_("You lead the next trick."), N_("{seat} leads the next trick.")
    )


def _plainly_legal(state: CupidState, seat: int, action: object) -> bool:
    """A card play in the play phase by the seat awaited (games.kit.base.require_legal)."""
    return (
        state.phase == "play"
        and seat == state.turn
        and is_card_action(action, "play", state.hands[seat])
    )


RULES = CupidRules()
