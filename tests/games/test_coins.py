"""Scenario tests for Coins (games/coins.py), one per rule sentence and ruling.

Rule source: the published rule text of "Coins" by Mark Steere, with our rulings in
docs/rules/coins.md. Every test starts from a stacked deck and a fixed dealer; ``stack``
turns "these cards in these hands" into the deck order the engine deals from (the whole
deck, one card at a time, clockwise, beginning on the dealer's left).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace

import pytest

from games import IllegalAction
from games.coins.rules import DECK, RULES, CoinsState, coin_points, winning_card
from games.kit.cards import shuffled


def stack(hands: Mapping[int, Sequence[str]], dealer: int) -> list[str]:
    """The deck (top first) that gives each seat the named cards (the rest filled in)."""
    named = [c for cards in hands.values() for c in cards]
    assert len(named) == len(set(named)), "a card is named twice"
    spare = [c for c in DECK if c not in named]
    full = {s: list(hands.get(s, ())) for s in range(3)}
    for s in range(3):
        while len(full[s]) < 16:
            full[s].append(spare.pop(0))
    deck = []
    for i in range(48):
        seat = (dealer + 1 + i) % 3
        deck.append(full[seat][i // 3])
    return deck


def new(
    hands: Mapping[int, Sequence[str]], dealer: int = 0, target: int = 15, seed: int = 5
) -> CoinsState:
    return RULES.new_game(3, seed, {"dealer": dealer, "target": target}, stack(hands, dealer))


def play(state: CoinsState, seat: int, card: str) -> CoinsState:
    return RULES.apply(state, seat, {"type": "play", "card": card})


def trick(state: CoinsState, *cards: str) -> CoinsState:
    """The awaited seats play ``cards`` in turn."""
    for card in cards:
        (seat,) = RULES.to_act(state)
        state = play(state, seat, card)
    return state


# --- materials and setup --------------------------------------------------------------


def test_the_spanish_deck_has_48_cards_in_four_suits() -> None:
    deck = RULES.deck(3)
    assert len(deck) == len(set(deck)) == 48
    assert {c[-1] for c in deck} == {"C", "O", "S", "B"}
    assert {c[:-1] for c in deck} == {"A", "K", "N", "J", *map(str, range(2, 10))}


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_the_whole_deck_is_dealt_one_at_a_time_clockwise_from_the_dealers_left(
    dealer: int,
) -> None:
    deck = list(DECK)
    state = RULES.new_game(3, 1, {"dealer": dealer}, deck)
    for i in range(3):
        seat = (dealer + 1 + i) % 3
        assert set(state.hands[seat]) == set(deck[i::3])
        assert len(state.hands[seat]) == 16


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_the_player_to_the_dealers_left_leads_and_the_dealer_plays_last(dealer: int) -> None:
    state = new({}, dealer=dealer)
    order = []
    for _ in range(3):
        (seat,) = RULES.to_act(state)
        order.append(seat)
        state = play(state, seat, state.hands[seat][0])
    assert order == [(dealer + 1) % 3, (dealer + 2) % 3, dealer]


def test_first_dealer_is_chosen_by_the_seeded_rng_unless_the_dealer_option_is_given() -> None:
    dealers = {RULES.new_game(3, seed).dealer for seed in range(30)}
    assert dealers == {0, 1, 2}
    assert RULES.new_game(3, 9).dealer == RULES.new_game(3, 9).dealer
    for dealer in range(3):
        assert RULES.new_game(3, 9, {"dealer": dealer}).dealer == dealer


def test_the_target_option_is_10_15_or_20_default_15() -> None:
    assert RULES.default_options() == {"target": 15}
    for target in (10, 15, 20):
        assert RULES.new_game(3, 1, {"target": target}).target == target
    for bad in (12, 0, "15", True, 25):
        with pytest.raises(IllegalAction):
            RULES.new_game(3, 1, {"target": bad})


# --- trick shapes ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "winner"),
    [
        # Missing clubs: cups beat coins, coins beat swords -> cups win.
        (("2C", "AO", "AS"), "2C"),
        # Missing cups: coins beat swords, swords beat clubs -> coins win.
        (("AS", "2O", "AB"), "2O"),
        # Missing coins: swords beat clubs, clubs beat cups -> swords win.
        (("AC", "AB", "2S"), "2S"),
        # Missing swords: clubs beat cups, cups beat coins -> clubs win.
        (("AO", "2B", "AC"), "2B"),
    ],
)
def test_three_suits_the_suit_after_the_missing_one_wins(
    cards: tuple[str, ...], winner: str
) -> None:
    assert winning_card(cards) == winner
    # At the table, in every seating order: rank does not matter, only the suits.
    for rotation in range(3):
        order = cards[rotation:] + cards[:rotation]
        state = new({1: [order[0]], 2: [order[1]], 0: [order[2]]}, dealer=0)
        state = trick(state, *order)
        expected = {1: order[0], 2: order[1], 0: order[2]}
        assert expected[state.last_winner] == winner


@pytest.mark.parametrize(
    ("cards", "winner"),
    [
        (("3C", "9C", "AO"), "9C"),  # the odd card loses even as an ace
        (("KS", "AB", "NS"), "KS"),
        (("AB", "2O", "JB"), "AB"),
        (("5O", "AC", "6O"), "6O"),
    ],
)
def test_a_pair_and_an_odd_card_the_higher_of_the_pair_wins(
    cards: tuple[str, ...], winner: str
) -> None:
    assert winning_card(cards) == winner
    state = new({1: [cards[0]], 2: [cards[1]], 0: [cards[2]]}, dealer=0)
    state = trick(state, *cards)
    played = {1: cards[0], 2: cards[1], 0: cards[2]}
    assert played[state.last_winner] == winner


@pytest.mark.parametrize(
    ("cards", "winner"),
    [
        (("2O", "AO", "KO"), "AO"),
        (("NS", "KS", "JS"), "KS"),
        (("JC", "NC", "9C"), "NC"),
        (("9B", "JB", "2B"), "JB"),
        (("3B", "9B", "8B"), "9B"),
    ],
)
def test_one_suit_the_highest_ranked_card_wins(cards: tuple[str, ...], winner: str) -> None:
    assert winning_card(cards) == winner


def test_ranks_high_to_low_ace_king_knight_knave_nine_to_two() -> None:
    ranks = ["A", "K", "N", "J", "9", "8", "7", "6", "5", "4", "3", "2"]
    for i, high in enumerate(ranks):
        for low in ranks[i + 1 :]:
            assert winning_card([f"{low}C", f"{high}C", "2O"]) == f"{high}C"


# --- scoring and play -------------------------------------------------------------------


def test_each_coins_card_in_a_won_trick_is_one_point_to_the_winner() -> None:
    assert coin_points(["AO", "2O", "5C"]) == 2
    # A pair of coins and a club: the ace of coins takes both coins.
    state = new({1: ["AO"], 2: ["2B"], 0: ["KO"]}, dealer=0)
    state = trick(state, "AO", "2B", "KO")
    assert state.last_winner == 1 and state.last_points == 2
    assert RULES.scores(state) == [0, 2, 0]
    assert RULES.view(state, 0)["last_trick"]["points"] == 2
    # Missing swords: the club wins and takes the coin that another seat played.
    state = new({1: ["AO"], 2: ["2B"], 0: ["KC"]}, dealer=0)
    state = trick(state, "AO", "2B", "KC")
    assert state.last_winner == 2 and state.last_points == 1
    assert RULES.scores(state) == [0, 0, 1]


def test_a_trick_without_coins_is_worth_nothing() -> None:
    state = new({1: ["AC"], 2: ["KC"], 0: ["AS"]}, dealer=0)
    state = trick(state, "AC", "KC", "AS")
    assert state.last_winner == 1 and RULES.scores(state) == [0, 0, 0]


def test_any_card_may_be_played_there_is_no_suit_to_follow() -> None:
    state = new({1: ["AC"]}, dealer=0)
    state = play(state, 1, "AC")
    offered = [a["card"] for a in RULES.legal_actions(state, 2)]
    assert sorted(offered) == sorted(state.hands[2])


def test_the_trick_winner_leads_the_next_trick() -> None:
    state = new({1: ["2C"], 2: ["3C"], 0: ["AC"]}, dealer=0)
    state = trick(state, "2C", "3C", "AC")
    assert state.last_winner == 0 and RULES.to_act(state) == [0]


def test_you_may_only_play_a_card_you_hold_and_only_on_your_turn() -> None:
    state = new({1: ["AC"], 2: ["KC"]}, dealer=0)
    with pytest.raises(IllegalAction, match="do not hold KC"):
        play(state, 1, "KC")
    with pytest.raises(IllegalAction, match="turn"):
        play(state, 2, "KC")
    with pytest.raises(IllegalAction, match="not a card"):
        play(state, 1, "QC")


def test_collected_tricks_lie_face_down_after_the_next_trick_starts() -> None:
    state = new({1: ["2C", "5S"], 2: ["3C"], 0: ["AC"]}, dealer=0)
    state = trick(state, "2C", "3C", "AC")
    view = RULES.view(state, 1)
    assert [c["card"] for c in view["last_trick"]["cards"]] == ["2C", "3C", "AC"]
    assert view["last_trick"]["winner"] == 0
    state = play(state, 0, state.hands[0][0])
    view = RULES.view(state, 1)
    assert view["last_trick"] is None
    assert "3C" not in json.dumps(view) and "AC" not in json.dumps(view)
    assert {"2C", "3C", "AC"} <= RULES.hidden_cards(state, 0)


def test_views_show_own_hand_and_others_hand_sizes_spectators_no_hand() -> None:
    state = new({0: ["AO"], 1: ["KO"], 2: ["NO"]}, dealer=0)
    view = RULES.view(state, 0)
    assert "AO" in view["hand"] and view["hand_sizes"] == [16, 16, 16]
    assert "KO" not in json.dumps(view) and "NO" not in json.dumps(view)
    spectator = RULES.view(state, None)
    assert spectator["hand"] == [] and spectator["legal_actions"] == []
    assert spectator["to_act"] == [1] and spectator["hand_number"] == 1


# --- the end of the match -----------------------------------------------------------


def test_the_target_is_checked_after_every_trick_and_ends_the_game_mid_hand() -> None:
    hands = {1: ["AO", "KO", "NO", "JO"], 2: ["9O", "7O", "5O", "3O"], 0: ["8O", "6O", "4O", "2O"]}
    state = new(hands, dealer=0, target=10)
    for n, lead in enumerate(["AO", "KO", "NO"]):
        state = trick(state, lead, hands[2][n], hands[0][n])
        assert RULES.scores(state) == [0, 3 * (n + 1), 0] and not RULES.is_over(state)
    state = trick(state, "JO", "3O", "2O")
    assert RULES.scores(state) == [0, 12, 0]
    assert RULES.is_over(state) and RULES.winners(state) == [1]
    assert state.tricks_played == 4 and RULES.to_act(state) == []
    assert all(len(h) == 12 for h in state.hands)
    assert "won" in RULES.view(state, 0)["message"]


@pytest.mark.parametrize("target", [10, 15, 20])
def test_reaching_exactly_the_target_wins(target: int) -> None:
    state = new({1: ["AO"], 2: ["2O"], 0: ["3C"]}, dealer=0, target=target)
    state = replace(state, scores=(0, target - 2, 0))
    state = trick(state, "AO", "2O", "3C")  # a pair of coins and a cup: the ace of coins
    assert RULES.scores(state)[1] == target and RULES.winners(state) == [1]


def _play_out_hand(state: CoinsState) -> tuple[CoinsState, int]:
    """Play every awaited seat's first card until a new hand is dealt; return the last
    trick's winner of the finished hand."""
    hand_no = state.hand_no
    last_winner = -1
    while state.hand_no == hand_no:
        (seat,) = RULES.to_act(state)
        state = play(state, seat, state.hands[seat][0])
        if state.hand_no == hand_no and not state.trick:
            last_winner = state.last_winner
        elif state.hand_no != hand_no:
            last_winner = state.previous[-1]
    return state, last_winner


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_next_hand_is_dealt_by_the_player_to_the_right_of_the_last_tricks_winner(
    dealer: int,
) -> None:
    state = new({}, dealer=dealer, target=20)
    state, winner = _play_out_hand(state)
    assert not RULES.is_over(state), "a hand holds only 12 points: 20 cannot be reached"
    assert state.hand_no == 2 and state.tricks_played == 0
    assert state.dealer == (winner - 1) % 3
    # So the winner of the last trick, on the new dealer's left, leads.
    assert RULES.to_act(state) == [winner]
    # A fresh shuffle from the seed, dealt from the new dealer's left.
    cards = shuffled(DECK, 5, 2)
    for i in range(3):
        assert set(state.hands[(state.dealer + 1 + i) % 3]) == set(cards[i::3])
    assert state.won == ((), (), ())
    view = RULES.view(state, None)
    assert view["previous_hand"]["last_trick_winner"] == winner
    assert view["last_trick"] is None and view["hand_number"] == 2


def test_sixteen_tricks_a_hand() -> None:
    state = new({}, dealer=0, target=20)
    tricks = 0
    hand_no = state.hand_no
    while state.hand_no == hand_no:
        before = state.tricks_played
        (seat,) = RULES.to_act(state)
        state = play(state, seat, state.hands[seat][0])
        if state.tricks_played != before:
            tricks += 1
    assert tricks == 16
    assert sum(state.previous[1:4]) == 12, "all 12 coins were scored in the hand"


def test_a_refused_action_changes_nothing() -> None:
    state = new({1: ["AC"]}, dealer=0)
    before = state
    with pytest.raises(IllegalAction):
        RULES.apply(state, 1, {"type": "play", "card": "AC", "extra": True})
    with pytest.raises(IllegalAction):
        RULES.apply(state, 1, {"type": "draw"})
    assert state == before
