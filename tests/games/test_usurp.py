"""Scenario tests for Usurp (games/usurp.py) from stacked decks.

Each test is named after the rule sentence or ruling example (docs/rules/usurp.md) it
checks. In every scenario seat 1 deals (``options["dealer"] = 1``), so seat 0 (P below) leads
and seat 1 (OPP below) is the dealer who declares the Order.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from games import IllegalAction, replay
from games.kit.cards import FRENCH_RANKS, french_deck
from games.usurp.rules import RULES, UsurpState
from tests.games.randomplay import card_codes_in, current_deal

P, OPP = 0, 1
DECK = frozenset(french_deck())


def suit(letter: str, *ranks: str) -> list[str]:
    """Cards of one suit; every rank when none are named."""
    return [r + letter for r in (ranks or FRENCH_RANKS)]


def stacked(p_hand: list[str], o_hand: list[str], upcard: str, stock: list[str] = ()) -> list[str]:
    """A deck dealing ``p_hand`` to seat 0 and ``o_hand`` to the dealer, seat 1.

    Hands shorter than 13 are filled from the unused cards in deck order (spades first);
    ``stock`` gives the top of the Stock, the other unused cards follow.
    """
    used = {*p_hand, *o_hand, upcard, *stock}
    assert len(used) == len(p_hand) + len(o_hand) + 1 + len(stock), "a card is used twice"
    rest = [c for c in french_deck() if c not in used]
    p, o = list(p_hand), list(o_hand)
    while len(p) < 13:
        p.append(rest.pop(0))
    while len(o) < 13:
        o.append(rest.pop(0))
    dealt = [card for pair in zip(p, o, strict=True) for card in pair]
    return [*dealt, upcard, *stock, *rest]


def new(
    p_hand: list[str], o_hand: list[str], upcard: str, stock: list[str] = (), **options: Any
) -> UsurpState:
    return RULES.new_game(2, 7, {"dealer": OPP, **options}, stacked(p_hand, o_hand, upcard, stock))


def start(
    p_hand: list[str],
    o_hand: list[str],
    upcard: str,
    order: str = "regal",
    stock: list[str] = (),
    **options: Any,
) -> UsurpState:
    """A new hand after the dealer (seat 1) has declared ``order``: seat 0 to play."""
    return act(new(p_hand, o_hand, upcard, stock, **options), OPP, "order", order=order)


def act(state: UsurpState, seat: int, kind: str, **fields: Any) -> UsurpState:
    return RULES.apply(state, seat, {"type": kind, **fields})


def points(state: UsurpState) -> list[int]:
    return RULES.view(state, None)["hand_points"]


# A table where both players are void in hearts, the Upcard's suit.
P_SPADES = suit("S")
O_CLUBS = suit("C")


def burn(state: UsurpState, turns: int, keep: str = "") -> UsurpState:
    """``turns`` Uprisings, each given in, alternating from the player to act.

    Each Uprising uses the lowest card held other than ``keep``.
    """
    for _ in range(turns):
        seat = state.turn
        card = next(c for c in state.hands[seat] if c != keep)
        state = act(state, seat, "uprise", card=card)
        state = act(state, 1 - seat, "give_in")
    return state


# --- the deal and the Leading Order ---------------------------------------------------------


def test_deal_13_each_alternately_from_the_non_dealer_then_upcard_then_stock() -> None:
    deck = french_deck()
    state = RULES.new_game(2, 1, {"dealer": 1}, deck)
    assert set(state.hands[0]) == set(deck[0:26:2])
    assert set(state.hands[1]) == set(deck[1:26:2])
    assert state.upcard == deck[26]
    assert state.stock == tuple(deck[27:])
    view = RULES.view(state, None)
    assert (
        view["upcard"] == deck[26] and view["stock_size"] == 25 and view["hand_sizes"] == [13, 13]
    )


def test_dealer_declares_the_order_after_seeing_hand_and_upcard_then_non_dealer_leads() -> None:
    state = new(P_SPADES, O_CLUBS, "9H")
    assert RULES.to_act(state) == [OPP]
    assert RULES.legal_actions(state, OPP) == [
        {"type": "order", "order": "regal"},
        {"type": "order", "order": "common"},
    ]
    view = RULES.view(state, OPP)
    assert view["phase"] == "order" and view["upcard"] == "9H" and len(view["hand"]) == 13
    assert view["order"] is None
    state = act(state, OPP, "order", order="common")
    assert RULES.to_act(state) == [P]
    assert RULES.view(state, None)["order"] == "common"


def test_first_dealer_is_random_but_seeded() -> None:
    dealers = {RULES.new_game(2, seed).dealer for seed in range(40)}
    assert dealers == {0, 1}
    assert RULES.new_game(2, 5).dealer == RULES.new_game(2, 5).dealer


# --- Score and the Rules of Order (ruling examples) --------------------------------------


def test_example_regal_9h_up_p_plays_qh_p_scores_9() -> None:
    state = act(start(["QH"], O_CLUBS, "9H", "regal"), P, "score", card="QH")
    assert points(state) == [9, 0]
    assert state.upcard == "QH"


def test_example_regal_as_up_p_plays_2s_p_scores_beater_20() -> None:
    state = act(start(["2S"], O_CLUBS, "AS", "regal"), P, "score", card="2S")
    assert points(state) == [20, 0]


def test_example_regal_2d_up_p_plays_ad_opponent_scores_2() -> None:
    state = act(start(["AD"], O_CLUBS, "2D", "regal"), P, "score", card="AD")
    assert points(state) == [0, 2]


def test_example_common_kh_up_p_plays_5h_p_scores_13() -> None:
    state = act(start(["5H"], O_CLUBS, "KH", "common"), P, "score", card="5H")
    assert points(state) == [13, 0]


def test_example_7c_up_p_usurps_with_7d_scores_7_and_the_suit_is_now_diamonds() -> None:
    state = start(["7D", *suit("C", "2", "3")], suit("D", "A", "K"), "7C", "regal")
    legal = RULES.legal_actions(state, P)
    assert {"type": "usurp", "card": "7D", "order": "regal"} in legal
    assert {"type": "usurp", "card": "7D", "order": "common"} in legal
    state = act(state, P, "usurp", card="7D", order="regal")
    assert points(state) == [7, 0]
    assert state.upcard == "7D"
    # The suit to follow is now diamonds: OPP's clubs-free hand must Score with a diamond.
    assert {"type": "score", "card": "AD"} in RULES.legal_actions(state, OPP)


def test_score_in_regal_a_lower_card_loses_and_the_opponent_scores() -> None:
    state = act(start(["5H"], O_CLUBS, "9H", "regal"), P, "score", card="5H")
    assert points(state) == [0, 9]


def test_score_in_common_the_plow_upcard_beaten_by_the_crown_is_worth_20() -> None:
    state = act(start(["AS"], O_CLUBS, "2S", "common"), P, "score", card="AS")
    assert points(state) == [20, 0]


def test_score_in_common_a_crown_upcard_beats_a_plow() -> None:
    state = act(start(["2S"], O_CLUBS, "AS", "common"), P, "score", card="2S")
    assert points(state) == [0, 15]


def test_score_in_regal_the_crown_beats_a_king() -> None:
    state = act(start(["AS"], O_CLUBS, "KS", "regal"), P, "score", card="AS")
    assert points(state) == [13, 0]


def test_every_face_up_card_played_becomes_the_upcard_and_play_alternates() -> None:
    state = start(["QH"], ["KH", *suit("C", "2", "3")], "9H")
    state = act(state, P, "score", card="QH")
    assert RULES.to_act(state) == [OPP]
    state = act(state, OPP, "score", card="KH")
    assert state.upcard == "KH" and points(state) == [9, 12]
    assert RULES.view(state, None)["discard_size"] == 3


# --- following suit -----------------------------------------------------------------------


def test_a_face_up_card_breaking_following_suit_is_refused() -> None:
    state = start(["QH", "3S"], O_CLUBS, "9H")
    assert {"type": "sluff", "card": "3S"} not in RULES.legal_actions(state, P)
    with pytest.raises(IllegalAction, match="hearts"):
        act(state, P, "sluff", card="3S")
    with pytest.raises(IllegalAction, match="suit"):
        act(state, P, "score", card="3S")


def test_usurp_is_always_allowed_even_when_holding_the_upcards_suit() -> None:
    state = start(["QH", "9S"], O_CLUBS, "9H")
    legal = RULES.legal_actions(state, P)
    assert {"type": "usurp", "card": "9S", "order": "common"} in legal
    state = act(state, P, "usurp", card="9S", order="common")
    assert points(state) == [9, 0]
    assert RULES.view(state, None)["order"] == "common"
    assert state.upcard == "9S"


def test_usurp_may_keep_the_order() -> None:
    state = act(start(["9S"], O_CLUBS, "9H", "common"), P, "usurp", card="9S", order="common")
    assert RULES.view(state, None)["order"] == "common"


# --- Sluff Off and the free play ----------------------------------------------------------


def test_sluff_off_only_when_void_any_rank_but_the_upcards_and_the_opponent_scores() -> None:
    state = start(P_SPADES, O_CLUBS, "9H")
    legal = RULES.legal_actions(state, P)
    sluffs = {a["card"] for a in legal if a["type"] == "sluff"}
    assert sluffs == set(P_SPADES) - {"9S"}
    assert {"type": "usurp", "card": "9S", "order": "regal"} in legal
    state = act(state, P, "sluff", card="KS")
    assert points(state) == [0, 9]
    assert state.upcard == "KS", "the sluffed card becomes the Upcard"


def test_free_play_after_a_sluff_off_scores_the_sluffed_cards_plain_value() -> None:
    # Common order, Plow sluffed: a Crown free play scores 2, not the beater value 20.
    state = start(P_SPADES, ["AC", *suit("H", "2", "3")], "9D", "common")
    state = act(state, P, "sluff", card="2S")
    assert points(state) == [0, 9]
    view = RULES.view(state, OPP)
    assert view["phase"] == "free_play" and view["free_play"] == {"seat": OPP, "value": 2}
    legal = RULES.legal_actions(state, OPP)
    assert {a["type"] for a in legal} == {"free_play"}, "no Usurp, no Uprising on a free play"
    assert {a["card"] for a in legal} == set(state.hands[OPP])
    state = act(state, OPP, "free_play", card="AC")
    assert points(state) == [0, 11]
    assert state.upcard == "AC" and RULES.to_act(state) == [P]


def test_free_play_is_never_a_usurp_and_never_switches_the_order() -> None:
    state = start(P_SPADES, ["2C", *suit("H", "3", "4")], "9D", "regal")
    state = act(state, P, "sluff", card="2S")
    state = act(state, OPP, "free_play", card="2C")  # same rank as the sluffed 2S
    assert points(state) == [0, 11]
    assert RULES.view(state, None)["order"] == "regal"
    assert state.upcard == "2C"
    with pytest.raises(IllegalAction):
        act(start(P_SPADES, ["2C"], "9D"), P, "free_play", card="2S")


def test_a_free_play_pending_when_the_hand_ends_is_lost() -> None:
    state = start(P_SPADES, O_CLUBS, "9H", game_points=1)
    state = burn(state, 25)  # P and OPP alternately Uprise and are given in; OPP is left 1 card
    assert RULES.to_act(state) == [OPP] and state.hands == ((), ("AC",))
    assert points(state) == [13 * 9, 12 * 9]
    state = act(state, OPP, "sluff", card="AC")  # P would have the free play but has no card
    assert RULES.is_over(state)
    assert RULES.view(state, None)["hand_points"] == [14 * 9, 12 * 9]


# --- Uprising: Give In and Challenge -----------------------------------------------------


def test_uprise_is_face_down_and_the_opponent_must_answer() -> None:
    state = start(["QH"], O_CLUBS, "9H")
    legal = RULES.legal_actions(state, P)
    assert all({"type": "uprise", "card": c} in legal for c in state.hands[P])
    state = act(state, P, "uprise", card="QH")
    assert RULES.to_act(state) == [OPP]
    assert RULES.legal_actions(state, OPP) == [{"type": "give_in"}, {"type": "challenge"}]
    seen_by_o = RULES.view(state, OPP)
    assert seen_by_o["awaiting_answer"] and seen_by_o["pending_downcard"] == {"seat": P}
    assert "QH" not in card_codes_in(seen_by_o, DECK)
    assert "QH" not in card_codes_in(RULES.view(state, None), DECK)
    assert RULES.view(state, P)["pending_downcard"] == {"seat": P, "card": "QH"}
    assert state.upcard == "9H", "a Downcard is never the Upcard"


def test_give_in_scores_the_upcards_plain_value_and_the_answering_player_plays_next() -> None:
    state = start(["2S"], O_CLUBS, "AS", "regal")
    state = act(state, P, "uprise", card="2S")
    state = act(state, OPP, "give_in")
    assert points(state) == [15, 0], "plain value, never the beater value"
    assert state.upcard == "AS", "the Upcard is unchanged"
    assert RULES.to_act(state) == [OPP]
    assert RULES.view(state, OPP)["downcards"] == [{"seat": P}]
    assert RULES.view(state, P)["downcards"] == [{"seat": P, "card": "2S"}]
    assert "2S" in RULES.hidden_cards(state, OPP) and "2S" not in RULES.hidden_cards(state, P)


def test_challenge_a_winning_score_gives_the_player_the_upcard_plus_the_bonus() -> None:
    state = act(act(start(["QH"], O_CLUBS, "9H"), P, "uprise", card="QH"), OPP, "challenge")
    assert points(state) == [19, 0]
    assert state.upcard == "QH" and RULES.to_act(state) == [OPP]


def test_challenge_a_losing_score_gives_the_opponent_the_upcard_plus_the_bonus() -> None:
    state = act(act(start(["5H"], O_CLUBS, "9H"), P, "uprise", card="5H"), OPP, "challenge")
    assert points(state) == [0, 19]


def test_challenge_a_plow_on_a_crown_in_regal_scores_the_beater_value_plus_bonus() -> None:
    state = act(act(start(["2S"], O_CLUBS, "AS"), P, "uprise", card="2S"), OPP, "challenge")
    assert points(state) == [30, 0]


def test_challenged_uprise_that_usurps_lets_its_player_switch_the_order() -> None:
    state = start(["7D", "QC"], suit("C", "A", "K"), "7C", "regal")
    state = act(act(state, P, "uprise", card="7D"), OPP, "challenge")
    assert points(state) == [17, 0]
    assert state.upcard == "7D"
    assert RULES.to_act(state) == [P]
    view = RULES.view(state, None)
    assert view["phase"] == "usurp_order" and view["last"]["played_as"] == "usurp"
    assert RULES.legal_actions(state, P) == [
        {"type": "order", "order": "regal"},
        {"type": "order", "order": "common"},
    ]
    state = act(state, P, "order", order="common")
    assert RULES.view(state, None)["order"] == "common"
    assert RULES.to_act(state) == [OPP], "after the answer, the answering player plays next"


def test_challenged_usurp_that_was_the_hands_last_card_ends_the_match_with_no_order_chosen() -> (
    None
):
    state = burn(start(P_SPADES, O_CLUBS, "9H", game_points=1), 25, keep="9C")
    assert state.hands == ((), ("9C",))
    state = act(act(state, OPP, "uprise", card="9C"), P, "challenge")
    assert RULES.is_over(state)
    view = RULES.view(state, None)
    assert view["phase"] == "over" and view["order"] == "regal"
    assert view["last"]["type"] == "challenge" and view["last"]["played_as"] == "usurp"
    assert view["hand_points"] == [13 * 9, 12 * 9 + 9 + 10]


def test_challenged_usurp_that_was_the_hands_last_card_deals_the_next_hand_at_once() -> None:
    state = burn(start(P_SPADES, O_CLUBS, "9H"), 25, keep="9C")
    state = act(act(state, OPP, "uprise", card="9C"), P, "challenge")
    view = RULES.view(state, None)
    assert view["hand_number"] == 2 and view["phase"] == "order" and view["order"] is None
    assert RULES.to_act(state) == [P], "the next dealer declares the Order"
    assert view["hands_played"][0]["hand_points"] == [13 * 9, 12 * 9 + 9 + 10]
    assert view["hand_summary"]["hand"] == 1


def test_challenged_void_downcard_is_a_sluff_off_with_bonus_and_a_free_play() -> None:
    state = act(act(start(P_SPADES, O_CLUBS, "9H"), P, "uprise", card="KS"), OPP, "challenge")
    assert points(state) == [0, 19]
    assert state.upcard == "KS"
    assert RULES.view(state, OPP)["phase"] == "free_play"
    state = act(state, OPP, "free_play", card="2C")
    assert points(state) == [0, 32]


def test_reneg_revealed_by_a_challenge_is_a_sluff_off_plus_reneg_points() -> None:
    state = start(["QH", "3S"], O_CLUBS, "9H")
    state = act(state, P, "uprise", card="3S")  # P holds hearts: a Reneg
    state = act(state, OPP, "challenge")
    assert points(state) == [0, 9 + 10 + 20]
    last = RULES.view(state, None)["last"]
    assert last["reneg"] is True and last["card"] == "3S" and last["played_as"] == "sluff"
    assert state.upcard == "3S"
    assert RULES.view(state, OPP)["phase"] == "free_play"
    state = act(state, OPP, "free_play", card="5C")
    assert points(state) == [0, 42]


def test_unchallenged_downcards_are_turned_at_hand_end_and_each_reneg_scores() -> None:
    # P holds the 2 of hearts all hand and Uprises spades: each one given in is a Reneg.
    p_hand = ["2H", *suit("S", *[r for r in FRENCH_RANKS if r != "9"])]
    state = start(p_hand, O_CLUBS, "9H", game_points=1)
    state = burn(state, 24)  # P has Uprised 12 spades (all Renegs), OPP 12 clubs
    assert points(state) == [12 * 9, 12 * 9]
    state = act(state, P, "score", card="2H")  # loses to the 9H in Regal: OPP +9
    state = act(state, OPP, "uprise", card=state.hands[OPP][0])
    state = act(state, P, "give_in")  # OPP's last Downcard: no Reneg, OPP held no hearts
    assert RULES.is_over(state)
    view = RULES.view(state, None)
    assert view["hand_points"] == [12 * 9, 12 * 9 + 9 + 2 + 12 * 20]
    turned = view["hand_summary"]["turned_downcards"]
    assert len(turned) == 25
    assert sum(d["reneg"] for d in turned) == 12
    assert all(d["reneg"] == (d["seat"] == P) for d in turned)
    assert all(d["scored"] == ([0, 20] if d["reneg"] else [0, 0]) for d in turned)
    assert view["hands_played"][0]["reneg_points"] == [0, 240]
    assert view["winners"] == [OPP]
    # The match is over: the final hand's turned Downcards lie face up for everyone.
    for seat in (P, OPP, None):
        assert not {d["card"] for d in turned} & RULES.hidden_cards(state, seat)


# --- the end of the hand and the match ----------------------------------------------------


def hand_with_renegs_and_a_challenge() -> UsurpState:
    """Hand 1 of a match to 3 Game Points, played to its end.

    P (holding the 2H all hand) Uprises the KS, which OPP challenges: a Reneg, turned at
    once. OPP's free play is the 3H, the new Upcard. Then P Uprises its other spades and OPP
    its clubs, each given in: P's are Renegs except the 3S (the Upcard's rank, a Usurp),
    OPP's never are (OPP holds no hearts). P scores with the 2H; OPP's last club ends it.
    """
    p_hand = ["2H", *suit("S", *[r for r in FRENCH_RANKS if r != "9"])]
    o_hand = ["3H", *suit("C", *[r for r in FRENCH_RANKS if r != "A"])]
    state = start(p_hand, o_hand, "9H")
    state = act(act(state, P, "uprise", card="KS"), OPP, "challenge")
    state = act(state, OPP, "free_play", card="3H")
    state = burn(state, 22, keep="2H")
    state = act(state, P, "score", card="2H")
    state = act(state, OPP, "uprise", card="KC")
    return act(state, P, "give_in")


P_GIVEN_IN = suit("S", "2", "3", "4", "5", "6", "7", "8", "10", "J", "Q", "A")
O_GIVEN_IN = suit("C", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q")


def test_the_hand_summary_names_whose_downcards_were_turned_and_what_each_reneg_scored() -> None:
    state = hand_with_renegs_and_a_challenge()
    assert RULES.view(state, None)["hand_number"] == 2, "the next hand is dealt at once"
    expected = [
        *(
            turned
            for p_card, o_card in zip(P_GIVEN_IN, O_GIVEN_IN, strict=True)
            for turned in (
                {"seat": P, "card": p_card, "reneg": p_card != "3S"},
                {"seat": OPP, "card": o_card, "reneg": False},
            )
        ),
        {"seat": OPP, "card": "KC", "reneg": False},
    ]
    for entry in expected:
        entry["scored"] = [0, 20] if entry["reneg"] else [0, 0]
    views = [RULES.view(state, seat) for seat in (P, OPP, None)]
    summary = views[-1]["hand_summary"]
    assert summary["turned_downcards"] == expected, "the challenged KS was turned already"
    assert summary["reneg_points"] == [0, 10 * 20]
    totals = {k: v for k, v in summary.items() if k != "turned_downcards"}
    assert totals == views[-1]["hands_played"][0] and summary["hand"] == 1
    assert all(view["hand_summary"] == summary for view in views), "public: the same for all"


def test_the_hand_summary_stays_on_view_until_the_next_hand_ends() -> None:
    state = hand_with_renegs_and_a_challenge()
    first = RULES.view(state, None)["hand_summary"]
    state = act(state, P, "order", order="common")  # P deals hand 2; OPP leads
    state = burn(state, 25)
    for seat in (P, OPP, None):
        view = RULES.view(state, seat)
        assert view["hand_number"] == 2 and view["hand_summary"] == first
        # The summary names the last hand's cards; the deal in play stays hidden.
        shown = card_codes_in(current_deal(RULES, view), DECK)
        assert not shown & RULES.hidden_cards(state, seat)
    downcards = state.downcards
    last_riser = state.turn
    last_card = state.hands[last_riser][0]
    state = act(act(state, last_riser, "uprise", card=last_card), 1 - last_riser, "give_in")
    summary = RULES.view(state, OPP)["hand_summary"]
    assert summary["hand"] == 2 and RULES.view(state, None)["hand_number"] == 3
    turned = [(d["seat"], d["card"]) for d in summary["turned_downcards"]]
    assert turned == [*((d.seat, d.card) for d in downcards), (last_riser, last_card)]


def test_more_hand_points_wins_a_game_point_and_the_dealer_alternates() -> None:
    state = burn(start(P_SPADES, O_CLUBS, "9H"), 25)
    state = act(state, OPP, "sluff", card="AC")
    assert not RULES.is_over(state)
    assert RULES.scores(state) == [1, 0]
    view = RULES.view(state, None)
    assert view["hand_number"] == 2 and view["dealer"] == P and view["phase"] == "order"
    assert view["hand_points"] == [0, 0]
    assert view["hands_played"][0]["hand_points"] == [126, 108]
    assert view["last"]["type"] == "hand_end"
    assert RULES.to_act(state) == [P]
    # The old hand's cards are dealt again: outside the summary of the hand that ended, no
    # view may name one outside its own hand.
    for seat in (P, OPP, None):
        view = current_deal(RULES, RULES.view(state, seat))
        del view["hand"]
        assert card_codes_in(view, DECK) == {state.upcard}


def test_a_tied_hand_gives_no_game_point() -> None:
    state = burn(start(P_SPADES, O_CLUBS, "9H"), 26)
    assert RULES.scores(state) == [0, 0]
    view = RULES.view(state, None)
    assert view["hands_played"][0]["hand_points"] == [117, 117]
    assert view["hands_played"][0]["winner"] is None
    assert view["hand_number"] == 2


def test_match_ends_at_three_game_points_by_default() -> None:
    state = start(P_SPADES, O_CLUBS, "9H")
    state = replace(state, game_points=(2, 1))
    state = act(burn(state, 25), OPP, "sluff", card="AC")
    assert RULES.is_over(state) and RULES.scores(state) == [3, 1] and RULES.winners(state) == [P]
    assert RULES.to_act(state) == [] and RULES.legal_actions(state, OPP) == []
    view = RULES.view(state, OPP)
    assert view["over"] and view["winners"] == [P] and "Seat 1 wins" in view["message"]


def test_game_points_option_sets_the_target() -> None:
    state = act(burn(start(P_SPADES, O_CLUBS, "9H", game_points=1), 25), OPP, "sluff", card="AC")
    assert RULES.is_over(state) and RULES.winners(state) == [P]


def test_after_15_hands_more_game_points_wins() -> None:
    state = replace(start(P_SPADES, O_CLUBS, "9H"), hand_no=15, game_points=(1, 2))
    state = act(burn(state, 25), OPP, "sluff", card="AC")  # P wins hand 15: 2-2
    assert RULES.is_over(state)
    assert RULES.scores(state) == [2, 2] and RULES.winners(state) == [P, OPP]
    assert "shared" in RULES.view(state, None)["message"]


def test_after_15_hands_the_leader_in_game_points_wins() -> None:
    state = replace(start(P_SPADES, O_CLUBS, "9H"), hand_no=15, game_points=(0, 2))
    state = burn(state, 26)  # a tied hand: no Game Point
    assert RULES.is_over(state) and RULES.winners(state) == [OPP]


def test_hand_number_is_capped_and_random_matches_stay_short() -> None:
    for seed in range(30):
        state = RULES.new_game(2, seed)
        while not RULES.is_over(state):
            seat = RULES.to_act(state)[0]
            state = RULES.apply(state, seat, RULES.legal_actions(state, seat)[-1])
        assert RULES.view(state, None)["hand_number"] <= 15


# --- point tables -------------------------------------------------------------------------


def test_alternative_point_table_values() -> None:
    alt = {"points": "alternative"}
    state = act(start(["QH"], O_CLUBS, "9H", **alt), P, "score", card="QH")
    assert points(state) == [5, 0]
    state = act(start(["3H"], O_CLUBS, "KH", "common", **alt), P, "score", card="3H")
    assert points(state) == [10, 0]
    state = act(start(["2S"], O_CLUBS, "AS", **alt), P, "score", card="2S")
    assert points(state) == [25, 0], "beater value 25"
    state = act(start(["AS"], O_CLUBS, "2S", "common", **alt), P, "score", card="AS")
    assert points(state) == [25, 0]
    state = act(start(["KS"], O_CLUBS, "AS", **alt), P, "score", card="KS")
    assert points(state) == [0, 15]
    state = act(act(start(["QH"], O_CLUBS, "9H", **alt), P, "uprise", card="QH"), OPP, "challenge")
    assert points(state) == [5 + 20, 0], "challenge bonus 20"
    state = start(["QH", "3S"], O_CLUBS, "10H", **alt)
    state = act(act(state, P, "uprise", card="3S"), OPP, "challenge")
    assert points(state) == [0, 10 + 20 + 25], "Reneg 25"
    view = RULES.view(state, None)
    assert view["points_table"] == "alternative" and view["reneg_points"] == 25


def test_standard_point_table_values() -> None:
    view = RULES.view(new(["QH"], O_CLUBS, "9H"), None)
    assert view["card_values"] == {
        "A": 15, "K": 13, "Q": 12, "J": 11, "10": 10, "9": 9, "8": 8, "7": 7,
        "6": 6, "5": 5, "4": 4, "3": 3, "2": 2,
    }  # fmt: skip
    assert (view["beater_value"], view["reneg_points"], view["challenge_bonus"]) == (20, 20, 10)


# --- the reveal pile ----------------------------------------------------------------------


def test_reveal_pile_is_off_by_default() -> None:
    state = act(start(["QH"], O_CLUBS, "9H"), P, "score", card="QH")
    view = RULES.view(state, None)
    assert view["reveal_pile"] == [] and view["stock_size"] == 25 and not view["reveal_pile_on"]


def test_reveal_pile_turns_one_stock_card_after_each_completed_turn() -> None:
    top = ["4D", "5D", "6D"]
    state = new(["QH", "KH"], O_CLUBS, "9H", top, reveal_pile=True)
    state = act(state, OPP, "order", order="regal")
    assert RULES.view(state, None)["reveal_pile"] == [], "declaring the Order is not a turn"
    state = act(state, P, "score", card="QH")
    assert RULES.view(state, None)["reveal_pile"] == ["4D"]
    state = act(state, OPP, "uprise", card="AC")
    assert RULES.view(state, None)["reveal_pile"] == ["4D"], "an Uprising counts once answered"
    state = act(state, P, "give_in")
    view = RULES.view(state, None)
    assert view["reveal_pile"] == ["4D", "5D"] and view["stock_size"] == 23
    assert "5D" not in RULES.hidden_cards(state, None) and "6D" in RULES.hidden_cards(state, P)


def test_reveal_pile_turns_an_answered_uprisings_card_before_the_order_choice() -> None:
    top = ["4D", "5D", "6D"]
    state = start(["7D", "QC"], suit("C", "A", "K"), "7C", stock=top, reveal_pile=True)
    state = act(state, P, "uprise", card="7D")
    assert RULES.view(state, None)["reveal_pile"] == []
    state = act(state, OPP, "challenge")  # a Usurp: P now chooses the Order
    view = RULES.view(state, None)
    assert view["phase"] == "usurp_order" and view["reveal_pile"] == ["4D"]
    state = act(state, P, "order", order="common")
    view = RULES.view(state, None)
    assert view["reveal_pile"] == ["4D"] and view["stock_size"] == 24


def test_reveal_pile_stops_when_the_stock_is_spent() -> None:
    state = burn(start(P_SPADES, O_CLUBS, "9H", reveal_pile=True, game_points=1), 25)
    view = RULES.view(state, None)
    assert len(view["reveal_pile"]) == 25 and view["stock_size"] == 0
    state = act(state, OPP, "sluff", card="AC")  # the 26th turn: nothing left to turn
    view = RULES.view(state, None)
    assert view["over"] and len(view["reveal_pile"]) == 25


# --- views, refusals and replay -----------------------------------------------------------


def test_views_hide_hands_and_downcards_and_show_the_public_table() -> None:
    state = act(start(["QH"], O_CLUBS, "9H"), P, "uprise", card="QH")
    for seat in (P, OPP, None):
        view = RULES.view(state, seat)
        json.dumps(view)
        assert view["upcard"] == "9H" and view["order"] == "regal"
        assert view["hand_points"] == [0, 0] and view["game_points"] == [0, 0]
        assert view["stock_size"] == 25
        shown = card_codes_in(view, DECK)
        assert not shown & RULES.hidden_cards(state, seat)
    assert RULES.view(state, None)["hand"] == []
    assert "Give In or Challenge" in RULES.view(state, None)["message"]


def test_messages_address_the_viewer_as_you_and_others_as_seat_n() -> None:
    def said(state: UsurpState) -> list[str]:
        return [RULES.view(state, s)["message"] for s in (P, OPP, None)]

    state = new(P_SPADES, O_CLUBS, "9H")
    assert said(state) == [
        "Seat 2 deals and declares the Order (regal or common) with the 9 of hearts up.",
        "You deal and declare the Order (regal or common) with the 9 of hearts up.",
        "Seat 2 deals and declares the Order (regal or common) with the 9 of hearts up.",
    ]
    state = act(state, OPP, "order", order="regal")
    assert said(state) == [
        "Your turn on the 9 of hearts (Regal).",
        "Seat 1 to play on the 9 of hearts (Regal).",
        "Seat 1 to play on the 9 of hearts (Regal).",
    ]
    uprising = act(state, P, "uprise", card="KS")
    assert said(uprising) == [
        "You played a Downcard on the 9 of hearts: Seat 2 must Give In or Challenge.",
        "Seat 1 played a Downcard on the 9 of hearts: you must Give In or Challenge.",
        "Seat 1 played a Downcard on the 9 of hearts: Seat 2 must Give In or Challenge.",
    ]
    sluffed = act(state, P, "sluff", card="KS")
    assert said(sluffed) == [
        "Seat 2 has the free play after the Sluff Off: any card scores 13.",
        "You have the free play after the Sluff Off: any card scores 13.",
        "Seat 2 has the free play after the Sluff Off: any card scores 13.",
    ]
    usurp = start(["7D", "QC"], suit("C", "A", "K"), "7C", "regal")
    usurp = act(act(usurp, P, "uprise", card="7D"), OPP, "challenge")
    assert said(usurp) == [
        "Your Downcard was a Usurp: you choose the Order.",
        "Seat 1's Downcard was a Usurp: Seat 1 chooses the Order.",
        "Seat 1's Downcard was a Usurp: Seat 1 chooses the Order.",
    ]
    over = replace(start(P_SPADES, O_CLUBS, "9H"), game_points=(2, 1))
    over = act(burn(over, 25), OPP, "sluff", card="AC")
    assert said(over) == [
        "The match is over: you win.",
        "The match is over: Seat 1 wins.",
        "The match is over: Seat 1 wins.",
    ]


def test_refusals_explain_why() -> None:
    state = new(["QH"], O_CLUBS, "9H")
    with pytest.raises(IllegalAction, match="Order"):
        act(state, OPP, "order", order="royal")
    with pytest.raises(IllegalAction, match="turn"):
        act(state, P, "order", order="regal")
    state = act(state, OPP, "order", order="regal")
    with pytest.raises(IllegalAction, match="hold"):
        act(state, P, "score", card="AC")
    with pytest.raises(IllegalAction, match="rank"):
        act(state, P, "usurp", card="QH", order="regal")
    with pytest.raises(IllegalAction, match="free play"):
        act(state, P, "free_play", card="QH")
    state = act(state, P, "uprise", card="QH")
    with pytest.raises(IllegalAction, match="answer with Give In or Challenge"):
        act(state, OPP, "score", card="2C")


def test_options_are_checked() -> None:
    for bad in (
        {"game_points": 0},
        {"game_points": 3.0},
        {"points": "ye olde"},
        {"reveal_pile": 1},
    ):
        with pytest.raises(IllegalAction, match=r"game_points|points|reveal_pile"):
            RULES.new_game(2, 1, bad)
    assert RULES.default_options() == {"game_points": 3, "points": "standard", "reveal_pile": False}


def test_replay_rebuilds_a_stacked_match() -> None:
    deck = stacked(P_SPADES, O_CLUBS, "9H")
    log = [(OPP, {"type": "order", "order": "regal"}), (P, {"type": "sluff", "card": "KS"})]
    log.append((OPP, {"type": "free_play", "card": "2C"}))
    state = replay("usurp", 2, 7, {"dealer": OPP}, deck, log)
    assert points(state) == [0, 9 + 13] and state.upcard == "2C"
