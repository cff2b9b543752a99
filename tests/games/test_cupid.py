"""Scenario tests for Cupid (games/cupid.py), one per rule sentence and ruling example.

Rule source: the published rule text of "Cupid" by Mark S. Ball, v1.1.9, with our rulings in
docs/rules/cupid.md. Every test starts from a stacked deck and a fixed dealer, so the cards
in each hand are known; ``stack`` turns "these hands, this prize, this turn-up, this stock"
into the deck order the engine deals from (5 each alternately from the non-dealer, then 2
prize cards, then the turn-up, then the stock top first).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from games import IllegalAction
from games.cupid.rules import ORDER, RULES, CupidState, beats, trick_value
from games.kit.cards import rng_for, shuffled

DEFAULT_PRIZE = ("7S", "7H")  # worth 14 (spade + heart: the sum)


def stack(
    dealer_hand: Sequence[str],
    other_hand: Sequence[str],
    *,
    prize: Sequence[str] = DEFAULT_PRIZE,
    turnup: str | None = None,
    stock: Sequence[str] = (),
) -> list[str]:
    """The deck (top first) that deals these cards; unnamed cards fill the rest in order."""
    named = [*dealer_hand, *other_hand, *prize, *([turnup] if turnup else []), *stock]
    spare = [c for c in ORDER if c not in named]
    dealer_cards, other_cards = list(dealer_hand), list(other_hand)
    while len(dealer_cards) < 5:
        dealer_cards.append(spare.pop(0))
    while len(other_cards) < 5:
        other_cards.append(spare.pop(0))
    deck: list[str] = []
    for i in range(5):
        deck += [other_cards[i], dealer_cards[i]]  # the non-dealer is dealt first
    deck += list(prize)
    deck.append(turnup if turnup else spare.pop(0))
    deck += list(stock) + spare
    assert sorted(deck) == sorted(ORDER), "a card is named twice"
    return deck


def new(
    dealer_hand: Sequence[str],
    other_hand: Sequence[str],
    *,
    dealer: int = 0,
    target: int = 121,
    seed: int = 7,
    **kwargs: Any,
) -> CupidState:
    deck = stack(dealer_hand, other_hand, **kwargs)
    return RULES.new_game(2, seed, {"dealer": dealer, "target": target}, deck)


def play(state: CupidState, seat: int, card: str) -> CupidState:
    return RULES.apply(state, seat, {"type": "play", "card": card})


def draw(state: CupidState, seat: int, source: str = "stock") -> CupidState:
    return RULES.apply(state, seat, {"type": "draw", "source": source})


def trick(state: CupidState, lead: str, follow: str) -> CupidState:
    """The awaited leader plays ``lead`` and the other player ``follow``."""
    (leader,) = RULES.to_act(state)
    state = play(state, leader, lead)
    return play(state, 1 - leader, follow)


def autoplay_to(state: CupidState, tricks: int) -> CupidState:
    """Play the awaited seat's lowest card and draw from the stock until ``tricks`` are done."""
    while state.tricks_played < tricks or state.phase == "draw" or state.trick:
        (seat,) = RULES.to_act(state)
        if state.phase == "draw":
            state = draw(state, seat)
        else:
            state = play(state, seat, state.hands[seat][0])
    return state


# --- materials and setup --------------------------------------------------------------


def test_the_deck_is_24_cards_ace_to_ten_of_hearts_and_spades_plus_four_characters() -> None:
    deck = RULES.deck(2)
    assert len(deck) == len(set(deck)) == 24
    numbers = {f"{r}{s}" for r in ["A", *map(str, range(2, 11))] for s in "HS"}
    assert set(deck) == numbers | {"QD", "JC", "KH", "JK"}


def test_deal_five_each_alternately_from_the_non_dealer_then_prize_turnup_and_stock() -> None:
    deck = list(ORDER)
    for dealer in (0, 1):
        state = RULES.new_game(2, 1, {"dealer": dealer}, deck)
        other = 1 - dealer
        assert set(state.hands[other]) == set(deck[0:10:2])
        assert set(state.hands[dealer]) == set(deck[1:10:2])
        assert state.prize == tuple(deck[10:12])
        assert state.turnup == (deck[12],)
        assert state.stock == tuple(deck[13:])
        assert len(state.stock) == 11


def test_first_dealer_each_seat_draws_a_card_and_the_lowest_deals() -> None:
    dealers = set()
    for seed in range(40):
        state = RULES.new_game(2, seed)
        first, second = rng_for(seed, 0).sample(ORDER, 2)
        expected = 0 if ORDER.index(first) < ORDER.index(second) else 1
        assert state.dealer == expected
        dealers.add(state.dealer)
    assert dealers == {0, 1}, "the draw must be able to pick either seat"


