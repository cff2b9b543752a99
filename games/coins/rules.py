"""Coins: Mark Steere's three-player trick-taking game with the Spanish 48-card deck.

Rule source: the published rule text of "Coins" by Mark Steere (its Board Game Arena game
help), with our rulings in docs/rules/coins.md, which win where the text is silent or
ambiguous ("Our ruling").

Shape (OpenSpiel style): constants, the trick arithmetic, the frozen state, then the
contract's verbs in order. There is no obligation to follow suit; who takes a trick depends
on its shape (three suits: the suit cycle; a pair of one suit: the higher of the pair; one
suit: the highest). Every Coins card in a won trick is a point, and the match ends the
moment a player reaches the target, even in the middle of a hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.kit.account import N_, Told, say, sentence
from games.kit.base import Action, is_card_action, require_legal, rotate
from games.kit.cards import (
    SPANISH_RANKS,
    SPANISH_SUITS,
    SUIT_NAMES,
    rank_of,
    shuffled,
    suit_of,
)
from games.kit.engine import Engine
from games.kit.frozen import InZones, Record, add_at, evolve, thaw
from games.kit.options import Choice
from games.kit.phrasing import addressed
from games.kit.tricks import cards_played, play_to_trick
from games.kit.words import points

SEATS = 3
HAND_SIZE = 16
TRICKS_PER_HAND = 16
TARGETS = (10, 15, 20)
DEFAULT_TARGET = 15
COINS = "O"

# Cups beat Coins, Coins beat Swords, Swords beat Clubs, Clubs beat Cups (docs/rules/coins.md).
CYCLE = ("C", "O", "S", "B")
DECK: tuple[str, ...] = tuple(rank + suit for suit in SPANISH_SUITS for rank in SPANISH_RANKS)
# Lower is stronger: A K N J 9 ... 2.
STRENGTH = {rank: i for i, rank in enumerate(SPANISH_RANKS)}
CYCLE_NAMES = tuple(SUIT_NAMES["spanish"][suit] for suit in CYCLE)  # shown in every view


# --- trick arithmetic ---------------------------------------------------------------


def _higher(cards: Sequence[str]) -> str:
    return min(cards, key=lambda c: STRENGTH[rank_of(c)])


def winning_card(cards: Sequence[str]) -> str:
    """The card that takes a three-card trick (TRICK CARD VALUES and our rulings)."""
    suits = [suit_of(c) for c in cards]
    distinct = set(suits)
    if len(distinct) == 3:
        # Three suits: the suit after the missing one in the cycle beats the other two.
        missing = next(s for s in CYCLE if s not in distinct)
        top = CYCLE[(CYCLE.index(missing) + 1) % len(CYCLE)]
        return next(c for c in cards if suit_of(c) == top)
    if len(distinct) == 2:
        pair_suit = next(s for s in distinct if suits.count(s) == 2)
        return _higher([c for c in cards if suit_of(c) == pair_suit])
    return _higher(cards)


def coin_points(cards: Sequence[str]) -> int:
    """Each Coins card in a trick is one point."""
    return sum(1 for c in cards if suit_of(c) == COINS)


def hand_key(card: str) -> tuple[int, int]:
    """Where a card goes in a sorted hand: suit by suit in the cycle, strongest first."""
    return (CYCLE.index(suit_of(card)), STRENGTH[rank_of(card)])


# --- state ----------------------------------------------------------------------------


@dataclass(frozen=True)
class CoinsState:
    """Everything about a Coins match; immutable, so ``==`` compares matches."""

    seed: int | str
    options: tuple[tuple[str, Any], ...]
    target: int
    counter: int  # the next shuffle's counter (games.kit.cards.shuffled)
    hand_no: int  # 1-based
    dealer: int
    hands: tuple[tuple[str, ...], ...]
    won: tuple[tuple[str, ...], ...]  # collected tricks per seat, face down
    trick: tuple[tuple[int, str], ...]  # (seat, card) in play order
    last_trick: tuple[tuple[int, str], ...]  # shown until the next trick starts
    last_winner: int  # -1 when no trick yet this hand
    last_points: int
    leader: int
    turn: int
    tricks_played: int  # this hand
    scores: tuple[int, ...]
    hand_points: tuple[int, ...]
    tricks_taken: tuple[int, ...]  # this hand
    last: Record  # the last action, publicly; () at the start
    previous: tuple[int, ...]  # last hand: (hand, points per seat..., last-trick winner)
    winner: int  # -1 until someone reaches the target

    @property
    def over(self) -> bool:
        return self.winner >= 0


def _start_hand(
    state: CoinsState, cards: Sequence[str], dealer: int, hand_no: int, counter: int
) -> CoinsState:
    """Deal the whole deck one at a time clockwise from the dealer's left; left leads."""
    hands: list[list[str]] = [[] for _ in range(SEATS)]
    for i, card in enumerate(cards):
        hands[rotate(dealer, 1 + i, SEATS)].append(card)
    leader = rotate(dealer, 1, SEATS)
    return evolve(
        state,
        counter=counter,
        hand_no=hand_no,
        dealer=dealer,
        hands=tuple(tuple(sorted(h, key=hand_key)) for h in hands),
        won=((),) * SEATS,
        trick=(),
        last_trick=(),
        last_winner=-1,
        last_points=0,
        leader=leader,
        turn=leader,
        tricks_played=0,
        hand_points=(0,) * SEATS,
        tricks_taken=(0,) * SEATS,
    )


