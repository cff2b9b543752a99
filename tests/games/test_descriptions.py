"""Every game's public account of each action (games.describe).

Every action of random matches is described in a sentence that names no card a watcher
could not know: only cards public before or after the action, cards the action itself
turns face up by the rules, and a finished deal's cards its public summary names. Known
moments are described exactly: the card that ends a deal, who took a trick and why, who
leads the next trick (only when there is one), a Challenge's Downcard, a Cups reshuffle only
on the turn it happens.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

import games
from games import describe
from games.cupid.rules import JACK, beats
from games.kit.account import render
from games.kit.cards import card_name
from tests.games.randomplay import (
    all_games,
    card_codes_in,
    current_deal,
    random_match,
    seat_counts,
)

GAMES = all_games()


def _turned_face_up(name: str, before: Any, action: dict[str, Any]) -> set[str]:
    """The cards an action turns face up by the rules (docs/rules/<game>.md)."""
    face_up_plays = {
        "cupid": {"play"},
        "coins": {"play"},
        "cups": {"play"},
        "wifeswap": {"play"},
        "usurp": {"score", "usurp", "sluff", "free_play"},
    }[name]
    if action["type"] in face_up_plays:
        return {action["card"]}
    if name == "usurp" and action["type"] == "challenge":
        return {before.pending.card}  # the Challenge turns the Downcard
    return set()


def _visible(rules: Any, state: Any) -> set[str]:
    """What a watcher sees: the deal in play, and the public summary of one over."""
    deck = frozenset(rules.deck(len(rules.scores(state)), None))
    view = rules.view(state, None)
    summaries = [view[key] for key in rules.past_deal_keys]
    in_play = card_codes_in(current_deal(rules, view), deck) - rules.hidden_cards(state, None)
    return in_play | card_codes_in(summaries, deck)


def _named(text: str, pack: str, deck: list[str]) -> set[str]:
    return {c for c in deck if re.search(rf"\b{re.escape(card_name(c, pack))}\b", text)}


def test_every_game_has_a_describer() -> None:
    assert all(callable(games.game(name).describe) for name in games.REGISTRY)


@pytest.mark.parametrize("name", GAMES)
def test_accounts_name_only_public_cards(name: str) -> None:
    rules = games.get(name)
    for i, seats in enumerate(seat_counts(rules) * 2):
        played = random_match(rules, seats, seed=900 + i)
        deck = rules.deck(seats, None)
        for step, (seat, action) in enumerate(played.log):
            before, after = played.states[step], played.states[step + 1]
            account = describe(rules, before, seat, action, after)
            json.dumps(account)
            text = account["text"]
            assert text and text[0].isupper() and text.endswith((".", "!")), text
            assert "None" not in text and "undefined" not in text, text
            public = _visible(rules, before) | _visible(rules, after)
            public |= _turned_face_up(name, before, action)
            named = _named(text, games.game(name).presentation.pack, deck) | card_codes_in(
                account.get("trick"), frozenset(deck)
            )
            leaked = named - public
            assert not leaked, f"{name} step {step}: {text!r} names {sorted(leaked)}"


def _first(played: Any, rules: Any, wanted: Any) -> tuple[Any, ...]:
    for step, (seat, action) in enumerate(played.log):
        before, after = played.states[step], played.states[step + 1]
        if wanted(before, action, after):
            return before, seat, action, after
    raise AssertionError("no such moment in the match")


def test_the_card_that_ends_a_coins_hand_is_named_with_its_trick() -> None:
    rules = games.get("coins")
    played = random_match(rules, 3, seed=7)
    before, seat, action, after = _first(
        played, rules, lambda b, a, n: n.hand_no != b.hand_no and not n.over
    )
    account = describe(rules, before, seat, action, after)
    assert f"played the {card_name(action['card'], 'spanish')}" in account["text"]
    assert "took the trick with" in account["text"] and "Hand 1 is over" in account["text"]
    assert [c["card"] for c in account["trick"]["cards"]][-1] == action["card"]
    assert len(account["trick"]["cards"]) == 3


def test_a_coins_trick_says_why_it_was_won() -> None:
    rules = games.get("coins")
    # Cups, coins and swords: clubs are missing, so cups (after clubs in the cycle) win.
    from games.coins.describe import why

    assert why(["5C", "9O", "AS"]).startswith("three suits: clubs are missing, so cups win")
    assert why(["5C", "9C", "AS"]) == "a pair of cups: the higher of the pair wins"
    assert why(["5O", "9O", "AO"]) == "all coins: the highest wins"
    assert rules.name == "coins"


def test_the_card_that_ends_a_cupid_round_is_named_with_the_prize() -> None:
    rules = games.get("cupid")
    played = random_match(rules, 2, seed=7)
    before, seat, action, after = _first(
        played, rules, lambda b, a, n: n.round != b.round and n.phase != "over"
    )
    account = describe(rules, before, seat, action, after)
    assert "played the" in account["text"] and "prize trick" in account["text"]
    assert f"Round {before.round} is over" in account["text"]
    assert len(account["trick"]["cards"]) == 2


def _cupid_next_leader(before: Any, after: Any) -> int | None:
    """Who leads the next trick, as the state after a Cupid play shows it (None: nobody,
    the match is over); a trick still waiting for its second card has none to tell."""
    if after.phase == "over":
        return None
    if after.phase == "draw":
        return int(after.next_leader)  # the trick's winner draws first, then this seat leads
    return int(after.turn)


def test_a_cupid_account_names_who_leads_only_when_that_seat_leads_next() -> None:
    rules = games.get("cupid")
    won_with_the_monster = {"mid_round": 0, "round_end": 0, "match_end": 0}
    for seed in range(150):
        played = random_match(rules, 2, seed=seed)
        for step, (seat, action) in enumerate(played.log):
            before, after = played.states[step], played.states[step + 1]
            if action["type"] != "play" or not before.trick:
                continue  # only the second card of a trick says who leads next
            text = describe(rules, before, seat, action, after)["text"]
            named = [int(n) - 1 for n in re.findall(r"Seat (\d) (?:deals and )?leads", text)]
            leader = _cupid_next_leader(before, after)
            assert all(n == leader for n in named) if leader is not None else not named, text
            lead_card = before.trick[0][1]
            if JACK not in (lead_card, action["card"]):
                continue
            winning = action["card"] if beats(action["card"], lead_card) else lead_card
            if winning != JACK:
                continue
            where = (
                "match_end"
                if leader is None
                else "round_end"
                if after.round != before.round
                else "mid_round"
            )
            won_with_the_monster[where] += 1
            # Only mid-round is there a next trick for the Monster to hand the lead to.
            assert ("won with the Monster, so" in text) == (where == "mid_round"), text
    # Every case came up: the Monster won a trick mid-round, at a round's end, at the end.
    assert all(won_with_the_monster.values()), won_with_the_monster


def test_a_challenge_names_the_downcard_and_the_points() -> None:
    rules = games.get("usurp")
    played = random_match(rules, 2, seed=7)
    before, seat, action, after = _first(played, rules, lambda b, a, n: a["type"] == "challenge")
    text = describe(rules, before, seat, action, after)["text"]
    assert f"the Downcard was the {card_name(before.pending.card)}" in text
    assert re.search(r"Seat \d \+\d+", text), text


def test_a_cups_reshuffle_is_told_only_when_it_happens() -> None:
    rules = games.get("cups")
    told = happened = 0
    for seed in range(6):
        played = random_match(rules, 4, seed=seed)
        for step, (seat, action) in enumerate(played.log):
            before, after = played.states[step], played.states[step + 1]
            text = describe(rules, before, seat, action, after)["text"]
            shuffled = after.shuffles > before.shuffles
            assert ("shuffled into the stack" in text) == shuffled, text
            told += shuffled
            happened += 1
    assert told and told < happened


def test_cups_draws_and_graveyards_give_their_counts() -> None:
    rules = games.get("cups")
    played = random_match(rules, 3, seed=3)
    before, seat, action, after = _first(
        played, rules, lambda b, a, n: dict(n.last or ()).get("effect") == "draw"
    )
    text = describe(rules, before, seat, action, after)["text"]
    assert re.search(r"and drew \d+ cards?", text), text


def test_coins_accounts_name_the_courts_as_the_spanish_deck_does() -> None:
    rules = games.get("coins")
    texts = " ".join(
        describe(rules, played.states[i], seat, action, played.states[i + 1])["text"]
        for seed in range(3)
        for played in [random_match(rules, 3, seed=seed)]
        for i, (seat, action) in enumerate(played.log)
    )
    assert "jack" not in texts
    for court in ("knave (Sota) of", "knight (Caballo) of", "king (Rey) of"):
        assert court in texts, court


def test_a_wifeswap_trick_says_why_its_card_won() -> None:
    from games.wifeswap.describe import why

    assert why(((0, "10H"), (1, "5H"), (2, "AS"))) == (
        "a 5 beats the 10 of its own suit, its nemesis"
    )
    assert why(((0, "KD"), (1, "2D"), (2, "QS"), (3, "3S"))).endswith(
        "the highest court card meeting its nemesis"
    )
    assert why(((0, "9D"), (1, "9S"), (2, "3D"))).startswith("the highest card; equal ranks")
    assert why(((0, "2D"), (1, "2C"), (2, "3D"))) == "the highest card"
    rules = games.get("wifeswap")
    played = random_match(rules, 3, seed=1)
    before, seat, action, after = _first(
        played, rules, lambda b, a, n: a["type"] == "play" and len(b.trick) == b.seats - 1
    )
    text = describe(rules, before, seat, action, after)["text"]
    assert re.search(r"won the trick with the .+ — (a \d|the highest card)", text), text


def test_counts_agree_with_their_nouns() -> None:
    from games.kit.words import scoreline

    assert scoreline((1, 0, 12), "point") == "Seat 1 1 point, Seat 2 0 points, Seat 3 12 points"
    for name in GAMES:
        rules = games.get(name)
        for seed in range(3):
            played = random_match(rules, seat_counts(rules)[0], seed=seed)
            for i, (seat, action) in enumerate(played.log):
                before, after = played.states[i], played.states[i + 1]
                text = describe(rules, before, seat, action, after)["text"]
                assert not re.search(r"(?<![\d+])1 (points|cards|Hand Points|Game Points)\b", text)


def test_a_cups_short_draw_says_what_it_gave_and_what_was_forgiven() -> None:
    rules = games.get("cups")
    short = 0
    for shortfall in ("forgiven", "democratic_league", "magellan"):
        for seed in range(6):
            played = random_match(rules, 4, seed=seed, options={"shortfall": shortfall})
            for i, (seat, action) in enumerate(played.log):
                before, after = played.states[i], played.states[i + 1]
                text = describe(rules, before, seat, action, after)["text"]
                assert "drew 0 cards" not in text, text
                if "had to draw" in text:
                    short += 1
                    assert re.search(
                        r"forgiven|dealt face up onto the dump|from the bottom of the dump|"
                        r"took nothing",
                        text,
                    ), text
    assert short


@pytest.mark.parametrize("name", GAMES)
def test_the_account_as_data_is_the_description_without_its_english(name: str) -> None:
    rules = games.get(name)
    match = random_match(rules, rules.min_seats, seed=3)
    for before, (seat, action), after in zip(
        match.states[:-1], match.log, match.states[1:], strict=True
    ):
        told = games.account_of(rules, before, seat, action, after)
        assert "text" not in told
        assert describe(rules, before, seat, action, after) == {
            "text": render(told["says"]),
            **told,
        }