def test_the_dealer_option_fixes_the_first_dealer() -> None:
    for dealer in (0, 1):
        assert RULES.new_game(2, 3, {"dealer": dealer}).dealer == dealer


def test_the_target_option_is_a_whole_number_from_10_to_500_default_121() -> None:
    assert RULES.default_options() == {"target": 121}
    assert RULES.new_game(2, 1).target == 121
    assert RULES.new_game(2, 1, {"target": 10}).target == 10
    assert RULES.new_game(2, 1, {"target": 500}).target == 500
    for bad in (9, 501, "121", True, 12.5):
        with pytest.raises(IllegalAction):
            RULES.new_game(2, 1, {"target": bad})


# --- the order and who takes a trick ----------------------------------------------------


def test_ruled_order_the_higher_card_takes_the_trick_except_the_queen_takes_the_king() -> None:
    for low, high in itertools.combinations(ORDER, 2):
        if (low, high) == ("QD", "KH"):
            assert beats(low, high) and not beats(high, low)
        else:
            assert beats(high, low) and not beats(low, high), (low, high)


def test_number_cards_higher_number_wins_regardless_of_suit() -> None:
    assert beats("6H", "5S") and beats("10H", "9S") and beats("3H", "2S")


def test_same_rank_the_spade_beats_the_heart() -> None:
    for rank in ["A", *map(str, range(2, 11))]:
        assert beats(f"{rank}S", f"{rank}H")


def test_the_queen_is_the_only_card_that_captures_the_king() -> None:
    for card in ORDER:
        if card == "KH":
            continue
        assert beats("KH", card) == (card != "QD"), card
    assert beats("QD", "KH")


def test_the_jack_captures_everything_ranked_5_and_below() -> None:
    for card in ["AH", "AS", *(f"{n}{s}" for n in range(2, 6) for s in "HS"), "QD", "JK"]:
        assert beats("JC", card), card
    for card in [*(f"{n}{s}" for n in range(6, 11) for s in "HS"), "KH"]:
        assert not beats("JC", card), card


def test_the_joker_always_loses_the_trick() -> None:
    for card in ORDER[1:]:
        assert beats(card, "JK") and not beats("JK", card)


# --- trick values -----------------------------------------------------------------------


def test_spade_heart_trick_adds_the_values() -> None:
    assert trick_value("7S", "7H") == 14
    assert trick_value("AS", "10H") == 11  # the Ace counts 1


def test_heart_heart_trick_subtracts_the_values() -> None:
    assert trick_value("9H", "4H") == 5
    assert trick_value("AH", "10H") == 9


def test_spade_spade_trick_is_worth_1() -> None:
    assert trick_value("3S", "8S") == 1
    assert trick_value("10S", "9S") == 1


def test_character_with_character_is_worth_22() -> None:
    for a, b in [("QD", "KH"), ("JC", "KH"), ("QD", "JC")]:
        assert trick_value(a, b) == trick_value(b, a) == 22


def test_number_card_with_character_is_worth_the_number() -> None:
    assert trick_value("JC", "5S") == 5
    assert trick_value("KH", "10H") == 10
    assert trick_value("AH", "QD") == 1


def test_any_trick_with_the_joker_is_worth_zero() -> None:
    for card in ORDER[1:]:
        assert trick_value("JK", card) == trick_value(card, "JK") == 0


# --- every example of our rulings, played at the table ---------------------------------

EXAMPLES = [
    ("7S", "7H", "7S", 14),
    ("9H", "4H", "9H", 5),
    ("3S", "8S", "8S", 1),
    ("JC", "5S", "JC", 5),
    ("QD", "KH", "QD", 22),
    ("JK", "KH", "KH", 0),
    ("QD", "AH", "AH", 1),
]


@pytest.mark.parametrize(("a", "b", "winner_card", "points"), EXAMPLES)
@pytest.mark.parametrize("a_leads", [True, False])
def test_rulings_examples(a: str, b: str, winner_card: str, points: int, a_leads: bool) -> None:
    # The dealer (seat 0) leads: give the dealer whichever card leads.
    lead, follow = (a, b) if a_leads else (b, a)
    state = new([lead], [follow], dealer=0, prize=("10S", "10H"))
    state = trick(state, lead, follow)
    winner = 0 if winner_card == lead else 1
    assert state.last_winner == winner
    assert state.last_points == points
    assert RULES.scores(state) == [points if s == winner else 0 for s in (0, 1)]
    view = RULES.view(state, None)
    assert view["last_trick"] == {
        "cards": [{"seat": 0, "card": lead}, {"seat": 1, "card": follow}],
        "winner": winner,
        "points": points,
    }