class CoinsRules(Engine[CoinsState]):
    """The Coins rules engine (games.kit.base.Rules)."""

    name = "coins"
    title = "Coins"
    min_seats = SEATS
    max_seats = SEATS
    lower_scores_win = False
    table_options = (Choice("target", N_("Points to win"), DEFAULT_TARGET, TARGETS),)

    # --- setup ------------------------------------------------------------------------

    def deck(self, seats: int, options: Mapping[str, Any] | None = None) -> list[str]:
        return list(DECK)

    def new_game(
        self,
        seats: int,
        seed: int | str,
        options: Mapping[str, Any] | None = None,
        deck: Sequence[str] | None = None,
    ) -> CoinsState:
        # "The oldest player" deals first; a website does not know ages, so the seeded RNG
        # picks (our ruling: first dealer random; Engine.choose_dealer).
        opts, dealer, cards, counter = self.opening(seats, seed, options, deck)
        blank = CoinsState(
            seed=seed,
            options=tuple(sorted(opts.items())),
            target=opts["target"],
            counter=counter,
            hand_no=1,
            dealer=dealer,
            hands=((),) * SEATS,
            won=((),) * SEATS,
            trick=(),
            last_trick=(),
            last_winner=-1,
            last_points=0,
            leader=dealer,
            turn=dealer,
            tricks_played=0,
            scores=(0,) * SEATS,
            hand_points=(0,) * SEATS,
            tricks_taken=(0,) * SEATS,
            last=(),
            previous=(),
            winner=-1,
        )
        return _start_hand(blank, cards, dealer, 1, counter)

    # --- whose turn and what they may do --------------------------------------------

    def to_act(self, state: CoinsState) -> list[int]:
        return [] if state.over else [state.turn]

    def legal_actions(self, state: CoinsState, seat: int) -> list[Action]:
        if state.over or seat != state.turn:
            return []
        # No obligation to follow suit: any card in hand may be played.
        return [{"type": "play", "card": card} for card in state.hands[seat]]

    def _explain(self, state: CoinsState, seat: int, action: Action) -> Told | None:
        if action.get("type") != "play":
            return None
        if set(action) != {"type", "card"}:
            return "A play names one card and nothing else."
        card = action.get("card")
        if isinstance(card, str) and card in DECK:
            return say(N_("You do not hold {card}."), card=card)
        return f"{card!r} is not a card of the Spanish deck."

    # --- the verbs --------------------------------------------------------------------

    def apply(self, state: CoinsState, seat: int, action: Action) -> CoinsState:
        card = require_legal(
            self, state, seat, action, explain=self._explain, plainly_legal=_plainly_legal
        )["card"]
        state = play_to_trick(state, seat, card)
        if len(state.trick) < SEATS:
            return evolve(state, turn=rotate(seat, 1, SEATS))
        return self._finish_trick(state)

    def _finish_trick(self, state: CoinsState) -> CoinsState:
        cards = [c for _, c in state.trick]
        top = winning_card(cards)
        winner = next(s for s, c in state.trick if c == top)
        points = coin_points(cards)
        state = evolve(
            state,
            trick=(),
            last_trick=state.trick,
            last_winner=winner,
            last_points=points,
            scores=add_at(state.scores, winner, points),
            hand_points=add_at(state.hand_points, winner, points),
            tricks_taken=add_at(state.tricks_taken, winner, 1),
            tricks_played=state.tricks_played + 1,
            leader=winner,
            turn=winner,
        )
        if state.scores[winner] >= state.target:
            return evolve(state, winner=winner)
        if state.tricks_played < TRICKS_PER_HAND:
            return state
        # Nobody reached the target: the player to the right of the last trick's winner
        # deals the next hand, so that winner (the dealer's left) leads again.
        previous = (state.hand_no, *state.hand_points, winner)
        next_deal = shuffled(DECK, state.seed, state.counter)
        dealer = rotate(winner, -1, SEATS)
        state = evolve(state, previous=previous)
        return _start_hand(state, next_deal, dealer, state.hand_no + 1, state.counter + 1)

    # --- what each seat sees ---------------------------------------------------------

    def view_says(self, state: CoinsState, seat: int | None) -> dict[str, Any]:
        last_trick = None
        if state.last_trick:
            last_trick = {
                "cards": cards_played(state.last_trick),
                "winner": state.last_winner,
                "points": state.last_points,
            }
        previous = None
        if state.previous:
            previous = {
                "hand": state.previous[0],
                "points": list(state.previous[1 : 1 + SEATS]),
                "last_trick_winner": state.previous[1 + SEATS],
            }
        common = self.common_view(
            state,
            seat,
            phase="over" if state.over else "play",
            message=_message(state, seat),
            last=thaw(state.last, InZones(_hidden_zones(state, seat))),
        )
        return common | {
            "target": state.target,
            "hand_number": state.hand_no,
            "trick_number": state.tricks_played + (0 if state.over else 1),
            "tricks_per_hand": TRICKS_PER_HAND,
            "leader": state.leader,
            "trick": cards_played(state.trick),
            "last_trick": last_trick,
            "hand_points": list(state.hand_points),
            "tricks_taken": list(state.tricks_taken),
            "previous_hand": previous,
            "suit_cycle": list(CYCLE_NAMES),
        }

    def is_over(self, state: CoinsState) -> bool:
        return state.over

    def scores(self, state: CoinsState) -> list[int]:
        return list(state.scores)

    def winners(self, state: CoinsState) -> list[int]:
        return [state.winner] if state.over else []

    # --- introspection for the contract test ------------------------------------------

    def zones(self, state: CoinsState) -> dict[str, list[str]]:
        zones = {f"hand{s}": list(state.hands[s]) for s in range(SEATS)}
        zones.update({f"won{s}": list(state.won[s]) for s in range(SEATS)})
        zones["trick"] = [c for _, c in state.trick]
        zones["last_trick"] = [c for _, c in state.last_trick]
        return zones

    def hidden_cards(self, state: CoinsState, seat: int | None) -> frozenset[str]:
        return frozenset(card for zone in _hidden_zones(state, seat) for card in zone)


