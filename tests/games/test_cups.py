"""Scenario tests for Cups (games/cups.py), one per rule sentence and ruling.

Rule source: the published "Simple Rules" of Cups, with our rulings in docs/rules/cups.md.
Opening positions come from stacked decks with a fixed dealer:
``stacked`` turns "these hands, this first dump card, this stack" into the deck order the
engine deals from (7 each, one at a time, starting with the dealer's right and going right).
Positions late in a match (a nearly empty stack, graveyards, few Cups left) are set up by
``position``, which replaces the piles of a stacked-deck match; every card it does not name is
out of the game, so cards stay conserved.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import pytest

from games import REGISTRY, IllegalAction
from games.cups.rules import DECK, LEFT, RIGHT, RULES, TURN_CAP, CupsState
from games.kit.cards import rng_for, shuffled, tarot_deck
from tests.games.randomplay import random_match

SEED = 7
# Unnamed hand cards are taken from here (Wands and Coins first, Cups last).
FILLER = [c for s in "WOSC" for c in DECK if c.endswith(s)]


def stacked(
    seats: int,
    hands: Mapping[int, Sequence[str]],
    dump: str,
    stack: Sequence[str] = (),
    *,
    dealer: int = 0,
    options: Mapping[str, Any] | None = None,
) -> CupsState:
    """A new match dealt from a deck that gives these hands, first dump card and stack top."""
    named = {c for h in hands.values() for c in h} | {dump} | set(stack)
    spare = [c for c in FILLER if c not in named]
    full = {s: list(hands.get(s, ())) for s in range(seats)}
    for cards in full.values():
        while len(cards) < 7:
            cards.append(spare.pop(0))
    first = (dealer - 1) % seats
    deck = [full[(first - k) % seats][r] for r in range(7) for k in range(seats)]
    deck += [dump, *stack, *spare]
    assert sorted(deck) == sorted(DECK), "a card is named twice"
    return RULES.new_game(seats, SEED, {"dealer": dealer, **(options or {})}, deck)


def position(
    seats: int,
    hands: Mapping[int, Sequence[str]],
    dump: Sequence[str],
    stack: Sequence[str] = (),
    *,
    current: int = 0,
    direction: int = RIGHT,
    graveyards: Mapping[int, Sequence[Sequence[str]]] | None = None,
    active: str | None = None,
    aside: Sequence[str] = (),
    turn: int = 0,
    options: Mapping[str, Any] | None = None,
) -> CupsState:
    """A position later in a match: these piles, everything else out of the game."""
    base = RULES.new_game(seats, SEED, {"dealer": (current + 1) % seats, **(options or {})})
    graves = graveyards or {}
    named = [*dump, *stack, *aside]
    named += [c for h in hands.values() for c in h]
    named += [c for g in graves.values() for b in g for c in b]
    assert len(named) == len(set(named)), "a card is named twice"
    state = replace(
        base,
        hands=tuple(tuple(hands.get(s, ())) for s in range(seats)),
        graveyards=tuple(tuple(tuple(b) for b in graves.get(s, ())) for s in range(seats)),
        stack=tuple(stack),
        dump=tuple(dump),
        active=active if active is not None else (dump[-1] if dump else ""),
        aside=tuple(aside),
        out=tuple(c for c in DECK if c not in named),
        current=current,
        direction=direction,
        turn=turn,
    )
    assert state.current == current
    return state


def play(state: CupsState, seat: int, card: str) -> CupsState:
    return RULES.apply(state, seat, {"type": "play", "card": card})


def grave(state: CupsState, seat: int) -> CupsState:
    return RULES.apply(state, seat, {"type": "graveyard"})


def gift(state: CupsState, seat: int, card: str | None) -> CupsState:
    return RULES.apply(state, seat, {"type": "gift", "card": card})


def plays(state: CupsState, seat: int) -> list[str | None]:
    return [a.get("card") for a in RULES.legal_actions(state, seat)]


def total(state: CupsState) -> int:
    return sum(len(cards) for cards in RULES.zones(state).values())


# --- the deck, the deal and the options -----------------------------------------------


def test_deck_is_the_56_card_minor_arcana_with_its_codes() -> None:
    deck = RULES.deck(4)
    assert deck == tarot_deck() and len(set(deck)) == 56
    assert {c[-1] for c in deck} == {"C", "O", "S", "W"}
    assert {c[:-1] for c in deck} == {"A", *map(str, range(2, 11)), "P", "N", "Q", "K"}
    assert REGISTRY["cups"] is RULES and RULES.lower_scores_win
    assert (RULES.min_seats, RULES.max_seats) == (2, 6)


def test_first_player_is_dealers_right_and_deal_7_each_going_right() -> None:
    deck = list(DECK)
    state = RULES.new_game(3, SEED, {"dealer": 0}, deck)
    # The dealer's right is seat 2, then seat 1, then seat 0, one card at a time.
    assert state.current == 2 and state.direction == RIGHT
    assert state.hands[2] == tuple(deck[0:21:3])
    assert state.hands[1] == tuple(deck[1:21:3])
    assert state.hands[0] == tuple(deck[2:21:3])
    assert state.dump == (deck[21],) and state.active == deck[21]
    assert state.stack == tuple(deck[22:])


def test_first_dealer_without_the_option_comes_from_the_seeded_rng() -> None:
    for seed in range(20):
        state = RULES.new_game(4, seed)
        assert state.dealer == rng_for(seed, 0).randrange(4)
        assert state.current == (state.dealer - 1) % 4
    assert len({RULES.new_game(5, seed).dealer for seed in range(30)}) > 1


def test_options_default_and_unknown_options_or_values_are_refused() -> None:
    assert RULES.default_options() == {
        "cups_aside": False,
        "sit_out": False,
        "shortfall": "forgiven",
        "graveyard_counts": "single",
    }
    kinds = {e["name"]: e["type"] for e in RULES.options_schema()}
    assert kinds == {
        "cups_aside": "bool",
        "sit_out": "bool",
        "shortfall": "choice",
        "graveyard_counts": "choice",
    }
    for bad in (
        {"jokers": True},
        {"shortfall": "lenient"},
        {"graveyard_counts": "triple"},
        {"cups_aside": 1},
        {"sit_out": "yes"},
    ):
        with pytest.raises(IllegalAction, match=r"[Oo]ption"):
            RULES.new_game(3, 1, bad)


# --- legal plays on a normal active card ------------------------------------------------

HAND = ["9S", "5S", "AS", "3O", "PW", "7C", "4C"]


def test_legal_plays_on_a_normal_active_card() -> None:
    state = stacked(2, {1: HAND}, "7S")
    # Higher Sword, the Ace of Swords, a spot and a court of another non-Cup suit, the Cup
    # of the same value; never a lower Sword or a Cup of another value.
    assert plays(state, 1) == ["9S", "AS", "3O", "PW", "7C"]
    assert RULES.legal_actions(state, 0) == []


def test_same_suit_higher_value_has_no_effect() -> None:
    state = stacked(2, {1: HAND}, "7S", ["2W", "3W"])
    after = play(state, 1, "9S")
    assert after.active == "9S" and after.dump == ("7S", "9S")
    assert len(after.hands[1]) == 6 and after.stack == state.stack
    assert after.current == 0


def test_lower_card_of_the_same_suit_is_refused_with_a_reason() -> None:
    state = stacked(2, {1: HAND}, "7S")
    with pytest.raises(IllegalAction, match="higher card of swords"):
        play(state, 1, "5S")
    with pytest.raises(IllegalAction, match="do not hold"):
        play(state, 1, "KO")


@pytest.mark.parametrize("action", [{"type": "play"}, {"type": "play", "card": None}])
def test_a_play_without_a_card_is_told_it_needs_one(action: dict[str, Any]) -> None:
    state = stacked(3, {2: ["9S"]}, "7S")
    with pytest.raises(IllegalAction, match="A play needs a card") as refused:
        RULES.apply(state, 2, action)
    assert '{"type": "play", "card": "9S"}' in str(refused.value)


def test_court_cards_rank_above_ten_page_knight_queen_king() -> None:
    state = stacked(2, {1: ["9S", "PS", "NS", "QS", "KS", "2C", "3C"]}, "10S")
    assert plays(state, 1) == ["PS", "NS", "QS", "KS"]
    state = stacked(2, {1: ["PS", "NS", "9S", "KS", "10S", "2C", "3C"]}, "QS")
    assert plays(state, 1) == ["KS"]


def test_aces_count_low_so_only_the_ace_rule_allows_the_same_suit_ace() -> None:
    state = stacked(2, {1: HAND}, "7S")
    after = play(state, 1, "AS")
    assert after.phase == "gift" and RULES.to_act(after) == [0]


def test_spot_card_of_another_suit_draws_its_number() -> None:
    state = stacked(2, {1: HAND}, "7S", ["2W", "3W", "4W", "5W"])
    after = play(state, 1, "3O")
    assert after.hands[1][-3:] == ("2W", "3W", "4W")
    assert after.stack[0] == "5W" and after.active == "3O"


def test_ace_of_another_suit_is_a_spot_card_and_draws_one() -> None:
    state = stacked(2, {1: ["AO", "2S"]}, "7S", ["2W", "3W"])
    after = play(state, 1, "AO")
    assert after.phase == "play" and after.hands[1][-1] == "2W"


def test_court_card_of_another_suit_draws_one_card_per_player() -> None:
    state = stacked(3, {2: ["PW", "NO", "QW", "KO"]}, "7S", ["2W", "3W", "4W", "5W"])
    after = play(state, 2, "PW")
    assert after.hands[2][-3:] == ("2W", "3W", "4W") and after.stack[0] == "5W"
    state = stacked(5, {4: ["KO"]}, "7S", ["2W", "3W", "4W", "5W", "6W", "7W"])
    after = play(state, 4, "KO")
    assert len(after.hands[4]) == 6 + 5


def test_cup_of_the_same_value_takes_the_top_three_dump_cards_then_is_active() -> None:
    state = stacked(2, {1: ["8S", "10S", "2O"], 0: ["9S", "10C", "3O"]}, "7S")
    state = play(state, 1, "8S")
    state = play(state, 0, "9S")
    state = play(state, 1, "10S")
    assert state.dump == ("7S", "8S", "9S", "10S")
    after = play(state, 0, "10C")
    # The take includes the active card: 10S, 9S and 8S go to hand; 7S stays.
    assert after.dump == ("7S", "10C") and after.active == "10C"
    assert {"8S", "9S", "10S"} <= set(after.hands[0])
    assert RULES.view(after, 1)["last"] == {
        "seat": 0,
        "type": "play",
        "card": "10C",
        "effect": "take",
        "took": 3,
    }


def test_cup_take_takes_the_whole_dump_when_it_holds_fewer_than_three() -> None:
    state = stacked(2, {1: HAND}, "7S")
    after = play(state, 1, "7C")
    assert after.dump == ("7C",) and "7S" in after.hands[1]
    assert len(after.hands[1]) == 7  # gave the Cup, took one


def test_cup_of_another_value_is_refused() -> None:
    state = stacked(2, {1: HAND}, "7S")
    with pytest.raises(IllegalAction, match="Cup of the same value"):
        play(state, 1, "4C")


# --- the active Cup and reversal --------------------------------------------------------


def test_on_an_active_cup_any_non_cup_card_is_legal_and_has_no_other_effect() -> None:
    state = stacked(2, {1: ["2S", "KW", "9C", "AO"]}, "5C", ["2W"])
    assert plays(state, 1) == [c for c in state.hands[1] if not c.endswith("C")]
    assert "KW" in plays(state, 1) and "9C" not in plays(state, 1)
    with pytest.raises(IllegalAction, match="except another Cup"):
        play(state, 1, "9C")
    after = play(state, 1, "KW")  # a court card: no draw on an active Cup
    assert len(after.hands[1]) == 6 and after.stack == state.stack and after.phase == "play"


def test_a_cup_turned_up_at_the_start_is_an_active_cup() -> None:
    state = stacked(3, {}, "5C")
    assert state.active == "5C"
    assert RULES.view(state, 2)["active_is_cup"] is True
    assert all(not c.endswith("C") for c in plays(state, 2))


def test_reversal_with_three_players() -> None:
    # Dealer 0: seat 2 starts and play goes right (2, 1, 0) until a Cup reverses it.
    state = stacked(3, {2: ["3W", "6O"], 0: ["4W", "9O"], 1: ["4C", "8O"]}, "5C")
    assert state.current == 2 and state.direction == RIGHT
    state = play(state, 2, "3W")  # on the active 5C: reverses
    assert state.direction == LEFT and state.current == 0
    state = play(state, 0, "4W")
    assert state.current == 1
    state = play(state, 1, "4C")  # takes 5C, 3W, 4W; the 4C is now active
    assert state.current == 2 and state.direction == LEFT
    state = play(state, 2, "6O")  # on the active Cup: reverses again
    assert state.direction == RIGHT and state.current == 1
    view = RULES.view(state, 0)
    assert view["direction"] == "right" and view["current"] == 1


# --- graveyards ---------------------------------------------------------------------------

NO_PLAY_1 = ["2S", "3S", "4S", "5S", "6S", "7S", "8S"]
NO_PLAY_0 = ["9S", "10S", "PS", "NS", "QS", "2C", "3C"]
SECOND = ["4C", "5C", "6C", "7C", "8C", "9C", "10C"]


def _two_graveyards() -> tuple[CupsState, CupsState, CupsState]:
    state = stacked(2, {1: NO_PLAY_1, 0: NO_PLAY_0}, "KS", SECOND)
    first = grave(state, 1)
    second = grave(first, 0)
    third = grave(second, 1)
    return first, second, third


def test_graveyard_only_when_no_card_is_playable() -> None:
    state = stacked(2, {1: NO_PLAY_1, 0: NO_PLAY_0}, "KS", SECOND)
    assert RULES.legal_actions(state, 1) == [{"type": "graveyard"}]
    playable = stacked(2, {1: HAND}, "7S")
    with pytest.raises(IllegalAction, match="must play"):
        grave(playable, 1)


def test_graveyard_lays_the_hand_face_up_and_draws_as_many() -> None:
    first, _, _ = _two_graveyards()
    assert first.graveyards[1] == (tuple(NO_PLAY_1),)
    assert first.hands[1] == tuple(SECOND)
    assert first.current == 0 and first.active == "KS"
    view = RULES.view(first, 0)
    assert view["graveyards"][1] == {"top": NO_PLAY_1, "covered": 0, "batches": 1, "size": 7}
    assert view["last"] == {"seat": 1, "type": "graveyard", "cards": 7, "drew": 7}


def test_a_new_graveyard_covers_the_old_one_and_only_the_newest_batch_is_public() -> None:
    _, _, third = _two_graveyards()
    assert third.graveyards[1] == (tuple(NO_PLAY_1), tuple(SECOND))
    other = RULES.view(third, 0)["graveyards"][1]
    assert other == {"top": SECOND, "covered": 7, "batches": 2, "size": 14}
    assert RULES.view(third, None)["graveyards"][1] == other
    text = json.dumps(RULES.view(third, 0))
    assert not any(f'"{c}"' in text for c in NO_PLAY_1)
    assert set(NO_PLAY_1) <= RULES.hidden_cards(third, 0)
    assert set(NO_PLAY_1) <= RULES.hidden_cards(third, None)


def test_owner_may_look_at_their_own_covered_batches() -> None:
    _, _, third = _two_graveyards()
    own = RULES.view(third, 1)["graveyards"][1]
    assert own["covered_cards"] == NO_PLAY_1
    assert not set(NO_PLAY_1) & RULES.hidden_cards(third, 1)


def test_playing_the_last_card_picks_up_the_graveyard() -> None:
    state = position(
        2, {0: ["9S"], 1: ["2W", "QC"]}, ["7S"], ["4W"], graveyards={0: [["2O", "3O"], ["5O"]]}
    )
    after = play(state, 0, "9S")
    assert after.hands[0] == ("2O", "3O", "5O") and after.graveyards[0] == ()
    assert after.phase == "play" and after.current == 1
    assert RULES.view(after, 1)["last"]["picked_up"] == [0]


def test_no_cards_and_no_graveyard_wins_at_once() -> None:
    state = position(3, {0: ["9S"], 1: ["2W"], 2: ["3W", "4W"]}, ["7S"], ["4O"])
    after = play(state, 0, "9S")
    assert RULES.is_over(after) and RULES.winners(after) == [0] and after.ended == "win"
    assert RULES.scores(after) == [0, 1, 2]
    assert "Seat 1 wins" in RULES.view(after, None)["message"]


# --- the Ace's gift step --------------------------------------------------------------------


def test_ace_gift_step_is_simultaneous_and_hidden_until_it_ends() -> None:
    state = stacked(3, {2: ["AS", "2W"], 0: ["3O", "4O"], 1: ["5O", "6O"]}, "7S")
    before = state.hands
    state = play(state, 2, "AS")
    assert state.phase == "gift" and RULES.to_act(state) == [0, 1]
    assert RULES.legal_actions(state, 2) == []
    legal = RULES.legal_actions(state, 0)
    assert {"type": "gift", "card": "3O"} in legal and {"type": "gift", "card": None} in legal
    assert len(legal) == 8
    state = gift(state, 0, "3O")
    assert RULES.to_act(state) == [1]
    # Nobody else learns what seat 0 gave; seat 0 sees its own choice.
    for seat in (1, 2, None):
        view = RULES.view(state, seat)
        assert "3O" not in json.dumps(view)
        assert view["gift"] == {"to": 2, "awaiting": [1], "chosen": [0]}
        assert view["last"] == {"seat": 0, "type": "gift"}
    assert RULES.view(state, 0)["gift"]["mine"] == "3O"
    assert "3O" in state.hands[0]  # the gift moves only when the step ends
    state = gift(state, 1, None)
    assert state.phase == "play" and "3O" in state.hands[2] and "3O" not in state.hands[0]
    assert state.hands[1] == before[1]
    assert state.current == 1  # the Ace's player's right
    assert RULES.view(state, 1)["last"] == {"seat": 1, "type": "gift", "to": 2, "givers": [0]}


def test_a_gift_out_of_turn_or_outside_the_step_is_refused() -> None:
    state = play(stacked(3, {2: ["AS"], 0: ["3O"]}, "7S"), 2, "AS")
    with pytest.raises(IllegalAction, match="choosing gifts for you"):
        gift(state, 2, "2W")
    with pytest.raises(IllegalAction, match="own hand"):
        gift(state, 0, "KW")
    with pytest.raises(IllegalAction, match="gives one card"):
        play(state, 0, "3O")
    state = gift(state, 0, "3O")
    with pytest.raises(IllegalAction, match="already chosen"):
        gift(state, 0, None)
    plain = stacked(3, {2: ["AS"]}, "7S")
    with pytest.raises(IllegalAction, match="no gift"):
        gift(plain, 2, None)


def test_a_seat_not_awaited_in_the_gift_step_is_told_why_and_nothing_changes() -> None:
    def refusal(state: CupsState, seat: int, action: dict[str, Any]) -> str:
        with pytest.raises(IllegalAction) as refused:
            RULES.apply(state, seat, action)
        return str(refused.value)

    state = play(stacked(3, {2: ["AS"], 0: ["3O"]}, "7S"), 2, "AS")
    for action in ({"type": "gift", "card": None}, {"type": "play", "card": "2W"}):
        assert refusal(state, 2, action) == "Not your turn: the others are choosing gifts for you."
    state = gift(state, 0, "3O")
    before = replace(state)
    assert refusal(state, 0, {"type": "gift", "card": None}) == (
        "Not your turn: you have already chosen your gift; waiting for Seat 2."
    )
    assert state == before and RULES.to_act(state) == [1]
    plain = stacked(3, {2: ["AS"]}, "7S")
    assert refusal(plain, 0, {"type": "gift", "card": None}) == "It is not your turn."


def test_a_seat_sitting_out_is_told_it_gives_no_gifts() -> None:
    state = position(
        3,
        {1: ["AS", "PW"], 2: ["4W"]},
        ["7S"],
        ["5W"],
        graveyards={0: [["2O"]]},
        options={"sit_out": True},
        current=1,
    )
    state = play(state, 1, "AS")
    with pytest.raises(IllegalAction, match="sit out"):
        gift(state, 0, None)


def test_a_giver_who_gives_the_last_card_picks_up_their_graveyard() -> None:
    state = position(
        3,
        {0: ["AS", "2W"], 1: ["5O"], 2: ["6O", "QC"]},
        ["7S"],
        ["4W"],
        graveyards={1: [["8O", "9O"]]},
    )
    state = gift(gift(play(state, 0, "AS"), 1, "5O"), 2, None)
    assert state.hands[1] == ("8O", "9O") and state.graveyards[1] == ()
    assert state.phase == "play" and "5O" in state.hands[0]


def test_a_giver_who_gives_the_last_card_without_a_graveyard_wins_at_once() -> None:
    state = position(3, {0: ["AS", "2W"], 1: ["5O"], 2: ["6O", "7O"]}, ["7S"], ["4W"])
    state = gift(gift(play(state, 0, "AS"), 1, "5O"), 2, "6O")
    assert RULES.is_over(state) and RULES.winners(state) == [1]


def test_several_empty_hands_at_once_share_the_win() -> None:
    state = position(3, {0: ["AS", "2W"], 1: ["5O"], 2: ["6O"]}, ["7S"], ["4W"])
    state = gift(gift(play(state, 0, "AS"), 2, "6O"), 1, "5O")
    assert RULES.winners(state) == [1, 2]
    assert "Seat 2 and Seat 3 share the win" in RULES.view(state, 0)["message"]


def test_an_ace_played_as_the_last_card_is_saved_by_gifts() -> None:
    state = position(2, {0: ["AS"], 1: ["5O", "QC"]}, ["7S"], ["4W"])
    state = play(state, 0, "AS")
    assert state.phase == "gift" and state.hands[0] == ()
    given = gift(state, 1, "5O")
    assert given.hands[0] == ("5O",) and not RULES.is_over(given)
    kept = gift(state, 1, None)
    assert RULES.winners(kept) == [0]


# --- the stack running short ------------------------------------------------------------------


def test_shortfall_forgiven_takes_what_is_left_then_reshuffles() -> None:
    state = position(2, {0: ["5O", "2S"], 1: ["8W", "QC"]}, ["4C", "9W", "3S"], ["2W"])
    after = play(state, 0, "5O")
    assert after.hands[0] == ("2S", "2W")
    # The card just played and every Cup in the dump leave the game; the rest is shuffled
    # (the match's third shuffle) and its top card turned.
    assert {"5O", "4C"} <= set(after.out)
    order = shuffled(["9W", "3S"], SEED, 2)
    assert after.dump == order[:1] and after.active == order[0] and after.stack == order[1:]
    assert after.shuffles == 3 and total(after) == 56 and after.phase == "play"
    assert RULES.view(after, 1)["last"]["reshuffled"] is True


def test_later_reshuffles_use_the_next_shuffle_counter() -> None:
    state = position(2, {0: ["5O", "4O"], 1: ["QC", "9O"]}, ["9W", "3S", "2W"], [])
    state = play(state, 0, "5O")
    first = shuffled(["9W", "3S", "2W"], SEED, 2)
    assert state.dump == first[:1] and state.stack == first[1:] and state.shuffles == 3
    # 9O draws 9 from a stack of 2: short again, and the fourth shuffle is used.
    state = play(state, 1, "9O")
    assert state.dump == shuffled(first[:1], SEED, 3)[:1] and state.shuffles == 4
    assert "9O" in state.out and total(state) == 56


def test_a_draw_that_exactly_empties_the_stack_does_not_reshuffle() -> None:
    state = position(2, {0: ["2O", "3S"], 1: ["4O", "9W"]}, ["4C", "9S"], ["2W", "3W"])
    state = play(state, 0, "2O")
    assert state.stack == () and state.dump == ("4C", "9S", "2O") and state.shuffles == 2
    # The next draw finds the stack empty: now it reshuffles.
    state = play(state, 1, "9W")
    assert "9W" in state.out and "4C" in state.out and state.shuffles == 3


def test_shortfall_democratic_league_discards_the_stack_and_draws_from_the_dump_bottom() -> None:
    state = position(
        2,
        {0: ["2O", "9S"], 1: ["8W", "QC"]},
        ["4C", "9W", "3S", "6S"],
        ["2W"],
        options={"shortfall": "democratic_league"},
    )
    after = play(state, 0, "2O")
    assert after.discarded == ("2W",)
    assert after.hands[0] == ("9S", "4C", "9W")  # the bottom two of the dump
    # Then the usual reshuffle: 2O leaves; 3S and 6S become the stack.
    assert "2O" in after.out
    order = shuffled(["3S", "6S"], SEED, 2)
    assert after.active == order[0] and after.stack == order[1:]
    assert "2W" in RULES.hidden_cards(after, 0) and RULES.view(after, 0)["discarded_size"] == 1


def test_shortfall_democratic_league_never_draws_the_top_card() -> None:
    state = position(
        2,
        {0: ["5O", "9S"], 1: ["8W", "QC"]},
        ["9W", "3S"],
        [],
        options={"shortfall": "democratic_league"},
    )
    after = play(state, 0, "5O")
    assert after.hands[0] == ("9S", "9W", "3S")
    # Only the played 5O was left; it leaves the game and nothing remains to turn.
    assert after.dump == () and after.active == "" and after.stack == ()


def test_shortfall_magellan_deals_the_missing_cards_onto_the_new_dump() -> None:
    state = position(
        2,
        {0: ["3O", "9S"], 1: ["8W", "QC"]},
        ["4C", "9W", "3S", "8S", "7S", "6S"],
        ["2W"],
        options={"shortfall": "magellan"},
    )
    after = play(state, 0, "3O")
    assert after.hands[0] == ("9S", "2W")
    order = shuffled(["9W", "3S", "8S", "7S", "6S"], SEED, 2)
    # The new active card is turned, then the 2 cards the draw missed are dealt face up
    # onto it; the last one dealt is the active card.
    assert after.dump == order[:3] and after.active == order[2] and after.stack == order[3:]


def test_shortfall_magellan_deals_only_what_the_new_stack_holds() -> None:
    state = position(
        2, {0: ["9O", "9S"], 1: ["8W", "QC"]}, ["9W", "3S"], [], options={"shortfall": "magellan"}
    )
    after = play(state, 0, "9O")
    order = shuffled(["9W", "3S"], SEED, 2)
    assert after.dump == order and after.active == order[-1] and after.stack == ()


def test_graveyard_turn_reshuffle_removes_the_active_card_and_empty_dump_allows_any_card() -> None:
    state = position(2, {0: ["2S", "4C"], 1: ["5C", "9W"]}, ["3S"], [])
    assert RULES.legal_actions(state, 0) == [{"type": "graveyard"}]
    state = grave(state, 0)
    # Empty hands come before the stack: seat 0 drew nothing and picks the graveyard up.
    assert state.hands[0] == ("2S", "4C") and state.graveyards[0] == ()
    assert "3S" in state.out and state.dump == () and state.active == ""
    assert RULES.view(state, 1)["active"] is None
    assert plays(state, 1) == ["5C", "9W"]
    state = play(state, 1, "5C")  # any card, no effect: the Cup is now the active card
    assert state.active == "5C" and state.direction == RIGHT and len(state.hands[1]) == 1
    assert plays(state, 0) == ["2S"]


def test_reshuffle_that_removes_the_last_cup_ends_the_game_fewest_cards_win() -> None:
    state = position(2, {0: ["5O", "2W", "3W"], 1: ["6W", "7W", "8W"]}, ["4C", "9W", "3S"], [])
    after = play(state, 0, "5O")
    assert RULES.is_over(after) and after.ended == "no_cups"
    assert RULES.scores(after) == [2, 3] and RULES.winners(after) == [0]
    assert "no Cups are left" in RULES.view(after, 1)["message"]


def test_cups_in_a_graveyard_are_still_in_play() -> None:
    state = position(
        2,
        {0: ["5O", "2W", "3W"], 1: ["6W", "7W", "8W"]},
        ["4C", "9W", "3S"],
        [],
        graveyards={1: [["QC"]]},
    )
    after = play(state, 0, "5O")
    assert not RULES.is_over(after) and "4C" in after.out


def test_fewest_cards_ties_share_the_win() -> None:
    state = position(
        3, {0: ["5O", "2W", "3W"], 1: ["6W", "7W"], 2: ["8W", "4W", "5W"]}, ["4C", "3S"]
    )
    after = play(state, 0, "5O")
    assert RULES.scores(after) == [2, 2, 3] and RULES.winners(after) == [0, 1]


def test_an_immediate_win_comes_before_the_stack_and_the_no_cups_check() -> None:
    state = position(2, {0: ["5O"], 1: ["6W", "7W"]}, ["4C", "9W", "3S"], [])
    after = play(state, 0, "5O")
    assert after.ended == "win" and RULES.winners(after) == [0]
    assert "4C" in after.dump  # no reshuffle happened


def test_the_match_ends_after_2000_turns_with_the_fewest_cards() -> None:
    state = position(
        2, {0: ["9S", "2W"], 1: ["10S", "7W", "8W"]}, ["4C", "7S"], ["3O"], turn=TURN_CAP - 2
    )
    state = play(state, 0, "9S")
    assert not RULES.is_over(state) and state.turn == TURN_CAP - 1
    state = play(state, 1, "10S")
    assert state.ended == "cap" and state.turn == TURN_CAP
    assert RULES.scores(state) == [1, 2] and RULES.winners(state) == [0]
    assert RULES.to_act(state) == [] and RULES.legal_actions(state, 0) == []


def test_no_cups_left_is_checked_before_the_turn_cap() -> None:
    state = position(2, {0: ["5O", "2W"], 1: ["6W", "7W"]}, ["4C", "3S"], [], turn=TURN_CAP - 1)
    after = play(state, 0, "5O")
    assert after.ended == "no_cups" and RULES.winners(after) == [0]


@pytest.mark.parametrize(
    ("counts", "winners"), [("single", [0, 1]), ("double", [1]), ("none", [0])]
)
def test_graveyard_counts_decide_the_fewest_cards_at_the_end(
    counts: str, winners: list[int]
) -> None:
    state = position(
        2,
        {0: ["5O", "2W"], 1: ["6W", "7W", "8W"]},
        ["4C", "3S"],
        [],
        graveyards={0: [["2O", "3O"]]},
        options={"graveyard_counts": counts},
    )
    after = play(state, 0, "5O")
    assert after.ended == "no_cups" and RULES.winners(after) == winners


def test_the_next_player_is_found_after_the_reversal() -> None:
    state = position(3, {0: ["9W", "2O"], 1: ["3O"], 2: ["4O"]}, ["5C"], [], direction=RIGHT)
    after = play(state, 0, "9W")  # on an active Cup: no draw, so no reshuffle
    assert after.direction == LEFT and after.current == 1 and after.shuffles == 2


# --- variants ---------------------------------------------------------------------------------


def test_sit_out_an_empty_handed_player_sits_out_and_is_skipped() -> None:
    state = position(
        3,
        {0: ["9S"], 1: ["2W", "QC"], 2: ["10S", "4W"]},
        ["7S"],
        ["5W", "6W", "7W", "8W"],
        graveyards={0: [["2O", "3O"]]},
        options={"sit_out": True},
    )
    state = play(state, 0, "9S")
    assert state.hands[0] == () and state.graveyards[0] == (("2O", "3O"),)
    assert state.current == 2 and RULES.view(state, 1)["sitting_out"] == [0]
    state = play(state, 2, "10S")
    assert state.current == 1
    state = play(state, 1, "2W")  # draws 2
    assert state.current == 2  # seat 0 is skipped


def test_sit_out_players_give_no_gifts_and_do_not_count_for_court_draws() -> None:
    base = dict(
        graveyards={0: [["2O"]]},
        options={"sit_out": True},
        current=1,
    )
    state = position(3, {1: ["AS", "PW"], 2: ["4W"]}, ["7S"], ["5W", "6W", "7W"], **base)
    after = play(state, 1, "AS")
    assert RULES.to_act(after) == [2]
    after = play(state, 1, "PW")
    assert after.hands[1] == ("AS", "5W", "6W")  # two players still in the game


def test_sit_out_without_a_graveyard_still_wins_at_once() -> None:
    state = position(
        3, {0: ["9S"], 1: ["2W"], 2: ["3W"]}, ["7S"], ["5W"], options={"sit_out": True}
    )
    assert RULES.winners(play(state, 0, "9S")) == [0]


def test_sit_out_the_aces_player_is_not_sitting_out_while_gifts_may_refill_their_hand() -> None:
    state = position(
        3,
        {0: ["AS"], 1: ["5O", "QC"], 2: ["6O"]},
        ["7S"],
        ["4W"],
        graveyards={0: [["2O"]]},
        options={"sit_out": True},
    )
    state = play(state, 0, "AS")  # the last card: the gifts decide
    assert state.phase == "gift" and state.hands[0] == ()
    assert RULES.view(state, 1)["sitting_out"] == []
    assert RULES.view(gift(state, 1, None), None)["sitting_out"] == [], "still awaited: seat 2"
    refilled = gift(gift(state, 1, "5O"), 2, None)
    assert refilled.hands[0] == ("5O",) and RULES.view(refilled, None)["sitting_out"] == []
    nothing = gift(gift(state, 1, None), 2, None)
    assert nothing.graveyards[0] == (("2O",),) and RULES.view(nothing, None)["sitting_out"] == [0]


def test_sit_out_a_player_who_sheds_every_card_wins_and_is_not_listed_as_sitting_out() -> None:
    state = position(
        3,
        {0: ["9S"], 1: ["2W"]},
        ["7S"],
        ["5W"],
        graveyards={2: [["2O", "3O"]]},
        options={"sit_out": True},
    )
    assert RULES.view(state, None)["sitting_out"] == [2]
    after = play(state, 0, "9S")
    assert after.ended == "win" and RULES.winners(after) == [0]
    assert RULES.view(after, 1)["sitting_out"] == [2]


def test_sit_out_when_nobody_has_cards_in_hand_the_smallest_graveyard_wins() -> None:
    state = position(
        2,
        {0: ["9S"]},
        ["7S"],
        ["5W"],
        graveyards={0: [["2O", "3O"]], 1: [["4O", "5O", "QC"]]},
        options={"sit_out": True},
    )
    after = play(state, 0, "9S")
    assert after.ended == "no_hands" and RULES.winners(after) == [0]
    assert RULES.scores(after) == [2, 3]


@pytest.mark.parametrize("cup", ["QC", "QW"])
def test_sit_out_smallest_graveyard_counts_cards_even_when_graveyards_count_none(cup: str) -> None:
    # With "QW" no Cup is left either: the no-hands ending is checked first and still decides.
    state = position(
        3,
        {0: ["9S"]},
        ["7S"],
        ["5W"],
        graveyards={0: [["2O", "3O", "4O"]], 1: [["5O", "6O", "7O", cup]], 2: [["8O", "9O"]]},
        options={"sit_out": True, "graveyard_counts": "none"},
    )
    after = play(state, 0, "9S")
    assert after.ended == "no_hands" and RULES.winners(after) == [2]
    assert RULES.scores(after) == [0, 0, 0]  # the shown scores still follow graveyard_counts
    assert RULES.view(after, None)["sitting_out"] == [0, 1, 2], "everyone is out of the round"
    assert RULES.view(after, 1)["message"] == (
        "Seat 3 wins with the smallest graveyard: nobody has cards in hand."
    )


def test_sit_out_equal_smallest_graveyards_share_the_win() -> None:
    state = position(
        3,
        {0: ["9S"]},
        ["7S"],
        ["5W"],
        graveyards={0: [["2O", "3O"]], 1: [["5O", "6O", "QC"]], 2: [["8O", "9O"]]},
        options={"sit_out": True, "graveyard_counts": "double"},
    )
    after = play(state, 0, "9S")
    assert after.ended == "no_hands" and RULES.winners(after) == [0, 2]


def test_without_sit_out_an_empty_hand_always_picks_up() -> None:
    state = position(3, {0: ["9S"], 1: ["2W"], 2: ["3W"]}, ["7S"], ["5W"], graveyards={0: [["2O"]]})
    after = play(state, 0, "9S")
    assert after.hands[0] == ("2O",) and RULES.view(after, 1)["sitting_out"] == []


def test_cups_aside_the_played_cup_goes_aside_yet_stays_the_active_cup() -> None:
    state = stacked(
        3, {2: ["7C", "2O"], 1: ["9C", "3O"]}, "7S", ["2W"], options={"cups_aside": True}
    )
    state = play(state, 2, "7C")
    assert state.aside == ("7C",) and state.dump == () and state.active == "7C"
    view = RULES.view(state, 1)
    assert view["active"] == "7C" and view["active_is_cup"] and view["aside"] == ["7C"]
    assert "9C" not in plays(state, 1)
    state = play(state, 1, "3O")  # on the active Cup: no draw, and play reverses
    assert state.dump == ("3O",) and state.active == "3O" and state.direction == LEFT
    assert state.current == 2


def test_cups_aside_cups_put_aside_are_out_of_play_for_the_no_cups_check() -> None:
    state = position(
        2, {0: ["7C", "2W"], 1: ["3W", "4W", "5W"]}, ["5S", "7S"], options={"cups_aside": True}
    )
    after = play(state, 0, "7C")
    assert after.ended == "no_cups" and RULES.scores(after) == [3, 3]
    assert RULES.winners(after) == [0, 1]
    # Without the option the played Cup stays in the dump and the game goes on.
    plain = replace(state, cups_aside=False)
    assert not RULES.is_over(play(plain, 0, "7C"))


def test_cups_aside_a_graveyard_turn_on_an_aside_cup_reshuffles_the_dump_top_too() -> None:
    # The active card due to leave is the aside Cup, already out of play: nothing leaves
    # from the dump's top, whose card is shuffled back into the stack with the rest.
    state = position(
        2,
        {0: ["4C", "2C"], 1: ["2W"]},
        ["6C", "5S", "9W"],
        ["3W"],
        active="7C",
        aside=["7C"],
        options={"cups_aside": True},
    )
    assert RULES.legal_actions(state, 0) == [{"type": "graveyard"}]
    out = set(state.out)
    after = grave(state, 0)
    assert after.hands[0] == ("3W",) and after.graveyards[0] == (("4C", "2C"),)
    assert set(after.out) - out == {"6C"} and after.aside == ("7C",)
    order = shuffled(["5S", "9W"], SEED, 2)
    assert after.dump == order[:1] and after.active == order[0] and after.stack == order[1:]
    assert RULES.view(after, 1)["last"]["reshuffled"] is True
    assert total(after) == 56 and after.current == 1


@pytest.mark.parametrize(("counts", "expected"), [("single", 5), ("double", 8), ("none", 2)])
def test_graveyard_counts_single_double_or_none(counts: str, expected: int) -> None:
    state = position(
        2,
        {0: ["9S", "2W"], 1: ["3W"]},
        ["7S"],
        ["5W"],
        graveyards={0: [["2O", "3O"], ["4O"]]},
        options={"graveyard_counts": counts},
    )
    assert RULES.scores(state) == [expected, 1]
    assert RULES.view(state, 1)["scores"] == [expected, 1]


# --- views --------------------------------------------------------------------------------------


def test_a_view_never_shows_another_hand_or_the_stack() -> None:
    state = stacked(4, {}, "7S")
    for seat in (0, 1, 2, 3, None):
        view = RULES.view(state, seat)
        text = json.dumps(view)
        for other in range(4):
            if other != seat:
                assert not any(f'"{c}"' in text for c in state.hands[other])
        assert not any(f'"{c}"' in text for c in state.stack)
        assert view["stack_size"] == len(state.stack) and view["dump_size"] == 1
        assert view["active"] == "7S" and view["direction"] == "right"
        hidden = RULES.hidden_cards(state, seat)
        assert set(state.stack) <= hidden and "7S" not in hidden
    assert RULES.view(state, 1)["hand"] == list(state.hands[1])
    assert RULES.view(state, None)["hand"] == []


def test_view_message_and_phase_name_what_is_awaited() -> None:
    state = stacked(3, {2: ["AS"]}, "7S")
    view = RULES.view(state, 0)
    assert view["phase"] == "play" and view["message"] == "Seat 3 to play."
    assert view["last"] is None
    state = play(state, 2, "AS")
    view = RULES.view(state, 0)
    assert view["phase"] == "gift"
    assert (
        view["message"]
        == "Seat 3 played an ace: waiting for Seat 1 and Seat 2 to give a card or none."
    )


def test_a_hand_is_shown_suit_by_suit_low_to_high() -> None:
    played = random_match(RULES, 3, seed=4)
    order = {card: i for i, card in enumerate(RULES.deck(3))}
    for state in played.states[::7]:
        for seat in range(3):
            hand = RULES.view(state, seat)["hand"]
            assert hand == sorted(hand, key=order.__getitem__)
            assert sorted(hand) == sorted(state.hands[seat])