def test_jack_example_the_5s_player_leads_next_but_the_jack_owner_draws_first() -> None:
    for jack_leads in (True, False):
        dealer_card, other_card = ("JC", "5S") if jack_leads else ("5S", "JC")
        state = new([dealer_card], [other_card], dealer=0, turnup="2H", stock=["2S"])
        state = trick(state, dealer_card, other_card)
        jack_owner = 0 if jack_leads else 1
        assert state.last_winner == jack_owner and state.last_points == 5
        assert state.phase == "draw" and RULES.to_act(state) == [jack_owner]
        state = draw(state, jack_owner, "turnup")
        assert "2H" in state.hands[jack_owner] and "2S" in state.hands[1 - jack_owner]
        assert RULES.to_act(state) == [1 - jack_owner], "the 5S player leads"
        assert "Jack" in RULES.view(state, None)["message"]


# --- play -------------------------------------------------------------------------------


def test_the_dealer_leads_the_first_trick() -> None:
    for dealer in (0, 1):
        state = new(["2H"], ["3H"], dealer=dealer)
        assert RULES.to_act(state) == [dealer]
        assert RULES.legal_actions(state, 1 - dealer) == []


def test_the_opposite_player_may_play_any_card_no_suit_to_follow() -> None:
    state = new(["2H"], ["3S", "4S", "QD", "JK", "KH"], dealer=0)
    state = play(state, 0, "2H")
    offered = {a["card"] for a in RULES.legal_actions(state, 1)}
    assert offered == {"3S", "4S", "QD", "JK", "KH"}


def test_the_trick_winner_draws_first_from_the_stock_the_other_gets_the_turnup() -> None:
    state = new(["2H"], ["9S"], dealer=0, turnup="3H", stock=["4H", "5H", "6H"])
    state = trick(state, "2H", "9S")
    assert state.phase == "draw" and RULES.to_act(state) == [1]
    assert RULES.legal_actions(state, 1) == [
        {"type": "draw", "source": "stock"},
        {"type": "draw", "source": "turnup"},
    ]
    assert RULES.legal_actions(state, 0) == []
    state = draw(state, 1, "stock")
    assert "4H" in state.hands[1] and "3H" in state.hands[0]
    # After both players have drawn, the next card is flipped as the new turn-up.
    assert state.turnup == ("5H",) and state.stock[0] == "6H"
    assert len(state.hands[0]) == len(state.hands[1]) == 5
    assert RULES.view(state, 0)["turnup"] == "5H"


def test_the_trick_winner_may_take_the_turnup_and_the_other_gets_the_stock_top() -> None:
    state = new(["2H"], ["9S"], dealer=0, turnup="3H", stock=["4H", "5H"])
    state = trick(state, "2H", "9S")
    state = draw(state, 1, "turnup")
    assert "3H" in state.hands[1] and "4H" in state.hands[0]
    assert state.turnup == ("5H",)


def test_the_trick_winner_leads_the_next_trick() -> None:
    state = new(["2H"], ["9S"], dealer=0)
    state = draw(trick(state, "2H", "9S"), 1)
    assert RULES.to_act(state) == [1] and state.phase == "play"


def test_only_the_trick_winner_draws_and_only_when_asked() -> None:
    state = new(["2H"], ["9S"], dealer=0)
    with pytest.raises(IllegalAction, match="nothing to draw"):
        draw(state, 0)
    state = trick(state, "2H", "9S")
    with pytest.raises(IllegalAction, match="turn"):
        draw(state, 0)
    with pytest.raises(IllegalAction, match="draw"):
        play(state, 1, state.hands[1][0])
    with pytest.raises(IllegalAction, match="stock"):
        RULES.apply(state, 1, {"type": "draw", "source": "discard"})


def test_you_may_only_play_a_card_you_hold() -> None:
    state = new(["2H"], ["9S"], dealer=0)
    with pytest.raises(IllegalAction, match="do not hold 9S"):
        play(state, 0, "9S")
    with pytest.raises(IllegalAction, match="not a Cupid card"):
        play(state, 0, "QS")


