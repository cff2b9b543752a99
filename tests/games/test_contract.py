"""The one contract test every game in the registry must pass (games.kit.base.Rules).

Random seeded matches end; every legal action applies and anything else raises
``IllegalAction`` and changes nothing; ``apply`` never mutates its input; cards are
conserved; views are JSON and carry the common keys; ``replay`` rebuilds the match; the
global RNG is untouched; and no view shows a card its seat may not know, nor changes when
such cards are swapped in a stacked deck. The last completed trick is the same in every view,
and its cards are the only ones of another seat's hand that a view may name. A view's
summary of a deal already over (``past_deal_keys``) is the same for everyone, and names no
card hidden once the match is over.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from typing import Any

import pytest

import games
from games.kit.base import IllegalAction
from tests.games.randomplay import (
    Played,
    all_games,
    card_codes_in,
    current_deal,
    option_combinations,
    random_match,
    seat_counts,
)

RANDOM_MATCHES = 200
COMMON_VIEW_KEYS = {
    "game",
    "seats",
    "seat",
    "to_act",
    "scores",
    "legal_actions",
    "over",
    "winners",
    "dealer",
    "hand",
    "hand_sizes",
    "phase",
    "message",
    "last",
}

GAMES = all_games()


def _combos() -> list[tuple[str, dict[str, Any]]]:
    return [(name, combo) for name in GAMES for combo in option_combinations(games.get(name))]


def _assert_conserved(rules: Any, state: Any, expected: Counter[str]) -> None:
    zones = rules.zones(state)
    held = Counter(card for cards in zones.values() for card in cards)
    assert held == expected, f"cards not conserved: {held - expected} extra, {expected - held} lost"


@pytest.mark.parametrize("name", GAMES)
def test_registry_entry_has_the_contract_members(name: str) -> None:
    rules = games.get(name)
    assert rules.name == name
    assert isinstance(rules, games.Rules)
    assert 1 <= rules.min_seats <= rules.max_seats
    assert isinstance(rules.title, str) and rules.title
    assert isinstance(rules.lower_scores_win, bool)
    presentation = games.game(name).presentation
    assert presentation.pack in ("french", "spanish", "tarot")
    assert presentation.blurb.endswith(".") and "\n" not in presentation.blurb
    defaults = rules.default_options()
    json.dumps(defaults)
    schema = {entry["name"]: entry for entry in rules.options_schema()}
    assert set(schema) == set(defaults), "options_schema must describe every default option"
    for key, entry in schema.items():
        assert entry["default"] == defaults[key]


@pytest.mark.parametrize("name", GAMES)
def test_random_matches_end_conserve_cards_and_leave_global_random_alone(name: str) -> None:
    rules = games.get(name)
    before = random.getstate()
    counts = seat_counts(rules)
    for i in range(RANDOM_MATCHES):
        seats = counts[i % len(counts)]
        expected = Counter(rules.deck(seats, None))
        played = random_match(rules, seats, seed=1000 + i, keep_states=False)
        final = played.final
        assert rules.is_over(final)
        assert rules.to_act(final) == []
        assert all(rules.legal_actions(final, s) == [] for s in range(seats))
        scores = rules.scores(final)
        assert len(scores) == seats and all(isinstance(x, int) for x in scores)
        winners = rules.winners(final)
        assert winners and set(winners) <= set(range(seats))
        _assert_conserved(rules, final, expected)
    assert random.getstate() == before, "a game touched the global random module"


@pytest.mark.parametrize(("name", "options"), _combos())
def test_every_option_combination_plays_to_the_end(name: str, options: dict[str, Any]) -> None:
    rules = games.get(name)
    counts = seat_counts(rules)
    for i in range(12):
        seats = counts[i % len(counts)]
        played = random_match(rules, seats, seed=5000 + i, options=options)
        expected = Counter(rules.deck(seats, options))
        for state in played.states:
            _assert_conserved(rules, state, expected)
        assert games.replay(name, seats, played.seed, options, None, played.log) == played.final


def _bad_actions(rules: Any, state: Any, seat: int, deck: list[str]) -> list[Any]:
    """Garbage, wrong types and well-formed actions with a wrong value in one field."""
    legal = rules.legal_actions(state, seat)
    bad: list[Any] = [
        None,
        "play",
        42,
        [],
        {},
        {"type": None},
        {"type": 7},
        {"type": "nonsense"},
        {"card": deck[0]},
    ]
    probes = [*deck[:6], "ZZ", "", "7s", 7, None, ["AS"]]
    for action in legal[:6]:
        bad.append({**action, "unexpected": 1})
        for key, value in action.items():
            if key == "type" or not isinstance(value, str | int | type(None)):
                continue
            for probe in probes:
                candidate = {**action, key: probe}
                if candidate not in legal:
                    bad.append(candidate)
    return bad


@pytest.mark.parametrize("name", GAMES)
def test_illegal_actions_and_wrong_seats_change_nothing(name: str) -> None:
    rules = games.get(name)
    for i, seats in enumerate(seat_counts(rules) * 3):
        played = random_match(rules, seats, seed=2000 + i)
        deck = rules.deck(seats, None)
        chooser = random.Random(i)
        for state, (seat, _) in zip(played.states, played.log, strict=False):
            snapshot = copy.deepcopy(state)
            for action in chooser.sample(_bad_actions(rules, state, seat, deck), k=6):
                with pytest.raises(IllegalAction):
                    rules.apply(state, seat, action)
            legal = rules.legal_actions(state, seat)
            waiting = set(rules.to_act(state))
            for wrong in [s for s in range(seats) if s not in waiting] + [seats, -1]:
                with pytest.raises(IllegalAction, match=r"turn|seat"):
                    rules.apply(state, wrong, legal[0])
            for wrong_kind in ["0", True, None, 0.0]:
                with pytest.raises(IllegalAction):
                    rules.apply(state, wrong_kind, legal[0])
            assert state == snapshot, "a refused action changed the state"
        for action in [{"type": "play", "card": deck[0]}, {"type": "pass"}]:
            with pytest.raises(IllegalAction, match="over"):
                rules.apply(played.final, 0, action)


@pytest.mark.parametrize("name", GAMES)
def test_apply_never_mutates_its_input_and_replay_rebuilds_the_match(name: str) -> None:
    rules = games.get(name)
    for i, seats in enumerate(seat_counts(rules) * 4):
        played = random_match(rules, seats, seed=3000 + i)
        state = rules.new_game(seats, played.seed, played.options, None)
        for seat, action in played.log:
            snapshot = copy.deepcopy(state)
            after = rules.apply(state, seat, dict(action))
            assert state == snapshot, "apply mutated its input"
            state = after
        assert state == played.final, "the same seed and actions gave another match"
        rebuilt = games.replay(name, seats, played.seed, played.options, None, played.log)
        assert rebuilt == played.final
        walked = games.states(rules, seats, played.seed, played.options, None, played.log)
        assert list(walked) == played.states, "states() must yield every state, the first too"


@pytest.mark.parametrize("name", GAMES)
def test_views_are_json_with_the_common_keys(name: str) -> None:
    rules = games.get(name)
    for i, seats in enumerate(seat_counts(rules) * 2):
        deck = frozenset(rules.deck(seats, None))
        played = random_match(rules, seats, seed=4000 + i)
        for state in [*played.states[:: max(1, len(played.states) // 60)], played.final]:
            for seat in [*range(seats), None]:
                view = rules.view(state, seat)
                text = json.dumps(view, allow_nan=False)
                assert json.loads(text) == view, "a view must survive a JSON round trip"
                missing = (COMMON_VIEW_KEYS | set(rules.past_deal_keys)) - set(view)
                assert not missing, f"view lacks {sorted(missing)}"
                assert view["game"] == name and view["seats"] == seats and view["seat"] == seat
                assert view["to_act"] == rules.to_act(state)
                assert view["scores"] == rules.scores(state)
                assert view["over"] == rules.is_over(state)
                assert view["winners"] == (rules.winners(state) if view["over"] else [])
                assert len(view["hand_sizes"]) == seats
                if seat is None:
                    assert view["hand"] == [] and view["legal_actions"] == []
                else:
                    assert view["legal_actions"] == rules.legal_actions(state, seat)
            # A seat number that is not at the table sees what a spectator sees.
            for off_table in (seats, -1):
                view = rules.view(state, off_table)
                assert view["hand"] == [] and view["legal_actions"] == []
                shown = card_codes_in(current_deal(rules, view), deck)
                assert not shown & rules.hidden_cards(state, None)


@pytest.mark.parametrize("name", GAMES)
def test_new_game_refuses_bad_settings(name: str) -> None:
    rules = games.get(name)
    deck = rules.deck(rules.min_seats, None)
    for seats in (rules.min_seats - 1, rules.max_seats + 1):
        with pytest.raises(ValueError):
            rules.new_game(seats, 1)
    with pytest.raises(ValueError, match="option"):
        rules.new_game(rules.min_seats, 1, {"no_such_option": 1})
    with pytest.raises(ValueError):
        rules.new_game(rules.min_seats, 1, {"dealer": rules.min_seats})
    for broken in (deck[1:], [*deck[1:], deck[1]], [*deck, "ZZ"]):
        with pytest.raises(ValueError):
            rules.new_game(rules.min_seats, 1, None, broken)
    for entry in rules.options_schema():
        wrong: Any = "not-a-valid-value" if entry["type"] != "choice" else object.__name__
        with pytest.raises(ValueError):
            rules.new_game(rules.min_seats, 1, {entry["name"]: wrong})
    first = rules.new_game(rules.min_seats, 1)
    assert rules.new_game(rules.min_seats, 1) == first, "new_game must be deterministic"
    assert any(rules.new_game(rules.min_seats, s) != first for s in range(2, 6))
    assert rules.new_game(rules.min_seats, 1, None, deck) == rules.new_game(
        rules.min_seats, 1, None, list(deck)
    )


# --- hidden information ---------------------------------------------------------------


def _last_trick_cards(view: dict[str, Any]) -> set[str]:
    """The cards of the completed trick a view shows face up (its ``last_trick``, if any).

    The one place a card in a hand may be public: the last trick stays on show as played
    until the next trick starts, though in Royal Wife-Swap its cards may have been drawn
    into hands since. The spectator's view says which trick that is.
    """
    last = view.get("last_trick")
    if not isinstance(last, dict):
        return set()
    return {entry["card"] for entry in last.get("cards", []) if isinstance(entry.get("card"), str)}


def _check_no_hidden_code(rules: Any, state: Any, seats: int, deck: frozenset[str]) -> None:
    views = {seat: rules.view(state, seat) for seat in [*range(seats), None]}
    over = rules.is_over(state)
    shown_trick = _last_trick_cards(views[None])
    for seat, view in views.items():
        hidden = rules.hidden_cards(state, seat)
        # Once the match is over no deal follows: a summary of the last one names its cards
        # where they lie, so the whole view is checked.
        leaked = card_codes_in(view if over else current_deal(rules, view), deck) & hidden
        assert not leaked, f"seat {seat} sees cards it may not know: {sorted(leaked)}"
        for key in rules.past_deal_keys:
            assert view[key] == views[None][key], f"seat {seat}'s {key} is not the public one"
        assert view.get("last_trick") == views[None].get("last_trick"), (
            f"seat {seat}'s last trick is not the public one"
        )
        for other in range(seats):
            if other != seat:
                mine = set(views[other]["hand"]) - shown_trick
                assert mine <= hidden, (
                    f"hidden_cards({seat}) must include seat {other}'s hand: {mine - hidden}"
                )


def _swapped_views_match(
    rules: Any, played: Played, step: int, seat: int | None, never_known: set[str], rng: Any
) -> int:
    """Swap pairs of never-known cards in the deck; the seat's view at ``step`` must not move."""
    checked = 0
    base_view = rules.view(played.states[step], seat)
    pool = sorted(never_known)
    for _ in range(3):
        if len(pool) < 2:
            break
        x, y = rng.sample(pool, 2)
        deck = [y if c == x else x if c == y else c for c in played.deck or []]
        try:
            state = rules.new_game(played.seats, played.seed, played.options, deck)
            for seat_acting, action in played.log[:step]:
                state = rules.apply(state, seat_acting, action)
        except IllegalAction:
            continue  # someone acted with a swapped card face down: that world differs
        assert rules.view(state, seat) == base_view, (
            f"seat {seat}'s view changed when unseen cards {x} and {y} were swapped"
        )
        checked += 1
    return checked