def _hidden_zones(state: CoinsState, seat: int | None) -> tuple[tuple[str, ...], ...]:
    """The zones ``seat`` may not see: collected tricks lie face down; the trick on the
    table and the last completed trick are public."""
    hands = state.hands
    if seat is None or not 0 <= seat < len(hands):
        return (*state.won, *hands)
    return (*state.won, *hands[:seat], *hands[seat + 1 :])


def _message(state: CoinsState, viewer: int | None) -> Told:
    """One sentence on what is awaited now, addressing the viewer as "You"."""
    if state.over:
        return addressed(
            viewer,
            state.winner,
            N_("You reached {points} and won."),
            N_("{seat} reached {points} and won."),
            points=points(state.target),
        )
    if state.trick:
        return addressed(
            viewer, state.turn, N_("You play to the trick."), N_("{seat} plays to the trick.")
        )
    if state.tricks_played == 0:
        return say(
            N_("Hand {hand}: {dealt}; {leads}."),
            hand=state.hand_no,
            dealt=addressed(viewer, state.dealer, N_("you dealt"), N_("{seat} dealt")),
            leads=addressed(viewer, state.turn, N_("you lead"), N_("{seat} leads")),
        )
    return sentence(
        addressed(
            viewer,
            state.last_winner,
            N_("You took the trick ({points})"),
            N_("{seat} took the trick ({points})"),
            points=points(state.last_points),
        ),
        addressed(viewer, state.turn, N_("you lead the next"), N_("{seat} leads the next")),
    )


def _plainly_legal(state: CoinsState, seat: int, action: object) -> bool:
    """A card play by the seat awaited (games.kit.base.require_legal)."""
    return (
        not state.over and seat == state.turn and is_card_action(action, "play", state.hands[seat])
    )


RULES = CoinsRules()