def test_six_draws_empty_the_stock_then_five_cards_each_finish_the_round() -> None:
    state = new([], [], dealer=0, target=500)
    draws = 0
    while state.round == 1:
        (seat,) = RULES.to_act(state)
        if state.phase == "draw":
            # The draw step exists exactly while stock or turn-up cards remain.
            assert state.turnup and state.stock
            draws += 1
            state = draw(state, seat)
            assert len(state.hands[0]) == len(state.hands[1]) == 5
            continue
        if not state.trick and state.tricks_played >= 6:
            assert state.stock == () and state.turnup == ()
            assert len(state.hands[0]) == len(state.hands[1]) == 11 - state.tricks_played
        before = state.tricks_played
        state = play(state, seat, state.hands[seat][0])
        if state.round == 1 and state.tricks_played > before and state.tricks_played > 6:
            assert state.phase == "play", "no draw step once the stock is empty"
    assert draws == 6
    assert state.previous[0] == 1


def test_eleven_tricks_a_round() -> None:
    state = autoplay_to(new([], [], dealer=0, target=500), 10)
    assert state.round == 1 and state.tricks_played == 10
    assert len(state.hands[0]) == len(state.hands[1]) == 1
    (leader,) = RULES.to_act(state)
    state = trick(state, state.hands[leader][0], state.hands[1 - leader][0])
    assert state.round == 2 and state.tricks_played == 0


def test_last_trick_winner_also_wins_the_prize_trick_scored_like_a_trick() -> None:
    state = autoplay_to(new([], [], dealer=0, target=500, prize=("7S", "7H")), 10)
    before = RULES.scores(state)
    (leader,) = RULES.to_act(state)
    lead, follow = state.hands[leader][0], state.hands[1 - leader][0]
    winner = leader if beats(lead, follow) else 1 - leader
    points = trick_value(lead, follow)
    state = trick(state, lead, follow)
    assert state.round == 2
    expected = [before[s] + (points + 14 if s == winner else 0) for s in (0, 1)]
    assert RULES.scores(state) == expected
    summary = RULES.view(state, None)["previous_round"]
    assert summary["last_trick_winner"] == winner and summary["prize_points"] == 14


def test_the_prize_trick_is_face_down_until_the_end() -> None:
    state = new([], [], dealer=0, prize=("QD", "KH"))
    for seat in (0, 1, None):
        view = RULES.view(state, seat)
        assert view["prize_size"] == 2
        assert "QD" not in json.dumps(view) and "KH" not in json.dumps(view)
        assert {"QD", "KH"} <= RULES.hidden_cards(state, seat)


def test_collected_tricks_are_face_down_once_the_next_trick_starts() -> None:
    state = new(["2H", "3H"], ["9S", "8S"], dealer=0, turnup="4H", stock=["4S", "5H"])
    state = trick(state, "2H", "9S")
    # The trick just completed stays on show (with winner and points) until the next one.
    assert RULES.view(state, 0)["last_trick"]["cards"][1] == {"seat": 1, "card": "9S"}
    state = draw(state, 1)
    state = play(state, 1, "8S")
    view = RULES.view(state, 0)
    assert view["last_trick"] is None
    assert "9S" not in json.dumps(view) and "2H" not in json.dumps(view)
    assert {"2H", "9S"} <= RULES.hidden_cards(state, 0) & RULES.hidden_cards(state, 1)
    assert view["tricks_taken"] == [0, 1]


def test_views_show_own_hand_only_and_spectators_no_hand() -> None:
    state = new(["2H", "3H", "4H", "5H", "6H"], ["2S", "3S", "4S", "5S", "6S"], dealer=0)
    mine = RULES.view(state, 0)
    assert mine["hand"] == ["2H", "3H", "4H", "5H", "6H"]
    assert mine["hand_sizes"] == [5, 5]
    assert not {"2S", "3S", "4S", "5S", "6S"} & set(json.dumps(mine).replace('"', " ").split())
    spectator = RULES.view(state, None)
    assert spectator["hand"] == [] and spectator["legal_actions"] == []
    assert spectator["stock_size"] == 11 and spectator["turnup"] == state.turnup[0]
    assert spectator["round"] == 1 and spectator["phase"] == "play"


# --- the end of the match -----------------------------------------------------------


def test_target_reached_in_the_middle_of_a_round_ends_the_game_at_once() -> None:
    state = new(["7S"], ["7H"], dealer=0, target=14, prize=("10S", "10H"))
    state = trick(state, "7S", "7H")
    assert RULES.is_over(state) and RULES.winners(state) == [0]
    assert RULES.to_act(state) == [] and state.phase == "over"
    assert state.tricks_played == 1 and state.prize_points == -1
    assert RULES.view(state, 1)["over"] is True