@pytest.mark.parametrize("name", GAMES)
def test_views_hide_what_a_seat_may_not_know(name: str) -> None:
    rules = games.get(name)
    checked = 0
    for i, seats in enumerate(seat_counts(rules) * 3):
        deck = rules.deck(seats, None)
        stacked = random.Random(i).sample(deck, len(deck))
        dealer = i % seats
        played = random_match(rules, seats, seed=6000 + i, options={"dealer": dealer}, deck=stacked)
        codes = frozenset(deck)
        for state in played.states:
            _check_no_hidden_code(rules, state, seats, codes)
        rng = random.Random(i)
        checkpoints = sorted({0, 1, 2, len(played.log) // 3, len(played.log) // 2})
        for seat in [*range(seats), None]:
            never_known = set(deck)
            step = 0
            for checkpoint in checkpoints:
                while step <= checkpoint and step < len(played.states):
                    never_known &= rules.hidden_cards(played.states[step], seat)
                    step += 1
                if checkpoint < len(played.states):
                    checked += _swapped_views_match(
                        rules, played, checkpoint, seat, never_known, rng
                    )
    assert checked > 0, "no swap of unseen cards could be checked"


@pytest.mark.parametrize("name", GAMES)
def test_options_of_the_wrong_type_are_refused(name: str) -> None:
    """15.0 is not 15 and True is not 1, even where they compare equal."""
    rules = games.get(name)
    for entry in rules.options_schema():
        values = entry.get("choices") or [entry["default"]]
        for value in values:
            if isinstance(value, bool):
                wrong: Any = int(value)
            elif isinstance(value, int):
                wrong = float(value)
            else:
                continue
            with pytest.raises(ValueError):
                rules.new_game(rules.min_seats, 1, {entry["name"]: wrong})
