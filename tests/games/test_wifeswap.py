"""Scenario tests for Royal Wife-Swap (games/wifeswap), one per rule sentence and ruling.

Rule source: the published rule text of "Royal Wife-Swap" by Roger Kingdon (2008), with our
rulings; docs/rules/wifeswap.md is the rules page these tests pin down.
Decks are stacked with ``deal_order``; a few end-of-round tests shorten the stock or set
counters with ``dataclasses.replace`` to reach a rare situation without playing 200 tricks.
"""

from __future__ import annotations

import contextlib
import copy
import json
import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

import games
from games.kit.base import IllegalAction
from games.wifeswap.families import DECK, family_points, trick_winner
from games.wifeswap.rules import RULES, WifeSwapState
from tests.games.randomplay import card_codes_in

RANK_ORDER = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]


def deal_order(
    seats: int, dealer: int, hands: dict[int, Sequence[str]], stock: Sequence[str] = ()
) -> list[str]:
    """A full deck whose deal gives ``hands`` (7 each) and whose stock starts with ``stock``."""
    order: list[str] = []
    for i in range(7 * seats):
        seat = (dealer + 1 + i) % seats
        order.append(hands[seat][i // seats])
    order.extend(stock)
    order.extend(c for c in DECK if c not in order)
    assert sorted(order) == sorted(DECK)
    return order


def new(
    seats: int,
    dealer: int,
    hands: dict[int, Sequence[str]],
    stock: Sequence[str] = (),
    **options: Any,
) -> WifeSwapState:
    return RULES.new_game(
        seats, 7, {"dealer": dealer, **options}, deal_order(seats, dealer, hands, stock)
    )


def play(state: WifeSwapState, *cards: str) -> WifeSwapState:
    """Play cards in turn order."""
    for card in cards:
        (seat,) = RULES.to_act(state)
        state = RULES.apply(state, seat, {"type": "play", "card": card})
    return state


def arrange(
    state: WifeSwapState, families: list[list[str]], orphans: list[str] | None = None
) -> WifeSwapState:
    action: dict[str, Any] = {"type": "arrange", "families": families}
    if orphans is not None:
        action["orphans"] = orphans
    return RULES.apply(state, state.arranger, action)


def refused(state: WifeSwapState, seat: int, action: Any, match: str) -> None:
    snapshot = copy.deepcopy(state)
    with pytest.raises(IllegalAction, match=match):
        RULES.apply(state, seat, action)
    assert state == snapshot


def pass_(state: WifeSwapState) -> WifeSwapState:
    return RULES.apply(state, state.arranger, {"type": "pass"})


# Three seats, dealer 2, so seat 0 leads. Seat 0 wins the first two tricks with aces.
SEAT0 = ["AC", "AD", "KS", "QH", "7H", "QS", "2C"]
SEAT1 = ["3D", "3H", "4H", "5H", "6H", "8H", "9H"]
SEAT2 = ["4D", "3S", "4S", "7S", "8S", "9S", "10S"]
STOCK = ["5C", "6C", "8C", "9C", "5S", "6S", "7C"]


def opening() -> WifeSwapState:
    return new(3, 2, {0: SEAT0, 1: SEAT1, 2: SEAT2}, STOCK)


def after_first_family() -> WifeSwapState:
    """Seat 0 won trick 1 (AC, 3D, 4D) and laid KS QH 7H from hand; seat 0 leads trick 2."""
    state = play(opening(), "AC", "3D", "4D")
    return arrange(state, [["KS", "QH", "7H"]])


# --- the deal ---------------------------------------------------------------------------------


def test_deal_seven_each_clockwise_from_dealers_left_rest_is_stock_top_first() -> None:
    order = deal_order(4, 1, {s: DECK[7 * s : 7 * s + 7] for s in range(4)})
    state = RULES.new_game(4, 3, {"dealer": 1}, order)
    assert order[0] in state.hands[2] and order[1] in state.hands[3]
    assert order[2] in state.hands[0] and order[3] in state.hands[1]
    for seat in range(4):
        assert sorted(state.hands[seat]) == sorted(DECK[7 * seat : 7 * seat + 7])
    assert state.stock == tuple(order[28:])
    assert len(state.stock) == 52 - 28


def test_dealers_left_leads_the_first_trick() -> None:
    state = opening()
    assert state.dealer == 2 and RULES.to_act(state) == [0]


def test_first_dealer_is_random_by_seed_and_the_deal_passes_left() -> None:
    dealers = {RULES.new_game(4, seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert RULES.new_game(4, 11).dealer == RULES.new_game(4, 11).dealer
    state = RULES.new_game(3, 5, {"dealer": 1, "rounds": 2})
    first = state
    while state.round_no == 1:
        state = _play_passing(state)
    assert state.dealer == 2 and RULES.to_act(state) == [0]
    assert state.hands != first.hands


def _play_passing(state: WifeSwapState) -> WifeSwapState:
    """One step: the first legal card, or a pass."""
    (seat,) = RULES.to_act(state)
    return RULES.apply(state, seat, RULES.legal_actions(state, seat)[0])


# --- tricks -----------------------------------------------------------------------------------


def test_ruling_example_2d_led_2c_void_3d_wins() -> None:
    assert trick_winner(((0, "2D"), (1, "2C"), (2, "3D"))) == 2
    state = new(
        3,
        2,
        {
            0: ["2D", "5S", "6S", "7S", "8S", "9S", "JS"],
            1: ["2C", "5C", "6C", "7C", "8C", "9C", "JC"],
            2: ["3D", "5H", "6H", "7H", "8H", "9H", "JH"],
        },
    )
    state = play(state, "2D", "2C", "3D")
    assert state.arranger == 2


def test_ranks_first_then_suits_spades_hearts_clubs_diamonds() -> None:
    assert trick_winner(((0, "2D"), (1, "2C"))) == 1
    assert trick_winner(((0, "2C"), (1, "2H"), (2, "2S"))) == 2
    assert trick_winner(((0, "KS"), (1, "AD"), (2, "QS"))) == 1


def test_a_void_card_wins_the_trick() -> None:
    state = new(
        3,
        2,
        {
            0: ["5D", "5S", "6S", "7S", "8S", "9S", "JS"],
            1: ["AH", "5C", "6C", "7C", "8C", "9C", "JC"],
            2: ["6D", "5H", "6H", "7H", "8H", "9H", "JH"],
        },
    )
    state = play(state, "5D", "AH", "6D")
    assert state.arranger == 1


def test_ruling_example_ks_2s_as_nemesis_2s_wins() -> None:
    assert trick_winner(((0, "KS"), (1, "2S"), (2, "AS"))) == 1


def test_every_nemesis_pair_2k_3q_4j_5_10_only_in_the_same_suit() -> None:
    assert trick_winner(((0, "QH"), (1, "3H"), (2, "9H"))) == 1
    assert trick_winner(((0, "JC"), (1, "4C"), (2, "9C"))) == 1
    assert trick_winner(((0, "10D"), (1, "5D"), (2, "9D"))) == 1
    # 2S does not beat QS nor KH: only the particular pairing counts.
    assert trick_winner(((0, "QS"), (1, "2S"), (2, "3D"))) == 0
    assert trick_winner(((0, "KH"), (1, "2S"), (2, "3D"))) == 0


def test_ruling_example_two_nemesis_pairs_kd_2d_qs_3s_2d_wins() -> None:
    assert trick_winner(((0, "KD"), (1, "2D"), (2, "QS"), (3, "3S"))) == 1
    # Same rank of court card: the suit order decides (KS over KH).
    assert trick_winner(((0, "KH"), (1, "2H"), (2, "KS"), (3, "2S"))) == 3


def test_two_nemesis_pairs_in_a_played_trick() -> None:
    hands = {
        0: ["KD", "5S", "6S", "7S", "8S", "9S", "AC"],
        1: ["2D", "5C", "6C", "7C", "8C", "9C", "AS"],
        2: ["QS", "5H", "6H", "7H", "8H", "9H", "AH"],
        3: ["3S", "4H", "4C", "10H", "10C", "2H", "2C"],
    }
    state = new(4, 3, hands)
    state = play(state, "KD", "2D", "QS", "3S")
    assert state.arranger == 1


def test_players_must_follow_suit_when_able() -> None:
    state = play(opening(), "AC")
    # Seat 1 holds no clubs: any card may be played.
    assert len(RULES.legal_actions(state, 1)) == 7
    follow = new(
        3,
        2,
        {
            0: ["2D", "5S", "6S", "7S", "8S", "9S", "JS"],
            1: ["9D", "5C", "6C", "7C", "8C", "9C", "JC"],
            2: ["3D", "5H", "6H", "7H", "8H", "9H", "JH"],
        },
    )
    follow = play(follow, "2D")
    assert RULES.legal_actions(follow, 1) == [{"type": "play", "card": "9D"}]
    refused(follow, 1, {"type": "play", "card": "5C"}, "follow suit: you hold diamonds")


def test_play_refusals_say_why() -> None:
    state = opening()
    refused(state, 0, {"type": "play", "card": "3D"}, "do not hold")
    refused(state, 0, {"type": "play", "card": "ZZ"}, "not a card code")
    refused(state, 0, {"type": "pass"}, "play a card")
    refused(state, 1, {"type": "play", "card": "3D"}, "not your turn")


# --- scoring ----------------------------------------------------------------------------------


def test_ruling_examples_family_points() -> None:
    assert family_points(["KS", "QS", "7S", "AS"]) == 56
    assert family_points(["KH", "QC", "9H", "4C"]) == 33
    assert family_points(["JD", "10S", "6D"]) == 26


def test_card_values_ace_one_pips_courts_ten_royal_doubles() -> None:
    assert family_points(["KH", "QD"]) == 20
    assert family_points(["KH", "QH"]) == 40
    assert family_points(["KH", "QD", "JH", "10D", "AH", "2D"]) == 43
    assert family_points(["JH", "10D", "9H", "AD"]) == 30


# --- the arrangement step ---------------------------------------------------------------------


def test_winner_alone_arranges_after_the_trick() -> None:
    state = play(opening(), "AC", "3D", "4D")
    assert RULES.to_act(state) == [0]
    assert state.arranger == 0
    refused(state, 1, {"type": "pass"}, "not your turn")
    refused(state, 0, {"type": "play", "card": "AD"}, "arrange your families or pass")


def test_hand_cards_laid_without_trick_cards_royal_marriage() -> None:
    state = play(opening(), "AC", "3D", "4D")
    state = arrange(state, [["KS", "QS"]])
    assert state.families[0] == (("KS", "QS"),)
    view = RULES.view(state, 1)
    assert view["families"][0] == [
        {"cards": ["KS", "QS"], "kind": "senior", "royal": True, "points": 40}
    ]
    assert view["round_scores"] == [40, 0, 0]


def test_unused_trick_cards_go_under_the_stock_in_play_order_then_refill() -> None:
    state = play(opening(), "AC", "3D", "4D")
    before = state.stock
    state = arrange(state, [["KS", "QH", "7H"]])
    # Seat 0 played one and laid three: it draws four from the top, then seats 1 and 2 one each.
    assert before[:6] == ("5C", "6C", "8C", "9C", "5S", "6S")
    assert set(state.hands[0]) == {"AD", "QS", "2C", "5C", "6C", "8C", "9C"}
    assert "5S" in state.hands[1] and "6S" in state.hands[2]
    assert state.stock[-3:] == ("AC", "3D", "4D")
    assert state.stock == (*before[6:], "AC", "3D", "4D")
    assert RULES.to_act(state) == [0]


def test_partner_swap_upgrades_to_royal_and_leaves_orphans() -> None:
    state = play(after_first_family(), "AD", "3H", "3S")
    assert state.arranger == 0
    state = arrange(state, [["QS", "KS"]], ["QH", "7H"])
    assert state.families[0] == (("KS", "QS"),)
    # Unused trick cards in play order, then the orphans in the order the action listed them.
    assert state.stock[-5:] == ("AD", "3H", "3S", "QH", "7H")
    assert RULES.view(state, None)["round_scores"][0] == 40


def test_orphans_keep_the_listed_order() -> None:
    state = play(after_first_family(), "AD", "3H", "3S")
    state = arrange(state, [["KS", "QS"]], ["7H", "QH"])
    assert state.stock[-2:] == ("7H", "QH")


def test_partner_swap_is_offered_in_legal_actions() -> None:
    state = play(after_first_family(), "AD", "3H", "3S")
    listed = RULES.legal_actions(state, 0)
    upgrade = {"type": "arrange", "families": [["KS", "QS"]], "orphans": ["QH", "7H"]}
    assert upgrade in listed
    assert listed[0] == {"type": "pass"}


def test_illegal_orphan_discard_refused_when_a_family_can_hold_it() -> None:
    state = play(after_first_family(), "AD", "3H", "3S")
    refused(
        state,
        0,
        {"type": "arrange", "families": [["KS", "QH"]], "orphans": ["7H"]},
        (r"7H cannot be an orphan: family 1 \(KS QH\) can hold it"),
    )


def test_only_table_cards_can_be_orphans() -> None:
    state = play(after_first_family(), "AD", "3H", "3S")
    base = [["KS", "QH", "7H"]]
    refused(state, 0, {"type": "arrange", "families": base, "orphans": ["2C"]}, "in your hand")
    refused(state, 0, {"type": "arrange", "families": base, "orphans": ["3H"]}, "from the trick")


def test_table_cards_never_go_back_to_hand() -> None:
    state = play(after_first_family(), "AD", "3H", "3S")
    refused(state, 0, {"type": "arrange", "families": [["KS", "QH"]]}, "7H is in your families")


def test_cards_not_yours_are_refused() -> None:
    state = play(after_first_family(), "AD", "3H", "3S")
    refused(
        state, 0, {"type": "arrange", "families": [["KS", "QH", "7H"], ["KH", "QD"]]}, "not yours"
    )
    refused(state, 0, {"type": "arrange", "families": [["KS", "QH", "7H", "7H"]]}, "twice")


def test_two_orphans_that_could_marry_each_other_are_still_orphans() -> None:
    hands = {
        0: ["AC", "KS", "QH", "KH", "QS", "2C", "AD"],
        1: ["3D", "3H", "4H", "5H", "6H", "8H", "9H"],
        2: ["4D", "3S", "4S", "7S", "8S", "9S", "10S"],
    }
    state = new(3, 2, hands, STOCK)
    state = arrange(play(state, "AC", "3D", "4D"), [["KS", "QH"], ["KH", "QS"]])
    state = play(state, "AD", "3H", "3S")
    state = arrange(state, [["KS", "QS"]], ["QH", "KH"])
    assert state.families[0] == (("KS", "QS"),)
    assert state.stock[-2:] == ("QH", "KH")


def test_junior_family_jack_and_ten_of_one_suit_is_incest() -> None:
    hands = {
        0: ["AC", "JD", "10D", "10S", "6D", "8D", "AD"],
        1: ["3D", "3H", "4H", "5H", "6H", "8H", "9H"],
        2: ["4D", "3S", "4S", "7S", "8S", "9S", "2S"],
    }
    state = play(new(3, 2, hands, STOCK), "AC", "3D", "4D")
    refused(state, 0, {"type": "arrange", "families": [["JD", "10D"]]}, "incest")
    state = arrange(state, [["JD", "10S", "6D", "8D"]])
    assert RULES.view(state, None)["families"][0][0]["points"] == 34
    # The ruling's example junior family scores 26.
    assert family_points(["JD", "10S", "6D"]) == 26


def test_junior_family_has_one_jack_one_ten_no_king_or_queen_members_a_to_9() -> None:
    hands = {
        0: ["AC", "JD", "10S", "10H", "JH", "QD", "9D"],
        1: ["3D", "3H", "4H", "5H", "6H", "8H", "9H"],
        2: ["4D", "3S", "4S", "7S", "8S", "9S", "2S"],
    }
    state = play(new(3, 2, hands, STOCK), "AC", "3D", "4D")
    refused(
        state, 0, {"type": "arrange", "families": [["JD", "10S", "10H"]]}, "one jack and one ten"
    )
    refused(
        state, 0, {"type": "arrange", "families": [["JD", "10S", "QD"]]}, "one king and one queen"
    )
    refused(
        state, 0, {"type": "arrange", "families": [["JD", "10S", "AC"]]}, "AC cannot be a member"
    )
    state = arrange(state, [["JD", "10S", "9D"]])
    assert state.families[0] == (("JD", "10S", "9D"),)


def test_senior_family_exactly_one_king_one_queen_members_of_either_spouses_suit() -> None:
    hands = {
        0: ["AC", "KH", "QC", "9H", "4C", "KD", "9S"],
        1: ["3D", "3H", "4H", "5H", "6H", "8H", "9D"],
        2: ["4D", "3S", "4S", "7S", "8S", "2S", "2D"],
    }
    state = play(new(3, 2, hands, STOCK), "AC", "3D", "4D")
    refused(state, 0, {"type": "arrange", "families": [["KH", "KD", "QC"]]}, "exactly one king")
    refused(state, 0, {"type": "arrange", "families": [["KH"]]}, "exactly one king and one queen")
    refused(state, 0, {"type": "arrange", "families": [["KH", "QC", "9S"]]}, "hearts or clubs")
    refused(state, 0, {"type": "arrange", "families": [["9H", "4C"]]}, "no marriage")
    refused(state, 0, {"type": "arrange", "families": [[]]}, "no marriage")
    state = arrange(state, [["KH", "QC", "9H", "4C"]])
    assert RULES.view(state, None)["families"][0][0]["points"] == 33


def test_senior_family_may_hold_several_unmarried_jacks_and_tens() -> None:
    hands = {
        0: ["AC", "KH", "QC", "JH", "JC", "10H", "10C"],
        1: ["3D", "3H", "4H", "5H", "6H", "8H", "9D"],
        2: ["4D", "3S", "4S", "7S", "8S", "2S", "2D"],
    }
    state = play(new(3, 2, hands, STOCK), "AC", "3D", "4D")
    state = arrange(state, [["KH", "QC", "JH", "JC", "10H", "10C"]])
    assert RULES.view(state, None)["round_scores"][0] == 60


def test_marrying_off_a_bachelor_jack_from_a_senior_family() -> None:
    hands = {
        0: ["AC", "KH", "QC", "JH", "10C", "10S", "AD"],
        1: ["3D", "3H", "4H", "5H", "6H", "8H", "9D"],
        2: ["4D", "3S", "4S", "7S", "8S", "2S", "2D"],
    }
    state = play(new(3, 2, hands, STOCK), "AC", "3D", "4D")
    state = arrange(state, [["KH", "QC", "JH", "10C"]])
    state = play(state, "AD")
    state = finish_trick(state)
    assert state.arranger == 0
    listed = RULES.legal_actions(state, 0)
    marry = {"type": "arrange", "families": [["KH", "QC", "10C"], ["JH", "10S"]], "orphans": []}
    assert marry in listed
    state = RULES.apply(state, 0, marry)
    assert state.families[0] == (("KH", "QC", "10C"), ("JH", "10S"))


def finish_trick(state: WifeSwapState) -> WifeSwapState:
    """Everyone still to play plays their first legal card."""
    while state.arranger < 0:
        (seat,) = RULES.to_act(state)
        state = RULES.apply(state, seat, RULES.legal_actions(state, seat)[0])
    return state


def test_members_may_move_between_own_families_and_idle_counter_ignores_rearranging() -> None:
    hands = {
        0: ["AC", "KH", "QC", "KS", "QD", "9H", "AD"],
        1: ["3D", "3H", "4H", "5H", "6H", "8H", "9D"],
        2: ["4D", "3S", "4S", "7S", "8S", "2S", "2D"],
    }
    state = play(new(3, 2, hands, STOCK), "AC", "3D", "4D")
    state = arrange(state, [["KH", "QC", "9H"], ["KS", "QD"]])
    assert state.idle == 0
    state = play(state, "AD")
    state = finish_trick(state)
    # Swap the queens: 9H stays with KH; nothing new is laid, so it counts as an idle trick.
    state = arrange(state, [["KH", "QD", "9H"], ["KS", "QC"]])
    assert state.families[0] == (("KS", "QC"), ("KH", "QD", "9H"))
    assert state.idle == 1


def test_arrangement_accepts_any_order_and_applies_listed_ones_exactly() -> None:
    state = play(after_first_family(), "AD", "3H", "3S")
    listed = RULES.legal_actions(state, 0)
    assert 2 <= len(listed) <= 49
    for action in listed:
        RULES.apply(state, 0, action)  # each listed arrangement applies as listed
    a = arrange(state, [["7H", "QH", "KS"]], [])
    b = arrange(state, [["KS", "QH", "7H"]])
    assert a == b


def test_arrangement_shape_refusals() -> None:
    state = play(after_first_family(), "AD", "3H", "3S")
    refused(state, 0, {"type": "arrange"}, "must list 'families'")
    refused(state, 0, {"type": "arrange", "families": "KS"}, "list of families")
    refused(state, 0, {"type": "arrange", "families": [["KS", "XX"]]}, "not a card code")
    refused(state, 0, {"type": "arrange", "families": [], "extra": 1}, "only 'families'")
    refused(state, 0, {"type": "pass", "x": 1}, "no other fields")


def test_winner_arranges_only_their_own_families() -> None:
    # Seat 0 leads 2C; seat 1 (void in clubs) plays 9H; seat 2 (void) plays 10S and wins.
    state = play(after_first_family(), "2C", "9H", "10S")
    assert state.arranger == 2
    refused(
        state,
        2,
        {"type": "arrange", "families": [["KS", "QH", "7H"]]},
        "KS is not yours to lay",
    )


def test_last_completed_trick_and_winner_shown_until_the_next_trick_starts() -> None:
    state = pass_(play(after_first_family(), "AD", "3H", "3S"))
    shown = {
        "cards": [
            {"seat": 0, "card": "AD"},
            {"seat": 1, "card": "3H"},
            {"seat": 2, "card": "3S"},
        ],
        "winner": 0,
    }
    assert RULES.view(state, 2)["last_trick"] == shown
    assert RULES.view(state, None)["last_trick"] == shown
    assert RULES.view(play(state, "2C"), 2)["last_trick"] is None


# --- round end --------------------------------------------------------------------------------


def test_round_ends_after_twenty_tricks_in_a_row_without_laying() -> None:
    state = RULES.new_game(3, 9, {"dealer": 0, "rounds": 2})
    tricks = 0
    while state.round_no == 1:
        (seat,) = RULES.to_act(state)
        if state.arranger >= 0:
            state = pass_(state)
            tricks += 1
        else:
            state = RULES.apply(state, seat, RULES.legal_actions(state, seat)[0])
    assert tricks == 20
    assert state.history == ((0, 0, 0),)
    assert "20 tricks" in state.end_reason


def test_round_ends_after_two_hundred_tricks() -> None:
    state = play(opening(), "AC", "3D", "4D")
    state = replace(state, tricks=199)
    state = pass_(state)
    assert state.round_no == 2 and "200 tricks" in state.end_reason


def test_round_ends_when_a_player_has_no_cards_after_the_draws() -> None:
    state = play(opening(), "AC", "3D", "4D")
    # A short stock still fills every hand to at least one card: play goes on.
    done = arrange(replace(state, stock=state.stock[:1]), [["KS", "QH", "7H"]])
    assert done.round_no == 1 and all(done.hands)
    # Late in a round: the stock is empty and seat 2 has played its last card. The trick
    # winner takes the unused trick cards back, and seat 2 is left with nothing.
    late = replace(state, stock=(), hands=(*state.hands[:2], ()))
    done = arrange(late, [["KS", "QH"]])
    assert done.round_no == 2
    assert done.history[0] == (20, 0, 0)
    assert "no cards" in done.end_reason


def refilled_from_a_short_stock() -> WifeSwapState:
    """Seat 0 led 3D, seat 1 won with AC (4D last) and laid KS QH from hand with only three
    cards left in the stock; the unused trick cards went under it before the draws."""
    hands = {
        0: ["3D", "3H", "4H", "5H", "6H", "8H", "9H"],
        1: ["AC", "KS", "QH", "7H", "QS", "2C", "JC"],
        2: ["4D", "3S", "4S", "7S", "8S", "9S", "10S"],
    }
    state = play(new(3, 2, hands, STOCK), "3D", "AC", "4D")
    assert state.arranger == 1
    state = replace(state, stock=("5C", "6C", "8C"))
    return arrange(state, [["KS", "QH"]])


def test_refill_from_the_winner_clockwise_takes_what_is_available() -> None:
    state = refilled_from_a_short_stock()
    # Seat 1 (the winner) draws first: it needs three and gets the three stock cards; the
    # unused trick cards then follow under it: seat 2 gets 3D, seat 0 gets AC.
    assert {"5C", "6C", "8C"} <= set(state.hands[1])
    assert "3D" in state.hands[2] and "AC" in state.hands[0]
    assert state.stock == ("4D",)
    # Play restarts with the trick winner leading.
    assert RULES.to_act(state) == [1]


def test_last_trick_stays_face_up_for_everyone_after_its_cards_are_drawn_into_hands() -> None:
    state = refilled_from_a_short_stock()
    # Seat 2 drew 3D and seat 0 drew AC from under the stock; 4D is still there.
    assert "3D" in state.hands[2] and "AC" in state.hands[0] and state.stock == ("4D",)
    as_played = {
        "cards": [
            {"seat": 0, "card": "3D"},
            {"seat": 1, "card": "AC"},
            {"seat": 2, "card": "4D"},
        ],
        "winner": 1,
    }
    deck = frozenset(DECK)
    for seat in (0, 1, 2, None):
        view = RULES.view(state, seat)
        assert view["last_trick"] == as_played
        # Nothing else in the view names a card the seat cannot see: the trick is shown as
        # played, never as who holds its cards now.
        elsewhere = card_codes_in({k: v for k, v in view.items() if k != "last_trick"}, deck)
        unseen = {c for s in range(3) if s != seat for c in state.hands[s]} | set(state.stock)
        assert not elsewhere & unseen
        # The trick's cards are the only exception to what the seat may not know.
        assert RULES.hidden_cards(state, seat) == unseen - {"3D", "AC", "4D"}
    # Seat 1, neither holder, sees 3D and AC in the trick and no other card of those hands.
    third = card_codes_in(RULES.view(state, 1), deck)
    assert third & set(state.hands[2]) == {"3D"} and third & set(state.hands[0]) == {"AC"}
    # Once the next trick starts, the trick is off the table and its cards hidden again.
    led = play(state, "7H")
    assert RULES.view(led, 1)["last_trick"] is None
    assert {"3D", "AC", "4D"} <= RULES.hidden_cards(led, 1)
    assert not {"3D", "AC", "4D"} & card_codes_in(RULES.view(led, 1), deck)


def test_round_score_and_match_total_target_checked_at_round_end() -> None:
    state = play(opening(), "AC", "3D", "4D")
    state = replace(state, totals=(470, 0, 0), tricks=199)
    done = arrange(state, [["KS", "QS"]])
    assert done.over and done.totals == (510, 0, 0)
    assert RULES.winners(done) == [0]
    view = RULES.view(done, None)
    assert view["over"] and view["phase"] == "over" and view["to_act"] == []
    refused(done, 0, {"type": "pass"}, "over")


def test_tie_at_the_top_plays_another_round() -> None:
    state = play(opening(), "AC", "3D", "4D")
    state = replace(state, totals=(460, 500, 0), tricks=199)
    done = arrange(state, [["KS", "QS"]])
    assert not done.over and done.totals == (500, 500, 0) and done.round_no == 2


def test_fixed_number_of_rounds_option() -> None:
    state = new(3, 2, {0: SEAT0, 1: SEAT1, 2: SEAT2}, STOCK, rounds=1)
    state = replace(play(state, "AC", "3D", "4D"), tricks=199)
    done = arrange(state, [["KS", "QH"]])
    assert done.over and RULES.scores(done) == [20, 0, 0]
    tied = replace(
        play(new(3, 2, {0: SEAT0, 1: SEAT1, 2: SEAT2}, STOCK, rounds=1), "AC", "3D", "4D"),
        tricks=199,
    )
    again = pass_(tied)
    assert not again.over and again.round_no == 2


def test_after_fifty_rounds_the_highest_total_wins_ties_shared() -> None:
    state = replace(play(opening(), "AC", "3D", "4D"), tricks=199, round_no=50)
    done = pass_(state)
    assert done.over and RULES.winners(done) == [0, 1, 2]


# --- options ----------------------------------------------------------------------------------


def test_options_and_their_bounds() -> None:
    assert RULES.default_options() == {"target": 500, "rounds": 0}
    RULES.new_game(3, 1, {"target": 100, "rounds": 50})
    for bad in ({"rounds": 51}, {"rounds": -1}, {"target": 10}, {"target": True}, {"x": 1}):
        with pytest.raises(IllegalAction):
            RULES.new_game(3, 1, bad)
    with pytest.raises(IllegalAction):
        RULES.new_game(2, 1)
    with pytest.raises(IllegalAction):
        RULES.new_game(6, 1)


# --- views ------------------------------------------------------------------------------------


def test_view_hides_hands_and_shows_table_trick_stock_and_scores() -> None:
    state = play(after_first_family(), "AD")
    view = RULES.view(state, 1)
    json.dumps(view)
    assert view["hand"] == list(state.hands[1])
    assert view["hand_sizes"] == [6, 7, 7]
    assert view["trick"] == [{"seat": 0, "card": "AD"}]
    assert view["families"][0][0]["cards"] == ["KS", "QH", "7H"]
    assert view["families"][0][0]["points"] == 27
    assert view["stock_size"] == len(state.stock)
    assert view["round_scores"] == [27, 0, 0] and view["totals"] == [0, 0, 0]
    assert view["last_trick"] is None  # cleared when the next trick started
    assert view["phase"] == "play" and view["to_act"] == [1]
    spectator = RULES.view(state, None)
    assert spectator["hand"] == [] and spectator["legal_actions"] == []
    text = json.dumps(spectator)
    for card in state.hands[0] + state.hands[1] + state.hands[2] + state.stock:
        assert f'"{card}"' not in text


def test_view_arrange_phase_names_the_winner_and_speaks_to_them() -> None:
    state = play(opening(), "AC", "3D", "4D")
    view = RULES.view(state, 0)
    assert view["phase"] == "arrange" and view["trick_winner"] == 0
    assert view["message"] == "You won the trick and may arrange your families or pass."
    assert RULES.view(state, 1)["message"] == (
        "Seat 1 won the trick and may arrange their families or pass."
    )
    assert RULES.view(state, None)["message"].startswith("Seat 1 won the trick")
    assert view["legal_actions"][0] == {"type": "pass"}


# --- random layouts, legal and illegal --------------------------------------------------------


def _reference_family_ok(family: Sequence[str]) -> bool:
    """An independent statement of the family rules, for the random test."""
    ranks = [c[:-1] for c in family]
    suits = [c[-1] for c in family]
    if "K" in ranks or "Q" in ranks:
        if ranks.count("K") != 1 or ranks.count("Q") != 1:
            return False
        allowed = {suits[ranks.index("K")], suits[ranks.index("Q")]}
        return all(s in allowed for r, s in zip(ranks, suits, strict=True) if r not in "KQ")
    if ranks.count("J") != 1 or ranks.count("10") != 1:
        return False
    jack, ten = suits[ranks.index("J")], suits[ranks.index("10")]
    if jack == ten:
        return False
    return all(s in (jack, ten) for r, s in zip(ranks, suits, strict=True) if r not in ("J", "10"))


def _reference_ok(state: WifeSwapState, families: list[list[str]], orphans: list[str]) -> bool:
    seat = state.arranger
    table = {c for f in state.families[seat] for c in f}
    mine = table | set(state.hands[seat]) | {c for _, c in state.trick}
    used = [c for f in families for c in f] + orphans
    if len(used) != len(set(used)) or not set(used) <= mine:
        return False
    if not set(orphans) <= table or not table <= set(used):
        return False
    if not all(_reference_family_ok(f) for f in families):
        return False
    return not any(_reference_family_ok([*f, o]) for f in families for o in orphans)


def _random_layout(state: WifeSwapState, rng: random.Random) -> tuple[list[list[str]], list[str]]:
    seat = state.arranger
    table = [c for f in state.families[seat] for c in f]
    pool = table + list(state.hands[seat]) + [c for _, c in state.trick]
    if rng.random() < 0.1:
        pool.append(rng.choice(DECK))
    listed = RULES.legal_actions(state, seat)[1:]
    if listed and rng.random() < 0.5:
        pick = rng.choice(listed)
        families = [list(f) for f in pick["families"]]
        orphans = list(pick["orphans"])
        # Perturb: move, drop or add one card, or keep it as is.
        move = rng.randrange(4)
        if move == 1 and families:
            f = rng.choice(families)
            if f:
                card = f.pop(rng.randrange(len(f)))
                rng.choice([*families, orphans]).append(card)
        elif move == 2:
            rng.choice([*families, orphans]).append(rng.choice(pool))
        elif move == 3 and orphans:
            orphans.pop()
        return families, orphans
    cards = rng.sample(pool, rng.randint(0, len(pool)))
    families = [[] for _ in range(rng.randint(1, 3))]
    orphans: list[str] = []
    for card in cards:
        if rng.random() < 0.2:
            orphans.append(card)
        else:
            rng.choice(families).append(card)
    return families, orphans


def test_random_layouts_legal_and_illegal_match_an_independent_referee() -> None:
    accepted = refused_count = 0
    for seed in range(30):
        rng = random.Random(seed)
        state = RULES.new_game(3 + seed % 3, seed, {"rounds": 1})
        while not RULES.is_over(state):
            (seat,) = RULES.to_act(state)
            if state.arranger >= 0:
                for _ in range(6):
                    families, orphans = _random_layout(state, rng)
                    rng.shuffle(families)
                    action = {"type": "arrange", "families": families, "orphans": orphans}
                    snapshot = copy.deepcopy(state)
                    if _reference_ok(state, families, orphans):
                        after = RULES.apply(state, seat, action)
                        expected = sorted(sorted(f) for f in families)
                        assert sorted(sorted(f) for f in after.families[seat]) == expected
                        accepted += 1
                    else:
                        with pytest.raises(IllegalAction):
                            RULES.apply(state, seat, action)
                        refused_count += 1
                    assert state == snapshot
            action = rng.choice(RULES.legal_actions(state, seat))
            state = RULES.apply(state, seat, action)
    assert accepted > 200 and refused_count > 200


def test_every_listed_arrangement_applies_in_random_play() -> None:
    for seed in range(6):
        rng = random.Random(seed)
        state = RULES.new_game(3 + seed % 3, 100 + seed, {"rounds": 1})
        while not RULES.is_over(state):
            (seat,) = RULES.to_act(state)
            listed = RULES.legal_actions(state, seat)
            if state.arranger >= 0:
                assert len(listed) <= 49
                for action in listed:
                    RULES.apply(state, seat, action)
            state = RULES.apply(state, seat, rng.choice(listed))


def test_registered_in_the_registry() -> None:
    assert games.get("wifeswap") is RULES


# --- preview: what a layout would score, validated as apply validates it ------------------------

# Five seats, dealer 4: seat 0 leads AS and wins a trick of AS KH QC 10S 6D, which with its hand
# (KS QS 7S 9H 4C JD) makes the three families of the rulings' scoring examples.
PREVIEW_HANDS = {
    0: ["AS", "KS", "QS", "7S", "9H", "4C", "JD"],
    1: ["KH", "2H", "3H", "4H", "5H", "6H", "7H"],
    2: ["QC", "2C", "3C", "5C", "6C", "7C", "8C"],
    3: ["10S", "2D", "3D", "4D", "5D", "7D", "8D"],
    4: ["6D", "9D", "10D", "JH", "QH", "8H", "10H"],
}
RULING_FAMILIES = [["KS", "QS", "7S", "AS"], ["KH", "QC", "9H", "4C"], ["JD", "10S", "6D"]]


def preview_table() -> WifeSwapState:
    state = play(new(5, 4, PREVIEW_HANDS), "AS", "KH", "QC", "10S", "6D")
    assert state.arranger == 0
    return state


def test_preview_scores_the_ruling_examples_as_listed() -> None:
    state = preview_table()
    action = {"type": "arrange", "families": RULING_FAMILIES}
    answer = RULES.preview(state, 0, action)
    assert [f["points"] for f in answer["families"]] == [56, 33, 26]
    assert [f["cards"] for f in answer["families"]] == RULING_FAMILIES
    assert [f["royal"] for f in answer["families"]] == [True, False, False]
    assert [f["kind"] for f in answer["families"]] == ["senior", "senior", "junior"]
    assert answer["orphans"] == [] and answer["total"] == 115
    json.dumps(answer)  # JSON-safe
    # The families come back in the order sent, so the board can match them one by one.
    flipped = RULES.preview(state, 0, {"type": "arrange", "families": RULING_FAMILIES[::-1]})
    assert [f["points"] for f in flipped["families"]] == [26, 33, 56]
    # What apply then lays scores what preview said.
    after = RULES.apply(state, 0, action)
    assert RULES.view(after, 0)["round_scores"][0] == 115


def test_preview_of_a_pass_and_of_orphans() -> None:
    state = preview_table()
    assert RULES.preview(state, 0, {"type": "pass"}) == {"families": [], "orphans": [], "total": 0}
    state = play(after_first_family(), "AD", "3H", "3S")
    swap = {"type": "arrange", "families": [["QS", "KS"]], "orphans": ["QH", "7H"]}
    answer = RULES.preview(state, 0, swap)
    assert answer["families"] == [
        {"cards": ["QS", "KS"], "points": 40, "royal": True, "kind": "senior"}
    ]
    assert answer["orphans"] == ["QH", "7H"] and answer["total"] == 40
    kept = RULES.preview(state, 0, {"type": "pass"})
    assert kept["families"][0]["cards"] == ["KS", "QH", "7H"] and kept["total"] == 27


def test_preview_refuses_exactly_as_apply_does() -> None:
    state = preview_table()
    bad: list[tuple[int, Any]] = [
        (0, {"type": "arrange", "families": [["KS", "QS", "9H"]]}),
        (0, {"type": "arrange", "families": [["JD", "10D"]]}),
        (0, {"type": "arrange", "families": [["KS", "QS"], ["KS", "QH"]]}),
        (0, {"type": "arrange", "families": [["KS", "QS"]], "orphans": ["7S"]}),
        (0, {"type": "arrange", "families": "KS QS"}),
        (0, {"type": "arrange"}),
        (0, {"type": "arrange", "families": [["KS", "QS"]], "extra": 1}),
        (0, {"type": "pass", "card": "AS"}),
        (0, {"type": "play", "card": "KS"}),
        (0, "pass"),
        (1, {"type": "pass"}),
        (7, {"type": "pass"}),
    ]
    for seat, action in bad:
        with pytest.raises(IllegalAction) as applied:
            RULES.apply(state, seat, action)
        with pytest.raises(IllegalAction) as previewed:
            RULES.preview(state, seat, action)
        assert str(previewed.value) == str(applied.value), action
    # In the play phase a legal card previews as {} and an illegal one is refused the same way.
    opening_state = opening()
    assert RULES.preview(opening_state, 0, {"type": "play", "card": "AC"}) == {}
    with pytest.raises(IllegalAction, match="not your turn"):
        RULES.preview(opening_state, 1, {"type": "play", "card": "3D"})


def test_preview_never_changes_the_state() -> None:
    state = preview_table()
    snapshot = copy.deepcopy(state)
    for action in (
        {"type": "arrange", "families": RULING_FAMILIES},
        {"type": "arrange", "families": [["KS"]]},
        {"type": "pass"},
    ):
        with contextlib.suppress(IllegalAction):
            RULES.preview(state, 0, action)
    assert state == snapshot
    assert RULES.legal_actions(state, 0) == RULES.legal_actions(snapshot, 0)