def test_target_just_missed_plays_on() -> None:
    state = new(["7S"], ["7H"], dealer=0, target=15, prize=("10S", "10H"))
    state = trick(state, "7S", "7H")
    assert not RULES.is_over(state) and state.phase == "draw"


def test_target_reached_by_the_prize_trick_ends_the_game() -> None:
    state = autoplay_to(new([], [], dealer=0, target=500, prize=("7S", "7H")), 10)
    (leader,) = RULES.to_act(state)
    lead, follow = state.hands[leader][0], state.hands[1 - leader][0]
    winner = leader if beats(lead, follow) else 1 - leader
    points = trick_value(lead, follow)
    scores = [0, 0]
    scores[winner] = 400 - points - 1  # the last trick leaves them one short of 400
    state = replace(state, target=400, scores=tuple(scores))
    state = trick(state, lead, follow)
    assert RULES.is_over(state) and RULES.winners(state) == [winner]
    assert RULES.scores(state)[winner] == 400 - 1 + 14
    assert RULES.view(state, None)["prize_trick"] == {"winner": winner, "points": 14}


def test_target_reached_on_the_last_trick_ends_the_game_before_the_prize_trick() -> None:
    state = autoplay_to(new([], [], dealer=0, target=500, prize=("7S", "7H")), 10)
    (leader,) = RULES.to_act(state)
    lead, follow = state.hands[leader][0], state.hands[1 - leader][0]
    winner = leader if beats(lead, follow) else 1 - leader
    points = trick_value(lead, follow)
    scores = [0, 0]
    scores[winner] = 400 - points
    state = trick(replace(state, target=400, scores=tuple(scores)), lead, follow)
    assert RULES.is_over(state) and RULES.winners(state) == [winner]
    assert RULES.scores(state)[winner] == 400
    assert state.prize == ("7S", "7H") and RULES.view(state, None)["prize_trick"] is None


# --- later rounds -------------------------------------------------------------------


def _last_trick_of_round(dealer: int, score_gap: int) -> tuple[CupidState, int, int]:
    """Round 1 just before its last trick, with the scores set so that after the last
    trick and the prize, the last trick's winner is ``score_gap`` points ahead."""
    state = autoplay_to(new([], [], dealer=dealer, target=500), 10)
    (leader,) = RULES.to_act(state)
    lead, follow = state.hands[leader][0], state.hands[1 - leader][0]
    winner = leader if beats(lead, follow) else 1 - leader
    gain = trick_value(lead, follow) + 14
    scores = [100, 100]
    scores[1 - winner] = 100 + gain - score_gap
    state = replace(state, scores=tuple(scores))
    return trick(state, lead, follow), winner, gain


@pytest.mark.parametrize("dealer", [0, 1])
def test_new_round_the_player_with_more_points_deals_and_leads(dealer: int) -> None:
    for gap, ahead in ((5, "winner"), (-5, "loser")):
        state, winner, _ = _last_trick_of_round(dealer, gap)
        expected = winner if ahead == "winner" else 1 - winner
        assert state.round == 2 and state.dealer == expected
        assert RULES.to_act(state) == [expected]


@pytest.mark.parametrize("dealer", [0, 1])
def test_new_round_tied_score_the_last_player_to_take_a_trick_deals_and_leads(
    dealer: int,
) -> None:
    state, winner, _ = _last_trick_of_round(dealer, 0)
    assert RULES.scores(state)[0] == RULES.scores(state)[1]
    assert state.round == 2 and state.dealer == winner
    assert RULES.to_act(state) == [winner]


def test_new_round_is_a_fresh_shuffle_of_all_24_cards_from_the_seed() -> None:
    state, _, _ = _last_trick_of_round(0, 5)
    cards = shuffled(ORDER, 7, 2)
    other = 1 - state.dealer
    assert set(state.hands[other]) == set(cards[0:10:2])
    assert set(state.hands[state.dealer]) == set(cards[1:10:2])
    assert state.turnup == (cards[12],) and len(state.stock) == 11
    assert state.won == ((), ()) and state.round_points == (0, 0)
    assert RULES.view(state, None)["last_trick"] is None


def test_a_refused_action_changes_nothing_and_explains_why() -> None:
    state = new(["2H"], ["9S"], dealer=0)
    before = state
    with pytest.raises(IllegalAction, match="turn"):
        play(state, 1, "9S")
    with pytest.raises(IllegalAction):
        RULES.apply(state, 0, {"type": "play", "card": "2H", "extra": 1})
    assert state == before
